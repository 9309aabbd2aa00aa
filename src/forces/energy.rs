//! Energy bookkeeping over a step: work done by the inputs (joint actuators and body
//! wrenches) and energy dissipated by the dampers.
//!
//! Discrete definitions. A step solves f(v_{k+1}) = 0 with the explicit forces and the
//! damper rows at z_{k+1}. Multiplying the translational residual m(v₁ − v₀)/dt by the
//! mean velocity (v₀ + v₁)/2 · dt gives exactly ΔK, so each element's generalized force
//! f is credited with the work f · ξ̄ · dt, ξ̄ = (ξ(v_k) + ξ(v_{k+1}))/2 — rows at z_{k+1}:
//!
//!   W_in += dt · u · ξ̄                       (actuators, body wrenches)
//!   D    += dt · c ξ(v_{k+1}) · ξ̄            (dampers; f = −c (ξ(v_{k+1}) − ξ*))
//!   W_in += dt · c ξ* · ξ̄                    (a damper's target rate ξ* drives it)
//!
//! Moving a spring's target (`Sim::set_joint_target`) changes the spring's potential at
//! once: that change is input work too, credited when the target moves.
//!
//! With these, E(t) − E(0) − W_in + D is only the integrator's own bounded energy error
//! (the symplectic scheme's O(dt) oscillation): it does not drift.

use super::joint_directions::{gradient_rows, rate_rows};
use super::{frame_pose, ForceElements};
use crate::integrator::{Inputs, StepFrame};
use crate::math::{rotation, V3};
use crate::model::Model;

/// Running totals since the simulation started (or was reset).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct EnergyAccount {
    /// Work done on the mechanism by joint inputs and body forces/torques (J).
    pub input_work: f64,
    /// Energy removed by joint and point dampers (J, ≥ 0 up to the discretization).
    pub dissipation: f64,
    /// The springs' running budget for divergence detection (`step::divergence`); zero
    /// in models without springs.
    pub(crate) springs: SpringBudget,
}

/// What the springs may hold: the energy they started from plus all the others gave.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct SpringBudget {
    /// T + V_springs after the last committed step: a state that is not the one the last
    /// step left (set by the caller, projected out of penetration) starts a new budget.
    pub(crate) last: f64,
    /// T + V_springs when the budget started, plus Σ |ΔT − W_springs| of every step since
    /// (the energy every other element moved in or out) (J).
    pub(crate) supplied: f64,
}

/// Adds one committed step: `frame` holds v_k, ω_k and z_{k+1}; `v1`, `w1` are v_{k+1}, ω_{k+1}.
pub fn account_step(model: &Model, frame: &StepFrame, inputs: &Inputs, v1: &[V3], w1: &[V3], acc: &mut EnergyAccount) {
    account_step_with(model, frame, inputs, |i| (v1[i], w1[i]), acc);
}

/// [`account_step`] with v_{k+1}, ω_{k+1} of body i given by `vel1(i)` (e.g. read from a
/// step's solution before it is committed).
pub fn account_step_with(model: &Model, frame: &StepFrame, inputs: &Inputs, vel1: impl Fn(usize) -> (V3, V3), acc: &mut EnergyAccount) {
    let dt = frame.dt;
    let vel0 = |i: usize| (frame.v0[i], frame.w0[i]);
    let forces: &ForceElements = &model.forces;
    // joint inputs
    for (ji, j) in model.joints.iter().enumerate() {
        let u = &inputs.joint_input[ji];
        if u.iter().all(|&x| x == 0.0) {
            continue;
        }
        let (a, b) = (frame_pose(frame, j.parent), frame_pose(frame, Some(j.child)));
        for i in 0..j.dof() {
            if u[i] != 0.0 {
                let rows = rate_rows(j, &a, &b, i);
                acc.input_work += dt * u[i] * 0.5 * (rows.rate(vel0) + rows.rate(&vel1));
            }
        }
    }
    // body forces (at a body point) and torques
    for i in 0..model.body_count() {
        let (f, tau, p) = (inputs.force[i], inputs.torque[i], inputs.force_point[i]);
        if f == V3::zeros() && tau == V3::zeros() {
            continue;
        }
        let (v1, w1) = vel1(i);
        let v = 0.5 * (frame.v0[i] + v1);
        let w = 0.5 * (frame.w0[i] + w1);
        // power of F at the point p: F·(v + Q(ω×p)) = F·v + (p × QᵀF)·ω, plus τ·ω
        let point_v = v + rotation(&frame.q1[i]) * w.cross(&p);
        acc.input_work += dt * (f.dot(&point_v) + tau.dot(&w));
    }
    // dampers
    for d in &forces.joint_dampers {
        let j = &model.joints[d.joint];
        let (a, b) = (frame_pose(frame, j.parent), frame_pose(frame, Some(j.child)));
        for i in 0..j.dof() {
            let c = d.damping[i];
            if c != 0.0 {
                let rows = rate_rows(j, &a, &b, i);
                let xi1 = rows.rate(&vel1);
                let mean = 0.5 * (rows.rate(vel0) + xi1);
                acc.dissipation += dt * c * xi1 * mean;
                acc.input_work += dt * c * inputs.joint_target[d.joint].velocity[i] * mean;
            }
        }
    }
    for sp in &forces.point_springs {
        if sp.damping == 0.0 {
            continue;
        }
        if let Some((rows, _)) = sp.rows(|k| (frame.x1[k], frame.q1[k])) {
            let xi1 = rows.rate(&vel1);
            acc.dissipation += dt * sp.damping * xi1 * 0.5 * (rows.rate(vel0) + xi1);
        }
    }
}

/// Work of the springs over a step (J): each spring's force at z_{k+1} (the step's ∇V,
/// `joint_spring`, `point_spring`) times its mean rate over the step, as the inputs'
/// work is credited in [`account_step`]; `vel1(i)` gives v_{k+1}, ω_{k+1}. The joint
/// springs rest at the inputs' targets.
pub fn spring_work(model: &Model, frame: &StepFrame, inputs: &Inputs, vel1: impl Fn(usize) -> (V3, V3)) -> f64 {
    let vel0 = |i: usize| (frame.v0[i], frame.w0[i]);
    let mut work = 0.0;
    for sp in &model.forces.joint_springs {
        let j = &model.joints[sp.joint];
        let (a, b) = (frame_pose(frame, j.parent), frame_pose(frame, Some(j.child)));
        let mut theta = [0.0; 6];
        j.minimal_position(&a, &b, &mut theta[..j.dof()]);
        let rest = &inputs.joint_target[sp.joint].position;
        for i in 0..j.dof() {
            let k = sp.stiffness[i];
            if k != 0.0 {
                let rows = gradient_rows(j, &a, &b, i);
                work -= frame.dt * k * (theta[i] - rest[i]) * 0.5 * (rows.rate(vel0) + rows.rate(&vel1));
            }
        }
    }
    for sp in &model.forces.point_springs {
        if let Some((rows, len)) = sp.rows(|k| (frame.x1[k], frame.q1[k])) {
            work -= frame.dt * sp.stiffness * (len - sp.rest_length) * 0.5 * (rows.rate(vel0) + rows.rate(&vel1));
        }
    }
    work
}
