//! Inputs of `maxdyn_sim` from C: joint inputs (actuators), servo targets, and body forces
//! and wrenches.
//! They hold until changed. Values are validated by the Rust API; this layer checks
//! pointers, ids and array lengths, all before anything changes.

use super::args::{array, body_index, slice, slice_mut};
use super::guard::{call, with_mut, with_ref};
use super::sim::maxdyn_sim;
use super::sim_state::{joint_with_length, MAX_DOF};
use super::status::maxdyn_status;

/// Applies a force (world frame, N, through the centre of mass) and a torque (body
/// frame, N·m) to a body. They act on every following step until changed.
///
/// # Safety
/// `sim` is NULL or live; `force` and `torque` are NULL or 3 doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_body_force(sim: *mut maxdyn_sim, body: i32, force: *const f64, torque: *const f64) -> maxdyn_status {
    call("maxdyn_sim_set_body_force", || {
        let f = array::<3>(force, "force")?;
        let t = array::<3>(torque, "torque")?;
        with_mut(sim, "sim", |s| {
            let b = body_index(body, s.inner.model().body_count(), "body")?;
            Ok(s.inner.set_body_force(b, f, t)?)
        })
    })
}

/// Sets a joint's input, one value per free direction (`n` = the joint's dof,
/// translations first): a force (N) along a free translation, or a torque (N·m) about a
/// free rotation, +u on the child and −u on the parent. Inputs hold until changed: set
/// them, then step (a controller sets them again before each step, e.g. from the
/// control callback).
///
/// # Safety
/// `sim` is NULL or live; `u` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_joint_input(sim: *mut maxdyn_sim, joint: i32, u: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_joint_input", || {
        with_mut(sim, "sim", |s| {
            let j = joint_with_length(&s.inner, joint, n)?;
            let u = slice(u, n, "u")?;
            Ok(s.inner.set_joint_input(j, u)?)
        })
    })
}

/// Copies a joint's current input (`n` = the joint's dof) to `u`.
///
/// # Safety
/// `sim` is NULL or live; `u` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_input(sim: *const maxdyn_sim, joint: i32, u: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_joint_input", || {
        let mut buf = [0.0; MAX_DOF];
        with_ref(sim, "sim", |s| {
            let j = joint_with_length(&s.inner, joint, n)?;
            Ok(s.inner.joint_input(j, &mut buf[..n])?)
        })?;
        slice_mut(u, n, "u")?.copy_from_slice(&buf[..n]);
        Ok(())
    })
}

/// Moves a joint's servo target (`n` = the joint's dof, translations first): its spring
/// pulls toward `position` (minimal coordinates, as `maxdyn_sim_get_joint_position`
/// reads them) and its damper toward the rate `velocity`. The generalized force on free
/// direction i is −kᵢ (θᵢ − positionᵢ) − cᵢ (θ̇ᵢ − velocityᵢ), with the damping implicit in
/// the step: a PD servo stable for any gain and step (MuJoCo's position actuator with its
/// implicit damping, Drake's implicit PD). Held until changed; the model's spring rest and
/// a zero rate until then. Refused with `MAXDYN_STATUS_INVALID_ARGUMENT`, changing nothing:
/// a joint with neither a spring nor a damper (`maxdyn_builder_set_joint_spring`,
/// `maxdyn_builder_set_joint_damper`), a non-zero position on a joint without a spring and
/// a non-zero rate on a joint without a damper (nothing would pull toward them). Moving the target changes the spring's potential at
/// once; the energy account credits it as input work.
///
/// # Safety
/// `sim` is NULL or live; `position` and `velocity` are NULL or `n` doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_joint_target(sim: *mut maxdyn_sim, joint: i32, position: *const f64, velocity: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_joint_target", || {
        with_mut(sim, "sim", |s| {
            let j = joint_with_length(&s.inner, joint, n)?;
            let p = slice(position, n, "position")?;
            let v = slice(velocity, n, "velocity")?;
            Ok(s.inner.set_joint_target(j, p, v)?)
        })
    })
}

/// Copies a joint's current servo target (`n` = the joint's dof) to `position` and
/// `velocity`.
///
/// # Safety
/// `sim` is NULL or live; `position` and `velocity` are NULL or `n` writable doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_target(sim: *const maxdyn_sim, joint: i32, position: *mut f64, velocity: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_joint_target", || {
        let (mut p, mut v) = ([0.0; MAX_DOF], [0.0; MAX_DOF]);
        with_ref(sim, "sim", |s| {
            let j = joint_with_length(&s.inner, joint, n)?;
            Ok(s.inner.joint_target(j, &mut p[..n], &mut v[..n])?)
        })?;
        // both outputs checked before either is written
        let (position, velocity) = (slice_mut(position, n, "position")?, slice_mut(velocity, n, "velocity")?);
        position.copy_from_slice(&p[..n]);
        velocity.copy_from_slice(&v[..n]);
        Ok(())
    })
}

/// Applies an external wrench to a body: `force` (world frame, N) acting at the
/// body-fixed `point` (body frame, relative to the centre of mass, m) and `torque` (body
/// frame, N·m). Replaces the body's earlier wrench (and `maxdyn_sim_set_body_force`);
/// holds until changed.
///
/// # Safety
/// `sim` is NULL or live; `force`, `torque` and `point` are NULL or 3 doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_body_wrench(
    sim: *mut maxdyn_sim,
    body: i32,
    force: *const f64,
    torque: *const f64,
    point: *const f64,
) -> maxdyn_status {
    call("maxdyn_sim_set_body_wrench", || {
        let f = array::<3>(force, "force")?;
        let t = array::<3>(torque, "torque")?;
        let p = array::<3>(point, "point")?;
        with_mut(sim, "sim", |s| {
            let b = body_index(body, s.inner.model().body_count(), "body")?;
            Ok(s.inner.set_body_wrench(b, f, t, p)?)
        })
    })
}

/// Sets every joint input and body wrench to zero and every servo target back to the
/// model's (the spring's rest, a zero rate).
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_clear_inputs(sim: *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_sim_clear_inputs", || {
        with_mut(sim, "sim", |s| {
            s.inner.clear_inputs();
            Ok(())
        })
    })
}
