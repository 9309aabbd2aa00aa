//! Every failure class through the C ABI returns its own status and a message naming the
//! argument, writes no out-pointer and leaves the objects unchanged; ownership rules
//! (model freed before its sims, free(NULL), no leaks); the control callback; a failed
//! step keeps the last good state.
//!
//! The live-object count is global to the process, so the tests of this file run one at
//! a time (LOCK) and each ends with the count back at 0.

use std::ffi::{c_int, c_void, CStr};
use std::ptr::null_mut;

use maxdyn::capi::maxdyn_status::{self, *};
use maxdyn::capi::*;
use maxdyn::capi::batch::{maxdyn_batch_free, maxdyn_batch_get_body_states, maxdyn_batch_new, maxdyn_batch_step};

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, last_error, lock, ok};

const CUBE: [f64; 9] = [1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0];
const ORIGIN: [f64; 3] = [0.0; 3];
const ABOVE: [f64; 3] = [0.0, 0.0, 1.0];
const X: [f64; 3] = [1.0, 0.0, 0.0];
const NAN: f64 = f64::NAN;


/// Asserts `status` is `expected` and the last error names `function`.
#[track_caller]
fn expect_status(status: maxdyn_status, expected: maxdyn_status, function: &str) {
    let msg = last_error();
    assert_eq!(status, expected, "{function}: {msg}");
    assert!(msg.starts_with(function), "message {msg:?} does not name {function}");
}



/// Two links hanging from the world by revolute joints about x (the double pendulum).
unsafe fn pendulum_builder() -> *mut maxdyn_builder {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut b1, mut b2, mut j) = (-1, -1, -1);
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut b1));
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut b2));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, b1, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut j));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, b1, b2, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut j));
    b
}

unsafe fn pendulum_sim(dt: f64) -> (*mut maxdyn_model, *mut maxdyn_sim) {
    let b = pendulum_builder();
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    maxdyn_builder_free(b);
    let mut s = null_mut();
    ok(maxdyn_sim_new(m, dt, &mut s));
    ok(maxdyn_sim_set_joint_position(s, 0, [1.0].as_ptr(), 1));
    (m, s)
}

/// Everything observable about a builder: counts, gravity, and the initial body states
/// and joint coordinates of a sim made from it.
unsafe fn builder_snapshot(b: *const maxdyn_builder) -> Vec<f64> {
    let (mut nb, mut nj) = (0, 0);
    ok(maxdyn_builder_get_body_count(b, &mut nb));
    ok(maxdyn_builder_get_joint_count(b, &mut nj));
    let mut snap = vec![nb as f64, nj as f64];
    let mut g = [0.0; 3];
    ok(maxdyn_builder_get_gravity(b, g.as_mut_ptr()));
    snap.extend(g);
    if nb > 0 {
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        let mut s = null_mut();
        ok(maxdyn_sim_new(m, 0.01, &mut s));
        snap.extend(sim_snapshot(s));
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    snap
}

/// Body states, joint coordinates, time, options and applied-force effects of a sim.
unsafe fn sim_snapshot(s: *const maxdyn_sim) -> Vec<f64> {
    let mut nb = 0;
    let mut t = 0.0;
    ok(maxdyn_sim_get_time(s, &mut t));
    let mut states = vec![0.0; 13 * 8];
    // probe body ids until the sim reports an unknown body (at most 8 in these tests)
    while nb < 8 && maxdyn_sim_get_body_state(s, nb, states[13 * nb as usize..].as_mut_ptr()) == MAXDYN_STATUS_OK {
        nb += 1;
    }
    states.truncate(13 * nb as usize);
    let mut snap = vec![t];
    snap.extend(states);
    let (mut tol, mut it, mut acc) = (0.0, 0, 0.0);
    ok(maxdyn_sim_get_solver_options(s, &mut tol, &mut it, &mut acc));
    snap.extend([tol, it as f64, acc]);
    snap
}

fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

#[test]
fn null_pointers_name_the_argument_and_change_nothing() {
    let l = lock();
    unsafe {
        expect(maxdyn_builder_new(std::ptr::null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_new", "out");
        let b = pendulum_builder();
        let before = builder_snapshot(b);
        let mut id = -7;
        expect(maxdyn_builder_add_body(null_mut(), 1.0, CUBE.as_ptr(), &mut id), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_add_body", "builder");
        expect(maxdyn_builder_add_body(b, 1.0, std::ptr::null(), &mut id), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_add_body", "inertia");
        expect(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_add_body", "out_body");
        expect(maxdyn_builder_set_gravity(b, std::ptr::null()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_set_gravity", "gravity");
        expect(maxdyn_builder_set_body_pose(b, 0, ORIGIN.as_ptr(), std::ptr::null()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_set_body_pose", "q");
        expect(maxdyn_builder_set_body_velocity(b, 0, std::ptr::null(), ORIGIN.as_ptr()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_set_body_velocity", "v");
        expect(
            maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, 0, 1, ORIGIN.as_ptr(), ABOVE.as_ptr(), std::ptr::null(), &mut id),
            MAXDYN_STATUS_NULL_POINTER,
            "maxdyn_builder_add_joint",
            "axis",
        );
        expect(
            maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, 0, 1, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), null_mut()),
            MAXDYN_STATUS_NULL_POINTER,
            "maxdyn_builder_add_joint",
            "out_joint",
        );
        assert_eq!(id, -7, "out-pointer written on failure");
        assert!(same(&before, &builder_snapshot(b)), "builder changed by a failed call");

        let mut m = null_mut();
        expect(maxdyn_model_new(std::ptr::null(), &mut m), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_new", "builder");
        expect(maxdyn_model_new(b, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_new", "out");
        assert!(m.is_null());
        let mut s = null_mut();
        expect(maxdyn_sim_new(std::ptr::null(), 0.01, &mut s), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_new", "model");
        assert!(s.is_null());
        maxdyn_builder_free(b);
        assert_eq!(l.live(), 0);

        let (m, s) = pendulum_sim(0.01);
        let before = sim_snapshot(s);
        let mut x = [-1.0; 13];
        let (mut k, mut p) = (-1.0, -1.0);
        expect(maxdyn_sim_step(null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_step", "sim");
        expect(maxdyn_sim_get_body_state(s, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_body_state", "out");
        expect(maxdyn_sim_get_body_state(std::ptr::null(), 0, x.as_mut_ptr()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_body_state", "sim");
        expect(maxdyn_sim_set_body_state(s, 0, std::ptr::null()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_set_body_state", "state");
        expect(maxdyn_sim_get_energy(s, null_mut(), &mut p), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_energy", "kinetic");
        expect(maxdyn_sim_get_energy(s, &mut k, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_energy", "potential");
        expect(maxdyn_sim_set_joint_position(s, 0, std::ptr::null(), 1), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_set_joint_position", "values");
        expect(maxdyn_sim_get_joint_velocity(s, 0, null_mut(), 1), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_joint_velocity", "values");
        expect(maxdyn_sim_set_body_force(s, 0, ORIGIN.as_ptr(), std::ptr::null()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_set_body_force", "torque");
        expect(maxdyn_sim_get_step_stats(s, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_step_stats", "out");
        expect(maxdyn_sim_get_constraint_violation(s, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_constraint_violation", "out");
        expect(maxdyn_sim_get_body_states(s, null_mut(), 2), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_body_states", "out");
        assert!(x.iter().all(|v| *v == -1.0) && k == -1.0 && p == -1.0, "out-pointer written on failure");
        assert!(same(&before, &sim_snapshot(s)), "sim changed by a failed call");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn unknown_ids_name_the_argument_and_change_nothing() {
    let l = lock();
    unsafe {
        let b = pendulum_builder();
        let before = builder_snapshot(b);
        let q = [1.0, 0.0, 0.0, 0.0];
        let mut id = -7;
        expect(maxdyn_builder_set_body_pose(b, 2, ORIGIN.as_ptr(), q.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_builder_set_body_pose", "body");
        expect(maxdyn_builder_set_body_velocity(b, -1, ORIGIN.as_ptr(), ORIGIN.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_builder_set_body_velocity", "body");
        expect(
            maxdyn_builder_add_joint(b, MAXDYN_JOINT_SPHERICAL, 7, 1, ORIGIN.as_ptr(), ORIGIN.as_ptr(), X.as_ptr(), &mut id),
            MAXDYN_STATUS_UNKNOWN_BODY,
            "maxdyn_builder_add_joint",
            "parent",
        );
        // the world is a parent only: as a child it is an unknown body
        expect(
            maxdyn_builder_add_joint(b, MAXDYN_JOINT_SPHERICAL, 0, MAXDYN_WORLD, ORIGIN.as_ptr(), ORIGIN.as_ptr(), X.as_ptr(), &mut id),
            MAXDYN_STATUS_UNKNOWN_BODY,
            "maxdyn_builder_add_joint",
            "child",
        );
        expect(maxdyn_builder_set_joint_offset(b, 2, q.as_ptr()), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_builder_set_joint_offset", "joint");
        assert_eq!(id, -7);
        assert!(same(&before, &builder_snapshot(b)));

        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        let mut dof = -7;
        expect(maxdyn_model_get_joint_dof(m, 5, &mut dof), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_model_get_joint_dof", "joint");
        assert_eq!(dof, -7);
        ok(maxdyn_model_get_joint_dof(m, 1, &mut dof));
        assert_eq!(dof, 1);
        maxdyn_model_free(m);
        maxdyn_builder_free(b);

        let (m, s) = pendulum_sim(0.01);
        let before = sim_snapshot(s);
        let mut x = [-1.0; 13];
        let mut v = [-1.0];
        expect(maxdyn_sim_get_body_state(s, 2, x.as_mut_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_sim_get_body_state", "body");
        expect(maxdyn_sim_set_body_state(s, -3, x.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_sim_set_body_state", "body");
        expect(maxdyn_sim_set_body_force(s, 9, X.as_ptr(), X.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_sim_set_body_force", "body");
        expect(maxdyn_sim_get_joint_position(s, 2, v.as_mut_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_sim_get_joint_position", "joint");
        expect(maxdyn_sim_set_joint_velocity(s, -1, v.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_sim_set_joint_velocity", "joint");
        assert!(x.iter().all(|a| *a == -1.0) && v[0] == -1.0);
        assert!(same(&before, &sim_snapshot(s)));
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn invalid_numbers_get_their_own_status_and_change_nothing() {
    let l = lock();
    unsafe {
        let b = pendulum_builder();
        let before = builder_snapshot(b);
        let mut id = -7;
        let f = "maxdyn_builder_add_body";
        // NaN / Inf
        expect(maxdyn_builder_add_body(b, NAN, CUBE.as_ptr(), &mut id), MAXDYN_STATUS_NON_FINITE, f, "mass");
        let mut inf_inertia = CUBE;
        inf_inertia[4] = f64::INFINITY;
        expect(maxdyn_builder_add_body(b, 1.0, inf_inertia.as_ptr(), &mut id), MAXDYN_STATUS_NON_FINITE, f, "inertia");
        expect(maxdyn_builder_set_gravity(b, [0.0, NAN, 0.0].as_ptr()), MAXDYN_STATUS_NON_FINITE, "maxdyn_builder_set_gravity", "gravity");
        expect(
            maxdyn_builder_set_body_pose(b, 0, [NAN, 0.0, 0.0].as_ptr(), [1.0, 0.0, 0.0, 0.0].as_ptr()),
            MAXDYN_STATUS_NON_FINITE,
            "maxdyn_builder_set_body_pose",
            "x",
        );
        expect(
            maxdyn_builder_set_body_velocity(b, 0, ORIGIN.as_ptr(), [0.0, f64::NEG_INFINITY, 0.0].as_ptr()),
            MAXDYN_STATUS_NON_FINITE,
            "maxdyn_builder_set_body_velocity",
            "omega",
        );
        expect(
            maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, 0, 1, [NAN; 3].as_ptr(), ORIGIN.as_ptr(), X.as_ptr(), &mut id),
            MAXDYN_STATUS_NON_FINITE,
            "maxdyn_builder_add_joint",
            "p_parent",
        );
        // zero and negative mass
        expect(maxdyn_builder_add_body(b, 0.0, CUBE.as_ptr(), &mut id), MAXDYN_STATUS_INVALID_MASS, f, "mass");
        expect(maxdyn_builder_add_body(b, -1.0, CUBE.as_ptr(), &mut id), MAXDYN_STATUS_INVALID_MASS, f, "mass");
        // inertia: indefinite, singular, asymmetric
        let indefinite = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0];
        let singular = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
        let asymmetric = [1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        for j in [indefinite, singular, asymmetric] {
            expect(maxdyn_builder_add_body(b, 1.0, j.as_ptr(), &mut id), MAXDYN_STATUS_INVALID_INERTIA, f, "inertia");
        }
        // zero axis and zero quaternions
        expect(
            maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, 0, 1, ORIGIN.as_ptr(), ABOVE.as_ptr(), ORIGIN.as_ptr(), &mut id),
            MAXDYN_STATUS_ZERO_AXIS,
            "maxdyn_builder_add_joint",
            "axis",
        );
        expect(maxdyn_builder_set_body_pose(b, 1, ORIGIN.as_ptr(), [0.0; 4].as_ptr()), MAXDYN_STATUS_ZERO_AXIS, "maxdyn_builder_set_body_pose", "q");
        expect(maxdyn_builder_set_joint_offset(b, 0, [0.0; 4].as_ptr()), MAXDYN_STATUS_ZERO_AXIS, "maxdyn_builder_set_joint_offset", "q_offset");
        // joint types outside the table
        for bad in [-1, 13, i32::MAX, i32::MIN] {
            expect(
                maxdyn_builder_add_joint(b, bad, 0, 1, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut id),
                MAXDYN_STATUS_INVALID_ENUM,
                "maxdyn_builder_add_joint",
                "joint_type",
            );
        }
        assert_eq!(id, -7, "out-pointer written on failure");
        assert!(same(&before, &builder_snapshot(b)), "builder changed by a failed call");

        // dt ≤ 0 or not finite
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        for dt in [0.0, -0.01, NAN, f64::INFINITY] {
            let mut s = null_mut();
            expect(maxdyn_sim_new(m, dt, &mut s), MAXDYN_STATUS_INVALID_TIME_STEP, "maxdyn_sim_new", "dt");
            assert!(s.is_null());
        }
        assert_eq!(l.live(), 2, "a failed sim_new created an object");
        maxdyn_model_free(m);
        maxdyn_builder_free(b);

        let (m, s) = pendulum_sim(0.01);
        let before = sim_snapshot(s);
        let mut state = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, 0, state.as_mut_ptr()));
        state[8] = NAN;
        expect(maxdyn_sim_set_body_state(s, 0, state.as_ptr()), MAXDYN_STATUS_NON_FINITE, "maxdyn_sim_set_body_state", "state");
        state[8] = 0.0;
        state[3..7].copy_from_slice(&[0.0; 4]);
        expect(maxdyn_sim_set_body_state(s, 0, state.as_ptr()), MAXDYN_STATUS_ZERO_AXIS, "maxdyn_sim_set_body_state", "state");
        expect(maxdyn_sim_set_joint_position(s, 0, [NAN].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, "maxdyn_sim_set_joint_position", "values");
        expect(maxdyn_sim_set_body_force(s, 0, [NAN; 3].as_ptr(), ORIGIN.as_ptr()), MAXDYN_STATUS_NON_FINITE, "maxdyn_sim_set_body_force", "force");
        let fo = "maxdyn_sim_set_solver_options";
        expect(maxdyn_sim_set_solver_options(s, NAN, 10, 1e-8), MAXDYN_STATUS_NON_FINITE, fo, "tolerance");
        expect(maxdyn_sim_set_solver_options(s, 1e-10, 10, f64::INFINITY), MAXDYN_STATUS_NON_FINITE, fo, "acceptance");
        expect(maxdyn_sim_set_solver_options(s, 0.0, 10, 1e-8), MAXDYN_STATUS_INVALID_ARGUMENT, fo, "tolerance");
        expect(maxdyn_sim_set_solver_options(s, 1e-10, -1, 1e-8), MAXDYN_STATUS_INVALID_ARGUMENT, fo, "max_iterations");
        expect(maxdyn_sim_set_solver_options(s, 1e-10, 0, 1e-8), MAXDYN_STATUS_INVALID_ARGUMENT, fo, "max_iterations");
        expect(maxdyn_sim_set_solver_options(s, 1e-10, 10, 1e-12), MAXDYN_STATUS_INVALID_ARGUMENT, fo, "acceptance");
        expect(maxdyn_sim_step_n(s, -1), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_step_n", "steps");
        assert!(same(&before, &sim_snapshot(s)), "sim changed by a failed call");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn wrong_array_lengths_are_rejected_before_anything_changes() {
    let l = lock();
    unsafe {
        let (m, s) = pendulum_sim(0.01);
        let before = sim_snapshot(s);
        let mut buf = [-1.0; 40];
        for n in [0usize, 2, 6] {
            expect(maxdyn_sim_get_joint_position(s, 0, buf.as_mut_ptr(), n), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_joint_position", "n");
            expect(maxdyn_sim_set_joint_position(s, 0, buf.as_ptr(), n), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_joint_position", "n");
            expect(maxdyn_sim_set_joint_velocity(s, 1, buf.as_ptr(), n), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_joint_velocity", "n");
        }
        for n in [0usize, 1, 3] {
            expect(maxdyn_sim_get_body_states(s, buf.as_mut_ptr(), n), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_body_states", "n_bodies");
            expect(maxdyn_sim_set_body_states(s, buf.as_ptr(), n), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_body_states", "n_bodies");
        }
        assert!(buf.iter().all(|v| *v == -1.0), "output written on failure");
        assert!(same(&before, &sim_snapshot(s)));

        // set_body_states is all or nothing: a bad second body leaves the first unchanged
        let mut states = [0.0; 26];
        ok(maxdyn_sim_get_body_states(s, states.as_mut_ptr(), 2));
        states[0] += 0.5;
        states[13 + 4] = NAN;
        let st = maxdyn_sim_set_body_states(s, states.as_ptr(), 2);
        assert_eq!(st, MAXDYN_STATUS_NON_FINITE);
        assert!(last_error().contains("body 1"), "{}", last_error());
        assert!(same(&before, &sim_snapshot(s)), "set_body_states changed the first body");
        states[13 + 4] = 0.0;
        ok(maxdyn_sim_set_body_states(s, states.as_ptr(), 2));
        let mut x0 = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, 0, x0.as_mut_ptr()));
        assert_eq!(x0[0], states[0]);
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

/// Issue 16: a length no array can have (SIZE_MAX) is refused before any slice is made
/// (a slice longer than isize::MAX bytes is undefined behaviour even unread; this test
/// runs in a debug build, where the standard library's precondition checks abort on it).
#[test]
fn lengths_no_array_can_have_are_refused_before_any_slice_is_made() {
    let l = lock();
    let huge = usize::MAX;
    unsafe {
        let (m, s) = pendulum_sim(0.01);
        let before = sim_snapshot(s);
        let mut buf = [-1.0; 16];
        let (p, pm) = (buf.as_ptr(), buf.as_mut_ptr());
        expect(maxdyn_sim_get_joint_position(s, 0, pm, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_joint_position", "n");
        expect(maxdyn_sim_get_joint_velocity(s, 0, pm, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_joint_velocity", "n");
        expect(maxdyn_sim_set_joint_position(s, 0, p, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_joint_position", "n");
        expect(maxdyn_sim_set_joint_velocity(s, 0, p, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_joint_velocity", "n");
        expect(maxdyn_sim_set_joint_input(s, 0, p, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_joint_input", "n");
        expect(maxdyn_sim_get_joint_input(s, 0, pm, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_joint_input", "n");
        expect(maxdyn_sim_get_body_states(s, pm, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_body_states", "n_bodies");
        expect(maxdyn_sim_set_body_states(s, p, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_body_states", "n_bodies");
        assert!(buf.iter().all(|v| *v == -1.0), "output written on failure");
        assert!(same(&before, &sim_snapshot(s)));

        let b = pendulum_builder();
        let snapshot = builder_snapshot(b);
        expect(maxdyn_builder_set_joint_spring(b, 0, p, p, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_builder_set_joint_spring", "n");
        expect(maxdyn_builder_set_joint_damper(b, 0, p, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_builder_set_joint_damper", "n");
        assert!(same(&snapshot, &builder_snapshot(b)));
        maxdyn_builder_free(b);

        let mut batch = null_mut();
        expect(maxdyn_batch_new(m, huge, 0.01, 1, &mut batch), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_batch_new", "n_sims");
        assert!(batch.is_null());
        ok(maxdyn_batch_new(m, 2, 0.01, 1, &mut batch));
        expect(maxdyn_batch_get_body_states(batch, pm, huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_batch_get_body_states", "n");
        let mut statuses = [MAXDYN_STATUS_OK; 2];
        expect(maxdyn_batch_step(batch, 1, None, null_mut(), statuses.as_mut_ptr(), huge), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_batch_step", "n_statuses");
        maxdyn_batch_free(batch);
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn each_failure_class_has_its_own_status_and_string() {
    let l = lock();
    let classes = [
        MAXDYN_STATUS_NULL_POINTER,
        MAXDYN_STATUS_UNKNOWN_BODY,
        MAXDYN_STATUS_UNKNOWN_JOINT,
        MAXDYN_STATUS_NON_FINITE,
        MAXDYN_STATUS_INVALID_MASS,
        MAXDYN_STATUS_INVALID_INERTIA,
        MAXDYN_STATUS_ZERO_AXIS,
        MAXDYN_STATUS_INVALID_TIME_STEP,
        MAXDYN_STATUS_INVALID_ENUM,
        MAXDYN_STATUS_WRONG_LENGTH,
    ];
    let codes: std::collections::BTreeSet<i32> = classes.iter().map(|s| *s as i32).collect();
    assert_eq!(codes.len(), classes.len());
    let mut strings = std::collections::BTreeSet::new();
    for s in maxdyn_status::ALL {
        let text = unsafe { CStr::from_ptr(maxdyn_status_string(s as i32)) }.to_str().unwrap();
        assert!(!text.is_empty());
        assert!(strings.insert(text), "duplicate status string {text:?}");
    }
    let unknown = unsafe { CStr::from_ptr(maxdyn_status_string(12345)) }.to_str().unwrap();
    assert_eq!(unknown, "unknown status code");
    // the last error message is never NULL, even on a thread where nothing failed yet
    std::thread::spawn(|| {
        assert!(!maxdyn_last_error_message().is_null());
        assert_eq!(last_error(), "");
    })
    .join()
    .unwrap();
    // an empty mechanism is not a model
    unsafe {
        let mut b = null_mut();
        ok(maxdyn_builder_new(&mut b));
        let mut m = null_mut();
        assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_INVALID_MODEL);
        assert!(m.is_null());
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn model_freed_before_its_sims_and_no_leaks() {
    let l = lock();
    unsafe {
        maxdyn_builder_free(null_mut());
        maxdyn_model_free(null_mut());
        maxdyn_sim_free(null_mut());
        assert_eq!(l.live(), 0);

        let b = pendulum_builder();
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        maxdyn_builder_free(b);
        let (mut s1, mut s2) = (null_mut(), null_mut());
        ok(maxdyn_sim_new(m, 0.01, &mut s1));
        ok(maxdyn_sim_new(m, 0.01, &mut s2));
        assert_eq!(l.live(), 3);
        maxdyn_model_free(m);
        assert_eq!(l.live(), 2);
        for s in [s1, s2] {
            ok(maxdyn_sim_set_joint_position(s, 0, [1.0].as_ptr(), 1));
            ok(maxdyn_sim_step_n(s, 50));
        }
        let (mut a, mut c) = ([0.0; 26], [0.0; 26]);
        ok(maxdyn_sim_get_body_states(s1, a.as_mut_ptr(), 2));
        ok(maxdyn_sim_get_body_states(s2, c.as_mut_ptr(), 2));
        assert!(same(&a, &c), "two sims of a freed model diverge");
        let mut t = 0.0;
        ok(maxdyn_sim_get_time(s1, &mut t));
        assert!((t - 0.5).abs() < 1e-12, "time {t}");
        maxdyn_sim_free(s1);
        maxdyn_sim_free(s2);

        // many objects of every kind, freed in a scrambled order
        let mut objects = Vec::new();
        for _ in 0..20 {
            let (m, s) = pendulum_sim(0.01);
            objects.push((m, s));
        }
        assert_eq!(l.live(), 40);
        for (k, (m, s)) in objects.into_iter().enumerate() {
            if k % 2 == 0 {
                maxdyn_model_free(m);
                maxdyn_sim_free(s);
            } else {
                maxdyn_sim_free(s);
                maxdyn_model_free(m);
            }
        }
    }
    assert_eq!(l.live(), 0);
}

struct Control {
    calls: u32,
    abort_at: u32,
    reentrant_status: Option<maxdyn_status>,
}

unsafe extern "C" fn control(sim: *mut maxdyn_sim, user_data: *mut c_void) -> c_int {
    let c = &mut *(user_data as *mut Control);
    c.calls += 1;
    if c.calls == 1 {
        c.reentrant_status = Some(maxdyn_sim_step(sim));
    }
    // a torque about the joint axis on the first link, set from inside the callback
    let st = maxdyn_sim_set_body_force(sim, 0, ORIGIN.as_ptr(), [0.2, 0.0, 0.0].as_ptr());
    if st != MAXDYN_STATUS_OK {
        return -2;
    }
    if c.calls == c.abort_at {
        return 7;
    }
    0
}

#[test]
fn control_callback_runs_before_each_step_and_can_abort() {
    let l = lock();
    unsafe {
        let (m, s) = pendulum_sim(0.01);
        let mut c = Control { calls: 0, abort_at: 4, reentrant_status: None };
        ok(maxdyn_sim_set_control_callback(s, Some(control), &mut c as *mut Control as *mut c_void));
        ok(maxdyn_sim_step_n(s, 3));
        assert_eq!(c.calls, 3);
        assert_eq!(c.reentrant_status, Some(MAXDYN_STATUS_REENTRANT_CALL));
        let before = sim_snapshot(s);
        let st = maxdyn_sim_step(s);
        expect_status(st, MAXDYN_STATUS_CALLBACK_ABORTED, "maxdyn_sim_step");
        assert!(last_error().contains("returned 7"), "{}", last_error());
        assert!(same(&before, &sim_snapshot(s)), "an aborted step changed the state");
        let mut n = 0;
        ok(maxdyn_sim_get_step_count(s, &mut n));
        assert_eq!(n, 3);

        // the torque set by the callback acts: the same run without it differs
        let (m2, s2) = pendulum_sim(0.01);
        ok(maxdyn_sim_step_n(s2, 3));
        let (mut a, mut b) = ([0.0; 26], [0.0; 26]);
        ok(maxdyn_sim_get_body_states(s, a.as_mut_ptr(), 2));
        ok(maxdyn_sim_get_body_states(s2, b.as_mut_ptr(), 2));
        let diff = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(diff > 1e-6, "callback torque had no effect ({diff:e})");

        // removing the callback
        ok(maxdyn_sim_set_control_callback(s, None, null_mut()));
        ok(maxdyn_sim_step(s));
        assert_eq!(c.calls, 4);
        for p in [s, s2] {
            maxdyn_sim_free(p);
        }
        maxdyn_model_free(m);
        maxdyn_model_free(m2);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn failed_step_keeps_the_last_good_state_and_fills_stats() {
    let l = lock();
    unsafe {
        let (m, s) = pendulum_sim(0.01);
        ok(maxdyn_sim_step_n(s, 10));
        // one Newton iteration at an unreachable tolerance cannot converge
        ok(maxdyn_sim_set_solver_options(s, 1e-300, 1, 1e-300));
        let before = sim_snapshot(s);
        let st = maxdyn_sim_step(s);
        expect_status(st, MAXDYN_STATUS_NOT_CONVERGED, "maxdyn_sim_step");
        let mut stats = maxdyn_step_stats::default();
        ok(maxdyn_sim_get_step_stats(s, &mut stats));
        assert_eq!(stats.iterations, 1);
        assert!(stats.residual > 1e-300 && stats.residual.is_finite(), "{stats:?}");
        let after = sim_snapshot(s);
        // the state (time and bodies) is that of the last good step; only options differ
        assert!(same(&before, &after));
        ok(maxdyn_sim_set_solver_options(s, 1e-10, 100, 1e-8));
        ok(maxdyn_sim_step(s));
        ok(maxdyn_sim_get_step_stats(s, &mut stats));
        assert!(stats.residual < 1e-10 && stats.iterations >= 1 && stats.stalled == 0, "{stats:?}");
        let mut v = 0.0;
        ok(maxdyn_sim_get_constraint_violation(s, &mut v));
        assert!(v < 1e-9, "violation {v:e}");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

/// A recorder writing to /dev/full (every write fails with ENOSPC), or None without it.
unsafe fn recorder_on_a_full_device(s: *const maxdyn_sim) -> Option<*mut maxdyn_recorder> {
    if !std::path::Path::new("/dev/full").exists() {
        println!("no /dev/full here: the failing writer is not tested");
        return None;
    }
    let mut rec = null_mut();
    // the header fits the write buffer: the open succeeds, a later frame's flush fails
    ok(maxdyn_sim_record_open(s, c"/dev/full".as_ptr(), &mut rec));
    Some(rec)
}

/// Issue 30 item 1: recording to a full device, frame #121 returned the I/O error and
/// #122 an internal error (a panic: the frame's arrays had been taken out and not put
/// back), poisoning the recorder. Now the failed write's status (INVALID_ARGUMENT naming
/// `recorder`, with the system's reason) comes back from every later frame and from the
/// close, nothing panics, and the close frees the recorder.
#[test]
fn a_recorder_keeps_its_write_error_and_closes() {
    let l = lock();
    unsafe {
        let (m, s) = pendulum_sim(0.01);
        let Some(rec) = recorder_on_a_full_device(s) else { return };
        let mut first_failure = None;
        for frame in 0..10_000 {
            ok(maxdyn_sim_step(s));
            let status = maxdyn_recorder_add_frame(rec, s);
            if status != MAXDYN_STATUS_OK {
                first_failure = Some(frame);
                expect(status, MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_recorder_add_frame", "recorder");
                assert!(last_error().contains("No space left on device"), "{}", last_error());
                break;
            }
        }
        println!("the first failed write: frame {first_failure:?}");
        assert!(first_failure.is_some(), "a full device never failed a write");
        for _ in 0..5 {
            ok(maxdyn_sim_step(s));
            expect(maxdyn_recorder_add_frame(rec, s), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_recorder_add_frame", "recorder");
            assert!(last_error().contains("failed earlier (No space left on device"), "{}", last_error());
        }
        expect(maxdyn_recorder_close(rec), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_recorder_close", "recorder");
        assert_eq!(l.live(), 2, "the recorder is freed: the model and the sim are left");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

/// Asserts a call was refused and its message names only parameters of its function.
#[track_caller]
fn refused(what: &str, status: maxdyn_status) {
    assert_ne!(status, MAXDYN_STATUS_OK, "{what} was not refused");
    assert_ne!(status, MAXDYN_STATUS_INTERNAL, "{what}: {}", last_error());
    let msg = last_error();
    let foreign = capi_helpers::foreign_arguments(&msg);
    assert!(foreign.is_empty(), "{what}: {msg:?} names {foreign:?}, which its function does not have");
}

/// A batch callback that steps its own sim: the message is checked inside, where it is
/// the last error of this thread.
unsafe extern "C" fn step_in_callback(sim: *mut maxdyn_sim, _index: usize, _user: *mut c_void) -> c_int {
    refused("stepping a batch's sim from its callback", maxdyn_sim_step(sim));
    0
}

/// Issue 30 item 6: messages named parameters their function does not have (`values` for
/// h = 1000 in `maxdyn_sim_linearize_differences`, `path` for a failed write in
/// `maxdyn_recorder_add_frame`). Every refusal of the calls issue 30 touched, table-driven:
/// its message names only parameters of its function as the header declares them (the
/// C-API fuzzer checks the same on every failing call it makes).
#[test]
fn messages_name_only_parameters_of_their_function() {
    let l = lock();
    unsafe {
        let (m, s) = pendulum_sim(0.01);
        let (mut a, mut b) = ([0.0; 16], [0.0; 8]);
        let (pa, pb) = (a.as_mut_ptr(), b.as_mut_ptr());
        let min = MAXDYN_COORDS_MINIMAL;
        for h in [1000.0, 1.5, 1e-20, 0.0, -1.0, NAN, f64::INFINITY] {
            refused(&format!("linearize_differences h = {h}"), maxdyn_sim_linearize_differences(s, min, h, pa, pb));
        }
        refused("linearize_differences coords", maxdyn_sim_linearize_differences(s, 9, 1e-6, pa, pb));
        // a rate the step of h cannot move (the setter's own refusal names `values`)
        ok(maxdyn_sim_set_joint_velocity(s, 0, [314.0].as_ptr(), 1));
        refused("linearize_differences, a rate h cannot move", maxdyn_sim_linearize_differences(s, min, 0.5, pa, pb));
        ok(maxdyn_sim_set_joint_velocity(s, 0, [0.0].as_ptr(), 1));
        refused("deepest penetration", maxdyn_sim_get_deepest_penetration(s, null_mut()));
        refused("record to a missing directory", maxdyn_sim_record_open(s, c"/nonexistent-dir/r.json".as_ptr(), &mut null_mut()));
        for xml in [c"<robot name='r'><link name=''/></robot>", c"<robot name='r'><link name='a'/><joint name=' ' type='fixed'><parent link='a'/><child link='b'/></joint></robot>"] {
            refused("URDF with an empty name", maxdyn_builder_from_urdf_string(xml.as_ptr(), 0, &mut null_mut()));
        }
        let (om, os) = pendulum_sim(0.01);
        if let Some(rec) = recorder_on_a_full_device(s) {
            refused("a frame of another model", maxdyn_recorder_add_frame(rec, os));
            let mut status = MAXDYN_STATUS_OK;
            while status == MAXDYN_STATUS_OK {
                status = maxdyn_recorder_add_frame(rec, s);
            }
            refused("a failed write", status);
            refused("a frame after a failed write", maxdyn_recorder_add_frame(rec, s));
            refused("closing after a failed write", maxdyn_recorder_close(rec));
        }
        let mut batch = null_mut();
        ok(maxdyn_batch_new(m, 2, 0.01, 1, &mut batch));
        ok(maxdyn_batch_step(batch, 1, Some(step_in_callback), null_mut(), null_mut(), 0));
        maxdyn_batch_free(batch);
        maxdyn_sim_free(os);
        maxdyn_model_free(om);
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}
