//! URDF description → Builder.
//!
//! Frames. A maxdyn body frame sits at the link's centre of mass with the link frame's
//! orientation, so the URDF inertia (given in the `<inertial>` frame) is rotated into
//! it: J = R J_inertial Rᵀ. A joint's p_parent/p_child are its joint point in the two
//! body frames, its axis is in the parent body frame, and its orientation offset is the
//! child body's orientation relative to the parent body at zero coordinates. URDF puts
//! the joint frame at the child link frame, placed by `<origin>` in the parent link
//! frame; its axis is given in that joint frame.
//!
//! Links without mass are frames: the root (when it is the world) or a link attached by
//! a fixed joint, which then rides on its parent's body. (With merging, `merge.rs` has
//! already folded every fixed joint, so only the welded load meets fixed joints here.)

use std::collections::HashMap;

use super::frames::{compose, inverse};
use super::parse::{Description, Joint, Link};
use super::tree::Tree;
use super::{refused_by_builder, LinkFrame, Urdf};
use crate::joints::constraint::Pose;
use crate::joints::JointType;
use crate::math::{conj, qmul, rotation, M3, V3};
use crate::model::body::check_mass;
use crate::model::{BodyId, Builder, Error, Inertia, JointId, Parent, Result};

/// A singular inertia whose largest entry is at most this (kg·m²) is a point mass: files
/// write zeros, or round-off such as 1e-20 (icub).
const POINT_MASS: f64 = 1e-15;

fn err(msg: String) -> Error {
    Error::Urdf(msg)
}

/// What a link is attached to rigidly: the world or one body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Owner {
    World,
    Body(BodyId),
}

/// One link's placement: its owner, its frame in the owner's frame, its world pose at
/// zero coordinates.
#[derive(Debug, Clone, Copy)]
struct Placed {
    owner: Owner,
    in_owner: Pose,
}

fn is_massive(l: &Link) -> bool {
    l.inertial.is_some()
}

pub fn assemble(d: &Description, floating: bool) -> Result<Urdf> {
    let Tree { link_index, parent_joint, children, root, order, world_pose } = Tree::new(d)?;
    let find = |name: &str, what: &str| -> Result<usize> {
        link_index.get(name).copied().ok_or_else(|| err(format!("{what}: unknown link `{name}`")))
    };

    // --- bodies, in document order: every massive link except a fixed root
    let root_is_world = !floating;
    let mut b = Builder::new();
    let mut bodies = HashMap::new();
    let mut body_pose: Vec<Pose> = Vec::new();
    let mut placed: Vec<Option<Placed>> = vec![None; d.links.len()];
    let mut world_mass = 0.0;
    for (i, l) in d.links.iter().enumerate() {
        let Some(inertial) = &l.inertial else { continue };
        if i == root && root_is_world {
            world_mass += inertial.mass;
            continue;
        }
        let what = format!("link `{}`", l.name);
        let r = rotation(&inertial.frame.q);
        let j: M3 = r * inertial.inertia * r.transpose();
        let j = 0.5 * (j + j.transpose()); // exact symmetry after rotation
        // the mass first: a link with both wrong reports the mass
        if inertial.mass == 0.0 {
            return Err(err(format!("{what}: mass 0 with a nonzero inertia, and no fixed joint merges it into a body with mass (a body needs mass; its inertia is not dropped silently)")));
        }
        if j.abs().max() <= POINT_MASS && Inertia::from_matrix_lenient(j).is_err() {
            return Err(err(format!(
                "{what}: a point mass (zero inertia) that is a body of its own: the body equations need a positive definite rotational inertia (merge it through a fixed joint, or give it one)"
            )));
        }
        let inertia = check_mass(inertial.mass).and_then(|_| Inertia::from_matrix_lenient(j));
        let id = inertia.and_then(|j| b.add_body(inertial.mass, j)).map_err(|e| refused_by_builder(&what, e))?;
        b.set_body_name(id, &l.name)?;
        // body frame: at the COM, with the link frame's orientation
        let com = Pose { x: inertial.frame.x, q: crate::math::IDENTITY };
        let pose = compose(&world_pose[i], &com);
        b.set_body_pose(id, pose.x.into(), pose.q.into()).map_err(|e| refused_by_builder(&what, e))?;
        bodies.insert(l.name.clone(), id);
        body_pose.push(pose);
        placed[i] = Some(Placed { owner: Owner::Body(id), in_owner: inverse(&com) });
    }

    // --- massless links ride on their owner; a free massless root rides on its only child
    let mut dropped_joint = None;
    if !is_massive(&d.links[root]) && floating {
        let what = format!("root link `{}` (floating base)", d.links[root].name);
        let [ji] = children[root].as_slice() else {
            return Err(err(format!("{what}: has no mass, so it needs exactly one child joint to become a free body")));
        };
        let j = &d.joints[*ji];
        let c = find(&j.child, &what)?;
        if !matches!(j.kind, JointType::Fixed | JointType::Floating) || !is_massive(&d.links[c]) {
            return Err(err(format!("{what}: has no mass; its child joint `{}` must be fixed or floating with a massive child", j.name)));
        }
        dropped_joint = Some(*ji);
    }
    for &l in &order {
        if placed[l].is_some() {
            continue;
        }
        let p = if l == root {
            if root_is_world {
                Placed { owner: Owner::World, in_owner: Pose::WORLD }
            } else {
                // free massless root: a frame of its child's body
                let ji = dropped_joint.ok_or_else(|| err("internal: floating root without child".into()))?;
                let c = find(&d.joints[ji].child, "joint")?;
                let pc = placed[c].ok_or_else(|| err("internal: child body not placed".into()))?;
                let owner_world = owner_world_pose(pc.owner, &body_pose);
                Placed { owner: pc.owner, in_owner: compose(&inverse(&owner_world), &world_pose[l]) }
            }
        } else {
            let ji = parent_joint[l].ok_or_else(|| err("internal: non-root link without joint".into()))?;
            let j = &d.joints[ji];
            if j.kind != JointType::Fixed {
                return Err(err(format!(
                    "link `{}` has no mass but is attached by the {} joint `{}` and carries links with mass through moving joints: a body needs mass, and only revolute joints whose axes meet at one point (two perpendicular, or three independent) compose into one joint through it",
                    d.links[l].name, j.type_name, j.name
                )));
            }
            let pp = placed[find(&j.parent, "joint")?].ok_or_else(|| err("internal: parent not placed".into()))?;
            Placed { owner: pp.owner, in_owner: compose(&pp.in_owner, &j.origin) }
        };
        placed[l] = Some(p);
    }
    let placed: Vec<Placed> = placed.into_iter().map(|p| p.unwrap_or(Placed { owner: Owner::World, in_owner: Pose::WORLD })).collect();

    // --- tree joints (document order), then loop joints
    let mut joints = HashMap::new();
    let mut warnings = Vec::new();
    for (ji, j) in d.joints.iter().enumerate() {
        let c = find(&j.child, "joint")?;
        if Some(ji) == dropped_joint || !is_massive(&d.links[c]) {
            continue; // a frame, not a joint between bodies
        }
        let what = format!("joint `{}`", j.name);
        let pp = placed[find(&j.parent, &what)?];
        let cp = placed[c];
        // the joint frame is the child link frame: origin in the parent, cp.in_owner in the child
        let t1 = compose(&pp.in_owner, &j.origin);
        let id = add_between(&mut b, j.kind, pp.owner, &t1, cp.owner, &cp.in_owner, &[j.axis, j.second_axis], &what)?;
        b.set_joint_name(id, &j.name)?;
        apply_dynamics(&mut b, id, j, &mut warnings)?;
        joints.insert(j.name.clone(), id);
    }
    for lj in &d.loop_joints {
        let what = format!("loop_joint `{}`", lj.name);
        let p1 = placed[find(&lj.link1, &what)?];
        let p2 = placed[find(&lj.link2, &what)?];
        let t1 = compose(&p1.in_owner, &lj.frame1);
        let t2 = compose(&p2.in_owner, &lj.frame2);
        // the child must be a body; at zero coordinates the frames coincide, so the axis
        // (given in the joint frame) is the same seen from either end
        let id = if p2.owner == Owner::World {
            add_between(&mut b, lj.kind, p2.owner, &t2, p1.owner, &t1, &[lj.axis, V3::zeros()], &what)?
        } else {
            add_between(&mut b, lj.kind, p1.owner, &t1, p2.owner, &t2, &[lj.axis, V3::zeros()], &what)?
        };
        b.set_joint_name(id, &lj.name)?;
        joints.insert(lj.name.clone(), id);
    }

    let mut frames = HashMap::new();
    for (i, l) in d.links.iter().enumerate() {
        let p = placed[i];
        let body = match p.owner {
            Owner::World => None,
            Owner::Body(id) => Some(id),
        };
        frames.insert(l.name.clone(), LinkFrame { body, x: p.in_owner.x.into(), q: p.in_owner.q.into() });
    }
    Ok(Urdf { name: d.name.clone(), builder: b, bodies, joints, frames, link_shapes: HashMap::new(), world_mass, warnings })
}

fn owner_world_pose(o: Owner, body_pose: &[Pose]) -> Pose {
    match o {
        Owner::World => Pose::WORLD,
        Owner::Body(id) => body_pose.get(id).copied().unwrap_or(Pose::WORLD),
    }
}

/// Adds a joint whose frame is `t1` in the parent owner's frame and `t2` in the child
/// body's frame (the two frames coincide at zero coordinates); `axis` is in that joint
/// frame (the second: a universal joint's child axis, `compose`). So the child
/// orientation at zero is q_a ⊗ t1.q ⊗ t2.q*, the offset.
// many arguments: a joint between two owners, each with its frame: the pairs are swapped by one caller
#[allow(clippy::too_many_arguments)]
fn add_between(b: &mut Builder, kind: JointType, parent: Owner, t1: &Pose, child: Owner, t2: &Pose, axes: &[V3; 2], what: &str) -> Result<usize> {
    let child = match child {
        Owner::Body(id) => id,
        Owner::World => return Err(err(format!("{what}: both ends are fixed to the world"))),
    };
    let parent = match parent {
        Owner::World => Parent::World,
        Owner::Body(id) if id == child => return Err(err(format!("{what}: both ends are on the same rigid body"))),
        Owner::Body(id) => Parent::Body(id),
    };
    let axis_parent = rotation(&t1.q) * axes[0];
    let offset = qmul(&t1.q, &conj(&t2.q)).normalize();
    let id = if axes[1] != V3::zeros() {
        // a second axis (`compose`'s universal joint): the child's axis as it lies in the
        // parent frame at zero coordinates
        let axis_child = rotation(&t1.q) * axes[1];
        b.add_universal_joint(parent, child, t1.x.into(), t2.x.into(), axis_parent.into(), axis_child.into())
    } else {
        b.add_joint(kind, parent, child, t1.x.into(), t2.x.into(), axis_parent.into())
    }
    .map_err(|e| refused_by_builder(what, e))?;
    b.set_joint_offset(id, offset.into()).map_err(|e| refused_by_builder(what, e))?;
    Ok(id)
}

/// `<dynamics damping>` becomes a joint damper on each of the joint's free directions;
/// `friction` (Coulomb joint friction) is not simulated and is reported in `warnings`.
fn apply_dynamics(b: &mut Builder, id: JointId, j: &Joint, warnings: &mut Vec<String>) -> Result<()> {
    if j.friction > 0.0 {
        warnings.push(format!("joint `{}`: <dynamics friction=\"{}\"> is not simulated (maxdyn has no Coulomb joint friction; the damping is)", j.name, j.friction));
    }
    let n = b.joint(id)?.dof();
    if j.damping > 0.0 && n > 0 {
        b.set_joint_damper(id, &[j.damping; 6][..n])?;
    }
    Ok(())
}
