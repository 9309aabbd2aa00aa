//! `Sim::collision_search`: the collision stage of the next step run alone (what
//! benches/collision_stage.rs times) finds what the step then uses, and leaves the
//! rollout as it would have been.

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

/// A box resting on its face on the ground and a ball resting on the box.
fn box_and_ball() -> Sim {
    let id = [1.0, 0.0, 0.0, 0.0];
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], id, &[]).unwrap();
    let cube = b.add_body(1.0, Inertia::cuboid(1.0, 0.4, 0.4, 0.2).unwrap()).unwrap();
    b.set_body_pose(cube, [0.0, 0.0, 0.1], id).unwrap();
    b.add_shape(cube.into(), ShapeKind::Box, [0.0; 3], id, &[0.2, 0.2, 0.1]).unwrap();
    let ball = b.add_body(0.5, Inertia::sphere(0.5, 0.05).unwrap()).unwrap();
    b.set_body_pose(ball, [0.05, 0.0, 0.25], id).unwrap();
    b.add_shape(ball.into(), ShapeKind::Sphere, [0.0; 3], id, &[0.05]).unwrap();
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

#[test]
fn the_search_finds_what_the_next_step_uses() {
    let mut sim = box_and_ball();
    for _ in 0..20 {
        sim.step().unwrap();
    }
    let found = sim.collision_search();
    sim.step().unwrap();
    let mut pairs: Vec<_> = sim.shape_contacts().map(|c| c.shapes).collect();
    pairs.dedup();
    println!("search: {found:?}; the step: {} points in {} pairs", sim.shape_contact_count(), pairs.len());
    // box–ground: 4 corners, ball–box: 1; the ball and the ground are 0.2 m apart, beyond
    // the 0.05 m margin, so the narrow phase runs on the two touching pairs only
    assert_eq!((found.tested_pairs, found.pairs, found.points), (2, 2, 5), "{found:?}");
    assert_eq!((sim.shape_contact_count(), pairs.len()), (found.points, found.pairs));
}

#[test]
fn a_search_between_steps_changes_nothing() {
    let (mut searched, mut plain) = (box_and_ball(), box_and_ball());
    // the ball dropped from 1 cm: pairs enter during the rollout
    for sim in [&mut searched, &mut plain] {
        let mut s = sim.body_state(1).unwrap();
        s[2] += 0.01;
        sim.set_body_state(1, &s).unwrap();
    }
    let (mut a, mut b) = (vec![0.0; searched.state_size()], vec![0.0; plain.state_size()]);
    for _ in 0..50 {
        searched.collision_search();
        searched.step().unwrap();
        plain.step().unwrap();
    }
    searched.get_state(&mut a).unwrap();
    plain.get_state(&mut b).unwrap();
    assert_eq!(a, b, "the search between steps changed the rollout");
    assert_eq!(searched.layout_rebuilds(), plain.layout_rebuilds());
}
