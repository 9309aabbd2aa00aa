//! Diagnostics of a start in penetration (`step::penetration`).

use super::Sim;
use crate::step::collide::{self, Search};
use crate::step::penetration::{deepest_penetration, TOLERANCE};

impl Sim {
    /// Penetration depth (m) above which a step first projects the bodies out.
    pub const PENETRATION_TOLERANCE: f64 = TOLERANCE;

    /// Deepest penetration (m, ≥ 0) at the current configuration, one rule for every
    /// contact, before the first step as after any: the described contacts and the
    /// collision shapes, searched afresh where the bodies are (as the step's projection
    /// searches). A step that starts deeper than `step::penetration::TOLERANCE` (1e-5 m)
    /// first projects the bodies out (no velocity added) and reports the depth in
    /// [`Sim::resolved_penetration`]. With shapes, a query allocates (a copy of the search's
    /// buffers): call it between steps, not inside a controller's loop.
    pub fn deepest_penetration(&self) -> f64 {
        let s = &self.data.state;
        if self.model.collision.shapes.is_empty() {
            return deepest_penetration(&self.model, &s.x, &s.q, &[], (&s.x, &s.q));
        }
        // the last search's points are those of the last step's prediction (none before
        // the first step): search again at the current configuration, on a copy
        let mut d = self.data.clone();
        collide::find(&self.model, &mut d, &self.options, Search::AtRest);
        deepest_penetration(&self.model, &s.x, &s.q, &d.collision.found, (&s.x, &s.q))
    }

    /// The penetration depth (m) the last step projected the bodies out of before it
    /// stepped; 0 if it started out of penetration (or was refused).
    pub fn resolved_penetration(&self) -> f64 {
        self.projection.last_depth
    }

    /// How many projections (each after a fresh search) the last step made to resolve
    /// its start (at most `step::penetration::MAX_ROUNDS`); 0 if it needed none.
    pub fn projection_rounds(&self) -> usize {
        self.projection.last_rounds
    }
}
