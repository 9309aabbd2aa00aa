//! The force hooks allocate nothing: stepping a mechanism with every kind of force
//! element (springs, dampers with body–body couplings, point springs, inputs, wrenches)
//! performs no heap allocation.

use maxdyn::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

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
fn stepping_with_force_elements_does_not_allocate() {
    let ja = [0.1, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.3];
    let mut b = Builder::new();
    for _ in 0..3 {
        b.add_body(1.0, ja).unwrap();
    }
    let j0 = b.add_joint(JointType::Spherical, WORLD, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let j1 = b.add_joint(JointType::Cylindrical, 0, 1, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, 1, 2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.set_joint_spring(j0, &[1.0, 2.0, 3.0], &[0.1, 0.0, 0.0]).unwrap();
    b.set_joint_damper(j0, &[0.1, 0.1, 0.1]).unwrap();
    b.set_joint_spring(j1, &[20.0, 1.0], &[0.0, 0.0]).unwrap();
    b.set_joint_damper(j1, &[0.5, 0.05]).unwrap();
    b.set_joint_damper(j2, &[0.05]).unwrap();
    b.add_spring(0, [0.05, 0.0, 0.0], 2, [0.0, 0.05, 0.0], 10.0, 0.2, 0.5).unwrap();
    b.add_spring(WORLD, [0.5, 0.0, 0.0], 2, [0.0; 3], 5.0, 0.1, 0.2).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    sim.set_joint_position(j0, &[0.3, 0.2, 0.1]).unwrap();
    sim.set_joint_input(j2, &[0.2]).unwrap();
    sim.set_body_wrench(1, [0.1, 0.0, 0.0], [0.0, 0.01, 0.0], [0.0, 0.05, 0.0]).unwrap();
    sim.step().unwrap();
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    for k in 0..50 {
        sim.set_joint_input(j1, &[0.1 * k as f64, 0.01]).unwrap();
        sim.step().unwrap();
    }
    let (_, _) = sim.energy();
    let count = ALLOCATIONS.load(Ordering::SeqCst) - before;
    println!("allocations in 50 steps: {count}");
    assert_eq!(count, 0);
}
