//! URDF `<collision>` → collision shapes (issue 12): the A1's foot spheres land on the
//! calf bodies they were merged into, at the file's positions relative to the merged
//! centre of mass; the options switch shapes, the ground and self-collision; the panda's
//! mesh collisions become hulls (issue 25; more in tests/urdf_meshes.rs); the corpus
//! loads with collision on, every `<collision>` a shape.

use std::ffi::CString;
use std::ptr::null_mut;

use maxdyn::capi::*;
use maxdyn::model::shape::Geometry;
use maxdyn::model::{Model, ShapeKind};
use maxdyn::urdf::{Urdf, UrdfOptions};

#[path = "common/require.rs"]
mod require;

/// The A1 of ../shared/models (unitree_ros), copied into the fixtures.
const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/a1_unitree_ros.urdf");
const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0");

fn with(collision: bool, ground_plane: bool, self_collision: bool) -> UrdfOptions {
    UrdfOptions { floating: true, collision, ground_plane, self_collision, ..UrdfOptions::default() }
}

fn a1(options: UrdfOptions) -> (Urdf, Model) {
    let u = Urdf::from_file_with(A1, &options).unwrap();
    let m = Model::new(&u.builder).unwrap();
    (u, m)
}


#[test]
fn default_options_load_no_shapes() {
    let (_, m) = a1(UrdfOptions { floating: true, ..UrdfOptions::default() });
    assert!(m.collision.shapes.is_empty());
    let (_, m) = a1(with(false, true, false));
    assert_eq!(m.collision.shapes.len(), 1, "the ground alone");
    assert_eq!(m.collision.shapes[0].geometry, Geometry::HalfSpace);
    assert_eq!(m.collision.shapes[0].body, None);
}

#[test]
fn the_a1_foot_spheres_sit_on_the_calf_bodies_at_the_file_positions() {
    let (u, m) = a1(with(true, true, false));
    let shapes = &m.collision.shapes;
    // the file: 10 boxes, 8 cylinders, 4 spheres in <collision>, no meshes; plus the ground
    assert_eq!(shapes.len(), 23);
    let count = |k: ShapeKind| shapes.iter().filter(|s| s.geometry.kind() == k).count();
    assert_eq!((count(ShapeKind::Box), count(ShapeKind::Cylinder), count(ShapeKind::Sphere), count(ShapeKind::Plane)), (10, 8, 4, 1));
    assert!(u.warnings.iter().all(|w| !w.contains("mesh")), "{:?}", u.warnings);

    // FR_foot (mass 0.06, COM at its origin, 0.2 below FR_calf's) is merged into FR_calf
    // (mass 0.166, COM (0.006435, 0, -0.107388)): the body frame sits at the merged COM
    let com = [0.166 * 0.006435 / 0.226, 0.0, (0.166 * -0.107388 + 0.06 * -0.2) / 0.226];
    let expected = [-com[0], 0.0, -0.2 - com[2]];
    for leg in ["FR", "FL", "RR", "RL"] {
        let calf = u.body(&format!("{leg}_calf")).unwrap();
        let feet: Vec<_> = shapes.iter().filter(|s| s.body == Some(calf) && s.geometry.kind() == ShapeKind::Sphere).collect();
        assert_eq!(feet.len(), 1, "{leg}");
        assert_eq!(feet[0].geometry, Geometry::Sphere { radius: 0.02 });
        let err = (0..3).map(|i| (feet[0].x[i] - expected[i]).abs()).fold(0.0, f64::max);
        assert!(err < 1e-15, "{leg} foot at {:?}, expected {expected:?} (error {err:e})", feet[0].x);
        assert_eq!(feet[0].q, maxdyn::math::V4::new(1.0, 0.0, 0.0, 0.0));
        // the same place as the foot link's frame (its <origin> is the identity)
        let frame = u.frame(&format!("{leg}_foot")).unwrap();
        assert_eq!((frame.body, maxdyn::math::V3::from(frame.x)), (Some(calf), feet[0].x));
        // the calf's box: <origin rpy="0 π/2 0" xyz="0 0 -0.1">, size 0.2 0.016 0.016
        let boxes: Vec<_> = shapes.iter().filter(|s| s.body == Some(calf) && s.geometry.kind() == ShapeKind::Box).collect();
        assert_eq!(boxes.len(), 1, "{leg}");
        assert_eq!(boxes[0].geometry, Geometry::Box { half_extents: maxdyn::math::V3::new(0.1, 0.008, 0.008) });
        // the file's 1.57079632679, not π/2: the URDF's own digits
        #[allow(clippy::approx_constant)]
        let h = 0.5 * 1.57079632679f64;
        assert!((boxes[0].q - maxdyn::math::V4::new(h.cos(), 0.0, h.sin(), 0.0)).norm() < 1e-15);
        assert!((boxes[0].x - maxdyn::math::V3::new(-com[0], 0.0, -0.1 - com[2])).norm() < 1e-15);
    }
    // expected[0] = -0.166·0.006435/0.226 = -0.0047266 m, expected[2] = -0.068024 m
    assert!((expected[0] + 0.0047266).abs() < 1e-7 && (expected[2] + 0.068024).abs() < 1e-6, "{expected:?}");
}

#[test]
fn without_merging_the_foot_is_its_own_body_with_the_sphere_at_its_centre() {
    let (u, m) = a1(UrdfOptions { merge_fixed: false, ..with(true, false, false) });
    let foot = u.body("FR_foot").unwrap();
    let on_foot: Vec<_> = m.collision.shapes.iter().filter(|s| s.body == Some(foot)).collect();
    assert_eq!(on_foot.len(), 1);
    assert_eq!(on_foot[0].x, maxdyn::math::V3::zeros());
    assert_eq!(on_foot[0].geometry, Geometry::Sphere { radius: 0.02 });
}

#[test]
fn self_collision_decides_which_robot_pairs_may_touch() {
    for self_collision in [false, true] {
        let (u, m) = a1(with(true, true, self_collision));
        let c = &m.collision;
        let on = |link: &str, kind: ShapeKind| {
            let body = u.body_of(link).unwrap();
            c.shapes.iter().position(|s| s.body == Some(body) && s.geometry.kind() == kind).unwrap()
        };
        let ground = c.shapes.iter().position(|s| s.geometry == Geometry::HalfSpace).unwrap();
        let may = |a: usize, b: usize| m.shapes_may_collide(a, b);
        let (fr_foot, fl_foot, trunk) = (on("FR_foot", ShapeKind::Sphere), on("FL_foot", ShapeKind::Sphere), on("trunk", ShapeKind::Box));
        let fr_thigh = on("FR_thigh", ShapeKind::Box);
        assert!(may(ground, fr_foot) && may(ground, trunk), "the ground meets the robot");
        assert_eq!(may(fr_foot, fl_foot), self_collision, "two feet");
        assert_eq!(may(fr_foot, trunk), self_collision, "a foot and the trunk");
        assert!(!may(fr_foot, fr_thigh), "thigh and calf share a joint");
        assert_eq!((c.shapes[trunk].group, c.shapes[ground].group), (2, 1));
    }
}

#[test]
fn capsules_friction_and_refused_shapes() {
    let xml = r#"<robot name="r">
      <link name="base"><collision><geometry><box size="1 1 0.1"/></geometry></collision></link>
      <link name="arm">
        <inertial><origin xyz="0 0 0.5"/><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.01"/></inertial>
        <collision><origin xyz="0 0 0.5"/><geometry><capsule radius="0.05" length="0.8"/></geometry></collision>
        <collision><geometry><box size="0 0.1 0.1"/></geometry></collision>
        <contact><lateral_friction value="0.6"/></contact>
      </link>
      <link name="tip">
        <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial>
        <collision><geometry><sphere radius="0.1"/></geometry></collision>
      </link>
      <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="1 0 0"/></joint>
      <joint name="k" type="revolute"><origin xyz="0 0 1"/><parent link="arm"/><child link="tip"/><axis xyz="1 0 0"/></joint>
    </robot>"#;
    let u = Urdf::from_str_with(xml, &UrdfOptions { collision: true, self_collision: true, ..UrdfOptions::default() }).unwrap();
    let m = Model::new(&u.builder).unwrap();
    let s = &m.collision.shapes;
    assert_eq!(s.len(), 3, "base box (world), arm capsule, tip sphere");
    assert_eq!((s[0].body, s[0].geometry.clone()), (None, Geometry::Box { half_extents: maxdyn::math::V3::new(0.5, 0.5, 0.05) }));
    assert_eq!(s[1].geometry, Geometry::Capsule { radius: 0.05, half_length: 0.4 });
    assert_eq!(s[1].x, maxdyn::math::V3::zeros(), "the capsule's centre is the arm's COM");
    assert_eq!((s[1].friction, s[2].friction), (0.6, 1.0));
    let may = |a: usize, b: usize| m.shapes_may_collide(a, b);
    assert!(!may(0, 1), "the fixed base and the body jointed to it");
    assert!(may(0, 2), "the fixed base and a body two joints away");
    assert!(!may(1, 2), "arm and tip share a joint");
    let warned = |text: &str| u.warnings.iter().any(|w| w.contains(text));
    assert!(warned("collision shape(s) skipped: link `arm`: box half extent 0 must be > 0"), "{:?}", u.warnings);
}

#[test]
fn the_panda_meshes_become_hulls_and_its_finger_boxes_load() {
    if !require::corpus("the_panda_meshes_become_hulls_and_its_finger_boxes_load", PANDA) {
        return;
    }
    let u = Urdf::from_file_with(PANDA, &UrdfOptions { collision: true, self_collision: true, ..UrdfOptions::default() }).unwrap();
    assert!(u.warnings.iter().all(|w| !w.contains("mesh") && !w.contains("skipped")), "{:?}", u.warnings);
    let m = Model::new(&u.builder).unwrap();
    let left = u.body_of("panda_leftfinger").unwrap();
    let right = u.body_of("panda_rightfinger").unwrap();
    let on = |b| m.collision.shapes.iter().filter(|s| s.body == Some(b) && s.geometry.kind() == ShapeKind::Box).count();
    let hulls = m.collision.shapes.iter().filter(|s| s.geometry.kind() == ShapeKind::Hull).count();
    // the file: 9 mesh collisions (link0 to link7, the hand) and 8 finger boxes
    assert_eq!((on(left), on(right), hulls, m.collision.shapes.len()), (4, 4, 9, 17));
    let (l, r) = (m.collision.shapes.iter().position(|s| s.body == Some(left)).unwrap(), m.collision.shapes.iter().position(|s| s.body == Some(right)).unwrap());
    assert!(m.shapes_may_collide(l, r), "the fingers meet each other with self-collision");
}

#[test]
fn every_corpus_collision_becomes_a_shape() {
    if !require::corpus("every_corpus_collision_becomes_a_shape", CORPUS) {
        return;
    }
    let mut files = Vec::new();
    let mut stack = vec![std::path::PathBuf::from(CORPUS)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "urdf") {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut loaded, mut collisions, mut shapes, mut hulls, mut skipped) = (0, 0, 0, 0, Vec::new());
    let start = std::time::Instant::now();
    for f in &files {
        let plain = Urdf::from_file_with(f, &UrdfOptions::default());
        let with = Urdf::from_file_with(f, &UrdfOptions { collision: true, ground_plane: true, self_collision: true, ..UrdfOptions::default() });
        // collision changes nothing about which files load: every mesh is found and hulled
        assert_eq!(plain.is_ok(), with.is_ok(), "{}: {:?}", f.display(), with.as_ref().err());
        let Ok(u) = with else { continue };
        loaded += 1;
        let xml = std::fs::read_to_string(f).unwrap();
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let in_file = doc.root_element().children().filter(|n| n.has_tag_name("link")).flat_map(|l| l.children().filter(|n| n.has_tag_name("collision"))).count();
        let b = &u.builder;
        let robot = (0..b.shape_count()).filter(|&s| b.shape(s).unwrap().geometry != Geometry::HalfSpace).count();
        let h = (0..b.shape_count()).filter(|&s| b.shape(s).unwrap().geometry.kind() == ShapeKind::Hull).count();
        println!("{}: {in_file} <collision>, {robot} shapes ({h} hulls)", f.file_name().unwrap().to_string_lossy());
        (collisions, shapes, hulls) = (collisions + in_file, shapes + robot, hulls + h);
        skipped.extend(u.warnings.iter().filter(|w| w.contains("skipped") || w.contains("left out")).map(|w| format!("{}: {w}", f.display())));
        assert_eq!(u.builder.body_count(), plain.unwrap().builder.body_count());
    }
    println!("corpus: {loaded} of {} files load with collision on: {collisions} <collision> elements, {shapes} shapes, {hulls} of them mesh hulls, in {:.1} s", files.len(), start.elapsed().as_secs_f64());
    println!("skipped: {skipped:#?}");
    // every <collision> of every file that loads is a shape, romeo's 24 finger links too
    // (a massless subtree not simulated: their shapes ride on the wrists): measured 62
    // files, 1331 collisions, 1331 shapes, 791 hulls (the 7 files refused for their
    // inertias hold the rest of the corpus's 950 meshes)
    assert!(skipped.is_empty(), "{skipped:#?}");
    assert_eq!((loaded, collisions, shapes, hulls), (62, 1331, 1331, 791));
}

/// A massless subtree on moving joints is not simulated (nothing with mass moves it), but
/// its collisions are shapes: rigid on the nearest simulated link, at the joint origins
/// composed at zero coordinates (here two revolutes down from a palm, the first turned a
/// quarter about z).
#[test]
fn a_massless_subtrees_collisions_ride_on_its_nearest_simulated_link() {
    let xml = r#"<robot name="r"><link name="base"/>
      <link name="palm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"/></inertial></link>
      <joint name="j" type="revolute"><parent link="base"/><child link="palm"/><axis xyz="0 0 1"/></joint>
      <link name="f1"><collision><origin xyz="0.01 0 0"/><geometry><sphere radius="0.005"/></geometry></collision></link>
      <joint name="k1" type="revolute"><parent link="palm"/><child link="f1"/><origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/><axis xyz="0 1 0"/></joint>
      <link name="f2"><collision><origin xyz="0 0 0.02"/><geometry><box size="0.01 0.01 0.01"/></geometry></collision></link>
      <joint name="k2" type="revolute"><parent link="f1"/><child link="f2"/><origin xyz="0.03 0 0"/><axis xyz="0 1 0"/></joint>
    </robot>"#;
    let u = Urdf::from_str_with(xml, &UrdfOptions { collision: true, ..UrdfOptions::default() }).unwrap();
    let palm = u.body_of("palm").unwrap();
    assert_eq!(u.builder.body_count(), 1, "the fingers are not bodies");
    assert!(u.frame("f1").is_none() && u.joint("k1").is_none(), "nor frames or joints");
    let shape = |link: &str| u.builder.shape(u.link_shapes[link][0]).unwrap().clone();
    let (sphere, cube) = (shape("f1"), shape("f2"));
    assert_eq!((sphere.body, cube.body), (Some(palm), Some(palm)));
    // f1 in the palm: (0.1, 0, 0) turned 90° about z, so its x is the palm's y
    let near = |a: [f64; 3], b: [f64; 3]| (0..3).all(|i| (a[i] - b[i]).abs() < 1e-15);
    assert!(near(sphere.x.into(), [0.1, 0.01, 0.0]), "{:?}", sphere.x);
    assert!(near(cube.x.into(), [0.1, 0.03, 0.02]), "{:?}", cube.x);
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert!((cube.q - maxdyn::math::V4::new(h, 0.0, 0.0, h)).norm() < 1e-15, "{:?}", cube.q);
    assert!(u.warnings.iter().any(|w| w.contains("ride rigidly on their nearest simulated link") && w.contains("`f1` on `palm`, `f2` on `palm`")), "{:?}", u.warnings);
}

/// Where Pinocchio 4.1.0 puts each `<collision>` of romeo (fixed base, neutral pose: the
/// link frame `oMf` composed with the collision's `<origin>`), one line per collision in
/// file order: link, position, quaternion (w, x, y, z).
const PINOCCHIO_PLACEMENTS: &str = r#"
import sys, xml.etree.ElementTree as ET, numpy as np, pinocchio as pin
path = sys.argv[1]
m = pin.buildModelFromUrdf(path)
d = m.createData()
pin.framesForwardKinematics(m, d, pin.neutral(m))
for link in ET.parse(path).getroot().findall("link"):
    for c in link.findall("collision"):
        o = c.find("origin")
        xyz = [float(v) for v in (o.get("xyz", "0 0 0") if o is not None else "0 0 0").split()]
        rpy = [float(v) for v in (o.get("rpy", "0 0 0") if o is not None else "0 0 0").split()]
        M = d.oMf[m.getFrameId(link.get("name"))] * pin.SE3(pin.rpy.rpyToMatrix(np.array(rpy)), np.array(xyz))
        q = pin.Quaternion(M.rotation)
        print(link.get("name"), *M.translation, q.w, q.x, q.y, q.z)
"#;

/// romeo's shapes (fixed base, zero joint coordinates), its 24 finger links' among them,
/// sit where Pinocchio places their `<collision>` elements, to 1e-15 m and 1e-15 in the
/// quaternion: the massless fingers' shapes ride on the wrists at their zero pose.
#[test]
fn romeos_shapes_and_its_fingers_sit_where_pinocchio_places_them() {
    let test = "romeos_shapes_and_its_fingers_sit_where_pinocchio_places_them";
    let path = format!("{CORPUS}/cmeel.prefix/share/example-robot-data/robots/romeo_description/urdf/romeo.urdf");
    if !require::corpus(test, &path) {
        return;
    }
    let Some(python) = require::venv_python(test) else { return };
    let out = std::process::Command::new(python).args(["-c", PINOCCHIO_PLACEMENTS, &path]).output().unwrap();
    assert!(out.status.success(), "pinocchio: {}", String::from_utf8_lossy(&out.stderr));
    let u = Urdf::from_file_with(&path, &UrdfOptions { collision: true, ..UrdfOptions::default() }).unwrap();
    let placements = String::from_utf8(out.stdout).unwrap();
    let mut next: std::collections::HashMap<&str, usize> = Default::default();
    let (mut worst_x, mut worst_q, mut fingers) = (0.0f64, 0.0f64, 0);
    for line in placements.lines() {
        let mut words = line.split_whitespace();
        let link = words.next().unwrap();
        let v: Vec<f64> = words.map(|w| w.parse().unwrap()).collect();
        let k = next.entry(link).or_default();
        let s = u.builder.shape(u.link_shapes[link][*k]).unwrap();
        *k += 1;
        // the shape's pose in the world at the load pose
        let (x, q) = match s.body {
            Some(b) => {
                let body = u.builder.body(b).unwrap();
                (body.x + maxdyn::math::rotation(&body.q) * s.x, maxdyn::math::qmul(&body.q, &s.q))
            }
            None => (s.x, s.q),
        };
        worst_x = worst_x.max((0..3).map(|i| (x[i] - v[i]).abs()).fold(0.0, f64::max));
        let dot: f64 = (0..4).map(|i| q[i] * v[3 + i]).sum();
        worst_q = worst_q.max((0..4).map(|i| (q[i] * dot.signum() - v[3 + i]).abs()).fold(0.0, f64::max));
        fingers += usize::from(u.frame(link).is_none());
    }
    println!("romeo: {} collisions against Pinocchio, {fingers} on links not simulated: position to {worst_x:e} m, quaternion to {worst_q:e}", next.values().sum::<usize>());
    assert_eq!((next.values().sum::<usize>(), fingers), (44, 24));
    assert!(worst_x < 1e-15 && worst_q < 1e-15, "position {worst_x:e} m, quaternion {worst_q:e}");
}

#[test]
fn the_c_options_switch_collision_on() {
    let path = CString::new(A1).unwrap();
    unsafe {
        let mut o = maxdyn_urdf_options_default();
        assert_eq!((o.collision, o.ground_plane, o.self_collision), (0, 0, 0));
        o.floating = 1;
        o.collision = 1;
        o.ground_plane = 1;
        let mut b = null_mut();
        assert_eq!(maxdyn_builder_from_urdf_with(path.as_ptr(), &o, &mut b, null_mut(), 0, null_mut()), maxdyn_status::MAXDYN_STATUS_OK);
        let mut n = -1;
        assert_eq!(maxdyn_builder_get_shape_count(b, &mut n), maxdyn_status::MAXDYN_STATUS_OK);
        assert_eq!(n, 23);
        maxdyn_builder_free(b);
        o.self_collision = 2;
        assert_eq!(maxdyn_builder_from_urdf_with(path.as_ptr(), &o, &mut b, null_mut(), 0, null_mut()), maxdyn_status::MAXDYN_STATUS_INVALID_ARGUMENT);
    }
}

/// Robot shape pairs that self-collision lets meet and that overlap at the load pose
/// (zero joint coordinates): (overlapping pairs, pairs without a narrow phase, allowed
/// pairs) and the overlapping pairs' body names with their lowest gap.
fn overlaps_at_load(u: &Urdf) -> ((usize, usize, usize), Vec<String>) {
    use maxdyn::contact::geometry::{narrow_phase, ContactPoint, MAX_POINTS_PER_PAIR};
    let m = Model::new(&u.builder).unwrap();
    let n = u.builder.body_count();
    let x: Vec<_> = (0..n).map(|b| u.builder.body(b).unwrap().x).collect();
    let q: Vec<_> = (0..n).map(|b| u.builder.body(b).unwrap().q).collect();
    let c = &m.collision;
    let name = |s: usize| c.shapes[s].body.map_or("world".to_string(), |b| u.builder.body(b).unwrap().name.clone());
    let (mut overlapping, mut without, mut allowed, mut names) = (0, 0, 0, Vec::new());
    let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
    for a in 0..c.shapes.len() {
        for b in a + 1..c.shapes.len() {
            if c.shapes[a].geometry == Geometry::HalfSpace || c.shapes[b].geometry == Geometry::HalfSpace {
                continue;
            }
            // the two ends of one joint, as the model's own rule reads them
            let ends = |p: usize, r: usize| m.joints.iter().any(|j| (j.child == p && j.parent == Some(r)) || (j.child == r && j.parent == Some(p)));
            if !c.may_collide(a, b, ends) {
                continue;
            }
            allowed += 1;
            if !maxdyn::model::shape::has_narrow_phase(c.shapes[a].geometry.kind(), c.shapes[b].geometry.kind()) {
                without += 1;
                continue;
            }
            let k = narrow_phase(&c.shapes[a].shape(), &c.shapes[b].shape(), &x, &q, 0.0, &mut out);
            let lowest = out[..k].iter().map(|p| p.gap(&x, &q)).fold(f64::INFINITY, f64::min);
            if lowest < 0.0 {
                overlapping += 1;
                names.push(format!("{}–{} {lowest:.3e}", name(a), name(b)));
            }
        }
    }
    ((overlapping, without, allowed), names)
}

/// What self-collision meets at the load pose. The A1: 190 robot pairs allowed, none
/// overlapping (80 of them box–cylinder or cylinder–cylinder, now with a narrow phase). The panda:
/// 99 pairs of its 8 finger boxes and 9 mesh hulls, 3 overlapping (the fingers are closed
/// at zero coordinates: open them before stepping).
#[test]
fn shape_pairs_that_overlap_at_the_load_pose_with_self_collision() {
    let u = Urdf::from_file_with(A1, &with(true, false, true)).unwrap();
    let (counts, names) = overlaps_at_load(&u);
    println!("A1 self-collision at the load pose: {counts:?} (overlapping, no narrow phase, allowed): {names:?}");
    assert_eq!(counts, (0, 0, 190));
    if require::corpus("shape_pairs_that_overlap_at_the_load_pose_with_self_collision", PANDA) {
        let u = Urdf::from_file_with(PANDA, &UrdfOptions { collision: true, self_collision: true, ..UrdfOptions::default() }).unwrap();
        let (counts, names) = overlaps_at_load(&u);
        println!("panda self-collision at the load pose: {counts:?}: {names:?}");
        // the mesh hulls too: link5's hull overlaps link7's (two of its hull pairs; the
        // SRDF disables that pair), and the fingers as before
        let expected = ["panda_link5–panda_link7 -5.653e-3", "panda_link5–panda_link7 -4.141e-2", "panda_leftfinger–panda_rightfinger -4.000e-5"];
        assert_eq!((counts, names), ((3, 0, 99), expected.map(String::from).to_vec()));
    }
}
