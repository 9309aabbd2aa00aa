//! The step's nonlinear problem as the solvers see it: the step equations f(s) = 0 with
//! everything fixed during the step (the prediction z_{k+1}, G(z_{k+1}), the inputs), the
//! outcome every solver returns, and the residual norms they measure with.

use crate::data::StepStats;
use crate::forces;
use crate::integrator::{self, Inputs, MultiplierJacobians, StepFrame};
use crate::model::Model;
use crate::solver::BlockMatrix;

/// The equality part of the step equations (bodies, joints, force elements) at one step.
#[derive(Clone, Copy)]
pub struct Equations<'a> {
    pub model: &'a Model,
    /// The prediction z_{k+1} and the known velocities.
    pub frame: &'a StepFrame,
    /// The caller's forces and joint inputs.
    pub inputs: &'a Inputs,
    pub g: &'a MultiplierJacobians,
    /// Interval of the unknown velocities.
    pub dt: f64,
}

impl Equations<'_> {
    /// f(s) into `r`: bodies and joints, then the force elements.
    pub fn residual(&self, s: &[f64], r: &mut [f64]) {
        integrator::residual_into(self.model, self.frame, self.inputs, self.g, self.dt, s, r);
        forces::add_step_residual(self.model, self.frame, self.g, self.inputs, s, r);
    }

    /// ∂f/∂s at `s` into `matrix` (cleared first).
    pub fn jacobian(&self, s: &[f64], matrix: &mut BlockMatrix) {
        integrator::assemble_jacobian(self.model, self.frame, self.g, self.dt, s, matrix);
        forces::add_step_jacobian(self.model, self.frame, self.g, s, matrix);
    }

    /// Every body's |ω| below `limit` (2/dt: beyond it the discrete rotation folds).
    pub fn angular_speed_ok(&self, s: &[f64], limit: f64) -> bool {
        let at = &self.model.addresses;
        (0..self.model.body_count()).all(|i| at.angular_velocity(s, i).norm() < limit)
    }
}

/// What a nonlinear solve of one step returns.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Outcome {
    pub stats: StepStats,
    /// The iterate solves the step (possibly accepted as stalled, see `stats`).
    pub converged: bool,
}

/// Largest absolute entry (NaN counts as largest).
pub fn norm_inf(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| if x.abs() > m || x.is_nan() { x.abs() } else { m })
}

pub fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}
