//! A mutex and a condition variable on the POSIX threads' own calls (`pthread_mutex_*`,
//! `pthread_cond_*`) for the batch pool. Rust's std locks are futex-based, which thread
//! checkers that intercept pthreads (valgrind's helgrind and DRD) cannot see: over std
//! locks they report every access a lock orders as a possible race. Over these they see
//! the ordering, so a clean run is a verdict. The pool takes the lock a few times per job,
//! so the lock's own speed does not matter.

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};

/// A pthread mutex guarding a `T`. The pthread object sits in its own box: it must not
/// move once used.
pub(crate) struct Mutex<T> {
    raw: Box<UnsafeCell<libc::pthread_mutex_t>>,
    data: UnsafeCell<T>,
}

// SAFETY: the data is reached only through a guard, which holds the pthread mutex.
unsafe impl<T: Send> Send for Mutex<T> {}
unsafe impl<T: Send> Sync for Mutex<T> {}

pub(crate) struct MutexGuard<'a, T> {
    mutex: &'a Mutex<T>,
}

impl<T> Mutex<T> {
    pub(crate) fn new(data: T) -> Mutex<T> {
        Mutex { raw: Box::new(UnsafeCell::new(libc::PTHREAD_MUTEX_INITIALIZER)), data: UnsafeCell::new(data) }
    }

    /// Blocks until the lock is held. A default pthread mutex locked by its owner's
    /// guards only cannot fail (no error checking, no recursion).
    pub(crate) fn lock(&self) -> MutexGuard<'_, T> {
        let rc = unsafe { libc::pthread_mutex_lock(self.raw.get()) };
        assert_eq!(rc, 0, "pthread_mutex_lock");
        MutexGuard { mutex: self }
    }
}

impl<T> Drop for Mutex<T> {
    fn drop(&mut self) {
        // unlocked here: no guard outlives the borrow of `self`
        unsafe { libc::pthread_mutex_destroy(self.raw.get()) };
    }
}

impl<T> Deref for MutexGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the guard holds the lock.
        unsafe { &*self.mutex.data.get() }
    }
}

impl<T> DerefMut for MutexGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the guard holds the lock, and `&mut self` makes this the only borrow.
        unsafe { &mut *self.mutex.data.get() }
    }
}

impl<T> Drop for MutexGuard<'_, T> {
    fn drop(&mut self) {
        unsafe { libc::pthread_mutex_unlock(self.mutex.raw.get()) };
    }
}

/// A pthread condition variable, used with one [`Mutex`].
pub(crate) struct Condvar {
    raw: Box<UnsafeCell<libc::pthread_cond_t>>,
}

// SAFETY: pthread condition variables are made to be shared between threads.
unsafe impl Send for Condvar {}
unsafe impl Sync for Condvar {}

impl Condvar {
    pub(crate) fn new() -> Condvar {
        Condvar { raw: Box::new(UnsafeCell::new(libc::PTHREAD_COND_INITIALIZER)) }
    }

    /// Releases the guard's lock, sleeps until notified (or spuriously), and takes the
    /// lock again: callers wait in a loop on their condition.
    pub(crate) fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        let rc = unsafe { libc::pthread_cond_wait(self.raw.get(), guard.mutex.raw.get()) };
        assert_eq!(rc, 0, "pthread_cond_wait");
        guard
    }

    pub(crate) fn notify_one(&self) {
        unsafe { libc::pthread_cond_signal(self.raw.get()) };
    }

    pub(crate) fn notify_all(&self) {
        unsafe { libc::pthread_cond_broadcast(self.raw.get()) };
    }
}

impl Drop for Condvar {
    fn drop(&mut self) {
        unsafe { libc::pthread_cond_destroy(self.raw.get()) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_counter_under_the_lock_counts_every_increment_and_waiters_wake() {
        let shared = Arc::new((Mutex::new(0usize), Condvar::new()));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let shared = shared.clone();
                std::thread::spawn(move || {
                    for _ in 0..10_000 {
                        *shared.0.lock() += 1;
                    }
                    shared.1.notify_all();
                })
            })
            .collect();
        let mut count = shared.0.lock();
        while *count < 40_000 {
            count = shared.1.wait(count);
        }
        assert_eq!(*count, 40_000);
        drop(count);
        for t in threads {
            t.join().unwrap();
        }
    }
}
