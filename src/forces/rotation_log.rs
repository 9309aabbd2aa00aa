//! Derivative of the rotation vector (the log map) of a unit quaternion, needed for the
//! exact gradient of a spring on rotational minimal coordinates.
//!
//! With r = log(q) and a right perturbation q ⊗ exp(ψ): r + J_r⁻¹(r) ψ + O(ψ²), where
//! ```text
//!   J_r⁻¹(r) = I + ½[r]× + β(θ)[r]×²,   β = 1/θ² − (1 + cos θ)/(2θ sin θ),  θ = |r|.
//! ```
//! A left perturbation exp(ψ) ⊗ q gives J_l⁻¹ = J_r⁻¹ᵀ. Singular at θ = π (where the
//! rotation vector itself jumps).

use crate::math::{skew, M3, V3};

/// J_r⁻¹(r), the inverse right Jacobian of SO(3).
pub fn inverse_right_jacobian(r: &V3) -> M3 {
    let th = r.norm();
    // series below 1e-3 avoids cancellation: β = 1/12 + θ²/720 + O(θ⁴)
    let beta = if th < 1e-3 {
        1.0 / 12.0 + th * th / 720.0
    } else {
        1.0 / (th * th) - (1.0 + th.cos()) / (2.0 * th * th.sin())
    };
    let k = skew(r);
    M3::identity() + 0.5 * k + beta * (k * k)
}
