//! Converting C arguments: input arrays, output pointers, int32 ids. Each check names the
//! C parameter, so the last error message tells the caller which argument was wrong.

use super::error::{CResult, Failure};
use super::status::maxdyn_status::*;

/// Copies a fixed-size input array (`const double x[N]`).
///
/// # Safety
/// `p` is NULL or points to N readable doubles.
pub(crate) unsafe fn array<const N: usize>(p: *const f64, arg: &str) -> CResult<[f64; N]> {
    if p.is_null() {
        return Err(Failure::null(arg));
    }
    let mut a = [0.0; N];
    std::ptr::copy_nonoverlapping(p, a.as_mut_ptr(), N);
    Ok(a)
}

/// An input array of a length the caller has already checked against what the object
/// needs (a slice is only made of a length that is right: one larger than the caller's
/// memory would be undefined behaviour even if never read); NULL is accepted only for
/// length 0.
///
/// # Safety
/// `p` is NULL or points to `n` readable values (doubles, int32s) that stay valid for `'a`.
pub(crate) unsafe fn slice<'a, T>(p: *const T, n: usize, arg: &str) -> CResult<&'a [T]> {
    if n == 0 {
        return Ok(&[]);
    }
    check_addressable_as::<T>(n, arg)?;
    if p.is_null() {
        return Err(Failure::null(arg));
    }
    Ok(std::slice::from_raw_parts(p, n))
}

/// A query's answer, checked before it reaches the caller: NaN or ±∞ (an overflow of
/// states, inputs or parameters near the range of doubles, ~1e150 and beyond) is
/// `MAXDYN_STATUS_NON_FINITE_RESULT`, with nothing written.
pub(crate) fn finite_answer(arg: &str, values: &[f64]) -> CResult<()> {
    if values.iter().all(|v| v.is_finite()) {
        return Ok(());
    }
    Err(Failure::new(
        MAXDYN_STATUS_NON_FINITE_RESULT,
        format!("argument `{arg}`: the answer is not finite at this state (it overflows: states, inputs or parameters near the range of doubles); nothing was written"),
    ))
}

/// An output array of `n` doubles filled by `compute` in a scratch copy and written to the
/// caller only when the whole answer is finite ([`finite_answer`]).
///
/// # Safety
/// `p` is NULL or points to `n` writable doubles.
pub(crate) unsafe fn answer_into(p: *mut f64, n: usize, arg: &str, compute: impl FnOnce(&mut [f64]) -> CResult<()>) -> CResult<()> {
    let out = slice_mut(p, n, arg)?;
    let mut scratch = vec![0.0; n];
    compute(&mut scratch)?;
    finite_answer(arg, &scratch)?;
    out.copy_from_slice(&scratch);
    Ok(())
}

/// An output array of a checked length (as [`slice`]); NULL is accepted only for length 0.
///
/// # Safety
/// `p` is NULL or points to `n` writable doubles that stay valid for `'a`.
pub(crate) unsafe fn slice_mut<'a>(p: *mut f64, n: usize, arg: &str) -> CResult<&'a mut [f64]> {
    if n == 0 {
        return Ok(&mut []);
    }
    check_addressable(n, arg)?;
    if p.is_null() {
        return Err(Failure::null(arg));
    }
    Ok(std::slice::from_raw_parts_mut(p, n))
}

/// A last guard for lengths no object can need: a Rust slice spans at most isize::MAX
/// bytes (`std::slice::from_raw_parts`).
fn check_addressable(n: usize, arg: &str) -> CResult<()> {
    check_addressable_as::<f64>(n, arg)
}

/// [`check_addressable`] for `n` values of type `T`.
fn check_addressable_as<T>(n: usize, arg: &str) -> CResult<()> {
    if n <= isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        Ok(())
    } else {
        Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `{arg}`: length {n} exceeds any array")))
    }
}

/// An output pointer, checked before any work so that a NULL out-pointer changes nothing.
///
/// # Safety
/// `p` is NULL or points to a writable `T` that stays valid for `'a`.
pub(crate) unsafe fn out<'a, T>(p: *mut T, arg: &str) -> CResult<&'a mut T> {
    p.as_mut().ok_or_else(|| Failure::null(arg))
}

/// A body id in `0..count`.
pub(crate) fn body_index(id: i32, count: usize, arg: &str) -> CResult<usize> {
    index(id, count, arg, "body").map_err(|m| Failure::new(MAXDYN_STATUS_UNKNOWN_BODY, m))
}

/// A joint id in `0..count`.
pub(crate) fn joint_index(id: i32, count: usize, arg: &str) -> CResult<usize> {
    index(id, count, arg, "joint").map_err(|m| Failure::new(MAXDYN_STATUS_UNKNOWN_JOINT, m))
}

/// A contact id in `0..count`.
pub(crate) fn contact_index(id: i32, count: usize, arg: &str) -> CResult<usize> {
    index(id, count, arg, "contact").map_err(|m| Failure::new(MAXDYN_STATUS_UNKNOWN_CONTACT, m))
}

/// A non-empty NUL-terminated UTF-8 name (body and joint names are Rust strings).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string that stays valid for `'a`.
pub(crate) unsafe fn name<'a>(p: *const std::ffi::c_char, arg: &str) -> CResult<&'a str> {
    if p.is_null() {
        return Err(Failure::null(arg));
    }
    let s = std::ffi::CStr::from_ptr(p)
        .to_str()
        .map_err(|_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is not valid UTF-8")))?;
    if s.is_empty() {
        // unnamed bodies and joints have the empty name: it identifies nothing
        return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is empty")));
    }
    Ok(s)
}

fn index(id: i32, count: usize, arg: &str, what: &str) -> Result<usize, String> {
    match usize::try_from(id) {
        Ok(i) if i < count => Ok(i),
        _ => Err(format!("argument `{arg}`: unknown {what} id {id} (there are {count} {what}s)")),
    }
}

/// A count for C (`int32_t`); mechanisms never approach 2^31 elements.
pub(crate) fn count_i32(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}
