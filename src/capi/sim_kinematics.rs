//! Kinematics of a `maxdyn_sim` from C: pose, twist and Jacobian of a named frame or of a
//! point fixed to a body, at the current state (see `kinematics` for the conventions).
//! Jacobians are 6 × n, row-major (rows v then ω), n from `maxdyn_model_velocity_count`.

use super::args::{answer_into, array, body_index, finite_answer, out as out_ptr, slice_mut};
use super::error::{CResult, Failure};
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::model_frames::frame_index;
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};
use crate::kinematics::{Axes, Coords, Target};
use crate::sim::Sim;

/// Twists and Jacobians in world axes (v of the target's origin and ω, world frame).
pub const MAXDYN_AXES_WORLD: i32 = 0;
/// Twists and Jacobians in the target's own axes.
pub const MAXDYN_AXES_LOCAL: i32 = 1;
/// Minimal coordinates: 6 velocities per floating base (a body no joint places: its
/// frame's linear and angular velocity in its own axes), then every joint's coordinates
/// (velocities) in joint-id order, as `maxdyn_sim_get_joint_position/velocity` return them.
pub const MAXDYN_COORDS_MINIMAL: i32 = 0;
/// Maximal coordinates: every body's state (velocities: v world, ω body frame) in body order.
pub const MAXDYN_COORDS_MAXIMAL: i32 = 1;

pub(crate) fn axes(v: i32) -> CResult<Axes> {
    match v {
        MAXDYN_AXES_WORLD => Ok(Axes::World),
        MAXDYN_AXES_LOCAL => Ok(Axes::Local),
        _ => Err(Failure::invalid_enum("axes", v, "MAXDYN_AXES_* value", "MAXDYN_AXES_WORLD 0, MAXDYN_AXES_LOCAL 1")),
    }
}

pub(crate) fn coords(v: i32) -> CResult<Coords> {
    match v {
        MAXDYN_COORDS_MINIMAL => Ok(Coords::Minimal),
        MAXDYN_COORDS_MAXIMAL => Ok(Coords::Maximal),
        _ => Err(Failure::invalid_enum("coords", v, "MAXDYN_COORDS_* value", "MAXDYN_COORDS_MINIMAL 0, MAXDYN_COORDS_MAXIMAL 1")),
    }
}

/// Number of velocities (Jacobian columns) in `coords`, in `*out`: 6 per floating base
/// plus every joint's free directions (minimal, nv) or 6 per body (maximal).
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_velocity_count(model: *const maxdyn_model, coords: i32, out: *mut usize) -> maxdyn_status {
    call("maxdyn_model_velocity_count", || {
        let c = self::coords(coords)?;
        let o = out_ptr(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(m.inner.velocity_count(c)))?;
        Ok(())
    })
}

/// [`maxdyn_model_velocity_count`] of the sim's model.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_velocity_count(sim: *const maxdyn_sim, coords: i32, out: *mut usize) -> maxdyn_status {
    call("maxdyn_sim_velocity_count", || {
        let c = self::coords(coords)?;
        let o = out_ptr(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.model().velocity_count(c)))?;
        Ok(())
    })
}

fn frame(sim: &Sim, frame: i32) -> CResult<Target> {
    Ok(Target::Frame(frame_index(frame, sim.model().frame_count(), "frame")?))
}

unsafe fn point(sim: &Sim, body: i32, point: *const f64) -> CResult<Target> {
    let b = body_index(body, sim.model().body_count(), "body")?;
    Ok(Target::Point { body: b, point: array::<3>(point, "point")? })
}

unsafe fn pose(sim: *const maxdyn_sim, target: impl FnOnce(&Sim) -> CResult<Target>, out: *mut f64) -> CResult<()> {
    let o = slice_mut(out, 7, "out_pose")?;
    let p = with_ref(sim, "sim", |s| Ok(s.inner.target_pose(target(&s.inner)?)?))?;
    finite_answer("out_pose", &p)?;
    o.copy_from_slice(&p);
    Ok(())
}

unsafe fn velocity(sim: *const maxdyn_sim, target: impl FnOnce(&Sim) -> CResult<Target>, ax: i32, out: *mut f64) -> CResult<()> {
    let a = axes(ax)?;
    let o = slice_mut(out, 6, "out_twist")?;
    let v = with_ref(sim, "sim", |s| Ok(s.inner.target_velocity(target(&s.inner)?, a)?))?;
    finite_answer("out_twist", &v)?;
    o.copy_from_slice(&v);
    Ok(())
}

unsafe fn jacobian(sim: *const maxdyn_sim, target: impl FnOnce(&Sim) -> CResult<Target>, ax: i32, co: i32, out: *mut f64, n: usize) -> CResult<()> {
    let (a, c) = (axes(ax)?, coords(co)?);
    with_ref(sim, "sim", |s| {
        let t = target(&s.inner)?;
        let need = 6 * s.inner.model().velocity_count(c);
        if n != need {
            return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, the Jacobian has 6 × {} = {need} entries", need / 6)));
        }
        answer_into(out, n, "out", |o| Ok(s.inner.jacobian(t, a, c, o)?))
    })
}

/// World pose of named frame `frame` into `out_pose`: position (3) then orientation (4: w, x, y, z).
///
/// # Safety
/// `sim` is NULL or live; `out_pose` is NULL or 7 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_frame_pose(sim: *const maxdyn_sim, frame: i32, out_pose: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_frame_pose", || pose(sim, |s| self::frame(s, frame), out_pose))
}

/// Twist of named frame `frame` into `out_twist`: v of its origin (3) then ω (3), in `axes`
/// (`MAXDYN_AXES_*`).
///
/// # Safety
/// `sim` is NULL or live; `out_twist` is NULL or 6 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_frame_velocity(sim: *const maxdyn_sim, frame: i32, axes: i32, out_twist: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_frame_velocity", || velocity(sim, |s| self::frame(s, frame), axes, out_twist))
}

/// Jacobian of named frame `frame`'s twist (in `axes`) with respect to the velocities in
/// `coords` (`MAXDYN_COORDS_*`) into `out`: 6 × m row-major, `n` = 6·m with m from
/// `maxdyn_model_velocity_count`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_frame_jacobian(sim: *const maxdyn_sim, frame: i32, axes: i32, coords: i32, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_frame_jacobian", || jacobian(sim, |s| self::frame(s, frame), axes, coords, out, n))
}

/// World pose of the point `point` (body frame, relative to the centre of mass) of `body`
/// into `out_pose`: position (3), then the body's orientation (4: w, x, y, z).
///
/// # Safety
/// `sim` is NULL or live; `point` is NULL or 3 doubles; `out_pose` is NULL or 7 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_point_pose(sim: *const maxdyn_sim, body: i32, point: *const f64, out_pose: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_point_pose", || pose(sim, |s| self::point(s, body, point), out_pose))
}

/// Twist of the point `point` of `body` (v of the point, ω of the body) into `out_twist`,
/// in `axes` (local: the body's axes).
///
/// # Safety
/// `sim` is NULL or live; `point` is NULL or 3 doubles; `out_twist` is NULL or 6 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_point_velocity(sim: *const maxdyn_sim, body: i32, point: *const f64, axes: i32, out_twist: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_point_velocity", || velocity(sim, |s| self::point(s, body, point), axes, out_twist))
}

/// Jacobian of the twist of the point `point` of `body` (in `axes`) with respect to the
/// velocities in `coords` into `out` (6 × m row-major, `n` = 6·m).
///
/// # Safety
/// `sim` is NULL or live; `point` is NULL or 3 doubles; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_point_jacobian(sim: *const maxdyn_sim, body: i32, point: *const f64, axes: i32, coords: i32, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_get_point_jacobian", || jacobian(sim, |s| self::point(s, body, point), axes, coords, out, n))
}
