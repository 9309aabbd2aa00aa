//! A limit side's gap at z_{k+2}(v, ω) with its velocity Jacobian, and its force map at
//! z_{k+1} (see the module doc of `limits`). Side 0 of an inequality is the joint's child,
//! side 1 its parent (absent for a joint to the world).

use super::TrackedValues;
use crate::contact::geometry::ContactFrame;
use crate::integrator::next_poses::rotation_map;
use crate::integrator::prediction::advance;
use crate::joints::constraint::Pose;
use crate::joints::coordinate::unwrap_angle;
use crate::math::{V3, V4};
use crate::model::Model;

/// Bodies limit side `l` acts on: (child, parent).
pub fn bodies(model: &Model, l: usize) -> (usize, Option<usize>) {
    let j = &model.joints[model.tracked[model.limit_sides[l].coordinate].joint];
    (j.child, j.parent)
}

/// Whether limit side `l` may be reached in this step (the selection of
/// `step::culling`): its gap at z_{k+1} extrapolated by the coordinate's last increment
/// (the current velocities ż_k, as the warm start), below `margin` plus that increment
/// (how far the coordinate moves in one step). Cheaper than a contact's test (no poses at
/// z_{k+2}); the check of left-out inequalities at the solution is exact.
pub fn near(model: &Model, l: usize, tracked: &TrackedValues, margin: f64) -> bool {
    let side = &model.limit_sides[l];
    let theta1 = tracked.predicted[side.coordinate];
    let delta = theta1 - tracked.state[side.coordinate];
    side.sign * (theta1 + delta - side.bound) < margin + delta.abs()
}

/// Tracked coordinate `t` at z_{k+2}(v, ω) (unwrapped for an angle), without derivatives.
pub fn next_coordinate(model: &Model, t: usize, tracked: &TrackedValues, x1: &[V3], q1: &[V4], dt: f64, vel: impl Fn(usize) -> (V3, V3)) -> f64 {
    let c = model.tracked[t];
    let j = &model.joints[c.joint];
    let next = |b: Option<usize>| {
        b.map_or(Pose::WORLD, |i| {
            let (v, w) = vel(i);
            advance(&x1[i], &q1[i], &v, &w, dt)
        })
    };
    let wrapped = j.coordinate(&next(j.parent), &next(Some(j.child)), c.index);
    if j.is_single_angle(c.index) {
        unwrap_angle(tracked.predicted[t], wrapped)
    } else {
        wrapped
    }
}

/// Gap of limit side `l` at z_{k+2}(v, ω) advanced from z_{k+1} = (x1, q1) with the
/// velocities `vel(body)`, and with `jac` its Jacobian per side (1 × 6 over (v, ω)).
// many arguments: the contact point's signature (`ContactPoint::gap_and_jacobian`) plus the side and its tracked angles: the two are called side by side in `step::inequalities`
#[allow(clippy::too_many_arguments)]
pub fn gap_and_jacobian(model: &Model, l: usize, tracked: &TrackedValues, x1: &[V3], q1: &[V4], dt: f64, vel: impl Fn(usize) -> (V3, V3), jac: Option<&mut [[f64; 6]; 2]>) -> f64 {
    let side = &model.limit_sides[l];
    let c = model.tracked[side.coordinate];
    let j = &model.joints[c.joint];
    let next = |b: Option<usize>| {
        b.map_or((Pose::WORLD, V3::zeros()), |i| {
            let (v, w) = vel(i);
            (advance(&x1[i], &q1[i], &v, &w, dt), w)
        })
    };
    let ((a, wa), (b, wb)) = (next(j.parent), next(Some(j.child)));
    let (wrapped, g) = j.coordinate_and_gradient(&a, &b, c.index, jac.is_some());
    let theta = if j.is_single_angle(c.index) { unwrap_angle(tracked.predicted[side.coordinate], wrapped) } else { wrapped };
    if let Some(jac) = jac {
        let row = |gx: &V3, gphi: &V3, w: &V3, out: &mut [f64; 6]| {
            let gw = rotation_map(w, dt).tr_mul(gphi);
            *out = [gx.x * dt, gx.y * dt, gx.z * dt, gw.x, gw.y, gw.z].map(|v| side.sign * v);
        };
        row(&g.child_x, &g.child_phi, &wb, &mut jac[0]);
        if j.parent.is_some() {
            row(&g.parent_x, &g.parent_phi, &wa, &mut jac[1]);
        }
    }
    side.sign * (theta - side.bound)
}

/// Fills the force map of limit side `l` at z_{k+1} = (x1, q1) into `frame` (one column:
/// sign · [∂θ/∂x; 2 ∂θ/∂δφ] per side, no friction directions).
pub fn fill_frame(model: &Model, l: usize, x1: &[V3], q1: &[V4], frame: &mut ContactFrame) {
    let side = &model.limit_sides[l];
    let c = model.tracked[side.coordinate];
    let j = &model.joints[c.joint];
    let pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: x1[i], q: q1[i] });
    let (_, g) = j.coordinate_and_gradient(&pose(j.parent), &pose(Some(j.child)), c.index, true);
    frame.bodies = [j.child, j.parent.unwrap_or(j.child)];
    frame.sides = if j.parent.is_some() { 2 } else { 1 };
    for (w, (gx, gphi)) in frame.w.iter_mut().zip([(g.child_x, g.child_phi), (g.parent_x, g.parent_phi)]) {
        for r in 0..3 {
            w[r] = side.sign * gx[r];
            w[3 + r] = side.sign * 2.0 * gphi[r];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::JointType;
    use crate::math::from_rotation_vector;
    use crate::model::{Builder, Inertia, Parent};

    /// A prismatic joint on a revolute one (each limited): the analytic Jacobian against
    /// central differences of the gap; largest difference seen 1.3e-10 (h = 1e-6).
    #[test]
    fn jacobian_matches_finite_differences() {
        let mut b = Builder::new();
        for _ in 0..2 {
            b.add_body(1.0, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        }
        let axis = [0.3, -0.4, 0.8];
        let j0 = b.add_joint(JointType::Revolute, Parent::World, 0, [0.1, 0.0, 0.2], [0.0, 0.3, 0.0], axis).unwrap();
        let j1 = b.add_joint(JointType::Prismatic, 0, 1, [0.2, 0.1, 0.0], [0.0, 0.0, 0.1], [1.0, 0.5, 0.0]).unwrap();
        b.set_joint_limits(j0, &[-3.0], &[3.0]).unwrap();
        b.set_joint_limits(j1, &[-0.5], &[f64::INFINITY]).unwrap();
        let model = Model::new(&b).unwrap();
        let x = vec![V3::new(0.3, -0.2, 1.1), V3::new(-0.1, 0.4, 0.2)];
        let q = vec![from_rotation_vector(&V3::new(0.3, -0.5, 0.7)), from_rotation_vector(&V3::new(-0.8, 0.1, 0.4))];
        let mut tracked = TrackedValues::new(&model, &x, &q);
        tracked.predict(&model, &x, &q);
        let dt = 0.01;
        let u0 = [[0.4, -1.2, 0.3, 2.0, -1.0, 0.5], [-0.7, 0.2, 0.9, -0.3, 1.5, 0.8]];
        let vel_of = |u: [[f64; 6]; 2]| move |i: usize| (V3::new(u[i][0], u[i][1], u[i][2]), V3::new(u[i][3], u[i][4], u[i][5]));
        for l in 0..model.limit_sides.len() {
            let (child, parent) = bodies(&model, l);
            let mut jac = [[0.0; 6]; 2];
            gap_and_jacobian(&model, l, &tracked, &x, &q, dt, vel_of(u0), Some(&mut jac));
            for (side, body) in [(0, Some(child)), (1, parent)] {
                let Some(body) = body else { continue };
                for k in 0..6 {
                    let (mut up, mut dn) = (u0, u0);
                    up[body][k] += 1e-6;
                    dn[body][k] -= 1e-6;
                    let gap = |u| gap_and_jacobian(&model, l, &tracked, &x, &q, dt, vel_of(u), None);
                    let fd = (gap(up) - gap(dn)) / 2e-6;
                    assert!((jac[side][k] - fd).abs() < 1e-9, "side {l}, body {body}, column {k}: {} vs {fd}", jac[side][k]);
                }
            }
        }
    }

    /// At zero velocity the gap is the side's distance to its bound at z_{k+1}, and the
    /// force map is twice the velocity Jacobian's rotational rows over dt (its units).
    #[test]
    fn force_map_is_the_gradient_at_the_prediction() {
        let mut b = Builder::new();
        b.add_body(1.0, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        let j = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
        b.set_joint_limits(j, &[-1.0], &[2.5]).unwrap();
        let model = Model::new(&b).unwrap();
        let (x, q) = (vec![V3::zeros()], vec![from_rotation_vector(&V3::new(0.0, 0.0, 0.5))]);
        let mut tracked = TrackedValues::new(&model, &x, &q);
        tracked.predict(&model, &x, &q);
        let mut jac = [[0.0; 6]; 2];
        let rest = |_| (V3::zeros(), V3::zeros());
        assert!((gap_and_jacobian(&model, 0, &tracked, &x, &q, 0.01, rest, Some(&mut jac)) - 1.5).abs() < 1e-15);
        assert!((gap_and_jacobian(&model, 1, &tracked, &x, &q, 0.01, rest, None) - 2.0).abs() < 1e-15);
        let mut frame = ContactFrame::default();
        fill_frame(&model, 0, &x, &q, &mut frame);
        assert_eq!((frame.bodies, frame.sides), ([0, 0], 1));
        for r in 0..6 {
            let scale = if r < 3 { 1.0 } else { 2.0 };
            assert!((frame.w[0][r] - scale * jac[0][r] / 0.01).abs() < 1e-12, "row {r}");
        }
        assert!((frame.w[0][5] - 2.0).abs() < 1e-15, "a torque about z");
    }
}
