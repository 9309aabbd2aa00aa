//! `maxdyn_batch`: many sims of one model stepped on a pool of threads, from C (the Rust
//! side is `crate::batch`). Its sims are ordinary `maxdyn_sim` objects owned by the
//! batch, so every `maxdyn_sim_*` function works on them; the batch adds parallel
//! stepping with a per-sim status. A sim whose step fails stops, keeps its status until
//! `maxdyn_batch_clear_failure`, and the others go on.

use std::ffi::{c_int, c_void};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::error::{renamed, CResult, Failure, NEW_SIM};
use super::guard::{call, with_mut, with_ref};
use super::handles::{free, into_raw, Object};
use super::model::maxdyn_model;
use super::sim::{in_control, maxdyn_sim, maxdyn_sim_free, maxdyn_sim_new};
use super::sim_state::MAXDYN_BODY_STATE_SIZE;
use super::status::maxdyn_status::{self, *};
use crate::batch::{thread_count, Pool};
use crate::sim::Sim;

/// Called by `maxdyn_batch_step` before each step of each sim, with the sim, its index
/// in the batch and the `user_data` given to the step. Read the state and set inputs
/// here (e.g. `maxdyn_sim_set_joint_input`); return 0 to take the step, non-zero to stop
/// this sim (its status becomes `MAXDYN_STATUS_CALLBACK_ABORTED`, its state is
/// unchanged). It runs on the pool's threads, for different sims at the same time: it
/// must touch only its own sim and data that is safe to use from several threads. It
/// must not step or free the batch or a sim: stepping its own sim
/// (`maxdyn_sim_step`, `maxdyn_sim_step_n`) or the batch gives
/// `MAXDYN_STATUS_REENTRANT_CALL` and steps nothing.
#[allow(non_camel_case_types)]
pub type maxdyn_batch_control = Option<unsafe extern "C" fn(sim: *mut maxdyn_sim, index: usize, user_data: *mut c_void) -> c_int>;

/// A sim owned by the batch (from `maxdyn_sim_new`).
struct SimHandle(*mut maxdyn_sim);

// SAFETY: a sim is used by one thread at a time: the pool steps each sim on one thread,
// and between steps only the calling thread reaches it.
unsafe impl Send for SimHandle {}
unsafe impl Sync for SimHandle {}

/// The caller's `user_data`, shared with the pool's threads as the callback's contract
/// allows.
struct UserData(*mut c_void);

// SAFETY: maxdyn never dereferences it; the callback's contract makes it thread-safe.
unsafe impl Sync for UserData {}

/// Sims of one model stepped on a pool of threads (opaque). Create with
/// `maxdyn_batch_new`, free with `maxdyn_batch_free`. Use one batch from one thread at
/// a time; its sims' trajectories are bit-identical to stepping them one by one.
pub struct maxdyn_batch {
    sims: Vec<SimHandle>,
    /// Each sim's failure; a sim with one is not stepped. Locked only briefly, never
    /// while a callback runs.
    failures: Vec<Mutex<Option<Failure>>>,
    pool: Pool,
    stepping: AtomicBool,
    poisoned: AtomicBool,
}

impl Object for maxdyn_batch {
    fn poison_flag(&self) -> &AtomicBool {
        &self.poisoned
    }
}

impl Drop for maxdyn_batch {
    fn drop(&mut self) {
        for s in &self.sims {
            // SAFETY: the batch owns its sims; the C caller was told not to free them
            unsafe { maxdyn_sim_free(s.0) };
        }
    }
}

impl maxdyn_batch {
    fn index(&self, i: usize, arg: &str) -> CResult<usize> {
        if i < self.sims.len() {
            Ok(i)
        } else {
            Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is {i}: the batch has {} sims", self.sims.len())))
        }
    }

    fn failure(&self, i: usize) -> std::sync::MutexGuard<'_, Option<Failure>> {
        self.failures[i].lock().unwrap_or_else(|p| p.into_inner())
    }

    fn status(&self, i: usize) -> maxdyn_status {
        self.failure(i).as_ref().map_or(MAXDYN_STATUS_OK, |f| f.status)
    }
}

/// Creates a batch of `n_sims` sims of `model` with time step `dt` (> 0, s), all at
/// the bodies' initial states, stepped on `n_threads` threads (0: the machine's
/// parallelism; 1: on the calling thread, no workers; never more than `n_sims`).
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_new(
    model: *const maxdyn_model,
    n_sims: usize,
    dt: f64,
    n_threads: usize,
    out: *mut *mut maxdyn_batch,
) -> maxdyn_status {
    call("maxdyn_batch_new", || {
        let o = super::args::out(out, "out")?;
        // the arguments are checked as a sim would check them, before anything is made
        with_ref(model, "model", |m| renamed(Sim::new(m.inner.clone(), dt), NEW_SIM))?;
        let no_memory = |_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `n_sims`: no memory for {n_sims} sims"));
        let (mut sims, mut failures) = (Vec::new(), Vec::new());
        sims.try_reserve_exact(n_sims).map_err(no_memory)?;
        failures.try_reserve_exact(n_sims).map_err(no_memory)?;
        failures.extend((0..n_sims).map(|_| Mutex::new(None)));
        let pool = Pool::new(thread_count(n_threads, n_sims))
            .map_err(|e| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `n_threads`: cannot start the threads: {e}")))?;
        let mut batch = maxdyn_batch {
            sims,
            failures,
            pool,
            stepping: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
        };
        for _ in 0..n_sims {
            let mut sim = std::ptr::null_mut();
            let status = maxdyn_sim_new(model, dt, &mut sim);
            if status != MAXDYN_STATUS_OK {
                // dropping `batch` frees the sims made so far
                return Err(Failure::new(status, "could not create a sim of the batch"));
            }
            batch.sims.push(SimHandle(sim));
        }
        *o = into_raw(batch);
        Ok(())
    })
}

/// Frees a batch and its sims. NULL is accepted. Not from inside a control callback.
///
/// # Safety
/// `batch` is NULL or from `maxdyn_batch_new` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_free(batch: *mut maxdyn_batch) {
    free(batch)
}

/// Number of sims, in `*out`.
///
/// # Safety
/// `batch` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_get_size(batch: *const maxdyn_batch, out: *mut usize) -> maxdyn_status {
    call("maxdyn_batch_get_size", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(batch, "batch", |b| Ok(b.sims.len()))?;
        Ok(())
    })
}

/// Number of threads that step the batch (the calling thread included), in `*out`.
///
/// # Safety
/// `batch` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_get_thread_count(batch: *const maxdyn_batch, out: *mut usize) -> maxdyn_status {
    call("maxdyn_batch_get_thread_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(batch, "batch", |b| Ok(b.pool.threads()))?;
        Ok(())
    })
}

/// The `index`-th sim in `*out`, to use with every `maxdyn_sim_*` function (set states,
/// inputs, options; read results). The pointer is borrowed: it stays valid until
/// `maxdyn_batch_free` and must not be passed to `maxdyn_sim_free`. The sim's own control
/// callback (`maxdyn_sim_set_control_callback`) is not called by `maxdyn_batch_step`.
///
/// # Safety
/// `batch` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_get_sim(batch: *const maxdyn_batch, index: usize, out: *mut *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_batch_get_sim", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(batch, "batch", |b| Ok(b.sims[b.index(index, "index")?].0))?;
        Ok(())
    })
}

/// Resets the stepping flag however `maxdyn_batch_step` ends.
struct Stepping<'a>(&'a AtomicBool);

impl Drop for Stepping<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// `steps` steps of one sim, each after its control callback; stops at the first failure.
unsafe fn advance(sim: *mut maxdyn_sim, index: usize, steps: usize, control: maxdyn_batch_control, user_data: &UserData) -> CResult<()> {
    for _ in 0..steps {
        if let Some(cb) = control {
            // stepping the sim from its callback is refused, as for a lone sim
            let rc = in_control(sim, || cb(sim, index, user_data.0));
            if rc != 0 {
                return Err(Failure::callback_aborted(rc));
            }
        }
        // a panic in the step poisons this sim only and becomes its status
        with_mut(sim, "sim", |s| {
            s.inner.step().map_err(|e| {
                let mut f = Failure::from(e);
                f.message.push_str("; the state stays at the last good step");
                f
            })?;
            Ok(())
        })?;
    }
    Ok(())
}

/// Advances every sim that has not failed by `steps` steps, on the batch's threads,
/// calling `control` (may be NULL) before each step of each sim. A sim whose step fails
/// stops at its last good step and keeps that status until `maxdyn_batch_clear_failure`;
/// the other sims take all their steps.
///
/// `statuses` (NULL, or `n_statuses` = the batch size entries) receives each sim's
/// status after the call, also when the call returns a sim's failure. Returns OK when
/// no sim is stopped; otherwise the status of the first stopped sim, with its index and
/// reason in `maxdyn_last_error_message()`. Argument errors, a poisoned batch and a call
/// from inside a control callback (`MAXDYN_STATUS_REENTRANT_CALL`) step nothing and
/// write nothing.
///
/// # Safety
/// `batch` is NULL or live; `control` is NULL or a function as `maxdyn_batch_control`
/// describes; `statuses` is NULL or `n_statuses` writable entries.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_step(
    batch: *mut maxdyn_batch,
    steps: usize,
    control: maxdyn_batch_control,
    user_data: *mut c_void,
    statuses: *mut maxdyn_status,
    n_statuses: usize,
) -> maxdyn_status {
    call("maxdyn_batch_step", || {
        // the batch is only read: callbacks may read it (and its sims) while it steps
        with_ref(batch, "batch", |b| {
            let n = b.sims.len();
            if !statuses.is_null() && n_statuses != n {
                return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n_statuses` is {n_statuses}, the batch has {n} sims")));
            }
            if b.stepping.swap(true, Ordering::Acquire) {
                return Err(Failure::reentrant_step("batch"));
            }
            let _stepping = Stepping(&b.stepping);
            let user_data = UserData(user_data);
            b.pool.run(n, &|r: Range<usize>| {
                for i in r {
                    // the lock is not held while the sim steps (its callback may read the batch)
                    let stopped = b.failure(i).is_some();
                    if !stopped {
                        if let Err(f) = advance(b.sims[i].0, i, steps, control, &user_data) {
                            *b.failure(i) = Some(f);
                        }
                    }
                }
            });
            if !statuses.is_null() {
                for (i, s) in std::slice::from_raw_parts_mut(statuses, n).iter_mut().enumerate() {
                    *s = b.status(i);
                }
            }
            match (0..n).find(|&i| b.failure(i).is_some()) {
                None => Ok(()),
                Some(i) => {
                    let f = b.failure(i);
                    let f = f.as_ref().expect("sim i is stopped");
                    Err(Failure::new(f.status, format!("sim {i} is stopped: {}", f.message)))
                }
            }
        })
    })
}

/// The status of sim `index` in `*out`: OK, or the failure that stopped it.
///
/// # Safety
/// `batch` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_get_status(batch: *const maxdyn_batch, index: usize, out: *mut maxdyn_status) -> maxdyn_status {
    call("maxdyn_batch_get_status", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(batch, "batch", |b| Ok(b.status(b.index(index, "index")?)))?;
        Ok(())
    })
}

/// Lets a stopped sim step again (e.g. after setting a new state); OK if it was not stopped.
///
/// # Safety
/// `batch` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_clear_failure(batch: *mut maxdyn_batch, index: usize) -> maxdyn_status {
    call("maxdyn_batch_clear_failure", || {
        // shared access: a control callback may clear a failure while the batch steps
        with_ref(batch, "batch", |b| {
            *b.failure(b.index(index, "index")?) = None;
            Ok(())
        })
    })
}

/// Copies every sim's body states to `out`, a `[n_sims][n_bodies][13]` array (as
/// `maxdyn_sim_get_body_states` per sim, sim after sim); `n` must be
/// `n_sims · n_bodies · 13`.
///
/// # Safety
/// `batch` is NULL or live; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_batch_get_body_states(batch: *const maxdyn_batch, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_batch_get_body_states", || {
        with_ref(batch, "batch", |b| {
            let bodies = match b.sims.first() {
                Some(s) => with_ref(s.0, "sim", |s| Ok(s.inner.model().body_count()))?,
                None => 0,
            };
            let expected = b.sims.len() * bodies * MAXDYN_BODY_STATE_SIZE;
            if n != expected {
                return Err(Failure::new(
                    MAXDYN_STATUS_WRONG_LENGTH,
                    format!("argument `n` is {n}, the batch needs {} sims × {bodies} bodies × 13 = {expected}", b.sims.len()),
                ));
            }
            let o = super::args::slice_mut(out, n, "out")?;
            for (s, block) in b.sims.iter().zip(o.chunks_exact_mut((bodies * MAXDYN_BODY_STATE_SIZE).max(1))) {
                with_ref(s.0, "sim", |s| {
                    for (body, state) in block.chunks_exact_mut(MAXDYN_BODY_STATE_SIZE).enumerate() {
                        state.copy_from_slice(&s.inner.body_state(body)?);
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::builder::*;
    use crate::capi::model::maxdyn_model_free;
    use crate::capi::sim_state::maxdyn_sim_get_step_count;

    /// A sim left poisoned by a panic (as `with_mut` leaves it when its step panics) gets
    /// its own status; the other sims step and the batch stays usable.
    #[test]
    fn a_poisoned_sim_is_its_own_status_and_the_others_step() {
        unsafe {
            let (b, m) = crate::capi::test_model::one_body_model();
            let mut batch = std::ptr::null_mut();
            assert_eq!(maxdyn_batch_new(m, 3, 0.01, 2, &mut batch), MAXDYN_STATUS_OK);
            let sims: Vec<*mut maxdyn_sim> = (0..3)
                .map(|i| {
                    let mut s = std::ptr::null_mut();
                    assert_eq!(maxdyn_batch_get_sim(batch, i, &mut s), MAXDYN_STATUS_OK);
                    s
                })
                .collect();
            (*sims[2]).poison();
            let mut statuses = [MAXDYN_STATUS_OK; 3];
            let st = maxdyn_batch_step(batch, 4, None, std::ptr::null_mut(), statuses.as_mut_ptr(), 3);
            assert_eq!(st, MAXDYN_STATUS_POISONED);
            assert_eq!(statuses, [MAXDYN_STATUS_OK, MAXDYN_STATUS_OK, MAXDYN_STATUS_POISONED]);
            for sim in &sims[..2] {
                let mut steps = 0;
                assert_eq!(maxdyn_sim_get_step_count(*sim, &mut steps), MAXDYN_STATUS_OK);
                assert_eq!(steps, 4);
            }
            let mut size = 0;
            assert_eq!(maxdyn_batch_get_size(batch, &mut size), MAXDYN_STATUS_OK, "the batch itself is not poisoned");
            maxdyn_batch_free(batch);
            maxdyn_model_free(m);
            maxdyn_builder_free(b);
        }
    }
}
