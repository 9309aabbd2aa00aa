//! Trajectory recording from C: `maxdyn_recorder` writes a sim's model shapes once and
//! then one frame per `maxdyn_recorder_add_frame` (time, body poses, contact forces) as
//! JSON (docs/RECORDING.md), for the viewer in `viewer/`. Recording is outside the step.

use std::ffi::c_char;
use std::sync::atomic::AtomicBool;

use super::guard::{call, with_mut, with_ref};
use super::handles::{free, into_raw, Object};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status;
use super::urdf::path_arg;
use crate::record::Recorder;

/// A recording being written to a file (opaque). Open with `maxdyn_sim_record_open`,
/// close with `maxdyn_recorder_close`.
pub struct maxdyn_recorder {
    inner: Option<Recorder>,
    poisoned: AtomicBool,
}

impl Object for maxdyn_recorder {
    fn poison_flag(&self) -> &AtomicBool {
        &self.poisoned
    }
}

/// Creates (or truncates) the file at `path` (NUL-terminated) and writes the header of
/// `sim`'s model: bodies, joints and the shapes to draw. A file that cannot be created
/// gives `MAXDYN_STATUS_INVALID_ARGUMENT`. Add frames with `maxdyn_recorder_add_frame`
/// and close the recording with `maxdyn_recorder_close`.
///
/// # Safety
/// `sim` is NULL or live; `path` is NULL or a NUL-terminated string; `out` is NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_record_open(sim: *const maxdyn_sim, path: *const c_char, out: *mut *mut maxdyn_recorder) -> maxdyn_status {
    call("maxdyn_sim_record_open", || {
        let path = path_arg(path, "path")?;
        let o = super::args::out(out, "out")?;
        let rec = with_ref(sim, "sim", |s| Ok(Recorder::create(&path, &s.inner)?))?;
        *o = into_raw(maxdyn_recorder { inner: Some(rec), poisoned: AtomicBool::new(false) });
        Ok(())
    })
}

/// Appends a frame: `sim`'s time, every body's pose and the contact forces of its last
/// step. `sim` must simulate the model the recording was opened with (else
/// `MAXDYN_STATUS_INVALID_ARGUMENT` naming `sim`); call it between steps, e.g. after
/// every k-th. A write that fails (a full disk) gives `MAXDYN_STATUS_INVALID_ARGUMENT`
/// naming `recorder` with the system's reason; the file then ends in a partial frame, and
/// every later `maxdyn_recorder_add_frame` and `maxdyn_recorder_close` returns that
/// status again without writing (close still frees the recorder).
///
/// # Safety
/// `recorder` is NULL or live; `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_recorder_add_frame(recorder: *mut maxdyn_recorder, sim: *const maxdyn_sim) -> maxdyn_status {
    call("maxdyn_recorder_add_frame", || {
        with_ref(sim, "sim", |s| {
            with_mut(recorder, "recorder", |r| {
                let rec = r.inner.as_mut().expect("a live recorder is open");
                Ok(rec.add_frame(&s.inner)?)
            })
        })
    })
}

/// Finishes the file (closes the JSON, flushes) and frees the recorder. NULL is accepted.
/// A write that fails at the end, or failed earlier, gives `MAXDYN_STATUS_INVALID_ARGUMENT`
/// naming `recorder`; the recorder is freed either way.
///
/// # Safety
/// `recorder` is NULL or from `maxdyn_sim_record_open` and not closed yet.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_recorder_close(recorder: *mut maxdyn_recorder) -> maxdyn_status {
    call("maxdyn_recorder_close", || {
        if recorder.is_null() {
            return Ok(());
        }
        let finished = match (*recorder).inner.take() {
            Some(rec) => rec.finish(),
            None => Ok(()),
        };
        free(recorder);
        Ok(finished?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::builder::maxdyn_builder_free;
    use crate::capi::model::maxdyn_model_free;
    use crate::capi::sim::{maxdyn_sim_free, maxdyn_sim_new, maxdyn_sim_step};
    use crate::capi::status::maxdyn_status::*;
    use crate::capi::test_model::one_body_model;
    use std::ffi::CString;

    #[test]
    fn a_sim_is_recorded_from_c_and_bad_arguments_are_refused() {
        unsafe {
            let (b, m) = one_body_model();
            let mut sim = std::ptr::null_mut();
            assert_eq!(maxdyn_sim_new(m, 0.01, &mut sim), MAXDYN_STATUS_OK);
            let path = std::env::temp_dir().join(format!("maxdyn-capi-record-{}.json", std::process::id()));
            let c_path = CString::new(path.to_str().unwrap()).unwrap();
            let mut rec = std::ptr::null_mut();
            assert_eq!(maxdyn_sim_record_open(sim, std::ptr::null(), &mut rec), MAXDYN_STATUS_NULL_POINTER);
            let missing = CString::new("/nonexistent-dir/r.json").unwrap();
            assert_eq!(maxdyn_sim_record_open(sim, missing.as_ptr(), &mut rec), MAXDYN_STATUS_INVALID_ARGUMENT);
            assert!(rec.is_null());
            assert_eq!(maxdyn_sim_record_open(sim, c_path.as_ptr(), &mut rec), MAXDYN_STATUS_OK);
            for _ in 0..3 {
                assert_eq!(maxdyn_sim_step(sim), MAXDYN_STATUS_OK);
                assert_eq!(maxdyn_recorder_add_frame(rec, sim), MAXDYN_STATUS_OK);
            }
            assert_eq!(maxdyn_recorder_add_frame(rec, std::ptr::null()), MAXDYN_STATUS_NULL_POINTER);
            assert_eq!(maxdyn_recorder_close(rec), MAXDYN_STATUS_OK);
            assert_eq!(maxdyn_recorder_close(std::ptr::null_mut()), MAXDYN_STATUS_OK);
            let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            std::fs::remove_file(&path).unwrap();
            let frames = r["frames"].as_array().unwrap();
            assert_eq!(frames.len(), 3);
            assert!((frames[2]["t"].as_f64().unwrap() - 0.03).abs() < 1e-15);
            maxdyn_sim_free(sim);
            maxdyn_model_free(m);
            maxdyn_builder_free(b);
        }
    }
}
