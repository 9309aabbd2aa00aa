//! The data of one simulation, apart from its immutable `Model`: everything a step reads
//! or writes — the state z_k, ż_k, the held inputs, the warm start, the step's scratch
//! and its outputs. The step's algorithms are functions of `(&Model, &mut Data, …)`
//! (`crate::step`); `Sim` pairs one `Data` with its model and options. Every buffer is
//! allocated here, once: a step allocates nothing.

pub mod collision;
mod scratch;
mod state;
mod stats;

pub use scratch::{Iterate, LinearSolve, Scratch};
pub use state::{BodyStates, WarmBarrier, WarmStart};
pub use stats::StepStats;

use self::collision::CollisionState;
use crate::forces::EnergyAccount;
use crate::integrator::{Inputs, MultiplierJacobians, StepFrame};
use crate::limits::TrackedValues;
use crate::model::Model;

#[derive(Debug, Clone)]
pub struct Data {
    /// The step size the caller set (a split step's parts are arguments of
    /// `step::step_once`, and this stays as it is).
    pub(crate) dt: f64,
    /// Interval spanned by the current velocities: positions are predicted with it.
    pub(crate) dt_prev: f64,
    pub(crate) time: f64,
    pub(crate) steps: u64,
    /// z_k, ż_k.
    pub(crate) state: BodyStates,
    /// The caller's inputs (body wrenches, joint inputs), held until changed.
    pub(crate) inputs: Inputs,
    /// During a step: the prediction z_{k+1} with the velocities ż_k it came from.
    pub(crate) frame: StepFrame,
    /// Where the next step's iterate starts.
    pub(crate) warm: WarmStart,
    /// G(z_{k+1}) of every joint, fixed during a step.
    pub(crate) g: MultiplierJacobians,
    /// Iterate, Newton matrix and contact condensation of the step being solved.
    pub(crate) scratch: Scratch,
    /// The Tresca rescue's friction bounds, one per inequality of the layout (`step::tresca`).
    pub(crate) friction_limits: Vec<f64>,
    /// What the last step did.
    pub(crate) stats: StepStats,
    /// Per contact after the last step: normal force and world friction force.
    pub(crate) contact_forces: Vec<[f64; 4]>,
    /// Input work and damper dissipation since the start (see `forces::energy`).
    pub(crate) energy: EnergyAccount,
    /// The tracked joint coordinates (limits, mimics), angles unwrapped.
    pub(crate) tracked: TrackedValues,
    /// Per limit side after the last step: its force (generalized, ≥ 0).
    pub(crate) limit_forces: Vec<f64>,
    /// The collision shapes' pairs and contact slots, and the layout the step solves.
    pub(crate) collision: CollisionState,
    /// The poses were set by the caller (or come from the model) and have not been
    /// checked against the joints yet (`sim::assemble`).
    pub(crate) start_unchecked: bool,
    /// The velocities were set by the caller (or are the model's initial ones) and no
    /// step has run since: the second-order integrator takes them as the velocities at
    /// the current time and starts from them consistently (`step::consistent_start`);
    /// the first-order step takes them as its interval's, as every other velocity.
    pub(crate) velocities_at_node: bool,
}

impl Data {
    /// The model whose layout this data's buffers follow: `model` itself, or the layout of
    /// its collision shapes' contacts (`step::collide`).
    pub fn layout<'a>(&'a self, model: &'a Model) -> &'a Model {
        self.collision.layout.as_deref().unwrap_or(model)
    }

    /// The model's initial state, no inputs, step size `dt`.
    pub fn new(model: &Model, dt: f64) -> Data {
        let nb = model.body_count();
        let state = BodyStates::new(model);
        Data {
            dt,
            dt_prev: dt,
            time: 0.0,
            steps: 0,
            inputs: Inputs::new(model),
            frame: StepFrame::new(nb, dt),
            warm: WarmStart::new(model),
            g: MultiplierJacobians::new(model),
            scratch: Scratch::new(model),
            friction_limits: vec![0.0; model.inequality_count()],
            stats: StepStats::default(),
            contact_forces: vec![[0.0; 4]; model.contacts.len()],
            energy: EnergyAccount::default(),
            tracked: TrackedValues::new(model, &state.x, &state.q),
            limit_forces: vec![0.0; model.limit_sides.len()],
            collision: CollisionState::new(model),
            start_unchecked: true,
            velocities_at_node: true,
            state,
        }
    }
}
