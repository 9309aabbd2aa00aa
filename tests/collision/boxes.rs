//! Boxes on the floor: resting on a face, tipping onto it from an edge, sliding to a stop.

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// A box of half extents `h` and mass `m` on a floor at z = 0, its centre at `z` with
/// orientation `q`; friction `mu` for both shapes.
fn box_on_floor(h: [f64; 3], m: f64, z: f64, q: [f64; 4], mu: f64) -> (Sim, usize) {
    let mut b = Builder::new();
    let body = b.add_body(m, Inertia::cuboid(m, 2.0 * h[0], 2.0 * h[1], 2.0 * h[2]).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, z], q).unwrap();
    let s = b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &h).unwrap();
    let floor = b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    b.set_shape_friction(s, mu).unwrap();
    b.set_shape_friction(floor, mu).unwrap();
    let sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    (sim, body)
}

/// Resting on its face: four points, normal forces summing to m g, no penetration, still.
#[test]
fn box_rests_on_four_points() {
    let (m, g) = (2.0, 9.81);
    let (mut sim, body) = box_on_floor([0.2, 0.1, 0.05], m, 0.05, ID, 0.5);
    let start = sim.body_state(body).unwrap();
    for _ in 0..1000 {
        sim.step().unwrap();
    }
    let reports: Vec<_> = sim.shape_contacts().collect();
    assert_eq!(reports.len(), 4, "{reports:?}");
    let total: f64 = reports.iter().map(|r| r.normal_force).sum();
    println!("normal forces {:?}, sum {total} vs m g {}", reports.iter().map(|r| r.normal_force).collect::<Vec<_>>(), m * g);
    // measured 5.9e-15 relative (the issue asks 1e-6)
    assert!((total - m * g).abs() < 1e-12 * m * g, "sum of normal forces {total}");
    let min_gap = reports.iter().map(|r| r.gap).fold(f64::INFINITY, f64::min);
    let end = sim.body_state(body).unwrap();
    let drift = (0..3).map(|k| (end[k] - start[k]).abs()).fold(0.0, f64::max);
    println!("min gap {min_gap:e}, drift {drift:e}, rebuilds {}", sim.layout_rebuilds());
    assert!(min_gap > -1e-9, "penetration {min_gap:e}");
    // measured 2.0e-10 (the interior point rests at its complementarity tolerance)
    assert!(drift < 5e-10, "drift {drift:e}");
}
