//! Whole-state vectors of a `maxdyn_sim` from C, one call each (issue 26): the
//! configuration q (nq), the generalized velocity v (nv), every joint input u (nu) and every
//! joint's servo target (nu each), in
//! minimal coordinates with floating bases (`crate::sim` configuration module,
//! docs/QUERIES.md "Floating bases and whole-state vectors"); their sizes from the model;
//! the floating base's reference frame is set on the builder
//! (`maxdyn_builder_set_base_frame`), the sizes read from the model too
//! (`maxdyn_model_get_dimensions`).

use super::args::{answer_into, out as out_ptr, slice, slice_mut};
use super::error::{CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};
use crate::model::Model;

/// `n` must be the length `what` has (`need`).
fn check_length(n: usize, need: usize, what: &str) -> CResult<()> {
    if n == need {
        Ok(())
    } else {
        Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, {what} has {need} entries")))
    }
}

pub(crate) unsafe fn write_dimensions(m: &Model, nq: *mut usize, nv: *mut usize, nu: *mut usize) -> CResult<()> {
    let (oq, ov, ou) = (out_ptr(nq, "nq")?, out_ptr(nv, "nv")?, out_ptr(nu, "nu")?);
    (*oq, *ov, *ou) = m.dimensions();
    Ok(())
}

/// The sizes of `maxdyn_model_get_dimensions` for the sim's model (whose handle may be
/// freed already).
///
/// # Safety
/// `sim` is NULL or live; `nq`, `nv`, `nu` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_dimensions(sim: *const maxdyn_sim, nq: *mut usize, nv: *mut usize, nu: *mut usize) -> maxdyn_status {
    call("maxdyn_sim_get_dimensions", || with_ref(sim, "sim", |s| write_dimensions(s.inner.model(), nq, nv, nu)))
}

/// The configuration q into `q` (`n` = nq of `maxdyn_sim_get_dimensions`): per floating
/// base its frame's position (world) and orientation (w, x, y, z), then every joint's
/// coordinates in joint-id order (as `maxdyn_sim_get_joint_position`; angles a limit or
/// mimic tracks unwrapped).
///
/// # Safety
/// `sim` is NULL or live; `q` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_configuration(sim: *const maxdyn_sim, q: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_configuration", || {
        with_ref(sim, "sim", |s| {
            check_length(n, s.inner.model().configuration_size(), "the configuration")?;
            answer_into(q, n, "q", |o| Ok(s.inner.configuration(o)?))
        })
    })
}

/// Sets the whole configuration from `q` (`n` = nq) in one call: the floating bases and
/// every joint; bodies follow their joints, the generalized velocity is kept. Refused,
/// changing nothing: `n` other than nq (`MAXDYN_STATUS_WRONG_LENGTH`), a NaN or infinite
/// entry (`MAXDYN_STATUS_NON_FINITE`), a base quaternion whose norm is off 1 by more than
/// 1e-6 or a model with kinematic loops (`MAXDYN_STATUS_INVALID_ARGUMENT`).
///
/// # Safety
/// `sim` is NULL or live; `q` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_configuration(sim: *mut maxdyn_sim, q: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_configuration", || {
        with_mut(sim, "sim", |s| {
            check_length(n, s.inner.model().configuration_size(), "the configuration")?;
            let values = slice(q, n, "q")?;
            Ok(s.inner.set_configuration(values)?)
        })
    })
}

/// The generalized velocity v into `v` (`n` = nv): per floating base its frame's linear
/// and angular velocity in the frame's own axes, then every joint's rates in joint-id
/// order (discrete, as `maxdyn_sim_get_joint_velocity`).
///
/// # Safety
/// `sim` is NULL or live; `v` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_generalized_velocity(sim: *const maxdyn_sim, v: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_generalized_velocity", || {
        with_ref(sim, "sim", |s| {
            check_length(n, s.inner.model().minimal_velocity_count(), "the generalized velocity")?;
            answer_into(v, n, "v", |o| Ok(s.inner.generalized_velocity(o)?))
        })
    })
}

/// Sets the whole generalized velocity from `v` (`n` = nv) in one call; the configuration
/// is kept. Refused, changing nothing: `n` other than nv, a NaN or infinite entry, a joint
/// rotating by π or more in one step, a body spinning at |ω| ≥ 2/dt, a model with
/// kinematic loops.
///
/// # Safety
/// `sim` is NULL or live; `v` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_generalized_velocity(sim: *mut maxdyn_sim, v: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_generalized_velocity", || {
        with_mut(sim, "sim", |s| {
            check_length(n, s.inner.model().minimal_velocity_count(), "the generalized velocity")?;
            let values = slice(v, n, "v")?;
            Ok(s.inner.set_generalized_velocity(values)?)
        })
    })
}

/// Every joint's input in joint-id order into `u` (`n` = nu).
///
/// # Safety
/// `sim` is NULL or live; `u` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_inputs(sim: *const maxdyn_sim, u: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_joint_inputs", || {
        with_ref(sim, "sim", |s| {
            check_length(n, s.inner.model().joint_velocity_count(), "the joint inputs")?;
            answer_into(u, n, "u", |o| Ok(s.inner.joint_inputs(o)?))
        })
    })
}

/// Sets every joint's input at once from `u` (`n` = nu, joint-id order, each joint's as
/// `maxdyn_sim_set_joint_input` takes it); held until changed. Refused, changing nothing:
/// `n` other than nu, a NaN or infinite entry.
///
/// # Safety
/// `sim` is NULL or live; `u` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_joint_inputs(sim: *mut maxdyn_sim, u: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_joint_inputs", || {
        with_mut(sim, "sim", |s| {
            check_length(n, s.inner.model().joint_velocity_count(), "the joint inputs")?;
            let values = slice(u, n, "u")?;
            Ok(s.inner.set_joint_inputs(values)?)
        })
    })
}

/// Every joint's servo target in joint-id order into `position` and `velocity` (`n` =
/// nu each, as `maxdyn_sim_get_joint_target` gives each joint's).
///
/// # Safety
/// `sim` is NULL or live; `position` and `velocity` are NULL or `n` writable doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_targets(sim: *const maxdyn_sim, position: *mut f64, velocity: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_joint_targets", || {
        with_ref(sim, "sim", |s| {
            check_length(n, s.inner.model().joint_velocity_count(), "the joint targets")?;
            // both outputs checked before either is written
            let (p, v) = (slice_mut(position, n, "position")?, slice_mut(velocity, n, "velocity")?);
            let (mut pp, mut vv) = (vec![0.0; n], vec![0.0; n]);
            s.inner.joint_targets(&mut pp, &mut vv)?;
            p.copy_from_slice(&pp);
            v.copy_from_slice(&vv);
            Ok(())
        })
    })
}

/// Sets every joint's servo target at once (`n` = nu each, joint-id order, each joint's
/// as `maxdyn_sim_set_joint_target` takes it): the action of a policy that commands PD
/// targets. Refused, changing nothing: `n` other than nu, a NaN or infinite entry, a
/// non-zero position of a joint without a spring or a non-zero rate of a joint without a
/// damper (`MAXDYN_STATUS_INVALID_ARGUMENT`, naming the joint); a joint with neither takes
/// zeros.
///
/// # Safety
/// `sim` is NULL or live; `position` and `velocity` are NULL or `n` doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_joint_targets(sim: *mut maxdyn_sim, position: *const f64, velocity: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_joint_targets", || {
        with_mut(sim, "sim", |s| {
            check_length(n, s.inner.model().joint_velocity_count(), "the joint targets")?;
            let (p, v) = (slice(position, n, "position")?, slice(velocity, n, "velocity")?);
            Ok(s.inner.set_joint_targets(p, v)?)
        })
    })
}
