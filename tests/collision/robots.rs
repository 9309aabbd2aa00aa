//! Robots loaded from URDF with their collision shapes: the A1 standing on its foot
//! spheres, the panda's fingers closing on each other with self-collision on.

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};
use std::sync::Arc;

const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/a1_unitree_ros.urdf");

/// The A1 from its URDF with collision shapes and a ground plane (no hand-placed contacts,
/// the file's joint limits on), dropped onto its feet and held by joint PD control at a
/// standing pose: after 4 s it stands still on its four foot spheres, which carry its
/// weight, and nothing sinks. (Its calf shapes come within the contact margin of the
/// ground and are reported, carrying nothing.)
#[test]
fn a1_from_urdf_stands_on_its_collision_spheres() {
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, ..UrdfOptions::default() };
    let u = Urdf::from_file_with(A1, &options).unwrap();
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let total_mass: f64 = model.bodies.iter().map(|b| b.mass).sum();
    let legs = ["FR", "FL", "RR", "RL"];
    let joints: Vec<[usize; 3]> = legs.iter().map(|l| ["hip", "thigh", "calf"].map(|p| u.joint(&format!("{l}_{p}_joint")).unwrap())).collect();
    let feet: Vec<usize> = legs.iter().map(|l| u.body_of(&format!("{l}_foot")).unwrap()).collect();
    let trunk = u.body_of("trunk").unwrap();
    // the gains of the paper's quadruped scene (scenes::quadruped), per hip, thigh, calf
    let (target, kp, kd) = ([0.0, 0.9, -1.8], [100.0, 80.0, 60.0], [5.0, 4.0, 3.0]);
    let mut sim = Sim::new(model.clone(), 0.001).unwrap();
    for leg in &joints {
        for (k, &j) in leg.iter().enumerate() {
            sim.set_joint_position(j, &[target[k]]).unwrap();
        }
    }
    // lift the robot so its lowest leg body's centre of mass is 0.3 m up: the foot spheres
    // start a few centimetres above the ground
    let lowest = feet.iter().map(|&f| sim.body_state(f).unwrap()[2]).fold(f64::INFINITY, f64::min);
    for i in 0..model.body_count() {
        let mut s = sim.body_state(i).unwrap();
        s[2] += 0.3 - lowest;
        sim.set_body_state(i, &s).unwrap();
    }
    let (mut q, mut w) = ([0.0], [0.0]);
    let mut worst_gap = f64::INFINITY;
    for _ in 0..4000 {
        for leg in &joints {
            for (i, &j) in leg.iter().enumerate() {
                sim.joint_position(j, &mut q).unwrap();
                sim.joint_velocity(j, &mut w).unwrap();
                sim.set_joint_input(j, &[kp[i] * (target[i] - q[0]) - kd[i] * w[0]]).unwrap();
            }
        }
        sim.step().unwrap();
        worst_gap = worst_gap.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
    }
    let reports: Vec<_> = sim.shape_contacts().collect();
    // points within the contact margin are reported too; those that carry the robot
    let carrying: Vec<_> = reports.iter().filter(|c| c.normal_force > 1e-6 * total_mass * 9.81).collect();
    let sphere = |shape: usize| model.collision.shapes[shape].geometry.kind() == maxdyn::ShapeKind::Sphere;
    let on_feet = carrying.iter().filter(|c| feet.contains(&c.body_a) && c.body_b.is_none() && sphere(c.shapes[0])).count();
    let load: f64 = reports.iter().map(|c| c.normal_force).sum();
    let s = sim.body_state(trunk).unwrap();
    let speed = (s[7] * s[7] + s[8] * s[8] + s[9] * s[9]).sqrt();
    println!("A1: {} contacts ({on_feet} foot–ground), load {load} N vs m g {} N, trunk height {}, speed {speed:e}, worst gap {worst_gap:e}, rebuilds {}", reports.len(), total_mass * 9.81, s[2], sim.layout_rebuilds());
    assert_eq!((carrying.len(), on_feet), (4, 4), "stands on its four foot spheres only: {carrying:?}");
    // measured 1.1e-7 relative and 7.1e-7 m/s (the PD's last slow sway)
    assert!((load - total_mass * 9.81).abs() < 5e-7 * total_mass * 9.81, "the feet carry its weight: {load}");
    assert!(speed < 2e-6, "stands still: {speed:e}");
    assert!(worst_gap > -1e-9, "a foot sank {worst_gap:e}");
}

const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda_collision.urdf");

/// The panda of example-robot-data with its primitive collision shapes, joint limits off
/// (so only the shapes can stop the fingers), no gravity: the fingers, opened 2 cm each
/// and pushed shut by 10 N on the leading finger joint, stop where their pads' spheres
/// meet (opening 0 in the file's geometry) and do not pass through each other.
///
/// Self-collision for the fingers' pair, by collision groups: the file's capsules of
/// non-adjacent links overlap at the home pose (links 0 and 2 by 3.4 cm), so, as with an
/// SRDF's disabled pairs, a user turns self-collision on for the pairs that matter.
#[test]
fn panda_fingers_do_not_pass_through_each_other() {
    if !crate::require::corpus("panda_fingers_do_not_pass_through_each_other", PANDA) {
        return;
    }
    let options = UrdfOptions { collision: true, joint_limits: false, ..UrdfOptions::default() };
    let mut u = Urdf::from_file_with(PANDA, &options).unwrap();
    u.builder.set_gravity([0.0; 3]).unwrap();
    let fingers = [u.body_of("panda_leftfinger").unwrap(), u.body_of("panda_rightfinger").unwrap()];
    for s in 0..u.builder.shape_count() {
        if u.builder.shape(s).unwrap().body.is_some_and(|b| fingers.contains(&b)) {
            u.builder.set_collision_filter(s, 4, 4).unwrap();
        }
    }
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let (finger, follower) = (u.joint("panda_finger_joint1").unwrap(), u.joint("panda_finger_joint2").unwrap());
    let [left, right] = fingers;
    let mut sim = Sim::new(model, 0.001).unwrap();
    sim.set_joint_position(finger, &[0.02]).unwrap();
    sim.set_joint_position(follower, &[0.02]).unwrap();
    sim.set_joint_input(finger, &[-10.0]).unwrap();
    let (mut worst_gap, mut q) = (f64::INFINITY, [0.0]);
    let between = |c: &maxdyn::ShapeContactReport| (c.body_a, c.body_b) == (left, Some(right)) || (c.body_a, c.body_b) == (right, Some(left));
    for _ in 0..500 {
        sim.step().unwrap();
        worst_gap = worst_gap.min(sim.shape_contacts().filter(|c| between(c)).map(|c| c.gap).fold(f64::INFINITY, f64::min));
    }
    sim.joint_position(finger, &mut q).unwrap();
    let force: f64 = sim.shape_contacts().filter(|c| between(c)).map(|c| c.normal_force).sum();
    println!("panda fingers: opening {:e} m, worst gap between them {worst_gap:e}, pressing {force} N", q[0]);
    assert!(worst_gap > -1e-9, "the fingers pass into each other by {worst_gap:e}");
    assert!(q[0] > -1e-9 && q[0] < 1e-6, "closed at the pads: opening {}", q[0]);
    // the mimic shares the 10 N between the two fingers: each presses with 5 N (measured
    // 5.000000047)
    assert!((force - 5.0).abs() < 1e-7, "the fingers press on each other: {force} N");
}
