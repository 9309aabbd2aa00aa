//! `Sim::step` allocates nothing on the heap: a counting global allocator watches 200
//! steps of a 16-link chain and of a double pendulum after their first step.

mod common;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn step_does_not_allocate() {
    for mut sim in [common::chain(16, maxdyn::JointType::Revolute, 0.01), common::chain(8, maxdyn::JointType::Spherical, 0.01), common::double_pendulum(0.01)] {
        sim.step().unwrap();
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for _ in 0..200 {
            sim.step().unwrap();
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert_eq!(after - before, 0, "Sim::step allocated {} times", after - before);
    }
}
