//! Joint limits as inequalities of the interior point (`maxdyn::limits`): a coordinate
//! stops at its bound to the solver's tolerance, no energy is gained at the stop, a model
//! resting on a limit carries the static load, angles beyond ±π are limited exactly, and
//! stepping with limits allocates nothing.

mod common;

use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::f64::consts::PI;
use std::sync::Arc;

const G: f64 = 9.81;

/// A rod pendulum (1 kg, COM 0.5 m below a hinge about y at the origin) with the given
/// limits, at rest at angle `start`.
fn pendulum(lower: f64, upper: f64, dt: f64, start: f64) -> Sim {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::diagonal(0.02, 0.02, 0.001).unwrap()).unwrap();
    let j = b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    b.set_joint_limits(j, &[lower], &[upper]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j, &[start]).unwrap();
    sim
}

fn total_energy(sim: &Sim) -> f64 {
    let (k, p) = sim.energy();
    k + p
}

fn position(sim: &Sim, joint: usize) -> f64 {
    let mut q = [0.0];
    sim.joint_position(joint, &mut q).unwrap();
    q[0]
}

/// Released at 1.5 rad, the pendulum swings down onto its lower limit at −0.3 rad and
/// stops there (the stop is inelastic, as a contact's): the coordinate never passes the
/// bound (closest seen −0.29999999999789, i.e. 2e-12 inside), and the two impact steps
/// lose energy (−1.68 J and −2.65 J); afterwards the energy never returns above its value
/// before the impact (the integrator's own per-step wobble is 4e-6 J).
#[test]
fn a_pendulum_falling_onto_its_limit_stops_there_without_gaining_energy() {
    let mut sim = pendulum(-0.3, 2.0, 1e-3, 1.5);
    let mut impacts = 0;
    let mut before_impact = f64::NAN;
    for _ in 0..2000 {
        let e0 = total_energy(&sim);
        sim.step().unwrap();
        let e1 = total_energy(&sim);
        let report = sim.limit(0).unwrap();
        assert!(report.violation <= 1e-8 && position(&sim, 0) >= -0.3 - 1e-8, "passed the limit: {report:?}");
        assert!((report.position - position(&sim, 0)).abs() < 1e-12);
        if report.force > 1.0 {
            impacts += 1;
            if before_impact.is_nan() {
                before_impact = e0;
            }
            assert!(e1 <= e0 + 1e-9, "the stop gained {} J", e1 - e0);
        }
        if !before_impact.is_nan() {
            assert!(e1 <= before_impact + 1e-9, "{} J above the energy before the impact", e1 - before_impact);
        }
    }
    assert_eq!(impacts, 2, "the stop takes two steps at dt = 1 ms");
    assert!(before_impact - total_energy(&sim) > 4.0, "the impact dissipated the swing's kinetic energy");
}

/// Held against an upper limit at −0.2 rad by gravity, the pendulum rests there and the
/// limit carries the static torque m g l sin 0.2 = 0.97458 N·m (error seen 5.2e-9
/// relative: the pendulum rests 1.0e-9 rad inside the bound, the barrier's remainder);
/// the energy at rest never grows (largest per-step gain seen 9e-16 J).
#[test]
fn a_pendulum_resting_on_its_limit_carries_the_static_torque() {
    let mut sim = pendulum(-PI, -0.2, 1e-3, -1.0);
    for _ in 0..3000 {
        sim.step().unwrap();
        assert!(sim.limit_violation() <= 1e-8);
    }
    let mut e = total_energy(&sim);
    for _ in 0..500 {
        sim.step().unwrap();
        let e1 = total_energy(&sim);
        assert!(e1 <= e + 1e-9, "gained {} J at rest", e1 - e);
        e = e1;
    }
    let r = sim.limit(0).unwrap();
    let expected = -G * 0.5 * (0.2f64).sin();
    assert!((r.position + 0.2).abs() < 1e-8, "{r:?}");
    assert!((r.force - expected).abs() < 1e-8 * expected.abs(), "force {} expected {expected}", r.force);
}

/// A slider along z drops 0.3 m onto its lower limit and rests there carrying its weight
/// (force m g: error seen 1.0e-12 relative; position 5e-11 m inside the bound).
#[test]
fn a_prismatic_limit_stops_a_falling_slider_and_carries_its_weight() {
    let mut b = Builder::new();
    let body = b.add_body(2.0, Inertia::diagonal(0.1, 0.1, 0.1).unwrap()).unwrap();
    let j = b.add_joint(JointType::Prismatic, Parent::World, body, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    b.set_joint_limits(j, &[-0.3], &[f64::INFINITY]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
        assert!(position(&sim, j) >= -0.3 - 1e-8 && sim.limit_violation() <= 1e-8);
    }
    let r = sim.limit(0).unwrap();
    assert!((r.position + 0.3).abs() < 1e-8);
    assert!((r.force - 2.0 * G).abs() < 1e-11 * 2.0 * G, "force {}", r.force);
}

/// A wheel spinning at 10 rad/s about a vertical axis, limited to [−∞, 2π + 1]: it passes
/// ±π and 2π freely (an angle limit reads the unwrapped angle) and stops at 2π + 1, where
/// the wrapped joint coordinate reads 1, and stays there (`tests/exact_complementarity.rs`).
#[test]
fn a_limit_beyond_pi_stops_a_spinning_joint_after_more_than_a_turn() {
    let (mut sim, j, top) = common::spinning_wheel();
    let mut largest: f64 = 0.0;
    for _ in 0..1000 {
        sim.step().unwrap();
        let r = sim.limit(0).unwrap();
        largest = largest.max(r.position);
        assert!(r.position <= top + 1e-8, "{r:?}");
    }
    assert!((largest - top).abs() < 1e-8, "reached {largest}");
    assert!((position(&sim, j) - 1.0).abs() < 1e-3 && (sim.limit(0).unwrap().position - top).abs() < 1e-3, "wrapped: {}", position(&sim, j));
    let mut w = [0.0];
    sim.joint_velocity(j, &mut w).unwrap();
    assert!(w[0].abs() < 5e-4, "stopped: {}", w[0]);
    // a position set beyond π is taken as set
    sim.set_joint_position(j, &[5.0]).unwrap();
    assert_eq!(sim.limit(0).unwrap().position, 5.0);
}

/// A coordinate outside its limit at the start is reported (not hidden). The step after
/// puts the configuration it solves for, z_{k+2}, back on the bound; the state after a
/// step is that step's z_{k+1} (the prediction from the start), so the state is back
/// within the limit after two steps.
#[test]
fn a_start_outside_the_limits_is_reported_and_corrected_by_the_next_steps() {
    let mut sim = pendulum(-0.3, 0.3, 1e-3, -0.5);
    let r = sim.limit(0).unwrap();
    assert!((r.violation - 0.2).abs() < 1e-12 && (sim.limit_violation() - 0.2).abs() < 1e-12, "{r:?}");
    sim.step().unwrap();
    assert!((sim.limit_violation() - 0.2).abs() < 1e-12, "still the start: {}", sim.limit_violation());
    sim.step().unwrap();
    assert!(sim.limit_violation() <= 1e-8, "after two steps: {}", sim.limit_violation());
    assert!(sim.limit(7).is_err());
}

/// A 7-joint arm (panda-like proportions, revolute axes alternating z and y) driven by
/// constant joint torques towards one side of each joint's limits: every joint stops at
/// its bound (violation ≤ 1e-8 rad) and the arm comes to rest there.
#[test]
fn a_seven_joint_arm_driven_against_its_limits_stops_and_rests_at_them() {
    let (mut sim, joints, bounds) = arm(true);
    let torques = [40.0, -60.0, 30.0, -40.0, 20.0, -15.0, 5.0];
    for (&j, &u) in joints.iter().zip(&torques) {
        sim.set_joint_input(j, &[u]).unwrap();
    }
    for _ in 0..3000 {
        sim.step().unwrap();
        assert!(sim.limit_violation() <= 1e-8, "violation {}", sim.limit_violation());
    }
    // each joint at the bound its torque pushes towards, 2e-10 inside (the barrier's
    // remainder), at rest
    for (i, &j) in joints.iter().enumerate() {
        let target = if torques[i] > 0.0 { bounds[i].1 } else { bounds[i].0 };
        assert!((position(&sim, j) - target).abs() < 1e-8, "joint {i} at {} not {target}", position(&sim, j));
        let mut w = [0.0];
        sim.joint_velocity(j, &mut w).unwrap();
        assert!(w[0].abs() < 1e-6, "joint {i} moves at {}", w[0]);
    }
}

/// The arm of the test above: a fixed base, 7 links of 0.2–0.3 m and 0.5–3 kg.
pub fn arm(limited: bool) -> (Sim, Vec<usize>, Vec<(f64, f64)>) {
    let mut b = Builder::new();
    let masses = [3.0, 2.5, 2.5, 2.0, 1.5, 1.0, 0.5];
    let bounds = vec![(-2.8, 2.8), (-1.7, 1.7), (-2.8, 2.8), (-3.0, -0.1), (-2.8, 2.8), (-0.1, 3.7), (-2.8, 2.8)];
    let mut joints = Vec::new();
    let mut parent = Parent::World;
    for (i, &m) in masses.iter().enumerate() {
        let len = if i % 2 == 0 { 0.3 } else { 0.2 };
        let body = b.add_body(m, Inertia::diagonal(0.02 * m, 0.02 * m, 0.005 * m).unwrap()).unwrap();
        let axis = if i % 2 == 0 { [0.0, 0.0, 1.0] } else { [0.0, 1.0, 0.0] };
        let p_parent = if i == 0 { [0.0; 3] } else { [0.0, 0.0, 0.5 * if (i - 1) % 2 == 0 { 0.3 } else { 0.2 }] };
        let j = b.add_joint(JointType::Revolute, parent, body, p_parent, [0.0, 0.0, -0.5 * len], axis).unwrap();
        if limited {
            b.set_joint_limits(j, &[bounds[i].0], &[bounds[i].1]).unwrap();
        }
        joints.push(j);
        parent = Parent::Body(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    for (&j, start) in joints.iter().zip([0.0, 0.3, 0.0, -1.5, 0.0, 1.8, 0.0]) {
        sim.set_joint_position(j, &[start]).unwrap();
    }
    (sim, joints, bounds)
}

/// Contacts and limits in one model: a ball resting on the ground (friction 0.5) beside a
/// pendulum resting on its limit. The contact keeps its id and report (normal force m g,
/// seen to 1.2e-13 relative), `StepStats` counts the contact only, and the limit carries
/// its static torque as without the contact (5.0e-9 relative seen).
#[test]
fn contacts_and_limits_share_the_interior_point_and_keep_their_reports() {
    let mut b = Builder::new();
    let ball = b.add_body(2.0, Inertia::diagonal(0.01, 0.01, 0.01).unwrap()).unwrap();
    b.add_ground_contact(ball, [0.0; 3], 0.1, 0.5).unwrap();
    b.add_joint(JointType::Floating, Parent::World, ball, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    let rod = b.add_body(1.0, Inertia::diagonal(0.02, 0.02, 0.001).unwrap()).unwrap();
    let j = b.add_joint(JointType::Revolute, Parent::World, rod, [2.0, 0.0, 1.0], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    b.set_joint_limits(j, &[-PI], &[-0.2]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    let mut ball_state = sim.body_state(ball).unwrap();
    ball_state[2] = 0.15;
    sim.set_body_state(ball, &ball_state).unwrap();
    sim.set_joint_position(j, &[-1.0]).unwrap();
    for _ in 0..3000 {
        let st = sim.step().unwrap();
        assert_eq!(st.contacts, 1);
        assert!(sim.limit_violation() <= 1e-8 && sim.contact(0).unwrap().gap > -1e-8);
    }
    assert_eq!(sim.contact_count(), 1);
    let c = sim.contact(0).unwrap();
    assert!((c.normal_force - 2.0 * G).abs() < 1e-11 * 2.0 * G, "{c:?}");
    assert_eq!(sim.stats().active_contacts, 1);
    let expected = -G * 0.5 * (0.2f64).sin();
    assert!((sim.limit(0).unwrap().force - expected).abs() < 1e-8 * expected.abs(), "{:?}", sim.limit(0));
}

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `Sim::step` allocates nothing with limits: far from them (Newton), hitting them and
/// resting on them (the interior point); and with a mimic between two limited joints.
#[test]
fn stepping_with_limits_and_mimics_does_not_allocate() {
    let mut b = Builder::new();
    let ja = Inertia::diagonal(0.02, 0.02, 0.001).unwrap();
    let (l1, l2) = (b.add_body(1.0, ja).unwrap(), b.add_body(1.0, ja).unwrap());
    let j1 = b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    b.set_joint_limits(j1, &[-0.3], &[2.0]).unwrap();
    b.set_joint_limits(j2, &[-0.5], &[0.5]).unwrap();
    b.add_mimic(j2, j1, 0.2, 0.0).unwrap();
    let mut mimicked = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    mimicked.set_joint_position(j1, &[1.5]).unwrap();
    mimicked.set_joint_position(j2, &[0.3]).unwrap();
    for mut sim in [pendulum(-0.3, 2.0, 1e-3, 1.5), mimicked] {
        sim.step().unwrap();
        let before = ALLOCATIONS.with(|c| c.get());
        let mut forces = 0;
        for _ in 0..1000 {
            sim.step().unwrap();
            forces += usize::from(sim.limit(0).unwrap().force > 1.0);
        }
        let n = ALLOCATIONS.with(|c| c.get()) - before;
        assert_eq!(n, 0, "Sim::step allocated {n} times");
        assert!(forces > 0, "the run hits the limit");
    }
}
