//! The universal (Hooke) joint: its two coordinates round-trip, a pendulum on it holds
//! the constraint and conserves energy like the spherical pendulum, and two revolutes
//! through an intermediate body of mass ε converge to it as ε → 0.

use crate::common;
use maxdyn::{Builder, Inertia, JointType, Parent, Sim};

/// The body on the joint: a 1 kg box whose centre hangs 0.5 m below the joint point.
fn pendulum_body(b: &mut Builder) -> usize {
    b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.2, 0.3).unwrap()).unwrap()
}

const X: [f64; 3] = [1.0, 0.0, 0.0];
const Y: [f64; 3] = [0.0, 1.0, 0.0];
const ARM: [f64; 3] = [0.0, 0.0, 0.5];
/// (α, β) and their rates at the start.
const START: [f64; 2] = [0.6, -0.4];
const RATES: [f64; 2] = [1.5, 2.0];

/// A Hooke pendulum: parent axis x (world), child axis y.
fn hooke_pendulum(dt: f64) -> Sim {
    let mut b = Builder::new();
    let body = pendulum_body(&mut b);
    b.add_universal_joint(Parent::World, body, [0.0; 3], ARM, X, Y).unwrap();
    let mut sim = common::sim(&b, dt);
    sim.set_joint_position(0, &START).unwrap();
    sim.set_joint_velocity(0, &RATES).unwrap();
    sim
}

/// The same pendulum on a spherical joint, started at the same pose and twist.
fn spherical_pendulum(dt: f64, from: &Sim) -> Sim {
    let mut b = Builder::new();
    let body = pendulum_body(&mut b);
    b.add_joint(JointType::Spherical, Parent::World, body, [0.0; 3], ARM, X).unwrap();
    let mut sim = common::sim(&b, dt);
    sim.set_body_state(0, &from.body_state(0).unwrap()).unwrap();
    sim
}

/// Two revolutes (x, then y) through an intermediate sphere of mass ε at the joint point.
fn two_revolutes(dt: f64, eps: f64) -> Sim {
    let mut b = Builder::new();
    let mid = b.add_body(eps, Inertia::sphere(eps, 0.05).unwrap()).unwrap();
    let body = pendulum_body(&mut b);
    b.add_joint(JointType::Revolute, Parent::World, mid, [0.0; 3], [0.0; 3], X).unwrap();
    b.add_joint(JointType::Revolute, mid, body, [0.0; 3], ARM, Y).unwrap();
    let mut sim = common::sim(&b, dt);
    for (j, k) in [(0, 0), (1, 1)] {
        sim.set_joint_position(j, &[START[k]]).unwrap();
    }
    for (j, k) in [(0, 0), (1, 1)] {
        sim.set_joint_velocity(j, &[RATES[k]]).unwrap();
    }
    sim
}

fn total_energy(sim: &Sim) -> f64 {
    let (t, v) = sim.energy();
    t + v
}

#[test]
#[allow(clippy::approx_constant)] // angles near π/2 on purpose (1.5707, not π/2)
fn coordinates_round_trip() {
    let mut b = Builder::new();
    let first = pendulum_body(&mut b);
    let second = pendulum_body(&mut b);
    b.add_universal_joint(Parent::World, first, [0.1, 0.2, 0.3], ARM, [1.0, 2.0, 3.0], [3.0, 0.0, -1.0]).unwrap();
    let j = b.add_universal_joint(first, second, [0.0, 0.0, -0.5], ARM, Y, [0.0, 0.6, 0.8]);
    assert!(j.is_err(), "y and (0, 0.6, 0.8) are not perpendicular");
    b.add_universal_joint(first, second, [0.0, 0.0, -0.5], ARM, Y, [0.0, 0.0, 1.0]).unwrap();
    b.set_joint_offset(1, [0.9, 0.1, -0.3, 0.2]).unwrap();
    let mut sim = common::sim(&b, 0.01);
    let mut worst: f64 = 0.0;
    for (k, (pos, vel)) in [([0.3, -1.2], [0.5, -2.0]), ([-2.9, 3.0], [4.0, 1.0]), ([1.5707, 0.0], [0.0, -3.0])].iter().enumerate() {
        let joint = k % 2;
        sim.set_joint_position(joint, pos).unwrap();
        sim.set_joint_velocity(joint, vel).unwrap();
        let (mut p, mut v) = ([0.0; 2], [0.0; 2]);
        sim.joint_position(joint, &mut p).unwrap();
        sim.joint_velocity(joint, &mut v).unwrap();
        for i in 0..2 {
            worst = worst.max((p[i] - pos[i]).abs()).max((v[i] - vel[i]).abs());
        }
        assert!(sim.constraint_violation() < 1e-14, "{}", sim.constraint_violation());
    }
    // 4.8e-14 measured
    assert!(worst < 2e-13, "largest round-trip error {worst:e}");
}

#[test]
fn hooke_pendulum_holds_its_constraint_and_conserves_energy_like_the_spherical_one() {
    let dt = 0.01;
    let mut hooke = hooke_pendulum(dt);
    let mut ball = spherical_pendulum(dt, &hooke);
    let (e0h, e0s) = (total_energy(&hooke), total_energy(&ball));
    assert_eq!(e0h, e0s);
    // largest relative energy error over the first and the second 5 s
    let (mut drift_h, mut drift_s, mut violation) = ([0.0f64; 2], [0.0f64; 2], 0.0f64);
    for k in 0..1000 {
        hooke.step().unwrap();
        ball.step().unwrap();
        drift_h[k / 500] = drift_h[k / 500].max((total_energy(&hooke) - e0h).abs() / e0h.abs());
        drift_s[k / 500] = drift_s[k / 500].max((total_energy(&ball) - e0s).abs() / e0s.abs());
        violation = violation.max(hooke.constraint_violation());
    }
    // the constraint rows are residual rows, held to the tolerance (1e-10); 1.8e-11
    // measured (5.9e-13 from the second-order warm start, where Newton's last step
    // overshot further; the bound was 1e-11 until then)
    assert!(violation < 1e-10, "constraint violation {violation:e}");
    // 5.70e-3 (Hooke) and 5.68e-3 (spherical) measured over 10 s: the same first-order
    // energy error, bounded, not growing
    let (h, s) = (drift_h[0].max(drift_h[1]), drift_s[0].max(drift_s[1]));
    assert!(h < 6e-3 && s < 6e-3 && (h / s - 1.0).abs() < 0.01, "energy error {h:e} vs spherical {s:e}");
    assert!(drift_h[1] < 1.05 * drift_h[0], "energy error grows: {drift_h:?}");
}

#[test]
fn two_revolutes_through_a_vanishing_mass_converge_to_the_universal_joint() {
    let (dt, steps) = (0.01, 100);
    let mut hooke = hooke_pendulum(dt);
    for _ in 0..steps {
        hooke.step().unwrap();
    }
    let target = hooke.body_state(0).unwrap();
    let mut diffs = Vec::new();
    for eps in [1e-3, 1e-4, 1e-5] {
        let mut sim = two_revolutes(dt, eps);
        let start = sim.body_state(1).unwrap().iter().zip(&hooke_pendulum(dt).body_state(0).unwrap()).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        // 6.9e-15 measured
        assert!(start < 2e-14, "the two models start apart: {start:e}");
        for _ in 0..steps {
            sim.step().unwrap();
        }
        let s = sim.body_state(1).unwrap();
        let d = s.iter().zip(&target).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        diffs.push(d);
    }
    // 2.8989e-5, 2.8989e-6, 2.8989e-7 measured (largest state difference after 1 s):
    // ∝ ε
    assert!(diffs[0] < 3e-5, "{diffs:?}");
    for k in 0..2 {
        let ratio = diffs[k] / diffs[k + 1];
        assert!((ratio - 10.0).abs() < 0.01, "ε ten times smaller gives {ratio} times closer: {diffs:?}");
    }
}

#[test]
fn the_c_function_builds_the_same_joint_and_names_bad_arguments() {
    use maxdyn::capi::maxdyn_status::*;
    use maxdyn::capi::*;
    use std::ffi::CStr;
    let message = || unsafe { CStr::from_ptr(maxdyn_last_error_message()) }.to_str().unwrap().to_string();
    unsafe {
        let mut b = std::ptr::null_mut();
        assert_eq!(maxdyn_builder_new(&mut b), MAXDYN_STATUS_OK);
        let inertia = [0.1, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.3];
        let mut body = -1;
        assert_eq!(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body), MAXDYN_STATUS_OK);
        let (o, arm) = ([0.0; 3], ARM);
        let mut j = -7;
        let bad = [0.6, 0.8, 0.0];
        assert_eq!(maxdyn_builder_add_universal_joint(b, MAXDYN_WORLD, body, o.as_ptr(), arm.as_ptr(), X.as_ptr(), bad.as_ptr(), &mut j), MAXDYN_STATUS_INVALID_ARGUMENT);
        assert!(message().starts_with("maxdyn_builder_add_universal_joint") && message().contains("`axis_child`"), "{}", message());
        assert_eq!(maxdyn_builder_add_universal_joint(b, MAXDYN_WORLD, body, o.as_ptr(), arm.as_ptr(), o.as_ptr(), Y.as_ptr(), &mut j), MAXDYN_STATUS_ZERO_AXIS);
        assert!(message().contains("`axis_parent`"), "{}", message());
        assert_eq!(maxdyn_builder_add_universal_joint(b, MAXDYN_WORLD, body, o.as_ptr(), arm.as_ptr(), X.as_ptr(), std::ptr::null(), &mut j), MAXDYN_STATUS_NULL_POINTER);
        assert_eq!(j, -7, "out-pointer written on failure");
        assert_eq!(maxdyn_builder_add_universal_joint(b, MAXDYN_WORLD, body, o.as_ptr(), arm.as_ptr(), X.as_ptr(), Y.as_ptr(), &mut j), MAXDYN_STATUS_OK);
        assert_eq!(j, 0);
        let mut m = std::ptr::null_mut();
        assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_OK);
        let mut kind = -1;
        assert_eq!(maxdyn_model_get_joint_type(m, 0, &mut kind), MAXDYN_STATUS_OK);
        assert_eq!(kind, MAXDYN_JOINT_UNIVERSAL);
        maxdyn_model_free(m);
        maxdyn_builder_free(b);
    }
    // the same joint as the Rust builder's
    let mut b = Builder::new();
    let body = pendulum_body(&mut b);
    b.add_universal_joint(Parent::World, body, [0.0; 3], ARM, X, Y).unwrap();
    let j = b.joint(0).unwrap();
    assert_eq!((j.kind as i32, j.dof(), j.second_axis), (12, 2, nalgebra::Vector3::new(0.0, 1.0, 0.0)));
}

/// Actuator torques on the two coordinates of a universal joint at the centre of an
/// isotropic body (no gravity): the constraint torque is along a × u, so α̈ = τ_α/I and
/// β̈ = τ_β/I exactly, whatever α (the second torque turns with the child's axis).
#[test]
fn actuated_universal_joint_accelerates_each_coordinate_by_torque_over_inertia() {
    let (dt, steps) = (1e-3, 1000);
    let (m, r) = (2.0, 0.3);
    let inertia = 0.4 * m * r * r;
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    let body = b.add_body(m, Inertia::sphere(m, r).unwrap()).unwrap();
    b.add_universal_joint(Parent::World, body, [0.0; 3], [0.0; 3], [0.0, 0.6, 0.8], X).unwrap();
    let mut sim = common::sim(&b, dt);
    let (q0, w0, tau) = ([0.7, -0.2], [0.3, -0.5], [0.05, -0.03]);
    sim.set_joint_position(0, &q0).unwrap();
    sim.set_joint_velocity(0, &w0).unwrap();
    sim.set_joint_input(0, &tau).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let n = steps as f64;
    let (mut q, mut w) = ([0.0; 2], [0.0; 2]);
    sim.joint_position(0, &mut q).unwrap();
    sim.joint_velocity(0, &mut w).unwrap();
    for k in 0..2 {
        let acc = tau[k] / inertia;
        // the discrete sums of the first-order integrator (as for the translations of
        // `joint_types`)
        let (eq, ew) = (q0[k] + w0[k] * n * dt + acc * dt * dt * n * (n - 1.0) / 2.0, w0[k] + acc * n * dt);
        // 1.2e-7 and 3.5e-7 measured after 1 s (the accelerations are 0.69 and 0.42 rad/s²)
        assert!((q[k] - eq).abs() < 3e-7, "coordinate {k}: {} vs {eq}", q[k]);
        assert!((w[k] - ew).abs() < 6e-7, "rate {k}: {} vs {ew}", w[k]);
    }
}

/// Springs on the two coordinates, same body and joint as above: each coordinate
/// oscillates at √(k/I) on its own (the gradient of β turns with the child's axis).
/// Largest error of each coordinate over 1 s, and of the energy (relative), at dt.
fn spring_run(dt: f64) -> [f64; 3] {
    let (m, r) = (2.0, 0.3);
    let inertia = 0.4 * m * r * r;
    let k = [10.0 * inertia, 4.0 * inertia];
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    let body = b.add_body(m, Inertia::sphere(m, r).unwrap()).unwrap();
    b.add_universal_joint(Parent::World, body, [0.0; 3], [0.0; 3], [0.0, 0.6, 0.8], X).unwrap();
    b.set_joint_spring(0, &k, &[0.0; 2]).unwrap();
    let mut sim = common::sim(&b, dt);
    let q0 = [0.9, -0.5];
    sim.set_joint_position(0, &q0).unwrap();
    let e0 = total_energy(&sim);
    let mut worst = [0.0f64; 3];
    let steps = (1.0 / dt).round() as usize;
    for step in 1..=steps {
        sim.step().unwrap();
        let t = step as f64 * dt;
        let mut q = [0.0; 2];
        sim.joint_position(0, &mut q).unwrap();
        for i in 0..2 {
            worst[i] = worst[i].max((q[i] - q0[i] * ((k[i] / inertia).sqrt() * t).cos()).abs());
        }
        worst[2] = worst[2].max((total_energy(&sim) - e0).abs() / e0);
    }
    worst
}

#[test]
fn springs_on_a_universal_joint_oscillate_at_the_analytic_frequencies() {
    let (coarse, fine) = (spring_run(1e-3), spring_run(5e-4));
    // measured: α 1.42e-3, β 4.99e-4, energy 1.50e-3 at dt = 1e-3; each halves with dt
    // (first order, ratios 2.00)
    let bound = [1.5e-3, 5.2e-4, 1.6e-3];
    for i in 0..3 {
        assert!(coarse[i] < bound[i], "{coarse:?}");
        let ratio = coarse[i] / fine[i];
        assert!((ratio - 2.0).abs() < 0.05, "not first order: {coarse:?} {fine:?}");
    }
}

/// Both angles are unwrapped across ±π when rates are read.
#[test]
#[allow(clippy::approx_constant)] // angles near ±π on purpose (3.14, 3.13, not π)
fn rates_read_across_pi() {
    let mut b = Builder::new();
    let body = pendulum_body(&mut b);
    b.add_universal_joint(Parent::World, body, [0.0; 3], [0.0; 3], X, Y).unwrap();
    b.set_gravity([0.0; 3]).unwrap();
    let mut sim = common::sim(&b, 0.01);
    for (pos, vel) in [([3.14, 0.5], [1.0, -2.0]), ([-0.3, -3.13], [0.5, -2.0]), ([-3.14, 3.14], [-1.5, 1.5])] {
        sim.set_joint_position(0, &pos).unwrap();
        sim.set_joint_velocity(0, &vel).unwrap();
        let mut v = [0.0; 2];
        sim.joint_velocity(0, &mut v).unwrap();
        let err = (v[0] - vel[0]).abs().max((v[1] - vel[1]).abs());
        // 5.7e-14 measured (6.28e2 before both angles were unwrapped)
        assert!(err < 5e-13, "rates {v:?} read for {vel:?}");
    }
}
