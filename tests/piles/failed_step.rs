//! A failed step changes nothing (issue 24 part 4): state, its size, the contact layout,
//! the reports, and a retry fails identically; with described contacts, with collision
//! shapes whose layout the failed step's search changed, with a start in penetration
//! that the failed step had projected out, and on a chain with none of them (whose step
//! saves nothing before it: only its solve can fail).

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim, SolverOptions};
use std::sync::Arc;

fn saved(sim: &Sim) -> Vec<u64> {
    let mut out = vec![0.0; sim.state_size()];
    sim.get_state(&mut out).unwrap();
    out.iter().map(|v| v.to_bits()).collect()
}

fn force_failure(sim: &mut Sim) {
    let o = sim.options();
    sim.set_options(SolverOptions { max_iterations: 2, contact_warm_start: false, max_splits: 1, ..o }).unwrap();
}

/// A box on four corner contacts (described), resting: a step forced to fail (2 iterations)
/// leaves the saved state, its size, the contact reports and the stats of a retry
/// bit-identical, and the next step with the options back is the one it would have been.
#[test]
fn a_failed_step_with_described_contacts_changes_nothing() {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.5, 0.5, 0.5).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.25], [1.0, 0.0, 0.0, 0.0]).unwrap();
    for (x, y) in [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)] {
        b.add_ground_contact(body, [x, y, -0.25], 0.0, 0.5).unwrap();
    }
    let model = Arc::new(Model::new(&b).unwrap());
    let mut sim = Sim::new(model.clone(), 0.01).unwrap();
    let mut twin = Sim::new(model, 0.01).unwrap();
    for _ in 0..5 {
        sim.step().unwrap();
        twin.step().unwrap();
    }
    let (before, reports) = (saved(&sim), (0..4).map(|c| sim.contact(c).unwrap().to_array().map(f64::to_bits)).collect::<Vec<_>>());
    let options = sim.options();
    force_failure(&mut sim);
    assert!(sim.step().is_err());
    let first = *sim.stats();
    assert!(sim.step().is_err());
    assert_eq!(*sim.stats(), first, "a retry fails identically");
    assert_eq!(saved(&sim), before, "saved state");
    assert_eq!((0..4).map(|c| sim.contact(c).unwrap().to_array().map(f64::to_bits)).collect::<Vec<_>>(), reports);
    sim.set_options(options).unwrap();
    sim.step().unwrap();
    twin.step().unwrap();
    assert_eq!(saved(&sim), saved(&twin), "the next step is the one it would have been");
}

/// A double pendulum, moving (no contacts, shapes or limits: `step::advance` saves no
/// checkpoint, the split puts back its own): a step forced to fail in its halves too
/// leaves the saved state bit-identical, a retry fails identically, and with the options
/// back the next step is the one a twin takes.
#[test]
fn a_failed_step_without_contacts_changes_nothing() {
    let mut sim = maxdyn_scenes::mechanisms::pendulum_chain(2, false, 0.01);
    let mut twin = maxdyn_scenes::mechanisms::pendulum_chain(2, false, 0.01);
    for _ in 0..20 {
        sim.step().unwrap();
        twin.step().unwrap();
    }
    let (before, options) = (saved(&sim), sim.options());
    // one iteration at an unreachable tolerance: every attempt fails, the halves too
    sim.set_options(SolverOptions { max_iterations: 1, tolerance: 1e-300, acceptance: 1e-300, max_splits: 2, ..options }).unwrap();
    assert!(sim.step().is_err());
    let first = *sim.stats();
    assert!(sim.step().is_err());
    assert_eq!(*sim.stats(), first, "a retry fails identically");
    assert_eq!(saved(&sim), before, "saved state");
    sim.set_options(options).unwrap();
    sim.step().unwrap();
    twin.step().unwrap();
    assert_eq!(saved(&sim), saved(&twin), "the next step is the one it would have been");
}

/// The shape contacts' reports as bits.
fn shape_reports(sim: &Sim) -> Vec<([usize; 2], [u64; 4])> {
    sim.shape_contacts().map(|c| (c.shapes, [c.gap, c.normal_force, c.friction_force[0], c.friction_force[2]].map(f64::to_bits))).collect()
}

/// A box shape falling onto a plane shape: the step that brings it into contact (the
/// search compiles a new layout), forced to fail, leaves the saved state (65 + the
/// capacity's slots (2305 doubles), the same size before and after), the layout, the reports and a
/// retry's stats bit-identical; with the options back, the step is the one a twin takes.
#[test]
fn a_failed_step_with_collision_shapes_keeps_the_layout_it_had() {
    let mut b = Builder::new();
    let id = [1.0, 0.0, 0.0, 0.0];
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], id, &[]).unwrap();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.1 + 0.02], [0.9998, 0.02, 0.0, 0.0]).unwrap();
    b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], id, &[0.1, 0.1, 0.1]).unwrap();
    let model = Arc::new(Model::new(&b).unwrap());
    let mut sim = Sim::new(model.clone(), 0.01).unwrap();
    let mut twin = Sim::new(model.clone(), 0.01).unwrap();
    let size = sim.state_size();
    assert_eq!(model.collision.slot_capacity(), 64, "the default capacity of one shape on a body");
    assert_eq!(size, 65 + 64 * 35, "65 doubles of the box's own state (with the older velocities of the warm start and their intervals) and 64 slots of 35");
    // falling, no contact yet
    while sim.contact_slots() == 0 {
        let before = (saved(&sim), sim.layout_rebuilds());
        let options = sim.options();
        force_failure(&mut sim);
        match sim.step() {
            Ok(_) => {
                sim.set_options(options).unwrap();
                twin.step().unwrap();
                assert_eq!(saved(&sim), saved(&twin));
                continue;
            }
            Err(_) => {}
        }
        // the search found the plane and compiled a layout for it; the failed step put it back
        let first = *sim.stats();
        assert_eq!((saved(&sim), sim.layout_rebuilds(), sim.contact_slots()), (before.0.clone(), before.1, 0), "state and layout unchanged");
        assert!(sim.step().is_err());
        assert_eq!(*sim.stats(), first, "a retry fails identically");
        assert_eq!(saved(&sim), before.0, "saved state after the retry");
        sim.set_options(options).unwrap();
        sim.step().unwrap();
        twin.step().unwrap();
        assert_eq!(saved(&sim), saved(&twin), "the next step is the one it would have been");
        assert_eq!(shape_reports(&sim), shape_reports(&twin));
    }
    assert!(sim.contact_slots() > 0 && sim.state_size() == size, "the size stays {size} with contacts");
    // resting on the plane: a failure keeps the slots' points and forces too
    for _ in 0..20 {
        sim.step().unwrap();
        twin.step().unwrap();
    }
    let (before, reports) = (saved(&sim), shape_reports(&sim));
    let options = sim.options();
    force_failure(&mut sim);
    assert!(sim.step().is_err());
    assert_eq!((saved(&sim), shape_reports(&sim)), (before, reports));
    sim.set_options(options).unwrap();
    sim.step().unwrap();
    twin.step().unwrap();
    assert_eq!(saved(&sim), saved(&twin));
}

/// A box started 5 cm inside the plane: the projection moves it out, then the step is
/// forced to fail; the box is back where the caller put it, in penetration.
#[test]
fn a_failed_step_after_a_projection_leaves_the_start_where_it_was() {
    let mut b = Builder::new();
    let id = [1.0, 0.0, 0.0, 0.0];
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], id, &[]).unwrap();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.05], id).unwrap();
    b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], id, &[0.1, 0.1, 0.1]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let before = saved(&sim);
    let options = sim.options();
    sim.set_options(SolverOptions { max_iterations: 1, max_splits: 0, ..options }).unwrap();
    assert!(sim.step().is_err());
    assert_eq!(saved(&sim), before, "the projection's move is undone");
    assert_eq!(sim.body_state(0).unwrap()[2], 0.05);
    sim.set_options(options).unwrap();
    sim.step().unwrap();
    assert!(sim.body_state(0).unwrap()[2] > 0.1 - 1e-6, "projected out by the step that succeeds");
}
