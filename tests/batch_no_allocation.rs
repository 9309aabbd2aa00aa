//! `Batch::step` allocates nothing on the heap, on the caller's thread or the workers:
//! a counting global allocator (one process-wide count, because the workers are other
//! threads) watches closed-loop quadruped rollouts, and a C batch stepped through
//! `maxdyn_batch_step` with a C control callback. The binary has its own `main`
//! (`harness = false`): libtest's main thread does its bookkeeping for a test while the
//! test runs, and on a loaded machine those allocations fell into the count (4 of them,
//! in about one run in three). Here no other thread exists but the pool's.

use maxdyn::batch::Batch;
use maxdyn::capi::batch::*;
use maxdyn::capi::maxdyn_status::MAXDYN_STATUS_OK;
use maxdyn::capi::*;
use std::ffi::{c_int, c_void};
use std::ptr::null_mut;
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

fn main() {
    batch_step_does_not_allocate_on_any_thread();
    println!("batch_no_allocation: Batch::step and maxdyn_batch_step allocate nothing on 1, 2 and 3 threads");
}

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

    c_batch_step_does_not_allocate();
}

/// A PD law on joint 0 through the C API, as a C caller would write it.
unsafe extern "C" fn pd(sim: *mut maxdyn_sim, index: usize, _user: *mut c_void) -> c_int {
    let (mut th, mut om) = (0.0, 0.0);
    if maxdyn_sim_get_joint_position(sim, 0, &mut th, 1) != MAXDYN_STATUS_OK
        || maxdyn_sim_get_joint_velocity(sim, 0, &mut om, 1) != MAXDYN_STATUS_OK
    {
        return 1;
    }
    let u = 20.0 * (0.3 * index as f64 - th) - 3.0 * om;
    (maxdyn_sim_set_joint_input(sim, 0, &u, 1) != MAXDYN_STATUS_OK) as c_int
}

/// The C path: a pendulum whose tip touches the ground, 4 sims on 2 threads.
fn c_batch_step_does_not_allocate() {
    unsafe {
        let ok = |s| assert_eq!(s, MAXDYN_STATUS_OK);
        let mut b = null_mut();
        ok(maxdyn_builder_new(&mut b));
        let (mut body, mut joint, mut contact) = (-1, -1, -1);
        let inertia = [1.01 / 12.0, 0.0, 0.0, 0.0, 1.01 / 12.0, 0.0, 0.0, 0.0, 0.02 / 12.0];
        ok(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body));
        ok(maxdyn_builder_add_joint(b, 4, -1, body, [0.0, 0.0, 0.7].as_ptr(), [0.0, 0.0, 0.5].as_ptr(), [1.0, 0.0, 0.0].as_ptr(), &mut joint));
        ok(maxdyn_builder_add_ground_contact(b, body, [0.0, 0.0, -0.5].as_ptr(), 0.05, 0.5, &mut contact));
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        let mut batch = null_mut();
        ok(maxdyn_batch_new(m, 4, 0.01, 2, &mut batch));
        for i in 0..4 {
            let mut sim = null_mut();
            ok(maxdyn_batch_get_sim(batch, i, &mut sim));
            ok(maxdyn_sim_set_joint_position(sim, joint, &std::f64::consts::FRAC_PI_2, 1));
        }
        let mut statuses = [MAXDYN_STATUS_OK; 4];
        ok(maxdyn_batch_step(batch, 1, Some(pd), null_mut(), statuses.as_mut_ptr(), 4));
        let n = counted(|| {
            for _ in 0..30 {
                ok(maxdyn_batch_step(batch, 5, Some(pd), null_mut(), statuses.as_mut_ptr(), 4));
            }
        });
        assert_eq!(n, 0, "maxdyn_batch_step allocated {n} times");
        // the tip reached the ground in some sims, so contacts were solved
        let mut gap = [0.0; 5];
        let mut touching = 0;
        for i in 0..4 {
            let mut sim = null_mut();
            ok(maxdyn_batch_get_sim(batch, i, &mut sim));
            ok(maxdyn_sim_get_contact(sim, contact, gap.as_mut_ptr()));
            touching += (gap[1] > 0.0) as usize;
        }
        assert!(touching >= 1, "no sim touched the ground: contacts not covered");
        maxdyn_batch_free(batch);
        maxdyn_model_free(m);
        maxdyn_builder_free(b);
    }
}
