//! Starting states users get wrong (issue 13, part 6): a body the model leaves away from
//! its joint is placed by the joint tree, a pose set directly that violates a joint is
//! refused by the step (not snapped back at violation/dt), `Sim::assemble` closes trees
//! and loops, and a 1e8:1 mass ratio steps with the default options.

use maxdyn::sim::JOINT_TOLERANCE;
use maxdyn::{Builder, Error, Inertia, JointType, Model, Parent, Sim, SolverOptions};
use maxdyn_scenes::mechanisms;
use std::sync::Arc;

const X: [f64; 3] = [1.0, 0.0, 0.0];

/// A 1 kg rod of length 1 on a revolute about x at the world origin, its centre 0.5 m
/// below the pivot at angle 0; its body pose is left at the builder's default (the
/// origin) unless `placed`.
fn pendulum(placed: bool) -> Sim {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
    if placed {
        b.set_body_pose(body, [0.0, 0.0, -0.5], [1.0, 0.0, 0.0, 0.0]).unwrap();
    }
    b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0, 0.0, 0.5], X).unwrap();
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

fn speed(sim: &Sim) -> f64 {
    (0..sim.model().body_count()).map(|b| {
        let s = sim.body_state(b).unwrap();
        (s[7] * s[7] + s[8] * s[8] + s[9] * s[9]).sqrt()
    }).fold(0.0, f64::max)
}

#[test]
fn a_body_left_at_the_origin_starts_where_its_joint_puts_it() {
    let (mut left, mut placed) = (pendulum(false), pendulum(true));
    // before: the step pulled the body 0.5 m in one step, 50 m/s
    assert_eq!(left.body_state(0).unwrap(), placed.body_state(0).unwrap());
    assert_eq!(left.joint_violation().1, 0.0);
    for _ in 0..100 {
        left.step().unwrap();
        placed.step().unwrap();
    }
    assert_eq!(left.body_state(0).unwrap(), placed.body_state(0).unwrap());
    assert!(speed(&left) < 1e-12, "a pendulum hanging at rest stays at rest: {}", speed(&left));
}

#[test]
fn a_pose_set_away_from_its_joint_is_refused_and_assembly_places_it() {
    let mut sim = pendulum(true);
    let mut moved = sim.body_state(0).unwrap();
    moved[1] += 0.3;
    sim.set_body_state(0, &moved).unwrap();
    let before = sim.body_state(0).unwrap();
    match sim.step() {
        Err(Error::JointViolation { joint: 0, violation, tolerance }) => {
            assert!((violation - 0.3).abs() < 1e-15, "violation {violation}");
            assert_eq!(tolerance, JOINT_TOLERANCE);
        }
        other => panic!("expected a joint violation, got {other:?}"),
    }
    assert_eq!(sim.body_state(0).unwrap(), before, "a refused step changes nothing");
    assert_eq!(sim.step_count(), 0);
    let removed = sim.assemble().unwrap();
    assert!((removed - 0.3).abs() < 1e-15);
    assert!(sim.joint_violation().1 < 1e-15, "assembled: {}", sim.joint_violation().1);
    // placed back on its joint at the angle its pose gives (0): at rest, no launch
    let s = sim.body_state(0).unwrap();
    assert!((s[2] + 0.5).abs() < 1e-15 && s[1].abs() < 1e-15, "{s:?}");
    sim.step().unwrap();
    assert!(speed(&sim) < 1e-12, "speed after the step {}", speed(&sim));
}

#[test]
fn a_violation_within_the_tolerance_steps() {
    let mut sim = pendulum(true);
    let mut s = sim.body_state(0).unwrap();
    s[1] += 0.5 * JOINT_TOLERANCE;
    sim.set_body_state(0, &s).unwrap();
    // the step enforces the joints at the configuration after the next (paper eq. 9):
    // the violation is gone after two steps, at a pull of 5e-7/dt
    sim.step().unwrap();
    sim.step().unwrap();
    let (v, u) = (sim.joint_violation().1, speed(&sim));
    eprintln!("violation {v:e}, speed {u:e}");
    assert!(v < 1e-12 && u < 1e-7, "violation {v}, speed {u}");
}

#[test]
fn assembly_closes_a_loop_opened_by_a_tree_coordinate() {
    let mut sim = mechanisms::crank_rocker(0.001);
    sim.step().unwrap();
    let mut crank = [0.0];
    sim.joint_position(0, &mut crank).unwrap();
    // the crank turned alone: the coupler no longer meets the rocker (joint 3)
    sim.set_joint_position(0, &[crank[0] + 0.2]).unwrap();
    let (joint, open) = sim.joint_violation();
    assert_eq!(joint, Some(3));
    assert!(open > 0.05, "{open}");
    assert!(matches!(sim.step(), Err(Error::JointViolation { joint: 3, .. })));
    let removed = sim.assemble().unwrap();
    assert_eq!(removed, open);
    let closed = sim.joint_violation().1;
    assert!(closed < 1e-12, "closed to {closed}");
    let energy = sim.energy();
    for _ in 0..1000 {
        sim.step().unwrap();
    }
    let drift = (sim.energy().0 + sim.energy().1) - (energy.0 + energy.1);
    assert!(sim.constraint_violation() < 1e-9);
    eprintln!("loop opened by {open:e}, closed to {closed:e}; energy drift {drift:e} J over 1 s");
    assert!(drift.abs() < 1.2e-2, "energy drift {drift} J over 1 s after assembly");
}

#[test]
fn a_loop_that_cannot_close_is_reported_and_nothing_changes() {
    // the crank-rocker with its ground link stretched to 5 m: the 0.5 + 2 + 1 m links
    // cannot reach across it
    let mut b = Builder::new();
    let c = b.add_body(0.5, Inertia::cuboid(0.5, 0.05, 0.05, 0.5).unwrap()).unwrap();
    let k = b.add_body(2.0, Inertia::cuboid(2.0, 0.05, 0.05, 2.0).unwrap()).unwrap();
    let r = b.add_body(1.0, Inertia::cuboid(1.0, 0.05, 0.05, 1.0).unwrap()).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, c, [0.0; 3], [0.0, 0.0, -0.25], X).unwrap();
    b.add_joint(JointType::Revolute, c, k, [0.0, 0.0, 0.25], [0.0, 0.0, -1.0], X).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, r, [0.0, 5.0, 0.0], [0.0, 0.0, -0.5], X).unwrap();
    b.add_joint(JointType::Revolute, k, r, [0.0, 0.0, 1.0], [0.0, 0.0, 0.5], X).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let before: Vec<_> = (0..3).map(|i| sim.body_state(i).unwrap()).collect();
    assert!(matches!(sim.step(), Err(Error::JointViolation { joint: 3, .. })));
    assert!(matches!(sim.assemble(), Err(Error::AssemblyFailed(_))));
    let after: Vec<_> = (0..3).map(|i| sim.body_state(i).unwrap()).collect();
    assert_eq!(before, after);
}

/// Two rods hanging on `joint`s (revolute about x, or spherical), masses `m`, the first
/// turned by 0.5 rad.
fn two_rods(m: [f64; 2], joint: JointType) -> Sim {
    let mut b = Builder::new();
    let mut parent = Parent::World;
    for (i, &mi) in m.iter().enumerate() {
        let body = b.add_body(mi, Inertia::cuboid(mi, 0.1, 0.1, 1.0).unwrap()).unwrap();
        let anchor = if i == 0 { [0.0; 3] } else { [0.0, 0.0, -0.5] };
        b.add_joint(joint, parent, body, anchor, [0.0, 0.0, 0.5], X).unwrap();
        parent = Parent::Body(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let turn: &[f64] = if joint == JointType::Revolute { &[0.5] } else { &[0.5, 0.2, 0.0] };
    sim.set_joint_position(0, turn).unwrap();
    sim
}

#[test]
fn a_1e8_to_1_mass_ratio_steps_with_the_default_options() {
    // before: every step of the heavy pairs failed (NOT_CONVERGED at residual 1e-8: the
    // heavy rows' rounding is above the absolute tolerance 1e-10). Motion does not depend
    // on the total mass, so each heavy pair moves as the same pair scaled down to 1 kg.
    let mut worst: f64 = 0.0;
    for joint in [JointType::Revolute, JointType::Spherical] {
        for (heavy, light) in [([1e8, 1.0], [1.0, 1e-8]), ([1.0, 1e8], [1e-8, 1.0])] {
            // the scale model, with its 1e-8 kg rod, is the reference and is solved
            // tightly: at the default absolute tolerance (1e-10 N) the light rod's rows
            // leave its velocity to 1e-10 dt/m = 1e-4 m/s, and the scale model differed
            // from itself at 1e-13 by 1.5e-8 m after 300 steps
            let (mut a, mut b) = (two_rods(heavy, joint), two_rods(light, joint));
            b.set_options(SolverOptions { tolerance: 1e-13, ..b.options() }).unwrap();
            for _ in 0..300 {
                a.step().unwrap();
                b.step().unwrap();
                assert!(a.stats().iterations <= 3, "{} iterations", a.stats().iterations);
            }
            for body in 0..2 {
                let (x, y) = (a.body_state(body).unwrap(), b.body_state(body).unwrap());
                worst = x.iter().zip(&y).map(|(p, q)| (p - q).abs()).fold(worst, f64::max);
            }
            assert!(a.constraint_violation() < 1e-13, "{}", a.constraint_violation());
        }
    }
    eprintln!("heavy pairs against their 1 kg scale models: {worst:e}");
    // 1.1e-11 measured against the scale models solved to 1e-13 (the bound was 2e-10
    // against scale models at the default tolerance)
    assert!(worst < 3e-11, "{worst}");
}

#[path = "common/capi.rs"]
mod capi_helpers;

#[test]
fn from_c_a_violated_start_is_refused_with_its_status_and_assembled() {
    use capi_helpers::{last_error, lock, ok};
    use maxdyn::capi::maxdyn_status::*;
    use maxdyn::capi::*;
    use std::ptr::{null_mut};
    let guard = lock();
    unsafe {
        let mut b = null_mut();
        ok(maxdyn_builder_new(&mut b));
        let (mut body, mut joint) = (-1, -1);
        let cube = [1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0];
        ok(maxdyn_builder_add_body(b, 1.0, cube.as_ptr(), &mut body));
        ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, body, [0.0; 3].as_ptr(), [0.0, 0.0, 1.0].as_ptr(), X.as_ptr(), &mut joint));
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        maxdyn_builder_free(b);
        let mut s = null_mut();
        ok(maxdyn_sim_new(m, 0.01, &mut s));
        let (mut worst, mut violation) = (7, 1.0);
        ok(maxdyn_sim_get_joint_violation(s, &mut worst, &mut violation));
        assert_eq!((worst, violation), (-1, 0.0), "placed by its joint");
        let mut state = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, body, state.as_mut_ptr()));
        assert_eq!(&state[..3], &[0.0, 0.0, -1.0]);
        state[0] += 0.1;
        ok(maxdyn_sim_set_body_state(s, body, state.as_ptr()));
        assert_eq!(maxdyn_sim_step(s), MAXDYN_STATUS_JOINT_VIOLATION);
        let msg = last_error();
        assert!(msg.starts_with("maxdyn_sim_step") && msg.contains("joint 0") && msg.contains("maxdyn_sim_assemble"), "{msg}");
        let mut after = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, body, after.as_mut_ptr()));
        assert_eq!(after, state, "a refused step changes nothing");
        ok(maxdyn_sim_get_joint_violation(s, &mut worst, &mut violation));
        assert_eq!(worst, 0);
        assert!((violation - 0.1).abs() < 1e-15);
        let mut removed = 0.0;
        ok(maxdyn_sim_assemble(s, &mut removed));
        assert_eq!(removed, violation);
        ok(maxdyn_sim_assemble(s, std::ptr::null_mut()));
        ok(maxdyn_sim_step(s));
        assert_eq!(maxdyn_sim_assemble(null_mut(), &mut removed), MAXDYN_STATUS_NULL_POINTER);
        assert_eq!(maxdyn_sim_get_joint_violation(s, null_mut(), &mut violation), MAXDYN_STATUS_NULL_POINTER);
        let name = |s: maxdyn_status| std::ffi::CStr::from_ptr(maxdyn_status_string(s as i32)).to_str().unwrap().to_string();
        assert_eq!(name(MAXDYN_STATUS_JOINT_VIOLATION), "the start violates a joint (assemble the sim)");
        assert_eq!(name(MAXDYN_STATUS_ASSEMBLY_FAILED), "a kinematic loop cannot close at these poses");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(guard.live(), 0);
}
