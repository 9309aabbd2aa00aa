//! Massless links between revolute joints whose axes meet at a point (human.urdf's hips
//! and ankles, icub's wrists): the joints through them are composed into one joint.
//!
//! A chain P —J₁→ L₁ —J₂→ C, or P —J₁→ L₁ —J₂→ L₂ —J₃→ C, of revolute joints whose
//! intermediate links L carry no inertia, and whose axes all pass through C's joint
//! point, moves C relative to P by rotations about that point only. Two joints with
//! perpendicular axes are exactly a universal joint (`joints::hooke`): q_rel =
//! exp(θ₁ a₁) ⊗ exp(θ₂ a₂), so its coordinates (α, β) are the two joint angles. Three
//! joints with independent axes reach every orientation near their configuration: a
//! spherical joint, whose coordinates are a rotation vector, not the three angles. A
//! massless link carries no inertia, so nothing is lost; a point mass at the meeting
//! point does not move relative to P (nor C), so it is merged into P (into C when P has no
//! `<inertial>`). The composed joint is named by its joints joined with `+`; their
//! `<limit>`s are not applied (one warning per composition says what was composed and
//! what is not applied), and the intermediate links are not frames (each moves with only
//! part of the joint).

use std::collections::HashSet;

use super::frames::{compose, inverse};
use super::inertial::{combine, MassPart};
use super::parse::{Description, Inertial, Joint, Link};
use super::tree::Tree;
use crate::joints::constraint::Pose;
use crate::joints::JointType;
use crate::math::{rotation, IDENTITY, V3};
use crate::model::{Error, Result};

/// The axes meet at C's joint point when each passes within this distance (m) of it
/// (files write the crossing exactly, up to round-off such as icub's 8e-18).
const MEET: f64 = 1e-9;
/// |sin| of the angle between two axes below which they are parallel.
const PARALLEL: f64 = 1e-9;
/// Largest |cos| between a universal joint's axes (`model::builder_universal`).
const PERPENDICULAR: f64 = 1e-6;
/// Smallest |det| of a spherical joint's three unit axes.
const INDEPENDENT: f64 = 1e-6;
/// Largest inertia entry (kg·m²) of an intermediate link: none, or a point mass (as in
/// `assemble`).
const POINT_MASS: f64 = 1e-15;

fn carries_no_inertia(l: &Link) -> bool {
    l.inertial.as_ref().is_none_or(|i| i.inertia.abs().max() <= POINT_MASS)
}

/// One chain to compose.
struct Chain {
    joints: Vec<usize>,
    mids: Vec<usize>,
    parent: usize,
    child: usize,
    /// C's link frame in P's at zero coordinates.
    child_in_parent: Pose,
    /// Each intermediate link's frame in P's at zero coordinates.
    mids_in_parent: Vec<Pose>,
    /// The axes in P's frame.
    axes: Vec<V3>,
}

/// `d` with each such chain composed into one joint; a warning per chain.
pub fn compose_massless_links(d: &Description, warnings: &mut Vec<String>) -> Result<Description> {
    let tree = Tree::new(d)?;
    let in_loops: HashSet<&str> = d.loop_joints.iter().flat_map(|lj| [lj.link1.as_str(), lj.link2.as_str()]).collect();
    let revolute = |ji: usize| d.joints[ji].kind == JointType::Revolute;
    // a link a chain passes through: on a revolute joint, one revolute child, no inertia
    let intermediate = |l: usize| {
        tree.parent_joint[l].is_some_and(revolute)
            && matches!(tree.children[l].as_slice(), [c] if revolute(*c))
            && carries_no_inertia(&d.links[l])
            && !in_loops.contains(d.links[l].name.as_str())
    };
    let mut chains = Vec::new();
    let mut taken = vec![false; d.links.len()];
    for &l in &tree.order {
        if taken[l] || !intermediate(l) {
            continue;
        }
        let j1 = tree.parent_joint[l].expect("intermediate links have a joint");
        let parent = tree.find(&d.joints[j1].parent, "joint")?;
        let (mut joints, mut mids, mut mids_in_parent) = (vec![j1], Vec::new(), Vec::new());
        let mut frame = d.joints[j1].origin;
        let mut axes = vec![rotation(&frame.q) * d.joints[j1].axis];
        let mut points = vec![frame.x];
        let mut c = l;
        while intermediate(c) && joints.len() < 3 {
            taken[c] = true;
            mids.push(c);
            mids_in_parent.push(frame);
            let jn = tree.children[c][0];
            frame = compose(&frame, &d.joints[jn].origin);
            axes.push(rotation(&frame.q) * d.joints[jn].axis);
            points.push(frame.x);
            joints.push(jn);
            c = tree.find(&d.joints[jn].child, "joint")?;
        }
        let off_axis = |(a, x): (&V3, &V3)| {
            let r = frame.x - x;
            (r - a * a.dot(&r)).norm()
        };
        // at one point: parallel axes are either apart or one line
        let parallel = axes.iter().enumerate().any(|(i, a)| axes[i + 1..].iter().any(|b| a.cross(b).norm() <= PARALLEL));
        let meet = !parallel && axes.iter().zip(&points).map(off_axis).fold(0.0, f64::max) <= MEET;
        let masses_at_point = mids.iter().zip(&mids_in_parent).all(|(&m, f)| {
            d.links[m].inertial.as_ref().is_none_or(|i| (MassPart::of(f, i).com - frame.x).norm() <= MEET)
        });
        // otherwise the assembly refuses the first intermediate link, naming it
        if intermediate(c) || !meet || !masses_at_point {
            continue;
        }
        chains.push(Chain { joints, mids, parent, child: c, child_in_parent: frame, mids_in_parent, axes });
    }
    if chains.is_empty() {
        return Ok(d.clone());
    }

    let mut out = Description { name: d.name.clone(), links: Vec::new(), joints: Vec::new(), loop_joints: d.loop_joints.clone() };
    let mut extra: Vec<Vec<MassPart>> = vec![Vec::new(); d.links.len()];
    let mut first_joint = vec![None; d.joints.len()];
    let mut gone_joints = HashSet::new();
    for ch in &chains {
        let joint = composed_joint(d, ch, warnings)?;
        first_joint[ch.joints[0]] = Some(joint);
        gone_joints.extend(ch.joints.iter().copied());
        // point masses at the meeting point: into P, or C when P has no <inertial>
        let into_parent = d.links[ch.parent].inertial.is_some();
        for (&m, f) in ch.mids.iter().zip(&ch.mids_in_parent) {
            let Some(i) = &d.links[m].inertial else { continue };
            if into_parent {
                extra[ch.parent].push(MassPart::of(f, i));
            } else {
                extra[ch.child].push(MassPart::of(&compose(&inverse(&ch.child_in_parent), f), i));
            }
        }
    }
    let gone_links: HashSet<usize> = chains.iter().flat_map(|c| c.mids.iter().copied()).collect();
    for (i, link) in d.links.iter().enumerate() {
        if gone_links.contains(&i) {
            continue;
        }
        let inertial = if extra[i].is_empty() {
            link.inertial.clone()
        } else {
            let mut parts: Vec<MassPart> = link.inertial.iter().map(|own| MassPart::of(&Pose::WORLD, own)).collect();
            parts.extend(extra[i].iter().copied());
            let c = combine(&parts);
            Some(Inertial { frame: Pose { x: c.com, q: IDENTITY }, mass: c.mass, inertia: c.inertia })
        };
        out.links.push(Link { name: link.name.clone(), inertial });
    }
    for (ji, j) in d.joints.iter().enumerate() {
        if let Some(c) = first_joint[ji].take() {
            out.joints.push(c);
        } else if !gone_joints.contains(&ji) {
            out.joints.push(j.clone());
        }
    }
    Ok(out)
}

/// The universal or spherical joint of a chain, with its warning.
fn composed_joint(d: &Description, ch: &Chain, warnings: &mut Vec<String>) -> Result<Joint> {
    let js: Vec<&Joint> = ch.joints.iter().map(|&j| &d.joints[j]).collect();
    let names: Vec<String> = js.iter().map(|j| format!("`{}`", j.name)).collect();
    let mids: Vec<String> = ch.mids.iter().map(|&m| format!("`{}`", d.links[m].name)).collect();
    let what = format!("joints {} through the link(s) {} without inertia", names.join(", "), mids.join(", "));
    let a = &ch.axes;
    // two axes: a universal joint, whose coordinates are the two joint angles
    let two_axes = a.len() == 2;
    let kind = if two_axes {
        let cos = a[0].dot(&a[1]);
        if cos.abs() > PERPENDICULAR {
            return Err(Error::Urdf(format!("{what}: their axes meet at a point but are not perpendicular (cos {cos}); maxdyn's universal joint needs perpendicular axes")));
        }
        JointType::Universal
    } else {
        let det = a[0].dot(&a[1].cross(&a[2]));
        if det.abs() < INDEPENDENT {
            return Err(Error::Urdf(format!("{what}: their axes meet at a point but are not independent (det {det}), so they do not make a spherical joint")));
        }
        JointType::Spherical
    };
    // the joint frame is C's link frame; the axes in it
    let to_joint = rotation(&ch.child_in_parent.q).transpose();
    let name = js.iter().map(|j| j.name.as_str()).collect::<Vec<_>>().join("+");
    let same_damping = js.iter().all(|j| j.damping == js[0].damping);
    let damping = if two_axes && same_damping { js[0].damping } else { 0.0 };
    let mut not_applied = Vec::new();
    if js.iter().any(|j| j.limit.is_some_and(|l| l.lower != 0.0 || l.upper != 0.0)) {
        not_applied.push("their <limit>s");
    }
    if damping == 0.0 && js.iter().any(|j| j.damping > 0.0) {
        not_applied.push("their <dynamics damping> (not one damping of the composed joint's coordinates)");
    }
    let coords = if two_axes { "its coordinates are the two joint angles" } else { "its coordinates are a rotation vector, not the three joint angles" };
    let tail = if not_applied.is_empty() { String::new() } else { format!("; not applied: {}", not_applied.join(", ")) };
    warnings.push(format!("{what}: their axes meet at a point, so they are one {} joint `{name}` ({coords}){tail}", if two_axes { "universal" } else { "spherical" }));
    Ok(Joint {
        name,
        type_name: if two_axes { "universal".into() } else { "spherical".into() },
        kind,
        parent: d.links[ch.parent].name.clone(),
        child: d.links[ch.child].name.clone(),
        origin: ch.child_in_parent,
        axis: to_joint * a[0],
        second_axis: if two_axes { to_joint * a[1] } else { V3::zeros() },
        damping,
        friction: js.iter().map(|j| j.friction).fold(0.0, f64::max),
        limit: None,
        mimic: None,
    })
}

#[cfg(test)]
#[path = "compose_tests.rs"]
mod tests;
