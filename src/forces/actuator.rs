//! Joint actuation: an input uᵢ per free direction (N along a free translation, N·m
//! about a free rotation), applied as the equal-and-opposite wrench pair of the paper
//! (section 2, actuators) with the directions at z_{k+1}. Inputs are per simulation
//! (`Inputs::joint_input`) and hold until the caller changes them.

use super::joint_directions::rate_rows;
use crate::joints::constraint::Pose;
use crate::joints::Joint;
use crate::model::Model;

pub fn add_residual(j: &Joint, u: &[f64; 6], a: &Pose, b: &Pose, model: &Model, r: &mut [f64]) {
    for i in 0..j.dof() {
        if u[i] != 0.0 {
            rate_rows(j, a, b, i).apply(u[i], model, r);
        }
    }
}
