//! Contact outputs: the gap and the forces of the last step.

use super::Sim;
use crate::contact::geometry::gap;
use crate::model::{Error, Result};

impl Sim {
    pub fn contact_count(&self) -> usize {
        self.model.contacts.len()
    }

    /// `[gap, normal force, friction force (3, world)]` of a contact: the gap at the current
    /// configuration, the forces of the last step (on body a; body b gets the opposite).
    pub fn contact(&self, contact: usize) -> Result<[f64; 5]> {
        let c = self.model.contacts.get(contact).ok_or(Error::UnknownContact(contact as i32))?;
        let f = self.data.contact_forces[contact];
        let s = &self.data.state;
        Ok([gap(c, &s.x, &s.q), f[0], f[1], f[2], f[3]])
    }
}
