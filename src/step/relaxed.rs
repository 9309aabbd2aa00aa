//! The relaxed rescue: the last resort of a frictional contact solve that failed as
//! Coulomb's problem.
//!
//! Coulomb's complementarity problem is not monotone (the friction bound μ_f γ couples
//! the cone row to the normal force and nothing couples back), and in a pile of mutually
//! touching bodies with one of them sliding its central path can end at a point where
//! every product of that contact stays at ~1e-6 while the barrier falls. Anitescu's
//! relaxation (`FrictionLaw::Relaxed`) adds the coupling back: the gap at z_{k+2} must
//! exceed dt μ_f times the contact's sliding speed. The problem is then monotone — the
//! optimality conditions of a convex program — and the interior point converges.
//!
//! From the relaxed solution put back on the central path, Coulomb's problem is solved
//! once more (its solution is near: the two differ only at sliding contacts). If that
//! converges the step is Coulomb's; if not, the relaxed solution is the step's answer and
//! `StepStats::relaxed` says so. It is rigid (no gap below zero) and in Coulomb's cone,
//! every sticking contact's answer is Coulomb's, and a sliding contact separates by
//! dt μ_f v_slip over the step instead of staying closed.

use super::interior_point::{self, IterationCap, LinearSolve, Start};
use super::options::SolverOptions;
use super::problem::{Equations, Outcome};
use super::warm_start::warm_start;
use crate::data::{BodyStates, Scratch, WarmStart};

/// Barrier at which the Coulomb finish starts from the relaxed solution.
const RECENTRE: f64 = 1e-4;

/// Solves the step cold with the gap rows relaxed (regularized, refined Newton systems),
/// then tries Coulomb's problem from there. The law left in `sc` is the answer's, for the
/// active-set polish that follows; the next solve starts as Coulomb's (`step_once`).
pub fn rescue(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, failed: Outcome, warm: &WarmStart, state: &BodyStates) -> Outcome {
    let stats = failed.stats;
    sc.contacts.tresca.set_frozen(false);
    sc.contacts.tresca.set_relaxed(true);
    warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
    let relaxed = interior_point::solve_refined(eqs, sc, opts);
    if !relaxed.converged {
        sc.contacts.tresca.set_relaxed(false);
        return Outcome { stats: stats.then(relaxed.stats), converged: false };
    }
    sc.polish.keep(&sc.it, &sc.contacts);
    sc.contacts.tresca.set_relaxed(false);
    let mu = interior_point::final_barrier(opts).max(RECENTRE);
    let coulomb = interior_point::solve_with(eqs, sc, opts, Start::Recentred { mu }, IterationCap::Options, LinearSolve::Refined);
    if coulomb.converged {
        return Outcome { stats: stats.then(relaxed.stats).then(coulomb.stats), converged: true };
    }
    // the relaxed solution is the answer; the finish's work counts
    sc.polish.put_back(&mut sc.it, &mut sc.contacts);
    sc.contacts.tresca.set_relaxed(true);
    // the factors are the finish's, not the answer's: the polish must not reuse them
    sc.factors = None;
    let mut answer = relaxed.stats;
    answer.relaxed = true;
    answer.add_work(&coulomb.stats);
    Outcome { stats: stats.then(answer), converged: true }
}
