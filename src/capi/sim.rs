//! `maxdyn_sim`: one rollout, from C — creation, the optional control callback and
//! stepping. Options are in `options.rs`, state in `sim_state.rs`, inputs in
//! `sim_inputs.rs`, contact results in `sim_contacts.rs`, statistics and energy in
//! `diagnostics.rs`.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};

use super::error::{renamed, CResult, Failure, NEW_SIM};
use super::guard::{call, with_mut, with_ref};
use super::handles::{free, into_raw, Object};
use super::model::maxdyn_model;
use super::status::maxdyn_status::{self, *};
use crate::sim::Sim;

/// Called by `maxdyn_sim_step` before each step with the sim and the user data given to
/// `maxdyn_sim_set_control_callback`. Read the state and set inputs here (e.g.
/// `maxdyn_sim_set_joint_input`, `maxdyn_sim_set_body_wrench`); return 0 to take the
/// step, non-zero to abort it (the step then returns
/// `MAXDYN_STATUS_CALLBACK_ABORTED` and the state is unchanged). The callback must not
/// free the sim; stepping it from inside gives `MAXDYN_STATUS_REENTRANT_CALL`.
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

impl maxdyn_sim {
    /// An independent copy (`maxdyn_sim_copy`): the same model, options, exact state,
    /// callback and user data; not poisoned, not inside a callback.
    pub(crate) fn duplicate(&self) -> maxdyn_sim {
        maxdyn_sim { inner: self.inner.clone(), callback: self.callback, user_data: self.user_data, in_callback: AtomicBool::new(false), poisoned: AtomicBool::new(false) }
    }
}

impl Object for maxdyn_sim {
    fn poison_flag(&self) -> &AtomicBool {
        &self.poisoned
    }
}

/// Creates a sim of `model` with time step `dt` (s, in [MAXDYN_MIN_DT, MAXDYN_MAX_DT]) in `*out`, starting from the
/// bodies' initial states set on the builder. The sim shares the model: the model may be
/// freed first.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_new(model: *const maxdyn_model, dt: f64, out: *mut *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_sim_new", || {
        let o = super::args::out(out, "out")?;
        let sim = with_ref(model, "model", |m| renamed(Sim::new(m.inner.clone(), dt), NEW_SIM))?;
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

/// Runs `callback` (a control callback of `sim`, its own or its batch's) with `sim`
/// marked as inside it: stepping `sim` from there gives `MAXDYN_STATUS_REENTRANT_CALL`.
///
/// # Safety
/// `sim` is live and not borrowed.
pub(crate) unsafe fn in_control<R>(sim: *mut maxdyn_sim, callback: impl FnOnce() -> R) -> R {
    (*sim).in_callback.store(true, Ordering::Relaxed);
    let r = callback();
    (*sim).in_callback.store(false, Ordering::Relaxed);
    r
}

/// Runs the callback (if any), then one step. No borrow of the sim is held while the
/// callback runs: it receives the sim pointer and may call other functions on it.
unsafe fn step_once(sim: *mut maxdyn_sim) -> CResult<()> {
    let (callback, user_data) = with_ref(sim, "sim", |s| {
        if s.in_callback.load(Ordering::Relaxed) {
            return Err(Failure::reentrant_step("sim"));
        }
        Ok((s.callback, s.user_data))
    })?;
    if let Some(cb) = callback {
        let rc = in_control(sim, || cb(sim, user_data));
        if rc != 0 {
            return Err(Failure::callback_aborted(rc));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::builder::*;
    use crate::capi::sim_state::maxdyn_sim_get_time;

    /// A panic inside an exported body is caught, returns INTERNAL and poisons the sim;
    /// later calls on it fail with POISONED and it can still be freed.
    #[test]
    fn panic_poisons_the_sim() {
        unsafe {
            let (b, m) = crate::capi::test_model::one_body_model();
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
