//! `Sim::step` with contacts allocates nothing on the heap: a counting global allocator
//! watches a box drop, the B2 sphere chain through its crash onto the ground (n = 16,
//! including the step at which the Tresca fallback takes over) and a jointed pendulum
//! whose tip lands on the ground, after their first step.

mod common;
use maxdyn::model::sphere_inertia;
use maxdyn::{Builder, JointType, Sim, WORLD};
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

/// Runs `steps` steps after the first and returns (allocations, steps that fell back).
fn count(sim: &mut Sim, steps: usize) -> (usize, usize) {
    sim.step().unwrap();
    let mut fallbacks = 0;
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for _ in 0..steps {
        fallbacks += sim.step().unwrap().fallback as usize;
    }
    (ALLOCATIONS.load(Ordering::SeqCst) - before, fallbacks)
}

#[test]
fn contact_step_does_not_allocate() {
    // box drop: eight corners, 0.5 m above the ground
    let (b, _, _) = common::box_on_plane(0.2, 1.0, &common::all_corners(0.1), [0.0, 0.0, 1.0], 0.5, 0.5);
    let (n, _) = count(&mut common::sim(&b, 0.01), 200);
    assert_eq!(n, 0, "box drop: Sim::step allocated {n} times");

    // a pendulum of two links whose tip sphere lands on the ground
    let mut b = Builder::new();
    let l1 = b.add_body(1.0, common::inertia(sphere_inertia(1.0, 0.1))).unwrap() as i32;
    let l2 = b.add_body(1.0, common::inertia(sphere_inertia(1.0, 0.1))).unwrap() as i32;
    b.set_body_pose(l1 as usize, [0.0, 0.5, 1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.set_body_pose(l2 as usize, [0.0, 1.5, 1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, WORLD, l1, [0.0, 0.0, 1.0], [0.0, -0.5, 0.0], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.5, 0.0], [0.0, -0.5, 0.0], [1.0, 0.0, 0.0]).unwrap();
    b.add_ground_contact(l2, [0.0, 0.5, 0.0], 0.05, 0.8).unwrap();
    b.add_ground_contact(l1, [0.0; 3], 0.1, 0.8).unwrap();
    let (n, _) = count(&mut common::sim(&b, 0.01), 200);
    assert_eq!(n, 0, "pendulum on the ground: Sim::step allocated {n} times");

    // B2 chain, n = 16, through its crash (the fallback runs at least once)
    let (b, _) = common::sphere_chain(16);
    let (n, fallbacks) = count(&mut common::sim(&b, 0.01), 250);
    assert_eq!(n, 0, "sphere chain: Sim::step allocated {n} times");
    assert!(fallbacks >= 1, "the chain never used the Tresca fallback; this test no longer covers it");
}
