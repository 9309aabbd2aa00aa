//! Analytic derivatives against central finite differences (the only place finite
//! differences appear): quaternion rotation derivatives (appendix A), the general joint
//! constraints (appendix B), the body dynamics and the joint rows of the step.

use maxdyn::integrator::body_dynamics;
use maxdyn::integrator::joint_rows::{advance, velocity_map};
use maxdyn::joints::constraint::{GeneralConstraint, Pose, Side};
use maxdyn::joints::{Joint, JointType};
use maxdyn::math::{d_rotate, d_rotate_transpose, rotation, M3, V3, V4};

const H: f64 = 1e-6;

fn quat(a: f64) -> V4 {
    V4::new(a.cos(), 0.3 * a.sin(), -0.5, 0.7 * a.sin() + 0.2).normalize()
}

#[test]
fn rotation_derivatives_match_finite_differences() {
    let q = quat(0.7);
    let p = V3::new(0.3, -1.2, 0.5);
    let (a, at) = (d_rotate(&q, &p), d_rotate_transpose(&q, &p));
    for k in 0..4 {
        let mut dq = V4::zeros();
        dq[k] = H;
        let fd = (rotation(&(q + dq)) * p - rotation(&(q - dq)) * p) / (2.0 * H);
        let fdt = (rotation(&(q + dq)).transpose() * p - rotation(&(q - dq)).transpose() * p) / (2.0 * H);
        assert!((a.column(k) - fd).norm() < 1e-8, "d_rotate column {k}");
        assert!((at.column(k) - fdt).norm() < 1e-8, "d_rotate_transpose column {k}");
    }
}

fn joint(kind: JointType) -> Joint {
    let mut j = Joint::new(kind, Some(0), 1, V3::new(0.1, 0.2, -0.3), V3::new(-0.2, 0.05, 0.4), V3::new(0.3, -1.0, 0.6));
    j.q_offset = quat(1.3);
    j
}

#[test]
fn general_constraint_derivatives_match_finite_differences() {
    let a = Pose { x: V3::new(0.3, -0.1, 0.9), q: quat(0.4) };
    let b = Pose { x: V3::new(-0.4, 0.6, 0.2), q: quat(2.1) };
    let j = joint(JointType::Fixed);
    let g = GeneralConstraint::eval(&j, &a, &b);
    let val = |a: &Pose, b: &Pose| {
        let g = GeneralConstraint::eval(&j, a, b);
        (g.gt, g.gr)
    };
    for k in 0..3 {
        let mut d = V3::zeros();
        d[k] = H;
        let (tp, _) = val(&Pose { x: a.x + d, ..a }, &b);
        let (tm, _) = val(&Pose { x: a.x - d, ..a }, &b);
        assert!((g.dgt_dxa.column(k) - (tp - tm) / (2.0 * H)).norm() < 1e-8);
        let (tp, _) = val(&a, &Pose { x: b.x + d, ..b });
        let (tm, _) = val(&a, &Pose { x: b.x - d, ..b });
        assert!((g.dgt_dxb.column(k) - (tp - tm) / (2.0 * H)).norm() < 1e-8);
    }
    for k in 0..4 {
        let mut d = V4::zeros();
        d[k] = H;
        let (tp, rp) = val(&Pose { q: a.q + d, ..a }, &b);
        let (tm, rm) = val(&Pose { q: a.q - d, ..a }, &b);
        assert!((g.dgt_dqa.column(k) - (tp - tm) / (2.0 * H)).norm() < 1e-8, "dgt_dqa {k}");
        assert!((g.dgr_dqa.column(k) - (rp - rm) / (2.0 * H)).norm() < 1e-8, "dgr_dqa {k}");
        let (tp, rp) = val(&a, &Pose { q: b.q + d, ..b });
        let (tm, rm) = val(&a, &Pose { q: b.q - d, ..b });
        assert!((g.dgt_dqb.column(k) - (tp - tm) / (2.0 * H)).norm() < 1e-8, "dgt_dqb {k}");
        assert!((g.dgr_dqb.column(k) - (rp - rm) / (2.0 * H)).norm() < 1e-8, "dgr_dqb {k}");
    }
}

/// The Newton-matrix block of a joint row with respect to a body's velocity unknowns,
/// ∂g(z_{k+2}(v, ω))/∂(v, ω), for every joint type and both sides.
#[test]
fn joint_row_velocity_blocks_match_finite_differences() {
    let dt = 0.01;
    let (xa, qa, xb, qb) = (V3::new(0.3, -0.1, 0.9), quat(0.4), V3::new(-0.4, 0.6, 0.2), quat(2.1));
    let (va, wa, vb, wb) = (V3::new(0.5, -1.0, 0.2), V3::new(3.0, -2.0, 1.0), V3::new(-0.3, 0.4, 1.1), V3::new(-1.5, 0.7, 2.5));
    for kind in JointType::ALL {
        let j = joint(kind);
        let nc = j.constraint_count();
        if nc == 0 {
            continue;
        }
        let rows = |va: &V3, wa: &V3, vb: &V3, wb: &V3| {
            let mut out = [0.0; 6];
            j.constraint(&advance(&xa, &qa, va, wa, dt), &advance(&xb, &qb, vb, wb, dt), &mut out[..nc]);
            out
        };
        let g = GeneralConstraint::eval(&j, &advance(&xa, &qa, &va, &wa, dt), &advance(&xb, &qb, &vb, &wb, dt));
        for side in [Side::Parent, Side::Child] {
            let (q1, w) = if side == Side::Parent { (qa, wa) } else { (qb, wb) };
            let mut blk = [0.0; 36];
            j.jacobian_block(&g, side, dt, &velocity_map(&q1, &w, dt), &mut blk[..nc * 6]);
            for c in 0..6 {
                let mut d = V3::zeros();
                d[c % 3] = H;
                let (p, m) = match (side, c < 3) {
                    (Side::Parent, true) => (rows(&(va + d), &wa, &vb, &wb), rows(&(va - d), &wa, &vb, &wb)),
                    (Side::Parent, false) => (rows(&va, &(wa + d), &vb, &wb), rows(&va, &(wa - d), &vb, &wb)),
                    (Side::Child, true) => (rows(&va, &wa, &(vb + d), &wb), rows(&va, &wa, &(vb - d), &wb)),
                    (Side::Child, false) => (rows(&va, &wa, &vb, &(wb + d)), rows(&va, &wa, &vb, &(wb - d))),
                };
                for r in 0..nc {
                    let fd = (p[r] - m[r]) / (2.0 * H);
                    assert!((blk[r * 6 + c] - fd).abs() < 1e-8, "{kind:?} {side:?} row {r} col {c}: {} vs {fd}", blk[r * 6 + c]);
                }
            }
        }
    }
}

#[test]
fn body_dynamics_jacobian_matches_finite_differences() {
    let (m, dt) = (1.7, 0.01);
    let j = M3::new(0.3, 0.01, -0.02, 0.01, 0.5, 0.03, -0.02, 0.03, 0.4);
    let (g, v0, w0) = (V3::new(0.0, 0.0, -9.81), V3::new(0.1, 0.2, 0.3), V3::new(1.0, -2.0, 0.5));
    let (v1, w1) = (V3::new(0.4, -0.2, 0.1), V3::new(1.5, -1.0, 2.0));
    let res = |v: &V3, w: &V3| {
        let mut r = [0.0; 6];
        let zero = V3::zeros();
        let known = body_dynamics::Known { mass: m, inertia: &j, gravity: &g, h0: dt, h1: 0.7 * dt, v0: &v0, force: &zero, torque: &zero };
        body_dynamics::residual(&known, &w0, v, w, &mut r);
        r
    };
    let mut jac = [0.0; 36];
    body_dynamics::add_jacobian(m, &j, dt, 0.7 * dt, &w1, &mut jac);
    for c in 0..6 {
        let mut d = V3::zeros();
        d[c % 3] = H;
        let (p, q) = if c < 3 { (res(&(v1 + d), &w1), res(&(v1 - d), &w1)) } else { (res(&v1, &(w1 + d)), res(&v1, &(w1 - d))) };
        for r in 0..6 {
            let fd = (p[r] - q[r]) / (2.0 * H);
            assert!((jac[r * 6 + c] - fd).abs() < 1e-6 * (1.0 + fd.abs()), "row {r} col {c}: {} vs {fd}", jac[r * 6 + c]);
        }
    }
}
