//! XML → plain URDF description (links, joints, loop joints). Only checks what a single
//! element can tell: required attributes, numbers (finite), joint types. The kinematic
//! checks (unknown links, cycles, roots) live in `assemble.rs`.

use super::caps::check_count;
use super::frames::origin;
use crate::joints::constraint::Pose;
use crate::joints::JointType;
use crate::math::{M3, V3};
use crate::model::{Error, Result};
use roxmltree::Node;

/// Mass properties of a link: COM frame in the link frame, inertia about the COM in
/// that (inertial) frame.
#[derive(Debug, Clone)]
pub struct Inertial {
    pub frame: Pose,
    pub mass: f64,
    pub inertia: M3,
}

#[derive(Debug, Clone)]
pub struct Link {
    pub name: String,
    /// None: a massless frame (no `<inertial>`, or zero mass and zero inertia). A link
    /// with zero mass but a nonzero inertia keeps it (mass 0).
    pub inertial: Option<Inertial>,
}

/// `<limit lower upper>` of a revolute or prismatic joint (URDF defaults: 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limit {
    pub lower: f64,
    pub upper: f64,
}

/// `<mimic joint multiplier offset>`: this joint's coordinate = multiplier · leader's + offset.
#[derive(Debug, Clone, PartialEq)]
pub struct MimicSpec {
    pub leader: String,
    pub multiplier: f64,
    pub offset: f64,
}

#[derive(Debug, Clone)]
pub struct Joint {
    pub name: String,
    /// The URDF `type` string, for messages.
    pub type_name: String,
    pub kind: JointType,
    pub parent: String,
    pub child: String,
    /// Child link frame in the parent link frame at zero joint coordinates.
    pub origin: Pose,
    /// Unit axis in the joint (child link) frame.
    pub axis: V3,
    /// A universal joint's second (child's) axis in the joint frame, for the joints that
    /// `compose` makes; zero otherwise.
    pub second_axis: V3,
    /// `<dynamics damping friction>` (0 when absent): viscous damping (N·s/m or
    /// N·m·s/rad) and Coulomb friction (N or N·m) of the joint's motion.
    pub damping: f64,
    pub friction: f64,
    /// `<limit>` of a revolute or prismatic joint (other types ignore it).
    pub limit: Option<Limit>,
    pub mimic: Option<MimicSpec>,
}

/// `<loop_joint>` (ConstrainedDynamics/Dojo extension): a joint between two links of an
/// already connected tree. `frame1`/`frame2` are the joint frames in link1/link2; they
/// coincide at zero joint coordinates. The axis is given in the joint frame.
#[derive(Debug, Clone)]
pub struct LoopJoint {
    pub name: String,
    pub kind: JointType,
    pub link1: String,
    pub frame1: Pose,
    pub link2: String,
    pub frame2: Pose,
    pub axis: V3,
}

#[derive(Debug, Clone, Default)]
pub struct Description {
    pub name: String,
    pub links: Vec<Link>,
    pub joints: Vec<Joint>,
    pub loop_joints: Vec<LoopJoint>,
}

fn err(msg: String) -> Error {
    Error::Urdf(msg)
}

/// Parses the document. Only the direct children `<link>`, `<joint>`, `<loop_joint>` of
/// `<robot>` are read (a `<transmission>` also holds `<joint>` elements).
pub fn parse(text: &str) -> Result<Description> {
    super::caps::check_attributes(text)?;
    let doc = roxmltree::Document::parse(text).map_err(|e| err(format!("malformed XML: {e}")))?;
    let robot = doc.root_element();
    if robot.tag_name().name() != "robot" {
        return Err(err(format!("root element is <{}>, expected <robot>", robot.tag_name().name())));
    }
    let mut d = Description { name: robot.attribute("name").unwrap_or("").to_string(), ..Default::default() };
    for n in robot.children().filter(Node::is_element) {
        let joints = d.joints.len() + d.loop_joints.len();
        match n.tag_name().name() {
            "link" => {
                check_count(d.links.len() + 1, "link")?;
                d.links.push(parse_link(n)?);
            }
            "joint" => {
                check_count(joints + 1, "joint")?;
                d.joints.push(parse_joint(n)?);
            }
            "loop_joint" => {
                check_count(joints + 1, "joint")?;
                d.loop_joints.push(parse_loop_joint(n)?);
            }
            _ => {} // materials, transmissions, gazebo tags: not dynamics
        }
    }
    Ok(d)
}

/// The `name` of a `<link>`, `<joint>` or `<loop_joint>`: present and not blank (the
/// model, its frames and every message name them), as other URDF loaders require.
fn element_name(n: Node, tag: &str) -> Result<String> {
    let name = required(n, "name", &format!("<{tag}>"))?;
    if name.trim().is_empty() {
        let line = n.document().text_pos_at(n.range().start).row;
        return Err(err(format!("<{tag}> at line {line}: empty `name` (a {tag} needs a name)")));
    }
    Ok(name.to_string())
}

pub(super) fn required<'a>(n: Node<'a, '_>, attr: &str, what: &str) -> Result<&'a str> {
    n.attribute(attr).ok_or_else(|| err(format!("{what}: missing attribute `{attr}`")))
}

pub(super) fn child<'a, 'i>(n: Node<'a, 'i>, tag: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| c.is_element() && c.tag_name().name() == tag)
}

pub(super) fn number(s: &str, what: &str) -> Result<f64> {
    let v: f64 = s.trim().parse().map_err(|_| err(format!("{what}: `{s}` is not a number")))?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(err(format!("{what}: `{s}` is not finite")))
    }
}

pub(super) fn vec3(s: &str, what: &str) -> Result<V3> {
    let parts: Vec<&str> = s.split_whitespace().collect();
    if parts.len() != 3 {
        return Err(err(format!("{what}: `{s}` must have 3 numbers")));
    }
    Ok(V3::new(number(parts[0], what)?, number(parts[1], what)?, number(parts[2], what)?))
}

/// An optional 3-vector attribute (URDF default: zeros).
fn vec3_attr(n: Node, attr: &str, what: &str) -> Result<V3> {
    match n.attribute(attr) {
        Some(s) => vec3(s, &format!("{what} `{attr}`")),
        None => Ok(V3::zeros()),
    }
}

/// `xyz`/`rpy` attributes of `n` (both default to zero).
fn pose_attrs(n: Node, what: &str) -> Result<Pose> {
    Ok(origin(vec3_attr(n, "xyz", what)?, vec3_attr(n, "rpy", what)?))
}

/// An optional `<origin>` child (identity when absent).
pub(super) fn origin_child(n: Node, what: &str) -> Result<Pose> {
    match child(n, "origin") {
        Some(o) => pose_attrs(o, &format!("{what} <origin>")),
        None => Ok(Pose::WORLD),
    }
}

fn parse_link(n: Node) -> Result<Link> {
    let name = element_name(n, "link")?;
    let what = format!("link `{name}`");
    let inertial = match child(n, "inertial") {
        None => None,
        Some(i) => {
            let frame = origin_child(i, &format!("{what} <inertial>"))?;
            let mass = match child(i, "mass") {
                Some(m) => number(required(m, "value", &format!("{what} <mass>"))?, &format!("{what} <mass> `value`"))?,
                None => return Err(err(format!("{what}: <inertial> without <mass>"))),
            };
            if mass < 0.0 {
                return Err(err(format!("{what}: negative mass {mass}")));
            }
            let inertia = match child(i, "inertia") {
                Some(j) => {
                    let w = format!("{what} <inertia>");
                    let get = |a: &str| number(required(j, a, &w)?, &format!("{w} `{a}`"));
                    // products of inertia default to 0 (as ConstrainedDynamics reads them)
                    let off = |a: &str| j.attribute(a).map_or(Ok(0.0), |s| number(s, &format!("{w} `{a}`")));
                    let (xx, xy, xz, yy, yz, zz) = (get("ixx")?, off("ixy")?, off("ixz")?, get("iyy")?, off("iyz")?, get("izz")?);
                    M3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz)
                }
                None if mass == 0.0 => M3::zeros(),
                None => return Err(err(format!("{what}: <inertial> with mass but without <inertia>"))),
            };
            if mass == 0.0 && inertia == M3::zeros() {
                None
            } else {
                Some(Inertial { frame, mass, inertia })
            }
        }
    };
    Ok(Link { name, inertial })
}

/// URDF joint type → maxdyn joint. `planar` is URDF's 3-DOF planar joint (translation
/// in the plane normal to the axis and rotation about it), maxdyn's PlanarAxis; `ball`
/// is the ConstrainedDynamics extension for a spherical joint.
fn joint_kind(t: &str, what: &str) -> Result<JointType> {
    Ok(match t {
        "revolute" | "continuous" => JointType::Revolute,
        "prismatic" => JointType::Prismatic,
        "fixed" => JointType::Fixed,
        "floating" => JointType::Floating,
        "planar" => JointType::PlanarAxis,
        "ball" | "spherical" => JointType::Spherical,
        _ => return Err(err(format!("{what}: unsupported joint type `{t}`"))),
    })
}

/// `<axis xyz>` in the joint frame; URDF's default is (1, 0, 0). Normalized. Joints
/// whose motion has no axis (fixed, floating, spherical) ignore it, as other URDF
/// loaders do: many real files give fixed joints `<axis xyz="0 0 0"/>`.
fn parse_axis(n: Node, kind: JointType, what: &str) -> Result<V3> {
    if matches!(kind, JointType::Fixed | JointType::Floating | JointType::Spherical) {
        return Ok(V3::x());
    }
    let a = match child(n, "axis") {
        Some(a) => vec3(required(a, "xyz", &format!("{what} <axis>"))?, &format!("{what} <axis> `xyz`"))?,
        None => V3::x(),
    };
    let norm = a.norm();
    if !norm.is_finite() || norm <= 1e-12 {
        return Err(err(format!("{what}: <axis> has zero length")));
    }
    Ok(a / norm)
}

/// `<dynamics damping friction>`: both default to 0, both finite and ≥ 0.
fn parse_dynamics(n: Node, what: &str) -> Result<(f64, f64)> {
    let Some(dyn_) = child(n, "dynamics") else { return Ok((0.0, 0.0)) };
    let get = |a: &str| -> Result<f64> {
        let w = format!("{what} <dynamics> `{a}`");
        let v = dyn_.attribute(a).map_or(Ok(0.0), |s| number(s, &w))?;
        if v < 0.0 {
            return Err(err(format!("{w}: {v} must be ≥ 0")));
        }
        Ok(v)
    };
    Ok((get("damping")?, get("friction")?))
}

fn parse_joint(n: Node) -> Result<Joint> {
    let name = element_name(n, "joint")?;
    let what = format!("joint `{name}`");
    let type_name = required(n, "type", &what)?.to_string();
    let kind = joint_kind(&type_name, &what)?;
    let link_of = |tag: &str| -> Result<String> {
        let e = child(n, tag).ok_or_else(|| err(format!("{what}: missing <{tag}>")))?;
        Ok(required(e, "link", &format!("{what} <{tag}>"))?.to_string())
    };
    let parent = link_of("parent")?;
    let child_link = link_of("child")?;
    let origin = origin_child(n, &what)?;
    let axis = parse_axis(n, kind, &what)?;
    let (damping, friction) = parse_dynamics(n, &what)?;
    let limit = if matches!(type_name.as_str(), "revolute" | "prismatic") { parse_limit(n, &what)? } else { None };
    let mimic = parse_mimic(n, &what)?;
    Ok(Joint { name, type_name, kind, parent, child: child_link, origin, axis, second_axis: V3::zeros(), damping, friction, limit, mimic })
}

/// An optional number attribute with its default.
fn number_attr(n: Node, attr: &str, default: f64, what: &str) -> Result<f64> {
    n.attribute(attr).map_or(Ok(default), |s| number(s, &format!("{what} `{attr}`")))
}

/// `<limit lower upper>` (both default to 0 as in the URDF spec; `effort` and `velocity`
/// are not dynamics of the model and are not read).
fn parse_limit(n: Node, what: &str) -> Result<Option<Limit>> {
    let Some(l) = child(n, "limit") else { return Ok(None) };
    let w = format!("{what} <limit>");
    let (lower, upper) = (number_attr(l, "lower", 0.0, &w)?, number_attr(l, "upper", 0.0, &w)?);
    if lower > upper {
        return Err(err(format!("{w}: lower {lower} > upper {upper}")));
    }
    Ok(Some(Limit { lower, upper }))
}

/// `<mimic joint multiplier="1" offset="0">`.
fn parse_mimic(n: Node, what: &str) -> Result<Option<MimicSpec>> {
    let Some(m) = child(n, "mimic") else { return Ok(None) };
    let w = format!("{what} <mimic>");
    let leader = required(m, "joint", &w)?.to_string();
    Ok(Some(MimicSpec { leader, multiplier: number_attr(m, "multiplier", 1.0, &w)?, offset: number_attr(m, "offset", 0.0, &w)? }))
}

/// Refuses the first link (file order) whose inertia has a negative principal moment
/// (after the bounds of `bounds.rs`, when on).
pub fn check_inertias(d: &Description) -> Result<()> {
    for l in &d.links {
        if let Some(i) = &l.inertial {
            check_principal_moments(&i.inertia, &format!("link `{}`", l.name))?;
        }
    }
    Ok(())
}

/// A link's own inertia must be positive semidefinite: a negative principal moment (beyond
/// round-off: 1e-9 of the largest entry, or 1e-15 kg·m²) is no rigid body, merged or not.
/// Zero moments are allowed here (point masses, thin rods); the body they end up in is
/// checked as a whole.
fn check_principal_moments(j: &M3, what: &str) -> Result<()> {
    let sym = 0.5 * (j + j.transpose());
    let scale = sym.abs().max();
    let smallest = sym.symmetric_eigenvalues().min();
    if smallest < -(1e-9 * scale + 1e-15) {
        return Err(err(format!("{what}: inertia has a negative principal moment {smallest:e} (not a rigid body)")));
    }
    Ok(())
}

fn parse_loop_joint(n: Node) -> Result<LoopJoint> {
    let name = element_name(n, "loop_joint")?;
    let what = format!("loop_joint `{name}`");
    let type_name = required(n, "type", &what)?.to_string();
    let kind = joint_kind(&type_name, &what)?;
    let end = |tag: &str| -> Result<(String, Pose)> {
        let e = child(n, tag).ok_or_else(|| err(format!("{what}: missing <{tag}>")))?;
        let w = format!("{what} <{tag}>");
        Ok((required(e, "link", &w)?.to_string(), pose_attrs(e, &w)?))
    };
    let (link1, frame1) = end("link1")?;
    let (link2, frame2) = end("link2")?;
    let axis = parse_axis(n, kind, &what)?;
    Ok(LoopJoint { name, kind, link1, frame1, link2, frame2, axis })
}
