//! A step that starts in penetration (a body placed inside the ground, deeper than
//! [`TOLERANCE`]) would push the bodies out within one step: the contact holds the gap at
//! z_{k+2} ≥ 0, so the step's velocity is depth/dt and the body flies (0.5 m at dt 0.01:
//! ~50 m/s). Instead the configuration is projected out first, and the velocities are
//! left as they were: the bodies gain only the potential of the lift, no kinetic energy.
//!
//! The projection is one step of the model's own equations (joints, contacts, limits)
//! from the current configuration at rest, with gravity cancelled by an input force
//! −m g on each body and the other inputs off: its solution ż moves every body by the
//! least (mass-weighted) displacement that brings every gap to ≥ 0 while the joints hold,
//! and the projected configuration is z + ż dt. Everything else the step changes (time,
//! velocities, warm start, reported forces, energy account, statistics) is restored. Spring
//! forces act in the projection too (they move the bodies by F dt²/m).

use super::{step_once, Rescue, SolverOptions};
use crate::contact::geometry::gap;
use crate::data::collision::Slot;
use crate::data::{BodyStates, Data, StepStats, WarmStart};
use crate::forces::EnergyAccount;
use crate::integrator::{pose_next, Inputs};
use crate::limits::TrackedValues;
use crate::math::{V3, V4};
use crate::model::Model;

/// Penetration depth (m) above which a step first projects the bodies out.
pub const TOLERANCE: f64 = 1e-5;

/// Deepest penetration (m, ≥ 0) over the model's described contacts at configuration
/// (x, q) and the collision shapes' contact points the last search found (`slots`) at the
/// configuration it found them (`found_at`: the step's prediction z_{k+1}). A found point's
/// normal is the one of its configuration: measured at another, a pair rolling on each
/// other would show a gap below its true distance (second order in the turn).
pub fn deepest_penetration(model: &Model, x: &[V3], q: &[V4], slots: &[Slot], found_at: (&[V3], &[V4])) -> f64 {
    let described = model.contacts[..model.described_contacts].iter().map(|c| -gap(c, x, q));
    let found = slots.iter().filter(|s| s.filled).map(|s| -s.point.gap(found_at.0, found_at.1));
    described.chain(found).fold(0.0, f64::max)
}

/// The projection's workspace, preallocated (a projection allocates nothing).
#[derive(Debug, Clone)]
pub struct Projection {
    state: BodyStates,
    inputs: Inputs,
    warm: WarmStart,
    contact_forces: Vec<[f64; 4]>,
    limit_forces: Vec<f64>,
    tracked: TrackedValues,
    clock: (f64, u64, f64),
    energy: EnergyAccount,
    stats: StepStats,
    /// Depth the last projection started from (0 if the last step needed none).
    pub last_depth: f64,
}

impl Projection {
    pub fn new(d: &Data) -> Projection {
        Projection {
            state: d.state.clone(),
            inputs: d.inputs.clone(),
            warm: d.warm.clone(),
            contact_forces: d.contact_forces.clone(),
            limit_forces: d.limit_forces.clone(),
            tracked: d.tracked.clone(),
            clock: (d.time, d.steps, d.dt_prev),
            energy: d.energy,
            stats: d.stats,
            last_depth: 0.0,
        }
    }

    /// The copies follow a new contact layout (`step::layout`).
    pub fn follow_layout(&mut self, d: &Data) {
        *self = Projection { last_depth: self.last_depth, ..Projection::new(d) };
    }

    /// Before a step: projects the configuration out of a penetration deeper than
    /// [`TOLERANCE`] (module docs). If the projection's solve fails, nothing changes and
    /// the step runs as before.
    pub fn resolve(&mut self, model: &Model, d: &mut Data, opts: &SolverOptions) {
        self.last_depth = 0.0;
        if model.contacts.is_empty() {
            return;
        }
        let depth = deepest_penetration(model, &d.state.x, &d.state.q, &d.collision.slots, (&d.frame.x1, &d.frame.q1));
        if depth <= TOLERANCE {
            return;
        }
        self.last_depth = depth;
        self.save(d);
        for (i, b) in model.bodies.iter().enumerate() {
            (d.state.v[i], d.state.w[i]) = (V3::zeros(), V3::zeros());
            d.inputs.force[i] = -b.mass * model.gravity;
            (d.inputs.torque[i], d.inputs.force_point[i]) = (V3::zeros(), V3::zeros());
        }
        d.inputs.joint_input.iter_mut().for_each(|u| *u = [0.0; 6]);
        let projected = step_once(model, d, opts, Rescue::Allowed).is_ok();
        if projected {
            for i in 0..model.body_count() {
                let z = pose_next(&d.frame, model, d.dt, &d.scratch.it.s, Some(i));
                (self.state.x[i], self.state.q[i]) = (z.x, z.q.normalize());
            }
        }
        self.restore(d);
        if projected {
            d.tracked.follow_state(model, &d.state.x, &d.state.q);
        }
    }

    fn save(&mut self, d: &Data) {
        self.state.copy_from(&d.state);
        copy_inputs(&mut self.inputs, &d.inputs);
        self.warm.copy_from(&d.warm);
        self.contact_forces.copy_from_slice(&d.contact_forces);
        self.limit_forces.copy_from_slice(&d.limit_forces);
        self.tracked.copy_from(&d.tracked);
        self.clock = (d.time, d.steps, d.dt_prev);
        self.energy = d.energy;
        self.stats = d.stats;
    }

    fn restore(&self, d: &mut Data) {
        d.state.copy_from(&self.state);
        copy_inputs(&mut d.inputs, &self.inputs);
        d.warm.copy_from(&self.warm);
        d.contact_forces.copy_from_slice(&self.contact_forces);
        d.limit_forces.copy_from_slice(&self.limit_forces);
        d.tracked.copy_from(&self.tracked);
        (d.time, d.steps, d.dt_prev) = self.clock;
        d.energy = self.energy;
        d.stats = self.stats;
    }
}

fn copy_inputs(to: &mut Inputs, from: &Inputs) {
    to.force.copy_from_slice(&from.force);
    to.torque.copy_from_slice(&from.torque);
    to.force_point.copy_from_slice(&from.force_point);
    to.joint_input.copy_from_slice(&from.joint_input);
}
