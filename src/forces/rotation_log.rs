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

/// β(θ) of J_r⁻¹.
#[inline]
fn beta(th: f64) -> f64 {
    // series below 1e-3 avoids cancellation: β = 1/12 + θ²/720 + O(θ⁴)
    if th < 1e-3 {
        1.0 / 12.0 + th * th / 720.0
    } else {
        1.0 / (th * th) - (1.0 + th.cos()) / (2.0 * th * th.sin())
    }
}

/// J_r⁻¹(r), the inverse right Jacobian of SO(3).
pub fn inverse_right_jacobian(r: &V3) -> M3 {
    let k = skew(r);
    M3::identity() + 0.5 * k + beta(r.norm()) * (k * k)
}

/// ∂(J_r⁻¹(r) c)/∂r for a fixed vector c (the spring's second derivative): with
/// J_r⁻¹ c = c + ½ r × c + β(θ) r × (r × c) and r × (r × c) = r (rᵀc) − c (rᵀr),
/// ```text
///   −½[c]× + β (r cᵀ + (rᵀc) I − 2 c rᵀ) + (β′(θ)/θ) (r × (r × c)) rᵀ,
///   β′ = −2/θ³ + (1 + cos θ)/(2θ² sin θ) + 1/(2θ (1 − cos θ)).
/// ```
pub fn inverse_right_jacobian_derivative(r: &V3, c: &V3) -> M3 {
    let th = r.norm();
    // β′/θ = 1/360 + θ²/7560 + θ⁴/201600 + O(θ⁶); the closed form loses ~ε/θ⁴ to
    // cancellation, which the series avoids below 1e-2 (its remainder is below 1e-16 there)
    let dbeta_over_theta = if th < 1e-2 {
        let t2 = th * th;
        1.0 / 360.0 + t2 / 7560.0 + t2 * t2 / 201600.0
    } else {
        let (s, co) = th.sin_cos();
        (-2.0 / th.powi(3) + (1.0 + co) / (2.0 * th * th * s) + 1.0 / (2.0 * th * (1.0 - co))) / th
    };
    let rc = r.dot(c);
    let rrc = r * rc - c * r.norm_squared();
    -0.5 * skew(c) + beta(th) * (r * c.transpose() + M3::from_diagonal_element(rc) - 2.0 * c * r.transpose()) + dbeta_over_theta * rrc * r.transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Central differences of J_r⁻¹(r) c over r, at angles across the series' switch
    /// and up to 3 rad.
    #[test]
    fn derivative_matches_central_differences() {
        let c = V3::new(0.3, -0.8, 0.5);
        let dir = V3::new(0.2, 0.7, -0.4).normalize();
        let mut worst: f64 = 0.0;
        for th in [1e-5, 5e-4, 2e-3, 9e-3, 1.1e-2, 0.3, 1.0, 2.0, 3.0] {
            let r = dir * th;
            let d = inverse_right_jacobian_derivative(&r, &c);
            let h = 1e-6;
            for k in 0..3 {
                let e = V3::ith(k, h);
                let fd = (inverse_right_jacobian(&(r + e)) * c - inverse_right_jacobian(&(r - e)) * c) / (2.0 * h);
                worst = worst.max((fd - d.column(k)).norm() / d.norm());
            }
        }
        // central differences, h = 1e-6: 2.5e-10 measured (their rounding)
        assert!(worst < 1e-9, "{worst:e}");
    }
}
