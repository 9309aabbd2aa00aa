//! The Tresca rescue of a contact solve that failed.
//!
//! Coulomb friction couples the friction bound μ_f γ to the normal force, which makes
//! the complementarity problem non-monotone: with μ_f = 1 and many sliding contacts (a
//! chain crashing onto the ground) the central path can fold, and the interior point then
//! jams at a point where the Newton matrix is singular although the step has a solution.
//! With the bound frozen at ĝ (Tresca friction) the problem is monotone and the interior
//! point is robust; the fixed point ĝ ← γ converges to the Coulomb solution (contracting
//! by roughly μ_f × the coupling per round), and a last Coulomb solve started from it
//! finishes the result.
//!
//! Every round and the finish solve with regularized, refined Newton systems: the rescue
//! runs where the plain solves failed, which in a pile means statically indeterminate
//! contacts. There the plain rounds failed too (100-sphere pour, μ 0.5, step 50: every
//! round at the 100-iteration limit) while refined ones converge in 24–45 iterations.
//! The normal forces of an indeterminate pile are not unique, so the fixed point cycles
//! between equivalent distributions instead of contracting (`STALL`), and the round's
//! solution can be far from the Coulomb one (a cone equality of 0.66 N·s at one contact):
//! the finish therefore starts from it put back on the central path at `RECENTRE`, not at
//! the final barrier, where it jammed.

use super::interior_point::{self, IterationCap, LinearSolve, Start};
use super::options::SolverOptions;
use super::problem::{Equations, Friction, Outcome};
use super::warm_start::warm_start;
use crate::data::{BodyStates, Scratch, WarmStart};

/// Rounds of the fixed point before the rescue gives up.
const ROUNDS: usize = 40;
/// The fixed point has converged when no normal force changed by more than this
/// (relative to the largest normal force, at least 1 N) in the last round.
const AGREEMENT: f64 = 1e-7;
/// Rounds without halving the change after which the fixed point is taken as it is: it
/// may cycle instead of contracting (friction at the cone's edge without slip leaves the
/// normal forces undetermined between rounds).
const STALL: usize = 5;
/// Barrier at which the Coulomb finish starts from the last round's solution.
pub(super) const RECENTRE: f64 = 1e-4;

/// The start from a solution of a nearby problem in the iterate (a Tresca round's, the
/// relaxed solve's, the step's before a search added points): put back on the central
/// path at `RECENTRE`, or the final barrier if that is larger.
pub(super) fn recentred(opts: &SolverOptions) -> Start {
    Start::Recentred { mu: interior_point::final_barrier(opts).max(RECENTRE) }
}

/// Runs the fixed point from the failed Coulomb solve `first` of `eqs` (its iterate in
/// `sc`); each round solves `eqs` with the friction bounds `limits` (one per inequality,
/// the rescue's workspace) frozen, from the step's warm start (`warm`, `state`).
pub fn rescue(eqs: &Equations, sc: &mut Scratch, limits: &mut [f64], opts: &SolverOptions, first: Outcome, warm: &WarmStart, state: &BodyStates) -> Outcome {
    let at = &eqs.model.addresses;
    let mut stats = first.stats;
    stats.fallback = true;
    let gamma = |s: &[f64], ci: usize| s[at.contact(ci)].max(0.0);
    let limits = &mut limits[..sc.contacts.count()];
    for (ci, limit) in limits.iter_mut().enumerate() {
        *limit = gamma(&sc.it.s, ci);
    }
    let (mut best_change, mut stall) = (f64::INFINITY, 0usize);
    for _ in 0..ROUNDS {
        warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
        let tresca = Equations { friction: Friction::Tresca(limits), ..*eqs };
        let round = interior_point::solve_refined(&tresca, sc, opts);
        // a round's result is not kept (the fixed point goes on): only its work counts
        stats.add_round(&round.stats);
        if !round.converged {
            break;
        }
        let (mut change, mut scale) = (0.0f64, 1.0f64);
        for (ci, limit) in limits.iter_mut().enumerate() {
            let g = gamma(&sc.it.s, ci);
            change = change.max((g - *limit).abs());
            scale = scale.max(g);
            *limit = g;
        }
        if change <= 0.5 * best_change {
            (best_change, stall) = (change, 0);
        } else {
            stall += 1;
        }
        if change <= AGREEMENT * scale || stall >= STALL {
            // the Coulomb finish: `eqs` itself
            let finish = interior_point::solve_with(eqs, sc, opts, recentred(opts), IterationCap::Options, LinearSolve::Refined);
            return Outcome { stats: stats.then(finish.stats), converged: finish.converged };
        }
    }
    Outcome { stats, converged: false }
}
