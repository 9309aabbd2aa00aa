use super::*;
use crate::model::{Builder, Inertia, Parent};
use crate::JointType;
use std::sync::Arc;

/// Two 1 m links hanging along −z from the world, revolute about x, at angles (0.3, −0.7)
/// and rates (0.5, 1.5).
fn double_pendulum() -> Sim {
    let mut b = Builder::new();
    let l1 = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.01).unwrap()).unwrap();
    let l2 = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.01).unwrap()).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_position(0, &[0.3]).unwrap();
    sim.set_joint_position(1, &[-0.7]).unwrap();
    sim.set_joint_velocity(0, &[0.5]).unwrap();
    sim.set_joint_velocity(1, &[1.5]).unwrap();
    sim
}

fn times(j: &[f64], x: &[f64]) -> [f64; 6] {
    let n = x.len();
    std::array::from_fn(|i| (0..n).map(|k| j[i * n + k] * x[k]).sum())
}

/// The maximal Jacobian maps the body velocities to the target's twist (the same formula
/// rearranged: measured 4.4e-16).
#[test]
fn maximal_jacobian_times_body_velocities_is_the_twist() {
    let sim = double_pendulum();
    let mut zdot = Vec::new();
    for b in 0..2 {
        zdot.extend_from_slice(&sim.body_state(b).unwrap()[7..13]);
    }
    for axes in [Axes::World, Axes::Local] {
        let target = Target::Point { body: 1, point: [0.1, -0.2, -0.5] };
        let mut j = vec![0.0; 6 * 12];
        sim.jacobian(target, axes, Coords::Maximal, &mut j).unwrap();
        let tw = sim.target_velocity(target, axes).unwrap();
        let jz = times(&j, &zdot);
        let worst = (0..6).map(|i| (jz[i] - tw[i]).abs()).fold(0.0, f64::max);
        println!("{axes:?}: |J ż − twist| ≤ {worst:.1e}");
        assert!(worst < 1e-14, "{axes:?}: {jz:?} vs {tw:?}");
    }
}

/// The tip of the planar double pendulum: y = l1 sin θ1 + l2 sin(θ1 + θ2) (links of 1 m
/// hinged at their ends, about x; z = −(l1 cos θ1 + l2 cos(θ1 + θ2))), ω = θ̇1 + θ̇2 about x.
#[test]
fn minimal_jacobian_of_the_double_pendulum_tip_is_the_textbook_one() {
    let sim = double_pendulum();
    let mut th = [[0.0]; 2];
    sim.joint_position(0, &mut th[0]).unwrap();
    sim.joint_position(1, &mut th[1]).unwrap();
    let (t1, t12) = (th[0][0], th[0][0] + th[1][0]);
    let tip = Target::Point { body: 1, point: [0.0, 0.0, -0.5] };
    let mut j = vec![0.0; 12];
    sim.jacobian(tip, Axes::World, Coords::Minimal, &mut j).unwrap();
    let expected = [0.0, 0.0, t1.cos() + t12.cos(), t12.cos(), t1.sin() + t12.sin(), t12.sin(), 1.0, 1.0, 0.0, 0.0, 0.0, 0.0];
    for (i, (a, e)) in j.iter().zip(expected).enumerate() {
        assert!((a - e).abs() < 1e-12, "entry {i}: {a} vs {e}");
    }
    // the frame pose composes the body pose with the offset
    let p = sim.target_pose(tip).unwrap();
    assert!((p[1] - (t1.sin() + t12.sin())).abs() < 1e-12 && (p[2] + t1.cos() + t12.cos()).abs() < 1e-12, "{p:?}");
}

#[test]
fn bad_targets_and_lengths_are_refused() {
    let sim = double_pendulum();
    let mut j = vec![0.0; 12];
    assert_eq!(sim.jacobian(Target::Body(2), Axes::World, Coords::Minimal, &mut j), Err(Error::UnknownBody(2)));
    assert!(matches!(sim.jacobian(Target::Frame(0), Axes::World, Coords::Minimal, &mut j), Err(Error::InvalidArgument("frame", _))));
    assert!(matches!(sim.jacobian(Target::Body(0), Axes::World, Coords::Maximal, &mut j), Err(Error::WrongLength { .. })));
    assert_eq!(sim.target_velocity(Target::Point { body: 0, point: [f64::NAN, 0.0, 0.0] }, Axes::World), Err(Error::NonFinite("point")));
}
