//! Fixed-joint links merged into their parent body: exact mass properties (against an
//! independent parallel-axis computation), link frames by name, massless and mass-0
//! links, and the trajectories of merged and welded loads of the same robot.

use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Error, Model, Sim};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};

fn model_path(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn opts(floating: bool, merge_fixed: bool) -> UrdfOptions {
    UrdfOptions { floating, merge_fixed }
}

fn load(name: &str, o: UrdfOptions) -> Urdf {
    Urdf::from_file_with(model_path(name), &o).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn rpy(r: f64, p: f64, y: f64) -> Matrix3<f64> {
    *Rotation3::from_euler_angles(r, p, y).matrix()
}

/// Files without fixed joints give the same builder, bit for bit, merged or not.
#[test]
fn merging_leaves_files_without_fixed_joints_bit_identical() {
    for (file, floating) in [("doublependulum_cd.urdf", false), ("fourbar_cd_loopjoint.urdf", false), ("a1_cd_paper_quadruped_simple.urdf", true), ("a1_cd_paper_quadruped_simple.urdf", false)] {
        let (m, w) = (load(file, opts(floating, true)), load(file, opts(floating, false)));
        assert_eq!(format!("{:?}", m.builder), format!("{:?}", w.builder), "{file} floating={floating}");
    }
}

/// Merged loads of the fixtures: fewer bodies, the same total mass (bodies + world).
#[test]
fn merged_fixtures_have_fewer_bodies_and_the_same_mass() {
    // (file, floating, welded bodies, merged bodies)
    let cases = [
        ("a1_cd_examples_quadruped.urdf", false, 17, 12),
        ("a1_cd_examples_quadruped.urdf", true, 17, 13),
        ("a1_unitree_ros.urdf", false, 18, 12),
        ("a1_unitree_ros.urdf", true, 18, 13),
        ("exoskeleton_cd_paper_model.urdf", false, 6, 4),
        ("exoskeleton_cd_paper_model.urdf", true, 7, 5),
        ("exoskeleton_dojo_model.urdf", false, 6, 4),
    ];
    for (file, floating, welded, merged) in cases {
        let (m, w) = (load(file, opts(floating, true)), load(file, opts(floating, false)));
        assert_eq!((w.builder.body_count(), m.builder.body_count()), (welded, merged), "{file} floating={floating}");
        let (mm, mw) = (m.body_mass() + m.world_mass, w.body_mass() + w.world_mass);
        assert!((mm - mw).abs() <= 1e-14 * mw, "{file}: {mm} vs {mw}");
        assert!((0..m.builder.joint_count()).all(|j| m.builder.joint(j).unwrap().kind != maxdyn::JointType::Fixed), "{file}: no fixed joint is left");
        // every link has a frame, merged or welded, in the builder too, and each body's
        // link is named
        let mut names: Vec<&String> = m.frames.keys().collect();
        let mut welded_names: Vec<&String> = w.frames.keys().collect();
        names.sort();
        welded_names.sort();
        assert_eq!(names, welded_names, "{file}");
        assert_eq!(m.builder.frames().len(), m.frames.len(), "{file}");
        for (name, &b) in &m.bodies {
            assert_eq!(m.frame(name).unwrap().body, Some(b));
            assert_eq!(m.body_of(name), Some(b));
        }
        Model::new(&m.builder).unwrap();
    }
}

/// Two links on a fixed joint with turned frames merge into one body whose mass, centre
/// and inertia equal an independent parallel-axis sum; the child link's frame sits where
/// the joint origin puts it.
#[test]
fn composite_inertia_equals_the_parallel_axis_sum() {
    let xml = r#"<robot name="r"><link name="w"/>
      <link name="a"><inertial><origin xyz="0.1 0.2 0.3" rpy="0.3 0.2 0.1"/><mass value="2"/>
        <inertia ixx="0.4" ixy="0.01" ixz="0.02" iyy="0.5" iyz="0.03" izz="0.6"/></inertial></link>
      <link name="b"><inertial><origin xyz="0 0 -0.25" rpy="-0.5 0 0.7"/><mass value="3"/>
        <inertia ixx="0.2" iyy="0.3" izz="0.35"/></inertial></link>
      <link name="tip"/>
      <joint name="hinge" type="revolute"><parent link="w"/><child link="a"/><origin xyz="0 0 1" rpy="0.1 0 0"/><axis xyz="0 1 0"/></joint>
      <joint name="weld" type="fixed"><parent link="a"/><child link="b"/><origin xyz="0.5 -0.1 0.2" rpy="0.2 -0.4 1.1"/></joint>
      <joint name="tool" type="fixed"><parent link="b"/><child link="tip"/><origin xyz="0 0 -0.5"/></joint>
    </robot>"#;
    let u = Urdf::from_str(xml, false).unwrap();
    assert_eq!(u.builder.body_count(), 1);
    assert!(u.joint("weld").is_none() && u.joint("hinge").is_some());
    let body = u.builder.body(u.body("a").unwrap()).unwrap();
    // independently, in link a's frame
    let (ra, ca) = (rpy(0.3, 0.2, 0.1), Vector3::new(0.1, 0.2, 0.3));
    let ja = ra * Matrix3::new(0.4, 0.01, 0.02, 0.01, 0.5, 0.03, 0.02, 0.03, 0.6) * ra.transpose();
    let (rb_link, xb_link) = (rpy(0.2, -0.4, 1.1), Vector3::new(0.5, -0.1, 0.2));
    let cb: Vector3<f64> = xb_link + rb_link * Vector3::new(0.0, 0.0, -0.25);
    let rb = rb_link * rpy(-0.5, 0.0, 0.7);
    let jb = rb * Matrix3::from_diagonal(&Vector3::new(0.2, 0.3, 0.35)) * rb.transpose();
    let c: Vector3<f64> = (2.0 * ca + 3.0 * cb) / 5.0;
    let shift = |m: f64, d: Vector3<f64>| m * (Matrix3::identity() * d.norm_squared() - d * d.transpose());
    let j = ja + shift(2.0, ca - c) + jb + shift(3.0, cb - c);
    assert_eq!(body.mass, 5.0);
    // measured: 1.1e-16 (inertia), 0 (centre); the body frame has link a's orientation
    assert!((body.inertia - j).norm() < 1e-15, "{:e}", (body.inertia - j).norm());
    let ra_world = rpy(0.1, 0.0, 0.0);
    let c_world: Vector3<f64> = Vector3::new(0.0, 0.0, 1.0) + ra_world * c;
    assert!((body.x - c_world).norm() < 1e-15);
    // frames: a at −c in the body; tip at x_b + R_b (0, 0, −0.5) − c
    let a = u.frame("a").unwrap();
    assert!((Vector3::<f64>::from(a.x) + c).norm() < 1e-15);
    let tip = u.frame("tip").unwrap();
    assert_eq!(tip.body, u.body("a"));
    assert_eq!((u.body("b"), u.body_of("b"), u.body_of("w")), (None, u.body("a"), None), "b is part of a's body");
    assert!((Vector3::<f64>::from(tip.x) - (xb_link + rb_link * Vector3::new(0.0, 0.0, -0.5) - c)).norm() < 1e-15);
    let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(tip.q[0], tip.q[1], tip.q[2], tip.q[3]));
    assert!((q.to_rotation_matrix().matrix() - rb_link).norm() < 1e-15);
    // the world root is a frame on the world
    assert_eq!(u.frame("w").unwrap().body, None);
    let names: Vec<&str> = u.builder.frames().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["w", "a", "b", "tip"], "every link, in file order");
}

/// A massless root with 18 fixed children (a dummy root carrying sensors) merges into one
/// free body; a mass-0 link with an inertia keeps it when merged and is refused alone.
#[test]
fn dummy_roots_and_mass_zero_inertias() {
    let mut xml = String::from(r#"<robot name="r"><link name="root"/>"#);
    for k in 0..18 {
        let m = if k == 0 { 1.0 } else { 1e-6 };
        xml += &format!(r#"<link name="s{k}"><inertial><mass value="{m}"/><inertia ixx="1e-6" iyy="1e-6" izz="1e-6"/></inertial></link>"#);
        xml += &format!(r#"<joint name="j{k}" type="fixed"><parent link="root"/><child link="s{k}"/><origin xyz="{} 0 0"/></joint>"#, 0.01 * k as f64);
    }
    xml += "</robot>";
    let u = Urdf::from_str(&xml, true).unwrap();
    assert_eq!(u.builder.body_count(), 1);
    // the same sum in the same order (17e-6 written as a literal differs by 1.3e-15)
    let expected = (1..18).fold(1.0, |m, _| m + 1e-6);
    assert!((u.body_mass() - expected).abs() < 1e-15, "{:e}", u.body_mass() - expected);
    let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 1e-3).unwrap();
    s.step().unwrap();

    let foot = |joint: &str| {
        format!(
            r#"<robot name="r"><link name="w"/>
          <link name="leg"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
          <link name="foot"><inertial><mass value="0"/><inertia ixx="0.01" iyy="0.02" izz="0.03"/></inertial></link>
          <joint name="hip" type="revolute"><parent link="w"/><child link="leg"/></joint>
          <joint name="ankle" type="{joint}"><parent link="leg"/><child link="foot"/><origin xyz="0 0 -1"/></joint></robot>"#
        )
    };
    let merged = Urdf::from_str(&foot("fixed"), false).unwrap();
    let leg = merged.builder.body(0).unwrap();
    assert_eq!(leg.mass, 1.0);
    // the foot's inertia is kept: 0.1 + 0.01, 0.1 + 0.02, 0.1 + 0.03 (no mass, no shift)
    assert!((leg.inertia - Matrix3::from_diagonal(&Vector3::new(0.11, 0.12, 0.13))).norm() < 1e-16);
    match Urdf::from_str(&foot("revolute"), false) {
        Err(Error::Urdf(m)) => assert!(m.contains("link `foot`: mass 0 with a nonzero inertia"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// A point mass merges exactly (its parallel-axis term); as a body of its own it is refused.
#[test]
fn point_masses() {
    let xml = |joint: &str| {
        format!(
            r#"<robot name="r"><link name="w"/>
          <link name="arm"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
          <link name="bob"><inertial><mass value="2"/><inertia ixx="0" iyy="0" izz="0"/></inertial></link>
          <joint name="j" type="revolute"><parent link="w"/><child link="arm"/></joint>
          <joint name="k" type="{joint}"><parent link="arm"/><child link="bob"/><origin xyz="0 0 -0.3"/></joint></robot>"#
        )
    };
    let u = Urdf::from_str(&xml("fixed"), false).unwrap();
    let b = u.builder.body(0).unwrap();
    // centre at −0.2; about it: 0.1 + 1·0.2² + 2·0.1² = 0.16 about x and y, 0.1 about z
    assert!((b.x - Vector3::new(0.0, 0.0, -0.2)).norm() < 1e-15);
    assert!((b.inertia - Matrix3::from_diagonal(&Vector3::new(0.16, 0.16, 0.1))).norm() < 1e-15);
    match Urdf::from_str(&xml("revolute"), false) {
        Err(Error::Urdf(m)) => assert!(m.contains("link `bob`: a point mass"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// Links with no mass or inertia anywhere below a moving joint (romeo's fingers) are left
/// out with a warning naming them; the rest of the robot is unchanged.
#[test]
fn massless_subtrees_on_moving_joints_are_left_out_with_a_warning() {
    let xml = r#"<robot name="r"><link name="w"/>
      <link name="palm"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
      <link name="f1"/><link name="f2"/><link name="nail"/>
      <joint name="wrist" type="revolute"><parent link="w"/><child link="palm"/></joint>
      <joint name="finger1" type="revolute"><parent link="palm"/><child link="f1"/><limit lower="0" upper="1"/></joint>
      <joint name="finger2" type="revolute"><parent link="f1"/><child link="f2"/><mimic joint="finger1"/></joint>
      <joint name="tip" type="fixed"><parent link="f2"/><child link="nail"/></joint>
    </robot>"#;
    let u = Urdf::from_str(xml, false).unwrap();
    assert_eq!((u.builder.body_count(), u.builder.joint_count()), (1, 1));
    assert!(u.frame("f1").is_none() && u.frame("nail").is_none() && u.joint("finger1").is_none());
    assert_eq!(u.frames.len(), 2, "w and palm");
    assert_eq!(u.warnings.len(), 2, "{:?}", u.warnings);
    assert!(u.warnings[0].contains("joint `finger1` (revolute) carries only massless links (f1, f2)"), "{}", u.warnings[0]);
    assert!(u.warnings[1].contains("joint `finger2` <mimic joint=\"finger1\">: not applied"), "{}", u.warnings[1]);
}

/// `<limit>` and `<mimic>` reach the builder; `lower == upper == 0` is no limit with a
/// warning; continuous joints have no limit.
#[test]
fn limits_and_mimics_reach_the_builder() {
    let xml = r#"<robot name="r"><link name="w"/>
      <link name="a"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
      <link name="b"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
      <link name="c"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
      <link name="d"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
      <joint name="j1" type="revolute"><parent link="w"/><child link="a"/><limit lower="-1.5" upper="2" effort="10" velocity="3"/></joint>
      <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><limit upper="0.04"/><mimic joint="j1" multiplier="-0.5" offset="0.01"/></joint>
      <joint name="j3" type="continuous"><parent link="b"/><child link="c"/><limit lower="-1" upper="1"/><mimic joint="j1"/></joint>
      <joint name="j4" type="revolute"><parent link="c"/><child link="d"/><limit lower="0" upper="0"/></joint>
    </robot>"#;
    let u = Urdf::from_str(xml, false).unwrap();
    let (j1, j2, j3) = (u.joint("j1").unwrap(), u.joint("j2").unwrap(), u.joint("j3").unwrap());
    let limits = u.builder.joint_limits();
    assert_eq!(limits.len(), 2);
    assert_eq!((limits[0].joint, limits[0].coordinate, limits[0].lower, limits[0].upper), (j1, 0, -1.5, 2.0));
    assert_eq!((limits[1].joint, limits[1].lower, limits[1].upper), (j2, 0.0, 0.04));
    let mimics = u.builder.mimics();
    assert_eq!(mimics.len(), 2);
    assert_eq!((mimics[0].follower, mimics[0].leader, mimics[0].multiplier, mimics[0].offset), (j2, j1, -0.5, 0.01));
    assert_eq!((mimics[1].follower, mimics[1].leader, mimics[1].multiplier, mimics[1].offset), (j3, j1, 1.0, 0.0));
    assert_eq!(u.warnings, ["joint `j4`: <limit lower=\"0\" upper=\"0\"> is read as no limit"]);
    let m = Model::new(&u.builder).unwrap();
    assert_eq!((m.limits.len(), m.mimics.len()), (2, 2));
    // lower > upper is the file's defect, named
    match Urdf::from_str(&xml.replace(r#"lower="-1.5" upper="2""#, r#"lower="2" upper="-1.5""#), false) {
        Err(Error::Urdf(m)) => assert!(m.contains("joint `j1` <limit>: lower 2 > upper -1.5"), "{m}"),
        other => panic!("{other:?}"),
    }
}

/// World pose of a link frame: its body's pose composed with the frame.
fn link_pose(s: &Sim, u: &Urdf, link: &str) -> (Vector3<f64>, Matrix3<f64>) {
    let f = u.frame(link).unwrap();
    let rot = |q: [f64; 4]| *UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0], q[1], q[2], q[3])).to_rotation_matrix().matrix();
    let (x, r) = (Vector3::from(f.x), rot(f.q));
    match f.body {
        None => (x, r),
        Some(b) => {
            let st = s.body_state(b).unwrap();
            let rb = rot([st[3], st[4], st[5], st[6]]);
            (Vector3::new(st[0], st[1], st[2]) + rb * x, rb * r)
        }
    }
}

/// Largest distance between the link frames of a merged and a welded load over `seconds`
/// at `dt`, from the same joint angles (position error + rotation error in radians ×1 m).
fn merged_vs_welded(file: &str, floating: bool, pose: &[(&str, f64)], dt: f64, seconds: f64) -> (usize, usize, f64) {
    let (m, w) = (load(file, opts(floating, true)), load(file, opts(floating, false)));
    let start = |u: &Urdf| {
        let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), dt).unwrap();
        for (j, q) in pose {
            s.set_joint_position(u.joint(j).unwrap(), &[*q]).unwrap();
        }
        s
    };
    let (mut sm, mut sw) = (start(&m), start(&w));
    let links: Vec<&String> = m.frames.keys().collect();
    let mut worst: f64 = 0.0;
    for _ in 0..(seconds / dt).round() as usize {
        sm.step().unwrap();
        sw.step().unwrap();
        for l in &links {
            let ((xm, rm), (xw, rw)) = (link_pose(&sm, &m, l), link_pose(&sw, &w, l));
            worst = worst.max((xm - xw).norm()).max((rm - rw).norm());
        }
    }
    (m.builder.body_count(), w.builder.body_count(), worst)
}

/// Merged and welded loads of the same robot follow the same trajectory (issue 11: to
/// 1e-9 over 1 s). In the continuous dynamics a welded pair is the merged body; their
/// discrete Lagrangians differ, so the trajectories agree to first order in dt in
/// general (the panda, tests/urdf_corpus.rs); for these two robots the differences are at
/// the Newton tolerance (1e-10) carried over 1 s and do not shrink with dt. Largest
/// link-frame difference over 1 s (position in m plus rotation-matrix difference):
///   A1 (unitree_ros), floating, 13 vs 18 bodies, legs falling from a crouch:
///     dt 1e-3: 2.3e-10; dt 1e-4: 5.8e-10
///   exoskeleton (dojo), fixed base, 4 vs 6 bodies, arm swinging:
///     dt 1e-3: 4.1e-12; dt 1e-4: 1.2e-13
#[test]
fn merged_and_welded_loads_follow_the_same_trajectory() {
    let legs: Vec<(String, f64)> = ["FR", "FL", "RR", "RL"].iter().flat_map(|l| [(format!("{l}_hip_joint"), 0.2), (format!("{l}_thigh_joint"), 0.7), (format!("{l}_calf_joint"), -1.3)]).collect();
    let legs: Vec<(&str, f64)> = legs.iter().map(|(n, q)| (n.as_str(), *q)).collect();
    let arm = [("sAA", 0.3), ("sFE", 0.5), ("eFE", 0.8)];
    let cases: [(&str, bool, &[(&str, f64)], f64, f64); 4] = [
        ("a1_unitree_ros.urdf", true, &legs, 1e-3, 1e-9),
        ("a1_unitree_ros.urdf", true, &legs, 1e-4, 1e-9),
        ("exoskeleton_dojo_model.urdf", false, &arm, 1e-3, 2e-11),
        ("exoskeleton_dojo_model.urdf", false, &arm, 1e-4, 1e-12),
    ];
    for (file, floating, pose, dt, bound) in cases {
        let (nm, nw, d) = merged_vs_welded(file, floating, pose, dt, 1.0);
        println!("{file} floating={floating}: {nm} merged vs {nw} welded bodies, dt {dt:e}: largest link-frame difference over 1 s {d:e}");
        assert!(nm < nw, "{file}: merged has fewer bodies");
        assert!(d < bound, "{file} dt {dt}: {d:e}");
        assert!(d > 0.0, "two different models are compared, not one model twice");
    }
}
