//! Joint limits, mimic joints and named frames on the builder, from C. Values are
//! validated by the Rust API (`Builder::set_joint_limits`, `add_mimic`, `add_frame`);
//! this layer checks pointers, ids and array lengths first, so a failed call changes
//! nothing.

use std::ffi::c_char;

use super::args::{array, body_index, count_i32, joint_index, name, out, slice};
use super::builder::{maxdyn_builder, parent_arg};
use super::error::Failure;
use super::guard::{call, with_mut};
use super::status::maxdyn_status::{self, *};
use crate::error::Error;

/// Limits of every free direction of `joint` (translations first, as
/// `maxdyn_sim_get_joint_position` orders them): `lower` and `upper`, `n` values each (`n`
/// = the joint's dof). `-INFINITY` / `INFINITY` leave that side free; NaN
/// (`MAXDYN_STATUS_NON_FINITE`) and lower > upper (`MAXDYN_STATUS_INVALID_ARGUMENT`) are
/// refused. Only single-axis coordinates can be bounded: every translation, and the
/// rotation of a joint with one rotational free direction (bounding a spherical
/// joint's rotation is `MAXDYN_STATUS_INVALID_ARGUMENT`). Replaces the joint's earlier
/// limits.
///
/// # Safety
/// `builder` is NULL or live; `lower` and `upper` are NULL or `n` doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_joint_limits(
    builder: *mut maxdyn_builder,
    joint: i32,
    lower: *const f64,
    upper: *const f64,
    n: usize,
) -> maxdyn_status {
    call("maxdyn_builder_set_joint_limits", || {
        with_mut(builder, "builder", |b| {
            let j = joint_index(joint, b.inner.joint_count(), "joint")?;
            let dof = b.inner.joint(j)?.dof();
            if n != dof {
                return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, joint {joint} has {dof} free directions")));
            }
            let lo = slice(lower, n, "lower")?;
            let hi = slice(upper, n, "upper")?;
            Ok(b.inner.set_joint_limits(j, lo, hi)?)
        })
    })
}

/// Makes joint `follower` mimic joint `leader`: q_follower = multiplier · q_leader +
/// offset (radians or metres). Both have one free direction (revolute, prismatic); a
/// joint follows at most one leader and not itself (`MAXDYN_STATUS_INVALID_ARGUMENT`).
/// Longer cycles (a follows b, b follows a) are refused by `maxdyn_model_new`.
/// The mimic's id (0, 1, … in order of addition) goes to `*out_mimic`.
///
/// # Safety
/// `builder` is NULL or live; `out_mimic` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_mimic(
    builder: *mut maxdyn_builder,
    follower: i32,
    leader: i32,
    multiplier: f64,
    offset: f64,
    out_mimic: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_mimic", || {
        let o = out(out_mimic, "out_mimic")?;
        let id = with_mut(builder, "builder", |b| {
            let n = b.inner.joint_count();
            let f = joint_index(follower, n, "follower")?;
            let l = joint_index(leader, n, "leader")?;
            Ok(b.inner.add_mimic(f, l, multiplier, offset)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Adds a frame named `name` (non-empty UTF-8, copied; names need not be unique) fixed
/// to `body` (a body id, or `MAXDYN_WORLD` for the world) at `pose` relative to it: 7
/// doubles, position (3, in the body frame, whose origin is the centre of mass) then
/// orientation (4: w, x, y, z; normalized here, must not be zero). The frame's id (0, 1,
/// … in order of addition) goes to `*out_frame`.
///
/// # Safety
/// `builder` is NULL or live; `name` is NULL or a NUL-terminated string; `pose` is NULL or
/// 7 doubles; `out_frame` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_frame(
    builder: *mut maxdyn_builder,
    name: *const c_char,
    body: i32,
    pose: *const f64,
    out_frame: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_frame", || {
        let text = self::name(name, "name")?;
        let p = array::<7>(pose, "pose")?;
        let o = out(out_frame, "out_frame")?;
        let id = with_mut(builder, "builder", |b| {
            let parent = parent_arg(body, b.inner.body_count(), "body")?;
            let (x, q) = ([p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]]);
            // the Rust API names its `x` and `q`; here both are `pose`
            let id = b.inner.add_frame(text, parent, x, q).map_err(|e| match e {
                Error::NonFinite(_) => Error::NonFinite("pose"),
                Error::ZeroAxis(_) => Error::ZeroAxis("pose"),
                e => e,
            })?;
            Ok(id)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Sets the reference frame of `body` as a floating base: `pose` (7 doubles: position in
/// the body frame, whose origin is the centre of mass, then orientation w, x, y, z;
/// normalized, must not be zero). The base's configuration and velocities are those of
/// this frame (default: the body frame). Ignored when a joint places the body.
///
/// # Safety
/// `builder` is NULL or live; `pose` is NULL or 7 doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_base_frame(builder: *mut maxdyn_builder, body: i32, pose: *const f64) -> maxdyn_status {
    call("maxdyn_builder_set_base_frame", || {
        let p = array::<7>(pose, "pose")?;
        with_mut(builder, "builder", |b| {
            let id = body_index(body, b.inner.body_count(), "body")?;
            b.inner.set_base_frame(id, [p[0], p[1], p[2]], [p[3], p[4], p[5], p[6]]).map_err(|e| match e {
                Error::NonFinite(_) => Error::NonFinite("pose"),
                Error::ZeroAxis(_) => Error::ZeroAxis("pose"),
                e => e,
            })?;
            Ok(())
        })
    })
}
