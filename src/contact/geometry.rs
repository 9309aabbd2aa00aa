//! Contact geometry: the gap φ at z_{k+2} with its analytic velocity Jacobian, and the
//! maps at the contact point at z_{k+1} (where the forces act, like G(z_{k+1}) for joints).
//!
//!   plane:   φ = n·(x + Q(q) p) − offset − r
//!   spheres: φ = n₁·(c_a − c_b) − r_a − r_b,   c = x + Q(q) p,
//!            n₁ the unit normal (c_a − c_b)/|c_a − c_b| at z_{k+1}
//!
//! The sphere pair's gap is the signed distance along the normal of z_{k+1} (where its
//! force acts), not the distance |c_a − c_b| at z_{k+2}: the two agree to second order in
//! the step's rotation of the normal (n₁·d ≤ |d|, so the constraint is the stricter one),
//! and only the signed one stays negative when a fast sphere would pass through the other
//! within a step (the distance is positive again behind it; `tests/contact_culling.rs`).
//!
//! Units follow the body residual: forces in the world frame, rotational rows twice the
//! body-frame torque, so a force f at body point p_c enters as [f; 2 p_c × Q(q)ᵀ f]. The
//! slip velocity of a contact point is v + Q(q)(ω × p_c), projected on a direction t:
//! tᵀv + (p_c × Q(q)ᵀt)ᵀω.

use super::cone::{directions, Layout, MAX_K};
use super::{Contact, ContactShape, MAX_DIRECTIONS};
use crate::integrator::joint_rows::{advance, velocity_map};
use crate::math::{d_rotate, rotation, V3, V4};

/// A contact's force and slip maps at z_{k+1}, fixed during a step.
#[derive(Debug, Clone)]
pub struct ContactFrame {
    /// Unit normal (world), pointing into the free side of body a (plane: the plane normal).
    pub n: V3,
    /// Friction directions (world), `layout.nt` of them.
    pub dirs: [V3; MAX_DIRECTIONS],
    /// Bodies acted on (1 or 2).
    pub bodies: [usize; 2],
    pub sides: usize,
    /// Per side: body rows × K columns (6 × nk, row-major); the body residual gets −W·K.
    pub w: [[f64; 6 * MAX_K]; 2],
    /// Per side: slip rows × body velocity (nt × 6, row-major), relative slip of a w.r.t. b.
    pub bv: [[f64; 6 * MAX_DIRECTIONS]; 2],
}

impl Default for ContactFrame {
    fn default() -> Self {
        ContactFrame {
            n: V3::z(),
            dirs: [V3::zeros(); MAX_DIRECTIONS],
            bodies: [0; 2],
            sides: 1,
            w: [[0.0; 6 * MAX_K]; 2],
            bv: [[0.0; 6 * MAX_DIRECTIONS]; 2],
        }
    }
}

/// Contact point of each side in its body frame, and the world normal, at (x, q).
fn normal_and_points(c: &Contact, x: &[V3], q: &[V4]) -> (V3, [V3; 2]) {
    match c.shape {
        ContactShape::Plane { body, p, radius, normal, .. } => {
            let nb = rotation(&q[body]).transpose() * normal;
            (normal, [p - nb * radius, V3::zeros()])
        }
        ContactShape::Spheres { body_a, pa, ra, body_b, pb, rb } => {
            let (qa, qb) = (rotation(&q[body_a]), rotation(&q[body_b]));
            let d = x[body_a] + qa * pa - (x[body_b] + qb * pb);
            let nd = d.norm();
            // coincident centres have no direction; any unit vector keeps the node regular
            let n = if nd > 1e-12 { d / nd } else { V3::z() };
            (n, [pa - qa.transpose() * n * ra, pb + qb.transpose() * n * rb])
        }
    }
}

/// Fills the frame of contact `c` at z_{k+1} = (x1, q1).
pub fn frame(c: &Contact, layout: &Layout, x1: &[V3], q1: &[V4], f: &mut ContactFrame) {
    let (n, pts) = normal_and_points(c, x1, q1);
    f.n = n;
    directions(layout, &n, &mut f.dirs);
    let (a, b) = c.bodies();
    f.bodies = [a, b.unwrap_or(a)];
    f.sides = if b.is_some() { 2 } else { 1 };
    let nk = layout.nk;
    for side in 0..f.sides {
        let body = f.bodies[side];
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let rt = rotation(&q1[body]).transpose();
        let pc = pts[side];
        let w = &mut f.w[side];
        // column 0: normal force, columns 1..: friction directions
        let mut put_col = |col: usize, dir: &V3| {
            let tq = pc.cross(&(rt * dir)) * 2.0;
            for r in 0..3 {
                w[r * nk + col] = sign * dir[r];
                w[(3 + r) * nk + col] = sign * tq[r];
            }
        };
        put_col(0, &n);
        for i in 0..layout.nt {
            put_col(1 + i, &f.dirs[i]);
        }
        for i in 0..layout.nt {
            let d = f.dirs[i];
            let rot = pc.cross(&(rt * d));
            let row = &mut f.bv[side][i * 6..i * 6 + 6];
            for r in 0..3 {
                row[r] = sign * d[r];
                row[3 + r] = sign * rot[r];
            }
        }
    }
}

/// Gap at z_{k+2}(v, ω) and its Jacobian with respect to each side's (v, ω) (1 × 6).
/// `vel(body)` gives the body's unknown (v, ω) at the current iterate.
pub fn gap_and_jacobian(
    c: &Contact,
    x1: &[V3],
    q1: &[V4],
    dt: f64,
    vel: impl Fn(usize) -> (V3, V3),
    jac: Option<&mut [[f64; 6]; 2]>,
) -> f64 {
    let pose = |b: usize| {
        let (v, w) = vel(b);
        (advance(&x1[b], &q1[b], &v, &w, dt), w)
    };
    // ∂(u·(x + Q(q) p))/∂(v, ω) for one side
    let side = |u: &V3, b: usize, p: &V3, q3: &V4, w: &V3, sign: f64, out: &mut [f64; 6]| {
        let dq = d_rotate(q3, p).transpose() * u; // 4
        let dw = velocity_map(&q1[b], w, dt).transpose() * dq; // 3
        for r in 0..3 {
            out[r] = sign * u[r] * dt;
            out[3 + r] = sign * dw[r];
        }
    };
    match c.shape {
        ContactShape::Plane { body, p, radius, normal, offset } => {
            let (ps, w) = pose(body);
            let phi = normal.dot(&(ps.x + rotation(&ps.q) * p)) - offset - radius;
            if let Some(j) = jac {
                side(&normal, body, &p, &ps.q, &w, 1.0, &mut j[0]);
            }
            phi
        }
        ContactShape::Spheres { body_a, pa, ra, body_b, pb, rb } => {
            // signed distance along the normal at z_{k+1}: two spheres cannot pass through
            // each other within a step (|d| would be positive again behind the other)
            let (n1, _) = normal_and_points(c, x1, q1);
            let (sa, wa) = pose(body_a);
            let (sb, wb) = pose(body_b);
            let d = sa.x + rotation(&sa.q) * pa - (sb.x + rotation(&sb.q) * pb);
            if let Some(j) = jac {
                side(&n1, body_a, &pa, &sa.q, &wa, 1.0, &mut j[0]);
                side(&n1, body_b, &pb, &sb.q, &wb, -1.0, &mut j[1]);
            }
            n1.dot(&d) - ra - rb
        }
    }
}

/// Gap at a configuration (x, q) (the state the user sees).
pub fn gap(c: &Contact, x: &[V3], q: &[V4]) -> f64 {
    match c.shape {
        ContactShape::Plane { body, p, radius, normal, offset } => normal.dot(&(x[body] + rotation(&q[body]) * p)) - offset - radius,
        ContactShape::Spheres { body_a, pa, ra, body_b, pb, rb } => {
            (x[body_a] + rotation(&q[body_a]) * pa - (x[body_b] + rotation(&q[body_b]) * pb)).norm() - ra - rb
        }
    }
}
