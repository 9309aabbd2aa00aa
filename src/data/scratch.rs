//! Workspace of the step being solved, allocated once per simulation.

use crate::contact::node::{ContactWork, Selection};
use crate::model::Model;
use crate::solver::BlockMatrix;

/// The nonlinear solvers' vectors over the step's unknowns s (velocities, joint
/// multipliers, contacts' kept variables).
#[derive(Debug, Clone, Default)]
pub struct Iterate {
    /// The iterate.
    pub s: Vec<f64>,
    /// A line-search trial point.
    pub trial: Vec<f64>,
    /// The Newton direction.
    pub ds: Vec<f64>,
    /// The residual at `s`.
    pub r: Vec<f64>,
    /// The residual at `trial`.
    pub r_trial: Vec<f64>,
    /// The best iterate seen (kept when a solve stalls).
    pub best: Vec<f64>,
    /// The right-hand side of the last linear solve and its residual (iterative
    /// refinement, `step::interior_point::direction`).
    pub rhs: Vec<f64>,
    pub lin_r: Vec<f64>,
}

impl Iterate {
    pub fn new(dim: usize) -> Iterate {
        let z = vec![0.0; dim];
        Iterate { s: z.clone(), trial: z.clone(), ds: z.clone(), r: z.clone(), r_trial: z.clone(), best: z.clone(), rhs: z.clone(), lin_r: z }
    }
}

/// Everything a nonlinear solve of one step writes besides the outcome.
#[derive(Debug, Clone)]
pub struct Scratch {
    pub it: Iterate,
    /// The Newton matrix in the model's block pattern (factored in place).
    pub matrix: BlockMatrix,
    /// The interior point's Newton matrix as assembled, before regularization and
    /// factorization: iterative refinement measures the direction against it.
    pub reference: BlockMatrix,
    /// The inequalities' (contacts', then limit sides') condensed variables and blocks.
    pub contacts: ContactWork,
    /// The interior point's solution while the active-set polish tries to improve it
    /// (`step::interior_point::polish`): the step unknowns, the E variables, the selection.
    pub before_polish: (Vec<f64>, Vec<f64>, Selection),
}

impl Scratch {
    pub fn new(model: &Model) -> Scratch {
        let contacts = ContactWork::with_limit_sides(&model.contacts, model.limit_sides.len());
        let before_polish = (vec![0.0; model.system_size()], vec![0.0; contacts.vars.e.len()], contacts.selection.clone());
        Scratch { it: Iterate::new(model.system_size()), matrix: BlockMatrix::new(&model.symbolic), reference: BlockMatrix::new(&model.symbolic), contacts, before_polish }
    }
}
