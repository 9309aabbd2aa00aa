//! Diagnostics of a start in penetration (`step::penetration`).

use super::Sim;
use crate::step::penetration::{deepest_penetration, TOLERANCE};

impl Sim {
    /// Penetration depth (m) above which a step first projects the bodies out.
    pub const PENETRATION_TOLERANCE: f64 = TOLERANCE;

    /// Deepest penetration (m, ≥ 0) over the contacts at the current configuration (the
    /// collision shapes' points as the last step's search found them). A
    /// step that starts deeper than `step::penetration::TOLERANCE` (1e-5 m) first projects
    /// the bodies out (no velocity added) and reports the depth in
    /// [`Sim::resolved_penetration`].
    pub fn deepest_penetration(&self) -> f64 {
        let s = &self.data.state;
        deepest_penetration(&self.model, &self.data.collision.slots, &s.x, &s.q)
    }

    /// The penetration depth (m) the last step projected the bodies out of before it
    /// stepped; 0 if it started out of penetration.
    pub fn resolved_penetration(&self) -> f64 {
        self.projection.last_depth
    }
}
