//! SCENARIOS C2, the paper's exoskeleton application, on a 6 s horizon (it contains the
//! spastic patient's elbow-torque peak near t = 4.5 s; `examples/exoskeleton.rs` runs the
//! full 10 s and tunes the gain scale by bisection: threshold 1/4.891, paper 1/4.75).
//! Numbers measured on 10 s runs: max |τ_eFE| scale 1: healthy 3.966, spastic 7.116;
//! scale 1/5: healthy 2.397, spastic 4.951.


use maxdyn_scenes::exoskeleton::*;

const SECONDS: f64 = 6.0;
/// A scale below the bisection threshold (1/4.891) with ~1 % torque margin.
const TUNED: f64 = 1.0 / 5.0;

fn rollout(p: Patient, scale: f64) -> Rollout {
    let r = simulate(p, scale, Derivative::TrackRate, LowerCuff::Script, SECONDS).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{} scale {scale}: {r:?}", p.name());
    r
}

/// Loops hold to 1e-8 at every step, no step stalls, and the integrator's energy error
/// (actuator work accounted) stays small next to the work the actuators do.
fn assert_clean_run(r: &Rollout) {
    assert!(r.max_violation < 1e-8, "constraint violation {:e}", r.max_violation);
    assert!(r.max_cuff_violation < 1e-8, "cuff violation {:e}", r.max_cuff_violation);
    assert_eq!(r.stalled_steps, 0);
    assert!(r.newton_iterations <= 3 * r.steps, "{} Newton iterations in {} steps", r.newton_iterations, r.steps);
    // the cuffs are loaded (they deflect by centimetres / tenths of a radian), so the
    // loops are not trivially at rest
    assert!(r.max_cuff_deflection > 0.01, "cuff deflection {}", r.max_cuff_deflection);
    assert!(r.max_energy_balance_error < 1e-2 * r.max_input_work, "energy balance {:e} vs input work {:e}", r.max_energy_balance_error, r.max_input_work);
}

/// The cuffs close both loops exactly at the script's initial pose, and each loop
/// repeats two constraint rows: 36 rows of rank 32, so 4 degrees of freedom (sFE, eFE,
/// and the human shoulder and elbow flexion, which the cuffs tie to the exoskeleton's
/// plane of motion through their springs).
#[test]
fn cuffs_close_two_loops_at_the_initial_pose() {
    let exo = build(LowerCuff::Script);
    assert_eq!(exo.sim.model().joint_count(), 8);
    assert!(exo.sim.constraint_violation() < 1e-14, "{:e}", exo.sim.constraint_violation());
    let rank = exo.sim.constraint_rank();
    assert_eq!((rank.rows, rank.rank, rank.redundant, rank.dof), (36, 32, 4, 4), "{rank:?}");
}

/// Scale 1: the healthy patient stays within 5 N·m (its peak is the start-up kick of the
/// derivative term, 5·π/4 ≈ 3.93 N·m), the spastic patient exceeds it.
#[test]
fn full_gains_exceed_the_limit_only_for_the_spastic_patient() {
    let healthy = rollout(Patient::Healthy, 1.0);
    let spastic = rollout(Patient::Spastic, 1.0);
    assert_clean_run(&healthy);
    assert_clean_run(&spastic);
    assert!(healthy.max_elbow_torque <= TORQUE_LIMIT);
    assert!((healthy.max_elbow_torque - 3.966).abs() < 0.02, "{}", healthy.max_elbow_torque);
    // beside the measured 3.966: the kick in closed form, 5·π/4 = 3.927 (1.0 % below)
    let kick = 5.0 * std::f64::consts::FRAC_PI_4;
    assert!((healthy.max_elbow_torque - kick).abs() < 0.02 * kick, "{} vs the kick {kick}", healthy.max_elbow_torque);
    assert!(healthy.t_max_elbow_torque < 0.01, "{}", healthy.t_max_elbow_torque);
    assert!(spastic.max_elbow_torque > TORQUE_LIMIT);
    assert!((spastic.max_elbow_torque - 7.116).abs() < 0.05, "{}", spastic.max_elbow_torque);
}

/// The tuned scale keeps both patients within 5 N·m, at the price of tracking: the
/// elbow's RMS tracking error of the spastic patient grows about threefold.
#[test]
fn tuned_gains_respect_the_limit_for_both_patients() {
    let healthy = rollout(Patient::Healthy, TUNED);
    let spastic = rollout(Patient::Spastic, TUNED);
    assert_clean_run(&healthy);
    assert_clean_run(&spastic);
    assert!(healthy.max_elbow_torque <= TORQUE_LIMIT, "{}", healthy.max_elbow_torque);
    assert!(spastic.max_elbow_torque <= TORQUE_LIMIT, "{}", spastic.max_elbow_torque);
    assert!((spastic.max_elbow_torque - 4.951).abs() < 0.03, "{}", spastic.max_elbow_torque);
    // the spastic patient still needs the most torque: the limit binds for it
    assert!(spastic.max_elbow_torque > 1.5 * healthy.max_elbow_torque);
    let stiff = rollout(Patient::Spastic, 1.0);
    assert!(spastic.rms_tracking_error[1] > 2.5 * stiff.rms_tracking_error[1], "{:?} vs {:?}", spastic.rms_tracking_error, stiff.rms_tracking_error);
}

/// The unactuated mechanism (both loops closed, cuff springs, gravity) conserves energy
/// up to the first-order integrator's bounded O(dt) oscillation: over 2 s the largest
/// |E − E0| is 3.75e-2 J at dt = 0.002 and 1.87e-2 J at dt = 0.001 (kinetic energy up
/// to 7.25 J; the fast mode is the light eFE link on the 100 N·m/rad cuff spring).
#[test]
fn passive_exoskeleton_energy_error_is_first_order() {
    let worst = |dt: f64| {
        let mut exo = build_with_step(LowerCuff::Script, dt);
        let e = |s: &maxdyn::Sim| {
            let (k, p) = s.energy();
            k + p
        };
        let e0 = e(&exo.sim);
        let mut m = 0.0f64;
        for _ in 0..(2.0 / dt).round() as usize {
            let st = exo.sim.step().expect("step");
            assert!(!st.stalled);
            assert!(exo.sim.constraint_violation() < 1e-8);
            m = m.max((e(&exo.sim) - e0).abs());
        }
        m
    };
    let (coarse, fine) = (worst(0.002), worst(0.001));
    eprintln!("passive max |E − E0|: dt 0.002 → {coarse:e} J, dt 0.001 → {fine:e} J");
    assert!((coarse / fine - 2.0).abs() < 0.2, "ratio {}", coarse / fine);
    assert!(fine < 0.03, "{fine}");
}
