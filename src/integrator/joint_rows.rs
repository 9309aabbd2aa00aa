//! Joint rows of the step: constraint values at z_{k+2}, their velocity Jacobian, and
//! the constraint forces −G(z_{k+1})ᵀλ on the bodies (paper sec. 3.2).

use crate::joints::constraint::{GeneralConstraint, Pose, Side};
use crate::joints::Joint;
use crate::math::{d_step_rotation, lmat, vt, M43, V3, V4};

/// Pose at z_{k+2} from z_{k+1} and the step's unknown velocities (the one pose update,
/// kept here under its old path).
pub use super::prediction::advance;

/// The 4×3 map from a body's angular velocity unknown to dq at z_{k+2}: L(q_{k+1}) ∂ω̄/∂ω.
#[inline]
pub fn velocity_map(q1: &V4, w: &V3, dt: f64) -> M43 {
    lmat(q1) * d_step_rotation(w, dt)
}

/// The 4×3 map of the multiplier Jacobian G at z_{k+1}: L(q) Vᵀ.
#[inline]
pub fn rotational_map(q: &V4) -> M43 {
    lmat(q) * vt()
}

/// G blocks (nc×6 each) of a joint at configuration (a, b), the multiplier Jacobian.
pub fn multiplier_jacobian(j: &Joint, a: &Pose, b: &Pose, ga: &mut [f64], gb: &mut [f64]) {
    let g = GeneralConstraint::eval(j, a, b);
    if j.parent.is_some() {
        j.jacobian_block(&g, Side::Parent, 1.0, &rotational_map(&a.q), ga);
    }
    j.jacobian_block(&g, Side::Child, 1.0, &rotational_map(&b.q), gb);
}
