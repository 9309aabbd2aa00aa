//! The C ABI's live-object count is global to the process, so the C-API tests of one file
//! run one at a time and measure the objects they leave relative to their start.

use maxdyn::capi::maxdyn_debug_live_objects;
use std::sync::Mutex;

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
