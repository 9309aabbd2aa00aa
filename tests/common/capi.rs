//! Helpers of the C-API tests: status assertions that read the last error message, and a
//! guard that serializes the tests of a file (the live-object count is global to the
//! process) and measures the objects a test leaves relative to its start.
#![allow(dead_code)]

use maxdyn::capi::maxdyn_status::{self, MAXDYN_STATUS_OK};
use maxdyn::capi::{maxdyn_debug_live_objects, maxdyn_last_error_message};
use std::ffi::CStr;
use std::sync::Mutex;

pub fn last_error() -> String {
    unsafe { CStr::from_ptr(maxdyn_last_error_message()) }.to_str().unwrap().to_string()
}

/// Asserts `status` is `expected` and the last error names `function` and `` `arg` ``.
#[track_caller]
pub fn expect(status: maxdyn_status, expected: maxdyn_status, function: &str, arg: &str) {
    let msg = last_error();
    assert_eq!(status, expected, "{function}: {msg}");
    assert!(msg.starts_with(function), "message {msg:?} does not name {function}");
    assert!(msg.contains(&format!("`{arg}`")), "message {msg:?} does not name argument `{arg}`");
}

#[track_caller]
pub fn ok(status: maxdyn_status) {
    assert_eq!(status, MAXDYN_STATUS_OK, "{}", last_error());
}

static LOCK: Mutex<()> = Mutex::new(());

/// Serializes the tests of a file and remembers the live-object count at the start, so
/// that one failing test does not make the others fail on its leaked objects.
pub struct Serial {
    _guard: std::sync::MutexGuard<'static, ()>,
    base: usize,
}

impl Serial {
    /// Objects created by this test and still alive.
    pub fn live(&self) -> usize {
        maxdyn_debug_live_objects() - self.base
    }
}

pub fn lock() -> Serial {
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    Serial { _guard: guard, base: maxdyn_debug_live_objects() }
}
