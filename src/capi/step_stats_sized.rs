//! Step statistics written to the caller's size: the versioned way to read
//! `maxdyn_step_stats`, safe when the struct grows (a program built against an older
//! header passes its smaller size and gets only the fields it knows).

use super::diagnostics::{maxdyn_sim_get_step_stats, maxdyn_step_stats};
use super::error::Failure;
use super::guard::{call, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, MAXDYN_STATUS_INVALID_ARGUMENT, MAXDYN_STATUS_OK};

/// As `maxdyn_sim_get_step_stats`, writing only the first `out_size` bytes of the
/// struct (pass `sizeof(maxdyn_step_stats)` of the header you compiled against); the
/// bytes beyond are untouched. Fields are only ever added at the end, so this call stays
/// correct for a program built against an older header when the struct grows, where
/// `maxdyn_sim_get_step_stats` (which writes the library's whole struct) would not.
/// `out_size` 0 is `MAXDYN_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `out_size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_step_stats_sized(sim: *const maxdyn_sim, out: *mut maxdyn_step_stats, out_size: usize) -> maxdyn_status {
    call("maxdyn_sim_get_step_stats_sized", || {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        if out_size == 0 {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, "argument `out_size` is 0: pass sizeof(maxdyn_step_stats)"));
        }
        let full = with_ref(sim, "sim", |s| {
            let mut full = maxdyn_step_stats::default();
            // `s` is live and not poisoned here, so this cannot fail
            let status = maxdyn_sim_get_step_stats(s, &mut full);
            debug_assert_eq!(status, MAXDYN_STATUS_OK);
            Ok(full)
        })?;
        let n = out_size.min(std::mem::size_of::<maxdyn_step_stats>());
        std::ptr::copy_nonoverlapping((&full as *const maxdyn_step_stats).cast::<u8>(), out.cast::<u8>(), n);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::builder::maxdyn_builder_free;
    use crate::capi::model::maxdyn_model_free;
    use crate::capi::sim::{maxdyn_sim_free, maxdyn_sim_new, maxdyn_sim_step};
    use std::mem::{offset_of, size_of};

    #[test]
    fn writes_only_the_callers_size() {
        unsafe {
            let (b, m) = crate::capi::test_model::one_body_model();
            let mut s = std::ptr::null_mut();
            assert_eq!(maxdyn_sim_new(m, 0.01, &mut s), MAXDYN_STATUS_OK);
            assert_eq!(maxdyn_sim_step(s), MAXDYN_STATUS_OK);
            let mut whole = maxdyn_step_stats::default();
            assert_eq!(maxdyn_sim_get_step_stats(s, &mut whole), MAXDYN_STATUS_OK);
            let mut sized = maxdyn_step_stats { substeps: -7, ..Default::default() };
            assert_eq!(maxdyn_sim_get_step_stats_sized(s, &mut sized, size_of::<maxdyn_step_stats>()), MAXDYN_STATUS_OK);
            assert_eq!(sized, whole);
            // an older, shorter struct: the fields up to `complementarity` only
            let sentinel = maxdyn_step_stats { complementarity: -1.0, fallback: -2, substeps: -3, tresca_rounds: -4, cold_restarts: -5, ..Default::default() };
            let mut short = sentinel;
            assert_eq!(maxdyn_sim_get_step_stats_sized(s, &mut short, offset_of!(maxdyn_step_stats, complementarity)), MAXDYN_STATUS_OK);
            assert_eq!((short.iterations, short.active_contacts), (whole.iterations, whole.active_contacts));
            assert!(whole.substeps == 1 && short.substeps == -3 && short.cold_restarts == -5 && short.complementarity == -1.0);
            let mut untouched = sentinel;
            assert_eq!(maxdyn_sim_get_step_stats_sized(s, &mut untouched, 0), MAXDYN_STATUS_INVALID_ARGUMENT);
            assert_eq!(untouched, sentinel);
            assert_eq!(maxdyn_sim_get_step_stats_sized(s, std::ptr::null_mut(), 8), crate::capi::status::maxdyn_status::MAXDYN_STATUS_NULL_POINTER);
            maxdyn_sim_free(s);
            maxdyn_model_free(m);
            maxdyn_builder_free(b);
        }
    }
}
