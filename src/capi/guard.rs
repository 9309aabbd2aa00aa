//! The wrapper around every exported function body: panics are caught (a panic crossing
//! `extern "C"` would abort the host: a MATLAB or Julia session), failures become a status
//! and this thread's last error message, and an object in use during a panic is poisoned.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::error::{set_last_error, CResult, Failure};
use super::handles::Object;
use super::status::maxdyn_status::{self, *};

fn panic_message(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_string()
    }
}

fn internal(p: Box<dyn Any + Send>) -> Failure {
    Failure::new(MAXDYN_STATUS_INTERNAL, format!("internal error (please report): {}", panic_message(&*p)))
}

/// Runs the body of the exported function `function`: OK on success, otherwise the
/// failure's status with its message recorded as the last error.
pub(crate) fn call(function: &str, body: impl FnOnce() -> CResult<()>) -> maxdyn_status {
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return MAXDYN_STATUS_OK,
        Ok(Err(f)) => f,
        Err(p) => internal(p),
    };
    set_last_error(function, &failure);
    failure.status
}

/// Checks an object pointer (NULL, poisoned) and runs `f` on the object; a panic inside
/// poisons it and gives `MAXDYN_STATUS_INTERNAL`.
///
/// # Safety
/// `ptr` is NULL or a live object of type `T` not mutably borrowed elsewhere.
pub(crate) unsafe fn with_ref<T: Object, R>(ptr: *const T, arg: &str, f: impl FnOnce(&T) -> CResult<R>) -> CResult<R> {
    let obj = checked(ptr, arg)?;
    catch_unwind(AssertUnwindSafe(|| f(obj))).unwrap_or_else(|p| {
        (*ptr).poison();
        Err(internal(p))
    })
}

/// Like [`with_ref`] for functions that change the object.
///
/// # Safety
/// `ptr` is NULL or a live object of type `T` not borrowed elsewhere.
pub(crate) unsafe fn with_mut<T: Object, R>(ptr: *mut T, arg: &str, f: impl FnOnce(&mut T) -> CResult<R>) -> CResult<R> {
    checked(ptr, arg)?;
    catch_unwind(AssertUnwindSafe(|| f(&mut *ptr))).unwrap_or_else(|p| {
        // the mutable borrow ended with the unwinding closure
        (*ptr).poison();
        Err(internal(p))
    })
}

unsafe fn checked<'a, T: Object>(ptr: *const T, arg: &str) -> CResult<&'a T> {
    let obj = ptr.as_ref().ok_or_else(|| Failure::null(arg))?;
    if obj.is_poisoned() {
        return Err(Failure::poisoned(arg));
    }
    Ok(obj)
}
