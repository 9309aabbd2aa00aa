//! Composed joints against the two or three revolutes they replace, with the intermediate
//! links given a small mass and inertia ε (loaded by the same loader as revolutes through
//! bodies): the trajectories converge as ε → 0, at the rate ε.

use super::*;
use crate::urdf::Urdf;
use crate::Sim;
use std::sync::Arc;

/// P (2 kg, on a revolute to the world) —a→ mid —b→ C, turned origins; `mid_inertial` is the middle
/// link's `<inertial>` element ("" for none), `third`: a second middle link and a third
/// revolute (a spherical joint).
fn robot(mid_inertial: &str, third: bool) -> String {
    let inertial = |m: f64, x: &str| format!(r#"<inertial><origin xyz="{x}" rpy="0.1 0.2 0.3"/><mass value="{m}"/><inertia ixx="0.02" ixy="0.001" ixz="0" iyy="0.03" iyz="0" izz="0.025"/></inertial>"#);
    let last_parent = if third { "mid2" } else { "mid" };
    let mut s = format!(
        r#"<robot name="r">
        <link name="world"/>
        <link name="p">{}</link>
        <link name="mid">{mid_inertial}</link>
        <link name="c">{}</link>
        <joint name="fix" type="revolute"><parent link="world"/><child link="p"/><origin xyz="0 0 1" rpy="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1"/></joint>
        <joint name="a" type="revolute"><parent link="p"/><child link="mid"/><origin xyz="0.1 -0.2 0.05" rpy="0.2 -0.4 0.7"/><axis xyz="0.6 0 0.8"/><limit lower="-1" upper="1"/></joint>
        <joint name="b" type="continuous"><parent link="{last_parent}"/><child link="c"/><origin xyz="0 0 0" rpy="-0.5 0.1 0.9"/><axis xyz="0 0 1"/></joint>
        "#,
        inertial(2.0, "0.05 0.1 -0.2"),
        inertial(1.0, "0.3 -0.1 0.2"),
    );
    if third {
        s += &format!(r#"<link name="mid2">{mid_inertial}</link><joint name="e" type="revolute"><parent link="mid"/><child link="mid2"/><origin xyz="0 0 0" rpy="0 0 0.4"/><axis xyz="0 1 0"/></joint>"#);
    }
    s + "</robot>"
}

/// The axis of `b` is (0, 0, 1) in c's frame; in mid's frame it must be ⟂ to a's
/// (0.6, 0, 0.8): with b's origin turned by rpy (−0.5, 0.1, 0.9) it generally is not, so
/// the two-joint robot turns b's axis to R⁻¹ applied to a vector ⟂ a.
fn perpendicular_robot(mid_inertial: &str) -> String {
    let r = rotation(&crate::urdf::rpy_quaternion(&V3::new(-0.5, 0.1, 0.9)));
    let b = r.transpose() * V3::new(0.8, 0.0, -0.6);
    robot(mid_inertial, false).replace(r#"<axis xyz="0 0 1"/>"#, &format!(r#"<axis xyz="{} {} {}"/>"#, b.x, b.y, b.z))
}

fn small(eps: f64, mass: f64) -> String {
    format!(r#"<inertial><mass value="{mass}"/><inertia ixx="{eps}" ixy="0" ixz="0" iyy="{eps}" iyz="0" izz="{eps}"/></inertial>"#)
}

/// The load, and the link frames of p and c after 0.5 s (dt = 0.01) falling from zero
/// coordinates.
fn run(xml: &str) -> (Urdf, Vec<f64>) {
    let u = Urdf::from_str(xml, false).unwrap();
    let mut sim = Sim::new(Arc::new(crate::Model::new(&u.builder).unwrap()), 0.01).unwrap();
    for _ in 0..50 {
        sim.step().unwrap();
    }
    // link frames (a body frame sits at its centre of mass, which merging moves)
    let mut out = Vec::new();
    for n in ["p", "c"] {
        let s = sim.body_state(u.body(n).unwrap()).unwrap();
        let body = Pose { x: V3::new(s[0], s[1], s[2]), q: crate::math::V4::new(s[3], s[4], s[5], s[6]) };
        let link = compose(&body, &super::super::frames::pose(&u.frame(n).unwrap()));
        out.extend(link.x.iter().chain(link.q.iter()).copied());
    }
    (u, out)
}

/// Each ten times smaller ε brings the loads ten times closer (within 1 %), from `first`.
#[track_caller]
fn assert_linear_in_eps(d: [f64; 2], first: f64) {
    assert!(d[0] < first, "{d:?}");
    assert!((d[0] / d[1] - 10.0).abs() < 0.1, "not ∝ ε: {d:?}");
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// Largest pose difference between the composed load and the load with the middle
/// links given (mass, inertia) = (mass(ε), ε), for ε = 1e-4 and 1e-5.
fn convergence(composed: &str, with: impl Fn(&str) -> String, mass: impl Fn(f64) -> f64) -> [f64; 2] {
    let (_, target) = run(composed);
    [1e-4, 1e-5].map(|eps| max_diff(&run(&with(&small(eps, mass(eps)))).1, &target))
}

#[test]
fn two_revolutes_through_a_massless_link_are_one_universal_joint() {
    let xml = perpendicular_robot("");
    let (u, _) = run(&xml);
    let j = u.joint("a+b").unwrap();
    let joint = u.builder.joint(j).unwrap();
    assert_eq!((joint.kind, joint.dof()), (JointType::Universal, 2));
    assert!(u.joint("a").is_none() && u.frame("mid").is_none());
    assert!(u.warnings.iter().any(|w| w.contains("one universal joint `a+b`") && w.contains("not applied: their <limit>s")), "{:?}", u.warnings);
    // 2.4964e-4, 2.4970e-5 measured (m, and quaternion components)
    assert_linear_in_eps(convergence(&xml, perpendicular_robot, |eps| eps), 2.6e-4);
}

#[test]
fn a_point_mass_at_the_crossing_is_merged_into_the_parent() {
    let point = r#"<inertial><mass value="0.1"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>"#;
    let xml = perpendicular_robot(point);
    let (u, _) = run(&xml);
    assert!((u.body_mass() + u.world_mass - 3.1).abs() < 1e-15, "{}", u.body_mass());
    // the middle body keeps its 0.1 kg, its inertia → 0: 2.8739e-4, 2.8746e-5 measured
    assert_linear_in_eps(convergence(&xml, perpendicular_robot, |_| 0.1), 3e-4);
}

#[test]
fn three_revolutes_through_massless_links_are_one_spherical_joint() {
    let xml = robot("", true);
    let (u, _) = run(&xml);
    let joint = u.builder.joint(u.joint("a+e+b").unwrap()).unwrap();
    assert_eq!(joint.kind, JointType::Spherical);
    // 4.9736e-3, 4.9961e-4 measured
    assert_linear_in_eps(convergence(&xml, |m| robot(m, true), |eps| eps), 5.1e-3);
}

#[test]
fn axes_that_are_not_perpendicular_are_refused_by_name() {
    let e = Urdf::from_str(&robot("", false), false).unwrap_err().to_string();
    assert!(e.contains("joints `a`, `b` through the link(s) `mid`") && e.contains("not perpendicular"), "{e}");
}


/// Chain from the massless world link: the point mass goes into the child's body.
#[test]
fn a_point_mass_after_a_massless_parent_is_merged_into_the_child() {
    let from_world = |mid: &str| perpendicular_robot(mid).replace(r#"<parent link="p"/><child link="mid"/>"#, r#"<parent link="world"/><child link="mid"/>"#);
    let point = r#"<inertial><mass value="0.1"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>"#;
    let xml = from_world(point);
    let u = Urdf::from_str(&xml, false).unwrap();
    let c = u.builder.body(u.body("c").unwrap()).unwrap();
    assert!((c.mass - 1.1).abs() < 1e-15 && u.world_mass == 0.0, "{} {}", c.mass, u.world_mass);
    // 3.4574e-4, 3.4610e-5 measured
    assert_linear_in_eps(convergence(&xml, from_world, |_| 0.1), 3.6e-4);
}
