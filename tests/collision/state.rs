//! The exact state with collision shapes: restoring replays bit for bit although the
//! contact layout changed in between (the state carries its pairs and slots).

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// Three boxes and a sphere dropped onto the floor and each other.
fn scene() -> Arc<Model> {
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    for i in 0..3 {
        let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap()).unwrap();
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
    assert_ne!(at_start.len(), after_300.len(), "the contacts change the state's size");
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
    let pairs = bad[8] as usize;
    let slots = bad[9] as usize;
    let section = n - 3 * pairs - 14 * slots;
    bad[section] = 99.0;
    assert!(fresh.set_state(&bad).is_err());
    assert_eq!(run(&mut fresh, 0), after_300, "a refused state changes nothing");
}
