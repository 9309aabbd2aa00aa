//! The terms of ∂f/∂z_{k+1} of constraints on single-axis joint coordinates θ
//! (`joints::coordinate`): joint limits (inequalities at the interior point's solution) and
//! mimics (equalities). Each acts on the bodies through θ's force map [∂θ/∂x; 2 ∂θ/∂δφ]
//! at z_{k+1} times its multiplier, and has a row in θ at z_{k+2}, so
//! * body rows −f [∂θ/∂x; 2 ∂θ/∂δφ] move with θ's second derivatives
//!   (`Joint::add_translation_force_derivative` for a translation,
//!   `Joint::angle_gradient_derivative` for an angle);
//! * the row moves with θ's gradient at z_{k+2} through δz_{k+2} = (δx, Q(ω̄)ᵀ δφ):
//!   [∂θ/∂x; Q(ω̄) ∂θ/∂δφ] times the row's coefficient.
//! A limit side's force is sign·γ and its row (s_φ − sign(θ − bound))/dt; a mimic's
//! h = θ_f − m θ_l − o acts with λ on the follower and −m λ on the leader.

use super::block::Block;
use crate::contact::node::ContactWork;
use crate::integrator::prediction::advance;
use crate::joints::constraint::Pose;
use crate::joints::force_derivative::{add, CHILD, PARENT};
use crate::joints::Joint;
use crate::math::{rotation, step_rotation, M6};
use crate::step::problem::Equations;

/// The limit sides' blocks of ∂f/∂z_{k+1} at the solution `s` (those the step solved).
pub(super) fn limit_blocks(eqs: &Equations, s: &[f64], cw: &ContactWork, out: &mut Vec<Block>) {
    let model = eqs.model;
    let at = &model.addresses;
    let contacts = model.contacts.len();
    for ci in cw.selection.iter().filter(|&ci| ci >= contacts) {
        let side = &model.limit_sides[ci - contacts];
        let c = model.tracked[side.coordinate];
        let on = at.contact(ci);
        coordinate_blocks(eqs, s, &model.joints[c.joint], c.index, side.sign * s[on], on, -side.sign / eqs.dt, out);
    }
}

/// The mimics' blocks of ∂f/∂z_{k+1} at the solution `s`.
pub(super) fn mimic_blocks(eqs: &Equations, s: &[f64], out: &mut Vec<Block>) {
    let model = eqs.model;
    let at = &model.addresses;
    for (mi, m) in model.mimics.iter().enumerate() {
        let o = at.mimic(mi);
        for (joint, scale) in [(m.follower, 1.0), (m.leader, -m.multiplier)] {
            coordinate_blocks(eqs, s, &model.joints[joint], 0, scale * s[o], o, scale, out);
        }
    }
}

/// The blocks of coordinate `i` of joint `j` acting with `force` on the bodies, with
/// `coefficient` θ in residual row `row`.
// many arguments: a private helper with two callers (joint limits, mimics) that pass different rows and coefficients
#[allow(clippy::too_many_arguments)]
fn coordinate_blocks(eqs: &Equations, s: &[f64], j: &Joint, i: usize, force: f64, row: usize, coefficient: f64, out: &mut Vec<Block>) {
    let at = &eqs.model.addresses;
    let bodies = [j.parent, Some(j.child)];
    let (a, b) = (eqs.g.placement(j.parent), eqs.g.placement(Some(j.child)));
    // body rows: −force · ∂[∂θ/∂x; 2 ∂θ/∂δφ]/∂z
    let mut h = [[M6::zeros(); 2]; 2];
    if i < j.ct.len {
        j.add_translation_force_derivative(a, b, &(j.ct.dirs[i] * force), &mut h);
    } else {
        let d = j.angle_gradient_derivative(a, b);
        for (r, blocks) in h.iter_mut().enumerate() {
            for (k, blk) in blocks.iter_mut().enumerate() {
                add(blk, 3, 3, &(2.0 * force * d[r][k]));
            }
        }
    }
    for r in [PARENT, CHILD] {
        let Some(rb) = bodies[r] else { continue };
        for k in [PARENT, CHILD] {
            let Some(kb) = bodies[k] else { continue };
            let mut m = [0.0; 36];
            for (e, v) in m.iter_mut().enumerate() {
                *v = -h[r][k][(e / 6, e % 6)];
            }
            out.push(Block::new(at.body(rb), 6, kb, &m));
        }
    }
    // the row: coefficient · ∂θ(z_{k+2})/∂z_{k+1}
    let next = |body: Option<usize>| {
        body.map_or(Pose::WORLD, |k| {
            let (v, w) = at.velocities(s, k);
            advance(&eqs.frame.x1[k], &eqs.frame.q1[k], &v, &w, eqs.dt)
        })
    };
    let (_, g) = j.coordinate_and_gradient(&next(j.parent), &next(Some(j.child)), i, true);
    for (body, gx, gphi) in [(j.parent, g.parent_x, g.parent_phi), (Some(j.child), g.child_x, g.child_phi)] {
        let Some(body) = body else { continue };
        let w = at.angular_velocity(s, body);
        let gphi1 = rotation(&step_rotation(&w, eqs.dt)) * gphi;
        let mut m = [0.0; 36];
        for k in 0..3 {
            m[k] = coefficient * gx[k];
            m[3 + k] = coefficient * gphi1[k];
        }
        out.push(Block::new(row, 1, body, &m));
    }
}
