//! Workspace of the step being solved, allocated once per simulation.

use crate::contact::node::{ContactWork, Selection};
use crate::integrator::NextPoses;
use crate::model::Model;
use crate::solver::BlockMatrix;
use super::WarmBarrier;

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
    /// Each body's pose z_{k+2}(s) at the iterate last evaluated (`Equations::residual`,
    /// `Equations::jacobian` place them; the joints' and mimics' rows read them).
    pub next: NextPoses,
    /// The Newton matrix in the model's block pattern (factored in place).
    pub matrix: BlockMatrix,
    /// The interior point's Newton matrix as assembled, before regularization and
    /// factorization: iterative refinement measures the direction against it.
    pub reference: BlockMatrix,
    /// The inequalities' (contacts', then limit sides') condensed variables and blocks.
    pub contacts: ContactWork,
    /// The interior point's solution beside its polish (`step::interior_point::polish`).
    pub polish: Unpolished,
    /// The step's last converged solution before a check or search at it added contacts or
    /// points (`step::solve_at_frame`).
    pub solved: Solved,
    /// How `matrix` was factored, if it holds the factors of a Newton matrix of the
    /// contact solve under way: the predictor–corrector's second solve and the polish's
    /// first try reuse them, and solve with them as they were made.
    pub factors: Option<LinearSolve>,
    /// Newton matrices factored since the step's solve began (every solver and the
    /// polish; `StepStats::factorizations`).
    pub factorizations: usize,
    /// The warm start the step's contact solve converged from, if a warm one did
    /// (`step::contact_solve`; the next step tries it first).
    pub warm_barrier: Option<WarmBarrier>,
    /// Set by the retry policy's last pass (`step::split`): the interior point's monotone
    /// rule is not cut short by its stale window and runs to the iteration cap.
    pub patient: bool,
}

/// How the interior point solves its Newton systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinearSolve {
    /// Factor the matrix as assembled and solve once.
    Plain,
    /// Factor it with the contacts' pivots regularized (`contact_rows::regularize`) and
    /// solve once: the active-set polish, whose closed contacts have zero pivots and whose
    /// Newton iteration absorbs the regularization's bias (1e-10 relative).
    Regularized,
    /// Factor it with the contacts' pivots regularized (`contact_rows::regularize`) and
    /// refine each solution against the matrix as assembled (`reference`): for
    /// statically indeterminate contact sets (piles, grasps), where the plain solve's
    /// rounding grows as μ → 0, and for a plain factorization that met a singular pivot.
    Refined,
}

/// The interior point's solution as it converged, kept while the active-set polish
/// improves it: put back if the polish fails, and when it succeeds, the contacts' warm
/// start of the next step (`step::commit`): a warm start wants points inside the cones,
/// on the central path, not the polish's points on their boundary (the A1 trot took 15.8
/// iterations per step from those, 4.7 from these).
#[derive(Debug, Clone)]
pub struct Unpolished {
    /// The step unknowns, the contacts' E variables, the contacts taking part.
    pub s: Vec<f64>,
    pub e: Vec<f64>,
    pub selection: Selection,
    /// Whether the solution in the iterate is the polish of this one.
    pub polished: bool,
}

impl Unpolished {
    /// Keeps the solution in the iterate `it` and the contacts `cw`.
    pub fn keep(&mut self, it: &Iterate, cw: &ContactWork) {
        self.s.copy_from_slice(&it.s);
        self.e.copy_from_slice(&cw.vars.e);
        self.selection.copy_from(&cw.selection);
    }

    /// Puts the kept solution back.
    pub fn put_back(&self, it: &mut Iterate, cw: &mut ContactWork) {
        cw.selection.copy_from(&self.selection);
        it.s.copy_from_slice(&self.s);
        cw.vars.e.copy_from_slice(&self.e);
    }
}

/// A converged solution kept while the step solves again with the contacts or points a
/// check or search added at it: that solve starts from it (`step::solve_again`).
#[derive(Debug, Clone)]
pub struct Solved {
    /// The step unknowns and the contacts' E variables.
    pub s: Vec<f64>,
    pub e: Vec<f64>,
}

impl Solved {
    /// Keeps the solution in the iterate `it` and the contacts `cw`.
    pub fn keep(&mut self, it: &Iterate, cw: &ContactWork) {
        self.s.copy_from_slice(&it.s);
        self.e.copy_from_slice(&cw.vars.e);
    }

    /// Puts the kept solution's variables back (the contacts taking part are the solve's).
    pub fn put_back(&self, it: &mut Iterate, cw: &mut ContactWork) {
        it.s.copy_from_slice(&self.s);
        cw.vars.e.copy_from_slice(&self.e);
    }
}

impl Scratch {
    pub fn new(model: &Model) -> Scratch {
        let contacts = ContactWork::with_limit_sides(&model.contacts, model.limit_sides.len());
        let polish = Unpolished { s: vec![0.0; model.system_size()], e: vec![0.0; contacts.vars.e.len()], selection: contacts.selection.clone(), polished: false };
        let solved = Solved { s: polish.s.clone(), e: polish.e.clone() };
        Scratch { it: Iterate::new(model.system_size()), next: NextPoses::new(model.body_count()), matrix: BlockMatrix::new(&model.symbolic), reference: BlockMatrix::new(&model.symbolic), contacts, polish, solved, factors: None, factorizations: 0, warm_barrier: None, patient: false }
    }
}
