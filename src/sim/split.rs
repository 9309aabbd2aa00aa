//! Step splitting: when Newton finds no solution of a step (a fast, light body asked to
//! turn more than a quarter turn in one step, where the discrete rotation map folds: the
//! momentum (h/2)(sI + [ω]×)Jω is bounded for |ω| < 2/h), the step is retried as two
//! halves, recursively up to `SolverOptions::max_splits` levels. The halves use the
//! variable-interval equations of `integrator::body_dynamics` (the intervals of the known
//! and the unknown velocities may differ), so positions are always predicted with the
//! interval their velocities were solved for and every constraint still holds at the
//! end of each half. If the split also fails, the state returns to the last good step.
//!
//! The interior point's Tresca rescue (`interior_point::tresca_fallback`) first runs only
//! at the deepest level: a failed contact step is cheaper to retry as halves (two solves
//! of ~20 iterations on the B2 chain) than to rescue at full length (a round of ~25
//! iterations that mostly fails too, 8–13 rounds when it succeeds). Only if that whole
//! split fails is the step tried once more with the rescue at every level.

use super::{Sim, StepStats};
use crate::forces::EnergyAccount;
use crate::math::{V3, V4};
use crate::model::Result;

/// Everything a successful step changes, preallocated (restoring allocates nothing).
#[derive(Debug, Clone, Default)]
pub(super) struct Snapshot {
    x: Vec<V3>,
    q: Vec<V4>,
    v: Vec<V3>,
    w: Vec<V3>,
    solution: Vec<f64>,
    e_solution: Vec<f64>,
    contact_forces: Vec<[f64; 4]>,
    time: f64,
    steps: u64,
    dt_prev: f64,
    energy: EnergyAccount,
}

impl Snapshot {
    pub fn of(sim: &Sim) -> Snapshot {
        let mut s = Snapshot {
            x: sim.x.clone(),
            q: sim.q.clone(),
            v: sim.v.clone(),
            w: sim.w.clone(),
            solution: sim.solution.clone(),
            e_solution: sim.contacts.e_solution.clone(),
            contact_forces: sim.contact_forces.clone(),
            ..Snapshot::default()
        };
        s.save(sim);
        s
    }

    fn save(&mut self, sim: &Sim) {
        self.x.copy_from_slice(&sim.x);
        self.q.copy_from_slice(&sim.q);
        self.v.copy_from_slice(&sim.v);
        self.w.copy_from_slice(&sim.w);
        self.solution.copy_from_slice(&sim.solution);
        self.e_solution.copy_from_slice(&sim.contacts.e_solution);
        self.contact_forces.copy_from_slice(&sim.contact_forces);
        self.time = sim.time;
        self.steps = sim.steps;
        self.dt_prev = sim.dt_prev;
        self.energy = sim.energy_account;
    }

    fn restore(&self, sim: &mut Sim) {
        sim.x.copy_from_slice(&self.x);
        sim.q.copy_from_slice(&self.q);
        sim.v.copy_from_slice(&self.v);
        sim.w.copy_from_slice(&self.w);
        sim.solution.copy_from_slice(&self.solution);
        sim.contacts.e_solution.copy_from_slice(&self.e_solution);
        sim.contact_forces.copy_from_slice(&self.contact_forces);
        sim.time = self.time;
        sim.steps = self.steps;
        sim.dt_prev = self.dt_prev;
        sim.energy_account = self.energy;
    }
}

impl Sim {
    /// Advances one time step of `dt`. If Newton fails, the step is split in halves (see
    /// the module docs; `StepStats::substeps` tells how many were taken). On failure the
    /// state stays at the last good step and `stats()` describes the failed attempt.
    pub fn step(&mut self) -> Result<StepStats> {
        self.tresca_depth = self.options.max_splits;
        let first = match self.step_once() {
            Ok(st) => return Ok(st),
            Err(e) if self.options.max_splits == 0 => return Err(e),
            Err(e) => e,
        };
        let failed = self.stats;
        let mut snap = std::mem::take(&mut self.snapshot);
        snap.save(self);
        let dt = self.dt;
        let mut result = self.split(dt, 1, failed);
        if result.is_err() {
            // last resort: the whole step again with the Tresca rescue at every level
            snap.restore(self);
            self.tresca_depth = 0;
            (self.dt, self.frame.dt, self.split_depth) = (dt, dt, 0);
            result = match self.step_once() {
                Ok(st) => Ok(st),
                Err(_) => self.split(dt, 1, failed),
            };
        }
        self.split_depth = 0;
        self.dt = dt;
        self.frame.dt = dt;
        let out = match result {
            Ok(mut st) => {
                // one step of dt, whatever it took
                self.time = snap.time + dt;
                self.steps = snap.steps + 1;
                st.iterations += failed.iterations;
                self.stats = st;
                Ok(st)
            }
            Err(_) => {
                snap.restore(self);
                self.stats = failed;
                Err(first)
            }
        };
        self.snapshot = snap;
        out
    }

    /// Two halves of an interval h, each split again on failure down to `max_splits`.
    fn split(&mut self, h: f64, level: usize, mut total: StepStats) -> Result<StepStats> {
        total.iterations = 0;
        total.substeps = 0;
        for _ in 0..2 {
            self.dt = 0.5 * h;
            self.split_depth = level;
            let st = match self.step_once() {
                Ok(st) => StepStats { substeps: 1, ..st },
                Err(e) if level >= self.options.max_splits => return Err(e),
                Err(_) => self.split(0.5 * h, level + 1, self.stats)?,
            };
            total = StepStats {
                iterations: total.iterations + st.iterations,
                substeps: total.substeps + st.substeps,
                line_search_halvings: total.line_search_halvings + st.line_search_halvings,
                tresca_rounds: total.tresca_rounds + st.tresca_rounds,
                fallback: total.fallback || st.fallback,
                stalled: total.stalled || st.stalled,
                ..st
            };
        }
        Ok(total)
    }
}
