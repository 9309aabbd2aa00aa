//! Named frames of the compiled model (the links a URDF load merged into their parent's
//! body, and frames added with `maxdyn_builder_add_frame`): their count, body and pose.

use super::args::{count_i32, out, slice_mut};
use super::builder::MAXDYN_WORLD;
use super::error::{CResult, Failure};
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::status::maxdyn_status::{self, *};

/// A frame id in `0..count`.
pub(crate) fn frame_index(id: i32, count: usize, arg: &str) -> CResult<usize> {
    match usize::try_from(id) {
        Ok(i) if i < count => Ok(i),
        _ => Err(Failure::new(MAXDYN_STATUS_UNKNOWN_FRAME, format!("argument `{arg}`: unknown frame id {id} (there are {count} frames)"))),
    }
}

/// Number of named frames, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_frame_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_frame_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.frame_count())))?;
        Ok(())
    })
}

/// The body `frame` is fixed to (`MAXDYN_WORLD` for the world) in `*out_body`.
///
/// # Safety
/// `model` is NULL or live; `out_body` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_frame_body(model: *const maxdyn_model, frame: i32, out_body: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_frame_body", || {
        let o = out(out_body, "out_body")?;
        *o = with_ref(model, "model", |m| {
            let f = frame_index(frame, m.inner.frame_count(), "frame")?;
            Ok(m.inner.frames[f].body.map_or(MAXDYN_WORLD, count_i32))
        })?;
        Ok(())
    })
}

/// The pose of `frame` relative to its body into `out_pose`: 7 doubles, position (3, in
/// the body frame, whose origin is the centre of mass; the world frame for the world)
/// then orientation (4: w, x, y, z, unit).
///
/// # Safety
/// `model` is NULL or live; `out_pose` is NULL or 7 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_frame_pose(model: *const maxdyn_model, frame: i32, out_pose: *mut f64) -> maxdyn_status {
    call("maxdyn_model_get_frame_pose", || {
        let o = slice_mut(out_pose, 7, "out_pose")?;
        let (x, q) = with_ref(model, "model", |m| {
            let f = &m.inner.frames[frame_index(frame, m.inner.frame_count(), "frame")?];
            Ok((f.x, f.q))
        })?;
        o[..3].copy_from_slice(x.as_slice());
        o[3..].copy_from_slice(q.as_slice());
        Ok(())
    })
}
