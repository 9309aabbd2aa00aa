//! Names on the compiled model, after the builder is gone: each body's, joint's and
//! frame's name by id, copied into the caller's buffer (snprintf-style: truncated,
//! always NUL-terminated, the full length reported), and ids by name. Names need not be
//! unique: a lookup gives the lowest id of that name.

use std::ffi::c_char;

use super::args::{body_index, count_i32, joint_index, name, out};
use super::error::{CResult, Failure};
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::model_frames::frame_index;
use super::status::maxdyn_status::{self, *};

/// The caller's name buffer: `size` writable bytes, NULL only when `size` is 0.
unsafe fn name_buffer<'a>(p: *mut c_char, size: usize, arg: &str) -> CResult<&'a mut [u8]> {
    if size == 0 {
        return Ok(&mut []);
    }
    if p.is_null() {
        return Err(Failure::null(arg));
    }
    Ok(std::slice::from_raw_parts_mut(p.cast::<u8>(), size))
}

/// Copies as much of `text` as fits in `buf` with its NUL (cut at a character boundary,
/// so a truncated name is still valid UTF-8) and returns the full length in bytes.
fn copy_name(text: &str, buf: &mut [u8]) -> usize {
    if let Some(room) = buf.len().checked_sub(1) {
        let mut n = text.len().min(room);
        while !text.is_char_boundary(n) {
            n -= 1;
        }
        buf[..n].copy_from_slice(&text.as_bytes()[..n]);
        buf[n] = 0;
    }
    text.len()
}

/// The body of the shared getters: checks the buffer and the out-pointer, then copies the
/// name `lookup` finds.
unsafe fn get_name(
    function: &str,
    model: *const maxdyn_model,
    buffer: *mut c_char,
    size: usize,
    out_length: *mut usize,
    lookup: impl FnOnce(&maxdyn_model) -> CResult<&str>,
) -> maxdyn_status {
    call(function, || {
        let buf = name_buffer(buffer, size, "name")?;
        let o = out(out_length, "out_length")?;
        *o = with_ref(model, "model", |m| Ok(copy_name(lookup(m)?, buf)))?;
        Ok(())
    })
}

/// Copies the name of `body` ("" if unnamed) into `name` (`name_size` bytes, always
/// NUL-terminated, truncated to fit at a UTF-8 character boundary) and its full length
/// in bytes, without the NUL, into `*out_length`: the name was truncated if
/// `*out_length >= name_size`. `name` may be NULL when `name_size` is 0, to ask for the
/// length only.
///
/// # Safety
/// `model` is NULL or live; `name` is NULL or `name_size` writable bytes; `out_length` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_body_name(
    model: *const maxdyn_model,
    body: i32,
    name: *mut c_char,
    name_size: usize,
    out_length: *mut usize,
) -> maxdyn_status {
    get_name("maxdyn_model_get_body_name", model, name, name_size, out_length, |m| {
        let i = body_index(body, m.inner.body_count(), "body")?;
        Ok(&m.inner.bodies[i].name)
    })
}

/// Copies the name of `joint` into `name`, as `maxdyn_model_get_body_name` does.
///
/// # Safety
/// `model` is NULL or live; `name` is NULL or `name_size` writable bytes; `out_length` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_name(
    model: *const maxdyn_model,
    joint: i32,
    name: *mut c_char,
    name_size: usize,
    out_length: *mut usize,
) -> maxdyn_status {
    get_name("maxdyn_model_get_joint_name", model, name, name_size, out_length, |m| {
        let j = joint_index(joint, m.inner.joint_count(), "joint")?;
        Ok(&m.inner.joints[j].name)
    })
}

/// Copies the name of `frame` into `name`, as `maxdyn_model_get_body_name` does.
///
/// # Safety
/// `model` is NULL or live; `name` is NULL or `name_size` writable bytes; `out_length` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_frame_name(
    model: *const maxdyn_model,
    frame: i32,
    name: *mut c_char,
    name_size: usize,
    out_length: *mut usize,
) -> maxdyn_status {
    get_name("maxdyn_model_get_frame_name", model, name, name_size, out_length, |m| {
        let f = frame_index(frame, m.inner.frame_count(), "frame")?;
        Ok(&m.inner.frames[f].name)
    })
}

/// The body of the shared finders: the id `find` gives for `name` in `*out_<what>`, else
/// `missing`.
unsafe fn find(
    function: &str,
    model: *const maxdyn_model,
    name: *const c_char,
    out_id: *mut i32,
    what: &str,
    missing: maxdyn_status,
    find: impl FnOnce(&crate::model::Model, &str) -> Option<usize>,
) -> maxdyn_status {
    call(function, || {
        let text = self::name(name, "name")?;
        let o = out(out_id, &format!("out_{what}"))?;
        let id = with_ref(model, "model", |m| {
            find(&m.inner, text).ok_or_else(|| Failure::new(missing, format!("argument `name`: no {what} is named {text:?}")))
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// The id of the body named `name` (the lowest id if several are) in `*out_body`;
/// `MAXDYN_STATUS_UNKNOWN_BODY` if no body has that name.
///
/// # Safety
/// `model` is NULL or live; `name` is NULL or a NUL-terminated string; `out_body` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_find_body(model: *const maxdyn_model, name: *const c_char, out_body: *mut i32) -> maxdyn_status {
    find("maxdyn_model_find_body", model, name, out_body, "body", MAXDYN_STATUS_UNKNOWN_BODY, |m, n| m.find_body(n))
}

/// The id of the joint named `name` (the lowest id if several are) in `*out_joint`;
/// `MAXDYN_STATUS_UNKNOWN_JOINT` if no joint has that name.
///
/// # Safety
/// `model` is NULL or live; `name` is NULL or a NUL-terminated string; `out_joint` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_find_joint(model: *const maxdyn_model, name: *const c_char, out_joint: *mut i32) -> maxdyn_status {
    find("maxdyn_model_find_joint", model, name, out_joint, "joint", MAXDYN_STATUS_UNKNOWN_JOINT, |m, n| m.find_joint(n))
}

/// The id of the frame named `name` (the lowest id if several are) in `*out_frame`;
/// `MAXDYN_STATUS_UNKNOWN_FRAME` if no frame has that name.
///
/// # Safety
/// `model` is NULL or live; `name` is NULL or a NUL-terminated string; `out_frame` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_find_frame(model: *const maxdyn_model, name: *const c_char, out_frame: *mut i32) -> maxdyn_status {
    find("maxdyn_model_find_frame", model, name, out_frame, "frame", MAXDYN_STATUS_UNKNOWN_FRAME, |m, n| m.find_frame(n))
}

#[cfg(test)]
mod tests {
    use super::copy_name;

    #[test]
    fn names_are_cut_at_a_character_boundary_and_always_terminated() {
        let mut buf = [0xffu8; 8];
        assert_eq!(copy_name("shoulder_pitch", &mut buf), 14);
        assert_eq!(&buf, b"shoulde\0");
        assert_eq!(copy_name("aé", &mut buf[..3]), 3, "é is 2 bytes: it does not fit in 2");
        assert_eq!(&buf[..2], b"a\0");
        assert_eq!(copy_name("arm", &mut []), 3, "no room: only the length");
        assert_eq!(copy_name("", &mut buf[..1]), 0);
        assert_eq!(buf[0], 0);
    }
}
