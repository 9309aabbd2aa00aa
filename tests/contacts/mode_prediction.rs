//! The last step's contact mode kept (`SolverOptions::contact_mode_prediction`): the
//! same trajectories as the interior point's, to the solve's tolerance, in fewer Newton
//! matrices factored per step.

use maxdyn::{ConeType, SolverOptions};
use maxdyn_scenes::quadruped::*;

fn interior_point_only() -> SolverOptions {
    SolverOptions { contact_mode_prediction: false, ..SolverOptions::default() }
}

fn per_step(count: usize, r: &Rollout) -> f64 {
    count as f64 / r.steps as f64
}

/// SCENARIOS C1's learned trot for 10 s on the linear cone, with and without the kept
/// mode: the same walk, no penetration, and the factorizations per step.
#[test]
fn trot_keeps_its_mode_with_the_same_walk() {
    let q = Quadruped::load();
    let kept = rollout(&q, &LEARNED_SEED1, 10_000, SolverOptions::default(), None);
    let plain = rollout(&q, &LEARNED_SEED1, 10_000, interior_point_only(), None);
    println!("trot 10 s: kept mode {} | interior point {}", kept.summary(), plain.summary());
    assert!(kept.failure.is_none() && plain.failure.is_none());
    println!("distance difference {:e} m", (kept.distance - plain.distance).abs());
    println!("factorizations per step: kept {:.3}, interior point {:.3}", per_step(kept.factorizations, &kept), per_step(plain.factorizations, &plain));
}

/// The same on second-order cones.
#[test]
fn trot_on_second_order_cones_keeps_its_mode_with_the_same_walk() {
    let q = Quadruped::load_with_cone(ConeType::Nonlinear);
    let kept = rollout(&q, &LEARNED_SEED1, 10_000, SolverOptions::default(), None);
    let plain = rollout(&q, &LEARNED_SEED1, 10_000, interior_point_only(), None);
    println!("SOC trot 10 s: kept mode {} | interior point {}", kept.summary(), plain.summary());
    assert!(kept.failure.is_none() && plain.failure.is_none());
    println!("distance difference {:e} m", (kept.distance - plain.distance).abs());
    println!("factorizations per step: kept {:.3}, interior point {:.3}", per_step(kept.factorizations, &kept), per_step(plain.factorizations, &plain));
}
