//! Free rigid-body part of the discrete Euler–Lagrange equations (paper eq. d_{0,T},
//! d_{0,R}), in force units (rotational rows are twice a torque, as in the paper):
//!   d_T = m (v₁ − v₀)/dt − m g − F
//!   d_R = (s₁ I + [ω₁]×) J ω₁ − (s₀ I − [ω₀]×) J ω₀ − 2τ,   sᵢ = √(4/dt² − ωᵢᵀωᵢ)

use crate::math::{skew, M3, V3};

#[inline]
fn s_of(w: &V3, dt: f64) -> f64 {
    (4.0 / (dt * dt) - w.norm_squared()).sqrt()
}

/// Residual of one body (6 entries) before constraint forces.
pub fn residual(m: f64, j: &M3, g: &V3, dt: f64, v0: &V3, w0: &V3, v1: &V3, w1: &V3, f: &V3, tau: &V3, out: &mut [f64]) {
    let dt_ = m * (v1 - v0) / dt - m * g - f;
    let jw1 = j * w1;
    let jw0 = j * w0;
    let dr = s_of(w1, dt) * jw1 + w1.cross(&jw1) - (s_of(w0, dt) * jw0 - w0.cross(&jw0)) - 2.0 * tau;
    out[..3].copy_from_slice(dt_.as_slice());
    out[3..6].copy_from_slice(dr.as_slice());
}

/// ∂d/∂(v₁, ω₁) (6×6, row-major), added into `out`.
pub fn add_jacobian(m: f64, j: &M3, dt: f64, w1: &V3, out: &mut [f64]) {
    let s = s_of(w1, dt);
    let jw = j * w1;
    // ∂/∂ω [s J ω + ω × J ω] = J ω (−ωᵀ/s) + s J + [ω]× J − [J ω]×
    let dr = -(jw * w1.transpose()) / s + s * j + skew(w1) * j - skew(&jw);
    for r in 0..3 {
        out[r * 6 + r] += m / dt;
        for c in 0..3 {
            out[(3 + r) * 6 + 3 + c] += dr[(r, c)];
        }
    }
}
