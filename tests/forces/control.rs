//! Control through joint inputs and body wrenches: a PD controller settles a pendulum
//! at the static balance Kp (θ* − θ) = m g (l/2) sin θ; a force at a body point holds a
//! pendulum level; inputs hold until changed; the input setters validate.

use maxdyn::*;
use std::f64::consts::FRAC_PI_2;
use std::sync::Arc;

const G: f64 = 9.81;

/// Box(0.1, 0.1, 1, m) on a revolute about x at its end (0, 0, 0.5).
fn pendulum(m: f64) -> (Builder, usize) {
    let mut b = Builder::new();
    b.add_body(m, Inertia::cuboid(m, 0.1, 0.1, 1.0).unwrap()).unwrap();
    let j = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    (b, j)
}

#[test]
fn pd_controller_settles_at_the_static_balance_angle() {
    let (m, kp, kd, target) = (1.0, 20.0, 3.0, 1.2);
    let (b, j) = pendulum(m);
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let (mut th, mut om) = ([0.0], [0.0]);
    for _ in 0..3000 {
        sim.joint_position(j, &mut th).unwrap();
        sim.joint_velocity(j, &mut om).unwrap();
        sim.set_joint_input(j, &[kp * (target - th[0]) - kd * om[0]]).unwrap();
        sim.step().unwrap();
    }
    sim.joint_position(j, &mut th).unwrap();
    sim.joint_velocity(j, &mut om).unwrap();
    // predicted equilibrium: Newton on Kp(θ* − θ) − m g (l/2) sin θ = 0
    let mut pred = target;
    for _ in 0..50 {
        let f = kp * (target - pred) - m * G * 0.5 * pred.sin();
        let df = -kp - m * G * 0.5 * pred.cos();
        pred -= f / df;
    }
    let err = (th[0] - pred).abs();
    println!("PD: θ* = {target}, settled θ = {:.9}, predicted {pred:.9}, |error| = {err:.2e} rad, θ̇ = {:.1e}", th[0], om[0]);
    assert!(target - pred > 0.1, "gravity must pull the pendulum visibly below the target");
    assert!(err < 1e-11, "measured 2.7e-12 rad: {err:e}");
}

#[test]
fn force_at_a_body_point_holds_a_pendulum_level() {
    // horizontal pendulum (θ = π/2): gravity's moment m g (l/2) about the pivot is
    // balanced by an upward force m g / 2 at the free end (body point (0, 0, −0.5), lever l)
    let m = 2.0;
    let (b, j) = pendulum(m);
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    sim.set_joint_position(j, &[FRAC_PI_2]).unwrap();
    sim.set_body_wrench(0, [0.0, 0.0, 0.5 * m * G], [0.0; 3], [0.0, 0.0, -0.5]).unwrap();
    let mut th = [0.0];
    let mut dev: f64 = 0.0;
    for _ in 0..200 {
        sim.step().unwrap();
        sim.joint_position(j, &mut th).unwrap();
        dev = dev.max((th[0] - FRAC_PI_2).abs());
    }
    println!("force at the tip: max |θ − π/2| over 2 s = {dev:.2e}");
    assert!(dev < 1e-9);
    // the same force through the centre of mass does not hold it: the point matters
    sim.set_body_force(0, [0.0, 0.0, 0.5 * m * G], [0.0; 3]).unwrap();
    for _ in 0..20 {
        sim.step().unwrap();
    }
    sim.joint_position(j, &mut th).unwrap();
    assert!((th[0] - FRAC_PI_2).abs() > 1e-2);
}

#[test]
fn body_frame_torque_spins_a_free_body_about_its_body_axis() {
    // torque-free except a constant body-frame torque about the body's principal z axis
    // (the torque turns with the body). The discrete rotational residual about a
    // principal axis reads s_N ω_N − s_{N−1} ω_{N−1} = 2τ/J with s = √(4/dt² − ω²), so
    // with ω = (2/dt) sin α: sin 2α_N = N dt² τ/J (→ ω = τ t/J as dt → 0).
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    let jb = *Inertia::cuboid(1.0, 0.3, 0.2, 0.1).unwrap().matrix();
    b.add_body(1.0, Inertia::from_matrix(jb).unwrap()).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let (tau, dt, n) = (0.03, 0.01, 100);
    sim.set_body_wrench(0, [0.0; 3], [0.0, 0.0, tau], [0.0; 3]).unwrap();
    for _ in 0..n {
        sim.step().unwrap();
    }
    let s = sim.body_state(0).unwrap();
    let alpha = 0.5 * (n as f64 * dt * dt * tau / jb[(2, 2)]).asin();
    let expected = 2.0 / dt * alpha.sin();
    println!("ω_z after 1 s: {:.12}, expected {expected:.12} (continuous τt/J = {:.12})", s[12], tau / jb[(2, 2)]);
    assert!((s[12] - expected).abs() < 1e-9 * expected);
    assert!(s[10].abs() < 1e-12 && s[11].abs() < 1e-12);
    // work done equals the kinetic energy gained
    let (k, _) = sim.energy();
    println!("input work {:.9} J, kinetic energy {k:.9} J", sim.input_work());
    assert!((sim.input_work() - k).abs() < 1e-3 * k);
}

#[test]
fn prismatic_actuator_pushes_the_child_and_inputs_hold_until_changed() {
    // free slider (no gravity): a constant force u gives x = u t² / (2m) exactly for the
    // symplectic Euler sum (x_N = u dt² N(N−1)/(2m) with x₁ = x₀ + v₀ dt)
    let (m, u, dt) = (3.0, 1.5, 0.01);
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    b.add_body(m, Inertia::cuboid(m, 0.1, 0.1, 0.1).unwrap()).unwrap();
    let j = b.add_joint(JointType::Prismatic, Parent::World, 0, [0.0; 3], [0.0; 3], [1.0, 1.0, 0.0]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_input(j, &[u]).unwrap();
    let n = 100;
    for _ in 0..n {
        sim.step().unwrap(); // no re-setting: the input holds
    }
    let mut x = [0.0];
    sim.joint_position(j, &mut x).unwrap();
    let expected = u * dt * dt * (n * (n - 1)) as f64 / (2.0 * m);
    let mut got = [0.0];
    sim.joint_input(j, &mut got).unwrap();
    println!("slider: x = {:.12}, expected {expected:.12}", x[0]);
    assert_eq!(got, [u]);
    assert!((x[0] - expected).abs() < 1e-10);
    sim.clear_inputs();
    sim.joint_input(j, &mut got).unwrap();
    assert_eq!(got, [0.0]);
}

#[test]
fn input_setters_validate_before_changing_anything() {
    let (b, j) = pendulum(1.0);
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    sim.set_joint_input(j, &[0.5]).unwrap();
    assert!(matches!(sim.set_joint_input(j, &[1.0, 2.0]), Err(Error::WrongLength { .. })));
    assert!(matches!(sim.set_joint_input(j, &[f64::NAN]), Err(Error::NonFinite("u"))));
    assert!(matches!(sim.set_joint_input(5, &[1.0]), Err(Error::UnknownJoint(5))));
    assert!(matches!(sim.set_body_wrench(0, [0.0; 3], [0.0; 3], [f64::INFINITY, 0.0, 0.0]), Err(Error::NonFinite("point"))));
    assert!(matches!(sim.set_body_wrench(1, [0.0; 3], [0.0; 3], [0.0; 3]), Err(Error::UnknownBody(1))));
    let mut u = [0.0];
    sim.joint_input(j, &mut u).unwrap();
    assert_eq!(u, [0.5]);
}
