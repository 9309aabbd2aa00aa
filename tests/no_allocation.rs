//! `Sim::step` allocates nothing on the heap: a counting global allocator watches the
//! steps of jointed chains, force elements, inputs and contacts (including the
//! interior point's Tresca fallback) after their first step. The count is per thread,
//! so the tests may run in parallel.

mod common;
use maxdyn::{Builder, Inertia, Integrator, JointType, Model, Parent, Sim, SolverOptions};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: the thread-local may already be gone while a thread shuts down
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        note();
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        note();
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap allocations made by this thread while `f` runs.
fn counted(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(|c| c.get());
    f();
    ALLOCATIONS.with(|c| c.get()) - before
}

#[test]
fn jointed_chains_do_not_allocate() {
    for mut sim in [common::chain(16, JointType::Revolute, 0.01), common::chain(8, JointType::Spherical, 0.01), common::double_pendulum(0.01)] {
        sim.step().unwrap();
        let n = counted(|| {
            for _ in 0..200 {
                sim.step().unwrap();
            }
        });
        assert_eq!(n, 0, "Sim::step allocated {n} times");
    }
}

/// The second- and fourth-order integrators: their consistent start (a solve before the
/// step, after velocities are set) and the fourth order's five steps per step allocate
/// nothing either.
#[test]
fn higher_order_integrators_do_not_allocate() {
    for integrator in [Integrator::SecondOrder, Integrator::FourthOrder] {
        let mut sim = common::chain(16, JointType::Revolute, 0.01);
        sim.set_options(SolverOptions { integrator, ..SolverOptions::default() }).unwrap();
        sim.step().unwrap();
        sim.set_joint_velocity(0, &[0.3]).unwrap();
        let n = counted(|| {
            for _ in 0..200 {
                sim.step().unwrap();
            }
        });
        assert_eq!(n, 0, "{integrator:?}: Sim::step allocated {n} times");
    }
}

/// The first step after poses are set checks them against the joints
/// (`sim::assemble`), in place.
#[test]
fn the_start_check_after_a_set_state_does_not_allocate() {
    let mut sim = common::chain(8, JointType::Revolute, 0.01);
    sim.step().unwrap();
    let state = sim.body_state(3).unwrap();
    sim.set_body_state(3, &state).unwrap();
    let n = counted(|| sim.step().map(|_| ()).unwrap());
    assert_eq!(n, 0, "the checked step allocated {n} times");
}

#[test]
fn stepping_with_force_elements_does_not_allocate() {
    let ja = Inertia::diagonal(0.1, 0.2, 0.3).unwrap();
    let mut b = Builder::new();
    for _ in 0..3 {
        b.add_body(1.0, ja).unwrap();
    }
    let j0 = b.add_joint(JointType::Spherical, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let j1 = b.add_joint(JointType::Cylindrical, 0, 1, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, 1, 2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.set_joint_spring(j0, &[1.0, 2.0, 3.0], &[0.1, 0.0, 0.0]).unwrap();
    b.set_joint_damper(j0, &[0.1, 0.1, 0.1]).unwrap();
    b.set_joint_spring(j1, &[20.0, 1.0], &[0.0, 0.0]).unwrap();
    b.set_joint_damper(j1, &[0.5, 0.05]).unwrap();
    b.set_joint_damper(j2, &[0.05]).unwrap();
    b.add_spring(0, [0.05, 0.0, 0.0], 2, [0.0, 0.05, 0.0], 10.0, 0.2, 0.5).unwrap();
    b.add_spring(Parent::World, [0.5, 0.0, 0.0], 2, [0.0; 3], 5.0, 0.1, 0.2).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    sim.set_joint_position(j0, &[0.3, 0.2, 0.1]).unwrap();
    sim.set_joint_input(j2, &[0.2]).unwrap();
    sim.set_body_wrench(1, [0.1, 0.0, 0.0], [0.0, 0.01, 0.0], [0.0, 0.05, 0.0]).unwrap();
    sim.step().unwrap();
    let count = counted(|| {
        for k in 0..50 {
            sim.set_joint_input(j1, &[0.1 * k as f64, 0.01]).unwrap();
            sim.step().unwrap();
        }
        let (_, _) = sim.energy();
    });
    println!("allocations in 50 steps: {count}");
    assert_eq!(count, 0);
}

/// Runs `steps` steps after the first and returns (allocations, steps that used the
/// Tresca fallback, steps that were split); a failed step counts too (it must not
/// allocate either).
fn count(sim: &mut Sim, steps: usize) -> (usize, usize, usize) {
    sim.step().unwrap();
    let (mut fallbacks, mut splits) = (0, 0);
    let n = counted(|| {
        for _ in 0..steps {
            if let Ok(st) = sim.step() {
                fallbacks += st.fallback as usize;
                splits += (st.substeps > 1) as usize;
            }
        }
    });
    (n, fallbacks, splits)
}

#[test]
fn contact_step_does_not_allocate() {
    // box drop: eight corners, 0.5 m above the ground
    let (b, _, _) = common::box_on_plane(0.2, 1.0, &common::all_corners(0.1), [0.0, 0.0, 1.0], 0.5, 0.5);
    let (n, _, _) = count(&mut common::sim(&b, 0.01), 200);
    assert_eq!(n, 0, "box drop: Sim::step allocated {n} times");

    // a pendulum of two links whose tip sphere lands on the ground
    let mut b = Builder::new();
    let l1 = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
    let l2 = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
    b.set_body_pose(l1, [0.0, 0.5, 1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.set_body_pose(l2, [0.0, 1.5, 1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, l1, [0.0, 0.0, 1.0], [0.0, -0.5, 0.0], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.5, 0.0], [0.0, -0.5, 0.0], [1.0, 0.0, 0.0]).unwrap();
    b.add_ground_contact(l2, [0.0, 0.5, 0.0], 0.05, 0.8).unwrap();
    b.add_ground_contact(l1, [0.0; 3], 0.1, 0.8).unwrap();
    let (n, _, _) = count(&mut common::sim(&b, 0.01), 200);
    assert_eq!(n, 0, "pendulum on the ground: Sim::step allocated {n} times");

    // B2 chain, n = 16, through its crash, with few iterations (since the contact solver
    // starts cold at the forces that stop the bodies, the chain needs no split at the
    // default 100): step splitting runs at least once with 10 (since the relaxed solve
    // may take twice the cap, not with 11–15), and without splitting the Tresca fallback
    // does with 12
    let (b, _) = common::sphere_chain(16);
    let mut sim = common::sim(&b, 0.01);
    sim.set_options(maxdyn::SolverOptions { max_iterations: 10, ..sim.options() }).unwrap();
    let (n, _, splits) = count(&mut sim, 250);
    assert_eq!(n, 0, "sphere chain: Sim::step allocated {n} times");
    assert!(splits >= 1, "the chain never split a step; this test no longer covers it");
    let mut sim = common::sim(&b, 0.01);
    sim.set_options(maxdyn::SolverOptions { max_splits: 0, max_iterations: 12, ..sim.options() }).unwrap();
    let (n, fallbacks, _) = count(&mut sim, 250);
    assert_eq!(n, 0, "sphere chain without splitting: Sim::step allocated {n} times");
    assert!(fallbacks >= 1, "the chain never used the Tresca fallback; this test no longer covers it");
}

/// Collision shapes: once the pairs stop changing (the layout is kept), a step allocates
/// nothing; a step whose pairs change rebuilds the layout and may (`Sim::layout_rebuilds`
/// counts them).
#[test]
fn shape_contacts_do_not_allocate_once_the_pairs_settle() {
    use maxdyn::ShapeKind;
    let id = [1.0, 0.0, 0.0, 0.0];
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], id, &[]).unwrap();
    // a box dropped on its face, a capsule lying on the floor, a sphere and a hull resting
    // on the box
    let cube = b.add_body(1.0, Inertia::cuboid(1.0, 0.4, 0.4, 0.2).unwrap()).unwrap();
    b.set_body_pose(cube, [0.0, 0.0, 0.15], id).unwrap();
    b.add_shape(cube.into(), ShapeKind::Box, [0.0; 3], id, &[0.2, 0.2, 0.1]).unwrap();
    let rod = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 0.6).unwrap()).unwrap();
    b.set_body_pose(rod, [1.0, 0.0, 0.05], [0.5f64.sqrt(), 0.0, 0.5f64.sqrt(), 0.0]).unwrap();
    b.add_shape(rod.into(), ShapeKind::Capsule, [0.0; 3], id, &[0.05, 0.25]).unwrap();
    let ball = b.add_body(0.5, Inertia::sphere(0.5, 0.05).unwrap()).unwrap();
    b.set_body_pose(ball, [0.05, 0.0, 0.3], id).unwrap();
    b.add_shape(ball.into(), ShapeKind::Sphere, [0.0; 3], id, &[0.05]).unwrap();
    // a hull (a cube's corners) on the box: GJK/EPA and the clipped manifold
    let little = b.add_body(0.2, Inertia::cuboid(0.2, 0.1, 0.1, 0.1).unwrap()).unwrap();
    b.set_body_pose(little, [-0.12, 0.0, 0.25], id).unwrap();
    let corners: Vec<[f64; 3]> = (0..8).map(|i| [if i & 1 == 0 { -0.05 } else { 0.05 }, if i & 2 == 0 { -0.05 } else { 0.05 }, if i & 4 == 0 { -0.05 } else { 0.05 }]).collect();
    b.add_hull_shape(little.into(), [0.0; 3], id, &corners).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let rebuilds = sim.layout_rebuilds();
    let (n, _, _) = count(&mut sim, 200);
    assert_eq!(sim.layout_rebuilds(), rebuilds, "the pairs changed after settling");
    assert!(sim.shape_contact_count() >= 4 + 2 + 1 + 4, "{} points", sim.shape_contact_count());
    assert_eq!(n, 0, "resting shapes: Sim::step allocated {n} times");
    // the collision stage alone (benches/collision_stage.rs) neither
    let n = counted(|| {
        for _ in 0..200 {
            std::hint::black_box(sim.collision_search());
        }
    });
    assert_eq!(n, 0, "Sim::collision_search allocated {n} times");
}

/// The counter itself sees an allocation (so the zero counts above mean something).
/// Static world geometry: a sphere, a box, a cylinder and a hull resting on a bumpy
/// height field, a box on a triangle-mesh floor. Once settled, neither a step nor the
/// collision search allocates (the triangles come from parry through callbacks, the
/// points gather in arrays on the stack).
#[test]
fn terrain_contacts_do_not_allocate_once_the_pairs_settle() {
    use maxdyn::ShapeKind;
    let id = [1.0, 0.0, 0.0, 0.0];
    let mut b = Builder::new();
    // 21 × 21 points 0.1 m apart: gentle bumps of ±1 cm
    let heights: Vec<f64> = (0..21 * 21).map(|k| 0.01 * ((k % 7) as f64 / 3.0 - 1.0) * ((k / 21 % 5) as f64 / 2.0 - 1.0)).collect();
    b.add_heightfield_shape(Parent::World, [0.0; 3], id, &heights, 21, 21, 0.1, 0.1).unwrap();
    let floor = [[2.0, -1.0, 0.0], [3.0, -1.0, 0.0], [3.0, 1.0, 0.0], [2.0, 1.0, 0.0]];
    b.add_trimesh_shape(Parent::World, [0.0; 3], id, &floor, &[[0, 1, 2], [0, 2, 3]]).unwrap();
    let corners: Vec<[f64; 3]> = (0..8).map(|i| [if i & 1 == 0 { -0.05 } else { 0.05 }, if i & 2 == 0 { -0.05 } else { 0.05 }, if i & 4 == 0 { -0.05 } else { 0.05 }]).collect();
    for (k, (kind, params, x)) in [(ShapeKind::Sphere, vec![0.05], [-0.5, 0.0]), (ShapeKind::Box, vec![0.1, 0.08, 0.05], [0.0, 0.3]), (ShapeKind::Cylinder, vec![0.06, 0.04], [0.4, -0.2]), (ShapeKind::Hull, vec![], [-0.3, -0.5]), (ShapeKind::Box, vec![0.1, 0.08, 0.05], [2.5, 0.0])].into_iter().enumerate() {
        let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.1).unwrap()).unwrap();
        b.set_body_pose(body, [x[0], x[1], 0.08 + 0.01 * k as f64], id).unwrap();
        if kind == ShapeKind::Hull {
            b.add_hull_shape(body.into(), [0.0; 3], id, &corners).unwrap();
        } else {
            b.add_shape(body.into(), kind, [0.0; 3], id, &params).unwrap();
        }
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    // the hull lands on one terrain vertex and topples off it slowly: at rest on 4 points
    // by step 250
    for _ in 0..300 {
        sim.step().unwrap();
    }
    let rebuilds = sim.layout_rebuilds();
    let (n, _, _) = count(&mut sim, 200);
    assert_eq!(sim.layout_rebuilds(), rebuilds, "the pairs changed after settling");
    assert!(sim.shape_contact_count() >= 5, "{} points", sim.shape_contact_count());
    assert_eq!(n, 0, "terrain: Sim::step allocated {n} times");
    let n = counted(|| {
        for _ in 0..200 {
            std::hint::black_box(sim.collision_search());
        }
    });
    assert_eq!(n, 0, "terrain: Sim::collision_search allocated {n} times");
}

#[test]
fn the_counter_counts() {
    let n = counted(|| {
        let v = vec![1.0f64; 10];
        std::hint::black_box(&v);
    });
    assert!(n >= 1);
}

