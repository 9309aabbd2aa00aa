//! Batch rollouts: many sims of one shared model stepped on a pool of threads. Each
//! thread steps a fixed contiguous chunk of the sims, and sims share nothing mutable, so
//! every sim's trajectory is bit-identical to stepping it alone, for any thread count.

mod pool;
mod pthread_sync;

pub(crate) use pool::Pool;

use std::ops::Range;
use std::sync::Arc;

use crate::model::{Error, Model, Result};
use crate::sim::Sim;

/// N sims of one model and the threads that step them. A sim whose step fails stops
/// (its state stays at the last good step) and keeps its error until
/// [`Batch::clear_failure`]; the others go on.
pub struct Batch {
    sims: Vec<Sim>,
    failures: Vec<Option<Error>>,
    pool: Pool,
}

/// Shares disjoint chunks of a slice with the pool's threads.
struct Chunks<T>(*mut T);

// SAFETY: each thread takes a disjoint range (`Pool::run` hands out each chunk once), and
// the items are `Send`.
unsafe impl<T: Send> Sync for Chunks<T> {}

impl<T> Chunks<T> {
    /// # Safety
    /// `r` lies inside the slice and no other live reference overlaps it.
    #[allow(clippy::mut_from_ref)]
    unsafe fn get(&self, r: Range<usize>) -> &mut [T] {
        std::slice::from_raw_parts_mut(self.0.add(r.start), r.len())
    }
}

/// The thread count to use: `threads`, or with 0 the machine's parallelism; never more
/// than the sims (an idle worker would only cost a wake-up).
pub(crate) fn thread_count(threads: usize, sims: usize) -> usize {
    let wanted = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    wanted.min(sims).max(1)
}

impl Batch {
    /// `n` sims of `model` with time step `dt`, all at the bodies' initial states, on
    /// `threads` threads (0: `std::thread::available_parallelism()`; 1: stepped on the
    /// calling thread, no workers).
    pub fn new(model: Arc<Model>, n: usize, dt: f64, threads: usize) -> Result<Batch> {
        let sims = (0..n).map(|_| Sim::new(model.clone(), dt)).collect::<Result<Vec<_>>>()?;
        Batch::from_sims(sims, threads)
    }

    /// A batch of prepared sims (states, inputs, options already set); they must share
    /// one model (the same `Arc`).
    pub fn from_sims(sims: Vec<Sim>, threads: usize) -> Result<Batch> {
        if let Some(first) = sims.first() {
            if sims.iter().any(|s| !Arc::ptr_eq(s.model(), first.model())) {
                return Err(Error::InvalidArgument("sims", "the sims of a batch must share one model".into()));
            }
        }
        let pool = Pool::new(thread_count(threads, sims.len()))
            .map_err(|e| Error::InvalidArgument("threads", format!("cannot start the worker threads: {e}")))?;
        Ok(Batch { failures: vec![None; sims.len()], sims, pool })
    }

    pub fn len(&self) -> usize {
        self.sims.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sims.is_empty()
    }

    /// Threads stepping the batch (the caller's included).
    pub fn thread_count(&self) -> usize {
        self.pool.threads()
    }

    pub fn sims(&self) -> &[Sim] {
        &self.sims
    }

    /// The sims, e.g. to set states or inputs; each sim's failure stays until cleared.
    pub fn sims_mut(&mut self) -> &mut [Sim] {
        &mut self.sims
    }

    /// Sim `i` (panics if `i ≥ len()`, as indexing does).
    pub fn sim(&self, i: usize) -> &Sim {
        &self.sims[i]
    }

    pub fn sim_mut(&mut self, i: usize) -> &mut Sim {
        &mut self.sims[i]
    }

    /// The error that stopped sim `i`, if any.
    pub fn failure(&self, i: usize) -> Option<&Error> {
        self.failures[i].as_ref()
    }

    pub fn failures(&self) -> &[Option<Error>] {
        &self.failures
    }

    /// The sims back (the threads end here).
    pub fn into_sims(self) -> Vec<Sim> {
        self.sims
    }

    /// Lets a stopped sim step again (e.g. after resetting its state).
    pub fn clear_failure(&mut self, i: usize) {
        self.failures[i] = None;
    }

    /// Advances every sim that has not failed by `steps` steps; returns how many sims are
    /// stopped by a failure afterwards.
    pub fn step(&mut self, steps: usize) -> usize {
        self.step_with(steps, |_, _| {})
    }

    /// As [`Batch::step`], calling `control(i, sim)` before each step of sim `i` (on the
    /// thread stepping it) to set its inputs: closed-loop rollouts.
    pub fn step_with<F: Fn(usize, &mut Sim) + Sync>(&mut self, steps: usize, control: F) -> usize {
        let n = self.sims.len();
        let sims = Chunks(self.sims.as_mut_ptr());
        let failures = Chunks(self.failures.as_mut_ptr());
        self.pool.run(n, &|r: Range<usize>| {
            let first = r.start;
            // SAFETY: the pool gives each range to one thread; the ranges are disjoint.
            let (sims, failures) = unsafe { (sims.get(r.clone()), failures.get(r)) };
            for (k, (sim, failure)) in sims.iter_mut().zip(failures).enumerate() {
                if failure.is_none() {
                    *failure = advance(first + k, sim, steps, &control).err();
                }
            }
        });
        self.failures.iter().filter(|f| f.is_some()).count()
    }

    /// Copies every sim's body states into `out`: sim-major, then body, 13 doubles per
    /// body (x, q (w, x, y, z), v, ω as in [`Sim::body_state`]), `len() · bodies · 13` in all.
    pub fn body_states(&self, out: &mut [f64]) -> Result<()> {
        let bodies = self.sims.first().map_or(0, |s| s.model().body_count());
        crate::error::check_len("out", out.len(), self.sims.len() * bodies * 13)?;
        for (sim, block) in self.sims.iter().zip(out.chunks_exact_mut((bodies * 13).max(1))) {
            for (b, state) in block.chunks_exact_mut(13).enumerate() {
                state.copy_from_slice(&sim.body_state(b)?);
            }
        }
        Ok(())
    }
}

/// `steps` steps of sim `i` with its controller; stops at the first failure.
fn advance<F: Fn(usize, &mut Sim)>(i: usize, sim: &mut Sim, steps: usize, control: &F) -> Result<()> {
    for _ in 0..steps {
        control(i, sim);
        sim.step()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Builder, Inertia, Parent};
    use crate::JointType;

    fn pendulum() -> Arc<Model> {
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
        b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        Arc::new(Model::new(&b).unwrap())
    }

    #[test]
    fn thread_count_is_clamped_to_the_sims() {
        assert_eq!(thread_count(4, 2), 2);
        assert_eq!(thread_count(3, 0), 1);
        assert_eq!(thread_count(1, 9), 1);
        assert!(thread_count(0, 64) >= 1);
        let b = Batch::new(pendulum(), 5, 0.01, 3).unwrap();
        assert_eq!((b.len(), b.thread_count()), (5, 3));
    }

    #[test]
    fn sims_of_different_models_are_refused() {
        let sims = vec![Sim::new(pendulum(), 0.01).unwrap(), Sim::new(pendulum(), 0.01).unwrap()];
        assert!(matches!(Batch::from_sims(sims, 2), Err(Error::InvalidArgument("sims", _))));
    }

    #[test]
    fn body_states_checks_the_length_and_lays_out_sim_major() {
        let mut b = Batch::new(pendulum(), 3, 0.01, 2).unwrap();
        b.sim_mut(1).set_joint_position(0, &[0.5]).unwrap();
        assert_eq!(b.step(10), 0);
        assert!(matches!(b.body_states(&mut [0.0; 38]), Err(Error::WrongLength { .. })));
        let mut all = [0.0; 39];
        b.body_states(&mut all).unwrap();
        for i in 0..3 {
            assert_eq!(all[13 * i..13 * (i + 1)], b.sim(i).body_state(0).unwrap());
        }
        assert_ne!(all[..13], all[13..26]);
        let sims = b.into_sims();
        assert_eq!(sims.len(), 3);
        assert_eq!(sims[2].step_count(), 10);
    }
}
