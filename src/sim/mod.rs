//! One rollout of a model: the model, its `Data`, the solver options and the retry
//! policy. The step itself is `crate::step`; this module is the public face: state
//! access, inputs, contact outputs and diagnostics.

mod configuration;
pub use configuration::UNIT_QUATERNION_TOLERANCE;
#[cfg(feature = "test-support")]
mod contact_check;
mod assemble;
mod collision_search;
mod contacts;
mod inputs;
pub mod inspect;
mod limits;
mod mimics;
mod penetration;
mod shape_contacts;
mod snapshot;
mod snapshot_contacts;
mod state;

pub use collision_search::CollisionSearch;
pub use contacts::ContactReport;
pub use limits::LimitReport;
pub use shape_contacts::ShapeContactReport;
pub use inspect::ConstraintRank;
pub use snapshot::STATE_VERSION;

pub use crate::data::StepStats;
pub use crate::step::SolverOptions;
pub use crate::step::options::Integrator;
pub use crate::step::options::JOINT_TOLERANCE;

use std::sync::Arc;

use crate::data::Data;
use crate::math::V3;
use crate::model::{Error, Model, Result};
use crate::step::split::SplitPolicy;

#[cfg(feature = "test-support")]
#[doc(hidden)]
pub use contact_check::ContactSystemCheck;
/// Test support: the interior point's per-iteration trace on stderr.
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub use crate::step::interior_point::trace::set_trace as debug_trace_interior_point;

pub struct Sim {
    model: Arc<Model>,
    data: Data,
    options: SolverOptions,
    policy: SplitPolicy,
    projection: crate::step::penetration::Projection,
    /// The state before the step being taken (a failed step returns to it).
    start: crate::step::checkpoint::Checkpoint,
    /// The step's answer with the contact slots it had, while it is taken again with more
    /// (`step::advance`).
    answer: crate::step::checkpoint::Checkpoint,
}

// A `Sim` is stepped on other threads (`batch`) and read from several at once: it holds
// no interior mutability (the step's workspace is `Data`'s, written through `&mut`).
const _: fn() = || {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Sim>();
};

/// The smallest time step (s) a sim takes: below it the step's divisions by dt and dt²
/// leave the range where its tolerances mean anything.
pub const MIN_DT: f64 = 1e-9;
/// The largest time step (s) a sim takes.
pub const MAX_DT: f64 = 1.0;

impl Sim {
    /// A sim of `model` at its bodies' initial states, time step `dt` in [`MIN_DT`],
    /// [`MAX_DT`] (s). A body the model leaves away from its joint is placed by the joint
    /// tree at the coordinates its pose gives; a loop left open is refused by the first
    /// step until its coordinates close it or [`Sim::assemble`] does.
    pub fn new(model: Arc<Model>, dt: f64) -> Result<Sim> {
        if !(MIN_DT..=MAX_DT).contains(&dt) {
            return Err(Error::InvalidTimeStep(dt));
        }
        let data = Data::new(&model, dt);
        let policy = SplitPolicy::new(&data);
        let projection = crate::step::penetration::Projection::new();
        let start = crate::step::checkpoint::Checkpoint::of(&data);
        let answer = start.clone();
        let mut sim = Sim { model, data, options: SolverOptions::default(), policy, projection, start, answer };
        for w in &sim.data.state.w {
            sim.check_angular_speed(w)?;
        }
        sim.assemble_start();
        Ok(sim)
    }

    /// Advances one time step of `dt`. If the solve fails, the step is split in halves
    /// (see `step::split`; `StepStats::substeps` tells how many were taken). On failure the
    /// state stays at the last good step and `stats()` describes the failed attempt. A
    /// start that violates a joint (poses set directly) is refused: see [`Sim::assemble`].
    pub fn step(&mut self) -> Result<StepStats> {
        self.check_start()?;
        crate::step::advance(&self.model, &mut self.data, &self.options, &mut self.policy, &mut self.projection, &mut self.start, &mut self.answer)
    }

    /// The collision search at the step's prediction and the contact layout it compiles,
    /// alone (as a step begins, without the projection out of a start in penetration).
    /// For the step's derivatives (`derivatives::second_order`): the start and the parts
    /// that follow solve on this layout, as in a step.
    pub(crate) fn collide_only(&mut self) -> Result<()> {
        crate::step::collide_at_prediction(&self.model, &mut self.data, &self.options)
    }

    /// The higher-order integrators' consistent start alone (`step::consistent_start`)
    /// onto an interval of `interval`, on the contact layout of the last search
    /// ([`Sim::collide_only`]): the velocities set become that interval's, the solve's
    /// frame and solution stay in the data. For the step's derivatives
    /// (`derivatives::second_order`).
    pub(crate) fn consistent_start_only(&mut self, interval: f64) -> Result<()> {
        self.check_start()?;
        self.data.frame.second_order = true;
        let layout = self.layout();
        crate::step::consistent_start::start(&layout, &mut self.data, &self.options, interval).map(|_| ())
    }

    /// One part of a higher-order step alone (`step::step_once`, as the fourth order takes
    /// them), unknown velocities over `interval`, on the contact layout of the last
    /// search: the solve's frame and solution stay in the data. For the step's
    /// derivatives, as [`Sim::consistent_start_only`]; no split (a failed part fails).
    pub(crate) fn part_only(&mut self, interval: f64) -> Result<()> {
        self.data.frame.second_order = true;
        let layout = self.layout();
        crate::step::step_once(&layout, &mut self.data, &self.options, crate::step::Rescue::Allowed, interval).map(|_| ())
    }

    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// The model the step's buffers follow: the model, or the layout of its collision
    /// shapes' contacts (`step::collide`).
    pub(crate) fn layout(&self) -> Arc<Model> {
        self.data.collision.layout.clone().unwrap_or_else(|| self.model.clone())
    }

    /// Test support: the layout model of the last step (its `symbolic` holds the factor's
    /// pattern), for probes of the solver's cost.
    #[cfg(feature = "test-support")]
    #[doc(hidden)]
    pub fn debug_layout(&self) -> Arc<Model> {
        self.layout()
    }

    pub fn dt(&self) -> f64 {
        self.data.dt
    }

    pub fn time(&self) -> f64 {
        self.data.time
    }

    pub fn step_count(&self) -> u64 {
        self.data.steps
    }

    /// The solver settings in force (change them through [`Sim::set_options`]).
    pub fn options(&self) -> SolverOptions {
        self.options
    }

    pub fn stats(&self) -> &StepStats {
        &self.data.stats
    }

    /// Refused, changing nothing: an invalid setting; the fourth-order integrator on a
    /// model with contacts, collision shapes or joint limits. Choosing the fourth-order
    /// integrator takes the velocities as they read now as those at the current time (its
    /// steps start consistently from there).
    pub fn set_options(&mut self, o: SolverOptions) -> Result<()> {
        o.validate()?;
        let m = &self.model;
        if o.integrator == Integrator::FourthOrder && (m.inequality_count() > 0 || !m.collision.shapes.is_empty()) {
            return Err(Error::InvalidArgument("integrator", "the fourth-order integrator composes steps back in time, which contacts and joint limits cannot take: this model has contacts, collision shapes or joint limits".into()));
        }
        if o.integrator == Integrator::FourthOrder && self.options.integrator != Integrator::FourthOrder && !self.data.velocities_at_node {
            for i in 0..m.body_count() {
                (self.data.state.v[i], self.data.state.w[i]) = self.read_velocities(i);
            }
            (self.data.velocities_at_node, self.data.dt_prev) = (true, self.data.dt);
        }
        self.options = o;
        Ok(())
    }

    fn check_body(&self, body: usize) -> Result<()> {
        if body < self.model.body_count() {
            Ok(())
        } else {
            Err(Error::UnknownBody(body as i32))
        }
    }

    fn check_angular_speed(&self, w: &V3) -> Result<()> {
        if w.norm() * self.data.dt >= 2.0 {
            return Err(Error::InvalidArgument("omega", format!("|ω| = {} must be < 2/dt = {}", w.norm(), 2.0 / self.data.dt)));
        }
        Ok(())
    }
}

