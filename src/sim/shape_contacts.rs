//! Contacts between collision shapes as the last step left them: one report per contact
//! point found (a box on the floor: four).

use super::Sim;
use crate::math::{rotation, V3};
use crate::model::{BodyId, ShapeId};

/// One contact point between two collision shapes after the last step: a point the step
/// was solved with, its force acting there along its normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeContactReport {
    /// Side a (on a body) and side b (on a body or the world); the normal points from b to a.
    pub shapes: [ShapeId; 2],
    pub body_a: BodyId,
    pub body_b: Option<BodyId>,
    /// The point (world, m): on side a's surface, moved half the gap towards b.
    pub point: [f64; 3],
    /// Unit normal (world) from b to a, as the step held it.
    pub normal: [f64; 3],
    /// Gap at the current configuration along the normal (m; negative: penetration).
    pub gap: f64,
    /// Normal force of the last step (N, on body a; body b gets the opposite).
    pub normal_force: f64,
    /// Friction force of the last step (N, world frame, on body a).
    pub friction_force: [f64; 3],
}

impl Sim {
    /// The contact points between collision shapes the last step was solved with (found at
    /// its prediction or, where the shapes turned or slid within it, at its solution;
    /// filled slots only), in shape-pair order.
    pub fn shape_contacts(&self) -> impl Iterator<Item = ShapeContactReport> + '_ {
        let d = &self.data;
        let described = self.model.described_contacts;
        let (x, q) = (&d.state.x, &d.state.q);
        d.collision.pairs.iter().flat_map(move |pair| {
            (pair.first..pair.first + pair.count).filter(|&k| d.collision.slots[k].filled).map(move |k| {
                let p = d.collision.slots[k].point;
                let gap = p.gap(x, q);
                let a = p.body_a;
                let surface = x[a] + rotation(&q[a]) * p.anchor[0] - p.normal * p.radius[0];
                let point: V3 = surface - p.normal * (0.5 * gap);
                let f = d.contact_forces[described + k];
                ShapeContactReport { shapes: pair.shapes, body_a: a, body_b: p.body_b, point: point.into(), normal: p.normal.into(), gap, normal_force: f[0], friction_force: [f[1], f[2], f[3]] }
            })
        })
    }

    /// Number of contact points between collision shapes after the last step.
    pub fn shape_contact_count(&self) -> usize {
        self.data.collision.slots.iter().filter(|s| s.filled).count()
    }

    /// Contact slots the layout holds now (filled or kept empty for a pair that needed
    /// them before): at most the model's contact capacity.
    pub fn contact_slots(&self) -> usize {
        self.data.collision.slots.len()
    }

    /// How many times the contact layout was rebuilt since the start (a new pair of
    /// shapes came near, or a pair needed more points): each rebuild allocates.
    pub fn layout_rebuilds(&self) -> u64 {
        self.data.collision.rebuilds
    }
}
