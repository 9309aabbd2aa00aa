//! One rollout of a model: state, warm start, preallocated workspace, diagnostics.

mod contact_check;
mod culling;
mod interior_point;
mod inputs;
pub mod inspect;
mod newton;
mod split;
mod state;

pub use inspect::ConstraintRank;

use std::sync::Arc;

use crate::forces::EnergyAccount;
use crate::integrator::StepFrame;
use crate::math::{V3, V4};
use crate::model::{Error, Model, Result};
use crate::solver::BlockMatrix;

#[doc(hidden)]
pub use contact_check::ContactSystemCheck;

/// Newton solver settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverOptions {
    /// Converged when the residual's largest entry is below this.
    pub tolerance: f64,
    pub max_iterations: usize,
    /// A step whose residual stopped decreasing is still accepted below this level (and
    /// flagged in the stats): at singular configurations (a four-bar in its parallel
    /// pose) the step equations may have no exact solution.
    pub acceptance: f64,
    /// Contacts: converged when every complementarity product (normal force × gap slack,
    /// friction pairs) is below this, scaled by the largest normal force / 100 N when that
    /// exceeds 1 (impacts of kN would otherwise ask for gap slacks below what the linear
    /// solve resolves); the barrier parameter ends at a tenth of it.
    pub contact_tolerance: f64,
    /// A step Newton cannot solve is retried as two halves, recursively, at most this
    /// many levels deep (3: down to dt/8); 0 disables splitting.
    pub max_splits: usize,
    /// Contacts: Mehrotra predictor–corrector barrier steps (default); false gives the
    /// monotone barrier rule (for comparison).
    pub contact_predictor_corrector: bool,
    /// Contacts whose gap at the predicted next configuration exceeds this margin (m) plus
    /// the distance their point moves in one step are left out of the step's solve; one
    /// found penetrating at the solution is added and the step solved again, so the result
    /// is that of the full problem. `f64::INFINITY` keeps every contact in every solve.
    pub contact_margin: f64,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions { tolerance: 1e-10, max_iterations: 100, acceptance: 1e-8, contact_tolerance: 1e-8, max_splits: 3, contact_predictor_corrector: true, contact_margin: 0.05 }
    }
}

/// What the last step did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepStats {
    pub iterations: usize,
    /// Largest residual entry at the end of the step.
    pub residual: f64,
    /// The residual stalled above the tolerance but below the acceptance level.
    pub stalled: bool,
    /// Backtracking halvings summed over the step.
    pub line_search_halvings: usize,
    /// Contacts in the model.
    pub contacts: usize,
    /// Contacts whose normal force exceeds their gap slack (N vs m) at the solution.
    pub active_contacts: usize,
    /// Largest complementarity product at the end of the step (0 without contacts).
    pub complementarity: f64,
    /// The direct contact solve failed and the Tresca fixed point took over.
    pub fallback: bool,
    /// Rounds of the Tresca fixed point (0 unless `fallback`).
    pub tresca_rounds: usize,
    /// Intervals the step took: 1, or more when it had to be split (see `Sim::step`).
    pub substeps: usize,
}

pub struct Sim {
    model: Arc<Model>,
    /// Step size of the step being taken (the nominal one except inside a split step).
    dt: f64,
    /// Interval spanned by the current velocities: positions are predicted with it.
    dt_prev: f64,
    options: SolverOptions,
    time: f64,
    steps: u64,
    // state z_k, ż_k
    x: Vec<V3>,
    q: Vec<V4>,
    v: Vec<V3>,
    w: Vec<V3>,
    /// Last step's solution (velocities and multipliers): the warm start.
    solution: Vec<f64>,
    stats: StepStats,
    /// Input work and damper dissipation since the start (see `forces::energy`).
    energy_account: EnergyAccount,
    // workspace
    frame: StepFrame,
    g_parent: Vec<f64>,
    g_child: Vec<f64>,
    g_offset: Vec<usize>,
    work: newton::Workspace,
    matrix: BlockMatrix,
    contacts: crate::contact::node::ContactWork,
    /// Per contact after the last step: normal force and world friction force.
    contact_forces: Vec<[f64; 4]>,
    snapshot: split::Snapshot,
    /// Levels of step splitting above the step being solved (0: a whole step).
    split_depth: usize,
    /// The Tresca rescue runs in solves at this split depth or deeper (see `split.rs`).
    tresca_depth: usize,
}

impl Sim {
    pub fn new(model: Arc<Model>, dt: f64) -> Result<Sim> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Error::InvalidTimeStep(dt));
        }
        let nb = model.body_count();
        let dim = model.system_size();
        let mut g_offset = Vec::with_capacity(model.joint_count());
        let mut o = 0;
        for j in &model.joints {
            g_offset.push(o);
            o += j.constraint_count() * 6;
        }
        let mut sim = Sim {
            dt,
            dt_prev: dt,
            options: SolverOptions::default(),
            time: 0.0,
            steps: 0,
            x: model.bodies.iter().map(|b| b.x).collect(),
            q: model.bodies.iter().map(|b| b.q).collect(),
            v: model.bodies.iter().map(|b| b.v).collect(),
            w: model.bodies.iter().map(|b| b.w).collect(),
            solution: vec![0.0; dim],
            stats: StepStats::default(),
            frame: StepFrame::new(nb, dt).with_joints(model.joint_count()),
            energy_account: EnergyAccount::default(),
            g_parent: vec![0.0; o],
            g_child: vec![0.0; o],
            g_offset,
            work: newton::Workspace::new(dim),
            matrix: BlockMatrix::new(&model.symbolic),
            contacts: crate::contact::node::ContactWork::new(&model.contacts),
            contact_forces: vec![[0.0; 4]; model.contacts.len()],
            snapshot: split::Snapshot::default(),
            split_depth: 0,
            tresca_depth: 0,
            model,
        };
        sim.snapshot = split::Snapshot::of(&sim);
        for i in 0..nb {
            sim.check_angular_speed(&sim.w[i].clone())?;
        }
        Ok(sim)
    }

    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    pub fn dt(&self) -> f64 {
        self.dt
    }

    pub fn time(&self) -> f64 {
        self.time
    }

    pub fn step_count(&self) -> u64 {
        self.steps
    }

    /// The solver settings in force (change them through [`Sim::set_options`]).
    pub fn options(&self) -> SolverOptions {
        self.options
    }

    pub fn stats(&self) -> &StepStats {
        &self.stats
    }

    pub fn set_options(&mut self, o: SolverOptions) -> Result<()> {
        if !(o.tolerance.is_finite() && o.tolerance > 0.0) {
            return Err(Error::InvalidArgument("tolerance", format!("{} must be finite and > 0", o.tolerance)));
        }
        if !(o.acceptance.is_finite() && o.acceptance >= o.tolerance) {
            return Err(Error::InvalidArgument("acceptance", "must be finite and ≥ tolerance".into()));
        }
        if !(o.contact_tolerance.is_finite() && o.contact_tolerance > 0.0) {
            return Err(Error::InvalidArgument("contact_tolerance", format!("{} must be finite and > 0", o.contact_tolerance)));
        }
        if !(o.contact_margin >= 0.0) {
            return Err(Error::InvalidArgument("contact_margin", format!("{} must be ≥ 0 (infinity keeps every contact)", o.contact_margin)));
        }
        if o.max_iterations == 0 {
            return Err(Error::InvalidArgument("max_iterations", "must be ≥ 1".into()));
        }
        self.options = o;
        Ok(())
    }

    /// Applied force (world frame, through the centre of mass) and torque (body frame)
    /// on a body; held until changed. Same as `set_body_wrench` with the point at the
    /// centre of mass.
    pub fn set_body_force(&mut self, body: usize, force: [f64; 3], torque: [f64; 3]) -> Result<()> {
        self.check_body(body)?;
        crate::model::error::check_finite("force", &force)?;
        crate::model::error::check_finite("torque", &torque)?;
        self.frame.force[body] = V3::from(force);
        self.frame.torque[body] = V3::from(torque);
        self.frame.force_point[body] = V3::zeros();
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
        if w.norm() * self.dt >= 2.0 {
            return Err(Error::InvalidArgument("omega", format!("|ω| = {} must be < 2/dt = {}", w.norm(), 2.0 / self.dt)));
        }
        Ok(())
    }
}
