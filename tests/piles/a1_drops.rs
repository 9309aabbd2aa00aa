//! The A1 from its URDF (floating, collision shapes, ground plane, joint limits) dropped
//! on the floor, the scene of `cargo bench --bench piles a1`.
use maxdyn_scenes::piles::{a1_crouch_rollout, a1_drop, a1_drop_rollout, a1_for_drops, a1_for_servo_drops};

const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/a1_description/urdf/a1.urdf");

/// Eight limp drops at dt 0.005, 2 s each: every step OK. Seeds 1 and 7 failed at steps
/// 60 and 66 while a foot slid between two facets of its linear friction cone: the two
/// friction rows of its condensed block were equal to rounding and the plain
/// factorization met a zero pivot (`interior_point::direction` now factors such a matrix
/// again, regularized and refined).
#[test]
fn limp_a1_drops_at_dt_0_005_step_every_step() {
    eight_drops_step_every_step("limp_a1_drops_at_dt_0_005_step_every_step", 0.005, false);
}

/// Eight limp drops at dt 0.002, 2 s each: every step OK (32 of 32 in the bench; 24 of 32
/// before the relaxed rescue, the others stalled in a frictional solve).
#[test]
fn limp_a1_drops_at_dt_0_002_step_every_step() {
    eight_drops_step_every_step("limp_a1_drops_at_dt_0_002_step_every_step", 0.002, false);
}

/// Limp drops at dt 0.001, 2 s each, from two of the three seeds of 32 that failed before
/// the refined solves were refined against the system before condensation (steps 375
/// and 289: equality residuals 3.1e-8 and 5.7e-8, above the acceptance level 1e-8, on a
/// foot sliding under a large force): every step OK. The third, seed 8, failed at step
/// 1268 (1547 before) with the products jammed at 2e-7 and the barrier at 1e-9; it steps
/// through since a plain solve's refined fallback keeps the friction-pivot floor 1e-10
/// (the trajectory moved; its jammed steps are in docs/RELIABILITY.md). 32 of 32 step
/// through.
#[test]
fn limp_a1_drops_at_dt_0_001_step_every_step() {
    drops_step_every_step("limp_a1_drops_at_dt_0_001_step_every_step", 0.001, false, &[8, 24, 27]);
}

/// Seed 24's limp drop at dt 0.001, its steps accepted as stalled checked as physics:
/// no shape point below the ground, every contact force in its cone (μ 1), the momentum
/// rows' residual at the acceptance level, and no more energy gained (net of the joints'
/// damping) than the converged steps of the same drop gain (the integrator's own
/// fluctuation). Measured: 487 stalled steps; deepest −3.1e-17 m (bound 1e-14: the
/// rounding of positions near 1 m, 32 ε, reached −7.2e-15 m on an earlier path);
/// friction − μ normal at most 0 N (sliding feet on the cone's edge); largest stalled
/// residual 9.9e-9 (the rule admits up to 1e-8 of a row's terms); energy gained at most
/// 3.0e-5 J on a stalled step, 6.6e-4 J on a converged one. The drop had 1389 stalled
/// steps (energy gained up to 1.6e-4 J, bound 2e-4) until a warm start whose last
/// forces nearly balance the step is tried from near the end of the barrier
/// (`WarmBarrier::Balance`): most of those steps now converge from it instead of
/// restarting cold and stalling, and 400 still cover the stalled path.
#[test]
fn stalled_steps_of_a_limp_drop_stay_rigid_in_their_cones_and_gain_no_energy() {
    let test = "stalled_steps_of_a_limp_drop_stay_rigid_in_their_cones_and_gain_no_energy";
    if !crate::require::corpus(test, A1) {
        return;
    }
    let (model, joints) = a1_for_drops(A1).unwrap();
    let mut sim = a1_drop(&model, &joints, 0.001, 24);
    let (mut stalled, mut deepest, mut cone, mut residual, mut gain_stalled, mut gain_converged) = (0, f64::INFINITY, 0.0f64, 0.0f64, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for k in 0..2000 {
        let (e0, a0) = (sim.energy(), sim.energy_account());
        let st = sim.step().unwrap_or_else(|e| panic!("step {k}: {e}"));
        let (e1, a1) = (sim.energy(), sim.energy_account());
        let gain = (e1.0 + e1.1) - (e0.0 + e0.1) - (a1.input_work - a0.input_work) + (a1.dissipation - a0.dissipation);
        if !st.stalled {
            gain_converged = gain_converged.max(gain);
            continue;
        }
        stalled += 1;
        gain_stalled = gain_stalled.max(gain);
        residual = residual.max(st.residual);
        for c in sim.shape_contacts() {
            deepest = deepest.min(c.gap);
            let friction = c.friction_force.iter().map(|f| f * f).sum::<f64>().sqrt();
            cone = cone.max(friction - c.normal_force);
        }
    }
    println!("{stalled} stalled steps: deepest {deepest:e} m, friction − normal ≤ {cone:e} N, residual ≤ {residual:e}, energy gained ≤ {gain_stalled:e} J (converged steps: {gain_converged:e} J)");
    assert!(stalled > 400, "{stalled}");
    assert!(deepest > -1e-14, "{deepest}");
    assert!(cone <= 1e-12, "{cone}");
    assert!(residual < 2e-8, "{residual}");
    assert!(gain_stalled < 6e-5 && gain_stalled < gain_converged, "{gain_stalled} {gain_converged}");
}

/// Drops into the explicit PD stand at dt 0.002, 2 s each, from the two of nine seeds
/// that failed on main (23 of 32) and step through now that the refined solves are
/// refined against the system before condensation (they stalled at residuals 1.4e-7
/// and 1.7e-8): every step OK. The other seven (five hard impacts at a joint limit
/// ending at residuals 1e4–3e4) failed then (25 of 32; all pass now, below).
#[test]
fn pd_a1_drops_at_dt_0_002_step_every_step() {
    drops_step_every_step("pd_a1_drops_at_dt_0_002_step_every_step", 0.002, true, &[16, 28]);
}

/// Drops into the explicit PD stand at dt 0.005 whose legs hit their limits at several
/// hundred rad/s (the unstable cell, below), from six seeds that failed until a failed
/// step's last pass split it with each part selecting its contacts by its share of the
/// margin (`step::split`). At seed 29's step 43, three hips hit their upper limits at
/// 366–372 rad/s. The halves kept the feet that were 1.6 cm off the ground in the solve,
/// and they jammed at every depth down to dt/2¹⁴. Every step OK now (26 of 32 in the
/// bench then, 20 before).
#[test]
fn pd_a1_drops_at_dt_0_005_step_through_limit_impacts() {
    drops_step_every_step("pd_a1_drops_at_dt_0_005_step_through_limit_impacts", 0.005, true, &[7, 15, 18, 26, 27, 28]);
}

/// Drops into the explicit PD stand from the eight seeds of 32 that still failed after
/// the margin's share (six at dt 0.005, two at 0.002): a leg spun to 400–600 rad/s by the
/// unstable PD strikes the ground or its limit, and every cold solve of the impact's
/// halves crawled past the interior point's stale window (seed 2's step 53 at dt 0.005:
/// a thigh box's corner into the ground at about 43 m/s, residual 9e3 after 20
/// iterations at dt/32), although the solve at dt/8 converges in 63. The last pass's
/// solves are patient now (`Scratch::patient`, `step::split`): every step OK, 32 of 32
/// in the bench at every dt.
#[test]
fn pd_a1_drops_step_through_impacts_that_crawl() {
    let test = "pd_a1_drops_step_through_impacts_that_crawl";
    drops_step_every_step(test, 0.005, true, &[2, 9, 10, 12, 25, 29]);
    drops_step_every_step(test, 0.002, true, &[4, 24]);
}

/// Eight drops into the same PD stand held by joint springs and dampers (the servo,
/// integrated implicitly by the step) at dt 0.005, 2 s each: every step OK (32 of 32 at
/// every dt in the bench, where the explicit PD holds 13 of 32 at dt 0.005), and standing
/// at the end: the trunk's height measured 0.2522–0.2532 m over the seeds (a regression
/// value: the springs' sag under the weight sets it), asserted within 1 mm of 0.2527 m,
/// and its speed ≤ 1.1e-3 m/s (bound 5e-3: still settling at 2 s).
#[test]
fn servo_a1_drops_at_dt_0_005_step_every_step_and_stand() {
    let test = "servo_a1_drops_at_dt_0_005_step_every_step_and_stand";
    if !crate::require::corpus(test, A1) {
        return;
    }
    let (model, joints) = a1_for_servo_drops(A1).unwrap();
    for seed in 0..8 {
        let mut sim = a1_drop(&model, &joints, 0.005, seed);
        assert_eq!(a1_drop_rollout(&mut sim, &joints, false, 2.0), None, "seed {seed}");
        let (height, speed) = trunk_height_and_speed(&sim);
        println!("seed {seed}: trunk at {height:.6} m, {speed:.2e} m/s");
        assert!((height - 0.2527).abs() < 1e-3 && speed < 5e-3, "seed {seed}: trunk at {height} m, {speed} m/s");
    }
}

/// PD control with moving targets: eight drops into the servo stand (1 s at dt 0.005), then
/// the targets move (`Sim::set_joint_target`, with their rates) into a deep crouch and back
/// (`a1_crouch_rollout`, 3 s): every step OK; the trunk crouched at 0.12539–0.12578 m over
/// the seeds (asserted within 1 mm of 0.1255 m) and back up at 0.25151–0.25231 m (within
/// 1 mm of 0.2519 m), moving at ≤ 2.9e-3 m/s (bound 5e-3) 0.5 s after the targets stopped.
/// The explicit PD of the same gains is unstable at this step (below).
#[test]
fn servo_a1_crouches_and_rises_on_moving_targets_at_dt_0_005() {
    let test = "servo_a1_crouches_and_rises_on_moving_targets_at_dt_0_005";
    if !crate::require::corpus(test, A1) {
        return;
    }
    let (model, joints) = a1_for_servo_drops(A1).unwrap();
    for seed in 0..8 {
        let mut sim = a1_drop(&model, &joints, 0.005, seed);
        assert_eq!(a1_drop_rollout(&mut sim, &joints, false, 1.0), None, "seed {seed}: the drop");
        let (failed, crouched) = a1_crouch_rollout(&mut sim, &joints);
        let (height, speed) = trunk_height_and_speed(&sim);
        println!("seed {seed}: crouched at {crouched:.5} m, back at {height:.5} m, {speed:.2e} m/s");
        assert_eq!(failed, None, "seed {seed}: the crouch");
        assert!((crouched - 0.1255).abs() < 1e-3, "seed {seed}: crouched at {crouched} m");
        assert!((height - 0.2519).abs() < 1e-3 && speed < 5e-3, "seed {seed}: back at {height} m, {speed} m/s");
    }
}

/// The trunk's (body 0's) height and speed.
fn trunk_height_and_speed(sim: &maxdyn::Sim) -> (f64, f64) {
    let trunk = sim.body_state(0).unwrap();
    (trunk[2], (trunk[7] * trunk[7] + trunk[8] * trunk[8] + trunk[9] * trunk[9]).sqrt())
}

/// Drops from seeds 0–7 at `dt`, limp or into the PD stand, 2 s each: every step OK.
fn eight_drops_step_every_step(test: &str, dt: f64, pd: bool) {
    drops_step_every_step(test, dt, pd, &[0, 1, 2, 3, 4, 5, 6, 7]);
}

/// Drops from `seeds` at `dt`, limp or into the PD stand, 2 s each: every step OK.
fn drops_step_every_step(test: &str, dt: f64, pd: bool, seeds: &[u64]) {
    if !crate::require::corpus(test, A1) {
        return;
    }
    let (model, joints) = a1_for_drops(A1).unwrap();
    let failed: Vec<(u64, usize)> = seeds.iter().filter_map(|&seed| a1_drop_rollout(&mut a1_drop(&model, &joints, dt, seed), &joints, pd, 2.0).map(|k| (seed, k))).collect();
    assert!(failed.is_empty(), "(seed, first failed step): {failed:?}");
}

/// The explicit PD stand is unstable on its own at dt 0.005 and 0.002: the A1 in free
/// space (no gravity, no ground, no joint limits: nothing for the contact solver to do),
/// from seed 0's joint angles, driven by the PD inputs of [`a1_drop_rollout`] (set from
/// the last step's state) spins up to 1e2 rad/s and beyond within 20 (dt 0.005) and 100
/// (dt 0.002) steps, while at dt 0.001 it settles; the same gains as joint springs and
/// dampers (integrated implicitly) settle at every dt. So the bench's PD rows at dt 0.005
/// and 0.002 measure an unstable controller (a damper kd on a calf of inertia I is stable
/// explicitly only for kd dt / I < 2), not a contact solver that gives up.
#[test]
fn the_explicit_pd_stand_is_unstable_on_its_own_at_dt_0_005_and_0_002() {
    let test = "the_explicit_pd_stand_is_unstable_on_its_own_at_dt_0_005_and_0_002";
    if !crate::require::corpus(test, A1) {
        return;
    }
    use maxdyn::urdf::{Urdf, UrdfOptions};
    use maxdyn_scenes::piles::{A1_KD, A1_KP, A1_STAND};
    use std::sync::Arc;
    let free = |servo: bool| {
        let options = UrdfOptions { floating: true, joint_limits: false, ..UrdfOptions::default() };
        let mut u = Urdf::from_file_with(A1, &options).unwrap();
        u.builder.set_gravity([0.0; 3]).unwrap();
        let joints: Vec<usize> = ["FR", "FL", "RR", "RL"].iter().flat_map(|l| ["hip", "thigh", "calf"].map(|p| u.joint(&format!("{l}_{p}_joint")).unwrap())).collect();
        if servo {
            for (i, &j) in joints.iter().enumerate() {
                u.builder.set_joint_spring(j, &[A1_KP[i % 3]], &[A1_STAND[i % 3]]).unwrap();
                u.builder.set_joint_damper(j, &[A1_KD[i % 3]]).unwrap();
            }
        }
        (Arc::new(maxdyn::Model::new(&u.builder).unwrap()), joints)
    };
    // the fastest joint over `steps` steps of explicit PD (or none: the servo's springs)
    let fastest = |servo: bool, dt: f64, steps: usize| {
        let (model, joints) = free(servo);
        let mut sim = a1_drop(&model, &joints, dt, 0);
        let (mut q, mut w, mut top) = ([0.0], [0.0], 0.0f64);
        for k in 0..steps {
            for (i, &j) in joints.iter().enumerate() {
                sim.joint_position(j, &mut q).unwrap();
                sim.joint_velocity(j, &mut w).unwrap();
                top = top.max(w[0].abs());
                if !servo {
                    sim.set_joint_input(j, &[A1_KP[i % 3] * (A1_STAND[i % 3] - q[0]) - A1_KD[i % 3] * w[0]]).unwrap();
                }
            }
            if top > 1e2 || sim.step().is_err() {
                return (top, k);
            }
        }
        (top, steps)
    };
    let rows: Vec<(bool, f64, (f64, usize))> = [(false, 0.005), (false, 0.002), (false, 0.001), (true, 0.005), (true, 0.002), (true, 0.001)].iter().map(|&(servo, dt)| (servo, dt, fastest(servo, dt, (0.5 / dt) as usize))).collect();
    for (servo, dt, (top, k)) in &rows {
        println!("{} at dt {dt}: fastest joint {top:.3e} rad/s by step {k}", if *servo { "springs and dampers" } else { "explicit PD" });
    }
    let [(_, _, at_005), (_, _, at_002), (_, _, at_001), servos @ ..] = &rows[..] else { unreachable!() };
    assert!(at_005.0 > 1e2 && at_005.1 <= 20, "explicit PD at dt 0.005: {at_005:?}");
    assert!(at_002.0 > 1e2 && at_002.1 <= 100, "explicit PD at dt 0.002: {at_002:?}");
    assert!(at_001.0 < 10.0 && at_001.1 == 500, "explicit PD at dt 0.001: {at_001:?}");
    for (_, dt, (top, k)) in servos {
        assert!(*top < 10.0 && *k == (0.5 / dt) as usize, "springs and dampers at dt {dt}: {top} rad/s by step {k}");
    }
}
