//! The joint limits' terms of ∂f/∂z_{k+1} at the interior point's solution. A limit side
//! is a frictionless inequality on a single-axis coordinate θ (`limits`): its force map is
//! sign·[∂θ/∂x; 2 ∂θ/∂δφ] at z_{k+1}, its gap sign·(θ(z_{k+2}) − bound), so
//! * body rows −γ sign [∂θ/∂x; 2 ∂θ/∂δφ] move with θ's second derivatives
//!   (`Joint::add_translation_force_derivative` for a translation,
//!   `Joint::angle_gradient_derivative` for an angle);
//! * its K row (s_φ − φ)/dt moves with θ's gradient at z_{k+2} through
//!   δz_{k+2} = (δx, Q(ω̄)ᵀ δφ): −sign/dt [∂θ/∂x; Q(ω̄) ∂θ/∂δφ].

use super::step_sensitivity::Block;
use crate::contact::node::ContactWork;
use crate::integrator::prediction::advance;
use crate::joints::constraint::Pose;
use crate::joints::force_derivative::{CHILD, PARENT};
use crate::math::{rotation, step_rotation, M6};
use crate::step::problem::Equations;

/// The limit sides' blocks of ∂f/∂z_{k+1} at the solution `s` (those the step solved).
pub(super) fn configuration_blocks(eqs: &Equations, s: &[f64], cw: &ContactWork, out: &mut Vec<Block>) {
    let model = eqs.model;
    let at = &model.addresses;
    let contacts = model.contacts.len();
    for ci in cw.selection.iter().filter(|&ci| ci >= contacts) {
        let side = &model.limit_sides[ci - contacts];
        let c = model.tracked[side.coordinate];
        let j = &model.joints[c.joint];
        let on = at.contact(ci);
        let force = side.sign * s[on];
        let bodies = [j.parent, Some(j.child)];
        let (a, b) = (eqs.g.placement(j.parent), eqs.g.placement(Some(j.child)));
        // body rows: −force · ∂[∂θ/∂x; 2 ∂θ/∂δφ]/∂z
        let mut h = [[M6::zeros(); 2]; 2];
        if c.index < j.ct.len {
            j.add_translation_force_derivative(a, b, &(j.ct.dirs[c.index] * force), &mut h);
        } else {
            let d = j.angle_gradient_derivative(a, b);
            for (r, row) in h.iter_mut().enumerate() {
                for (k, blk) in row.iter_mut().enumerate() {
                    crate::joints::force_derivative::add(blk, 3, 3, &(2.0 * force * d[r][k]));
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
                out.push(Block { row: at.body(rb), rows: 6, col: kb, m });
            }
        }
        // K row: −sign/dt ∂θ(z_{k+2})/∂z_{k+1}
        let next = |body: Option<usize>| {
            body.map_or(Pose::WORLD, |i| {
                let (v, w) = at.velocities(s, i);
                advance(&eqs.frame.x1[i], &eqs.frame.q1[i], &v, &w, eqs.dt)
            })
        };
        let (_, g) = j.coordinate_and_gradient(&next(j.parent), &next(Some(j.child)), c.index, true);
        for (body, gx, gphi) in [(j.parent, g.parent_x, g.parent_phi), (Some(j.child), g.child_x, g.child_phi)] {
            let Some(body) = body else { continue };
            let w = at.angular_velocity(s, body);
            let gphi1 = rotation(&step_rotation(&w, eqs.dt)) * gphi;
            let mut m = [0.0; 36];
            for k in 0..3 {
                m[k] = -side.sign * gx[k] / eqs.dt;
                m[3 + k] = -side.sign * gphi1[k] / eqs.dt;
            }
            out.push(Block { row: on, rows: 1, col: body, m });
        }
    }
}
