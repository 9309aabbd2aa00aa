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
//! `StepStats::relaxed` says so (and the active-set polish runs on the relaxed rows). It is rigid (no gap below zero) and in Coulomb's cone,
//! every sticking contact's answer is Coulomb's, and a sliding contact separates by
//! dt μ_f v_slip over the step instead of staying closed.

use super::interior_point::{self, IterationCap, LinearSolve};
use super::options::SolverOptions;
use super::problem::{Equations, Friction, Outcome};
// the Coulomb finish starts from the relaxed solution as the Tresca rescue's from its rounds
use super::tresca::recentred;
use super::warm_start::warm_start;
use crate::data::{BodyStates, Scratch, WarmStart};

/// How many times `SolverOptions::max_iterations` the relaxed solve may take. Its problem
/// is monotone and it converges, but in a pile slowly near the end: the 100-body mixed
/// pour with friction (`tests/piles`) took up to 111 iterations, and capped at 100 its
/// step 98 stopped at a residual of 2.2e-8 and jammed for good.
const RELAXED_ITERATIONS: usize = 2;

/// The equality residual at which a relaxed solve that stalls at the final barrier with
/// its products done is accepted (flagged stalled), where Coulomb's solves take
/// `SolverOptions::acceptance` (1e-8). A sticking contact of the linear cone holds its
/// slip rows only to eps times its condensed block ψ²/μ_end (about 2e-8 m/s): the 60-body
/// mixed pour's step 37 (`tests/piles/pours.rs`) stalled there at 2.0–2.2e-8 in every
/// change tried on 2026-11-30 and the step failed. The relaxed answer already departs
/// from Coulomb's by a separation of dt μ_f v_slip at sliding contacts (5e-6 m at
/// 1 mm/s, μ_f 0.5, dt 0.01); 1e-7 m/s of slip is 1e-9 m over such a step.
const RELAXED_ACCEPTANCE: f64 = 1e-7;

/// The options of a relaxed solve: `RELAXED_ITERATIONS` times the iterations and
/// `RELAXED_ACCEPTANCE` (or the caller's acceptance where that is looser).
fn options(opts: &SolverOptions) -> SolverOptions {
    SolverOptions { max_iterations: RELAXED_ITERATIONS * opts.max_iterations, acceptance: opts.acceptance.max(RELAXED_ACCEPTANCE), ..*opts }
}

/// Solves the step cold with the gap rows relaxed (regularized, refined Newton systems),
/// then Coulomb's problem `eqs` from there; the relaxed solution is the answer
/// (`StepStats::relaxed`) if Coulomb's fails again.
pub fn rescue(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, failed: Outcome, warm: &WarmStart, state: &BodyStates) -> Outcome {
    let mut stats = failed.stats;
    stats.fallback = true;
    warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
    let relaxed = interior_point::solve_refined(&Equations { friction: Friction::Relaxed, ..*eqs }, sc, &options(opts));
    if !relaxed.converged {
        return Outcome { stats: stats.then(relaxed.stats), converged: false };
    }
    // the polish's buffer holds the relaxed solution while Coulomb's is tried (the polish
    // keeps its own there afterwards)
    sc.polish.keep(&sc.it, &sc.contacts);
    let coulomb = interior_point::solve_with(eqs, sc, opts, recentred(opts), IterationCap::Options, LinearSolve::Refined);
    if coulomb.converged {
        return Outcome { stats: stats.then(relaxed.stats).then(coulomb.stats), converged: true };
    }
    // the relaxed solution is the answer; the finish's work counts
    sc.polish.put_back(&mut sc.it, &mut sc.contacts);
    // the factors are the finish's, not the answer's: the polish must not reuse them
    sc.factors = None;
    let mut answer = relaxed.stats;
    answer.relaxed = true;
    answer.add_work(&coulomb.stats);
    Outcome { stats: stats.then(answer), converged: true }
}

/// The relaxed problem solved again from the last solution (`Scratch::solved`) put back
/// on the central path, with refined Newton systems, and polished on the relaxed rows:
/// where a search at a relaxed answer added points and Coulomb's problem failed from it
/// (`step::solve_again`). Not converged: the caller goes on cold.
pub(super) fn again(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions) -> Outcome {
    let relaxed = Equations { friction: Friction::Relaxed, ..*eqs };
    sc.solved.put_back(&mut sc.it, &mut sc.contacts);
    let mut outcome = interior_point::solve_with(&relaxed, sc, &options(opts), recentred(opts), IterationCap::Options, LinearSolve::Refined);
    if outcome.converged {
        interior_point::polish(&relaxed, sc, opts, interior_point::final_barrier(opts));
        outcome.stats.relaxed = true;
        outcome.stats.fallback = true;
    }
    outcome
}
