//! Free rigid-body part of the discrete Euler–Lagrange equations (paper eq. d_{0,T},
//! d_{0,R}), in force units (rotational rows are twice a torque, as in the paper):
//! ```text
//!   d_T = m (v₁ − v₀)/h₀ − m g − F
//!   d_R = (h₁/h₀)(s₁ I + [ω₁]×) J ω₁ − (s₀ I − [ω₀]×) J ω₀ − 2τ,   sᵢ = √(4/hᵢ² − ωᵢᵀωᵢ)
//! ```
//! h₀ is the interval of the known velocities (v₀, ω₀), h₁ the interval of the unknown ones.
//! With h₀ = h₁ = dt these are the paper's equations; different intervals (a step split
//! in halves when Newton fails, `Sim::step`) follow from the discrete Lagrangian of each
//! interval: the momenta (h/2)(s I ± \[ω\]×)Jω of the two intervals meet the impulses h₀·F.

use crate::math::{skew, M3, V3};

#[inline]
fn s_of(w: &V3, dt: f64) -> f64 {
    crate::math::step_scalar(w, dt)
}

/// What one body's rows know before the solve: its mass and inertia, gravity, the
/// intervals h₀ (of the known velocities) and h₁ (of the unknown ones), the known
/// velocity v₀ and the applied force and torque.
#[derive(Debug, Clone, Copy)]
pub struct Known<'a> {
    pub mass: f64,
    pub inertia: &'a M3,
    pub gravity: &'a V3,
    pub h0: f64,
    pub h1: f64,
    pub v0: &'a V3,
    pub force: &'a V3,
    pub torque: &'a V3,
}

/// Residual of one body (6 entries) before constraint forces, the known angular velocity
/// ω₀ given.
pub fn residual(k: &Known, w0: &V3, v1: &V3, w1: &V3, out: &mut [f64]) {
    residual_from(k, &known_momentum(k.inertia, k.h0, w0), v1, w1, out);
}

/// The known interval's term (s₀ I − [ω₀]×) J ω₀ of d_R, fixed for the step.
#[inline]
pub fn known_momentum(j: &M3, h0: f64, w0: &V3) -> V3 {
    let jw0 = j * w0;
    s_of(w0, h0) * jw0 - w0.cross(&jw0)
}

/// [`residual`] with the known interval's term `p0` ([`known_momentum`]) given.
#[inline]
pub fn residual_from(k: &Known, p0: &V3, v1: &V3, w1: &V3, out: &mut [f64]) {
    let Known { mass: m, inertia: j, gravity: g, h0, h1, v0, force: f, torque: tau } = *k;
    let dt_ = m * (v1 - v0) / h0 - m * g - f;
    let jw1 = j * w1;
    let dr = (h1 / h0) * (s_of(w1, h1) * jw1 + w1.cross(&jw1)) - p0 - 2.0 * tau;
    let out: &mut [f64; 6] = out.try_into().expect("six body rows");
    *out = [dt_.x, dt_.y, dt_.z, dr.x, dr.y, dr.z];
}

/// ∂d/∂(v₁, ω₁) (6×6, row-major) written into `out`: every entry, the zeros too.
pub fn write_jacobian(m: f64, j: &M3, h0: f64, h1: f64, w1: &V3, out: &mut [f64]) {
    let s = s_of(w1, h1);
    let jw = j * w1;
    // ∂/∂ω [s J ω + ω × J ω] = J ω (−ωᵀ/s) + s J + [ω]× J − [J ω]×
    let dr = (-(jw * w1.transpose()) / s + s * j + skew(w1) * j - skew(&jw)) * (h1 / h0);
    let out: &mut [f64; 36] = out.try_into().expect("a 6×6 block");
    *out = [0.0; 36];
    for r in 0..3 {
        out[r * 6 + r] = m / h0;
        for c in 0..3 {
            out[(3 + r) * 6 + 3 + c] = dr[(r, c)];
        }
    }
}

/// [`write_jacobian`] added into `out`.
pub fn add_jacobian(m: f64, j: &M3, h0: f64, h1: f64, w1: &V3, out: &mut [f64]) {
    let mut b = [0.0; 36];
    write_jacobian(m, j, h0, h1, w1, &mut b);
    out.iter_mut().zip(b).for_each(|(o, v)| *o += v);
}
