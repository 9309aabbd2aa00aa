//! `Batch::step` allocates nothing on the heap, on the caller's thread or the workers:
//! a counting global allocator (one process-wide count, because the workers are other
//! threads) watches closed-loop quadruped rollouts. One test in this binary, so nothing
//! else allocates while it counts.

use maxdyn::batch::Batch;
use maxdyn_scenes::quadruped::{Quadruped, LEARNED_SEED1, START};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap allocations by any thread while `f` runs.
fn counted(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
}

#[test]
fn batch_step_does_not_allocate_on_any_thread() {
    let q = Quadruped::load();
    let gaits = [LEARNED_SEED1, START, LEARNED_SEED1, START];
    for threads in [1, 2, 3] {
        let sims = gaits.iter().map(|g| q.standing(g, 0.0)).collect();
        let mut batch = Batch::from_sims(sims, threads).unwrap();
        let control = |i: usize, sim: &mut maxdyn::Sim| {
            let t = sim.time();
            q.control(sim, &gaits[i], t)
        };
        assert_eq!(batch.step_with(1, control), 0);
        let n = counted(|| {
            for _ in 0..20 {
                assert_eq!(batch.step_with(5, control), 0);
            }
            assert_eq!(batch.step(3), 0);
        });
        assert_eq!(n, 0, "{threads} threads: Batch::step allocated {n} times");
    }
    // the count sees allocations on a worker thread (so the zeros above mean something)
    let sims = gaits.iter().map(|g| q.standing(g, 0.0)).collect();
    let mut batch = Batch::from_sims(sims, 2).unwrap();
    let n = counted(|| {
        batch.step_with(1, |i, _| {
            if i == 3 {
                std::hint::black_box(vec![1.0f64; 10]);
            }
        });
    });
    assert!(n >= 1, "an allocation in the worker's chunk was not counted");
}
