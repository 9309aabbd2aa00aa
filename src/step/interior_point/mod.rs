//! The step with contacts: a primal-dual interior-point Newton method (paper appendix D;
//! Nocedal & Wright algorithm 19.1) on the step equations of bodies, joints and contacts.
//!
//! Per iteration: the residual F(s; μ) (complementarity rows read product − μ; evaluated
//! once per trial point, since at another barrier only those rows shift), the Newton
//! matrix with every contact condensed to one block (`contact::node`), the graph LDU solve,
//! the fraction-to-boundary rule (`settings::TAU`), and backtracking on ‖F(s; μ)‖₂ that
//! also rejects |ω| ≥ 2/dt (`direction`).
//!
//! A solve starts cold (contact variables at the centre of their cones, barrier 1) or warm
//! from the last step's solution centred at a small barrier (`Start::Warm`: a robot
//! standing converges in a few iterations instead of fifteen); a warm solve that jams is
//! abandoned and the step restarts cold (`step::contact_solve`).
//!
//! The barrier moves through the phases of [`Phase`]: μ = 1 until the iterate is centred,
//! then Mehrotra's predictor–corrector (`mehrotra`: one factorization, two solves per
//! iteration), and for the last decades (target ≤ `HANDOVER` μ_end) or after a jam the
//! monotone IPOPT rule μ ← max(μ_end, min(0.2 μ, μ^1.5)) whenever ‖F(s; μ)‖∞ ≤ 10 μ
//! (μ ← max(μ_end, 0.2 μ) when a second-order cone is present: superlinear decrease jams
//! the plain Jordan-product direction of that cone off the central path). The step has
//! converged when μ = μ_end and both the equality rows (≤ tolerance) and the
//! complementarity products (≤ contact_tolerance, times the largest normal force / 100 N
//! when that exceeds 1: `measures::force_scale`) vanish.

pub mod contact_rows;
mod direction;
mod polish;
pub mod projected;

pub use self::direction::LinearSolve;
#[cfg(feature = "test-support")]
pub use self::direction::direction;
pub use self::polish::polish;
mod measures;
mod mehrotra;
mod settings;
#[cfg(feature = "test-support")]
pub mod trace;

use self::measures::{barrier_norm_inf, count_active, force_scale, measures, shift_barrier};
use self::settings::*;
use super::options::SolverOptions;
use super::problem::{norm2, norm_inf, Equations, Outcome};
use crate::data::{Scratch, StepStats};
pub use crate::data::WarmBarrier;

/// Where a solve starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Start {
    /// Contact variables at the centre of their cones, barrier μ = 1.
    Fresh,
    /// From the last step's contact variables (in the iterate), put on the central path
    /// at a barrier set by the residual there (`contact_rows::warm_contacts`,
    /// `settings::WARM_BARRIER_PER_RESIDUAL`, measured as [`WarmBarrier`] says); no
    /// centring phase.
    Warm(WarmBarrier),
    /// From the current iterate's contact variables put on the central path at `mu`
    /// (`contact_rows::warm_contacts`), centred again before the predictor–corrector:
    /// the Coulomb finish of the Tresca rescue, from its last round's solution.
    Recentred { mu: f64 },
}

/// How many iterations a solve may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IterationCap {
    /// `SolverOptions::max_iterations`.
    Options,
    /// At most this many (and at most `max_iterations`): stops a solve part way (tests).
    AtMost(usize),
}

/// How the barrier parameter moves; a solve goes Centring → PredictorCorrector →
/// Monotone, skipping what the options or its start rule out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// μ held (by the monotone rule) until the iterate is near the central path, which
    /// Mehrotra's choice of σ needs.
    Centring,
    /// Mehrotra's predictor–corrector: the barrier follows the iterate, no outer μ loop.
    PredictorCorrector,
    /// IPOPT's monotone rule: μ drops whenever the iterate is centred at it.
    Monotone,
}

/// The barrier μ_end a solve ends at: a tenth of the contact tolerance.
pub fn final_barrier(opts: &SolverOptions) -> f64 {
    0.1 * opts.contact_tolerance
}

/// The complete contact solve: a fresh start and the options' iteration limit.
pub fn solve(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions) -> Outcome {
    solve_with(eqs, sc, opts, Start::Fresh, IterationCap::Options, LinearSolve::Plain)
}

/// The complete contact solve with regularized, refined Newton systems
/// ([`LinearSolve::Refined`]): what a step falls back to when the plain solves fail.
pub fn solve_refined(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions) -> Outcome {
    solve_with(eqs, sc, opts, Start::Fresh, IterationCap::Options, LinearSolve::Refined)
}

/// A solve warm-started from the last step's contact variables (`Start::Warm`), capped at
/// `WARM_ITERATIONS` (`BALANCE_ITERATIONS` from the balance's barrier): a warm start that
/// does not converge by then is worse than a cold one, and the caller restarts cold.
/// Not converged, with no iteration, where the balance's barrier does not apply.
pub fn solve_warm(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, barrier: WarmBarrier) -> Outcome {
    let cap = match barrier {
        WarmBarrier::Loads => WARM_ITERATIONS,
        WarmBarrier::Balance => BALANCE_ITERATIONS,
    };
    solve_with(eqs, sc, opts, Start::Warm(barrier), IterationCap::AtMost(cap), LinearSolve::Plain)
}

/// One interior-point solve from `start`; the solution (or the last iterate) stays in
/// `sc` (s in `it.s`, the contacts' E variables in `contacts.vars.e`).
pub fn solve_with(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, start: Start, cap: IterationCap, linear: LinearSolve) -> Outcome {
    let model = eqs.model;
    let mu_end = final_barrier(opts);
    let at_end = |mu: f64| mu <= mu_end * (1.0 + 1e-12);
    let limit = match cap {
        IterationCap::Options => opts.max_iterations,
        IterationCap::AtMost(n) => opts.max_iterations.min(n),
    };
    let mut stats = StepStats { contacts: model.contacts.len(), ..StepStats::default() };
    sc.factors = None;
    #[cfg(feature = "test-support")]
    if trace::on() {
        trace::header(eqs, start, cap, linear);
    }
    // the step's refined solves (its last resorts) step second-order cones along arcs near
    // their boundary (`Layout::trial`): only failing steps pay for them, so every step the
    // plain solves converge is what it was
    sc.contacts.arcs = linear == LinearSolve::Refined && sc.contacts.nodes.has_soc();
    let predictor_corrector = opts.contact_predictor_corrector;
    let (mut mu, mut phase) = match start {
        Start::Fresh => {
            contact_rows::start_contacts(eqs, &mut sc.it.s, &mut sc.contacts);
            (MU_INITIAL, if predictor_corrector { Phase::Centring } else { Phase::Monotone })
        }
        Start::Warm(barrier) => {
            contact_rows::fill_frames(eqs, &mut sc.contacts);
            eqs.residual(&sc.it.s, &mut sc.next, &mut sc.it.r);
            let loads = norm_inf(&sc.it.r);
            let residual = match barrier {
                WarmBarrier::Loads => loads,
                WarmBarrier::Balance => {
                    let balance = contact_rows::balance_residual(eqs, sc);
                    if balance > BALANCE_SHARE * loads {
                        return Outcome { stats, converged: false };
                    }
                    balance
                }
            };
            let mu = (WARM_BARRIER_PER_RESIDUAL * residual).clamp(mu_end, WARM_BARRIER_MAX);
            if !contact_rows::warm_contacts_keeping(eqs, &mut sc.it.s, mu, &mut sc.contacts, barrier == WarmBarrier::Balance) {
                return Outcome { stats, converged: false };
            }
            (mu, if predictor_corrector { Phase::PredictorCorrector } else { Phase::Monotone })
        }
        Start::Recentred { mu } => {
            contact_rows::fill_frames(eqs, &mut sc.contacts);
            if !contact_rows::warm_contacts(eqs, &mut sc.it.s, mu, &mut sc.contacts) {
                return Outcome { stats, converged: false };
            }
            (mu, if predictor_corrector { Phase::Centring } else { Phase::Monotone })
        }
    };
    let mut converged = false;
    let (mut eq, mut comp);
    let mut tiny_steps = 0usize;
    let mut short_steps = 0usize;
    let mut stale = StaleWindow::default();
    let mut floor = RoundingFloor::default();
    // Some(μ): (it.r, cw.re) already hold the iterate's residual at barrier μ (the line
    // search evaluated it), so it is shifted instead of evaluated again
    let mut evaluated_at: Option<f64> = None;
    loop {
        // convergence is judged at μ = 0: products, not products − μ
        match evaluated_at.take() {
            Some(m) => shift_barrier(&mut sc.contacts, -m),
            None => contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r),
        }
        (eq, comp) = measures(&sc.contacts, &sc.it.r, 0.0);
        let comp_tol = opts.contact_tolerance * force_scale(model, &sc.it.s, &sc.contacts);
        #[cfg(feature = "test-support")]
        if trace::on() {
            trace::iterate(eqs, sc, stats.iterations, phase, mu, eq, comp);
        }
        if at_end(mu) && eq < opts.tolerance && comp <= comp_tol {
            converged = true;
            break;
        }
        if stats.iterations >= limit {
            break;
        }
        // at the final barrier with the products done and the equality rows below the
        // acceptance level, a residual that stops halving has reached its rounding floor
        // (impacts: momentum rows of 1e3…1e4 N·s/dt, so 1e-10 is 1e-14 relative)
        if at_end(mu) && comp <= comp_tol && eq < opts.acceptance && floor.reached(eq) {
            break;
        }
        if phase == Phase::Centring && norm_inf(&sc.it.r).max(barrier_norm_inf(&sc.contacts, mu)) <= CENTRED * mu {
            phase = Phase::PredictorCorrector;
        }
        let (accepted, alpha, searched_at) = match phase {
            Phase::PredictorCorrector => {
                let merit = norm2(&sc.it.r).hypot(norm2(&sc.contacts.vars.re));
                if stale.predictor_corrector(merit) {
                    break;
                }
                let Some(pc) = mehrotra::step(eqs, sc, eq, mu_end, &mut stats, linear) else { break };
                mu = pc.target;
                // the last decades, or a jam (even the centred direction short), go to the
                // monotone rule; a warm start's short first steps are contacts opening or
                // closing, and its own guard (`WARM_SHORT_COUNT`) catches jams
                if pc.target <= HANDOVER * mu_end || (pc.alpha < CORRECTOR_ALPHA && !matches!(start, Start::Warm(_))) {
                    phase = Phase::Monotone;
                    mu = mu.max(0.1 * comp);
                }
                (pc.accepted, pc.alpha, pc.target)
            }
            Phase::Centring | Phase::Monotone => {
                mu = lower_barrier(sc, mu, mu_end);
                let merit = norm2(&sc.it.r).hypot(norm2(&sc.contacts.vars.re));
                if stale.monotone(mu, merit) && !sc.patient {
                    break;
                }
                // Newton direction through the condensed graph system
                if !direction::direction(eqs, sc, linear) {
                    break;
                }
                let (accepted, alpha) = direction::line_search(eqs, sc, mu, merit, &mut stats);
                (accepted, alpha, mu)
            }
        };
        #[cfg(feature = "test-support")]
        if trace::on() {
            trace::step(eqs, sc, alpha);
        }
        if !accepted {
            break;
        }
        let Scratch { it: w, contacts: cw, .. } = &mut *sc;
        std::mem::swap(&mut w.s, &mut w.trial);
        std::mem::swap(&mut cw.vars.e, &mut cw.vars.e_trial);
        std::mem::swap(&mut w.r, &mut w.r_trial);
        std::mem::swap(&mut cw.vars.re, &mut cw.vars.re_trial);
        evaluated_at = Some(searched_at);
        stats.iterations += 1;
        if matches!(start, Start::Warm(_)) {
            // a warm start that jams at the cones' boundary is abandoned for a cold one
            short_steps = if alpha < WARM_SHORT_ALPHA { short_steps + 1 } else { 0 };
            if short_steps >= WARM_SHORT_COUNT {
                break;
            }
        }
        tiny_steps = if alpha < ABORT_ALPHA { tiny_steps + 1 } else { 0 };
        if tiny_steps >= ABORT_COUNT {
            break;
        }
    }
    if !converged {
        contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
        (eq, comp) = measures(&sc.contacts, &sc.it.r, 0.0);
        // a stalled but nearly exact step (singular configurations) is accepted, flagged;
        // the step's last solves (refined) also when each equality row is that close
        // relative to its own terms (`measures::relative_equality`)
        let products_done = comp <= CONTACT_ACCEPTANCE * opts.contact_tolerance * force_scale(model, &sc.it.s, &sc.contacts);
        if eq.is_finite() && products_done && (eq < opts.acceptance || (linear == LinearSolve::Refined && measures::relative_equality(eqs, sc).relative < opts.acceptance)) {
            converged = true;
            stats.stalled = true;
        }
    }
    #[cfg(feature = "test-support")]
    if trace::on() {
        trace::end(converged, &stats, eq, comp);
    }
    stats.residual = eq;
    stats.complementarity = comp;
    stats.active_contacts = count_active(model, &sc.it.s, &sc.contacts);
    Outcome { stats, converged }
}

/// The monotone rule's barrier update from the residual at μ = 0 in (it.r, cw.re): the
/// E rows are shifted to μ, then μ drops while the iterate is centred at it. Leaves the
/// residual at the returned barrier.
fn lower_barrier(sc: &mut Scratch, mut mu: f64, mu_end: f64) -> f64 {
    let Scratch { it: w, contacts: cw, .. } = sc;
    shift_barrier(cw, mu);
    while norm_inf(&w.r).max(norm_inf(&cw.vars.re)) <= CENTRED * mu && mu > mu_end {
        let lower = if cw.nodes.has_soc() { mu_end.max(MU_FACTOR * mu) } else { mu_end.max((MU_FACTOR * mu).min(mu.powf(MU_POWER))) };
        shift_barrier(cw, lower - mu);
        mu = lower;
    }
    mu
}

/// Iterations without halving the merit (see `STALE_ITERATIONS`); one window for the
/// whole solve, restarted by the monotone rule at each new barrier.
#[derive(Debug, Clone, Copy)]
struct StaleWindow {
    mu: f64,
    merit: f64,
    iterations: usize,
}

impl Default for StaleWindow {
    fn default() -> Self {
        StaleWindow { mu: f64::NAN, merit: f64::INFINITY, iterations: 0 }
    }
}

impl StaleWindow {
    /// Counts a predictor–corrector iteration at `merit`; true when the solve is stale.
    fn predictor_corrector(&mut self, merit: f64) -> bool {
        if merit <= 0.5 * self.merit {
            (self.merit, self.iterations) = (merit, 0);
        }
        self.iterations += 1;
        self.iterations > STALE_ITERATIONS
    }

    /// Counts a monotone iteration at barrier `mu` and `merit`; true when stale.
    fn monotone(&mut self, mu: f64, merit: f64) -> bool {
        if mu != self.mu || merit <= 0.5 * self.merit {
            (self.mu, self.merit, self.iterations) = (mu, merit, 0);
        }
        self.iterations += 1;
        self.iterations > STALE_MONOTONE_ITERATIONS
    }
}

/// The equality residual at the final barrier stopping to halve (see `FLOOR_ITERATIONS`).
#[derive(Debug, Clone, Copy)]
struct RoundingFloor {
    eq: f64,
    iterations: usize,
}

impl Default for RoundingFloor {
    fn default() -> Self {
        RoundingFloor { eq: f64::INFINITY, iterations: 0 }
    }
}

impl RoundingFloor {
    fn reached(&mut self, eq: f64) -> bool {
        if eq <= 0.5 * self.eq {
            (self.eq, self.iterations) = (eq, 0);
            false
        } else {
            self.iterations += 1;
            self.iterations >= FLOOR_ITERATIONS
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_predictor_corrector_is_stale_after_its_window_without_halving() {
        let mut w = StaleWindow::default();
        assert!(!w.predictor_corrector(1.0));
        for _ in 1..STALE_ITERATIONS {
            assert!(!w.predictor_corrector(0.9));
        }
        assert!(w.predictor_corrector(0.9));
        // halving the merit restarts the window
        assert!(!w.predictor_corrector(0.4));
    }

    #[test]
    fn the_monotone_window_restarts_at_each_barrier() {
        let mut w = StaleWindow::default();
        for _ in 0..STALE_MONOTONE_ITERATIONS {
            assert!(!w.monotone(1.0, 1.0));
        }
        assert!(w.monotone(1.0, 1.0));
        assert!(!w.monotone(0.2, 1.0));
    }

    #[test]
    fn the_rounding_floor_is_reached_when_the_residual_stops_halving() {
        let mut f = RoundingFloor::default();
        assert!(!f.reached(1e-9));
        assert!(!f.reached(0.4e-9));
        for _ in 1..FLOOR_ITERATIONS {
            assert!(!f.reached(0.3e-9));
        }
        assert!(f.reached(0.3e-9));
    }
}
