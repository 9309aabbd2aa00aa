//! Long horizons: each result that README.md and docs/RESULTS.md claim over a long run is
//! asserted here over that same run — the A1 loop for 600 s, the learned quadruped gait
//! for 10 s (both friction cones), the exoskeleton's gain threshold on 10 s rollouts, the B2 sphere chain over
//! a sweep of sizes. They run in the default `cargo test` (so tests/run_all.sh and CI run
//! them): Cargo.toml's `[profile.test]` compiles the tests with opt-level 2, where these
//! four take about 20 CPU seconds, so a separate `--release` pass (a second full build
//! with LTO) would buy nothing.

use maxdyn::{ConeType, Model, Sim, SolverOptions};
use maxdyn_scenes::{exoskeleton, loop_rk4, mechanisms, quadruped};
use std::sync::Arc;

/// A1, the three-link loop (4 revolute joints, 3 redundant rows) at dt = 0.01 for the
/// full 600 s of the claim: the largest constraint violation over all 60 000 steps
/// (measured 9.98e-11 m: Newton stops just below its tolerance, 1e-10, since its chord
/// steps from the third-order start) stays below 1e-10 m, no step stalls, and the violation has no
/// trend (the last 100 s are no worse than 10× the first 100 s). Beside it, explicit RK4
/// in minimal coordinates (loop enforced at the acceleration level) drifts: its closure
/// error at 600 s, measured 0.268 m (printed). Only its magnitude is asserted (more than
/// 0.05 m): it is the test's own integrator, and its drift depends on round-off (an
/// independent numpy RK4 of the same equations drifts 0.16 m by 100 s and 0.20 m by
/// 200 s, then meets a singular configuration; with the velocity terms written another
/// way, 0.12 m and 0.25 m).
#[test]
fn three_link_loop_holds_its_constraints_for_600_s() {
    let mut sim = mechanisms::three_link_loop(0.01);
    let (mut th, mut om) = loop_rk4::initial_state();
    let steps = 60_000;
    let (mut worst, mut first, mut last, mut stalls) = (0.0f64, 0.0f64, 0.0f64, 0);
    for k in 0..steps {
        let st = sim.step().unwrap_or_else(|e| panic!("step {k}: {e}"));
        stalls += st.stalled as usize;
        let v = sim.constraint_violation();
        worst = worst.max(v);
        if k < 10_000 {
            first = first.max(v);
        }
        if k >= steps - 10_000 {
            last = last.max(v);
        }
        loop_rk4::rk4(&mut th, &mut om, 0.01);
    }
    let rk4_closure = loop_rk4::closure(&th).norm();
    println!("A1 600 s: RK4 loop-closure error {rk4_closure:.4e} m");
    println!("A1 600 s: max violation {worst:.3e} m (first 100 s {first:.3e}, last 100 s {last:.3e}), {stalls} stalled steps");
    assert!(worst < 1e-10, "violation {worst:e}");
    assert_eq!(stalls, 0);
    assert!(last <= 10.0 * first, "violation grows: {first:e} → {last:e}");
    assert!(rk4_closure > 0.05, "RK4 closure error {rk4_closure} m");
}

/// C1, the learned gait (seed 1, `quadruped::LEARNED_SEED1`) rolled out for the paper's
/// 10 s: measured 19.21 m walked (paper: more than 12 m), deepest foot penetration
/// 8.3e-17 m (round-off: standing feet converge to a gap of zero). Asserted: at least the
/// paper's 12 m (the independent reference) and within 5 % of the measured distance (a
/// regression guard on this engine's own trajectory: a walk over 10 000 contact steps,
/// where 5 % leaves room for round-off-level changes), penetration below
/// 1e-14 m (round-off of positions up to 19 m from the origin: ε·19 m ≈ 4e-15 m), every
/// step converges.
#[test]
fn learned_quadruped_gait_walks_19_m_in_10_s() {
    let q = quadruped::Quadruped::load();
    let r = quadruped::rollout(&q, &quadruped::LEARNED_SEED1, 10_000, SolverOptions::default(), None);
    println!("learned gait 10 s: {}", r.summary());
    assert!(r.failure.is_none(), "{:?}", r.failure);
    assert_eq!(r.steps, 10_000);
    assert!(r.distance > 12.0, "paper: more than 12 m; walked {} m", r.distance);
    assert!((r.distance - 19.21).abs() < 0.05 * 19.21, "walked {} m (measured 19.21 m)", r.distance);
    assert!(r.max_penetration < 1e-14, "penetration {:e} m", r.max_penetration);
    assert!(r.min_trunk_z > 0.2, "trunk down to {} m", r.min_trunk_z);
    // measured 2.79 Newton directions per step and 1.733 Newton matrices factored per step
    // (issue 27's bar: 2.5), most steps solved by the projected Newton on the last step's
    // contact modes (one factorization and a chord); with the warm interior point alone
    // it was 5.16 iterations and 5.375 factorizations (cold 15.6 iterations)
    assert!(r.iterations as f64 <= 2.9 * r.steps as f64, "{} iterations in {} steps", r.iterations, r.steps);
    assert!(r.factorizations as f64 <= 1.8 * r.steps as f64, "{} factorizations in {} steps", r.factorizations, r.steps);
}

/// The same gait on second-order friction cones (Nesterov–Todd scaled) for 10 s: every
/// step converges (before the scaling, the solve jammed at step 596), measured 23.25 m
/// walked (the exact cone grips better than its 4-direction linearization), penetration
/// at round-off (1.3e-14 m). Independent reference: the paper's more than 12 m; the
/// 23.25 m is a regression guard on this engine's own trajectory (5 %).
#[test]
fn learned_quadruped_gait_runs_10_s_on_second_order_cones() {
    let q = quadruped::Quadruped::load_with_cone(ConeType::Nonlinear);
    let r = quadruped::rollout(&q, &quadruped::LEARNED_SEED1, 10_000, SolverOptions::default(), None);
    println!("learned gait 10 s, second-order cones: {}", r.summary());
    assert!(r.failure.is_none(), "{:?}", r.failure);
    assert_eq!(r.steps, 10_000);
    assert!(r.distance > 12.0, "paper: more than 12 m; walked {} m", r.distance);
    assert!((r.distance - 23.25).abs() < 0.05 * 23.25, "walked {} m (measured 23.25 m)", r.distance);
    // a closed foot's gap is zero to what its row resolves, tolerance × dt = 1e-13 m
    // (measured 1.5e-14 m with the active-set polish; 1e-14 before, the barrier's gaps)
    assert!(r.max_penetration < 1e-13, "penetration {:e} m", r.max_penetration);
    // measured 2.93 Newton directions and 2.77 factorizations per step with the projected
    // Newton first (the warm interior point alone: 6.31 and 6.54, its cones' eigenvalues
    // centred in the frame force and slip share, `contact::cone::soc`)
    assert!(r.iterations as f64 <= 3.05 * r.steps as f64, "{} iterations in {} steps", r.iterations, r.steps);
    assert!(r.factorizations as f64 <= 2.85 * r.steps as f64, "{} factorizations in {} steps", r.factorizations, r.steps);
}

/// The same gait on second-order cones with the file's joint limits, 10 s at dt 0.001
/// (issue 24's bar: 0 failed steps). The gait was learned without limits, and with them
/// the robot stumbles and its trunk goes down near step 2840; the run goes on with the
/// robot on the ground, which is where the steps failed: before the refined solves were
/// refined against the system before condensation, step 58 stalled at an equality
/// residual of 1.5e-8 and five steps failed in 10 000 (3031–3035); with the second-order
/// cone's warm start, a foot touching down sliding at step 2447 whose slip had to turn
/// jammed every solve on straight lines (docs/RELIABILITY.md). Now every step converges
/// (measured: no relaxed step; the refined solves step the cones along arcs), and no foot
/// goes below the ground by more than round-off (measured 3.4e-14 m, bound 1e-13).
#[test]
fn learned_quadruped_gait_runs_10_s_on_second_order_cones_with_joint_limits() {
    let q = quadruped::Quadruped::load_with(ConeType::Nonlinear, true);
    let mut sim = q.standing(&quadruped::LEARNED_SEED1, 0.0);
    let (mut failed, mut relaxed, mut deepest) = (Vec::new(), 0, 0.0f64);
    for k in 0..10_000 {
        let t = sim.time();
        q.control(&mut sim, &quadruped::LEARNED_SEED1, t);
        match sim.step() {
            Ok(st) => relaxed += st.relaxed as usize,
            Err(e) => failed.push((k, e.to_string())),
        }
        deepest = deepest.max(-q.lowest_foot(&sim));
    }
    println!("learned gait 10 s, second-order cones, joint limits: {} failed, {relaxed} relaxed, deepest foot {deepest:e} m", failed.len());
    assert!(failed.is_empty(), "{failed:?}");
    assert!(relaxed <= 1, "{relaxed} relaxed steps");
    assert!(deepest < 1e-13, "penetration {deepest:e} m");
}

/// One 10 s rollout of the paper's exoskeleton controller (SCENARIOS C2).
fn exo(p: exoskeleton::Patient, scale: f64) -> exoskeleton::Rollout {
    let r = exoskeleton::simulate(p, scale, exoskeleton::Derivative::TrackRate, exoskeleton::LowerCuff::Script, 10.0).unwrap_or_else(|e| panic!("{e}"));
    println!("{} at scale 1/{:.3}: max |τ_eFE| {:.4} N·m, violation {:.1e} (cuffs {:.1e}), {:.2} Newton iterations per step", p.name(), 1.0 / scale, r.max_elbow_torque, r.max_violation, r.max_cuff_violation, r.newton_iterations as f64 / r.steps as f64);
    r
}

/// C2 against the paper (section 5 and figure "exo"): with the original gains the
/// healthy patient's elbow torque stays within the 5 N·m limit (`TORQUE_LIMIT`) and the spastic
/// patient's exceeds it; the paper then tuned the gain scale by hand to 1/4.75.
/// Measured on 10 s: scale 1 peaks 3.966 (healthy) and 7.116 N·m (spastic); the largest
/// scale keeping both within 5 N·m is 1/4.891 (bisection in examples/exoskeleton.rs),
/// and at the paper's 1/4.75 the spastic peak is 5.06 N·m. Asserted: the paper's two
/// qualitative results, the threshold bracketed to 1/4.93…1/4.85 (both patients within
/// the limit at 1/4.93, the spastic one over it at 1/4.85), which puts it within 4 % of
/// the paper's hand-tuned 1/4.75; and at 1/4.75 the spastic peak within 2 % of the limit
/// the paper meets there (measured 1.2 % over: our cuff springs, offsets and the PD's
/// rate term are the SCENARIOS model, not the paper's unpublished one, and a hand-tuned
/// scale need not sit at the threshold). The loops hold to round-off at every step
/// (measured up to 6.0e-15; bound 1e-14) in 1.5–1.7 Newton iterations per step (bound
/// 2.2). The
/// independent references are the paper's results (both patients against the limit, at
/// either gain); the peak torques 3.966, 7.116 and 5.06 N·m are regression guards on this
/// engine's own trajectories (the paper publishes no peaks, and its model differs).
#[test]
fn exoskeleton_gain_threshold_matches_the_paper() {
    use exoskeleton::{Patient, TORQUE_LIMIT};
    let paper_scale = 1.0 / 4.75;
    // the paper's figure (c): original gains
    let healthy = exo(Patient::Healthy, 1.0);
    let spastic = exo(Patient::Spastic, 1.0);
    assert!(healthy.max_elbow_torque <= TORQUE_LIMIT && spastic.max_elbow_torque > TORQUE_LIMIT);
    assert!((healthy.max_elbow_torque - 3.966).abs() < 0.02, "{}", healthy.max_elbow_torque);
    // the healthy peak is the derivative term's start-up kick, 5·π/4 N·m in closed form
    // (tests/applications/exoskeleton.rs): measured 1.0 % above it
    let kick = 5.0 * std::f64::consts::FRAC_PI_4;
    assert!((healthy.max_elbow_torque - kick).abs() < 0.02 * kick, "{} vs the kick {kick}", healthy.max_elbow_torque);
    assert!((spastic.max_elbow_torque - 7.116).abs() < 0.05, "{}", spastic.max_elbow_torque);
    for r in [&healthy, &spastic] {
        assert!(r.max_violation < 1e-14, "violation {:e}", r.max_violation);
        assert!(r.newton_iterations as f64 <= 2.2 * r.steps as f64, "{} iterations in {} steps", r.newton_iterations, r.steps);
        assert_eq!(r.stalled_steps, 0);
    }
    // the threshold: both within the limit just below it, the spastic patient over it just above
    let (below, above) = (1.0 / 4.93, 1.0 / 4.85);
    assert!(exo(Patient::Healthy, below).max_elbow_torque <= TORQUE_LIMIT);
    assert!(exo(Patient::Spastic, below).max_elbow_torque <= TORQUE_LIMIT);
    assert!(exo(Patient::Spastic, above).max_elbow_torque > TORQUE_LIMIT);
    assert!((1.0 - below / paper_scale).abs() < 0.04 && (1.0 - above / paper_scale).abs() < 0.04);
    // the paper's figure (d): adapted gains, both patients at (or, here, 1.2 % over) the limit
    let healthy = exo(Patient::Healthy, paper_scale);
    let spastic = exo(Patient::Spastic, paper_scale);
    assert!(healthy.max_elbow_torque <= TORQUE_LIMIT, "{}", healthy.max_elbow_torque);
    assert!((spastic.max_elbow_torque - TORQUE_LIMIT).abs() < 0.02 * TORQUE_LIMIT, "{}", spastic.max_elbow_torque);
    assert!((spastic.max_elbow_torque - 5.06).abs() < 0.01, "{}", spastic.max_elbow_torque);
}

/// B2, the sphere chain on the ground (r = 0.25, μ = 1, linear cone, dt = 0.01, 500
/// steps), at every n from 1 to 32 and at 48, 64, 96 and 128 (and the benchmark's third
/// start at 128): every step succeeds (split where Newton finds no full step) and no
/// sphere sinks into the ground beyond 1e-12 m: measured, the deepest 9.9e-13 m (n = 3)
/// over every step of every n. (All 128 sizes:
/// `cargo run --release --example diag_chain`, printed.)
#[test]
fn sphere_chain_never_penetrates_for_any_size() {
    let mut worst = (0.0f64, 0);
    for n in (1..=32).chain([48, 64, 96, 128]) {
        let (b, cs) = mechanisms::sphere_chain(n, 1.0, ConeType::Linear);
        let mut s = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
        let mut pen = 0.0f64;
        for k in 0..500 {
            s.step().unwrap_or_else(|e| panic!("n = {n}: step {k}: {e}"));
            pen = pen.max(cs.iter().map(|&c| -s.contact(c).unwrap().gap).fold(f64::MIN, f64::max));
        }
        if pen > worst.0 || n == 1 {
            worst = (pen, n);
        }
        assert!(s.constraint_violation() < 1e-9, "n = {n}: joint violation {:e}", s.constraint_violation());
    }
    // the benchmark's third start at n = 128 (45° + 2e-12 rad) meets the sweep's hardest
    // impact: at step 363 the step needs five levels of splitting (dt/32; with three it
    // fails). Its impacts' failed whole steps end far from a solution and are split
    // straight away, with no rescue: measured 0 rescued and 0 relaxed steps, 50 split
    // (75 rescued and 6 relaxed while they were retried refined and relaxed first)
    let (b, cs) = mechanisms::sphere_chain_rising(128, 1.0, ConeType::Linear, std::f64::consts::FRAC_PI_4 + 2e-12);
    let mut s = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let (mut rescued, mut relaxed, mut split) = (0, 0, 0);
    for k in 0..500 {
        let st = s.step().unwrap_or_else(|e| panic!("n = 128, third start: step {k}: {e}"));
        (rescued, relaxed, split) = (rescued + st.fallback as usize, relaxed + st.relaxed as usize, split + (st.substeps > 1) as usize);
        worst.0 = worst.0.max(cs.iter().map(|&c| -s.contact(c).unwrap().gap).fold(f64::MIN, f64::max));
    }
    println!("B2 sweep: deepest penetration {:.3e} m (n = {}); third start at n = 128: {rescued} rescued, {relaxed} relaxed, {split} split steps", worst.0, worst.1);
    assert!(rescued == 0 && relaxed == 0 && split > 0, "third start at n = 128: {rescued} rescued, {relaxed} relaxed, {split} split steps");
    assert!(worst.0 <= 1e-12, "deepest penetration {:e} m at n = {}", worst.0, worst.1);
}
