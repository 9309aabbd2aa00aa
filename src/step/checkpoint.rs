//! Everything a step may change, saved so that a failed attempt can be undone: the one
//! save/restore mechanism of the step. `step::advance` saves one before each step and
//! restores it when the step fails (a failed step changes nothing: state, warm start,
//! outputs, the collision stage's layout and points); the retry policy (`split`) keeps
//! another at the start of the split halves.
//!
//! Buffers are copied into the checkpoint's own (`Vec::clone_from`), so saving and
//! restoring allocate nothing while the contact layout stays the same.

use std::sync::Arc;

use crate::data::collision::{PairSlots, Slot};
use crate::data::{BodyStates, Data, Scratch, WarmStart};
use crate::forces::EnergyAccount;
use crate::limits::TrackedValues;
use crate::model::Model;

#[derive(Debug, Clone)]
pub struct Checkpoint {
    state: BodyStates,
    warm: WarmStart,
    contact_forces: Vec<[f64; 4]>,
    limit_forces: Vec<f64>,
    tracked: TrackedValues,
    pub time: f64,
    pub steps: u64,
    dt_prev: f64,
    velocities_at_node: bool,
    energy: EnergyAccount,
    /// The collision stage's layout (pairs, their slots' points, the compiled layout).
    pairs: Vec<PairSlots>,
    slots: Vec<Slot>,
    layout: Option<Arc<Model>>,
    rebuilds: u64,
}

impl Checkpoint {
    /// A checkpoint of `d` as it is.
    pub fn of(d: &Data) -> Checkpoint {
        let c = &d.collision;
        Checkpoint {
            state: d.state.clone(),
            warm: d.warm.clone(),
            contact_forces: d.contact_forces.clone(),
            limit_forces: d.limit_forces.clone(),
            tracked: d.tracked.clone(),
            time: d.time,
            steps: d.steps,
            dt_prev: d.dt_prev,
            velocities_at_node: d.velocities_at_node,
            energy: d.energy,
            pairs: c.pairs.clone(),
            slots: c.slots.clone(),
            layout: c.layout.clone(),
            rebuilds: c.rebuilds,
        }
    }

    pub fn save(&mut self, d: &Data) {
        self.state.copy_from(&d.state);
        self.warm.copy_from(&d.warm);
        self.contact_forces.clone_from(&d.contact_forces);
        self.limit_forces.copy_from_slice(&d.limit_forces);
        self.tracked.copy_from(&d.tracked);
        (self.time, self.steps, self.dt_prev, self.energy, self.velocities_at_node) = (d.time, d.steps, d.dt_prev, d.energy, d.velocities_at_node);
        let c = &d.collision;
        self.pairs.clone_from(&c.pairs);
        self.slots.clone_from(&c.slots);
        self.layout.clone_from(&c.layout);
        self.rebuilds = c.rebuilds;
    }

    /// Puts `d` back as it was saved; a layout the data left since is compiled data again
    /// (its scratch allocated anew: only a step that changed the layout and failed pays).
    pub fn restore(&self, model: &Model, d: &mut Data) {
        let same_layout = match (&self.layout, &d.collision.layout) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        d.state.copy_from(&self.state);
        d.warm.copy_from(&self.warm);
        d.contact_forces.clone_from(&self.contact_forces);
        d.limit_forces.copy_from_slice(&self.limit_forces);
        d.tracked.copy_from(&self.tracked);
        (d.time, d.steps, d.dt_prev, d.energy, d.velocities_at_node) = (self.time, self.steps, self.dt_prev, self.energy, self.velocities_at_node);
        let c = &mut d.collision;
        c.pairs.clone_from(&self.pairs);
        c.slots.clone_from(&self.slots);
        c.layout.clone_from(&self.layout);
        c.rebuilds = self.rebuilds;
        if !same_layout {
            let layout = self.layout.as_deref().unwrap_or(model);
            d.scratch = Scratch::new(layout);
            d.friction_limits = vec![0.0; layout.inequality_count()];
        }
    }
}
