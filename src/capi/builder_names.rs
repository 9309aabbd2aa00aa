//! Body and joint names on the builder: set them, and find ids by name (URDF models
//! name every body and joint after its link and joint).

use std::ffi::c_char;

use super::args::{body_index, count_i32, joint_index, name, out};
use super::builder::maxdyn_builder;
use super::error::Failure;
use super::guard::{call, with_mut, with_ref};
use super::status::maxdyn_status::{self, *};

/// Names a body (`name`: a non-empty NUL-terminated UTF-8 string, copied).
///
/// # Safety
/// `builder` is NULL or live; `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_body_name(builder: *mut maxdyn_builder, body: i32, name: *const c_char) -> maxdyn_status {
    call("maxdyn_builder_set_body_name", || {
        let text = self::name(name, "name")?;
        with_mut(builder, "builder", |b| {
            let i = body_index(body, b.inner.body_count(), "body")?;
            Ok(b.inner.set_body_name(i, text)?)
        })
    })
}

/// Names a joint (`name`: a non-empty NUL-terminated UTF-8 string, copied).
///
/// # Safety
/// `builder` is NULL or live; `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_joint_name(builder: *mut maxdyn_builder, joint: i32, name: *const c_char) -> maxdyn_status {
    call("maxdyn_builder_set_joint_name", || {
        let text = self::name(name, "name")?;
        with_mut(builder, "builder", |b| {
            let j = joint_index(joint, b.inner.joint_count(), "joint")?;
            Ok(b.inner.set_joint_name(j, text)?)
        })
    })
}

/// The id of the first body named `name` in `*out_body`; `MAXDYN_STATUS_UNKNOWN_BODY` if
/// no body has that name.
///
/// # Safety
/// `builder` is NULL or live; `name` is NULL or a NUL-terminated string; `out_body` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_find_body(builder: *const maxdyn_builder, name: *const c_char, out_body: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_find_body", || {
        let text = self::name(name, "name")?;
        let o = out(out_body, "out_body")?;
        let id = with_ref(builder, "builder", |b| {
            let n = b.inner.body_count();
            (0..n)
                .find(|&i| b.inner.body(i).is_ok_and(|body| body.name == text))
                .ok_or_else(|| Failure::new(MAXDYN_STATUS_UNKNOWN_BODY, format!("argument `name`: no body is named {text:?}")))
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// The id of the first joint named `name` in `*out_joint`; `MAXDYN_STATUS_UNKNOWN_JOINT`
/// if no joint has that name.
///
/// # Safety
/// `builder` is NULL or live; `name` is NULL or a NUL-terminated string; `out_joint` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_find_joint(builder: *const maxdyn_builder, name: *const c_char, out_joint: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_find_joint", || {
        let text = self::name(name, "name")?;
        let o = out(out_joint, "out_joint")?;
        let id = with_ref(builder, "builder", |b| {
            let n = b.inner.joint_count();
            (0..n)
                .find(|&j| b.inner.joint(j).is_ok_and(|joint| joint.name == text))
                .ok_or_else(|| Failure::new(MAXDYN_STATUS_UNKNOWN_JOINT, format!("argument `name`: no joint is named {text:?}")))
        })?;
        *o = count_i32(id);
        Ok(())
    })
}
