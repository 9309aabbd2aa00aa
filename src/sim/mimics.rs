//! Mimic outputs: how well each mimic holds, and its force.

use super::Sim;
use crate::model::{Error, Result};

impl Sim {
    /// Largest |θ_f − m θ_l − o| over the mimics at the current configuration (angles
    /// unwrapped as the simulation tracks them); 0 without mimics.
    pub fn mimic_violation(&self) -> f64 {
        let s = &self.data.state;
        crate::mimic::violation(&self.model, &self.data.tracked.state, &s.x, &s.q)
    }

    /// Mimic `mimic`'s multiplier λ in the last step: the generalized force it puts on the
    /// follower's coordinate is λ (N·m or N), and −m λ on the leader's.
    pub fn mimic_force(&self, mimic: usize) -> Result<f64> {
        if mimic >= self.model.mimics.len() {
            return Err(Error::InvalidArgument("mimic", format!("no mimic {mimic}; the model has {}", self.model.mimics.len())));
        }
        Ok(self.data.warm.solution[self.data.layout(&self.model).addresses.mimic(mimic)])
    }
}
