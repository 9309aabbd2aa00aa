//! A world-fixed link's mesh kept as a triangle mesh (`UrdfOptions::world_meshes_as_trimesh`):
//! bodies rest inside a concave environment loaded from URDF, where its hull would hold them
//! on its top.
//!
//! The fixture (tests/fixtures/open_box.urdf) is a cup welded to the world 0.1 m up: an open
//! box 0.5 m square and 0.25 m deep (`open_box.stl`, an ASCII STL of 10 triangles whose 30
//! vertices are 8 repeated). Its inner bottom is at z = 0.1; its hull, the closed box, has
//! its top at z = 0.35 (sizes exact in the f32 the mesh loader reads).

use maxdyn::model::shape::Geometry;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];
const INNER_BOTTOM: f64 = 0.1;
const HULL_TOP: f64 = 0.35;
const MASS: f64 = 2.0;
const G: f64 = 9.81;

fn cup(world_meshes_as_trimesh: bool) -> Urdf {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/open_box.urdf");
    Urdf::from_file_with(path, &UrdfOptions { collision: true, world_meshes_as_trimesh, ..UrdfOptions::default() }).unwrap()
}

/// The cup's one shape: on the world, a triangle mesh of the file's 8 distinct vertices and
/// 10 triangles with the option (its vertices at the link's place: the bottom's corners at
/// x = 0.2 ± 0.25, z = 0.1), its hull of the same 8 points without it.
#[test]
fn a_world_fixed_links_mesh_is_a_triangle_mesh_when_asked() {
    let with = cup(true);
    let shapes = &with.link_shapes["cup"];
    assert_eq!(shapes.len(), 1);
    let s = with.builder.shape(shapes[0]).unwrap();
    assert_eq!(s.body, None);
    let Geometry::TriMesh(mesh) = &s.geometry else { panic!("expected a triangle mesh, got {:?}", s.geometry.kind()) };
    assert_eq!((mesh.vertices.len(), mesh.triangles.len()), (8, 10));
    let lowest = mesh.vertices.iter().map(|v| s.x[2] + v[2]).fold(f64::INFINITY, f64::min);
    let highest = mesh.vertices.iter().map(|v| s.x[2] + v[2]).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!((lowest, highest), (INNER_BOTTOM, HULL_TOP));
    assert!((s.x[0] - 0.2).abs() < 1e-15, "{:?}", s.x);

    let without = cup(false);
    let s = without.builder.shape(without.link_shapes["cup"][0]).unwrap();
    assert_eq!(s.geometry.kind(), ShapeKind::Hull);
}

/// A box or a sphere (2 kg, μ 0.5) dropped from 2 cm above where it rests, over the cup's
/// middle: 2 s at dt 0.01. With the option it rests on the inner bottom at z = 0.1 + h
/// (h its half height), without it on the hull's top at z = 0.35 + h. Measured: final
/// height to 1.6e-15 m (box, both) and 1.7e-16 m (sphere), never below it by more than
/// 2.8e-17 m, contact force m g to 1.0e-13 (each asserted 1e-12).
#[test]
fn a_body_rests_inside_the_cup_as_a_triangle_mesh_and_on_top_of_its_hull() {
    for (kind, params, half_height) in [(ShapeKind::Box, vec![0.1, 0.08, 0.05], 0.05), (ShapeKind::Sphere, vec![0.05], 0.05)] {
        for (trimesh, floor) in [(true, INNER_BOTTOM), (false, HULL_TOP)] {
            let rest = floor + half_height;
            let (deepest, end, force) = drop_in_cup(trimesh, kind, &params, rest + 0.02);
            println!("{kind:?} trimesh {trimesh}: end {:e} m from z = {rest}, deepest {deepest:e} m below, force error {force:e}", end - rest);
            assert!((end - rest).abs() < 1e-12, "{kind:?} trimesh {trimesh}: ends at {end}, rest {rest}");
            assert!(deepest < 1e-12, "{kind:?} trimesh {trimesh}: {deepest:e} below");
            assert!(force < 1e-12, "{kind:?} trimesh {trimesh}: force error {force:e}");
        }
    }
}

/// Drops a body of `kind`, `params` at z = `start` over the cup's middle (off its axes):
/// its deepest below `start` − 0.02 over 2 s, its final height, and the vertical contact
/// force's error against m g (relative) at the end.
fn drop_in_cup(trimesh: bool, kind: ShapeKind, params: &[f64], start: f64) -> (f64, f64, f64) {
    let mut u = cup(trimesh);
    let b = &mut u.builder;
    let inertia = match kind {
        ShapeKind::Box => Inertia::cuboid(MASS, 2.0 * params[0], 2.0 * params[1], 2.0 * params[2]).unwrap(),
        _ => Inertia::sphere(MASS, params[0]).unwrap(),
    };
    let body = b.add_body(MASS, inertia).unwrap();
    b.set_body_pose(body, [0.23, 0.01, start], ID).unwrap();
    let s = b.add_shape(Parent::Body(body), kind, [0.0; 3], ID, params).unwrap();
    b.set_shape_friction(s, 0.5).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(b).unwrap()), 0.01).unwrap();
    let rest = start - 0.02;
    let mut deepest = f64::NEG_INFINITY;
    for _ in 0..200 {
        sim.step().unwrap();
        deepest = deepest.max(rest - sim.body_state(body).unwrap()[2]);
    }
    let up: f64 = sim.shape_contacts().map(|c| c.normal[2] * c.normal_force + c.friction_force[2]).sum();
    (deepest, sim.body_state(body).unwrap()[2], (up - MASS * G).abs() / (MASS * G))
}
