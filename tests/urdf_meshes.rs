//! URDF `<mesh>` collisions as convex hulls (issue 25): the Panda's meshes load from the
//! corpus, a dropped link hull comes to rest on the ground, the search roots are honoured
//! (the options, the environment) and bad meshes (missing, outside the roots, flat) are
//! refused with a status and a message naming the link and the file; the C hull builder.

use std::ffi::{CStr, CString};
use std::path::PathBuf;
use std::ptr::{null, null_mut};
use std::sync::Arc;

use maxdyn::capi::*;
use maxdyn::model::shape::Geometry;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};

#[path = "common/require.rs"]
mod require;

const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf");

/// A directory of its own under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("maxdyn-urdf-meshes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An ASCII STL of the triangles `tris` over `points`.
fn stl(points: &[[f32; 3]], tris: &[[usize; 3]]) -> String {
    let mut s = String::from("solid t\n");
    for t in tris {
        s += " facet normal 0 0 0\n  outer loop\n";
        for &i in t {
            s += &format!("   vertex {} {} {}\n", points[i][0], points[i][1], points[i][2]);
        }
        s += "  endloop\n endfacet\n";
    }
    s + "endsolid t\n"
}

fn tetrahedron() -> String {
    stl(&[[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.1, 0.0], [0.0, 0.0, 0.1]], &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])
}

/// A robot of one massive link whose collision is `<mesh filename scale>`.
fn robot(filename: &str, scale: &str) -> String {
    format!(
        r#"<robot name="r"><link name="base"/>
        <link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
          <collision><geometry><mesh filename="{filename}" scale="{scale}"/></geometry></collision></link>
        <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint></robot>"#
    )
}

fn with_roots(roots: Vec<PathBuf>) -> UrdfOptions {
    UrdfOptions { collision: true, mesh_roots: roots, ..UrdfOptions::default() }
}

/// The Panda (fixed base, ground on) loads all 9 of its collision meshes as hulls, no
/// warning; a hull of one of its links dropped on the ground comes to rest on it.
#[test]
fn the_panda_loads_its_meshes_and_a_dropped_link_hull_rests_on_the_ground() {
    if !require::corpus("the_panda_loads_its_meshes_and_a_dropped_link_hull_rests_on_the_ground", PANDA) {
        return;
    }
    let start = std::time::Instant::now();
    let u = Urdf::from_file_with(PANDA, &UrdfOptions { collision: true, ground_plane: true, ..UrdfOptions::default() }).unwrap();
    let load = start.elapsed().as_secs_f64();
    assert!(u.warnings.is_empty(), "{:?}", u.warnings);
    let b = &u.builder;
    let hulls: Vec<_> = (0..b.shape_count()).filter_map(|s| match &b.shape(s).unwrap().geometry {
        Geometry::Hull(h) => Some(h.clone()),
        _ => None,
    }).collect();
    let vertices: Vec<usize> = hulls.iter().map(|h| h.points.len()).collect();
    println!("panda: {} shapes, {} hulls of {vertices:?} vertices, loaded in {load:.3} s", b.shape_count(), hulls.len());
    assert_eq!(hulls.len(), 9);
    let mut sim = Sim::new(Arc::new(Model::new(b).unwrap()), 0.01).unwrap();
    sim.step().unwrap();

    // link0's hull (the base, its centre of mass at its vertices' mean) dropped 1 mm onto
    // the ground, turned 0.3 rad about z
    let h = hulls[0].clone();
    let centre = h.points.iter().sum::<maxdyn::math::V3>() / h.points.len() as f64;
    let mut b = Builder::new();
    let body = b.add_body(3.0, Inertia::cuboid(3.0, 0.2, 0.2, 0.15).unwrap()).unwrap();
    let lowest = h.points.iter().map(|p| p.z).fold(f64::INFINITY, f64::min) - centre.z;
    let q = [(0.15f64).cos(), 0.0, 0.0, (0.15f64).sin()];
    b.set_body_pose(body, [0.0, 0.0, 0.001 - lowest], q).unwrap();
    b.add_geometry(body.into(), (-centre).into(), [1.0, 0.0, 0.0, 0.0], Geometry::Hull(h.clone())).unwrap();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], [1.0, 0.0, 0.0, 0.0], &[]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.005).unwrap();
    let mut deepest = 0.0f64;
    for _ in 0..400 {
        sim.step().unwrap();
        let s = sim.body_state(body).unwrap();
        let r = maxdyn::math::rotation(&maxdyn::math::V4::new(s[3], s[4], s[5], s[6]));
        let low = h.points.iter().map(|p| s[2] + (r * (p - centre)).z).fold(f64::INFINITY, f64::min);
        deepest = deepest.max(-low);
    }
    let s = sim.body_state(body).unwrap();
    let speed = s[7..13].iter().map(|v| v * v).sum::<f64>().sqrt();
    let forces: f64 = sim.shape_contacts().map(|c| c.normal_force).sum();
    println!("link0 hull dropped: deepest {deepest:e} m, speed {speed:e}, {} points, forces {forces} (m g {})", sim.shape_contacts().count(), 3.0 * 9.81);
    // measured: 2.8e-17 m below (the issue's bar: 1e-6 m; bound: round-off), speed
    // 1.1e-15, forces to 3.4e-14
    assert!(deepest < 1e-15, "sank {deepest:e} m");
    assert!(speed < 1e-14, "still moving: {speed:e}");
    assert!((forces - 3.0 * 9.81).abs() < 3e-13 * 3.0 * 9.81, "forces {forces}");
}

/// `package://` through the options' roots and through MAXDYN_PACKAGE_PATH, relative paths
/// beside the file, scale applied per axis (mirrored), one hull per (file, scale).
#[test]
fn meshes_resolve_through_the_search_roots() {
    let dir = scratch("roots");
    std::fs::create_dir_all(dir.join("pkg/meshes")).unwrap();
    std::fs::create_dir_all(dir.join("pkg/urdf")).unwrap();
    std::fs::write(dir.join("pkg/meshes/t.stl"), tetrahedron()).unwrap();
    // from text: only the options' roots
    let u = Urdf::from_str_with(&robot("package://pkg/meshes/t.stl", "2 -1 1"), &with_roots(vec![dir.clone()])).unwrap();
    let Geometry::Hull(h) = &u.builder.shape(0).unwrap().geometry else { panic!("a hull") };
    // the file's numbers are f32: 0.1 is 0.10000000149
    assert!((h.volume() / (2.0 * 0.001 / 6.0) - 1.0).abs() < 1e-7, "{}", h.volume());
    assert!(h.points.iter().any(|p| (p.y + 0.1).abs() < 1e-7), "mirrored in y");
    let e = Urdf::from_str_with(&robot("package://pkg/meshes/t.stl", "1 1 1"), &with_roots(vec![])).unwrap_err().to_string();
    assert!(e.contains("link `arm` <collision> 0 <mesh>: `package://pkg/meshes/t.stl` not found"), "{e}");
    // from a file: its ancestors hold the package, and `../meshes` is beside its urdf/
    for filename in ["package://pkg/meshes/t.stl", "../meshes/t.stl"] {
        std::fs::write(dir.join("pkg/urdf/r.urdf"), robot(filename, "1 1 1")).unwrap();
        let u = Urdf::from_file_with(dir.join("pkg/urdf/r.urdf"), &with_roots(vec![])).unwrap();
        assert_eq!(u.builder.shape(0).unwrap().geometry.kind(), ShapeKind::Hull, "{filename}");
    }
    // the environment's roots, colon-separated (this test alone sets the variable)
    std::env::set_var(maxdyn::urdf::mesh::PACKAGE_PATH_VARIABLE, format!("/nonexistent:{}", dir.display()));
    let u = Urdf::from_str_with(&robot("package://pkg/meshes/t.stl", "1 1 1"), &with_roots(vec![]));
    std::env::remove_var(maxdyn::urdf::mesh::PACKAGE_PATH_VARIABLE);
    assert_eq!(u.unwrap().builder.shape_count(), 1);
    // two links of one mesh and scale share one hull
    let two = robot("package://pkg/meshes/t.stl", "1 1 1").replace("</robot>", r#"<link name="b"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial><collision><geometry><mesh filename="package://pkg/meshes/t.stl"/></geometry></collision></link><joint name="k" type="revolute"><parent link="arm"/><child link="b"/><axis xyz="0 0 1"/></joint></robot>"#);
    let u = Urdf::from_str_with(&two, &with_roots(vec![dir.clone()])).unwrap();
    let (Geometry::Hull(a), Geometry::Hull(b)) = (&u.builder.shape(0).unwrap().geometry, &u.builder.shape(1).unwrap().geometry) else { panic!("hulls") };
    assert!(Arc::ptr_eq(a, b), "one hull per file and scale");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A missing mesh, one outside the roots, a flat one: the load fails with the URDF status
/// and a message naming the link, the element and the file; no builder comes out.
#[test]
fn bad_meshes_are_refused_naming_the_link_and_the_file() {
    let dir = scratch("bad");
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("pkg/flat.stl"), stl(&[[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.1, 0.0], [0.1, 0.1, 0.0]], &[[0, 1, 2], [1, 3, 2]])).unwrap();
    std::fs::write(dir.join("outside.stl"), tetrahedron()).unwrap();
    let cases = [
        ("package://pkg/none.stl", "link `arm` <collision> 0 <mesh>: `package://pkg/none.stl` not found in the search roots"),
        ("package://pkg/../outside.stl", "outside the search roots"),
        ("package://pkg/flat.stl", "flat.stl`: the 4 points are coplanar or collinear: their hull has no volume"),
    ];
    let roots = CString::new(dir.join("pkg").to_str().unwrap()).unwrap();
    for (filename, message) in cases {
        let e = Urdf::from_str_with(&robot(filename, "1 1 1"), &with_roots(vec![dir.join("pkg")])).unwrap_err().to_string();
        assert!(e.contains(message) && e.contains("link `arm`"), "{filename}: {e}");
        // from C: MAXDYN_STATUS_URDF, the same message, no builder
        let xml = CString::new(robot(filename, "1 1 1")).unwrap();
        unsafe {
            let mut o = maxdyn_urdf_options_default();
            o.collision = 1;
            o.mesh_roots = roots.as_ptr();
            let mut b = null_mut();
            let status = maxdyn_builder_from_urdf_string_with(xml.as_ptr(), &o, &mut b, null_mut(), 0, null_mut());
            let text = CStr::from_ptr(maxdyn_last_error_message()).to_string_lossy().into_owned();
            assert_eq!(status, maxdyn_status::MAXDYN_STATUS_URDF, "{text}");
            assert!(b.is_null() && text.contains(message), "{text}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `maxdyn_builder_add_hull_shape`: a hull from points, and each bad input its status with
/// nothing added.
#[test]
fn hull_shapes_from_c() {
    unsafe {
        let mut b = null_mut();
        assert_eq!(maxdyn_builder_new(&mut b), maxdyn_status::MAXDYN_STATUS_OK);
        let inertia = [0.01, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.0, 0.01];
        let mut body = -1;
        assert_eq!(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body), maxdyn_status::MAXDYN_STATUS_OK);
        let pose = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let cube: Vec<f64> = (0..8).flat_map(|i| [(i & 1) as f64 - 0.5, ((i >> 1) & 1) as f64 - 0.5, ((i >> 2) & 1) as f64 - 0.5]).collect();
        let mut id = -1;
        assert_eq!(maxdyn_builder_add_hull_shape(b, body, pose.as_ptr(), cube.as_ptr(), 8, &mut id), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(id, 0);
        let flat: Vec<f64> = (0..6).flat_map(|i| [i as f64, (i * i) as f64, 0.0]).collect();
        let mut nan = cube.clone();
        nan[4] = f64::NAN;
        let message = || CStr::from_ptr(maxdyn_last_error_message()).to_string_lossy().into_owned();
        let refused = [
            (maxdyn_builder_add_hull_shape(b, body, pose.as_ptr(), cube.as_ptr(), 3, &mut id), maxdyn_status::MAXDYN_STATUS_INVALID_SHAPE, message(), "at least 4 points, got 3"),
            (maxdyn_builder_add_hull_shape(b, body, pose.as_ptr(), flat.as_ptr(), 6, &mut id), maxdyn_status::MAXDYN_STATUS_INVALID_SHAPE, message(), "coplanar"),
            (maxdyn_builder_add_hull_shape(b, body, pose.as_ptr(), nan.as_ptr(), 8, &mut id), maxdyn_status::MAXDYN_STATUS_NON_FINITE, message(), "points"),
            (maxdyn_builder_add_hull_shape(b, 7, pose.as_ptr(), cube.as_ptr(), 8, &mut id), maxdyn_status::MAXDYN_STATUS_UNKNOWN_BODY, message(), "7"),
            (maxdyn_builder_add_hull_shape(b, body, pose.as_ptr(), null(), 8, &mut id), maxdyn_status::MAXDYN_STATUS_NULL_POINTER, message(), "points"),
            (maxdyn_builder_add_shape(b, body, maxdyn_shape_type::MAXDYN_SHAPE_HULL as i32, pose.as_ptr(), null(), 0, &mut id), maxdyn_status::MAXDYN_STATUS_INVALID_SHAPE, message(), "points"),
        ];
        for (status, expected, text, says) in &refused {
            assert_eq!(status, expected, "{text}");
            assert!(text.contains(says), "{text} should say {says}");
        }
        let mut count = -1;
        assert_eq!(maxdyn_builder_get_shape_count(b, &mut count), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(count, 1, "refused hulls add nothing");
        maxdyn_builder_free(b);
    }
}

/// A model's fingerprint (what a saved state names) changes with any hull point; cloning a
/// model shares its hulls.
#[test]
fn hull_points_are_in_the_fingerprint_and_shared_by_clones() {
    let model = |nudge: f64| {
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
        let mut pts: Vec<[f64; 3]> = (0..8).map(|i| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64]).collect();
        pts[7][2] += nudge;
        b.add_hull_shape(body.into(), [0.0; 3], [1.0, 0.0, 0.0, 0.0], &pts).unwrap();
        Model::new(&b).unwrap()
    };
    let (a, b) = (model(0.0), model(1e-15));
    assert_ne!(a.fingerprint(), b.fingerprint());
    assert_eq!(a.fingerprint(), model(0.0).fingerprint());
    let copy = a.clone();
    let (Geometry::Hull(x), Geometry::Hull(y)) = (&a.collision.shapes[0].geometry, &copy.collision.shapes[0].geometry) else { panic!("hulls") };
    assert!(Arc::ptr_eq(x, y));
}
