//! The Panda (`panda.urdf` of example-robot-data: its link meshes as convex hulls, its
//! fingers' boxes) closes its fingers on a 4 cm cube and they stop at the cube's faces
//! (issue 25). Fixed base, no gravity, the arm held at its SRDF's home pose by joint
//! springs and dampers; the cube a free body centred between the finger pads.

use maxdyn::math::{qmul, rotation, V3, V4};
use maxdyn::model::shape::Geometry;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

pub const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf");

/// Half the cube's edge (m).
const HALF: f64 = 0.02;

pub const SRDF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/srdf/panda.srdf");

/// Where a finger's grasping face is, from the file's geometry: the rubber tip's box (size
/// y 15.2e-3 at y ±7.58e-3 in the finger frame, the finger frame at the joint coordinate
/// q along the closing axis) reaches 7.6e-3 − 7.58e-3 = 2e-5 m past the finger frame
/// towards the other finger (so the fingers meet at q = −2e-5, 4e-5 m in at q = 0). The
/// finger's other boxes stay further out (the diagonal's inner edge at q + 6.99e-3).
pub const PAD_INSET: f64 = 7.6e-3 - 7.58e-3;

/// Closed by a spring on the leading finger joint towards −1 cm (beyond the cube; the
/// mimic moves the other) and a damper, so they close at about 0.2 m/s, the Panda
/// gripper's rated speed: 200 N/m, 20 N·s/m.
#[test]
fn the_panda_fingers_close_on_a_box_and_stop_at_its_faces() {
    let test = "the_panda_fingers_close_on_a_box_and_stop_at_its_faces";
    if !crate::require::corpus(test, PANDA) || !crate::require::corpus(test, SRDF) {
        return;
    }
    // the home pose: the SRDF's `default` group state, joints 1 to 7 (rad)
    let home = crate::srdf::group_state(&std::fs::read_to_string(SRDF).unwrap(), "default");
    let options = UrdfOptions { collision: true, ..UrdfOptions::default() };
    let mut u = Urdf::from_file_with(PANDA, &options).unwrap();
    u.builder.set_gravity([0.0; 3]).unwrap();
    let arm: Vec<(usize, f64)> = home.iter().filter(|(name, _)| name.starts_with("panda_joint")).map(|(name, v)| (u.joint(name).unwrap(), *v)).collect();
    assert_eq!(arm.len(), 7, "{home:?}");
    for &(j, rest) in &arm {
        u.builder.set_joint_spring(j, &[1000.0], &[rest]).unwrap();
        u.builder.set_joint_damper(j, &[10.0]).unwrap();
    }
    // the rubber tip is the left finger's 4th box, on the finger's body at its link frame
    let tip = u.builder.shape(u.link_shapes["panda_leftfinger"][3]).unwrap();
    let Geometry::Box { half_extents } = tip.geometry else { panic!("the tip is a box: {tip:?}") };
    assert!((half_extents.y - tip.x.y - PAD_INSET).abs() < 1e-17, "the pad's inner face: {tip:?}");
    let (finger, follower) = (u.joint("panda_finger_joint1").unwrap(), u.joint("panda_finger_joint2").unwrap());
    u.builder.set_joint_spring(finger, &[200.0], &[-0.01]).unwrap();
    u.builder.set_joint_damper(finger, &[20.0]).unwrap();
    // the cube: 100 g, default group (the robot's shapes collide with it), placed below
    let cube = u.builder.add_body(0.1, Inertia::cuboid(0.1, 2.0 * HALF, 2.0 * HALF, 2.0 * HALF).unwrap()).unwrap();
    u.builder.add_shape(Parent::Body(cube), ShapeKind::Box, [0.0; 3], [1.0, 0.0, 0.0, 0.0], &[HALF; 3]).unwrap();
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let mut sim = Sim::new(model, 0.001).unwrap();
    for &(j, q) in &arm {
        sim.set_joint_position(j, &[q]).unwrap();
    }
    sim.set_joint_position(finger, &[0.04]).unwrap();
    sim.set_joint_position(follower, &[0.04]).unwrap();
    // the cube centred between the pads: at the hand's TCP (0.1034 m along its z), aligned
    let hand = u.frame("panda_hand").unwrap();
    let b = sim.body_state(hand.body.unwrap()).unwrap();
    let bq = V4::new(b[3], b[4], b[5], b[6]);
    let hand_q = qmul(&bq, &V4::from(hand.q));
    let centre = V3::new(b[0], b[1], b[2]) + rotation(&bq) * V3::from(hand.x) + rotation(&hand_q) * V3::new(0.0, 0.0, 0.1034);
    sim.set_body_state(cube, &[centre.x, centre.y, centre.z, hand_q[0], hand_q[1], hand_q[2], hand_q[3], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]).unwrap();
    let on_cube = |c: &maxdyn::ShapeContactReport| c.body_a == cube || c.body_b == Some(cube);
    let (mut worst, mut q, mut q2) = (f64::INFINITY, [0.0], [0.0]);
    let mut touched = None;
    for k in 0..1000 {
        if let Err(e) = sim.step() {
            panic!("step {k}: {e}; {:?}", sim.stats());
        }
        worst = sim.shape_contacts().filter(on_cube).map(|c| c.gap).fold(worst, f64::min);
        if touched.is_none() && sim.shape_contacts().any(|c| on_cube(&c) && c.normal_force > 0.0) {
            touched = Some(k);
        }
    }
    sim.joint_position(finger, &mut q).unwrap();
    sim.joint_position(follower, &mut q2).unwrap();
    let pressing: Vec<_> = sim.shape_contacts().filter(|c| on_cube(c) && c.normal_force > 1e-6).collect();
    let force: f64 = pressing.iter().map(|c| c.normal_force).sum();
    let cube_state = sim.body_state(cube).unwrap();
    let moved = (V3::new(cube_state[0], cube_state[1], cube_state[2]) - centre).norm();
    println!(
        "panda grasp: touched at step {touched:?}, fingers at {:e}, {:e} m (cube half width + inset {:e}), worst gap {worst:e}, {} points pressing {force} N, cube moved {moved:e} m",
        q[0],
        q2[0],
        HALF + PAD_INSET,
        pressing.len()
    );
    // measured: first touch at step 52, both fingers at HALF + PAD_INSET + 7.2e-14 m,
    // deepest gap −2.6e-15 m, 4 points per pad, 6.004 N (the spring: 200 · 0.03002), the
    // cube moved 7.6e-15 m
    assert!(touched.is_some_and(|k| k > 40), "the fingers reach the cube after closing 2 cm: {touched:?}");
    assert!(worst > -1e-12, "a finger entered the cube by {:e} m", -worst);
    for (name, qi) in [("left", q[0]), ("right", q2[0])] {
        assert!((qi - (HALF + PAD_INSET)).abs() < 1e-12, "the {name} finger stops at the cube's face: {qi:e}");
    }
    let per_finger = |body| pressing.iter().filter(|c| c.body_a == body).count();
    assert_eq!((per_finger(u.body_of("panda_leftfinger").unwrap()), per_finger(u.body_of("panda_rightfinger").unwrap()), pressing.len()), (4, 4, 8));
    assert!((force - 200.0 * (q[0] + 0.01)).abs() < 1e-9 * force, "the pads carry the closing spring's force: {force} N");
    assert!(moved < 1e-12, "the cube is squeezed, not pushed: moved {moved:e} m");
}
