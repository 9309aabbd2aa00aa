//! Quaternions in the paper's notation (appendix A): Hamilton product, scalar first,
//! q = [w; x; y; z], body → world. L(q) p = q ⊗ p, R(q) p = p ⊗ q, T = diag(1,−1,−1,−1),
//! V = [0 I₃] extracts the vector part, Q(q) = V L(q) R(q)ᵀ Vᵀ is the rotation matrix.

use super::{skew, M3, M34, M4, M43, V3, V4};

pub const IDENTITY: V4 = V4::new(1.0, 0.0, 0.0, 0.0);

#[inline]
pub fn lmat(q: &V4) -> M4 {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3]);
    M4::new(w, -x, -y, -z, x, w, -z, y, y, z, w, -x, z, -y, x, w)
}

#[inline]
pub fn rmat(q: &V4) -> M4 {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3]);
    M4::new(w, -x, -y, -z, x, w, z, -y, y, -z, w, x, z, y, -x, w)
}

/// T: the conjugation matrix, q* = T q.
#[inline]
pub fn tmat() -> M4 {
    M4::from_diagonal(&V4::new(1.0, -1.0, -1.0, -1.0))
}

/// Vᵀ: embeds a 3-vector as a pure quaternion (4×3).
#[inline]
pub fn vt() -> M43 {
    let mut m = M43::zeros();
    m[(1, 0)] = 1.0;
    m[(2, 1)] = 1.0;
    m[(3, 2)] = 1.0;
    m
}

#[inline]
pub fn qmul(a: &V4, b: &V4) -> V4 {
    lmat(a) * b
}

#[inline]
pub fn conj(q: &V4) -> V4 {
    V4::new(q[0], -q[1], -q[2], -q[3])
}

#[inline]
pub fn vec_part(q: &V4) -> V3 {
    V3::new(q[1], q[2], q[3])
}

#[inline]
pub fn pure(v: &V3) -> V4 {
    V4::new(0.0, v.x, v.y, v.z)
}

/// Rotation matrix Q(q).
pub fn rotation(q: &V4) -> M3 {
    let (w, x, y, z) = (q[0], q[1], q[2], q[3]);
    M3::new(
        w * w + x * x - y * y - z * z,
        2.0 * (x * y - w * z),
        2.0 * (x * z + w * y),
        2.0 * (x * y + w * z),
        w * w - x * x + y * y - z * z,
        2.0 * (y * z - w * x),
        2.0 * (x * z - w * y),
        2.0 * (y * z + w * x),
        w * w - x * x - y * y + z * z,
    )
}

/// ∂(Q(q) p)/∂q (3×4), q not assumed unit (Q is the homogeneous quadratic form).
pub fn d_rotate(q: &V4, p: &V3) -> M34 {
    let w = q[0];
    let v = vec_part(q);
    // Q(q)p = (w² − vᵀv) p + 2 v (vᵀp) + 2 w (v × p)
    let dw = 2.0 * w * p + 2.0 * v.cross(p);
    let dv = -2.0 * p * v.transpose() + 2.0 * (M3::identity() * v.dot(p) + v * p.transpose())
        - 2.0 * w * skew(p);
    let mut m = M34::zeros();
    m.set_column(0, &dw);
    m.fixed_view_mut::<3, 3>(0, 1).copy_from(&dv);
    m
}

/// ∂(Q(q)ᵀ p)/∂q (3×4).
pub fn d_rotate_transpose(q: &V4, p: &V3) -> M34 {
    d_rotate(&conj(q), p) * tmat()
}

/// The unit quaternion along `q`, None when |q| < 1e-12 or q is not finite. When the
/// squares overflow (components near 1e308) q is scaled by its largest component first.
pub fn unit_quaternion(q: &V4) -> Option<V4> {
    let n = q.norm();
    if n.is_finite() {
        return (n >= 1e-12).then(|| q / n);
    }
    let m = q.amax();
    m.is_finite().then(|| (q / m).normalize())
}

/// |r|, without overflow of the squares (angles beyond 1e154 rad).
fn robust_norm(r: &V3) -> f64 {
    let n = r.norm();
    if n.is_finite() {
        return n;
    }
    let m = r.amax();
    if m.is_finite() {
        m * (r / m).norm()
    } else {
        m
    }
}

/// Unit quaternion of a rotation vector (axis·angle).
pub fn from_rotation_vector(r: &V3) -> V4 {
    let th = robust_norm(r);
    if th < 1e-300 {
        return IDENTITY;
    }
    let s = (0.5 * th).sin() / th;
    V4::new((0.5 * th).cos(), s * r.x, s * r.y, s * r.z)
}

/// Rotation vector of a unit quaternion, angle in [0, π].
pub fn rotation_vector(q: &V4) -> V3 {
    let q = if q[0] < 0.0 { -q } else { *q };
    let v = vec_part(&q);
    let s = v.norm();
    if s < 1e-300 {
        return V3::zeros();
    }
    v * (2.0 * s.atan2(q[0]) / s)
}

/// s = √(4/dt² − ωᵀω) of the step rotation, with the sign of dt: a step back in time
/// (the fourth-order composition's middle step) turns back by ω|dt| and keeps the
/// quaternion's scalar part positive, (dt/2)s = (|dt|/2)√(…).
#[inline]
pub fn step_scalar(w: &V3, dt: f64) -> f64 {
    let s = (4.0 / (dt * dt) - w.norm_squared()).sqrt();
    if dt < 0.0 {
        -s
    } else {
        s
    }
}

/// The discrete rotation over one step: ω̄ = (dt/2)[√(4/dt² − ωᵀω); ω] (paper sec. 3.1).
/// Unit norm by construction; requires |ω| < 2/dt.
#[inline]
pub fn step_rotation(w: &V3, dt: f64) -> V4 {
    let s = step_scalar(w, dt);
    V4::new(0.5 * dt * s, 0.5 * dt * w.x, 0.5 * dt * w.y, 0.5 * dt * w.z)
}

/// ∂ω̄/∂ω (4×3).
#[inline]
pub fn d_step_rotation(w: &V3, dt: f64) -> M43 {
    let s = step_scalar(w, dt);
    let mut m = M43::zeros();
    m[(0, 0)] = -0.5 * dt * w.x / s;
    m[(0, 1)] = -0.5 * dt * w.y / s;
    m[(0, 2)] = -0.5 * dt * w.z / s;
    m[(1, 0)] = 0.5 * dt;
    m[(2, 1)] = 0.5 * dt;
    m[(3, 2)] = 0.5 * dt;
    m
}

/// Angular velocity (body frame) that turns q1 into q2 in one step: inverse of `step_rotation`.
pub fn velocity_between(q1: &V4, q2: &V4, dt: f64) -> V3 {
    let mut d = qmul(&conj(q1), q2);
    if d[0] < 0.0 {
        d = -d;
    }
    vec_part(&d) * (2.0 / dt)
}
