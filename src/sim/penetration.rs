//! Diagnostics of a start in penetration (`step::penetration`).

use super::Sim;
use crate::step::penetration::{deepest_penetration, TOLERANCE};

impl Sim {
    /// Penetration depth (m) above which a step first projects the bodies out.
    pub const PENETRATION_TOLERANCE: f64 = TOLERANCE;

    /// Deepest penetration (m, ≥ 0) over the described contacts at the current
    /// configuration and the collision shapes' points where the last search found them. A
    /// step that starts deeper than `step::penetration::TOLERANCE` (1e-5 m) first projects
    /// the bodies out (no velocity added) and reports the depth in
    /// [`Sim::resolved_penetration`].
    pub fn deepest_penetration(&self) -> f64 {
        let s = &self.data.state;
        let f = &self.data.frame;
        deepest_penetration(&self.model, &s.x, &s.q, &self.data.collision.slots, (&f.x1, &f.q1))
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
