//! Step derivatives by the implicit function theorem (issue 13 part 3): one step solves
//! f(s; z_{k+1}, ż_k, u) = 0 for the unknowns s (velocities ż_{k+1}, joint multipliers);
//! at the converged s*, δs = −(∂f/∂s)⁻¹ (∂f/∂z_{k+1} δz_{k+1} + ∂f/∂ż_k δż_k + ∂f/∂u δu)
//! with ∂f/∂s the step's own Newton matrix factored by the graph LDU
//! (`step_sensitivity`), mapped to the state in minimal or maximal coordinates
//! (`linearize`). `differences` gives the same by central differences of whole steps.
//!
//! Inputs in maximal coordinates are every body's wrench: force (world, 3) then torque
//! (body frame, 3), the force acting at the body point currently set
//! (`Sim::set_body_wrench`); in minimal coordinates every joint's inputs in joint-id
//! order (`Sim::set_joint_input`). The inputs are forces held over the step with their
//! directions at z_{k+1}, so f is affine in them.

mod block;
mod contact_sensitivity;
mod coordinate_sensitivity;
mod differences;
pub use differences::{MAX_DIFFERENCE_STEP, MIN_RELATIVE_DIFFERENCE_STEP};
mod linearize;
mod second_order;
mod step_sensitivity;
#[cfg(test)]
mod tests;

use crate::forces::joint_directions::rate_rows;
use crate::integrator::frame_pose;
use crate::kinematics::Coords;
use crate::model::Result;
use crate::sim::Sim;
use crate::step::problem::Equations;
use step_sensitivity::StepSensitivity;

impl Sim {
    /// ∂ż_{k+1}/∂u of one step from the current state and inputs (the sim is not
    /// advanced): 6 rows per body (v world, ω body frame), one column per input in
    /// `coords` (see the module docs), row-major into `out`.
    pub fn input_jacobian(&self, coords: Coords, out: &mut [f64]) -> Result<()> {
        let (nb, nu) = (self.model().body_count(), input_count(self, coords));
        crate::error::check_len("out", out.len(), 6 * nb * nu)?;
        let step = StepSensitivity::at(self)?;
        let n = step.system_size();
        let none = vec![None; nb];
        let (mut rhs, mut r, mut ds) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let at = &self.model().addresses;
        for c in 0..nu {
            step.right_hand_side(&none, &none, Some((coords, c)), &mut rhs);
            step.solve(&rhs, &mut r, &mut ds);
            for b in 0..nb {
                for k in 0..6 {
                    out[(6 * b + k) * nu + c] = ds[at.body(b) + k];
                }
            }
        }
        Ok(())
    }
}

/// Number of inputs in `coords`: every joint's free directions, or 6 per body.
pub fn input_count(sim: &Sim, coords: Coords) -> usize {
    sim.model().linearization_size(coords).1
}

/// ∂f/∂u for input `c` into `col` (zeroed): the residual terms of a unit input.
pub(crate) fn input_column(eqs: &Equations, coords: Coords, c: usize, col: &mut [f64]) {
    let model = eqs.model;
    match coords {
        Coords::Minimal => {
            let (mut ji, mut i) = (0, c);
            while i >= model.joints[ji].dof() {
                i -= model.joints[ji].dof();
                ji += 1;
            }
            let j = &model.joints[ji];
            rate_rows(j, &frame_pose(eqs.frame, j.parent), &frame_pose(eqs.frame, Some(j.child)), i).apply(1.0, model, col);
        }
        Coords::Maximal => {
            // d_T −= F, d_R −= 2 (τ + p × Q(q_{k+1})ᵀ F)
            let (b, k) = (c / 6, c % 6);
            let o = model.addresses.body(b);
            if k < 3 {
                let f = crate::math::V3::ith(k, 1.0);
                col[o + k] = -1.0;
                let p = eqs.inputs.force_point[b];
                let m = crate::forces::external_wrench::moment(&eqs.frame.q1[b], &p, &f);
                for r in 0..3 {
                    col[o + 3 + r] = -2.0 * m[r];
                }
            } else {
                col[o + k] = -2.0;
            }
        }
    }
}
