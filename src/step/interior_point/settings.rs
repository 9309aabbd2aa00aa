//! The interior point's fixed rules. Each constant states the rule and why it holds;
//! the measurements that chose the values are in the commit history.

/// Fraction-to-boundary factor τ: no variable moves more than this fraction of the way
/// to its cone's boundary, so the iterate stays strictly inside (where the condensed
/// blocks are invertible).
pub const TAU: f64 = 0.99;
/// Halvings of the step length before the line search gives up.
pub const LINE_SEARCH_HALVINGS: usize = 40;
/// A warm start (`Start::Warm`) puts the last step's contact variables on the central
/// path at barrier μ = this × the largest body or joint residual there (`WarmBarrier`), within
/// [μ_end, `WARM_BARRIER_MAX`]: a step like the last one (a robot standing) starts near
/// the end, a step where contacts open or close starts far enough inside the cones that
/// the partners that must change can.
pub const WARM_BARRIER_PER_RESIDUAL: f64 = 1e-6;
pub const WARM_BARRIER_MAX: f64 = 1e-3;
/// A warm-started solve is abandoned for a cold start after `WARM_SHORT_COUNT`
/// consecutive steps shorter than `WARM_SHORT_ALPHA` (jammed at the cones' boundary), or
/// after `WARM_ITERATIONS` iterations: by then a cold start is cheaper.
pub const WARM_SHORT_ALPHA: f64 = 0.01;
pub const WARM_SHORT_COUNT: usize = 3;
pub const WARM_ITERATIONS: usize = 20;
/// The warm start whose barrier the last forces' balance sets (`WarmBarrier::Balance`)
/// is tried only where those forces carry all but `BALANCE_SHARE` of the loads (the
/// residual with them at most that share of the residual without): a pile at rest (the
/// 50-sphere pile: 3.8e-5 in the median step, 9e-3 at the 90th percentile), not an
/// impact (the rising 128-sphere chain: 0.05–32, where trying it anyway added 8 % to
/// the iterations). It gets `BALANCE_ITERATIONS`: it converges in one or two from near
/// μ_end or not at all, but as a pile comes to rest it took up to 8 (capped at 5 or 3,
/// the resting 50-sphere pile never reached it: 49.7 and 29.5 iterations a step).
pub const BALANCE_ITERATIONS: usize = 8;
pub const BALANCE_SHARE: f64 = 1e-2;
/// Initial barrier parameter: the contact variables start at the centre of their cones,
/// where every product is 1.
pub const MU_INITIAL: f64 = 1.0;
/// The iterate is centred (near the central path, where Mehrotra's choice of σ works)
/// when its residual at barrier μ is at most this multiple of μ; the monotone rule lowers
/// μ at the same level.
pub const CENTRED: f64 = 10.0;
/// A solve gives up (to step splitting or the Tresca rescue) after `ABORT_COUNT`
/// consecutive steps shorter than `ABORT_ALPHA`: such a solve is jammed at the cones'
/// boundary and crawls to the iteration limit without converging.
pub const ABORT_ALPHA: f64 = 1e-6;
pub const ABORT_COUNT: usize = 5;
/// The predictor–corrector gives up after this many iterations without halving the
/// merit ‖F‖₂: its barrier follows the iterate, so a solve that stops making progress
/// is jammed, and a split step or the rescue is cheaper than the crawl.
pub const STALE_ITERATIONS: usize = 10;
/// The same for the monotone barrier rule, counted at one barrier (the window restarts
/// when μ drops or the merit halves): its last decades converge slowly but steadily, so
/// it gets a longer window than the predictor–corrector. A failed step's last pass
/// (`Scratch::patient`) lets it run on: a cold solve of a violent impact can crawl for 20
/// iterations and then converge (the explicit-PD A1's leg struck into the ground at
/// 43 m/s: 63 iterations at dt/8).
pub const STALE_MONOTONE_ITERATIONS: usize = 20;
/// Below this step length the corrector's direction is rejected for the plain centred
/// direction at the same target, and the predictor–corrector hands over to the monotone
/// rule: a short corrector step means the second-order term points out of the cones.
pub const CORRECTOR_ALPHA: f64 = 0.1;
/// A stalled solve is accepted (flagged `stalled`, like `SolverOptions::acceptance` for
/// the equality rows) with complementarity products up to this multiple of the contact
/// tolerance: friction at the edge of the cone without slip is a degenerate
/// complementarity pair that the barrier cannot drive to the tolerance, while a product
/// 100 times larger is still a slip far below the step's resolution.
pub const CONTACT_ACCEPTANCE: f64 = 100.0;
/// Normal force (N) above which the complementarity tolerance grows with the force
/// (see `measures::force_scale`).
pub const FORCE_REFERENCE: f64 = 100.0;
/// Iterations without halving the equality residual after which a solve that is done
/// but for the last digits stops (and is accepted as stalled, see
/// `SolverOptions::acceptance`): the residual has reached its rounding floor.
pub const FLOOR_ITERATIONS: usize = 3;
/// Mehrotra's σ drops the target by decades in one iteration; near μ_end that leaves the
/// products spread over decades (max product ≫ target), and the last iterations then
/// crawl. Below `HANDOVER`·μ_end the monotone rule finishes the solve, starting from the
/// barrier at which the iterate is centred (a tenth of its largest product).
pub const HANDOVER: f64 = 100.0;
/// The monotone rule (IPOPT): μ ← max(μ_end, min(κ μ, μ^θ)) with κ = `MU_FACTOR`,
/// θ = `MU_POWER`.
pub const MU_FACTOR: f64 = 0.2;
pub const MU_POWER: f64 = 1.5;
/// Iterative refinement of each Newton direction of the refined solves
/// (`direction::refine`, against the system before condensation): at most `REFINEMENTS`
/// rounds, each kept only while the residual falls below `REFINEMENT_GAIN` times the
/// last one and stays above `REFINEMENT_FLOOR` × ‖b‖∞ (rounding: nothing left to gain).
/// On a foot sliding under a large force the regularized factors are a poor inverse
/// (the friction rows' shift is 1e-10 of a pivot c ≈ 1e8): its rounds fall by 0.05–0.9
/// each (the A1's limp drops at dt 0.001, from 1700 ‖b‖ to below ‖b‖ in 5–15 rounds),
/// so the rule asks for a 10 % gain, not a halving. Only the fallback solves refine.
pub const REFINEMENTS: usize = 20;
pub const REFINEMENT_GAIN: f64 = 0.9;
pub const REFINEMENT_FLOOR: f64 = 1e-12;
