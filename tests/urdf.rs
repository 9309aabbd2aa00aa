//! URDF loader: model facts (counts, masses), frame conventions checked against
//! independent rotation matrices, simulation of loaded models, malformed input.

use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Error, JointType, Model, Sim};
use nalgebra::{Matrix3, Rotation3, UnitQuaternion, Vector3};

fn model_path(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Fixed links kept as welded bodies: the counts below are those of the welded models
/// (tests/urdf_merge.rs has the merged ones).
fn load(name: &str, floating: bool) -> Urdf {
    Urdf::from_file_with(model_path(name), &UrdfOptions { floating, merge_fixed: false }).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn count_kind(u: &Urdf, kind: JointType) -> usize {
    (0..u.builder.joint_count()).filter(|&j| u.builder.joint(j).unwrap().kind == kind).count()
}

/// URDF rpy as an independent rotation matrix (nalgebra: roll, then pitch, then yaw
/// about fixed axes = Rz Ry Rx).
fn rpy(r: f64, p: f64, y: f64) -> Matrix3<f64> {
    *Rotation3::from_euler_angles(r, p, y).matrix()
}

fn quat_matrix(q: &nalgebra::Vector4<f64>) -> Matrix3<f64> {
    let uq = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(q[0], q[1], q[2], q[3]));
    *uq.to_rotation_matrix().matrix()
}

struct Facts {
    file: &'static str,
    floating: bool,
    bodies: usize,
    joints: usize,
    revolute: usize,
    fixed: usize,
    mass: f64,
    world_mass: f64,
}

#[test]
fn every_model_loads_with_documented_counts_and_mass() {
    let facts = [
        // the paper's walker: base (no inertia) is the world, floating_base is a Floating joint
        Facts { file: "a1_cd_paper_quadruped_simple.urdf", floating: false, bodies: 13, joints: 13, revolute: 12, fixed: 0, mass: 12.213, world_mass: 0.0 },
        // floating: the massless base's floating joint is dropped, the trunk is free
        Facts { file: "a1_cd_paper_quadruped_simple.urdf", floating: true, bodies: 13, joints: 12, revolute: 12, fixed: 0, mass: 12.213, world_mass: 0.0 },
        Facts { file: "a1_cd_examples_quadruped.urdf", floating: false, bodies: 17, joints: 17, revolute: 12, fixed: 5, mass: 12.453, world_mass: 0.0 },
        Facts { file: "a1_cd_examples_quadruped.urdf", floating: true, bodies: 17, joints: 16, revolute: 12, fixed: 4, mass: 12.453, world_mass: 0.0 },
        // 23 links: base (world) and 4 massless thigh_shoulder frames are not bodies; 10 fixed
        // joints of which the 4 carrying those frames are not joints
        Facts { file: "a1_unitree_ros.urdf", floating: false, bodies: 18, joints: 18, revolute: 12, fixed: 6, mass: 13.741, world_mass: 0.0 },
        Facts { file: "exoskeleton_cd_paper_model.urdf", floating: false, bodies: 6, joints: 6, revolute: 3, fixed: 2, mass: 16.106, world_mass: 1.0 },
        Facts { file: "exoskeleton_cd_paper_model.urdf", floating: true, bodies: 7, joints: 6, revolute: 3, fixed: 2, mass: 17.106, world_mass: 0.0 },
        Facts { file: "exoskeleton_dojo_model.urdf", floating: false, bodies: 6, joints: 6, revolute: 4, fixed: 2, mass: 16.106, world_mass: 1.0 },
        Facts { file: "fourbar_cd_loopjoint.urdf", floating: false, bodies: 4, joints: 5, revolute: 5, fixed: 0, mass: 4.0, world_mass: 0.0 },
        Facts { file: "doublependulum_cd.urdf", floating: false, bodies: 2, joints: 2, revolute: 2, fixed: 0, mass: 2.0, world_mass: 0.0 },
    ];
    for f in &facts {
        let u = load(f.file, f.floating);
        let what = format!("{} floating={}", f.file, f.floating);
        assert_eq!(u.builder.body_count(), f.bodies, "{what}: bodies");
        assert_eq!(u.builder.joint_count(), f.joints, "{what}: joints");
        assert_eq!(u.bodies.len(), f.bodies, "{what}: body map");
        assert_eq!(u.joints.len(), f.joints, "{what}: joint map");
        assert_eq!(count_kind(&u, JointType::Revolute), f.revolute, "{what}: revolute");
        assert_eq!(count_kind(&u, JointType::Fixed), f.fixed, "{what}: fixed");
        assert!((u.body_mass() - f.mass).abs() < 1e-9, "{what}: mass {}", u.body_mass());
        assert!((u.world_mass - f.world_mass).abs() < 1e-12, "{what}: world mass");
        // every name maps to the right id
        for (name, &id) in &u.bodies {
            assert_eq!(&u.builder.body(id).unwrap().name, name);
        }
        for (name, &id) in &u.joints {
            assert_eq!(&u.builder.joint(id).unwrap().name, name);
        }
        // compiles and starts consistent (except the four-bar's loop, see below)
        let m = Model::new(&u.builder).unwrap();
        let s = Sim::new(Arc::new(m), 0.001).unwrap();
        if !f.file.starts_with("fourbar") {
            assert!(s.constraint_violation() < 1e-14, "{what}: initial violation {:e}", s.constraint_violation());
        }
    }
    // the quadruped's 12 leg joints by name; the ball shoulder is spherical
    let a1 = load("a1_cd_paper_quadruped_simple.urdf", false);
    for leg in ["FR", "FL", "RR", "RL"] {
        for j in ["hip", "thigh", "calf"] {
            let id = a1.joint(&format!("{leg}_{j}_joint")).unwrap();
            assert_eq!(a1.builder.joint(id).unwrap().kind, JointType::Revolute);
        }
    }
    assert_eq!(a1.builder.joint(a1.joint("floating_base").unwrap()).unwrap().kind, JointType::Floating);
    assert_eq!(a1.frames["base"].body, None);
    let a1f = load("a1_cd_paper_quadruped_simple.urdf", true);
    assert!(a1f.joint("floating_base").is_none());
    let trunk = a1f.body("trunk").unwrap();
    assert!((0..a1f.builder.joint_count()).all(|j| a1f.builder.joint(j).unwrap().child != trunk));
    let exo = load("exoskeleton_cd_paper_model.urdf", false);
    assert_eq!(exo.builder.joint(exo.joint("shoulder").unwrap()).unwrap().kind, JointType::Spherical);
    let ros = load("a1_unitree_ros.urdf", false);
    assert_eq!(ros.frames["FR_thigh_shoulder"].body, ros.body("FR_hip"));
}

#[test]
#[allow(clippy::approx_constant)] // the file's literal 1.5707963268, not π/2
fn double_pendulum_frames_match_independent_rotations() {
    let u = load("doublependulum_cd.urdf", false);
    let (b1, b2) = (u.body("link1").unwrap(), u.body("link2").unwrap());
    let h = 1.5707963268; // as written in the file
    // link frames at zero angles from the joint origins
    let r1 = rpy(0.4, 0.0, h);
    let x1 = Vector3::new(0.0, 1.0, 0.0);
    let r2 = r1 * rpy(0.0, 0.0, h);
    let x2 = x1 + r1 * Vector3::new(0.0, 0.0, -1.0);
    // COMs: inertial origins in the link frames
    let c1 = x1 + r1 * Vector3::new(0.0, 0.0, -0.5);
    let c2 = x2 + r2 * Vector3::new(0.0, 0.5, 0.0);
    let body1 = u.builder.body(b1).unwrap();
    let body2 = u.builder.body(b2).unwrap();
    assert!((body1.x - c1).norm() < 1e-14, "{:?} vs {:?}", body1.x, c1);
    assert!((body2.x - c2).norm() < 1e-14);
    assert!((quat_matrix(&body1.q) - r1).norm() < 1e-14);
    assert!((quat_matrix(&body2.q) - r2).norm() < 1e-14);
    // inertia rotated by the inertial rpy (π/2 about x): y and z moments swap
    let ri = rpy(1.5707963268, 0.0, 0.0);
    let j0 = Matrix3::from_diagonal(&Vector3::new(0.0841667, 0.0841667, 0.00166667));
    let expected = ri * j0 * ri.transpose();
    assert!((body1.inertia - expected).norm() < 1e-15);
    assert!((body1.inertia[(1, 1)] - 0.00166667).abs() < 1e-10);
    // joint 1: world point (0,1,0), child point = link origin in the COM frame, axis x of
    // the joint frame seen in the world
    let j1 = u.builder.joint(u.joint("joint1").unwrap()).unwrap();
    assert_eq!(j1.parent, None);
    assert!((j1.p_parent - x1).norm() < 1e-15);
    assert!((j1.p_child - Vector3::new(0.0, 0.0, 0.5)).norm() < 1e-15);
    assert!((j1.axis - r1 * Vector3::x()).norm() < 1e-15);
    let j2 = u.builder.joint(u.joint("joint2").unwrap()).unwrap();
    assert_eq!(j2.parent, Some(b1));
    assert!((j2.p_parent - Vector3::new(0.0, 0.0, -0.5)).norm() < 1e-15);
    assert!((j2.p_child - Vector3::new(0.0, -0.5, 0.0)).norm() < 1e-15);
    assert!((j2.axis - rpy(0.0, 0.0, h) * Vector3::x()).norm() < 1e-15);

    // a joint angle θ turns the child link frame to R_origin·Rx(θ) (URDF convention)
    let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 0.01).unwrap();
    let th = 0.7;
    s.set_joint_position(u.joint("joint1").unwrap(), &[th]).unwrap();
    let st = s.body_state(b1).unwrap();
    let q = nalgebra::Vector4::new(st[3], st[4], st[5], st[6]);
    let r1t = r1 * rpy(th, 0.0, 0.0);
    assert!((quat_matrix(&q) - r1t).norm() < 1e-14);
    let c1t = x1 + r1t * Vector3::new(0.0, 0.0, -0.5);
    assert!((Vector3::new(st[0], st[1], st[2]) - c1t).norm() < 1e-14);
    let mut back = [0.0];
    s.joint_position(u.joint("joint1").unwrap(), &mut back).unwrap();
    assert!((back[0] - th).abs() < 1e-14);
}

#[test]
fn double_pendulum_urdf_simulates_exactly_on_its_joints() {
    let u = load("doublependulum_cd.urdf", false);
    let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 0.01).unwrap();
    s.set_joint_position(u.joint("joint1").unwrap(), &[1.0]).unwrap();
    s.set_joint_position(u.joint("joint2").unwrap(), &[-0.5]).unwrap();
    let (k0, p0) = s.energy();
    let e0 = k0 + p0;
    let mut worst_violation: f64 = 0.0;
    let mut worst_energy = [0.0f64; 2]; // first and second 10 s
    for k in 0..2000 {
        s.step().unwrap();
        worst_violation = worst_violation.max(s.constraint_violation());
        let (kin, pot) = s.energy();
        worst_energy[k / 1000] = worst_energy[k / 1000].max((kin + pot - e0).abs());
    }
    println!("double pendulum URDF, 20 s at dt 0.01: max violation {worst_violation:e}, max |E−E0| {:e} J then {:e} J (E0 = {e0})", worst_energy[0], worst_energy[1]);
    assert!(worst_violation < 1e-9, "violation {worst_violation:e}");
    // bounded energy error with no trend (measured 0.2245 J then 0.2236 J; it scales
    // with dt: 0.11 J at dt 0.005, 0.022 J at 0.001, and stays flat over 100 s)
    assert!(worst_energy[0] < 0.3 && worst_energy[1] < 0.3, "energy error {worst_energy:?}");
    assert!(worst_energy[1] < 1.5 * worst_energy[0], "energy error grows {worst_energy:?}");
    // it moved: both joints swung
    let mut a = [0.0];
    s.joint_position(u.joint("joint2").unwrap(), &mut a).unwrap();
    assert!((a[0] + 0.5).abs() > 1e-3);
}

#[test]
fn fourbar_loop_joint_closes_the_loop() {
    let u = load("fourbar_cd_loopjoint.urdf", false);
    let lj = u.builder.joint(u.joint("joint24").unwrap()).unwrap();
    assert_eq!(lj.kind, JointType::Revolute);
    assert_eq!((lj.parent, lj.child), (Some(u.body("link2").unwrap()), u.body("link4").unwrap()));
    // link frames at the links' tops, COMs 0.5 below: the loop point (0,0,-1) in each link
    assert!((lj.p_parent - Vector3::new(0.0, 0.0, -0.5)).norm() < 1e-15);
    assert!((lj.p_child - Vector3::new(0.0, 0.0, -0.5)).norm() < 1e-15);
    let model = Arc::new(Model::new(&u.builder).unwrap());
    assert_eq!(model.loop_count, 1);
    let mut s = Sim::new(model, 0.01).unwrap();
    // the file's origins (absolute link angles 0.1, 0.3, −0.1, −0.5 about x) do not close
    // the loop at zero angles: the violation is link4's end seen from link2's end, in link2
    let d = |a: f64| Vector3::new(0.0, a.sin(), -a.cos());
    let gap = (d(-0.1) + d(-0.5)) - (d(0.1) + d(0.3));
    let expected = (rpy(0.3, 0.0, 0.0).transpose() * gap).abs().max();
    assert!((s.constraint_violation() - expected).abs() < 1e-12, "{} vs {expected}", s.constraint_violation());
    // pose a rhombus: link2 parallel to link3 (abs −0.1), link4 parallel to link1 (abs 0.1);
    // joint24, the declared <loop_joint>, closes the loop and follows
    s.set_joint_position(u.joint("joint12").unwrap(), &[-0.4]).unwrap();
    s.set_joint_position(u.joint("joint34").unwrap(), &[0.6]).unwrap();
    assert!(s.constraint_violation() < 1e-14, "posed violation {:e}", s.constraint_violation());
    let mut worst: f64 = 0.0;
    for _ in 0..300 {
        s.step().unwrap();
        worst = worst.max(s.constraint_violation());
    }
    println!("four-bar URDF, 3 s: max violation {worst:e}");
    assert!(worst < 1e-9, "violation {worst:e}");
}

const TYPES_URDF: &str = r#"<robot name="types">
  <link name="world"/>
  <link name="slider"><inertial><origin xyz="0.1 0 0" rpy="0 0 0"/><mass value="2"/>
    <inertia ixx="0.1" iyy="0.2" izz="0.3" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="plate"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
  <link name="ball"><inertial><origin xyz="0 0 -0.2" rpy="0.3 -0.2 0.9"/><mass value="0.5"/>
    <inertia ixx="0.02" ixy="0.001" ixz="-0.002" iyy="0.03" iyz="0.003" izz="0.04"/></inertial></link>
  <link name="tool"/>
  <link name="free"><inertial><mass value="1"/><inertia ixx="0.1" iyy="0.1" izz="0.1"/></inertial></link>
  <joint name="slide" type="prismatic"><parent link="world"/><child link="slider"/>
    <origin xyz="0 0 1" rpy="0 0 1.5707963267948966"/><axis xyz="1 0 0"/></joint>
  <joint name="plane" type="planar"><parent link="slider"/><child link="plate"/><axis xyz="0 0 1"/></joint>
  <joint name="shoulder" type="ball"><parent link="plate"/><child link="ball"/><origin xyz="0 0 -0.5"/></joint>
  <joint name="mount" type="fixed"><parent link="ball"/><child link="tool"/><origin xyz="0 0 -0.4" rpy="0 1 0"/></joint>
  <joint name="drift" type="floating"><parent link="plate"/><child link="free"/></joint>
</robot>"#;

#[test]
fn joint_types_axes_and_inertial_frames() {
    let u = Urdf::from_str(TYPES_URDF, false).unwrap();
    let kind = |n: &str| u.builder.joint(u.joint(n).unwrap()).unwrap().kind;
    assert_eq!(kind("slide"), JointType::Prismatic);
    assert_eq!(kind("plane"), JointType::PlanarAxis);
    assert_eq!(kind("shoulder"), JointType::Spherical);
    assert_eq!(kind("drift"), JointType::Floating);
    assert!(u.joint("mount").is_none(), "a fixed joint carrying a massless link is a frame");
    let tool = u.frames["tool"];
    assert_eq!(tool.body, u.body("ball"));
    // tool frame in the ball's COM frame: link origin is 0.2 above the COM
    assert!((Vector3::from(tool.x) - Vector3::new(0.0, 0.0, -0.2)).norm() < 1e-15);

    // inertia with products, rotated into the link-oriented COM frame
    let ball = u.builder.body(u.body("ball").unwrap()).unwrap();
    let r = rpy(0.3, -0.2, 0.9);
    let j = Matrix3::new(0.02, 0.001, -0.002, 0.001, 0.03, 0.003, -0.002, 0.003, 0.04);
    assert!((ball.inertia - r * j * r.transpose()).norm() < 1e-15);

    // prismatic: the axis (x of the joint frame) is world y; a displacement of 0.3 moves
    // the slider's COM by 0.3 along world y
    let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 0.01).unwrap();
    let slider = u.body("slider").unwrap();
    let before = s.body_state(slider).unwrap();
    assert!((Vector3::new(before[0], before[1], before[2]) - Vector3::new(0.0, 0.1, 1.0)).norm() < 1e-15);
    s.set_joint_position(u.joint("slide").unwrap(), &[0.3]).unwrap();
    let after = s.body_state(slider).unwrap();
    assert!((Vector3::new(after[0] - before[0], after[1] - before[1], after[2] - before[2]) - Vector3::new(0.0, 0.3, 0.0)).norm() < 1e-14);
    assert_eq!(s.joint_dof(u.joint("plane").unwrap()).unwrap(), 3);
    assert_eq!(s.joint_dof(u.joint("shoulder").unwrap()).unwrap(), 3);
    assert!(s.constraint_violation() < 1e-14);
    // it runs: 100 steps under gravity keep the joints
    for _ in 0..100 {
        s.step().unwrap();
    }
    assert!(s.constraint_violation() < 1e-9, "violation {:e}", s.constraint_violation());
}

#[test]
fn massive_root_is_world_or_free_body() {
    let xml = r#"<robot name="r">
      <link name="a"><inertial><origin xyz="0 0 0.3"/><mass value="3"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
      <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0 0 -1"/><axis xyz="0 1 0"/></joint>
    </robot>"#;
    let fixed = Urdf::from_str(xml, false).unwrap();
    assert_eq!(fixed.builder.body_count(), 1);
    assert_eq!(fixed.world_mass, 3.0);
    assert_eq!(fixed.builder.joint(0).unwrap().parent, None);
    let free = Urdf::from_str(xml, true).unwrap();
    assert_eq!(free.builder.body_count(), 2);
    let a = free.body("a").unwrap();
    assert!((free.builder.body(a).unwrap().x - Vector3::new(0.0, 0.0, 0.3)).norm() < 1e-15);
    let j = free.builder.joint(0).unwrap();
    assert_eq!(j.parent, Some(a));
    assert!((j.p_parent - Vector3::new(0.0, 0.0, -1.3)).norm() < 1e-15);
}

/// Joints without an axis of motion (fixed, floating, spherical) ignore `<axis>`, as other
/// URDF loaders do: real files (talos, tiago, go2, kinova, so101, icub in
/// example-robot-data) give fixed joints `<axis xyz="0 0 0"/>`. The model equals the one
/// without the element; a revolute joint with a zero axis is still refused (below).
#[test]
fn fixed_joints_ignore_their_axis() {
    let xml = |axis: &str| {
        format!(
            r#"<robot name="r"><link name="w"/>
              <link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
              <link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>
              <joint name="weld" type="fixed"><parent link="w"/><child link="a"/><origin xyz="0 0 1"/>{axis}</joint>
              <joint name="ball" type="spherical"><parent link="a"/><child link="b"/><origin xyz="0 0 -1"/>{axis}</joint>
            </robot>"#
        )
    };
    let welded = UrdfOptions { merge_fixed: false, ..UrdfOptions::default() };
    let with = Urdf::from_str_with(&xml(r#"<axis xyz="0 0 0"/>"#), &welded).unwrap();
    let without = Urdf::from_str_with(&xml(""), &welded).unwrap();
    assert_eq!(with.builder.joint_count(), 2);
    for j in 0..2 {
        let (a, b) = (with.builder.joint(j).unwrap(), without.builder.joint(j).unwrap());
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }
}

/// `<dynamics damping>` is a joint damper: a flywheel (centre of mass on its vertical
/// axis, so gravity exerts no torque) spun at 1 rad/s slows as ω0·exp(−d t / I). Measured
/// at dt = 1e-3 over 2 s against exp(−0.8): relative error 1.6e-4 (issue bar 1 %; bound
/// 1e-3).
/// `friction` is listed as not simulated.
#[test]
fn urdf_joint_damping_decays_at_the_analytic_rate() {
    let xml = r#"<robot name="r"><link name="w"/>
      <link name="wheel"><inertial><mass value="2"/><inertia ixx="0.3" iyy="0.3" izz="0.5"/></inertial></link>
      <joint name="spin" type="continuous"><parent link="w"/><child link="wheel"/><axis xyz="0 0 1"/>
        <dynamics damping="0.2" friction="0.05"/></joint>
    </robot>"#;
    let u = Urdf::from_str(xml, false).unwrap();
    assert_eq!(u.warnings.len(), 1);
    assert!(u.warnings[0].contains("joint `spin`") && u.warnings[0].contains("friction"), "{:?}", u.warnings);
    let j = u.joint("spin").unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 1e-3).unwrap();
    sim.set_joint_velocity(j, &[1.0]).unwrap();
    for _ in 0..2000 {
        sim.step().unwrap();
    }
    let mut w = [0.0];
    sim.joint_velocity(j, &mut w).unwrap();
    let expected = (-0.2 * 2.0 / 0.5f64).exp();
    let err = (w[0] - expected).abs() / expected;
    println!("damped URDF joint after 2 s: {} rad/s, analytic {expected}, relative error {err:e}", w[0]);
    assert!(err < 1e-3, "{err}");
    // without <dynamics> no damper: the wheel keeps its speed
    let plain = Urdf::from_str(&xml.replace(r#"<dynamics damping="0.2" friction="0.05"/>"#, ""), false).unwrap();
    assert!(plain.warnings.is_empty());
    let mut sim = Sim::new(Arc::new(Model::new(&plain.builder).unwrap()), 1e-3).unwrap();
    sim.set_joint_velocity(j, &[1.0]).unwrap();
    for _ in 0..2000 {
        sim.step().unwrap();
    }
    sim.joint_velocity(j, &mut w).unwrap();
    assert!((w[0] - 1.0).abs() < 1e-9, "{}", w[0]);
}

fn urdf_error(xml: &str) -> String {
    match Urdf::from_str(xml, false) {
        Err(Error::Urdf(m)) => m,
        Err(e) => panic!("expected Error::Urdf, got {e:?} for {xml}"),
        Ok(_) => panic!("expected an error for {xml}"),
    }
}

#[test]
fn malformed_urdf_gives_urdf_errors_naming_the_element() {
    let link = |n: &str| format!(r#"<link name="{n}"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>"#);
    let joint = |n: &str, t: &str, p: &str, c: &str| format!(r#"<joint name="{n}" type="{t}"><parent link="{p}"/><child link="{c}"/></joint>"#);
    let robot = |body: String| format!("<robot name=\"x\"><link name=\"w\"/>{body}</robot>");
    let cases: Vec<(String, &str)> = vec![
        ("<robot><link name=\"a\"></robot>".into(), "malformed XML"),
        ("".into(), "malformed XML"),
        ("<model/>".into(), "<robot>"),
        ("<robot/>".into(), "no <link>"),
        (robot(format!("{}{}", link("a"), joint("j", "revolute", "w", "nope"))), "unknown link `nope`"),
        (robot(format!("{}{}", link("a"), joint("j", "screw", "w", "a"))), "joint `j`: unsupported joint type `screw`"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j"><parent link="w"/><child link="a"/></joint>"#)), "joint `j`: missing attribute `type`"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="fixed"><child link="a"/></joint>"#)), "joint `j`: missing <parent>"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="fixed"><parent link="w"/><child link="a"/><origin xyz="0 NaN 0"/></joint>"#)), "joint `j` <origin> `xyz`"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="fixed"><parent link="w"/><child link="a"/><origin xyz="0 1e999 0"/></joint>"#)), "not finite"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="fixed"><parent link="w"/><child link="a"/><origin rpy="0 0"/></joint>"#)), "must have 3 numbers"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="revolute"><parent link="w"/><child link="a"/><axis xyz="0 0 0"/></joint>"#)), "joint `j`: <axis> has zero length"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="revolute"><parent link="w"/><child link="a"/><dynamics damping="-1"/></joint>"#)), "joint `j` <dynamics> `damping`: -1 must be ≥ 0"),
        (robot(format!("{}{}", link("a"), r#"<joint name="j" type="revolute"><parent link="w"/><child link="a"/><dynamics friction="x"/></joint>"#)), "joint `j` <dynamics> `friction`"),
        (robot(r#"<link name="a"><inertial><mass value="abc"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>"#.into()), "link `a` <mass> `value`"),
        (robot(r#"<link name="a"><inertial><mass value="-1"/><inertia ixx="1" iyy="1" izz="1"/></inertial></link>"#.into()), "link `a`: negative mass"),
        (robot(r#"<link name="a"><inertial><mass value="1"/><inertia ixx="1" izz="1"/></inertial></link>"#.into()), "link `a` <inertia>: missing attribute `iyy`"),
        (robot(r#"<link name="a"><inertial><mass value="1"/></inertial></link>"#.into()), "link `a`: <inertial> with mass but without <inertia>"),
        (robot(format!("{}{}", r#"<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="-1" izz="1"/></inertial></link>"#, joint("j", "fixed", "w", "a"))), "link `a`: inertia"),
        (robot(format!("{}{}", link("a"), link("a"))), "link `a` is defined twice"),
        (robot(format!("{}{}{}", link("a"), joint("j", "fixed", "w", "a"), joint("j", "fixed", "w", "a"))), "joint `j` is defined twice"),
        (robot(format!("{}{}{}", link("a"), link("b"), joint("j", "fixed", "w", "a"))), "several root links"),
        // a cycle without loop_joint: b has two parents
        (robot(format!("{}{}{}{}{}", link("a"), link("b"), joint("j1", "revolute", "w", "a"), joint("j2", "revolute", "a", "b"), joint("j3", "revolute", "w", "b"))), "close it with <loop_joint>"),
        // a cycle detached from the root
        (robot(format!("{}{}{}{}", link("a"), link("b"), joint("j1", "revolute", "a", "b"), joint("j2", "revolute", "b", "a"))), "form a cycle"),
        (robot(format!("{}{}", link("a"), joint("j", "revolute", "a", "a"))), "parent and child are the same link"),
        (robot(format!("{}{}{}{}", r#"<link name="a"/>"#, link("b"), joint("j1", "revolute", "w", "a"), joint("j2", "revolute", "a", "b"))), "link `a` has no mass but is attached by the revolute joint `j1`"),
        (robot(format!("{}{}{}", link("a"), joint("j", "revolute", "w", "a"), r#"<loop_joint name="l" type="revolute"><link1 link="w"/><link2 link="zz"/></loop_joint>"#)), "loop_joint `l`: unknown link `zz`"),
        (robot(format!("{}{}{}", link("a"), joint("j", "revolute", "w", "a"), r#"<loop_joint name="l" type="revolute"><link1 link="a"/></loop_joint>"#)), "loop_joint `l`: missing <link2>"),
        (robot(format!("{}{}{}", link("a"), joint("j", "revolute", "w", "a"), r#"<loop_joint name="l" type="revolute"><link1 link="a"/><link2 link="a"/></loop_joint>"#)), "same rigid body"),
        (robot(format!("{}{}{}", link("a"), joint("j", "revolute", "w", "a"), r#"<loop_joint name="j" type="revolute"><link1 link="w"/><link2 link="a"/></loop_joint>"#)), "already used"),
    ];
    for (xml, needle) in &cases {
        let m = urdf_error(xml);
        assert!(m.contains(needle), "message `{m}` should contain `{needle}`\nfor {xml}");
    }
    // a floating base needs mass or one fixed/floating child
    let m = match Urdf::from_file(model_path("doublependulum_cd.urdf"), true) {
        Err(Error::Urdf(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(m.contains("root link `base_link`"), "{m}");
    assert!(matches!(Urdf::from_file("/nonexistent/x.urdf", false), Err(Error::Urdf(m)) if m.contains("cannot read")));
}

/// Deterministic pseudo-random numbers (no dependency).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

/// Parses, and compiles what parses; any panic fails the test.
fn never_panics(xml: &str) -> bool {
    let r = std::panic::catch_unwind(|| {
        if let Ok(u) = Urdf::from_str(xml, false) {
            let _ = Model::new(&u.builder);
            true
        } else {
            false
        }
    });
    r.unwrap_or_else(|_| panic!("panic on input:\n{xml}"))
}

#[test]
fn truncated_and_mutated_urdf_never_panics() {
    let mut accepted = 0;
    let mut rejected = 0;
    for file in ["doublependulum_cd.urdf", "fourbar_cd_loopjoint.urdf", "exoskeleton_cd_paper_model.urdf"] {
        let text = std::fs::read_to_string(model_path(file)).unwrap();
        // every truncation (on char boundaries)
        for cut in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
            if never_panics(&text[..cut]) {
                accepted += 1;
            } else {
                rejected += 1;
            }
        }
        // byte-level mutations with XML-significant and numeric characters
        let alphabet: &[u8] = b"<>\"'=/ 0.-e9xNa&";
        let mut rng = Lcg(0x5eed ^ text.len() as u64);
        for _ in 0..1500 {
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..1 + rng.next() % 3 {
                let i = rng.next() % bytes.len();
                match rng.next() % 3 {
                    0 => bytes[i] = alphabet[rng.next() % alphabet.len()],
                    1 => {
                        let end = (i + rng.next() % 20).min(bytes.len());
                        bytes.drain(i..end);
                    }
                    _ => bytes.insert(i, alphabet[rng.next() % alphabet.len()]),
                }
                if bytes.is_empty() {
                    break;
                }
            }
            if let Ok(s) = String::from_utf8(bytes) {
                if never_panics(&s) {
                    accepted += 1;
                } else {
                    rejected += 1;
                }
            }
        }
    }
    println!("fuzz: {accepted} inputs accepted, {rejected} rejected with Error::Urdf, no panic");
    // both paths were exercised
    assert!(accepted > 100 && rejected > 1000, "accepted {accepted}, rejected {rejected}");
}
