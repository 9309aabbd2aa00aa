//! The interior point's warm start (`SolverOptions::contact_warm_start`): far fewer
//! iterations where contacts persist, the same trajectories as cold starts (to the solve's
//! tolerance), and the cold restart when a warm solve jams.

use crate::common::*;
use maxdyn::SolverOptions;
use maxdyn_scenes::mechanisms;
use maxdyn_scenes::quadruped::*;

fn cold() -> SolverOptions {
    SolverOptions { contact_warm_start: false, ..SolverOptions::default() }
}

/// A box resting on four corners: after the first step every solve is warm and short.
#[test]
fn resting_box_converges_in_few_warm_iterations() {
    let (b, body, _) = box_on_plane(0.5, 1.0, &all_corners(0.25), [0.0, 0.0, 1.0], 0.3, 0.0);
    let (mut warm, mut cold_sim) = (sim(&b, 0.01), sim(&b, 0.01));
    cold_sim.set_options(cold()).unwrap();
    let (mut it_warm, mut it_cold) = (0, 0);
    for _ in 0..100 {
        it_warm += warm.step().unwrap().iterations;
        it_cold += cold_sim.step().unwrap().iterations;
    }
    let (w, c) = (warm.body_state(body).unwrap(), cold_sim.body_state(body).unwrap());
    let diff = w.iter().zip(&c).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    println!("resting box, 100 steps: warm {it_warm} iterations, cold {it_cold}, state difference {diff:e}");
    // measured: 304 warm, 700 cold
    assert!(it_warm <= 310, "{it_warm}");
    assert!(it_cold >= 2 * it_warm, "{it_cold} vs {it_warm}");
    // measured: 4.1e-15
    assert!(diff < 4e-14, "{diff}");
}

/// SCENARIOS C1's trot for 1 s: the same walk warm and cold, with under half the
/// iterations warm, and no penetration.
#[test]
fn quadruped_trot_warm_equals_cold_in_fewer_iterations() {
    let q = Quadruped::load();
    let warm = rollout(&q, &LEARNED_SEED1, 1000, SolverOptions::default(), None);
    let cold_run = rollout(&q, &LEARNED_SEED1, 1000, cold(), None);
    let per_step = |r: &Rollout| r.iterations as f64 / r.steps as f64;
    println!("trot 1 s: warm {} | cold {}", warm.summary(), cold_run.summary());
    assert!(warm.failure.is_none() && cold_run.failure.is_none());
    println!("distance difference {:e}", (warm.distance - cold_run.distance).abs());
    // measured: 1.25e-6 m (the solves agree to their tolerance, not bit for bit). The
    // bound was 2e-7 (1.5e-7 measured) while both runs went through the interior point and
    // its polish; the warm steps now take the projected Newton, whose friction pairs end
    // centred at μ_end exactly, where the interior point leaves its products between μ_end
    // and ten times it: a slip difference of that barrier's size, 1e-10 m/s, over the walk
    assert!((warm.distance - cold_run.distance).abs() < 1.5e-6, "{} vs {}", warm.distance, cold_run.distance);
    assert!(warm.max_penetration <= 1e-8);
    // measured: 3.12 warm (the projected Newton first; 4.7 with the warm interior point
    // alone), 14.7 cold
    assert!(per_step(&warm) <= 3.3, "{}", per_step(&warm));
    assert!(per_step(&cold_run) >= 14.5, "{}", per_step(&cold_run));
}

/// The same trot on second-order cones: warm and cold starts walk the same 1 s to the
/// solves' tolerance, the warm one in under half the iterations. Its sliding feet carry a
/// friction force and a slip both on their cones' boundaries, and the warm start keeps
/// both (eigenvalue by eigenvalue, `contact/cone/soc.rs`).
#[test]
fn quadruped_trot_on_second_order_cones_warm_equals_cold_in_fewer_iterations() {
    let q = Quadruped::load_with_cone(maxdyn::ConeType::Nonlinear);
    let warm = rollout(&q, &LEARNED_SEED1, 1000, SolverOptions::default(), None);
    let cold_run = rollout(&q, &LEARNED_SEED1, 1000, cold(), None);
    let per_step = |r: &Rollout| r.iterations as f64 / r.steps as f64;
    println!("trot on second-order cones 1 s: warm {} | cold {}", warm.summary(), cold_run.summary());
    assert!(warm.failure.is_none() && cold_run.failure.is_none());
    let diff = (warm.distance - cold_run.distance).abs();
    println!("distance difference {diff:e}");
    // measured: 9.6e-7 m (the solves agree to their tolerance, not bit for bit; 3.3e-8 m,
    // bound 5e-8, before the warm steps took the projected Newton: see the linear cone's
    // test above)
    assert!(diff < 1.2e-6, "{} vs {}", warm.distance, cold_run.distance);
    assert!(warm.max_penetration <= 1e-13);
    // measured: 2.93 warm (the projected Newton first; 5.97 with the warm interior point
    // alone), 14.76 cold
    assert!(per_step(&warm) <= 3.1, "{}", per_step(&warm));
    assert!(per_step(&cold_run) >= 14.5, "{}", per_step(&cold_run));
}

/// The sphere chain of SCENARIOS B2 (n = 16) crashing onto the ground: some warm solves
/// jam and restart cold; every step converges and nothing penetrates.
#[test]
fn jammed_warm_solves_restart_cold() {
    let (b, contacts) = mechanisms::sphere_chain(16, 1.0, maxdyn::ConeType::Linear);
    let mut s = sim(&b, 0.01);
    let (mut restarts, mut worst) = (0, 0.0f64);
    for _ in 0..500 {
        restarts += s.step().unwrap().cold_restarts;
        for &c in &contacts {
            worst = worst.max(-s.contact(c).unwrap().gap);
        }
    }
    println!("B2 n = 16: {restarts} cold restarts, deepest penetration {worst:e}");
    // measured: 45
    assert!(restarts >= 10, "{restarts}");
    // a closed contact's gap is zero to what the gap row resolves, tolerance × dt = 1e-12 m
    // (the polish; measured 1.3e-14 m deep at most, where the interior point alone kept
    // every gap positive by its barrier remainder)
    assert!(worst <= 1e-12, "{worst}");
}
