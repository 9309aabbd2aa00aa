//! A persistent pool of worker threads for one job at a time. The threads are spawned
//! once, park on a condition variable between jobs and are joined on drop. A job over
//! `n` items is split into static contiguous chunks, one per thread (the caller's thread
//! takes the first), so which thread runs which item never depends on scheduling.
//! Dispatching a job allocates nothing. The lock and the wake-ups are pthread's own
//! (`pthread_sync`), so that thread checkers see how the pool orders the threads.

use std::any::Any;
use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;

use super::pthread_sync::{Condvar, Mutex, MutexGuard};

/// The job of one `run`: called once per chunk with that chunk's item range.
type Job<'a> = dyn Fn(Range<usize>) + Sync + 'a;

/// A job pointer with its lifetime erased, so that the workers can hold it. `run` keeps
/// the job alive until every worker has reported back.
#[derive(Clone, Copy)]
struct ErasedJob(*const Job<'static>);

// SAFETY: the pointee is `Sync`, and it outlives every use (see `Pool::run`).
unsafe impl Send for ErasedJob {}

struct State {
    /// Incremented for each job; a worker runs a job when it sees a new epoch.
    epoch: u64,
    job: Option<ErasedJob>,
    items: usize,
    /// Workers still running the current job.
    pending: usize,
    /// The first panic payload of the current job, raised again on the caller's thread.
    panic: Option<Box<dyn Any + Send>>,
    shutdown: bool,
}

struct Shared {
    state: Mutex<State>,
    start: Condvar,
    done: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock()
    }
}

pub(crate) struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

/// The items of chunk `t` of `threads` chunks over `n` items: contiguous, sizes differing
/// by at most one.
pub(crate) fn chunk(n: usize, threads: usize, t: usize) -> Range<usize> {
    (t * n / threads)..((t + 1) * n / threads)
}

impl Pool {
    /// A pool that runs jobs on `threads` threads (≥ 1): the caller's and `threads − 1`
    /// workers. With one thread, jobs run inline.
    pub(crate) fn new(threads: usize) -> std::io::Result<Pool> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State { epoch: 0, job: None, items: 0, pending: 0, panic: None, shutdown: false }),
            start: Condvar::new(),
            done: Condvar::new(),
        });
        let mut pool = Pool { shared, workers: Vec::with_capacity(threads - 1) };
        for t in 1..threads {
            let shared = pool.shared.clone();
            let handle = std::thread::Builder::new()
                .name(format!("maxdyn-batch-{t}"))
                .spawn(move || worker(&shared, t, threads))?;
            // on a failed spawn, `pool` drops here and joins the workers already started
            pool.workers.push(handle);
        }
        Ok(pool)
    }

    pub(crate) fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Runs `job` on every chunk of `0..items` and returns when all chunks are done. A
    /// panic in any chunk is raised again here, after every chunk has finished.
    pub(crate) fn run(&self, items: usize, job: &Job<'_>) {
        let threads = self.threads();
        if threads == 1 {
            job(0..items);
            return;
        }
        // SAFETY: only the lifetime changes; the pointer is used by the workers between
        // here and the wait below for `pending == 0`, while `job` is borrowed.
        let erased = ErasedJob(unsafe { std::mem::transmute::<*const Job<'_>, *const Job<'static>>(job) });
        {
            let mut s = self.shared.lock();
            s.epoch += 1;
            s.job = Some(erased);
            s.items = items;
            s.pending = threads - 1;
            // under the lock: a thread checker then sees whom the wake-up is for
            self.shared.start.notify_all();
        }
        // the caller's chunk; a panic must not skip the wait for the workers
        let mine = catch_unwind(AssertUnwindSafe(|| job(chunk(items, threads, 0))));
        let mut s = self.shared.lock();
        while s.pending > 0 {
            s = self.shared.done.wait(s);
        }
        s.job = None;
        let theirs = s.panic.take();
        drop(s);
        if let Err(p) = mine {
            resume_unwind(p);
        }
        if let Some(p) = theirs {
            resume_unwind(p);
        }
    }
}

fn worker(shared: &Shared, t: usize, threads: usize) {
    let mut seen = 0;
    loop {
        let (job, items) = {
            let mut s = shared.lock();
            while s.epoch == seen && !s.shutdown {
                s = shared.start.wait(s);
            }
            if s.shutdown {
                return;
            }
            seen = s.epoch;
            (s.job.expect("a new epoch carries a job"), s.items)
        };
        // SAFETY: `run` keeps the job alive until this worker decrements `pending`.
        let result = catch_unwind(AssertUnwindSafe(|| unsafe { (*job.0)(chunk(items, threads, t)) }));
        let mut s = shared.lock();
        if let Err(p) = result {
            s.panic.get_or_insert(p);
        }
        s.pending -= 1;
        if s.pending == 0 {
            shared.done.notify_one();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        {
            let mut s = self.shared.lock();
            s.shutdown = true;
            self.shared.start.notify_all();
        }
        for w in self.workers.drain(..) {
            // a worker never panics outside a job (jobs are caught)
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn chunks_cover_the_items_once_in_order() {
        for n in 0..20 {
            for threads in 1..6 {
                let mut next = 0;
                for t in 0..threads {
                    let r = chunk(n, threads, t);
                    assert_eq!(r.start, next);
                    assert!(r.len() == n / threads || r.len() == n / threads + 1);
                    next = r.end;
                }
                assert_eq!(next, n);
            }
        }
    }

    #[test]
    fn every_item_runs_once_per_job_on_its_chunks_thread() {
        for threads in 1..4 {
            let pool = Pool::new(threads).unwrap();
            assert_eq!(pool.threads(), threads);
            let counts: Vec<AtomicUsize> = (0..17).map(|_| AtomicUsize::new(0)).collect();
            let names: Vec<std::sync::Mutex<Option<String>>> = (0..17).map(|_| std::sync::Mutex::new(None)).collect();
            for _ in 0..50 {
                pool.run(17, &|r: Range<usize>| {
                    for i in r {
                        counts[i].fetch_add(1, Ordering::Relaxed);
                        let name = std::thread::current().name().unwrap_or("").to_string();
                        let mut n = names[i].lock().unwrap();
                        assert!(n.as_ref().is_none_or(|m| *m == name), "item {i} changed threads");
                        *n = Some(name);
                    }
                });
            }
            assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 50));
        }
    }

    #[test]
    fn a_worker_panic_reaches_the_caller_after_all_chunks_and_the_pool_goes_on() {
        let pool = Pool::new(3).unwrap();
        let done = AtomicUsize::new(0);
        let r = catch_unwind(AssertUnwindSafe(|| {
            pool.run(3, &|r: Range<usize>| {
                if r.start == 2 {
                    panic!("chunk 2");
                }
                done.fetch_add(1, Ordering::Relaxed);
            })
        }));
        let p = r.expect_err("the panic must be raised again");
        assert_eq!(p.downcast_ref::<&str>(), Some(&"chunk 2"));
        assert_eq!(done.load(Ordering::Relaxed), 2);
        let total = AtomicUsize::new(0);
        pool.run(10, &|r: Range<usize>| {
            total.fetch_add(r.len(), Ordering::Relaxed);
        });
        assert_eq!(total.load(Ordering::Relaxed), 10);
    }
}
