//! Body and joint rows of the step residual f(s) (paper sec. 3.1–3.2, equality part):
//! each body's discrete Euler–Lagrange equation minus the constraint forces G(z_{k+1})ᵀλ,
//! each joint's constraint g(z_{k+2}(s)). Force elements add theirs (`forces`).

use super::multipliers::MultiplierJacobians;
use super::next_poses::NextPoses;
use super::{body_dynamics, Inputs, StepFrame};
use crate::model::Model;

/// Body rows of f(s) into `r` (every row of bodies is written), before the joints'
/// constraint forces ([`joint_rows_into`]).
pub fn body_rows_into(model: &Model, f: &StepFrame, inputs: &Inputs, g: &MultiplierJacobians, dt: f64, s: &[f64], r: &mut [f64]) {
    let at = &model.addresses;
    for (i, b) in model.bodies.iter().enumerate() {
        let o = at.body(i);
        let (v, w) = at.velocities(s, i);
        // the known momentum (h₀/2)(s₀ I − [ω₀]×) J ω₀ over the node's impulse interval
        let p0 = if f.second_order { g.known_momentum(i) * (f.dt / f.impulse) } else { *g.known_momentum(i) };
        let known = body_dynamics::Known { mass: b.mass, inertia: &b.inertia, gravity: &model.gravity, h0: f.impulse, h1: dt, v0: &f.v0[i], force: &inputs.force[i], torque: &inputs.torque[i] };
        body_dynamics::residual_from(&known, &p0, &v, &w, &mut r[o..o + 6]);
    }
}

/// Joint rows of f(s) into `r` (every row of joints is written), and the constraint
/// forces −G(z_{k+1})ᵀλ into the body rows; `next` holds the poses z_{k+2}(s)
/// (`NextPoses::update` at `s`).
pub fn joint_rows_into(model: &Model, g: &MultiplierJacobians, next: &NextPoses, s: &[f64], r: &mut [f64]) {
    let at = &model.addresses;
    for (ji, j) in model.joints.iter().enumerate() {
        let Some(oj) = at.joint(ji) else { continue };
        let nc = j.constraint_count();
        let lam = &s[oj..oj + nc];
        for (body, child) in [(Some(j.child), true), (j.parent, false)] {
            let Some(body) = body else { continue };
            let ob = at.body(body);
            let rb: &mut [f64; 6] = (&mut r[ob..ob + 6]).try_into().expect("six body rows");
            // −G(z_{k+1})ᵀ λ
            for (gc, l) in g.block(ji, nc, child).chunks_exact(6).zip(lam) {
                let gc: &[f64; 6] = gc.try_into().expect("a row of G");
                for k in 0..6 {
                    rb[k] -= gc[k] * l;
                }
            }
        }
        j.constraint_at(next.placement(j.parent), next.placement(Some(j.child)), &mut r[oj..oj + nc]);
    }
}
