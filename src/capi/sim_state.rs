//! State of `maxdyn_sim` from C: time, body states (13 doubles per body: x(3)
//! q(4: w,x,y,z) v(3) ω(3); v world frame, ω body frame) and joint minimal coordinates.

use super::args::{array, body_index, joint_index, slice, slice_mut};
use super::error::{renamed, CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};
use crate::sim::Sim;

/// Doubles per body in a state array.
pub const MAXDYN_BODY_STATE_SIZE: usize = 13;

/// The largest number of minimal coordinates of any joint (a floating joint).
pub(crate) const MAX_DOF: usize = 6;

/// The index of `joint`, whose array arguments the caller gave as `n` values: `n`
/// must be the joint's number of free directions.
pub(crate) fn joint_with_length(sim: &Sim, joint: i32, n: usize) -> CResult<usize> {
    let j = joint_index(joint, sim.model().joint_count(), "joint")?;
    let dof = sim.joint_dof(j)?;
    if n != dof {
        return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, joint {joint} has {dof} free directions")));
    }
    Ok(j)
}

/// Simulated time (s) in `*out`: the running sum of the steps' dt, so after k steps it
/// may differ from k·dt by rounding (1.0000000000000007 s after 100 steps of 0.01 s).
/// For the exact k·dt, multiply `maxdyn_sim_get_step_count` by `maxdyn_sim_get_dt`.
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

/// Copies one body's state to `out` (13 doubles).
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or 13 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_body_state(sim: *const maxdyn_sim, body: i32, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_body_state", || {
        let o = slice_mut(out, MAXDYN_BODY_STATE_SIZE, "out")?;
        let s = with_ref(sim, "sim", |s| {
            let b = body_index(body, s.inner.model().body_count(), "body")?;
            Ok(s.inner.body_state(b)?)
        })?;
        o.copy_from_slice(&s);
        Ok(())
    })
}

/// Sets one body's state from `state` (13 doubles; the quaternion is normalized and
/// must not be zero; |ω| < 2/dt). Joints are not enforced here: this is the escape hatch
/// for free bodies and states computed elsewhere.
///
/// # Safety
/// `sim` is NULL or live; `state` is NULL or 13 doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_body_state(sim: *mut maxdyn_sim, body: i32, state: *const f64) -> maxdyn_status {
    call("maxdyn_sim_set_body_state", || {
        let st = array::<13>(state, "state")?;
        with_mut(sim, "sim", |s| {
            let b = body_index(body, s.inner.model().body_count(), "body")?;
            renamed(s.inner.set_body_state(b, &st), &[("omega", "state"), ("q", "state")])
        })
    })
}

fn check_body_count(sim: &Sim, n_bodies: usize) -> Result<(), Failure> {
    let nb = sim.model().body_count();
    if n_bodies == nb {
        Ok(())
    } else {
        Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n_bodies` is {n_bodies}, the model has {nb} bodies")))
    }
}

/// Copies every body's state to `out`, a `[n_bodies][13]` array (body-major: C sees
/// `double[n][13]`, column-major hosts a 13×n matrix). `n_bodies` must equal the body
/// count.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `13·n_bodies` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_body_states(sim: *const maxdyn_sim, out: *mut f64, n_bodies: usize) -> maxdyn_status {
    call("maxdyn_sim_get_body_states", || {
        with_ref(sim, "sim", |s| {
            check_body_count(&s.inner, n_bodies)?;
            let o = slice_mut(out, n_bodies * MAXDYN_BODY_STATE_SIZE, "out")?;
            for (b, chunk) in o.chunks_exact_mut(MAXDYN_BODY_STATE_SIZE).enumerate() {
                chunk.copy_from_slice(&s.inner.body_state(b)?);
            }
            Ok(())
        })
    })
}

/// Sets every body's state from `states`, a `[n_bodies][13]` array as returned by
/// `maxdyn_sim_get_body_states`. All or nothing: on failure no body changes.
///
/// # Safety
/// `sim` is NULL or live; `states` is NULL or `13·n_bodies` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_body_states(sim: *mut maxdyn_sim, states: *const f64, n_bodies: usize) -> maxdyn_status {
    call("maxdyn_sim_set_body_states", || {
        with_mut(sim, "sim", |s| {
            check_body_count(&s.inner, n_bodies)?;
            let input = slice(states, n_bodies * MAXDYN_BODY_STATE_SIZE, "states")?;
            let before: Vec<[f64; 13]> = (0..n_bodies).map(|b| s.inner.body_state(b)).collect::<Result<_, _>>()?;
            for (b, chunk) in input.chunks_exact(MAXDYN_BODY_STATE_SIZE).enumerate() {
                let st: [f64; 13] = chunk.try_into().expect("chunks of 13");
                if let Err(e) = s.inner.set_body_state(b, &st) {
                    // restore the bodies already set: earlier states are valid, so this
                    // cannot fail
                    for (k, old) in before.iter().enumerate().take(b) {
                        s.inner.set_body_state(k, old)?;
                    }
                    let mut f = Failure::from(e).renamed(&[("omega", "states"), ("q", "states"), ("state", "states")]);
                    f.message = format!("body {b}: {}", f.message);
                    return Err(f);
                }
            }
            Ok(())
        })
    })
}

#[derive(Clone, Copy)]
enum Coordinates {
    Position,
    Velocity,
}

unsafe fn get_joint(sim: *const maxdyn_sim, joint: i32, values: *mut f64, n: usize, what: Coordinates) -> Result<(), Failure> {
    let mut buf = [0.0; MAX_DOF];
    with_ref(sim, "sim", |s| {
        let j = joint_with_length(&s.inner, joint, n)?;
        match what {
            Coordinates::Position => s.inner.joint_position(j, &mut buf[..n])?,
            Coordinates::Velocity => s.inner.joint_velocity(j, &mut buf[..n])?,
        }
        Ok(())
    })?;
    super::args::finite_answer("values", &buf[..n])?;
    slice_mut(values, n, "values")?.copy_from_slice(&buf[..n]);
    Ok(())
}

unsafe fn set_joint(sim: *mut maxdyn_sim, joint: i32, values: *const f64, n: usize, what: Coordinates) -> Result<(), Failure> {
    with_mut(sim, "sim", |s| {
        let j = joint_with_length(&s.inner, joint, n)?;
        let v = slice(values, n, "values")?;
        match what {
            Coordinates::Position => s.inner.set_joint_position(j, v)?,
            Coordinates::Velocity => s.inner.set_joint_velocity(j, v)?,
        }
        Ok(())
    })
}

/// Copies a joint's minimal positions (its free directions, translations first; angles
/// in rad) to `values`; `n` must equal the joint's dof (`maxdyn_model_get_joint_dof`).
///
/// # Safety
/// `sim` is NULL or live; `values` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_position(sim: *const maxdyn_sim, joint: i32, values: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_joint_position", || get_joint(sim, joint, values, n, Coordinates::Position))
}

/// Copies a joint's minimal velocities to `values` (`n` = the joint's dof).
///
/// # Safety
/// `sim` is NULL or live; `values` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_velocity(sim: *const maxdyn_sim, joint: i32, values: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_joint_velocity", || get_joint(sim, joint, values, n, Coordinates::Velocity))
}

/// Sets a joint's minimal positions (`n` = the joint's dof). The child's subtree moves
/// rigidly; every other joint keeps its coordinates.
///
/// # Safety
/// `sim` is NULL or live; `values` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_joint_position(sim: *mut maxdyn_sim, joint: i32, values: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_joint_position", || set_joint(sim, joint, values, n, Coordinates::Position))
}

/// Sets a joint's minimal velocities (`n` = the joint's dof); the subtree follows.
///
/// # Safety
/// `sim` is NULL or live; `values` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_joint_velocity(sim: *mut maxdyn_sim, joint: i32, values: *const f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_set_joint_velocity", || set_joint(sim, joint, values, n, Coordinates::Velocity))
}
