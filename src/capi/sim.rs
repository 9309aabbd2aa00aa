//! `maxdyn_sim`: one rollout, from C — creation, stepping with the optional control
//! callback, solver options and step statistics. State access is in `sim_state.rs`.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

use super::args::{count_i32, out};
use super::error::{CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::handles::{free, into_raw, Object};
use super::model::maxdyn_model;
use super::status::maxdyn_status::{self, *};
use crate::sim::{Sim, SolverOptions};

/// Called by `maxdyn_sim_step` before each step with the sim and the user data given to
/// `maxdyn_sim_set_control_callback`. Read the state and set inputs here (e.g.
/// `maxdyn_sim_set_joint_input`, `maxdyn_sim_set_body_wrench`); return 0 to take the
/// step, non-zero to abort it (the step then returns `MAXDYN_STATUS_CALLBACK_ABORTED` and the state is unchanged). The callback
/// must not free the sim; stepping it from inside gives `MAXDYN_STATUS_REENTRANT_CALL`.
#[allow(non_camel_case_types)]
pub type maxdyn_control_callback = Option<unsafe extern "C" fn(sim: *mut maxdyn_sim, user_data: *mut c_void) -> c_int>;

/// One simulation of a model (opaque): state, warm start, workspace. Create with
/// `maxdyn_sim_new`, free with `maxdyn_sim_free`. Use one sim from one thread at a time.
pub struct maxdyn_sim {
    pub(crate) inner: Sim,
    callback: maxdyn_control_callback,
    user_data: *mut c_void,
    in_callback: AtomicBool,
    poisoned: AtomicBool,
}

impl Object for maxdyn_sim {
    fn poison_flag(&self) -> &AtomicBool {
        &self.poisoned
    }
}

/// What the last step (successful or not) did.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct maxdyn_step_stats {
    /// Newton iterations.
    pub iterations: i32,
    /// Largest residual entry at the end of the step.
    pub residual: f64,
    /// 1 if the residual stalled above the tolerance but was accepted below the
    /// acceptance level (a singular configuration), else 0.
    pub stalled: i32,
    /// Line-search step halvings summed over the step.
    pub line_search_halvings: i32,
    /// Contacts in the model.
    pub contacts: i32,
    /// Contacts whose normal force exceeds their gap slack (N vs m) at the solution:
    /// the ones touching.
    pub active_contacts: i32,
    /// Largest complementarity product at the end of the step (0 without contacts);
    /// below the contact tolerance when the step converged.
    pub complementarity: f64,
    /// 1 if the direct contact solve failed and the Tresca fixed point solved the step.
    pub fallback: i32,
    /// Intervals the step took: 1, or more when Newton found no solution of the whole
    /// step and it was split in halves (see `maxdyn_sim_step`).
    pub substeps: i32,
}

/// Creates a sim of `model` with time step `dt` (> 0, s) in `*out`, starting from the
/// bodies' initial states set on the builder. The sim shares the model: the model may be
/// freed first.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_new(model: *const maxdyn_model, dt: f64, out: *mut *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_sim_new", || {
        let o = super::args::out(out, "out")?;
        let sim = with_ref(model, "model", |m| Ok(Sim::new(m.inner.clone(), dt)?))?;
        *o = into_raw(maxdyn_sim {
            inner: sim,
            callback: None,
            user_data: std::ptr::null_mut(),
            in_callback: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
        });
        Ok(())
    })
}

/// Frees a sim. NULL is accepted. Must not be called from the sim's own callback.
///
/// # Safety
/// `sim` is NULL or from `maxdyn_sim_new` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_free(sim: *mut maxdyn_sim) {
    free(sim)
}

/// Sets (or, with `callback` NULL, removes) the control callback called before each
/// step, and the `user_data` passed to it. maxdyn never reads or frees `user_data`.
///
/// # Safety
/// `sim` is NULL or live; `callback` is NULL or a valid function.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_control_callback(
    sim: *mut maxdyn_sim,
    callback: maxdyn_control_callback,
    user_data: *mut c_void,
) -> maxdyn_status {
    call("maxdyn_sim_set_control_callback", || {
        with_mut(sim, "sim", |s| {
            s.callback = callback;
            s.user_data = user_data;
            Ok(())
        })
    })
}

/// Runs the callback (if any), then one step. No borrow of the sim is held while the
/// callback runs: it receives the sim pointer and may call other functions on it.
unsafe fn step_once(sim: *mut maxdyn_sim) -> CResult<()> {
    let (callback, user_data) = with_ref(sim, "sim", |s| {
        if s.in_callback.load(Ordering::Relaxed) {
            return Err(Failure::new(MAXDYN_STATUS_REENTRANT_CALL, "argument `sim` is being stepped: it cannot be stepped from its own control callback"));
        }
        Ok((s.callback, s.user_data))
    })?;
    if let Some(cb) = callback {
        (*sim).in_callback.store(true, Ordering::Relaxed);
        let rc = cb(sim, user_data);
        (*sim).in_callback.store(false, Ordering::Relaxed);
        if rc != 0 {
            return Err(Failure::new(MAXDYN_STATUS_CALLBACK_ABORTED, format!("the control callback returned {rc}; the step was not taken")));
        }
    }
    with_mut(sim, "sim", |s| {
        s.inner.step().map_err(|e| {
            let mut f = Failure::from(e);
            f.message.push_str("; the state stays at the last good step");
            f
        })?;
        Ok(())
    })
}

/// Advances one time step: calls the control callback (if set), then solves the step.
/// A step Newton cannot solve is retried as two halves, recursively (at most 3 levels;
/// `substeps` in the stats). On failure (e.g. `MAXDYN_STATUS_NOT_CONVERGED`) the state
/// stays at the last good step and `maxdyn_sim_get_step_stats` describes the failed
/// attempt.
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_step(sim: *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_sim_step", || step_once(sim))
}

/// Takes `steps` (≥ 0) steps as `maxdyn_sim_step` would, stopping at the first failure
/// (whose status it returns; `maxdyn_sim_get_step_count` tells how many were taken).
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_step_n(sim: *mut maxdyn_sim, steps: i32) -> maxdyn_status {
    call("maxdyn_sim_step_n", || {
        with_ref(sim, "sim", |_| Ok(()))?;
        if steps < 0 {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `steps` is {steps}: must be ≥ 0")));
        }
        for _ in 0..steps {
            step_once(sim)?;
        }
        Ok(())
    })
}

/// Statistics of the last step (successful or not) in `*out`; all zero before the first.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_step_stats(sim: *const maxdyn_sim, out: *mut maxdyn_step_stats) -> maxdyn_status {
    call("maxdyn_sim_get_step_stats", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| {
            let st = s.inner.stats();
            Ok(maxdyn_step_stats {
                iterations: count_i32(st.iterations),
                residual: st.residual,
                stalled: i32::from(st.stalled),
                line_search_halvings: count_i32(st.line_search_halvings),
                contacts: count_i32(st.contacts),
                active_contacts: count_i32(st.active_contacts),
                complementarity: st.complementarity,
                fallback: i32::from(st.fallback),
                substeps: count_i32(st.substeps),
            })
        })?;
        Ok(())
    })
}

/// Sets the Newton solver options: converged when the largest residual entry is below
/// `tolerance` (> 0, default 1e-10); at most `max_iterations` (≥ 1, default 100)
/// iterations; a step whose residual stalls is still accepted (and flagged `stalled` in
/// the stats) below `acceptance` (≥ tolerance, default 1e-8). All three are checked
/// before any is changed.
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_solver_options(
    sim: *mut maxdyn_sim,
    tolerance: f64,
    max_iterations: i32,
    acceptance: f64,
) -> maxdyn_status {
    call("maxdyn_sim_set_solver_options", || {
        let max_iterations = usize::try_from(max_iterations).map_err(|_| {
            Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `max_iterations` is {max_iterations}: must be ≥ 1"))
        })?;
        with_mut(sim, "sim", |s| Ok(s.inner.set_options(SolverOptions { tolerance, max_iterations, acceptance, ..s.inner.options() })?))
    })
}

/// The current solver options (see `maxdyn_sim_set_solver_options`).
///
/// # Safety
/// `sim` is NULL or live; the three out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_solver_options(
    sim: *const maxdyn_sim,
    tolerance: *mut f64,
    max_iterations: *mut i32,
    acceptance: *mut f64,
) -> maxdyn_status {
    call("maxdyn_sim_get_solver_options", || {
        let t = out(tolerance, "tolerance")?;
        let m = out(max_iterations, "max_iterations")?;
        let a = out(acceptance, "acceptance")?;
        let o = with_ref(sim, "sim", |s| Ok(s.inner.options()))?;
        *t = o.tolerance;
        *m = count_i32(o.max_iterations);
        *a = o.acceptance;
        Ok(())
    })
}

/// Simulated time (s) in `*out`: steps taken × dt.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_time(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_time", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.time()))?;
        Ok(())
    })
}

/// Number of steps taken, in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_step_count(sim: *const maxdyn_sim, out: *mut u64) -> maxdyn_status {
    call("maxdyn_sim_get_step_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.step_count()))?;
        Ok(())
    })
}

/// The time step (s) in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_dt(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_dt", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.dt()))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::builder::*;
    use crate::capi::model::maxdyn_model_new;

    /// A panic inside an exported body is caught, returns INTERNAL and poisons the sim;
    /// later calls on it fail with POISONED and it can still be freed.
    #[test]
    fn panic_poisons_the_sim() {
        unsafe {
            let mut b = std::ptr::null_mut();
            assert_eq!(maxdyn_builder_new(&mut b), MAXDYN_STATUS_OK);
            let inertia = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
            let mut body = -1;
            assert_eq!(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body), MAXDYN_STATUS_OK);
            let mut m = std::ptr::null_mut();
            assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_OK);
            let mut s = std::ptr::null_mut();
            assert_eq!(maxdyn_sim_new(m, 0.01, &mut s), MAXDYN_STATUS_OK);
            let st = call("test_panic", || with_mut(s, "sim", |_| -> CResult<()> { panic!("boom") }));
            assert_eq!(st, MAXDYN_STATUS_INTERNAL);
            let msg = std::ffi::CStr::from_ptr(crate::capi::error::maxdyn_last_error_message()).to_str().unwrap().to_string();
            assert!(msg.contains("boom"), "{msg}");
            assert_eq!(maxdyn_sim_step(s), MAXDYN_STATUS_POISONED);
            let mut t = -1.0;
            assert_eq!(maxdyn_sim_get_time(s, &mut t), MAXDYN_STATUS_POISONED);
            assert_eq!(t, -1.0);
            maxdyn_sim_free(s);
            crate::capi::model::maxdyn_model_free(m);
            maxdyn_builder_free(b);
        }
    }
}
