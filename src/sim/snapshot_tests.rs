//! Tests of the state layout (`snapshot`).

use super::*;
use crate::model::{Builder, Inertia, Model, Parent};
use crate::JointType;
use std::sync::Arc;

fn pendulum() -> Sim {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.1).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, -1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

#[test]
fn header_names_version_and_counts() {
    let sim = pendulum();
    let mut s = vec![0.0; sim.state_size()];
    sim.get_state(&mut s).unwrap();
    assert_eq!(s[0], STATE_VERSION);
    assert_eq!(s[1], 1.0); // bodies
    assert_eq!(s[2], 1.0); // joints
    assert_eq!(s[COUNTS] as usize, s.len());
}

#[test]
fn round_trip_is_the_identity_and_bad_input_changes_nothing() {
    let mut sim = pendulum();
    sim.set_joint_velocity(0, &[1.0]).unwrap();
    for _ in 0..10 {
        sim.step().unwrap();
    }
    let n = sim.state_size();
    let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
    sim.get_state(&mut a).unwrap();
    sim.set_state(&a).unwrap();
    sim.get_state(&mut b).unwrap();
    assert_eq!(a, b);
    let mut bad = a.clone();
    bad[HEADER + 4 + 3] = 2.0; // q_w of the body: norm ≠ 1
    assert!(matches!(sim.set_state(&bad), Err(Error::InvalidArgument("state", _))));
    bad = a.clone();
    bad[HEADER] = 0.0; // dt
    assert_eq!(sim.set_state(&bad), Err(Error::InvalidTimeStep(0.0)));
    bad = a.clone();
    bad[n - 1] = f64::NAN;
    assert_eq!(sim.set_state(&bad), Err(Error::NonFinite("state")));
    assert!(matches!(sim.set_state(&a[..n - 1]), Err(Error::WrongLength { .. })));
    sim.get_state(&mut b).unwrap();
    assert_eq!(a, b);
}
