//! ∂(force-element residual terms)/∂z_{k+1}: how `forces::add_step_residual` changes when
//! a body's predicted pose z_{k+1} moves, at fixed step unknowns s (for the state
//! Jacobian of a step by the implicit function theorem, `derivatives`).
//!
//! Every element but the external wrench's moment is a generalized force f along a pair
//! of rows (`wrench_pair`), both read at z_{k+1}; the blocks are the product rule over f
//! and the rows (`rows`):
//! * joint springs: f = −k(θ − θ*), ∂f/∂z = −k ∇θ (the gradient rows themselves but
//!   for the universal joint's angles off its constraint), and the rows' derivatives
//!   are θ's second derivatives (the universal joint's: its rate rows' derivatives);
//! * joint dampers: f = −c (ξ(s) − ξ*), ∂f/∂z = −c ∂ξ/∂z (the rate rows' derivatives applied to
//!   the velocities s, or with `frame.second_order` to the weighted mean of the known
//!   velocities and s that the step's dampers take);
//! * point springs and dampers: both of the above for the length ℓ and its rate;
//! * joint actuators: f = u, fixed; only the rows turn;
//! * external wrenches: the moment p × Q(q_{k+1})ᵀF of a force at a body point.

pub(crate) mod rows;
#[cfg(test)]
mod rows_tests;
#[cfg(test)]
mod tests;

use crate::integrator::{Inputs, MultiplierJacobians, StepFrame};
use crate::joints::constraint::Pose;
use crate::math::{rotation, skew, V3, V6};
use crate::model::Model;

/// ∂(force-element residual terms)/∂z_{k+1} at fixed unknowns `s`, by 6×6 blocks:
/// `add(row_body, col_body, &block)` with block[r*6 + c] = ∂(row r of row_body's six
/// residual rows)/∂(tangent c of col_body's pose z_{k+1}); tangents 0..3 are δx (world),
/// 3..6 are δφ in the body frame, q_{k+1} ← q_{k+1} ⊗ (1, δφ/2) (first order). Called once
/// per derivative, may be called with the same (row, col) pair several times (the caller
/// sums). Bodies only: force elements add no rows to joints.
pub fn add_configuration_blocks(model: &Model, frame: &StepFrame, g: &MultiplierJacobians, inputs: &Inputs, s: &[f64], add: &mut impl FnMut(usize, usize, &[f64; 36])) {
    let forces = &model.forces;
    // the dampers' rate: the unknown velocities', or with the second- and fourth-order
    // integrators the weighted mean of the known and the unknown ones (linear in both)
    let vel = |k: usize| {
        let (v, w) = model.addresses.velocities(s, k);
        if !frame.second_order {
            return (v, w);
        }
        let (a, b) = frame.damping_weights;
        (b * v + a * frame.v0[k], b * w + a * frame.w0[k])
    };
    for sp in &forces.joint_springs {
        let j = &model.joints[sp.joint];
        let (a, b) = (g.placement(j.parent), g.placement(Some(j.child)));
        let mut theta = [0.0; 6];
        j.minimal_position(&Pose { x: a.x, q: a.q }, &Pose { x: b.x, q: b.q }, &mut theta[..j.dof()]);
        let rest = &inputs.joint_target[sp.joint].position;
        for (i, (&k, &rest)) in sp.stiffness.iter().zip(rest).enumerate().take(j.dof()) {
            if k != 0.0 {
                let d = rows::gradient(j, a, b, i);
                let df = rows::coordinate_gradient(j, a, b, i, &d).map(|x| -k * x);
                d.add_blocks(-k * (theta[i] - rest), &df, add);
            }
        }
    }
    for dm in &forces.joint_dampers {
        let j = &model.joints[dm.joint];
        let (a, b) = (g.placement(j.parent), g.placement(Some(j.child)));
        for (i, &c) in dm.damping.iter().enumerate().take(j.dof()) {
            if c != 0.0 {
                let d = rows::rate(j, a, b, i);
                let target = inputs.joint_target[dm.joint].velocity[i];
                d.add_blocks(-c * (d.pair.rate(vel) - target), &d.rate_gradient(vel).map(|x| -c * x), add);
            }
        }
    }
    for sp in &forces.point_springs {
        let Some((d, len)) = rows::point_spring(sp, |k| *g.placement(Some(k))) else { continue };
        let mut f = -sp.stiffness * (len - sp.rest_length);
        let mut df = d.rows_stacked().map(|x| -sp.stiffness * x);
        if sp.damping != 0.0 {
            f -= sp.damping * d.pair.rate(vel);
            let dr = d.rate_gradient(vel);
            df = [0, 1].map(|y| df[y] - sp.damping * dr[y]);
        }
        d.add_blocks(f, &df, add);
    }
    let fixed = [V6::zeros(); 2];
    for (ji, j) in model.joints.iter().enumerate() {
        let u = &inputs.joint_input[ji];
        let (a, b) = (g.placement(j.parent), g.placement(Some(j.child)));
        for (i, &ui) in u.iter().enumerate().take(j.dof()) {
            if ui != 0.0 {
                rows::rate(j, a, b, i).add_blocks(ui, &fixed, add);
            }
        }
    }
    for (i, p) in inputs.force_point.iter().enumerate() {
        let f = inputs.force[i];
        if *p == V3::zeros() || f == V3::zeros() {
            continue;
        }
        // r_ω −= 2 p × Q(q)ᵀF, and δ(Q(q)ᵀF) = [Q(q)ᵀF]× δφ
        let m = -2.0 * skew(p) * skew(&rotation(&frame.q1[i]).tr_mul(&f));
        let mut blk = [0.0; 36];
        for r in 0..3 {
            for c in 0..3 {
                blk[(3 + r) * 6 + 3 + c] = m[(r, c)];
            }
        }
        add(i, i, &blk);
    }
}
