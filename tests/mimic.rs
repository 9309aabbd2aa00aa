//! Mimic joints as exact equalities (`maxdyn::mimic`): q_follower = m q_leader + o holds
//! to the solver's tolerance, the coupled dynamics follow the reduced equations, inputs on
//! either joint act through the coupling, and the coupling does no work. Mimics that
//! define a coordinate through itself or twice are refused, naming the joints.

use maxdyn::{Builder, Error, Inertia, JointType, Model, Parent, Sim};
use std::f64::consts::PI;
use std::sync::Arc;

fn position(sim: &Sim, joint: usize) -> f64 {
    let mut q = [0.0];
    sim.joint_position(joint, &mut q).unwrap();
    q[0]
}

fn wrap(a: f64) -> f64 {
    (a + PI).rem_euclid(2.0 * PI) - PI
}

/// A hand hanging on a hinge (about x) with two prismatic fingers along its y axis; the
/// second finger mimics the first with `multiplier` and `offset`.
fn gripper(multiplier: f64, offset: f64) -> (Sim, usize, usize) {
    let mut b = Builder::new();
    let hand = b.add_body(1.0, Inertia::diagonal(0.01, 0.01, 0.01).unwrap()).unwrap();
    let f1 = b.add_body(0.1, Inertia::diagonal(1e-4, 1e-4, 1e-4).unwrap()).unwrap();
    let f2 = b.add_body(0.1, Inertia::diagonal(1e-4, 1e-4, 1e-4).unwrap()).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, hand, [0.0; 3], [0.0, 0.0, 0.3], [1.0, 0.0, 0.0]).unwrap();
    let leader = b.add_joint(JointType::Prismatic, hand, f1, [0.0, 0.05, -0.1], [0.0; 3], [0.0, 1.0, 0.0]).unwrap();
    let follower = b.add_joint(JointType::Prismatic, hand, f2, [0.0, -0.05, -0.1], [0.0; 3], [0.0, 1.0, 0.0]).unwrap();
    b.add_mimic(follower, leader, multiplier, offset).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_position(0, &[0.4]).unwrap();
    sim.set_joint_position(leader, &[0.0]).unwrap();
    sim.set_joint_position(follower, &[offset]).unwrap();
    (sim, leader, follower)
}

/// Two wheels on vertical world hinges (inertias 0.1 and 0.05 kg m² about the axis), the
/// second geared to the first with `multiplier`.
fn gear(multiplier: f64) -> (Sim, usize, usize) {
    let mut b = Builder::new();
    b.set_gravity([0.0, 0.0, -9.81]).unwrap();
    let w1 = b.add_body(1.0, Inertia::diagonal(0.06, 0.06, 0.1).unwrap()).unwrap();
    let w2 = b.add_body(0.5, Inertia::diagonal(0.03, 0.03, 0.05).unwrap()).unwrap();
    let leader = b.add_joint(JointType::Revolute, Parent::World, w1, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    let follower = b.add_joint(JointType::Revolute, Parent::World, w2, [0.5, 0.0, 0.0], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    b.add_mimic(follower, leader, multiplier, 0.0).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_position(leader, &[0.0]).unwrap();
    sim.set_joint_position(follower, &[0.0]).unwrap();
    (sim, leader, follower)
}

/// The gripper's fingers close symmetrically (multiplier −1) or move together with an
/// offset of 1 cm (multiplier 1) while a force on the leader drives them and the hand
/// swings: the mimic holds to 1e-10 over 2 s (largest seen 7e-16 and 6e-12).
#[test]
fn a_gripper_finger_mimics_the_other_to_1e_10() {
    for (m, o) in [(-1.0, 0.0), (1.0, 0.01)] {
        let (mut sim, leader, follower) = gripper(m, o);
        sim.set_joint_input(leader, &[0.05]).unwrap();
        for _ in 0..2000 {
            sim.step().unwrap();
            let direct = position(&sim, follower) - m * position(&sim, leader) - o;
            assert!(sim.mimic_violation() <= 1e-10 && direct.abs() <= 1e-10, "multiplier {m}: {direct:e}");
        }
        assert!(position(&sim, leader) > 1.0, "the leader was driven: {}", position(&sim, leader));
        assert!(sim.constraint_violation() < 1e-12);
    }
}

/// A gear of ratio 2: a torque τ on the leader turns it at α = τ / (I_l + 4 I_f) = 1 rad/s²
/// and the follower at twice that, past ±π (the mimic reads unwrapped angles); the same
/// torque on the follower turns the leader at 2τ / (I_l + 4 I_f) = 2 rad/s². The positions
/// are the integrator's ½ α t (t − dt) (the state lags one step) within 2e-6 and 1.6e-5
/// rad seen,
/// (follower 4e-6 and 3.2e-5 rad), the rates α t within 2e-6 and 8e-6 relative seen; the
/// mimic holds to 1e-10 (8.7e-11 seen, the Newton tolerance), and its multiplier is the
/// follower's share I_f α_f (less the torque on it) within 2e-7 and 1.6e-6 N·m seen.
#[test]
fn a_gear_of_ratio_two_follows_the_reduced_dynamics_from_either_joint() {
    for on_leader in [true, false] {
        let (mut sim, leader, follower) = gear(2.0);
        let tau = 0.3;
        sim.set_joint_input(if on_leader { leader } else { follower }, &[tau]).unwrap();
        let mut unwrapped = 0.0;
        for _ in 0..2000 {
            let before = position(&sim, follower);
            sim.step().unwrap();
            unwrapped += wrap(position(&sim, follower) - before);
            assert!(sim.mimic_violation() <= 1e-10, "{:e}", sim.mimic_violation());
        }
        let alpha = if on_leader { tau / (0.1 + 4.0 * 0.05) } else { 2.0 * tau / (0.1 + 4.0 * 0.05) };
        let t = sim.time();
        let expected = 0.5 * alpha * t * (t - 1e-3);
        assert!(wrap(position(&sim, leader) - expected).abs() < 2e-5, "leader {} expected {expected}", position(&sim, leader));
        assert!((unwrapped - 2.0 * expected).abs() < 4e-5, "follower turned {unwrapped}, expected {}", 2.0 * expected);
        let mut w = [0.0];
        sim.joint_velocity(leader, &mut w).unwrap();
        assert!((w[0] - alpha * t).abs() < 2e-5 * alpha * t, "rate {} expected {}", w[0], alpha * t);
        // the follower's inertia takes I_f (2 α) through the mimic: +λ on the follower
        let share = 0.05 * 2.0 * alpha - if on_leader { 0.0 } else { tau };
        assert!((sim.mimic_force(0).unwrap() - share).abs() < 3e-6, "λ {} expected {share}", sim.mimic_force(0).unwrap());
    }
}

/// Without damping the coupling does no work: a double pendulum whose elbow follows half
/// its shoulder angle drifts in energy over 5 s (dt = 1 ms) no more than the plain double
/// pendulum does (seen 1.86e-2 J against 2.07e-2 J: the integrator's own bounded error).
#[test]
fn a_mimic_conserves_energy_at_the_level_of_the_plain_joints() {
    let drift = |mimic: bool| {
        let mut b = Builder::new();
        let l1 = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
        let l2 = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
        let j1 = b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        let j2 = b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        if mimic {
            b.add_mimic(j2, j1, 0.5, 0.0).unwrap();
        }
        let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
        sim.set_joint_position(j1, &[1.2]).unwrap();
        sim.set_joint_position(j2, &[0.6]).unwrap();
        let (k0, p0) = sim.energy();
        let mut worst: f64 = 0.0;
        for _ in 0..5000 {
            sim.step().unwrap();
            let (k, p) = sim.energy();
            worst = worst.max((k + p - k0 - p0).abs());
            assert!(sim.mimic_violation() <= 1e-10);
        }
        worst
    };
    let (plain, mimicked) = (drift(false), drift(true));
    assert!(mimicked < 2.0e-2 && mimicked <= 1.1 * plain, "mimic {mimicked:e} J, plain {plain:e} J");
}

/// Panda's fingers: both limited to [0, 0.04] m, the second mimicking the first
/// (multiplier 1). Pushed open by a force on the leader, both stop at 0.04 together:
/// two limit sides that bind at once through the mimic (dependent inequalities) still
/// solve, the mimic holds to 1e-10 and the limits to 1e-8.
#[test]
fn limited_mimicking_fingers_stop_together_at_their_limit() {
    let mut b = Builder::new();
    let hand = b.add_body(1.0, Inertia::diagonal(0.01, 0.01, 0.01).unwrap()).unwrap();
    let f1 = b.add_body(0.1, Inertia::diagonal(1e-4, 1e-4, 1e-4).unwrap()).unwrap();
    let f2 = b.add_body(0.1, Inertia::diagonal(1e-4, 1e-4, 1e-4).unwrap()).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, hand, [0.0; 3], [0.0, 0.0, 0.3], [1.0, 0.0, 0.0]).unwrap();
    let leader = b.add_joint(JointType::Prismatic, hand, f1, [0.0, 0.0, -0.1], [0.0; 3], [0.0, 1.0, 0.0]).unwrap();
    let follower = b.add_joint(JointType::Prismatic, hand, f2, [0.0, 0.0, -0.1], [0.0; 3], [0.0, -1.0, 0.0]).unwrap();
    b.set_joint_limits(leader, &[0.0], &[0.04]).unwrap();
    b.set_joint_limits(follower, &[0.0], &[0.04]).unwrap();
    b.add_mimic(follower, leader, 1.0, 0.0).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_position(0, &[0.3]).unwrap();
    for j in [leader, follower] {
        sim.set_joint_position(j, &[0.01]).unwrap();
    }
    sim.set_joint_input(leader, &[2.0]).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
        assert!(sim.mimic_violation() <= 1e-10 && sim.limit_violation() <= 1e-8, "mimic {:e} limits {:e}", sim.mimic_violation(), sim.limit_violation());
    }
    for j in [leader, follower] {
        assert!((position(&sim, j) - 0.04).abs() < 1e-8, "joint {j} at {}", position(&sim, j));
    }
}

/// Wheels on vertical world hinges named after `names`, side by side, nothing coupled.
fn wheels(names: &[&str]) -> Builder {
    let mut b = Builder::new();
    for (k, name) in names.iter().enumerate() {
        let w = b.add_body(1.0, Inertia::diagonal(0.06, 0.06, 0.1).unwrap()).unwrap();
        let j = b.add_joint(JointType::Revolute, Parent::World, w, [0.5 * k as f64, 0.0, 0.0], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
        b.set_joint_name(j, name).unwrap();
    }
    b
}

/// The message of the `Error::InvalidModel` that `Model::new` refuses `b` with.
fn refusal(b: &Builder) -> String {
    match Model::new(b) {
        Err(Error::InvalidModel(m)) => m,
        other => panic!("expected an invalid model, got {:?}", other.map(|_| "a model")),
    }
}

/// a = b + 1 and b = a + 1 have no solution, a = 2 c, c = b, b = a / 2 infinitely many:
/// both cycles are refused when the model is built, the joints named in cycle order.
#[test]
fn mimic_cycles_are_refused_when_the_model_is_built_naming_the_joints() {
    let mut b = wheels(&["x", "a", "b"]);
    b.add_mimic(1, 2, 1.0, 1.0).unwrap();
    b.add_mimic(2, 1, 1.0, 1.0).unwrap();
    let m = refusal(&b);
    assert!(m.starts_with("mimic cycle: joint `a` (1) → `b` (2) → `a` (1)"), "{m}");

    let mut b = wheels(&["a", "b", "c"]);
    b.add_mimic(0, 2, 2.0, 0.0).unwrap();
    b.add_mimic(2, 1, 1.0, 0.0).unwrap();
    b.add_mimic(1, 0, 0.5, 0.0).unwrap();
    let m = refusal(&b);
    assert!(m.starts_with("mimic cycle: joint `a` (0) → `c` (2) → `b` (1) → `a` (0)"), "{m}");
    assert_eq!(Error::InvalidModel(m.clone()).to_string(), format!("invalid model: {m}"));
}

/// Two equations for one coordinate and a joint following itself are refused as the
/// mimic is added, naming the joints.
#[test]
fn a_second_leader_or_the_joint_itself_is_refused_naming_the_joints() {
    let mut b = wheels(&["a", "b", "c"]);
    b.add_mimic(0, 1, 1.0, 0.0).unwrap();
    match b.add_mimic(0, 2, -1.0, 0.0) {
        Err(Error::InvalidArgument("follower", m)) => assert_eq!(m, "joint `a` (0) already mimics joint `b` (1): a joint follows at most one leader"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(b.add_mimic(2, 2, 1.0, 0.0), Err(Error::InvalidArgument("leader", _))));
    assert_eq!(b.mimics().len(), 1, "refused mimics are not added");
    assert!(Model::new(&b).is_ok());
}

/// A chain c → b → a (b = a / 2, c = 2 b + 0.1) without a cycle builds and steps: a
/// torque τ on a drives all three at α = τ / (I_a + I_b / 4 + I_c) for a (the gear's
/// reduced dynamics; a within 9e-8 rad of ½ α t (t − dt) after 1 s seen), each mimic
/// held to 1e-10 (8.0e-11 seen).
#[test]
fn a_chain_of_mimics_without_a_cycle_builds_and_steps() {
    let mut b = wheels(&["a", "b", "c"]);
    b.add_mimic(1, 0, 0.5, 0.0).unwrap();
    b.add_mimic(2, 1, 2.0, 0.1).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_position(2, &[0.1]).unwrap();
    sim.set_joint_input(0, &[0.3]).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
        assert!(sim.mimic_violation() <= 1e-10, "{:e}", sim.mimic_violation());
    }
    let (a, bq, c) = (position(&sim, 0), position(&sim, 1), position(&sim, 2));
    let (alpha, t) = (0.3 / (0.1 + 0.1 / 4.0 + 0.1), sim.time());
    assert!((a - 0.5 * alpha * t * (t - 1e-3)).abs() < 1e-6, "a {a} expected {}", 0.5 * alpha * t * (t - 1e-3));
    assert!((bq - 0.5 * a).abs() < 1e-10 && (c - 2.0 * bq - 0.1).abs() < 1e-10, "a {a} b {bq} c {c}");
}
