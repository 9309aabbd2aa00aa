//! The layout of a step with collision contacts: the model compiled with a contact node
//! per slot (`Model::with_found_contacts`: graph, elimination order, block layout; the
//! contacts between bodies close cycles like loop joints), and the data's buffers moved
//! to it. Runs only when the collision stage's pairs change (`collide`); a step that
//! keeps its pairs reuses everything.
//!
//! The warm start carries over: every body's, joint's, limit's and mimic's unknowns, the
//! described contacts' and each slot a pair keeps. The contacts' interior-point variables
//! carry over too unless a new slot came in without any (then the next contact solve
//! starts cold).

use std::sync::Arc;

use crate::contact::{ConeType, Contact};
use crate::data::collision::{PairSlots, Slot};
use crate::data::{Data, Scratch, WarmStart};
use crate::model::{Model, Node, Result};

/// Makes the wanted pairs (`CollisionState::wanted`) the layout's, compiles it and moves
/// the data's buffers to it.
pub fn rebuild(model: &Model, d: &mut Data) -> Result<()> {
    let described = model.described_contacts;
    let c = &mut d.collision;
    let mut pairs = Vec::with_capacity(c.wanted.len());
    let mut slots = Vec::with_capacity(c.found.len());
    for w in &c.wanted {
        pairs.push(PairSlots { first: slots.len(), ..*w });
        slots.extend_from_slice(&c.found[w.first..w.first + w.count]);
    }
    // old contact → new contact, for the slots a pair keeps
    let old_count = d.contact_forces.len();
    let mut moved: Vec<Option<usize>> = (0..old_count).map(|i| (i < described).then_some(i)).collect();
    let mut every_new_slot_kept = true;
    for p in &pairs {
        let old = c.pairs.binary_search_by_key(&p.shapes, |o| o.shapes).ok().map(|i| c.pairs[i]);
        let kept = old.map_or(0, |o| o.count.min(p.count));
        for j in 0..kept {
            moved[described + old.expect("kept slots have a pair").first + j] = Some(described + p.first + j);
        }
        every_new_slot_kept &= kept == p.count;
    }
    let found: Vec<Contact> = pairs.iter().flat_map(|p| std::iter::repeat_n(found_contact(model, p), p.count)).collect();
    let layout = if found.is_empty() { None } else { Some(Arc::new(model.with_found_contacts(&found)?)) };
    let old = d.collision.layout.take();
    let (from, to) = (old.as_deref().unwrap_or(model), layout.as_deref().unwrap_or(model));

    let mut warm = WarmStart::new(to);
    let scratch = Scratch::new(to);
    let mut contact_forces = vec![[0.0; 4]; to.contacts.len()];
    for (n, node) in from.nodes.iter().enumerate() {
        let Some(m) = node_in(to, *node, &moved) else { continue };
        let (src, dst, len) = (from.symbolic.offsets[n], to.symbolic.offsets[m], from.symbolic.sizes[n]);
        warm.solution[dst..dst + len].copy_from_slice(&d.warm.solution[src..src + len]);
        warm.previous[dst..dst + len].copy_from_slice(&d.warm.previous[src..src + len]);
    }
    let (old_nodes, new_nodes) = (&d.scratch.contacts.nodes, &scratch.contacts.nodes);
    for (i, target) in moved.iter().enumerate() {
        if let Some(t) = *target {
            contact_forces[t] = d.contact_forces[i];
            let (a, b) = (old_nodes.e_range(i), new_nodes.e_range(t));
            warm.e_solution[b].copy_from_slice(&d.warm.e_solution[a]);
        }
    }
    // limit sides follow the contacts in the inequality numbering
    for l in 0..model.limit_sides.len() {
        let (a, b) = (old_nodes.e_range(from.contacts.len() + l), new_nodes.e_range(to.contacts.len() + l));
        warm.e_solution[b].copy_from_slice(&d.warm.e_solution[a]);
    }
    warm.pair_interval = d.warm.pair_interval;
    warm.older.copy_from_slice(&d.warm.older);
    warm.intervals = d.warm.intervals;
    warm.first_barrier = d.warm.first_barrier.filter(|_| every_new_slot_kept);

    d.warm = warm;
    d.scratch = scratch;
    d.friction_limits = vec![0.0; to.inequality_count()];
    d.contact_forces = contact_forces;
    let c = &mut d.collision;
    c.pairs = pairs;
    c.slots = slots;
    c.layout = layout;
    c.rebuilds += 1;
    Ok(())
}

/// Moves the data to the layout of `pairs` (their slots empty until the next search):
/// restoring a saved state (`sim::snapshot`).
pub fn install(model: &Model, d: &mut Data, pairs: &[PairSlots]) -> Result<()> {
    let c = &mut d.collision;
    c.wanted.clear();
    c.found.clear();
    for p in pairs {
        c.wanted.push(PairSlots { first: c.found.len(), ..*p });
        c.found.extend(std::iter::repeat_n(Slot::default(), p.count));
    }
    rebuild(model, d)
}

/// The contact description of a pair's slots: its shapes, friction and the model's cone.
pub(crate) fn found_contact(model: &Model, p: &PairSlots) -> Contact {
    let col = &model.collision;
    let [a, b] = p.shapes;
    let directions = if col.cone == ConeType::Linear { col.directions } else { 4 };
    Contact { shapes: [col.shapes[a].shape(), col.shapes[b].shape()], friction: col.pair_friction(a, b), cone: col.cone, directions }
}

/// The node of `to` that is `node` of the old layout (None: a slot that is gone).
fn node_in(to: &Model, node: Node, moved: &[Option<usize>]) -> Option<usize> {
    match node {
        Node::Body(i) => Some(to.body_node[i]),
        Node::Joint(j) => to.joint_node[j],
        Node::Contact(c) => moved.get(c).copied().flatten().map(|t| to.contact_node[t]),
        Node::LimitSide(l) => Some(to.limit_node[l]),
        Node::Mimic(m) => Some(to.mimic_node[m]),
    }
}
