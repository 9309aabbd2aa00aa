//! Massless subtrees on moving joints: links with neither mass nor inertia anywhere below
//! a moving joint (romeo's finger chains) carry no dynamics, and their joints' motion is
//! not determined by anything. Leaving them out is exact for the rest of the robot; each
//! such subtree is listed in the warnings. A massless link with mass below it (between
//! two moving joints) is not a subtree of this kind and is refused by the assembly.

use std::collections::HashSet;

use super::parse::Description;
use super::tree::Tree;
use crate::joints::JointType;
use crate::model::{Error, Result};

/// `d` without its massless subtrees on moving joints; a warning for each.
pub fn drop_massless_subtrees(d: &Description, warnings: &mut Vec<String>) -> Result<Description> {
    let tree = Tree::new(d)?;
    let n = d.links.len();
    // whether a link or anything below it has mass or inertia (children before parents)
    let mut carries = vec![false; n];
    for &l in tree.order.iter().rev() {
        carries[l] |= d.links[l].inertial.is_some();
        if let Some(ji) = tree.parent_joint[l] {
            let p = tree.find(&d.joints[ji].parent, "joint")?;
            carries[p] |= carries[l];
        }
    }
    let mut dropped = vec![false; n];
    for &l in &tree.order {
        let Some(ji) = tree.parent_joint[l] else { continue };
        let j = &d.joints[ji];
        let p = tree.find(&j.parent, "joint")?;
        if dropped[p] {
            dropped[l] = true;
        } else if !carries[l] && j.kind != JointType::Fixed {
            dropped[l] = true;
            let below: Vec<&str> = subtree(&tree, d, l).into_iter().map(|k| d.links[k].name.as_str()).collect();
            warnings.push(format!(
                "joint `{}` ({}) carries only massless links ({}): no mass or inertia below it, so it has no dynamics; not simulated",
                j.name,
                j.type_name,
                below.join(", ")
            ));
        }
    }
    if !dropped.contains(&true) {
        return Ok(d.clone());
    }
    let gone: HashSet<&str> = (0..n).filter(|&l| dropped[l]).map(|l| d.links[l].name.as_str()).collect();
    for lj in &d.loop_joints {
        for link in [&lj.link1, &lj.link2] {
            if gone.contains(link.as_str()) {
                return Err(Error::Urdf(format!("loop_joint `{}`: link `{link}` has no mass and nothing with mass below its joint, so it is not simulated", lj.name)));
            }
        }
    }
    let mut out = d.clone();
    out.links.retain(|l| !gone.contains(l.name.as_str()));
    out.joints.retain(|j| !gone.contains(j.child.as_str()));
    Ok(out)
}

/// `l` and every link below it, parents first.
fn subtree(tree: &Tree, d: &Description, l: usize) -> Vec<usize> {
    let mut out = vec![l];
    let mut k = 0;
    while k < out.len() {
        for &ji in &tree.children[out[k]] {
            if let Ok(c) = tree.find(&d.joints[ji].child, "joint") {
                out.push(c);
            }
        }
        k += 1;
    }
    out
}
