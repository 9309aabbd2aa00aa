//! SCENARIOS C1, short: the A1 quadruped on four rigid point contacts (μ = 0.2, dt = 1 ms)
//! under the paper's PD gait controller, for one second each of the standing start gait,
//! a hand-picked trot and the learned gait. The interior-point step must converge every
//! step, feet must not sink (the scenario's bar is 1 mm; measured: round-off, at most
//! 1.4e-17 m, asserted at 1e-14 m), the trunk must stay at a standing height, standing
//! feet must carry the robot's weight, and the learned gait must walk. (The learning is
//! examples/quadruped.rs; the 10 s walk is asserted in tests/long_horizon.rs.)


use maxdyn::SolverOptions;
use maxdyn_scenes::quadruped::*;

const G: f64 = 9.81;

#[test]
fn standing_start_gait_holds_the_robot_on_its_feet() {
    let q = Quadruped::load();
    let mut sim = q.standing(&START, 0.0);
    let z0 = sim.body_state(q.trunk).unwrap()[2];
    let mut max_pen: f64 = 0.0;
    let (mut zmin, mut zmax) = (z0, z0);
    for _ in 0..1000 {
        let t = sim.time();
        q.control(&mut sim, &START, t);
        sim.step().unwrap_or_else(|e| panic!("step at t = {t:.3}: {e} ({:?})", sim.stats()));
        max_pen = max_pen.max(-q.lowest_foot(&sim));
        let z = sim.body_state(q.trunk).unwrap()[2];
        zmin = zmin.min(z);
        zmax = zmax.max(z);
    }
    let weight = q.model.bodies.iter().map(|b| b.mass).sum::<f64>() * G;
    let support: f64 = q.feet.iter().map(|&c| sim.contact(c).unwrap().normal_force).sum();
    let gaps: Vec<f64> = q.feet.iter().map(|&c| sim.contact(c).unwrap().gap).collect();
    let s = sim.body_state(q.trunk).unwrap();
    println!("standing 1 s: trunk z {z0:.4} → {:.4} (range {zmin:.4}…{zmax:.4}), drift x {:.2e}, max penetration {max_pen:.2e} m", s[2], s[0]);
    println!("  Σ normal forces {support:.4} N vs weight {weight:.4} N (relative difference {:.1e}); foot gaps {gaps:?}", (support - weight).abs() / weight);
    assert!(max_pen <= 5e-15, "penetration {max_pen:e} m (measured 5.4e-16: round-off bound)");
    // A1 standing height with thigh 1 rad, calf −1.5 rad: ≈ 0.28 m; the PD legs sag a little
    assert!((0.2..0.35).contains(&zmin) && zmax < 0.35, "trunk height {zmin}…{zmax}");
    assert!(s[0].abs() < 0.01 && s[1].abs() < 0.01, "a standing robot does not walk away: {s:?}");
    // at rest on all four feet: every foot touches, at a gap of zero to rounding (the
    // polish closes it: measured |gap| ≤ 1.5e-16 m; the interior point alone left up to
    // 1e-6), and together they carry the weight
    assert!(gaps.iter().all(|g| g.abs() <= 1e-15), "gaps {gaps:?}");
    // measured 3.0e-7 relative (the trunk still settles a little after 1 s)
    assert!((support - weight).abs() < 3e-6 * weight, "Σγ = {support}, m g = {weight}");
}

#[test]
fn trotting_gait_lifts_and_lands_feet_without_sinking() {
    // a hand-picked trot (thigh swing 0.2 rad against the calf swing 0.2 rad at 1 Hz)
    let gait = Gait { b: 0.1, a_thigh: -0.2, d_thigh: 1.0, a_calf: 0.2, d_calf: -1.5 };
    let q = Quadruped::load();
    let r = rollout(&q, &gait, 1000, SolverOptions::default(), None);
    println!("trot 1 s: {}", r.summary());
    assert!(r.failure.is_none(), "{:?}", r.failure);
    assert_eq!(r.steps, 1000);
    assert!(r.max_penetration <= 1e-15, "penetration {:e} m (measured at most 1.4e-16: round-off bound)", r.max_penetration);
    assert!(r.min_trunk_z > 0.2 && r.max_trunk_z < 0.35);
    // the contacts really open and close: feet swing clear of the ground
    assert!(r.max_foot_height > 0.01, "highest foot {}", r.max_foot_height);
}

#[test]
fn learned_gait_walks_forward_without_sinking() {
    // the gait examples/quadruped.rs learns (seed 1); its first second, where it speeds up
    // (19.2 m over the full 10 s in the example)
    let q = Quadruped::load();
    let r = rollout(&q, &LEARNED_SEED1, 1000, SolverOptions::default(), None);
    println!("learned gait 1 s: {}", r.summary());
    assert!(r.failure.is_none(), "{:?}", r.failure);
    assert!(r.max_penetration <= 1e-15, "penetration {:e} m (measured at most 1.4e-16: round-off bound)", r.max_penetration);
    assert!(r.min_trunk_z > 0.2 && r.max_trunk_z < 0.4);
    assert!(r.distance > 0.5, "walked {} m in 1 s", r.distance);
}
