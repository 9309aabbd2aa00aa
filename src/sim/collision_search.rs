//! The collision stage alone (broad and narrow phase), run at the current state as the
//! next step would run it: for benchmarks (`benches/collision_stage.rs`) and for users
//! who want to know what a step would search without taking it.

use super::Sim;
use crate::step::collide::{self, Search};

/// What one collision search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CollisionSearch {
    /// Shape pairs the narrow phase was run on (those the broad phase and the collision
    /// filters let through, plus the pairs the layout holds).
    pub tested_pairs: usize,
    /// Pairs with a contact point within the search distance (or held by the layout).
    pub pairs: usize,
    /// Contact points found.
    pub points: usize,
}

impl Sim {
    /// Runs the collision stage of the next step alone — the broad phase at the step's
    /// prediction from the current velocities, then the narrow phase of every pair it lets
    /// through — and tells what it found. The state, the contact layout and the last
    /// step's reports are left as they are (the search's own buffers are the step's
    /// workspace, which the next step fills again); at a fixed layout it allocates nothing.
    pub fn collision_search(&mut self) -> CollisionSearch {
        collide::find(&self.model, &mut self.data, &self.options, Search::Predicted);
        let c = &self.data.collision;
        CollisionSearch { tested_pairs: c.tested, pairs: c.wanted.len(), points: c.found.iter().filter(|s| s.filled).count() }
    }
}
