//! Force-element parameters (paper section 2): joint springs and dampers, point-to-point
//! springs. Their residual and Jacobian terms are in `crate::forces`.

use crate::math::V3;

/// The force elements of a mechanism (part of `Builder` and `Model`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForceElements {
    /// At most one per joint.
    pub joint_springs: Vec<JointSpring>,
    /// At most one per joint.
    pub joint_dampers: Vec<JointDamper>,
    pub point_springs: Vec<PointSpring>,
}

impl ForceElements {
    /// Sets (or replaces) the spring of a joint.
    pub(crate) fn set_joint_spring(&mut self, s: JointSpring) {
        match self.joint_springs.iter_mut().find(|x| x.joint == s.joint) {
            Some(x) => *x = s,
            None => self.joint_springs.push(s),
        }
    }

    /// Sets (or replaces) the damper of a joint.
    pub(crate) fn set_joint_damper(&mut self, d: JointDamper) {
        match self.joint_dampers.iter_mut().find(|x| x.joint == d.joint) {
            Some(x) => *x = d,
            None => self.joint_dampers.push(d),
        }
    }
}

/// Spring on the free directions of one joint: V = ½ Σᵢ kᵢ (θᵢ − restᵢ)² on its minimal
/// coordinates θ (translations first, then the projected rotation vector).
#[derive(Debug, Clone, PartialEq)]
pub struct JointSpring {
    pub joint: usize,
    /// Per free direction (translations first): N/m or N·m/rad. Unused entries are 0.
    pub stiffness: [f64; 6],
    /// Rest position in minimal coordinates.
    pub rest: [f64; 6],
}

/// Damper on the free directions of one joint: a generalized force −cᵢ ξᵢ on each, with ξ
/// the minimal velocity.
#[derive(Debug, Clone, PartialEq)]
pub struct JointDamper {
    pub joint: usize,
    /// Per free direction (translations first): N·s/m or N·m·s/rad. Unused entries are 0.
    pub damping: [f64; 6],
}

impl JointDamper {
    /// Whether any direction is damped (then the damper couples its two bodies).
    pub fn is_active(&self) -> bool {
        self.damping.iter().any(|&c| c != 0.0)
    }
}

/// Point-to-point spring and damper between point `pa` of body a (or a fixed world point)
/// and point `pb` of body b, along the line between them: V = ½ k (ℓ − ℓ₀)², force −c ℓ̇.
#[derive(Debug, Clone, PartialEq)]
pub struct PointSpring {
    /// Body a, or None for the world (then `pa` is a world point).
    pub a: Option<usize>,
    pub pa: V3,
    pub b: usize,
    pub pb: V3,
    pub stiffness: f64,
    pub damping: f64,
    pub rest_length: f64,
}
