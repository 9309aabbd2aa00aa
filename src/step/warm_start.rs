//! Where a step's iterate starts: the last step's solution (joint multipliers, contact
//! variables) with the current velocities ż_k in the body rows.

use crate::data::{BodyStates, WarmStart};
use crate::model::addresses::Addresses;

/// The warm start into `s`. Also the restart of a solve that is repeated within a step
/// (a left-out contact added, a Tresca round).
pub fn warm_start(at: &Addresses, warm: &WarmStart, state: &BodyStates, s: &mut [f64]) {
    s.copy_from_slice(&warm.solution);
    for i in 0..state.v.len() {
        at.set_velocities(s, i, &state.v[i], &state.w[i]);
    }
}
