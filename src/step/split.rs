//! Step splitting, the retry policy around [`step_once`]: when Newton finds no solution of
//! a step (a fast, light body asked to turn more than a quarter turn in one step, where
//! the discrete rotation map folds: the momentum (h/2)(sI + [ω]×)Jω is bounded for
//! |ω| < 2/h), the step is retried as two halves, recursively up to
//! `SolverOptions::max_splits` levels. The halves use the variable-interval equations of
//! `integrator::body_dynamics` (the intervals of the known and the unknown velocities may
//! differ), so positions are always predicted with the interval their velocities were
//! solved for and every constraint still holds at the end of each half. If the split also
//! fails, the state returns to the last good step.
//!
//! The Tresca rescue (`tresca`) first runs only at the deepest level: a failed contact
//! step is cheaper to retry as halves than to rescue at full length, where the rescue
//! mostly fails too and takes many rounds when it succeeds. Only if that whole split
//! fails is the step tried once more with the rescue at every level. The relaxed rescue
//! (`relaxed`, one solve) runs at full length before the split, and with the Tresca
//! rescue wherever that runs. The last pass splits the step again with each part
//! selecting its contacts by its share of the contact margin (its interval over dt): an
//! impact that no split makes smaller (the A1's hips hitting their limits at 370 rad/s)
//! jammed in every half with feet in the solve that no half could reach. Its solves are
//! also patient (`Scratch::patient`): a cold solve of a violent impact that crawls past
//! the interior point's stale window may still converge, and the retry budget bounds it.

use super::checkpoint::Checkpoint;
use super::options::SolverOptions;
use super::{step_once, Rescue};
use crate::data::{Data, StepStats};
use crate::model::{Error, Model, Result};

/// A step's retries stop once its solves have taken this many times
/// `SolverOptions::max_iterations` in all: a step that no split or rescue solves would
/// otherwise try every half at every level twice (62 solves and their rescues at five
/// levels; 15 s for one step of a 100-sphere pile), while the deepest split that succeeds
/// (SCENARIOS B2's hardest impact, dt/32) needs a few hundred iterations.
pub const RETRY_BUDGET: usize = 20;

/// The policy's bookkeeping, one per simulation.
#[derive(Debug, Clone)]
pub struct SplitPolicy {
    /// The state the split halves start from.
    snapshot: Checkpoint,
    /// Levels of splitting above the step being solved (0: a whole step).
    depth: usize,
    /// The Tresca rescue runs in solves at this depth or deeper.
    tresca_depth: usize,
    /// Iterations the current step's solves have taken, and the most they may take.
    spent: usize,
    budget: usize,
    /// The last pass: the parts of the split select their contacts with their share of
    /// the margin, and their solves run to the iteration cap.
    last_pass: bool,
}

impl SplitPolicy {
    pub fn new(d: &Data) -> SplitPolicy {
        SplitPolicy { snapshot: Checkpoint::of(d), depth: 0, tresca_depth: 0, spent: 0, budget: 0, last_pass: false }
    }

    fn rescue(&self) -> Rescue {
        if self.depth >= self.tresca_depth {
            Rescue::Allowed
        } else if self.depth == 0 {
            // a frictional solve that jams (a pile) is not helped by halving the step;
            // the relaxed solve is one more solve, at full length (run where the solve
            // jammed; an impact's failure is split first)
            Rescue::Relaxed
        } else {
            Rescue::Deferred
        }
    }

    /// Advances one time step of `d.dt`, split in halves if it fails (see the module
    /// docs; `StepStats::substeps` tells how many were taken). On failure the state stays
    /// at the last good step and `d.stats` describes the failed attempt.
    pub fn step(&mut self, model: &Model, d: &mut Data, opts: &SolverOptions) -> Result<StepStats> {
        let dt = d.dt;
        self.tresca_depth = opts.max_splits;
        (self.depth, self.spent, self.budget, self.last_pass) = (0, 0, RETRY_BUDGET * opts.max_iterations, false);
        let first = match self.attempt(model, d, opts, dt) {
            Ok(st) => return Ok(st),
            Err(e) if opts.max_splits == 0 => return Err(e),
            Err(e) => e,
        };
        let failed = d.stats;
        self.snapshot.save(d);
        let mut result = self.split(model, d, opts, dt, 1, failed);
        if result.is_err() {
            // then the whole step again with the Tresca rescue at every level
            self.snapshot.restore(model, d);
            (self.tresca_depth, self.depth) = (0, 0);
            result = match self.attempt(model, d, opts, dt) {
                Ok(st) => Ok(st),
                Err(_) => self.split(model, d, opts, dt, 1, failed),
            };
        }
        // (without contacts or limits the margin selects nothing: the pass would repeat the first)
        if result.is_err() && opts.contact_margin.is_finite() && model.inequality_count() > 0 {
            // last: an impact that no split makes smaller (a limb stopped at its limit)
            // can jam with contacts its parts cannot reach; the margin covers how far a
            // point may move beyond its prediction in a whole step, each part gets its share;
            // and a cold solve of a violent impact may crawl past the stale window, then converge
            self.snapshot.restore(model, d);
            (self.tresca_depth, self.depth, self.last_pass) = (opts.max_splits, 0, true);
            result = self.split(model, d, opts, dt, 1, failed);
        }
        (self.depth, self.last_pass) = (0, false);
        match result {
            Ok(st) => {
                // one step of dt, whatever it took
                d.time = self.snapshot.time + dt;
                d.steps = self.snapshot.steps + 1;
                let st = st.after_attempts(failed.iterations);
                d.stats = st;
                Ok(st)
            }
            Err(_) => {
                self.snapshot.restore(model, d);
                d.stats = failed;
                Err(first)
            }
        }
    }

    /// One solve of an interval `h` at the current depth, refused (with the last
    /// attempt's stats) once the step's retry budget is spent.
    fn attempt(&mut self, model: &Model, d: &mut Data, opts: &SolverOptions, h: f64) -> Result<StepStats> {
        if self.spent >= self.budget {
            return Err(Error::NotConverged { residual: d.stats.residual, iterations: d.stats.iterations });
        }
        let share = if self.last_pass { (h.abs() / d.dt).min(1.0) } else { 1.0 };
        let opts = SolverOptions { contact_margin: opts.contact_margin * share, ..*opts };
        d.scratch.patient = self.last_pass;
        let result = step_once(model, d, &opts, self.rescue(), h);
        d.scratch.patient = false;
        self.spent += d.stats.iterations;
        result
    }

    /// Two halves of an interval h, each split again on failure down to `max_splits`;
    /// `failed` is the failed attempt of h (its flags and its other work count, its
    /// iterations are the step's).
    fn split(&mut self, model: &Model, d: &mut Data, opts: &SolverOptions, h: f64, level: usize, failed: StepStats) -> Result<StepStats> {
        let mut total = StepStats { iterations: 0, substeps: 0, ..failed };
        for _ in 0..2 {
            self.depth = level;
            let st = match self.attempt(model, d, opts, 0.5 * h) {
                Ok(st) => StepStats { substeps: 1, ..st },
                Err(e) if level >= opts.max_splits => return Err(e),
                Err(_) => {
                    let failed = d.stats;
                    self.split(model, d, opts, 0.5 * h, level + 1, failed)?
                }
            };
            total = total.then(st);
        }
        Ok(total)
    }
}
