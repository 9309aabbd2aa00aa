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
    // measured 7.9e-15 relative (the issue asks 1e-6)
    assert!((total - m * g).abs() < 1e-13 * m * g, "sum of normal forces {total}");
    let min_gap = reports.iter().map(|r| r.gap).fold(f64::INFINITY, f64::min);
    let end = sim.body_state(body).unwrap();
    let drift = (0..3).map(|k| (end[k] - start[k]).abs()).fold(0.0, f64::max);
    println!("min gap {min_gap:e}, drift {drift:e}, rebuilds {}", sim.layout_rebuilds());
    // measured: every gap ≥ 1.6e-15 m, drift 1.6e-15 m (the polish closes the gap the
    // interior point leaves at its complementarity tolerance)
    assert!(min_gap > -1e-15, "penetration {min_gap:e}");
    assert!(drift < 2e-14, "drift {drift:e}");
}

/// A box released balanced off its edge (tilted 0.3 rad about x, one edge on the floor)
/// falls flat onto its face: four points at the end, lying level.
#[test]
fn box_tipped_onto_an_edge_falls_flat() {
    let (h, tilt) = ([0.2, 0.1, 0.05], 0.3f64);
    // the lower long edge (y = −h_y, z = −h_z in the box) on the floor
    let z = h[1] * tilt.sin() + h[2] * tilt.cos();
    let q = [(tilt / 2.0).cos(), (tilt / 2.0).sin(), 0.0, 0.0];
    let (mut sim, body) = box_on_floor(h, 1.0, z, q, 0.8);
    for _ in 0..300 {
        sim.step().unwrap();
    }
    let s = sim.body_state(body).unwrap();
    // the box's z axis in the world: its face lies flat when it is vertical
    let (x, y) = (s[4], s[5]);
    let zz = 1.0 - 2.0 * (x * x + y * y);
    let reports: Vec<_> = sim.shape_contacts().collect();
    println!("tipped: z-axis·ez {zz}, height {} (half height {}), {} points, speed {:e}", s[2], h[2], reports.len(), (s[7] * s[7] + s[8] * s[8] + s[9] * s[9]).sqrt());
    assert_eq!(reports.len(), 4);
    assert!((zz - 1.0).abs() < 1e-9, "lies level: {zz}");
    assert!((s[2] - h[2]).abs() < 1e-9, "rests on its face: {}", s[2]);
}

/// Sliding at 1 m/s with μ = 0.3 on the linear cone (a direction along the slide): it stops
/// after v²/(2 μ g).
#[test]
fn sliding_box_stops_at_the_coulomb_distance() {
    let (v0, mu, g) = (1.0, 0.3, 9.81);
    let (mut sim, body) = box_on_floor([0.1, 0.1, 0.05], 1.0, 0.05, ID, mu);
    let mut s = sim.body_state(body).unwrap();
    s[7] = v0;
    sim.set_body_state(body, &s).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let end = sim.body_state(body).unwrap();
    let expected = v0 * v0 / (2.0 * mu * g);
    let error = (end[0] - expected) / expected;
    // the step moves by dt v_k before friction acts on v_{k+1}: the discrete stop distance
    // is dt Σ v_k, v_k = v0 − k μ g dt, which exceeds v²/(2 μ g) by about v0 dt / 2
    let dt = 0.01;
    let discrete: f64 = (0..).map(|k| v0 - k as f64 * mu * g * dt).take_while(|&v| v > 0.0).map(|v| v * dt).sum();
    println!("slide {} m vs {expected} m: {:.3} %; discrete sum {discrete} m; final speed {:e}", end[0], 100.0 * error, end[7]);
    assert!(end[7].abs() < 1e-9, "stopped: {}", end[7]);
    // measured 2.945 % (the bar: 3 %)
    assert!(error.abs() < 0.03, "stop distance error {error}");
    assert!((end[0] - discrete).abs() < 0.01 * discrete, "{} vs the discrete {discrete}", end[0]);
}

/// A box started 0.3 m into the floor (its shapes' first search finds the points) is
/// reported and projected out before the step, not launched: it ends resting on its face
/// having gained only the potential of the lift.
#[test]
fn a_box_started_in_the_floor_is_moved_out_not_launched() {
    let (m, g) = (1.0, 9.81);
    let (mut sim, body) = box_on_floor([0.2, 0.1, 0.05], m, 0.05 - 0.3, ID, 0.5);
    let energy = |s: &Sim| {
        let (k, p) = s.energy();
        k + p
    };
    let e0 = energy(&sim);
    sim.step().unwrap();
    let lifted = e0 + m * g * 0.3;
    let s = sim.body_state(body).unwrap();
    println!("started 0.3 m in: resolved {} m, energy {e0} → {} (lift {lifted}), height {}, vz {:e}", sim.resolved_penetration(), energy(&sim), s[2], s[9]);
    assert!((sim.resolved_penetration() - 0.3).abs() < 1e-12, "depth {}", sim.resolved_penetration());
    assert!((energy(&sim) - lifted).abs() < 1e-6, "energy {} vs {lifted}", energy(&sim));
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let s = sim.body_state(body).unwrap();
    assert!((s[2] - 0.05).abs() < 1e-9 && s[9].abs() < 1e-9, "rests on its face: {s:?}");
}
