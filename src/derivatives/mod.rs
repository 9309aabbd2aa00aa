//! Step derivatives by the implicit function theorem (issue 13 part 3), so far with
//! respect to the inputs: one step solves f(s; z_k, ż_k, u) = 0 for the unknowns s
//! (velocities ż_{k+1}, joint multipliers); at the converged s*,
//!   ∂s/∂u = −(∂f/∂s)⁻¹ ∂f/∂u,
//! with ∂f/∂s the step's own Newton matrix (assembled at s* and factored by the graph LDU,
//! one solve per input) and ∂f/∂u explicit: the inputs are forces held over the step with
//! their directions at z_{k+1}, so f is affine in them. z_{k+1} is predicted from ż_k and
//! does not depend on u.
//!
//! Inputs in maximal coordinates are every body's wrench: force (world, 3) then torque
//! (body frame, 3), the force acting at the body point currently set
//! (`Sim::set_body_wrench`); in minimal coordinates every joint's inputs in joint-id
//! order (`Sim::set_joint_input`).
//!
//! Not yet: the state Jacobian A = ∂x_{k+1}/∂x_k (needs ∂f/∂z_k and ∂f/∂ż_k through the
//! prediction, G(z_{k+1}) and the force elements), models with contacts or joint limits
//! (the interior point's condensed blocks), and the map of B to minimal velocities.

mod differences;
mod linearize;
mod state_map;
#[cfg(test)]
mod tests;

use crate::forces::joint_directions::rate_rows;
use crate::integrator::frame_pose;
use crate::kinematics::Coords;
use crate::model::{Error, Result};
use crate::sim::Sim;
use crate::solver::BlockMatrix;
use crate::step::problem::Equations;

impl Sim {
    /// ∂ż_{k+1}/∂u of one step from the current state and inputs (the sim is not
    /// advanced): 6 rows per body (v world, ω body frame), one column per input in
    /// `coords` (see the module docs), row-major into `out`. Positions z_{k+1} do not depend
    /// on u. Models with contacts or joint limits are refused (not yet derived).
    pub fn input_jacobian(&self, coords: Coords, out: &mut [f64]) -> Result<()> {
        let (nb, nu) = (self.model().body_count(), input_count(self, coords));
        crate::error::check_len("out", out.len(), 6 * nb * nu)?;
        let (_, dz) = self.velocity_derivatives(coords)?;
        out.copy_from_slice(&dz);
        Ok(())
    }

    /// The sim after one step and ∂ż_{k+1}/∂u (6 rows per body, one column per input).
    pub(crate) fn velocity_derivatives(&self, coords: Coords) -> Result<(Sim, Vec<f64>)> {
        let model = self.model().clone();
        if model.inequality_count() > 0 {
            return Err(Error::InvalidArgument("model", "step derivatives with contacts or joint limits are not implemented yet".into()));
        }
        let (nb, nu) = (model.body_count(), input_count(self, coords));
        let mut out = vec![0.0; 6 * nb * nu];
        let mut next = self.clone();
        let stats = next.step()?;
        if stats.substeps > 1 {
            return Err(Error::InvalidArgument("state", format!("the step from this state was split in {} substeps; its derivative is not one step's", stats.substeps)));
        }
        let (d, _) = next.data_and_options();
        let eqs = Equations { model: &model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked };
        let s = &d.scratch.it.s;
        let sym = &model.symbolic;
        let mut k = BlockMatrix::new(sym);
        eqs.jacobian(s, &mut k);
        let assembled = k.clone();
        k.factor(sym).map_err(|_| Error::InvalidArgument("state", "the step's Newton matrix is singular at its solution".into()))?;
        let at = &model.addresses;
        let (mut rhs, mut col, mut r) = (vec![0.0; s.len()], vec![0.0; s.len()], vec![0.0; s.len()]);
        for c in 0..nu {
            rhs.fill(0.0);
            input_column(&eqs, coords, c, &mut rhs);
            // ∂s/∂u_c = −K⁻¹ ∂f/∂u_c
            rhs.iter_mut().for_each(|x| *x = -*x);
            solve_refined(&k, &assembled, sym, &rhs, &mut col, &mut r);
            for b in 0..nb {
                let o = at.body(b);
                for r in 0..6 {
                    out[(6 * b + r) * nu + c] = col[o + r];
                }
            }
        }
        Ok((next, out))
    }
}

/// Rounds of iterative refinement against the assembled matrix when the factorization
/// regularizes pivots (loop joints, `model::graph`): unrefined, the regularization biased
/// the four-bar's derivative by 1.6e-7 relative; refined, 4.3e-10.
const REFINEMENTS: usize = 3;

/// x = K⁻¹ b with the factored `k`, refined with the residual of the `assembled` K if the
/// factorization regularized any pivot.
fn solve_refined(k: &BlockMatrix, assembled: &BlockMatrix, sym: &crate::solver::Symbolic, b: &[f64], x: &mut [f64], r: &mut [f64]) {
    x.copy_from_slice(b);
    k.solve(sym, x);
    let rounds = if sym.regularization.iter().any(|&e| e != 0.0) { REFINEMENTS } else { 0 };
    for _ in 0..rounds {
        assembled.multiply(sym, x, r);
        r.iter_mut().zip(b).for_each(|(ri, bi)| *ri = bi - *ri);
        k.solve(sym, r);
        x.iter_mut().zip(r.iter()).for_each(|(xi, ri)| *xi += ri);
    }
}

/// Number of inputs in `coords`: every joint's free directions, or 6 per body.
pub fn input_count(sim: &Sim, coords: Coords) -> usize {
    sim.model().velocity_count(coords)
}

/// ∂f/∂u for input `c` into `col` (zeroed): the residual terms of a unit input.
fn input_column(eqs: &Equations, coords: Coords, c: usize, col: &mut [f64]) {
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
