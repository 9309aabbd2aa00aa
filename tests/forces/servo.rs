//! Servo targets (`Sim::set_joint_target`): a joint's spring and damper pull toward a
//! position and a rate the caller moves between steps, a PD servo whose damping the step
//! integrates implicitly. It tracks a ramp to the discretization's O(dt²) lead, its energy
//! account closes with the targets' work, the saved state carries the targets, bad targets
//! change nothing, and whole target vectors equal the joint-by-joint calls.

use maxdyn::*;
use std::sync::Arc;

/// A rod (1 kg, 1 m) on a revolute about x at its end, with a servo of stiffness `k` and
/// damping `c`; gravity on or off.
fn servo_rod(k: f64, c: f64, gravity: bool) -> (Sim, usize) {
    servo_rod_at(k, c, gravity, 0.01)
}

/// [`servo_rod`] stepping at `dt`.
fn servo_rod_at(k: f64, c: f64, gravity: bool, dt: f64) -> (Sim, usize) {
    let mut b = Builder::new();
    if !gravity {
        b.set_gravity([0.0; 3]).unwrap();
    }
    b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
    let j = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.set_joint_spring(j, &[k], &[0.0]).unwrap();
    b.set_joint_damper(j, &[c]).unwrap();
    (Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap(), j)
}

fn saved(sim: &Sim) -> Vec<f64> {
    let mut s = vec![0.0; sim.state_size()];
    sim.get_state(&mut s).unwrap();
    s
}

fn position(sim: &Sim, j: usize) -> f64 {
    let mut th = [0.0];
    sim.joint_position(j, &mut th).unwrap();
    th[0]
}

fn velocity(sim: &Sim, j: usize) -> f64 {
    let mut om = [0.0];
    sim.joint_velocity(j, &mut om).unwrap();
    om[0]
}

/// The target ramp θ*(t) = Ω t with rate Ω, set before each step at the time of the
/// configuration the step's spring acts at (t + dt). At steady state the step's equation
/// I (ω₁ − ω₀)/dt = −k (θ₁ − θ*) − c (ω₁ − Ω) holds with a constant ω, which turns the
/// quaternion by 2 asin(ω dt/2) a step (the paper's update): to advance Ω dt it is
/// Ω (1 − (Ω dt)²/24), and the spring leads by c (Ω − ω)/k = c Ω³ dt²/(24 k), the
/// discretization's O(dt²) share (5.208e-8 rad here), while the joint rate read from the
/// poses is Ω. Stiff gains at dt 0.01 (k 400 N·m/rad, c 40 N·m·s/rad on I = 0.334 kg m²:
/// an explicit PD's c dt / I = 1.2). Measured after 3 s: the lead 5.208e-8 rad, that value
/// to 3.0e-7 relative (bound 1e-6); |θ̇ − Ω| 1.1e-14 rad/s.
#[test]
fn a_servo_tracks_a_ramp_target_with_its_rate() {
    let (k, c, dt, omega) = (400.0, 40.0, 0.01, 0.5);
    let (mut sim, j) = servo_rod(k, c, false);
    for _ in 0..300 {
        let t = sim.time() + sim.dt();
        sim.set_joint_target(j, &[omega * t], &[omega]).unwrap();
        sim.step().unwrap();
    }
    let (lead, slip) = (position(&sim, j) - omega * sim.time(), (velocity(&sim, j) - omega).abs());
    let expected = c * omega.powi(3) * dt * dt / (24.0 * k);
    println!("servo on a ramp after {:.2} s: θ − Ω t {lead:.4e} rad (c Ω³ dt²/(24 k) = {expected:.4e}, {:.1e} relative), |θ̇ − Ω| {slip:.1e} rad/s", sim.time(), lead / expected - 1.0);
    assert!((lead / expected - 1.0).abs() < 1e-6 && slip < 1e-13, "lead {lead:e} rad, slip {slip:e} rad/s");
}

/// Energy with moving targets: E(t) − E(0) − W_in + D, where W_in credits each move of
/// the spring's target with the potential it changed and each step the damper's target
/// rate with its work (`forces::energy`), stays at the integrator's own first-order energy
/// error. The rod swings under gravity while its target follows 0.8 sin(3 t) with its rate,
/// 10 s. Measured at dt 1e-3: max |E − E₀ − W + D| 0.410 J (0.75 % of W) while W reaches
/// 54.6 J and D 52.8 J; at dt 5e-4 0.205 J (ratio 2.000: first order, not a bookkeeping leak). A target moved at
/// rest changes the spring's potential and the account by the same amount, to rounding.
#[test]
fn the_energy_account_closes_with_moving_targets() {
    let run = |dt: f64| {
        let (mut sim, j) = servo_rod_at(30.0, 2.0, true, dt);
        let energy = |s: &Sim| {
            let (k, p) = s.energy();
            k + p
        };
        let e0 = energy(&sim);
        let (mut worst, mut largest_w): (f64, f64) = (0.0, 0.0);
        for _ in 0..(10.0 / dt).round() as usize {
            let t = sim.time() + sim.dt();
            sim.set_joint_target(j, &[0.8 * (3.0 * t).sin()], &[2.4 * (3.0 * t).cos()]).unwrap();
            sim.step().unwrap();
            let a = sim.energy_account();
            worst = worst.max((energy(&sim) - e0 - a.input_work + a.dissipation).abs());
            largest_w = largest_w.max(a.input_work.abs());
        }
        let a = sim.energy_account();
        println!("servo energy, dt {dt:e}: max |E − E0 − W + D| {worst:.3e} J, W {:.3} J (largest {largest_w:.3}), D {:.3} J", a.input_work, a.dissipation);
        (worst, largest_w, a.dissipation)
    };
    let (coarse, largest_w, dissipation) = run(1e-3);
    let (fine, _, _) = run(5e-4);
    println!("  ratio dt 1e-3 / 5e-4: {:.3}", coarse / fine);
    assert!(largest_w > 1.0 && dissipation > 5.0, "the targets must do work");
    assert!(coarse < 0.01 * largest_w, "worst {coarse:e} J");
    assert!((1.95..2.05).contains(&(coarse / fine)), "ratio {}", coarse / fine);

    // a move at rest: the account takes exactly the potential's change
    let (mut sim, j) = servo_rod(30.0, 2.0, false);
    let (w0, v0) = (sim.energy_account().input_work, sim.spring_energy());
    sim.set_joint_target(j, &[0.7], &[0.0]).unwrap();
    let (w1, v1) = (sim.energy_account().input_work, sim.spring_energy());
    assert!((v1 - 0.5 * 30.0 * 0.49).abs() < 1e-14 && (w1 - w0 - (v1 - v0)).abs() < 1e-15, "V {v0} → {v1}, W {w0} → {w1}");
}

/// The saved state carries the targets: restoring it brings back the targets it was saved
/// with, and the steps after it replay bit for bit; `clear_inputs` puts the model's rest
/// and a zero rate back.
#[test]
fn the_saved_state_carries_the_targets() {
    let (mut sim, j) = servo_rod(50.0, 3.0, true);
    sim.set_joint_target(j, &[0.6], &[0.2]).unwrap();
    sim.step().unwrap();
    let saved = saved(&sim);
    let run = |s: &mut Sim| -> Vec<[f64; 13]> { (0..50).map(|_| { s.step().unwrap(); s.body_state(0).unwrap() }).collect() };
    let first = run(&mut sim);
    sim.set_joint_target(j, &[-1.0], &[0.0]).unwrap();
    sim.set_state(&saved).unwrap();
    let (mut p, mut v) = ([0.0], [0.0]);
    sim.joint_target(j, &mut p, &mut v).unwrap();
    assert_eq!((p, v), ([0.6], [0.2]));
    assert_eq!(run(&mut sim), first, "the restored sim replays");
    let mut fresh = servo_rod(50.0, 3.0, true).0;
    fresh.set_state(&saved).unwrap();
    assert_eq!(run(&mut fresh), first, "a fresh sim replays");
    sim.clear_inputs();
    sim.joint_target(j, &mut p, &mut v).unwrap();
    assert_eq!((p, v), ([0.0], [0.0]));
}

/// Refused, changing nothing: a joint with neither spring nor damper, wrong lengths,
/// non-finite values, an unknown joint; a rate target without a damper and a position
/// target without a spring.
#[test]
fn bad_targets_are_refused_and_change_nothing() {
    let (mut sim, j) = servo_rod(10.0, 1.0, true);
    sim.set_joint_target(j, &[0.3], &[0.1]).unwrap();
    let before = saved(&sim);
    assert!(matches!(sim.set_joint_target(j, &[0.3, 0.1], &[0.0]), Err(Error::WrongLength { .. })));
    assert!(matches!(sim.set_joint_target(j, &[0.3], &[]), Err(Error::WrongLength { .. })));
    assert!(matches!(sim.set_joint_target(j, &[f64::NAN], &[0.0]), Err(Error::NonFinite("position"))));
    assert!(matches!(sim.set_joint_target(j, &[0.0], &[f64::INFINITY]), Err(Error::NonFinite("velocity"))));
    assert!(matches!(sim.set_joint_target(3, &[0.0], &[0.0]), Err(Error::UnknownJoint(3))));
    assert_eq!(saved(&sim), before);

    let mut b = Builder::new();
    b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
    let bare = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let err = sim.set_joint_target(bare, &[0.1], &[0.0]).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument("joint", _)) && err.to_string().contains("neither a spring nor a damper"), "{err}");

    // a spring alone pulls toward a position, not a rate; a damper alone the reverse
    for spring in [true, false] {
        let mut b = Builder::new();
        b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
        let j = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        if spring {
            b.set_joint_spring(j, &[5.0], &[0.0]).unwrap();
        } else {
            b.set_joint_damper(j, &[0.5]).unwrap();
        }
        let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
        let (refused, kept) = if spring { ((&[0.2], &[0.1]), (&[0.2], &[0.0])) } else { ((&[0.2], &[0.1]), (&[0.0], &[0.1])) };
        let err = sim.set_joint_target(j, refused.0, refused.1).unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(arg, _) if arg == if spring { "velocity" } else { "position" }), "{err}");
        sim.set_joint_target(j, kept.0, kept.1).unwrap();
    }
}

/// Every joint's target at once (`Sim::set_joint_targets`, joint-id order): the same run as
/// the joint-by-joint calls, bit for bit; a joint with neither spring nor damper takes
/// zeros only, and what is refused changes nothing.
#[test]
fn whole_target_vectors_equal_the_joint_by_joint_calls() {
    let two_rods = || {
        let mut b = Builder::new();
        for _ in 0..2 {
            b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
        }
        let j0 = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        b.add_joint(JointType::Revolute, Parent::Body(0), 1, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        b.set_joint_spring(j0, &[50.0], &[0.0]).unwrap();
        b.set_joint_damper(j0, &[3.0]).unwrap();
        Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
    };
    let (mut whole, mut each) = (two_rods(), two_rods());
    for k in 0..100 {
        let (p, v) = ((0.02 * k as f64).sin(), 0.02 * (0.02 * k as f64).cos());
        whole.set_joint_targets(&[p, 0.0], &[v, 0.0]).unwrap();
        each.set_joint_target(0, &[p], &[v]).unwrap();
        whole.step().unwrap();
        each.step().unwrap();
    }
    assert_eq!(saved(&whole), saved(&each));
    let (mut p, mut v) = ([0.0; 2], [0.0; 2]);
    whole.joint_targets(&mut p, &mut v).unwrap();
    assert_eq!((p, v), ([(0.02f64 * 99.0).sin(), 0.0], [0.02 * (0.02f64 * 99.0).cos(), 0.0]));
    let before = saved(&whole);
    let err = whole.set_joint_targets(&[0.1, 0.2], &[0.0, 0.0]).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument("position", _)) && err.to_string().contains("joint 1"), "{err}");
    assert!(matches!(whole.set_joint_targets(&[0.1], &[0.0]), Err(Error::WrongLength { .. })));
    assert!(matches!(whole.set_joint_targets(&[0.1, 0.0], &[f64::NAN, 0.0]), Err(Error::NonFinite("velocity"))));
    assert_eq!(saved(&whole), before, "a refused call changed the sim");
}

/// The linearization with respect to the targets, for one-dof joints: a spring pulls along
/// its coordinate's gradient and an input along the joint's rate, which are the same rows
/// on a revolute or prismatic joint, so ∂x_{k+1}/∂position* = k B and ∂x_{k+1}/∂velocity* =
/// c B with B the input columns of `Sim::linearize` (docs/C_API.md, "Servo targets").
/// Checked on a swinging double pendulum with servos on both joints against central
/// differences of whole steps (h 1e-4, steps solved to 1e-13): measured 1.8e-10 and
/// 2.0e-10 absolute, 1.4e-10 and 2.6e-9 of the columns' largest entry (bound 1e-8), the
/// differences' own noise (at h 1e-6 both were 1.1e-8 absolute).
#[test]
fn target_derivatives_are_the_input_columns_times_the_gains() {
    let (k, c) = ([30.0, 12.0], [2.0, 0.7]);
    let mut b = Builder::new();
    for _ in 0..2 {
        b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
    }
    b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, Parent::Body(0), 1, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    for j in 0..2 {
        b.set_joint_spring(j, &[k[j]], &[0.0]).unwrap();
        b.set_joint_damper(j, &[c[j]]).unwrap();
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    sim.set_options(SolverOptions { tolerance: 1e-13, ..sim.options() }).unwrap();
    sim.set_joint_position(0, &[0.4]).unwrap();
    sim.set_joint_position(1, &[-0.3]).unwrap();
    sim.set_joint_velocity(1, &[0.8]).unwrap();
    sim.set_joint_targets(&[0.2, 0.1], &[0.5, -0.3]).unwrap();
    let (nx, nu) = sim.model().linearization_size(Coords::Minimal);
    let (mut a, mut bm) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
    sim.linearize(Coords::Minimal, &mut a, &mut bm).unwrap();
    let after = |s: &Sim| {
        let mut s = s.clone();
        s.step().unwrap();
        let (mut q, mut v) = (vec![0.0; 2], vec![0.0; 2]);
        s.configuration(&mut q).unwrap();
        s.generalized_velocity(&mut v).unwrap();
        [q, v].concat()
    };
    let h = 1e-4;
    for (which, gains) in [(0, k), (1, c)] {
        let (mut worst, mut largest): (f64, f64) = (0.0, 0.0);
        for col in 0..2 {
            let moved = |d: f64| {
                let mut s = sim.clone();
                let (mut p, mut v) = (vec![0.0; 2], vec![0.0; 2]);
                s.joint_targets(&mut p, &mut v).unwrap();
                if which == 0 { p[col] += d } else { v[col] += d }
                s.set_joint_targets(&p, &v).unwrap();
                after(&s)
            };
            let (plus, minus) = (moved(h), moved(-h));
            for r in 0..nx {
                let fd = (plus[r] - minus[r]) / (2.0 * h);
                let analytic = gains[col] * bm[r * nu + col];
                worst = worst.max((fd - analytic).abs());
                largest = largest.max(analytic.abs());
            }
        }
        println!("{}: max |gain × B − central difference| {worst:.1e} of {largest:.3e}", ["position targets", "rate targets"][which]);
        assert!(largest > 1e-3 && worst < 1e-8 * largest, "worst {worst:e} of {largest:e}");
    }
}
