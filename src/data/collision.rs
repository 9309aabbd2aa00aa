//! What the collision stage keeps between steps (`step::collide`): the shape pairs near
//! enough to be in the step's layout, a contact slot per point each pair may need, and the
//! layout — the model compiled with those slots as contact nodes — that the step solves.

use std::sync::Arc;

use crate::contact::broad_phase::{Aabb, BroadPhase};
use crate::contact::geometry::{ContactPoint, MAX_POINTS_PER_PAIR};
use crate::math::{V3, V4};
use crate::model::{Model, ShapeId};

/// A shape pair in the layout and its contact slots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PairSlots {
    /// The pair, side a first (a body's shape; the lower kind, then the lower id, when both
    /// are on bodies): the normal points from b to a.
    pub shapes: [ShapeId; 2],
    /// Slots `first .. first + count` of the layout's found contacts.
    pub first: usize,
    pub count: usize,
}

/// One contact slot of the layout: a point its pair found this step, or none (`filled`
/// false: the slot's node sits far apart, and the step leaves it out).
#[derive(Debug, Clone, Copy, Default)]
pub struct Slot {
    pub point: ContactPoint,
    pub filled: bool,
}

#[derive(Debug, Clone, Default)]
pub struct CollisionState {
    /// Shapes with a bounded box (swept) and half-spaces (tested against every box).
    pub bounded: Vec<ShapeId>,
    pub half_spaces: Vec<ShapeId>,
    /// Per bounded shape: its box this step, grown by the keeping distance.
    pub boxes: Vec<Aabb>,
    /// Per shape: how far its points may move in one step, plus the contact margin.
    pub reach: Vec<f64>,
    pub broad: BroadPhase,
    /// The layout's pairs, sorted by shapes, and the pairs this step asks for.
    pub pairs: Vec<PairSlots>,
    pub wanted: Vec<PairSlots>,
    /// The layout's found-contact slots, in pair order, and this step's points.
    pub slots: Vec<Slot>,
    pub found: Vec<Slot>,
    pub pair_points: [ContactPoint; MAX_POINTS_PER_PAIR],
    /// The model with the slots as contact nodes (None: no slots, the model's own layout).
    pub layout: Option<Arc<Model>>,
    /// How many times the layout was rebuilt (a new pair came near, or one needs more
    /// slots): each rebuild compiles the graph again and allocates.
    pub rebuilds: u64,
    /// Shape pairs the last search ran the narrow phase on (the broad phase's survivors).
    pub tested: usize,
    /// Every body's pose at a step's solution z_{k+2}, where the pairs are searched again
    /// (`step::collide::search_at_solution`).
    pub x2: Vec<V3>,
    pub q2: Vec<V4>,
    /// Pairs that found more points at a step's solution than they have slots (`count`:
    /// all a pair may hold): the step is taken again with that many (`step::advance`).
    pub grow: Vec<PairSlots>,
    /// Whether a solve of the step ended with its searches at the solution used up
    /// (`step::MAX_SEARCHES_AT_SOLUTION`), the points the last one found solved but not
    /// searched again: such an answer is not kept while the step is taken again.
    pub unverified: bool,
    /// Whether a search at a solution wrote points over the step's contact nodes since
    /// the slots' points were last written there (`step::collide::write_points`).
    pub points_searched: bool,
}


impl CollisionState {
    pub fn new(model: &Model) -> CollisionState {
        let shapes = &model.collision.shapes;
        let (half_spaces, bounded): (Vec<ShapeId>, Vec<ShapeId>) = (0..shapes.len()).partition(|&s| shapes[s].geometry.bounding_radius().is_infinite());
        CollisionState {
            boxes: Vec::with_capacity(bounded.len()),
            broad: BroadPhase::with_capacity(bounded.len(), 4 * bounded.len()),
            reach: vec![0.0; shapes.len()],
            x2: vec![V3::zeros(); model.body_count()],
            q2: vec![V4::new(1.0, 0.0, 0.0, 0.0); model.body_count()],
            bounded,
            half_spaces,
            ..CollisionState::default()
        }
    }
}
