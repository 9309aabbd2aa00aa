//! The exact state of a `maxdyn_sim` from C (an opaque array of doubles, layout in
//! `sim::snapshot`) and copies of a sim: save, restore and replay bit for bit.

use super::args::{out as out_ptr, slice, slice_mut};
use super::error::{renamed, Failure};
use super::guard::{call, with_mut, with_ref};
use super::handles::into_raw;
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};

/// The length (in doubles) of this sim's exact state, in `*n`. It depends on the model
/// only (bodies, joints, contacts, limits, and the contact slots of its capacity,
/// `maxdyn_builder_set_contact_capacity`): it stays the same as contacts come and go,
/// and is the same in every sim of the model.
///
/// # Safety
/// `sim` is NULL or live; `n` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_state_size(sim: *const maxdyn_sim, n: *mut usize) -> maxdyn_status {
    call("maxdyn_sim_state_size", || {
        let o = out_ptr(n, "n")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.state_size()))?;
        Ok(())
    })
}

fn check_size(size: usize, n: usize) -> Result<(), Failure> {
    if n == size {
        Ok(())
    } else {
        Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, the state has {size} doubles (maxdyn_sim_state_size)")))
    }
}

/// Copies the sim's exact state into `out` (`n` doubles, `n` from `maxdyn_sim_state_size`):
/// poses, velocities, time, step count, step size, inputs, the solver's warm start, the
/// tracked joint angles and the energy account. Opaque: pass it back to
/// `maxdyn_sim_set_state` of this sim or of any sim of the same model, before or after its
/// contacts change. It carries a fingerprint of the model's numbers.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_state(sim: *const maxdyn_sim, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_state", || {
        with_ref(sim, "sim", |s| {
            check_size(s.inner.state_size(), n)?;
            let o = slice_mut(out, n, "out")?;
            Ok(s.inner.get_state(o)?)
        })
    })
}

/// Restores a state from `maxdyn_sim_get_state` (`n` doubles): the steps that follow are
/// bit-identical to those that followed when it was saved. Validated before anything
/// changes: a wrong `n` gives MAXDYN_STATUS_WRONG_LENGTH, a NaN or infinite entry
/// MAXDYN_STATUS_NON_FINITE, a state of another model or layout version (or otherwise
/// not a saved state; a model of the same structure with other numbers is another model)
/// MAXDYN_STATUS_INVALID_ARGUMENT, a step size out of range
/// MAXDYN_STATUS_INVALID_TIME_STEP.
///
/// # Safety
/// `sim` is NULL or live; `in` is NULL or `n` readable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_state(sim: *mut maxdyn_sim, r#in: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_state", || {
        with_mut(sim, "sim", |s| {
            check_size(s.inner.state_size(), n)?;
            let input = slice(r#in, n, "in")?;
            // the Rust API's `state` (and its bodies' `omega`) is the C argument `in`
            renamed(s.inner.set_state(input), &[("state", "in"), ("omega", "in")])
        })
    })
}

/// A new, independent sim in `*out`: the same model (shared), options, exact state,
/// control callback and user data. Free it with `maxdyn_sim_free`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_copy(sim: *const maxdyn_sim, out: *mut *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_sim_copy", || {
        let o = out_ptr(out, "out")?;
        let copy = with_ref(sim, "sim", |s| Ok(s.duplicate()))?;
        *o = into_raw(copy);
        Ok(())
    })
}
