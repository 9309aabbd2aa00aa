//! Dynamics terms of a `maxdyn_sim` from C, in minimal coordinates at the current
//! configuration (see `dynamics_terms`): mass matrix, bias forces, inverse dynamics, and
//! the current minimal velocities. n = `maxdyn_model_velocity_count(model,
//! MAXDYN_COORDS_MINIMAL, &n)`.

use super::args::{answer_into, slice};
use super::error::{renamed, CResult, Failure, SIM};
use super::guard::{call, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};
use crate::sim::Sim;

fn check_n(sim: &Sim, n: usize, what: &str, per: usize) -> CResult<()> {
    let need = sim.model().minimal_velocity_count();
    if n == need * per {
        Ok(())
    } else {
        Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, {what} has {} entries (the model has {need} minimal velocities)", need * per)))
    }
}

/// The joint-space mass matrix M(q) into `out`, n × n row-major (`n_out` = n²).
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `n_out` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_mass_matrix(sim: *const maxdyn_sim, out: *mut f64, n_out: usize) -> maxdyn_status {
    call("maxdyn_sim_get_mass_matrix", || {
        with_ref(sim, "sim", |s| {
            let need = s.inner.model().minimal_velocity_count();
            if n_out != need * need {
                return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n_out` is {n_out}, the mass matrix has {need} × {need} entries")));
            }
            answer_into(out, n_out, "out", |o| renamed(s.inner.mass_matrix(o), SIM))
        })
    })
}

/// Bias forces b(q, q̇) (gravity, Coriolis, centrifugal) at minimal velocities `qd` into
/// `out` (both of length `n`).
///
/// # Safety
/// `sim` is NULL or live; `qd` is NULL or `n` doubles; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_bias_forces(sim: *const maxdyn_sim, qd: *const f64, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_bias_forces", || {
        with_ref(sim, "sim", |s| {
            check_n(&s.inner, n, "each array", 1)?;
            let qd = slice(qd, n, "qd")?;
            answer_into(out, n, "out", |o| renamed(s.inner.bias_forces(qd, o), SIM))
        })
    })
}

/// Inverse dynamics: the generalized forces τ = M(q) q̈ + b(q, q̇) (a floating base's wrench
/// in its frame's axes, then the joint inputs) for minimal velocities `qd`
/// and accelerations `qdd`, into `out` (all of length `n`).
///
/// # Safety
/// `sim` is NULL or live; `qd`, `qdd` are NULL or `n` doubles; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_inverse_dynamics(sim: *const maxdyn_sim, qd: *const f64, qdd: *const f64, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_inverse_dynamics", || {
        with_ref(sim, "sim", |s| {
            check_n(&s.inner, n, "each array", 1)?;
            let (qd, qdd) = (slice(qd, n, "qd")?, slice(qdd, n, "qdd")?);
            answer_into(out, n, "out", |o| renamed(s.inner.inverse_dynamics(qd, qdd, o), SIM))
        })
    })
}

/// Every joint's minimal velocities (continuous, at the current state; the convention of
/// the Jacobians) into `out` (length `n`).
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_minimal_velocities(sim: *const maxdyn_sim, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_minimal_velocities", || {
        with_ref(sim, "sim", |s| {
            check_n(&s.inner, n, "`out`", 1)?;
            answer_into(out, n, "out", |o| Ok(s.inner.minimal_velocities(o)?))
        })
    })
}
