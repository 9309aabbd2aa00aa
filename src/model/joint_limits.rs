//! Joint limits: bounds on single-axis minimal coordinates of a joint (a translational
//! coordinate, or the rotation of a joint with one rotational free direction). The
//! physics — an inequality node per active bound in the interior point — is in
//! `crate::limits`.

use super::JointId;

/// Bounds on one minimal coordinate of a joint (index as `Joint::minimal_position`
/// writes them: translations first). `lower` may be −∞ and `upper` +∞ (that side is free).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointLimit {
    pub joint: JointId,
    pub coordinate: usize,
    pub lower: f64,
    pub upper: f64,
}

impl JointLimit {
    /// Whether either side bounds the coordinate.
    pub fn is_bounded(&self) -> bool {
        self.lower > f64::NEG_INFINITY || self.upper < f64::INFINITY
    }
}
