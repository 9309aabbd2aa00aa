//! The exact state with collision shapes: its size is the model's (the contact slots of
//! its capacity), and restoring replays bit for bit although the contact layout changed
//! in between (the state carries its pairs and slots).

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// Three boxes and a sphere dropped onto the floor and each other.
fn scene() -> Arc<Model> {
    scene_with_middle_box(1.0)
}

/// The scene with the middle box of mass `mass` (kg; the others 1 kg).
fn scene_with_middle_box(mass: f64) -> Arc<Model> {
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    for i in 0..3 {
        let m = if i == 1 { mass } else { 1.0 };
        let body = b.add_body(m, Inertia::cuboid(m, 0.2, 0.2, 0.2).unwrap()).unwrap();
        let turn: f64 = 0.3 * i as f64;
        b.set_body_pose(body, [0.03 * i as f64, 0.0, 0.15 + 0.25 * i as f64], [(turn / 2.0).cos(), 0.0, 0.0, (turn / 2.0).sin()]).unwrap();
        b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &[0.1, 0.1, 0.1]).unwrap();
    }
    let ball = b.add_body(0.5, Inertia::sphere(0.5, 0.05).unwrap()).unwrap();
    b.set_body_pose(ball, [0.02, 0.01, 1.0], ID).unwrap();
    b.add_shape(ball.into(), ShapeKind::Sphere, [0.0; 3], ID, &[0.05]).unwrap();
    Arc::new(Model::new(&b).unwrap())
}

fn run(sim: &mut Sim, steps: usize) -> Vec<f64> {
    for _ in 0..steps {
        sim.step().unwrap();
    }
    let mut s = vec![0.0; sim.state_size()];
    sim.get_state(&mut s).unwrap();
    s
}

#[test]
fn restore_replays_through_contact_layout_changes() {
    let model = scene();
    let mut sim = Sim::new(model.clone(), 0.01).unwrap();
    let at_start = run(&mut sim, 0);
    let after_100 = run(&mut sim, 100);
    let after_300 = run(&mut sim, 200);
    assert!(sim.layout_rebuilds() >= 3, "the layout changed {} times", sim.layout_rebuilds());
    assert_eq!(at_start.len(), after_300.len(), "the contacts do not change the state's size");
    assert_eq!(at_start.len(), Sim::new(model.clone(), 0.01).unwrap().state_size(), "a fresh sim's");
    // back to the start (no pairs) and forward again, in the same sim
    sim.set_state(&at_start).unwrap();
    assert_eq!(run(&mut sim, 300), after_300, "replay from the start");
    // a fresh sim from the middle (boxes landing), and a clone
    let mut fresh = Sim::new(model, 0.01).unwrap();
    fresh.set_state(&after_100).unwrap();
    let mut twin = fresh.clone();
    assert_eq!(run(&mut fresh, 200), after_300, "replay in a fresh sim");
    assert_eq!(run(&mut twin, 200), after_300, "replay in a clone");
    let reports = |s: &Sim| s.shape_contacts().map(|c| (c.shapes, c.normal_force.to_bits())).collect::<Vec<_>>();
    assert_eq!(reports(&fresh), reports(&sim), "the contact reports are restored too");
    // a state whose pairs name shapes of another model is refused, nothing changed
    let mut bad = after_300.clone();
    let n = bad.len();
    let (capacity, record) = (bad[8] as usize, bad[9] as usize);
    let records = n - capacity * record;
    assert!(bad[records] >= 0.0, "the first slot is used");
    bad[records] = 99.0;
    let e = fresh.set_state(&bad).unwrap_err().to_string();
    assert!(e.contains("names shapes 99"), "{e}");
    assert_eq!(run(&mut fresh, 0), after_300, "a refused state changes nothing");
}

/// A state from a model of the same structure with other numbers (one body twice as
/// heavy) is refused by the model's fingerprint, and nothing changes.
#[test]
fn another_models_state_is_refused() {
    let (model, heavier) = (scene(), scene_with_middle_box(2.0));
    let mut sim = Sim::new(model, 0.01).unwrap();
    let mut other = Sim::new(heavier, 0.01).unwrap();
    let theirs = run(&mut other, 10);
    let ours = run(&mut sim, 10);
    assert_eq!(theirs.len(), ours.len());
    let e = sim.set_state(&theirs).unwrap_err().to_string();
    assert!(e.contains("saved from another model") && e.contains("differ"), "{e}");
    assert_eq!(run(&mut sim, 0), ours, "nothing changed");
}

/// A capacity below what a step needs refuses the step with the numbers, and changes
/// nothing; the state's size follows the capacity set.
#[test]
fn a_step_beyond_the_contact_capacity_is_refused() {
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.1], ID).unwrap();
    b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &[0.1, 0.1, 0.1]).unwrap();
    b.set_contact_capacity(3).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let before = run(&mut sim, 0);
    let e = sim.step().unwrap_err();
    assert!(matches!(e, maxdyn::Error::ContactCapacity { needed: 4, capacity: 3 }), "{e}");
    assert_eq!(run(&mut sim, 0), before, "nothing changed");
    b.set_contact_capacity(4).unwrap();
    let mut roomy = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let record = before[9] as usize;
    assert_eq!(roomy.state_size(), before.len() + record, "one slot more");
    roomy.step().unwrap();
    assert_eq!(roomy.contact_slots(), 4);
    assert!(b.set_contact_capacity(1_000_001).is_err());
}
