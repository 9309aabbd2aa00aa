//! Shapes beyond what doubles collide are refused when added (issue 25 item 5): sizes and
//! offsets beyond `MAX_SHAPE_SIZE` (1e12 m) get `InvalidShape` naming the value and the
//! bound; at the bound a shape still holds a body up.

use maxdyn::model::shape::MAX_SHAPE_SIZE;
use maxdyn::{Builder, Error, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

#[test]
fn sizes_and_offsets_beyond_the_bound_are_refused_naming_both() {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::diagonal(1.0, 1.0, 1.0).unwrap()).unwrap();
    let at = MAX_SHAPE_SIZE;
    for (kind, params) in [(ShapeKind::Sphere, vec![at]), (ShapeKind::Capsule, vec![at, at]), (ShapeKind::Box, vec![at; 3]), (ShapeKind::Cylinder, vec![at, at])] {
        b.add_shape(body.into(), kind, [0.0; 3], ID, &params).unwrap_or_else(|e| panic!("{kind:?} at the bound: {e}"));
        b.add_shape(body.into(), kind, [at, 0.0, 0.0], ID, &vec![0.1; params.len()]).unwrap_or_else(|e| panic!("{kind:?} offset at the bound: {e}"));
        for beyond in [2.0 * at, 1e154, 1e308] {
            for k in 0..params.len() {
                let mut p = params.clone();
                p[k] = beyond;
                let e = b.add_shape(body.into(), kind, [0.0; 3], ID, &p).unwrap_err();
                assert!(matches!(e, Error::InvalidShape("params", _)), "{e}");
                assert!(e.to_string().contains(&format!("size {beyond:e} is beyond 1e12 m")), "{e}");
            }
        }
    }
    let e = b.add_shape(Parent::World, ShapeKind::Plane, [0.0, 0.0, -1e300], ID, &[]).unwrap_err();
    assert!(matches!(e, Error::InvalidShape("pose", _)) && e.to_string().contains("distance of the shape from its body's origin 1e300 is beyond 1e12 m"), "{e}");
    assert_eq!(b.shape_count(), 8, "refused shapes add nothing");
}

/// A 10 cm box resting on a world box of half extent `MAX_SHAPE_SIZE` (its top at z = 0):
/// the contact is found and holds it (measured: height exact, 4 points carrying m g).
#[test]
fn a_ground_box_at_the_bound_holds_a_small_box() {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.1], ID).unwrap();
    b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &[0.1; 3]).unwrap();
    b.add_shape(Parent::World, ShapeKind::Box, [0.0, 0.0, -MAX_SHAPE_SIZE], ID, &[MAX_SHAPE_SIZE; 3]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let mut deepest: f64 = 0.0;
    for _ in 0..100 {
        sim.step().unwrap();
        deepest = deepest.max(0.1 - sim.body_state(body).unwrap()[2]);
    }
    let load: f64 = sim.shape_contacts().map(|c| c.normal_force).sum();
    println!("small box on a 1e12 m ground box: {} points, load {load} N, deepest {deepest:e} m", sim.shape_contact_count());
    assert_eq!(sim.shape_contact_count(), 4);
    // measured 1e-13 N and 0 m
    assert!((load - 9.81).abs() < 1e-12 && deepest < 1e-12, "load {load}, deepest {deepest:e}");
}
