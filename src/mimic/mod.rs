//! Mimic joints as exact equality constraints (URDF `<mimic>`): one row
//!
//!   h = θ_f − m θ_l − o = 0   at z_{k+2}(s)
//!
//! per mimic, θ the single-axis coordinates of the follower and the leader
//! (`joints::coordinate`, angles unwrapped as the simulation tracks them), with its
//! multiplier node λ in the mechanism graph like a joint's (it closes a cycle through the
//! two joints' bodies; the loop machinery eliminates it, its pivot regularized like a loop
//! joint's). As for joints (paper sec. 3.2, eq. `constrained_d`), the force on the bodies
//! is −H(z_{k+1})ᵀλ with H = [∂h/∂x; 2 ∂h/∂δφ] per body, and the Newton row is
//! ∂h(z_{k+2}(s))/∂(v, ω) = [∂h/∂x dt, M(ω)ᵀ ∂h/∂δφ] (`integrator::next_poses`).
//! A body on both joints (a hand carrying two fingers) gets the sum of both terms.

use crate::integrator::{NextPoses, StepFrame};
use crate::joints::constraint::Pose;
use crate::joints::coordinate::unwrap_angle;
use crate::limits::TrackedValues;
use crate::math::V3;
use crate::model::Model;
use crate::solver::BlockMatrix;

/// Up to four bodies of a mimic (the two joints' parents and children, the world left
/// out) with the accumulated gradient of h with respect to each one's x and δφ.
#[derive(Debug, Clone, Copy)]
struct BodyTerms {
    body: [usize; 4],
    x: [V3; 4],
    phi: [V3; 4],
    n: usize,
}

impl BodyTerms {
    fn add(&mut self, body: Option<usize>, x: V3, phi: V3) {
        let Some(b) = body else { return };
        let k = match self.body[..self.n].iter().position(|&e| e == b) {
            Some(k) => k,
            None => {
                self.n += 1;
                self.body[self.n - 1] = b;
                self.x[self.n - 1] = V3::zeros();
                self.phi[self.n - 1] = V3::zeros();
                self.n - 1
            }
        };
        self.x[k] += x;
        self.phi[k] += phi;
    }
}

/// h of mimic `mi` at the body poses `pose(body)` (angles unwrapped from `reference`, the
/// tracked values near those poses), with `gradient` its body terms.
fn evaluate(model: &Model, mi: usize, reference: &[f64], pose: impl Fn(Option<usize>) -> Pose, gradient: bool) -> (f64, BodyTerms) {
    let m = &model.mimics[mi];
    let z = V3::zeros();
    let mut terms = BodyTerms { body: [0; 4], x: [z; 4], phi: [z; 4], n: 0 };
    let mut h = -m.offset;
    for (joint, t, scale) in [(m.follower, model.mimic_tracked[mi][0], 1.0), (m.leader, model.mimic_tracked[mi][1], -m.multiplier)] {
        let j = &model.joints[joint];
        let (wrapped, g) = j.coordinate_and_gradient(&pose(j.parent), &pose(Some(j.child)), 0, gradient);
        let theta = if j.is_single_angle(0) { unwrap_angle(reference[t], wrapped) } else { wrapped };
        h += scale * theta;
        if gradient {
            terms.add(j.parent, scale * g.parent_x, scale * g.parent_phi);
            terms.add(Some(j.child), scale * g.child_x, scale * g.child_phi);
        }
    }
    (h, terms)
}

/// Adds the mimics' rows to the step residual at `s`: h(z_{k+2}) into each mimic's row
/// and −H(z_{k+1})ᵀλ to its bodies; `next` holds the poses z_{k+2}(s).
pub fn add_residual(model: &Model, f: &StepFrame, tracked: &TrackedValues, next: &NextPoses, s: &[f64], r: &mut [f64]) {
    if model.mimics.is_empty() {
        return;
    }
    let at = &model.addresses;
    let next_pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: next.placement(Some(i)).x, q: next.placement(Some(i)).q });
    let now_pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: f.x1[i], q: f.q1[i] });
    for mi in 0..model.mimics.len() {
        let o = at.mimic(mi);
        r[o] = evaluate(model, mi, &tracked.predicted, next_pose, false).0;
        let lambda = s[o];
        let (_, t) = evaluate(model, mi, &tracked.predicted, now_pose, true);
        for k in 0..t.n {
            let ob = at.body(t.body[k]);
            for c in 0..3 {
                r[ob + c] -= t.x[k][c] * lambda;
                r[ob + 3 + c] -= 2.0 * t.phi[k][c] * lambda;
            }
        }
    }
}

/// Writes the mimics' blocks of the Newton matrix (every block of a mimic node is
/// assigned: `Symbolic`'s reset leaves joint-like nodes' blocks to the assembly); `next`
/// holds the poses and rotation maps at z_{k+2}(s).
pub fn add_jacobian(model: &Model, f: &StepFrame, tracked: &TrackedValues, next: &NextPoses, dt: f64, matrix: &mut BlockMatrix) {
    if model.mimics.is_empty() {
        return;
    }
    let sym = &model.symbolic;
    let next_pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: next.placement(Some(i)).x, q: next.placement(Some(i)).q });
    let now_pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: f.x1[i], q: f.q1[i] });
    for mi in 0..model.mimics.len() {
        let n = model.mimic_node[mi];
        matrix.block_mut(sym, n, n)[0] = 0.0;
        let (_, later) = evaluate(model, mi, &tracked.predicted, next_pose, true);
        let (_, now) = evaluate(model, mi, &tracked.predicted, now_pose, true);
        for k in 0..later.n {
            let b = later.body[k];
            let nb = model.body_node[b];
            let gw = next.map(b).tr_mul(&later.phi[k]);
            let gx = later.x[k] * dt;
            matrix.block_mut(sym, n, nb).copy_from_slice(&[gx.x, gx.y, gx.z, gw.x, gw.y, gw.z]);
            // the same bodies in the same order at z_{k+1}
            let (x1, p1) = (now.x[k], 2.0 * now.phi[k]);
            matrix.block_mut(sym, nb, n).copy_from_slice(&[-x1.x, -x1.y, -x1.z, -p1.x, -p1.y, -p1.z]);
        }
    }
}

/// Largest |h| over the mimics at the body poses (x, q), angles unwrapped from the
/// tracked values `reference` there.
pub fn violation(model: &Model, reference: &[f64], x: &[V3], q: &[crate::math::V4]) -> f64 {
    let pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: x[i], q: q[i] });
    (0..model.mimics.len()).map(|mi| evaluate(model, mi, reference, pose, false).0.abs()).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use crate::data::Data;
    use crate::joints::JointType;
    use crate::model::{Builder, Inertia, Model, Parent};
    use crate::step::problem::{Equations, Friction};

    /// The mimic's Newton rows and columns against central differences of the step
    /// residual, on a hand (itself on a hinge) with a prismatic finger mimicking a revolute
    /// one (4 bodies, one shared), at a moving configuration. Largest difference seen
    /// 1.5e-10 (h = 1e-6, entries up to 1.4).
    #[test]
    fn newton_blocks_match_finite_differences_of_the_residual() {
        let mut b = Builder::new();
        let ja = Inertia::diagonal(0.01, 0.02, 0.03).unwrap();
        let bodies: Vec<usize> = (0..4).map(|_| b.add_body(0.5, ja).unwrap()).collect();
        b.add_joint(JointType::Revolute, Parent::World, bodies[0], [0.0; 3], [0.0, 0.0, 0.3], [1.0, 0.0, 0.0]).unwrap();
        let leader = b.add_joint(JointType::Revolute, bodies[0], bodies[1], [0.1, 0.0, -0.1], [0.0, 0.0, 0.1], [0.0, 1.0, 0.0]).unwrap();
        b.add_joint(JointType::Spherical, bodies[0], bodies[2], [-0.1, 0.0, -0.1], [0.0, 0.0, 0.1], [0.0, 1.0, 0.0]).unwrap();
        let follower = b.add_joint(JointType::Prismatic, bodies[2], bodies[3], [0.0, 0.0, -0.1], [0.0; 3], [0.3, 1.0, 0.0]).unwrap();
        b.add_mimic(follower, leader, -0.7, 0.05).unwrap();
        let model = Model::new(&b).unwrap();
        let mut d = Data::new(&model, 0.01);
        for (i, w) in d.state.w.iter_mut().enumerate() {
            *w = crate::math::V3::new(0.3 * i as f64, -0.5, 0.8);
            d.state.v[i] = crate::math::V3::new(0.1, 0.2 * i as f64, -0.3);
        }
        crate::step::predict(&model, &mut d);
        let mut s = vec![0.0; model.system_size()];
        for i in 0..model.body_count() {
            model.addresses.set_velocities(&mut s, i, &d.state.v[i], &d.state.w[i]);
        }
        s[model.addresses.mimic(0)] = 0.37;
        let eqs = Equations { model: &model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked, friction: Friction::Coulomb };
        eqs.jacobian(&s, &mut d.scratch.next, &mut d.scratch.matrix);
        let n = model.system_size();
        let dense = d.scratch.matrix.to_dense(&model.symbolic);
        let (row, h) = (model.addresses.mimic(0), 1e-6);
        let mut columns: Vec<usize> = vec![row];
        for i in 0..model.body_count() {
            columns.extend(model.addresses.body(i)..model.addresses.body(i) + 6);
        }
        let (mut rp, mut rm) = (vec![0.0; n], vec![0.0; n]);
        for &c in &columns {
            let (mut up, mut dn) = (s.clone(), s.clone());
            up[c] += h;
            dn[c] -= h;
            eqs.residual(&up, &mut d.scratch.next, &mut rp);
            eqs.residual(&dn, &mut d.scratch.next, &mut rm);
            // the mimic's row, and each body row's dependence on λ
            let rows: Vec<usize> = if c == row { (0..model.body_count()).flat_map(|i| model.addresses.body(i)..model.addresses.body(i) + 6).collect() } else { vec![row] };
            for r in rows {
                let fd = (rp[r] - rm[r]) / (2.0 * h);
                let an = dense[r * n + c];
                assert!((fd - an).abs() < 1e-9, "row {r} column {c}: fd {fd} analytic {an}");
            }
        }
    }
}
