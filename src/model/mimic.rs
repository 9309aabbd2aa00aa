//! Mimic joints: the exact equality q_follower = multiplier · q_leader + offset between
//! two one-coordinate joints (URDF `<mimic>`). The physics — one constraint row coupling
//! the bodies of both joints — is in `crate::mimic`.

use super::JointId;
use crate::joints::Joint;

/// q_follower = multiplier · q_leader + offset (minimal coordinates, radians or metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mimic {
    pub follower: JointId,
    pub leader: JointId,
    pub multiplier: f64,
    pub offset: f64,
}

impl Mimic {
    /// The bodies the mimic acts on (those of both joints, each once), for the graph.
    pub fn bodies(&self, joints: &[Joint]) -> Vec<usize> {
        let mut out = Vec::with_capacity(4);
        for j in [&joints[self.follower], &joints[self.leader]] {
            for b in [j.parent, Some(j.child)].into_iter().flatten() {
                if !out.contains(&b) {
                    out.push(b);
                }
            }
        }
        out
    }
}
