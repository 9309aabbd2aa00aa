//! Joint actuation: an input uᵢ per free direction (N along a free translation, N·m
//! about a free rotation), applied as the equal-and-opposite wrench pair of the paper
//! (section 2, actuators) with the directions at z_{k+1}. Inputs are per simulation
//! (`Inputs::joint_input`) and hold until the caller changes them.

use super::wrench_pair::WrenchPair;
use crate::joints::Joint;
use crate::model::Model;

/// Adds the pairs of joint `j`'s inputs `u`, with `rows(i)` the rate rows of its free
/// direction i (`joint_directions`).
pub fn add_residual(j: &Joint, u: &[f64; 6], rows: impl Fn(usize) -> WrenchPair, model: &Model, r: &mut [f64]) {
    for i in 0..j.dof() {
        if u[i] != 0.0 {
            rows(i).apply(u[i], model, r);
        }
    }
}
