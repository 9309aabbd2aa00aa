//! Fixed-joint links merged into their parent: each group of links joined by fixed joints
//! becomes its top link (the anchor: the root, or a link whose own joint moves) carrying
//! the group's exact mass properties. The other links of the group become frames on it.
//!
//! The description that comes out is again a URDF description (no fixed joints; moving
//! joints and loop joints re-attached to the anchors with composed origins), so the
//! assembly treats merged and welded loads alike. A group with a single massive link that
//! is the anchor keeps that link's `<inertial>` untouched, so such links give the same
//! bodies, bit for bit, as without merging.

use super::frames::compose;
use super::inertial::{combine, MassPart};
use super::parse::{Description, Inertial, Link};
use super::tree::Tree;
use crate::joints::constraint::Pose;
use crate::joints::JointType;
use crate::math::IDENTITY;
use crate::model::Result;

/// A link merged into another: its name, its anchor's name, its frame in the anchor's
/// link frame.
#[derive(Debug, Clone)]
pub struct MergedLink {
    pub name: String,
    pub anchor: String,
    pub in_anchor: Pose,
}

/// Merges every fixed joint of `d`. Returns the merged description and the merged links.
pub fn merge_fixed(d: &Description) -> Result<(Description, Vec<MergedLink>)> {
    let tree = Tree::new(d)?;
    let n = d.links.len();
    let mut anchor: Vec<usize> = (0..n).collect();
    let mut in_anchor = vec![Pose::WORLD; n];
    for &l in &tree.order {
        if let Some(ji) = tree.parent_joint[l] {
            let j = &d.joints[ji];
            if j.kind == JointType::Fixed {
                let p = tree.find(&j.parent, "joint")?;
                anchor[l] = anchor[p];
                in_anchor[l] = compose(&in_anchor[p], &j.origin);
            }
        }
    }

    let mut out = Description { name: d.name.clone(), ..Default::default() };
    let mut merged = Vec::new();
    for (a, link) in d.links.iter().enumerate() {
        if anchor[a] != a {
            merged.push(MergedLink { name: link.name.clone(), anchor: d.links[anchor[a]].name.clone(), in_anchor: in_anchor[a] });
            continue;
        }
        let massive: Vec<usize> = (0..n).filter(|&m| anchor[m] == a && d.links[m].inertial.is_some()).collect();
        let inertial = match massive.as_slice() {
            [] => None,
            [m] if *m == a => link.inertial.clone(),
            _ => {
                let parts: Vec<MassPart> = massive.iter().filter_map(|&m| d.links[m].inertial.as_ref().map(|i| MassPart::of(&in_anchor[m], i))).collect();
                let c = combine(&parts);
                Some(Inertial { frame: Pose { x: c.com, q: IDENTITY }, mass: c.mass, inertia: c.inertia })
            }
        };
        out.links.push(Link { name: link.name.clone(), inertial });
    }
    let reattach = |name: &str, frame: &Pose, what: &str| -> Result<(String, Pose)> {
        let l = tree.find(name, what)?;
        if anchor[l] == l {
            return Ok((name.to_string(), *frame)); // untouched, bit for bit
        }
        Ok((d.links[anchor[l]].name.clone(), compose(&in_anchor[l], frame)))
    };
    for j in d.joints.iter().filter(|j| j.kind != JointType::Fixed) {
        let (parent, origin) = reattach(&j.parent, &j.origin, &format!("joint `{}`", j.name))?;
        out.joints.push(super::parse::Joint { parent, origin, ..j.clone() });
    }
    for lj in &d.loop_joints {
        let what = format!("loop_joint `{}`", lj.name);
        let (link1, frame1) = reattach(&lj.link1, &lj.frame1, &what)?;
        let (link2, frame2) = reattach(&lj.link2, &lj.frame2, &what)?;
        out.loop_joints.push(super::parse::LoopJoint { link1, frame1, link2, frame2, ..lj.clone() });
    }
    Ok((out, merged))
}
