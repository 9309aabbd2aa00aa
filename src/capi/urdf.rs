//! `maxdyn_builder_from_urdf`: a builder loaded from a URDF file (see `crate::urdf`).

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use super::builder::{maxdyn_builder, maxdyn_builder_new};
use super::error::Failure;
use super::guard::call;
use super::status::maxdyn_status::{self, *};
use crate::urdf::Urdf;

/// The file path as the OS sees it: any bytes on Unix, UTF-8 elsewhere.
unsafe fn path_arg(path: *const c_char) -> Result<PathBuf, Failure> {
    if path.is_null() {
        return Err(Failure::null("path"));
    }
    let bytes = CStr::from_ptr(path).to_bytes();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes)
            .map(PathBuf::from)
            .map_err(|_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, "argument `path` is not valid UTF-8"))
    }
}

/// Loads the URDF file at `path` (NUL-terminated) into a new builder in `*out`.
///
/// Bodies are the links with mass, in file order; joints are the `<joint>` elements
/// that connect two bodies (or a body to the world), in file order, then the
/// `<loop_joint>` elements. Body and joint names are the URDF names. Body frames are at
/// each link's centre of mass with the link frame's orientation; bodies start posed at
/// zero joint angles. Joint types: revolute and continuous → revolute, prismatic, fixed,
/// floating, planar (→ `MAXDYN_JOINT_PLANAR_AXIS`), and the non-standard `ball` →
/// spherical. With `floating` = 0 the root link is the world; with 1 it is a free body
/// (a massless root's single fixed or floating child becomes the free body). A file
/// that cannot be read or is malformed gives `MAXDYN_STATUS_URDF` with a message naming
/// the element.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_from_urdf(path: *const c_char, floating: i32, out: *mut *mut maxdyn_builder) -> maxdyn_status {
    call("maxdyn_builder_from_urdf", || {
        let path = path_arg(path)?;
        let floating = match floating {
            0 => false,
            1 => true,
            v => return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `floating` is {v}, expected 0 or 1"))),
        };
        let o = super::args::out(out, "out")?;
        let urdf = Urdf::from_file(&path, floating)?;
        let mut b: *mut maxdyn_builder = std::ptr::null_mut();
        let status = maxdyn_builder_new(&mut b);
        if status != MAXDYN_STATUS_OK || b.is_null() {
            return Err(Failure::new(status, "cannot create the builder"));
        }
        // the new builder is live and counted; it takes the loaded description
        (*b).inner = urdf.builder;
        *o = b;
        Ok(())
    })
}
