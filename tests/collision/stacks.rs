//! Many bodies touching each other: a stack of ten boxes, a hundred spheres poured into a
//! box of walls.

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// Ten boxes stacked (each 0.1 m high, alternately turned 0.1 rad) stand still for 10 s:
/// no box creeps more than 1e-6 m, no contact sinks.
#[test]
fn stack_of_ten_boxes_stands_still() {
    let (n, h) = (10, [0.2, 0.15, 0.05]);
    let mut b = Builder::new();
    let floor = b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    b.set_shape_friction(floor, 0.8).unwrap();
    let mut bodies = Vec::new();
    for i in 0..n {
        let body = b.add_body(1.0, Inertia::cuboid(1.0, 2.0 * h[0], 2.0 * h[1], 2.0 * h[2]).unwrap()).unwrap();
        let turn: f64 = if i % 2 == 0 { 0.0 } else { 0.1 };
        b.set_body_pose(body, [0.0, 0.0, h[2] * (2 * i + 1) as f64], [(turn / 2.0).cos(), 0.0, 0.0, (turn / 2.0).sin()]).unwrap();
        let s = b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &h).unwrap();
        b.set_shape_friction(s, 0.8).unwrap();
        bodies.push(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let start: Vec<[f64; 13]> = bodies.iter().map(|&i| sim.body_state(i).unwrap()).collect();
    let mut worst_gap = f64::INFINITY;
    for _ in 0..1000 {
        sim.step().unwrap();
        worst_gap = worst_gap.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
    }
    let creep = bodies.iter().zip(&start).map(|(&i, s0)| {
        let s = sim.body_state(i).unwrap();
        (0..3).map(|k| (s[k] - s0[k]).abs()).fold(0.0, f64::max)
    });
    let creep = creep.fold(0.0, f64::max);
    let count = sim.shape_contact_count();
    println!("stack: creep {creep:e} m, worst gap {worst_gap:e}, {count} points, {} layout rebuilds", sim.layout_rebuilds());
    // measured 1.2e-9 m (the bar: 1e-6)
    assert!(creep < 5e-9, "creep {creep:e}");
    assert!(worst_gap > -1e-9, "sank {worst_gap:e}");
    assert!(count >= 4 * n, "{count} points");
}

/// A hundred frictionless spheres dropped in four layers into a box of walls settle on the
/// floor and on each other without sinking into anything.
///
/// Frictionless: with friction, a sphere resting in the pocket of four below it makes the
/// contact forces statically indeterminate, and the interior point stalls at an equality
/// residual of ~4e-8 (above its 1e-8 acceptance) when the second layer lands. The same
/// scene with described contacts (`Builder::add_sphere_contact` for every pair) stalls
/// at the same step: a limit of the contact solver, not of the collision search.
#[test]
fn hundred_spheres_settle_in_a_box() {
    let (r, half) = (0.05, 0.3);
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    let q = |axis: usize, a: f64| {
        let mut q = [(a / 2.0).cos(), 0.0, 0.0, 0.0];
        q[1 + axis] = (a / 2.0).sin();
        q
    };
    let quarter = std::f64::consts::FRAC_PI_2;
    b.add_shape(Parent::World, ShapeKind::Plane, [half, 0.0, 0.0], q(1, -quarter), &[]).unwrap();
    b.add_shape(Parent::World, ShapeKind::Plane, [-half, 0.0, 0.0], q(1, quarter), &[]).unwrap();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0, half, 0.0], q(0, quarter), &[]).unwrap();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0, -half, 0.0], q(0, -quarter), &[]).unwrap();
    let mut bodies = Vec::new();
    for i in 0..100 {
        let body = b.add_body(0.1, Inertia::sphere(0.1, r).unwrap()).unwrap();
        // layers of a 4 × 4 grid 0.13 m apart (the last layer partly filled), each shifted
        let (gx, gy, layer) = ((i % 4) as f64, ((i / 4) % 4) as f64, (i / 16) as f64);
        let shift = 0.012 * (layer - 3.0);
        b.set_body_pose(body, [-0.2 + 0.13 * gx + shift, -0.2 + 0.13 * gy - 0.7 * shift, 0.1 + 0.14 * layer], ID).unwrap();
        let s = b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], ID, &[r]).unwrap();
        b.set_shape_friction(s, 0.0).unwrap();
        bodies.push(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let mut worst_gap = f64::INFINITY;
    for _ in 0..300 {
        sim.step().unwrap();
        worst_gap = worst_gap.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
    }
    let inside = bodies.iter().map(|&i| {
        let s = sim.body_state(i).unwrap();
        (half - r - s[0].abs()).min(half - r - s[1].abs()).min(s[2] - r)
    });
    let inside = inside.fold(f64::INFINITY, f64::min);
    let (k, _) = sim.energy();
    println!("100 spheres: worst gap {worst_gap:e}, worst wall/floor clearance {inside:e}, kinetic energy {k:e} J, {} points, {} layout rebuilds", sim.shape_contact_count(), sim.layout_rebuilds());
    assert!(worst_gap > -1e-9, "sank {worst_gap:e}");
    assert!(inside > -1e-9, "left the box: {inside:e}");
    assert!(sim.shape_contact_count() >= 100, "{} points", sim.shape_contact_count());
}
