//! Contact outputs: the gap and the forces of the last step.

use super::Sim;
use crate::contact::geometry::gap;
use crate::model::{Error, Result};

/// One contact as the last step left it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactReport {
    /// Gap at the current configuration (m; negative would be penetration).
    pub gap: f64,
    /// Normal force of the last step (N, on body a; body b gets the opposite).
    pub normal_force: f64,
    /// Friction force of the last step (N, world frame, on body a).
    pub friction_force: [f64; 3],
}

impl ContactReport {
    /// `[gap, normal force, friction force (3)]`, the C API's layout.
    pub fn to_array(&self) -> [f64; 5] {
        let f = self.friction_force;
        [self.gap, self.normal_force, f[0], f[1], f[2]]
    }
}

impl Sim {
    pub fn contact_count(&self) -> usize {
        self.model.contacts.len()
    }

    /// A contact's gap at the current configuration and its forces of the last step.
    pub fn contact(&self, contact: usize) -> Result<ContactReport> {
        let c = self.model.contacts.get(contact).ok_or(Error::UnknownContact(contact as i32))?;
        let f = self.data.contact_forces[contact];
        let s = &self.data.state;
        Ok(ContactReport { gap: gap(c, &s.x, &s.q), normal_force: f[0], friction_force: [f[1], f[2], f[3]] })
    }
}
