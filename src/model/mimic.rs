//! Mimic joints: the exact equality q_follower = multiplier · q_leader + offset between
//! two one-coordinate joints (URDF `<mimic>`). The physics — one constraint row coupling
//! the bodies of both joints — is in `crate::mimic`.

use super::JointId;

/// q_follower = multiplier · q_leader + offset (minimal coordinates, radians or metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mimic {
    pub follower: JointId,
    pub leader: JointId,
    pub multiplier: f64,
    pub offset: f64,
}
