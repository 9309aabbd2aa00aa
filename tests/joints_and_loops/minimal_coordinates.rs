//! Minimal coordinates: set then get returns the values (1e-12); the resulting maximal
//! state satisfies position and velocity constraints; setting one joint keeps the others.

use crate::common;
use maxdyn::{Builder, JointType, Parent};

/// A branched mechanism using every joint type with free directions, with offsets.
fn mixed() -> (maxdyn::Sim, Vec<usize>) {
    let mut b = Builder::new();
    let kinds = [
        JointType::Revolute,
        JointType::Prismatic,
        JointType::Spherical,
        JointType::Cylindrical,
        JointType::Planar,
        JointType::PlanarAxis,
        JointType::FreeRevolute,
        JointType::CylindricalFree,
        JointType::PlanarFree,
        JointType::FixedOrientation,
        JointType::Floating,
    ];
    let mut joints = Vec::new();
    let mut parent = Parent::World;
    for (i, k) in kinds.iter().enumerate() {
        let c = common::box_body(&mut b, 1.0 + 0.1 * i as f64, 0.1, 0.2, 0.3);
        // branch: every third joint hangs from the previous-but-one body
        let p = match parent {
            Parent::Body(pb) if i % 3 == 2 && pb > 0 => Parent::Body(pb - 1),
            _ => parent,
        };
        let j = b
            .add_joint(*k, p, c, [0.05, -0.1, 0.2], [0.1, 0.02, -0.3], [0.3, -1.0, 0.5 + 0.1 * i as f64])
            .unwrap();
        b.set_joint_offset(j, [0.9, 0.1, -0.2, 0.3]).unwrap();
        joints.push(j);
        parent = Parent::Body(c);
    }
    (common::sim(&b, 0.01), joints)
}

fn values(dof: usize, seed: f64) -> Vec<f64> {
    (0..dof).map(|k| 0.4 * ((k as f64 + 1.0) * 1.7 + seed).sin()).collect()
}

#[test]
fn set_then_get_round_trips_and_state_is_consistent() {
    let (mut sim, joints) = mixed();
    for (i, &j) in joints.iter().enumerate() {
        let n = sim.joint_dof(j).unwrap();
        sim.set_joint_position(j, &values(n, i as f64)).unwrap();
        sim.set_joint_velocity(j, &values(n, 10.0 + i as f64)).unwrap();
    }
    // every joint still holds the values set, whatever was set after it
    for (i, &j) in joints.iter().enumerate() {
        let n = sim.joint_dof(j).unwrap();
        let mut p = vec![0.0; n];
        let mut v = vec![0.0; n];
        sim.joint_position(j, &mut p).unwrap();
        sim.joint_velocity(j, &mut v).unwrap();
        for (a, e) in p.iter().zip(values(n, i as f64)) {
            assert!((a - e).abs() < 1e-12, "joint {j} position {a} vs {e}");
        }
        for (a, e) in v.iter().zip(values(n, 10.0 + i as f64)) {
            assert!((a - e).abs() < 1e-12, "joint {j} velocity {a} vs {e}");
        }
    }
    let pv = sim.constraint_violation();
    let vv = sim.velocity_violation();
    assert!(pv < 1e-12, "position violation {pv:e}");
    assert!(vv < 1e-10, "velocity violation {vv:e}");
    // and the state is a good initial condition for the integrator
    for _ in 0..50 {
        let st = sim.step().unwrap();
        let v = sim.constraint_violation();
        assert!(v < 1e-9, "violation {v:e} after a step: {st:?}");
    }
}

#[test]
fn setting_a_parent_joint_moves_the_subtree_rigidly() {
    let mut sim = common::chain(4, JointType::Revolute, 0.01);
    sim.set_joint_position(2, &[0.3]).unwrap();
    sim.set_joint_position(0, &[-0.7]).unwrap();
    let mut q = [0.0];
    sim.joint_position(2, &mut q).unwrap();
    assert!((q[0] - 0.3).abs() < 1e-12);
    sim.joint_position(0, &mut q).unwrap();
    assert!((q[0] + 0.7).abs() < 1e-12);
    assert!(sim.constraint_violation() < 1e-12);
}
