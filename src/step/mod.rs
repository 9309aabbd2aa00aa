//! One step of the integrator (paper section 3; appendix D for the solvers), as named
//! stages on `(&Model, &mut Data)`:
//!
//! 1. predict: z_{k+1} from z_k, ż_k, and G(z_{k+1}) (`integrator`), and the contact
//!    points there (`narrow_phase`: the only stage that knows shapes);
//! 2. warm start the unknowns (`warm_start`);
//! 3. select the contacts near enough to take part (`culling`);
//! 4. solve the step equations: Newton (`newton`) without contacts, the interior point
//!    (`interior_point`) with them, the Tresca rescue (`tresca`) when that fails and the
//!    policy allows it;
//! 5. verify the left-out contacts at the solution, adding and solving again if one
//!    penetrates (`culling`), and search the collision shapes again at the solution,
//!    solving again (from that solution: `solve_again`) with the points found there
//!    where shapes are inside each other
//!    (`collide::search_at_solution`, up to 16 times; a pair that finds more points
//!    than it has slots has the whole step taken again with all it may hold, `advance`);
//! 6. commit the solution as z_{k+1}, ż_{k+1} (`commit`);
//! 7. account the inputs' work and the dampers' dissipation (`forces::energy`).
//!
//! A step that does not converge is split in halves by the policy in `split`. No stage
//! allocates.
//!
//! The solvers are peers with one shape, `solve(&Equations, &mut Scratch, &SolverOptions)
//! -> Outcome`: the equations fixed for the step (`problem`), the iterate and workspace in
//! the data's scratch, the options; a new solver is one more such function and one more
//! arm in [`solve`].

pub(crate) mod checkpoint;
pub(crate) mod collide;
mod commit;
pub(crate) mod consistent_start;
pub(crate) mod culling;
pub mod divergence;
mod inequalities;
pub(crate) mod interior_point;
pub(crate) mod layout;
pub(crate) mod newton;
pub(crate) mod options;
pub mod penetration;
pub(crate) mod problem;
mod relaxed;
pub(crate) mod split;
mod tresca;
pub(crate) mod warm_start;

pub use options::SolverOptions;

use self::checkpoint::Checkpoint;
use self::problem::{Equations, Friction, Outcome};
use self::warm_start::warm_start;
use crate::data::{BodyStates, Data, Scratch, StepStats, WarmStart};
use crate::contact::geometry::contact_points;
use crate::contact::node::ContactWork;
use crate::integrator;
use crate::model::{Error, Model, Result};

/// Which rescues a failed frictional contact solve may run (see `split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rescue {
    /// The Tresca fixed point, then the relaxed solve.
    Allowed,
    /// The relaxed solve alone, where the Coulomb solve jammed near a solution
    /// (`JAMMED`; one solve: the first attempt of a whole step).
    Relaxed,
    /// None (the split's halves above its deepest level).
    Deferred,
}

/// One time step of `model` as `Sim::step` takes it: the collision search at the step's
/// prediction (`collide`), the projection out of a start in penetration (`penetration`,
/// which searches at the current configuration; the search at the prediction then runs
/// again from the projected one), the contact layout of the search, then the step under
/// the retry policy (`split`), on the layout's model. A step that fails changes nothing:
/// `start` (saved here) puts back the state, the warm start, the outputs and the contact
/// layout, so that a retry fails the same way. `d.stats` describes the failed attempt.
pub fn advance(model: &Model, d: &mut Data, opts: &SolverOptions, policy: &mut split::SplitPolicy, projection: &mut penetration::Projection, start: &mut Checkpoint, answer: &mut Checkpoint) -> Result<StepStats> {
    // without contacts, collision shapes and limits, the first-order step changes nothing
    // before its solve, and a failed solve leaves the data as it was (`step_once`; the
    // split puts back its own snapshot): nothing to save (a pendulum's step: 2.5 % of it)
    let guarded = !(model.contacts.is_empty() && model.collision.shapes.is_empty() && model.limits.is_empty() && opts.integrator == options::Integrator::FirstOrder);
    if guarded {
        start.save(d);
    }
    // slots asked for by an earlier step are its own: a retry starts as the step did
    d.collision.grow.clear();
    d.collision.unverified = false;
    let mut result = advance_from_here(model, d, opts, policy, projection);
    // a pair found more points at the solution than it had slots: again with as many,
    // the answer found with the slots it had kept (`answer`) in case that fails, if its
    // searches found the shapes apart without the points dropped
    let mut answered = None;
    for _ in 0..MAX_SLOT_GROWTHS {
        if d.collision.grow.is_empty() {
            break;
        }
        if let (Ok(stats), false) = (result, d.collision.unverified) {
            answer.save(d);
            answered = Some(stats);
        }
        start.restore(model, d);
        d.collision.unverified = false;
        result = advance_from_here(model, d, opts, policy, projection);
    }
    match (result.is_err(), answered) {
        // taken again with more slots the step failed in every split, where the slots it
        // had gave a checked answer (the 100-box frictionless pour's step 504: no shape
        // deeper than 1e-9 m; the pour jammed there for good)
        (true, Some(stats)) => {
            answer.restore(model, d);
            d.stats = stats;
            Ok(stats)
        }
        (true, None) if guarded => {
            start.restore(model, d);
            result
        }
        _ => result,
    }
}

fn advance_from_here(model: &Model, d: &mut Data, opts: &SolverOptions, policy: &mut split::SplitPolicy, projection: &mut penetration::Projection) -> Result<StepStats> {
    let stats = step_from_here(model, d, opts, policy, projection)?;
    collide::keep_solved_points(model, d);
    Ok(stats)
}

fn step_from_here(model: &Model, d: &mut Data, opts: &SolverOptions, policy: &mut split::SplitPolicy, projection: &mut penetration::Projection) -> Result<StepStats> {
    collide::find(model, d, opts, collide::Search::Predicted);
    if projection.resolve(model, d, opts)? {
        collide::find(model, d, opts, collide::Search::Predicted);
    }
    collide::commit(model, d)?;
    let layout = d.collision.layout.clone();
    let model = layout.as_deref().unwrap_or(model);
    d.frame.second_order = opts.integrator != options::Integrator::FirstOrder;
    if opts.integrator == options::Integrator::FourthOrder {
        return fourth_order_step(model, d, opts);
    }
    let Some(start) = consistent_start::start(model, d, opts, d.dt)? else { return policy.step(model, d, opts) };
    let stats = policy.step(model, d, opts)?;
    // the start's interval and the step's are one pair (a base of extrapolation, and
    // the two intervals whose mean velocity is read at the node)
    if stats.substeps == 1 {
        d.warm.pair_interval = d.dt;
    }
    d.stats = start.then(stats);
    Ok(d.stats)
}

/// The collision search at the step's prediction and its contact layout committed, as
/// `advance_from_here` begins (for the step's derivatives, which take the start and the
/// parts one by one on that layout).
pub(crate) fn collide_at_prediction(model: &Model, d: &mut Data, opts: &SolverOptions) -> Result<()> {
    collide::find(model, d, opts, collide::Search::Predicted);
    collide::commit(model, d).map(|_| ())
}

/// The fourth-order step (`Integrator::FourthOrder`): five steps of the lengths of
/// `options::FOURTH_ORDER_PARTS` times dt, after a consistent start onto the first where
/// the velocities were set at the node. The clock and the step count advance by one step
/// of dt. No splitting: a failed part fails the step (and `advance` puts the state back).
fn fourth_order_step(model: &Model, d: &mut Data, opts: &SolverOptions) -> Result<StepStats> {
    let (start_interval, solves) = options::fourth_order_solves();
    let (time, steps) = (d.time, d.steps);
    let mut total: Option<StepStats> = consistent_start::start(model, d, opts, start_interval * d.dt)?;
    for w in solves {
        let stats = step_once(model, d, opts, Rescue::Allowed, w * d.dt)?;
        total = Some(total.map_or(stats, |t| t.then(stats)));
    }
    (d.time, d.steps) = (time + d.dt, steps + 1);
    d.stats = total.expect("five steps");
    Ok(d.stats)
}

/// One step of interval `dt` (the step's, or a part of a split step; no splitting), from
/// velocities that span `d.dt_prev`. On failure the state is unchanged and `d.stats`
/// describes the attempt.
pub fn step_once(model: &Model, d: &mut Data, opts: &SolverOptions, rescue: Rescue, dt: f64) -> Result<StepStats> {
    predict(model, d);
    if d.frame.second_order {
        let h0 = d.frame.dt;
        d.frame.impulse = 0.5 * (h0 + dt);
        d.frame.damping_weights = (h0 / (h0 + dt), dt / (h0 + dt));
    }
    let stats = solve_at_frame(model, d, opts, rescue, dt)?;
    divergence::check(model, d)?;
    commit::commit(model, d, dt);
    account_energy(model, d);
    Ok(stats)
}

/// Stages 1b–5 on the frame `d.frame` and G that the caller placed (the step's
/// prediction, or the consistent start's node): the contact points, the warm start, the
/// selection of contacts, the solve and its checks. The solution is left in the scratch.
pub(crate) fn solve_at_frame(model: &Model, d: &mut Data, opts: &SolverOptions, rescue: Rescue, dt: f64) -> Result<StepStats> {
    // the slots' points: the searches of an earlier attempt (one that failed, before a
    // split's retries) left theirs, found at a solution this attempt does not reach
    if d.collision.points_searched {
        collide::write_points(model, d);
    }
    narrow_phase(model, d);
    warm_start(model, &d.warm, &d.state, dt, &mut d.scratch.it.s);
    if opts.integrator == options::Integrator::FourthOrder {
        warm_start::extrapolate_by_intervals(model, &d.warm, &d.state, dt, &mut d.scratch.it.s);
    }
    d.scratch.factorizations = 0;
    let eqs = Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt, tracked: &d.tracked, friction: Friction::Coulomb };
    culling::select_contacts(&eqs, opts.contact_margin, &mut d.scratch);
    let (mut earlier, mut searches, mut found_more) = (0, 0, false);
    // the friction law the last answer solves (the relaxed rescue's, or Coulomb's)
    let mut law = Friction::Coulomb;
    let outcome = loop {
        let outcome = match earlier {
            0 => solve(&eqs, &mut d.scratch, &mut d.friction_limits, &d.warm, &d.state, opts, rescue),
            _ => solve_again(&eqs, &mut d.scratch, &mut d.friction_limits, &d.warm, &d.state, opts, rescue, law),
        };
        law = if outcome.stats.relaxed { Friction::Relaxed } else { Friction::Coulomb };
        if !outcome.converged {
            break outcome;
        }
        // a negative margin (the projection's) leaves contacts shallower than it out
        let again = !culling::left_out_contacts_hold(&eqs, &mut d.scratch, opts.contact_margin.min(0.0))
            || (searches < MAX_SEARCHES_AT_SOLUTION && {
                searches += 1;
                found_more = collide::search_at_solution(model, &d.frame, &d.scratch.it.s, dt, &mut d.collision, &mut d.scratch.contacts, opts.contact_margin, SEARCH_DEPTH, searches == 1);
                d.collision.points_searched |= found_more;
                found_more
            });
        if !again {
            // with the searches used up, the last one's points are solved but unchecked
            d.collision.unverified |= found_more;
            break outcome;
        }
        // a left-out contact penetrates at the solution, or the shapes do where the held
        // points do not: it is in now, solve again from this solution
        earlier += outcome.stats.iterations;
        d.scratch.solved.keep(&d.scratch.it, &d.scratch.contacts);
    };
    let stats = StepStats { substeps: 1, factorizations: d.scratch.factorizations, ..outcome.stats.after_attempts(earlier) };
    d.stats = stats;
    if !outcome.converged {
        return Err(Error::NotConverged { residual: stats.residual, iterations: stats.iterations });
    }
    // a NaN iterate can pass the convergence test (every comparison with NaN is false)
    if let Some(what) = non_finite(d) {
        return Err(Error::NonFiniteState(what));
    }
    Ok(stats)
}

/// What of the step about to be committed is not finite: the configuration z_{k+1} or
/// the solution (velocities, multipliers, contact variables).
fn non_finite(d: &Data) -> Option<&'static str> {
    let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    let frame = &d.frame;
    if !(frame.x1.iter().all(|x| finite(x.as_slice())) && frame.q1.iter().all(|q| finite(q.as_slice()))) {
        return Some("configuration");
    }
    (!finite(&d.scratch.it.s)).then_some("velocities or forces")
}

/// Residual (N·s, m/s) below which a failed contact solve is taken to have jammed near a
/// solution, as a frictional pile does (1e-10–1e-7 in the 100-sphere pour; 1.7e-3 at the
/// mixed pour's step 18, which only these retries take through: at a level of 1e-3 the
/// pour stuck there; 3.5e-5 where an iteration cap of 13 cut a chain's solve short),
/// rather than to have found none, as an impact does (2.4e-2–5.8e2 in the 128-sphere
/// chain). Only a jammed solve is retried with refined linear solves (they fix what
/// rounding does near a solution: after a plain solve that failed above 1e-3 they
/// converged in none of 109 retries in the chain and 3 of 3822 in 72 A1 drops, each
/// retracing the plain path) and, at a whole step, relaxed before the step is split (the
/// chain: 49 of 52 relaxed solves failed there, and halving succeeds).
const JAMMED: f64 = 1e-2;

/// The same, where two of the solve's contacts act on one body (statically indeterminate
/// forces: a humanoid lying on the ground, a box on its face), for the relaxed solve at
/// full length. A limp Talos (talos_reduced, talos_full_v2) collapsed on the ground jammed
/// at 1.2e-2–0.65, and the split halved it to its deepest level, where each Tresca rescue
/// took 500–2150 iterations, until the step's retry budget ran out; at full length the
/// relaxed solve converged in all 27 such steps of the corpus sweep. The sphere chain's
/// impacts (one contact a body) stay with the split: 46 of its 58 relaxed solves there
/// (residuals 3.3e-2–0.95) failed.
const JAMMED_INDETERMINATE: f64 = 1.0;

/// How many times a step is taken again because a pair needs more contact slots.
const MAX_SLOT_GROWTHS: usize = 2;

/// How many times a step searches its shapes again at its solution
/// (`collide::search_at_solution`) and solves again with what it found. A box sinking
/// into another is found shallower by each search, about 4× (1.7e-3, 3.2e-4, 7.2e-5,
/// ... m in the frictionless mixed pour), so a pile's steps take 4–8 searches to reach
/// 1e-9 m and a few take 10–16; with 3, the box pour went 1.1e-5 m deep.
const MAX_SEARCHES_AT_SOLUTION: usize = 16;

/// Depth (m) of shapes in each other at a step's solution above which their pair's points
/// are searched again: the held points' closed gaps are zero to tolerance × dt, far below.
const SEARCH_DEPTH: f64 = 1e-9;

/// Stage 1: the prediction z_{k+1} from the velocities, which span the previous interval
/// (dt unless a step was split), and G(z_{k+1}).
pub fn predict(model: &Model, d: &mut Data) {
    let s = &d.state;
    integrator::predict(&s.x, &s.q, &s.v, &s.w, d.dt_prev, &mut d.frame);
    d.g.compute(model, &d.frame);
    d.tracked.predict(model, &d.frame.x1, &d.frame.q1);
}

/// Stage 1b: each described contact's point at z_{k+1}, held for the step; everything
/// after this reads points, not shapes. (A contact description has one point; the
/// collision shapes' points, several per pair, were written by `collide` before the step.)
pub fn narrow_phase(model: &Model, d: &mut Data) {
    let described = &model.contacts[..model.described_contacts];
    for (c, p) in described.iter().zip(d.scratch.contacts.points.iter_mut()) {
        let count = contact_points(c, &d.frame.x1, &d.frame.q1, std::slice::from_mut(p));
        debug_assert_eq!(count, 1, "a contact description has one point");
    }
}

/// Stage 4: the nonlinear solve from the iterate in `sc`; `limits` is the Tresca
/// rescue's workspace (its friction bounds, `tresca`).
fn solve(eqs: &Equations, sc: &mut Scratch, limits: &mut [f64], warm: &WarmStart, state: &BodyStates, opts: &SolverOptions, rescue: Rescue) -> Outcome {
    sc.polish.polished = false;
    // without contacts and with every limit left out (far from its bound) the step is
    // Newton's; a limit found crossed at the solution joins and the interior point runs
    if eqs.model.contacts.is_empty() && sc.contacts.selection.iter().next().is_none() {
        return newton::solve(eqs, sc, opts);
    }
    let mut outcome = contact_solve(eqs, sc, warm, state, opts);
    if !outcome.converged && sc.contacts.nodes.has_friction() {
        if rescue == Rescue::Allowed {
            outcome = tresca::rescue(eqs, sc, limits, opts, outcome, warm, state);
        }
        let residual = outcome.stats.residual;
        let jammed = residual <= JAMMED || (residual <= JAMMED_INDETERMINATE && {
            let ContactWork { selection, by_body, .. } = &mut sc.contacts;
            by_body.most_on_one_body(&eqs.model.contacts, |ci| selection.contains(ci)) >= 2
        });
        if !outcome.converged && (rescue == Rescue::Allowed || (rescue == Rescue::Relaxed && jammed)) {
            outcome = relaxed::rescue(eqs, sc, opts, outcome, warm, state);
        }
    }
    if outcome.converged && !sc.polish.polished {
        // exact complementarity: no force across a gap, no gap under a force (of the law
        // the answer solves)
        let law = if outcome.stats.relaxed { Friction::Relaxed } else { eqs.friction };
        interior_point::polish(&Equations { friction: law, ..*eqs }, sc, opts, interior_point::final_barrier(opts));
    }
    outcome
}

/// The interior point from the last step's contact variables when there are any and the
/// options allow it: the projected Newton, then the warm starts of both barriers
/// (`WarmBarrier`; the one the last step converged from first); a step they all fail
/// restarts cold from the step's warm start.
fn contact_solve(eqs: &Equations, sc: &mut Scratch, warm: &WarmStart, state: &BodyStates, opts: &SolverOptions) -> Outcome {
    sc.warm_barrier = None;
    let Some(first) = warm.first_barrier.filter(|_| opts.contact_warm_start) else {
        let plain = interior_point::solve(eqs, sc, opts);
        return if plain.converged { plain } else { refined(eqs, sc, warm, state, opts, plain) };
    };
    sc.contacts.vars.e.copy_from_slice(&warm.e_solution);
    let projected = interior_point::projected::solve(eqs, sc, opts);
    if projected.converged {
        sc.warm_barrier = Some(first);
        return projected;
    }
    use interior_point::WarmBarrier::{Balance, Loads};
    let order = if first == Balance { [Balance, Loads] } else { [Loads, Balance] };
    let mut stats = projected.stats;
    for barrier in order {
        warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
        sc.contacts.vars.e.copy_from_slice(&warm.e_solution);
        let mut outcome = interior_point::solve_warm(eqs, sc, opts, barrier);
        stats = stats.then(outcome.stats);
        if outcome.converged {
            outcome.stats = stats;
            sc.warm_barrier = Some(barrier);
            return outcome;
        }
    }
    warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
    let mut cold = interior_point::solve(eqs, sc, opts);
    cold.stats = cold.stats.restarted_after(&stats);
    if cold.converged {
        return cold;
    }
    refined(eqs, sc, warm, state, opts, cold)
}

/// The last contact solve of a step: cold, with regularized and refined Newton systems
/// (statically indeterminate contacts: piles, grasps), where the plain solve `failed`
/// jammed near a solution (`JAMMED`). Only failing steps pay for it, so every step the
/// plain solves converge is what it was.
fn refined(eqs: &Equations, sc: &mut Scratch, warm: &WarmStart, state: &BodyStates, opts: &SolverOptions, failed: Outcome) -> Outcome {
    if failed.stats.residual > JAMMED {
        return failed;
    }
    warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
    let mut outcome = interior_point::solve_refined(eqs, sc, opts);
    outcome.stats = outcome.stats.restarted_after(&failed.stats);
    outcome
}

/// The solve again of `solve_at_frame` after a check or search at its solution added
/// contacts or points: from that solution (`Scratch::solved`) put back on the central
/// path, with plain and then refined Newton systems; cold (`solve`) if both fail. From the
/// centre of the cones, as the first solve starts, the 100-box frictionless pour jammed
/// for good at step 428: the search at its solution found 10 pairs up to 2.5e-4 m deep,
/// and the solve with their points failed far from a solution (residual 0.12), as did
/// its halves' (1.18) and quarters'; from the solution the plain solve jammed at 2.8e-7
/// and the refined one converged in 19 iterations. The 60-box pour's first 100 steps took
/// 9852 iterations and 1 split step this way, 13 926 and 26 split steps cold (release,
/// 24 s against 33 s).
///
/// Where the answer searched at was the relaxed rescue's (`law`) and Coulomb's problem
/// fails from it again, the relaxed problem is solved from it before anything cold.
/// Without that the relaxed solve started from the centre of the cones after each
/// search: the 25-body mixed pour (μ 0.5, `pour_seeded` start 1) spent its resting steps
/// at 400–1000 iterations, and at step 172 that cold relaxed solve stalled (one friction
/// pair's products held at 7e-4) and every step failed from there.
#[allow(clippy::too_many_arguments)]
fn solve_again(eqs: &Equations, sc: &mut Scratch, limits: &mut [f64], warm: &WarmStart, state: &BodyStates, opts: &SolverOptions, rescue: Rescue, law: Friction) -> Outcome {
    use interior_point::{IterationCap, LinearSolve};
    let mut stats = StepStats::default();
    sc.polish.polished = false;
    for linear in [LinearSolve::Plain, LinearSolve::Refined] {
        sc.solved.put_back(&mut sc.it, &mut sc.contacts);
        let outcome = interior_point::solve_with(eqs, sc, opts, tresca::recentred(opts), IterationCap::Options, linear);
        stats = stats.then(outcome.stats);
        if outcome.converged {
            interior_point::polish(eqs, sc, opts, interior_point::final_barrier(opts));
            return Outcome { stats, converged: true };
        }
    }
    if law == Friction::Relaxed {
        let outcome = relaxed::again(eqs, sc, opts);
        stats = stats.then(outcome.stats);
        if outcome.converged {
            return Outcome { stats, converged: true };
        }
    }
    warm_start(eqs.model, warm, state, eqs.dt, &mut sc.it.s);
    let mut cold = solve(eqs, sc, limits, warm, state, opts, rescue);
    cold.stats = stats.then(cold.stats);
    cold
}

/// Stage 7: the work of the inputs and the dissipation of the dampers over the step just
/// committed (`forces::energy`).
fn account_energy(model: &Model, d: &mut Data) {
    crate::forces::account_step(model, &d.frame, &d.inputs, &d.state.v, &d.state.w, &mut d.energy);
}
