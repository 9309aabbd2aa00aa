//! Ownership of the opaque objects: boxing into and out of raw pointers, the poison
//! flag every object carries, and the live-object count used by leak tests.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

static LIVE_OBJECTS: AtomicUsize = AtomicUsize::new(0);

/// An object handed to C as an opaque pointer.
pub(crate) trait Object {
    /// Set when a panic was caught while the object was in use: its invariants may be
    /// broken, so every later call on it fails with `MAXDYN_STATUS_POISONED`. Atomic so
    /// that a model shared by sims on several threads stays free of data races.
    fn poison_flag(&self) -> &AtomicBool;

    fn is_poisoned(&self) -> bool {
        self.poison_flag().load(Ordering::Relaxed)
    }

    fn poison(&self) {
        self.poison_flag().store(true, Ordering::Relaxed);
    }
}

/// Moves an object to the heap for C and counts it.
pub(crate) fn into_raw<T: Object>(obj: T) -> *mut T {
    LIVE_OBJECTS.fetch_add(1, Ordering::Relaxed);
    Box::into_raw(Box::new(obj))
}

/// Takes back and drops an object from [`into_raw`]; NULL is ignored.
///
/// # Safety
/// `ptr` is NULL or came from [`into_raw`] with the same `T` and was not freed yet.
pub(crate) unsafe fn free<T: Object>(ptr: *mut T) {
    if ptr.is_null() {
        return;
    }
    // a panic in a destructor must not cross the C boundary; the memory is then leaked
    // but the count still drops so leak tests see the free
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(Box::from_raw(ptr))));
    LIVE_OBJECTS.fetch_sub(1, Ordering::Relaxed);
}

/// Builders, models and sims created and not yet freed, over all threads.
pub(crate) fn live_objects() -> usize {
    LIVE_OBJECTS.load(Ordering::Relaxed)
}
