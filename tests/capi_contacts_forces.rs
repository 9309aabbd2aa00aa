//! Contacts, force elements, inputs and names through the C ABI: every failure class
//! returns its own status and a message naming the argument, writes no out-pointer and
//! leaves the object unchanged (checked by stepping it beside an untouched twin); the
//! C layer adds nothing to the physics (bit-for-bit the Rust trajectory); the numbers a
//! C caller reads (contact forces, stats, energy account, spring energy) are right.
//!
//! The live-object count is global to the process, so the tests of this file run one at
//! a time (LOCK) and each ends with its objects freed.

use std::ffi::{c_int, c_void, CString};
use std::ptr::{null, null_mut};
use std::sync::Arc;

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, lock, ok};

const G: f64 = 9.81;
const NAN: f64 = f64::NAN;
const ORIGIN: [f64; 3] = [0.0; 3];
const X: [f64; 3] = [1.0, 0.0, 0.0];
const UP: [f64; 3] = [0.0, 0.0, 1.0];
/// Box(0.5, 0.5, 0.5, 1): J = m a²/6 on the diagonal.
const CUBE: [f64; 9] = [1.0 / 24.0, 0.0, 0.0, 0.0, 1.0 / 24.0, 0.0, 0.0, 0.0, 1.0 / 24.0];
/// Box(0.1, 0.1, 1, 1): a 1 m rod.
const ROD: [f64; 9] = [1.01 / 12.0, 0.0, 0.0, 0.0, 1.01 / 12.0, 0.0, 0.0, 0.0, 0.02 / 12.0];




fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn corners() -> Vec<[f64; 3]> {
    let mut v = Vec::new();
    for sx in [-0.25, 0.25] {
        for sy in [-0.25, 0.25] {
            for sz in [-0.25, 0.25] {
                v.push([sx, sy, sz]);
            }
        }
    }
    v
}

/// SCENARIOS A4 through C: Box(0.5, 0.5, 0.5, 1), 8 corner ground contacts μ = 0.3,
/// bottom `lift` above the ground, plus a second (free) box for sphere contacts.
unsafe fn box_builder(lift: f64) -> *mut maxdyn_builder {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut body, mut other, mut c) = (-1, -1, -1);
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut body));
    ok(maxdyn_builder_set_body_pose(b, body, [0.0, 0.0, 0.25 + lift].as_ptr(), [1.0, 0.0, 0.0, 0.0].as_ptr()));
    for p in corners() {
        ok(maxdyn_builder_add_ground_contact(b, body, p.as_ptr(), 0.0, 0.3, &mut c));
    }
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut other));
    ok(maxdyn_builder_set_body_pose(b, other, [3.0, 0.0, 0.25].as_ptr(), [1.0, 0.0, 0.0, 0.0].as_ptr()));
    ok(maxdyn_builder_add_ground_contact(b, other, [0.0, 0.0, 0.0].as_ptr(), 0.25, 0.5, &mut c));
    b
}

unsafe fn sim_of(b: *const maxdyn_builder, dt: f64) -> *mut maxdyn_sim {
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    let mut s = null_mut();
    ok(maxdyn_sim_new(m, dt, &mut s));
    maxdyn_model_free(m);
    s
}

/// Body states and contact states of a sim, after `steps` more steps.
unsafe fn trajectory(s: *mut maxdyn_sim, steps: usize) -> Vec<f64> {
    for _ in 0..steps {
        ok(maxdyn_sim_step(s));
    }
    let mut out = Vec::new();
    let mut st = [0.0; 13];
    let mut k = 0;
    while maxdyn_sim_get_body_state(s, k, st.as_mut_ptr()) == MAXDYN_STATUS_OK {
        out.extend(st);
        k += 1;
    }
    let mut c = [0.0; MAXDYN_CONTACT_SIZE];
    k = 0;
    while maxdyn_sim_get_contact(s, k, c.as_mut_ptr()) == MAXDYN_STATUS_OK {
        out.extend(c);
        k += 1;
    }
    let (mut w, mut d, mut kin, mut pot) = (0.0, 0.0, 0.0, 0.0);
    ok(maxdyn_sim_get_energy_account(s, &mut w, &mut d));
    ok(maxdyn_sim_get_energy(s, &mut kin, &mut pot));
    let mut tol = 0.0;
    ok(maxdyn_sim_get_contact_tolerance(s, &mut tol));
    out.extend([w, d, kin, pot, tol]);
    out
}

/// Everything observable about a builder: counts, cones, and the trajectory of a sim
/// made from it.
unsafe fn builder_snapshot(b: *const maxdyn_builder) -> Vec<f64> {
    let (mut nb, mut nj, mut nc, mut ns) = (0, 0, 0, 0);
    ok(maxdyn_builder_get_body_count(b, &mut nb));
    ok(maxdyn_builder_get_joint_count(b, &mut nj));
    ok(maxdyn_builder_get_contact_count(b, &mut nc));
    ok(maxdyn_builder_get_spring_count(b, &mut ns));
    let mut snap = vec![nb as f64, nj as f64, nc as f64, ns as f64];
    for c in 0..nc {
        let (mut t, mut d) = (-1, -1);
        ok(maxdyn_builder_get_contact_cone(b, c, &mut t, &mut d));
        snap.extend([t as f64, d as f64]);
    }
    let s = sim_of(b, 0.01);
    for j in 0..nj {
        let mut dof = 0;
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        ok(maxdyn_model_get_joint_dof(m, j, &mut dof));
        maxdyn_model_free(m);
        if dof == 1 {
            ok(maxdyn_sim_set_joint_position(s, j, [0.3 + j as f64].as_ptr(), 1));
        }
    }
    snap.extend(trajectory(s, 30));
    maxdyn_sim_free(s);
    snap
}

#[test]
fn contact_failures_name_the_argument_and_change_nothing() {
    let l = lock();
    unsafe {
        let b = box_builder(0.2);
        let before = builder_snapshot(b);
        let p = ORIGIN.as_ptr();
        let mut id = -7;
        let f = "maxdyn_builder_add_plane_contact";
        let plane = |b, body, p: *const f64, r, n: *const f64, off, mu, out: *mut i32| maxdyn_builder_add_plane_contact(b, body, p, r, n, off, mu, out);
        expect(plane(null_mut(), 0, p, 0.0, UP.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "builder");
        expect(plane(b, 0, null(), 0.0, UP.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "p");
        expect(plane(b, 0, p, 0.0, null(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "normal");
        expect(plane(b, 0, p, 0.0, UP.as_ptr(), 0.0, 0.3, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out_contact");
        for body in [2, -1, i32::MIN] {
            expect(plane(b, body, p, 0.0, UP.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        }
        expect(plane(b, 0, [0.0, NAN, 0.0].as_ptr(), 0.0, UP.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NON_FINITE, f, "p");
        expect(plane(b, 0, p, NAN, UP.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NON_FINITE, f, "radius");
        expect(plane(b, 0, p, 0.0, [f64::INFINITY, 0.0, 1.0].as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NON_FINITE, f, "normal");
        expect(plane(b, 0, p, 0.0, UP.as_ptr(), NAN, 0.3, &mut id), MAXDYN_STATUS_NON_FINITE, f, "offset");
        expect(plane(b, 0, p, 0.0, UP.as_ptr(), 0.0, NAN, &mut id), MAXDYN_STATUS_NON_FINITE, f, "friction");
        expect(plane(b, 0, p, -0.1, UP.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "radius");
        expect(plane(b, 0, p, 0.0, UP.as_ptr(), 0.0, -0.3, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "friction");
        expect(plane(b, 0, p, 0.0, ORIGIN.as_ptr(), 0.0, 0.3, &mut id), MAXDYN_STATUS_ZERO_AXIS, f, "normal");

        let f = "maxdyn_builder_add_ground_contact";
        expect(maxdyn_builder_add_ground_contact(b, 0, null(), 0.0, 0.3, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "p");
        expect(maxdyn_builder_add_ground_contact(b, 0, p, 0.0, 0.3, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out_contact");
        expect(maxdyn_builder_add_ground_contact(b, 9, p, 0.0, 0.3, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        expect(maxdyn_builder_add_ground_contact(b, 0, p, -1.0, 0.3, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "radius");
        expect(maxdyn_builder_add_ground_contact(b, 0, p, 0.0, -0.01, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "friction");
        expect(maxdyn_builder_add_ground_contact(b, 0, p, 0.0, f64::INFINITY, &mut id), MAXDYN_STATUS_NON_FINITE, f, "friction");

        let f = "maxdyn_builder_add_sphere_contact";
        let sph = |b, ba, pa: *const f64, ra, bb, pb: *const f64, rb, mu, out: *mut i32| maxdyn_builder_add_sphere_contact(b, ba, pa, ra, bb, pb, rb, mu, out);
        expect(sph(b, 0, null(), 0.1, 1, p, 0.1, 0.3, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "pa");
        expect(sph(b, 0, p, 0.1, 1, null(), 0.1, 0.3, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "pb");
        expect(sph(b, 0, p, 0.1, 1, p, 0.1, 0.3, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out_contact");
        expect(sph(b, -1, p, 0.1, 1, p, 0.1, 0.3, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body_a");
        expect(sph(b, 0, p, 0.1, 2, p, 0.1, 0.3, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body_b");
        expect(sph(b, 0, p, 0.1, MAXDYN_WORLD, p, 0.1, 0.3, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body_b");
        expect(sph(b, 1, p, 0.1, 1, p, 0.1, 0.3, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "body_b");
        expect(sph(b, 0, p, -0.1, 1, p, 0.1, 0.3, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "ra");
        expect(sph(b, 0, p, 0.1, 1, p, -0.1, 0.3, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "rb");
        expect(sph(b, 0, p, 0.1, 1, p, NAN, 0.3, &mut id), MAXDYN_STATUS_NON_FINITE, f, "rb");
        expect(sph(b, 0, p, 0.1, 1, [NAN; 3].as_ptr(), 0.1, 0.3, &mut id), MAXDYN_STATUS_NON_FINITE, f, "pb");
        expect(sph(b, 0, p, 0.1, 1, p, 0.1, -2.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "friction");
        assert_eq!(id, -7, "a failed call wrote its out-pointer");

        let f = "maxdyn_builder_set_contact_cone";
        expect(maxdyn_builder_set_contact_cone(null_mut(), 0, MAXDYN_CONE_LINEAR, 4), MAXDYN_STATUS_NULL_POINTER, f, "builder");
        for c in [9, -1] {
            expect(maxdyn_builder_set_contact_cone(b, c, MAXDYN_CONE_NONLINEAR, 0), MAXDYN_STATUS_UNKNOWN_CONTACT, f, "contact");
        }
        for cone in [2, -1, 99] {
            expect(maxdyn_builder_set_contact_cone(b, 0, cone, 4), MAXDYN_STATUS_INVALID_ENUM, f, "cone_type");
        }
        for dirs in [3, 0, 18, -2, 1] {
            expect(maxdyn_builder_set_contact_cone(b, 0, MAXDYN_CONE_LINEAR, dirs), MAXDYN_STATUS_INVALID_ARGUMENT, f, "directions");
        }
        expect(maxdyn_builder_set_contact_cone(b, 0, MAXDYN_CONE_NONLINEAR, -1), MAXDYN_STATUS_INVALID_ARGUMENT, f, "directions");
        let f = "maxdyn_builder_get_contact_cone";
        let (mut t, mut d) = (-7, -7);
        expect(maxdyn_builder_get_contact_cone(b, 9, &mut t, &mut d), MAXDYN_STATUS_UNKNOWN_CONTACT, f, "contact");
        expect(maxdyn_builder_get_contact_cone(b, 0, null_mut(), &mut d), MAXDYN_STATUS_NULL_POINTER, f, "cone_type");
        expect(maxdyn_builder_get_contact_cone(b, 0, &mut t, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "directions");
        assert_eq!((t, d), (-7, -7));
        expect(maxdyn_builder_get_contact_count(b, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_get_contact_count", "out");

        assert!(same(&builder_snapshot(b), &before), "a failed contact call changed the builder");

        // the sim side, beside an untouched twin
        let s = sim_of(b, 0.01);
        let twin = sim_of(b, 0.01);
        let mut out = [-7.0; 5];
        let f = "maxdyn_sim_get_contact";
        expect(maxdyn_sim_get_contact(s, 9, out.as_mut_ptr()), MAXDYN_STATUS_UNKNOWN_CONTACT, f, "contact");
        expect(maxdyn_sim_get_contact(s, -1, out.as_mut_ptr()), MAXDYN_STATUS_UNKNOWN_CONTACT, f, "contact");
        expect(maxdyn_sim_get_contact(s, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out");
        expect(maxdyn_sim_get_contact(null(), 0, out.as_mut_ptr()), MAXDYN_STATUS_NULL_POINTER, f, "sim");
        assert!(out.iter().all(|&x| x == -7.0));
        let f = "maxdyn_sim_set_contact_tolerance";
        expect(maxdyn_sim_set_contact_tolerance(s, NAN), MAXDYN_STATUS_NON_FINITE, f, "tolerance");
        expect(maxdyn_sim_set_contact_tolerance(s, f64::INFINITY), MAXDYN_STATUS_NON_FINITE, f, "tolerance");
        expect(maxdyn_sim_set_contact_tolerance(s, 0.0), MAXDYN_STATUS_INVALID_ARGUMENT, f, "tolerance");
        expect(maxdyn_sim_set_contact_tolerance(s, -1e-8), MAXDYN_STATUS_INVALID_ARGUMENT, f, "tolerance");
        expect(maxdyn_sim_get_contact_tolerance(s, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_contact_tolerance", "out");
        let f = "maxdyn_sim_set_contact_margin";
        expect(maxdyn_sim_set_contact_margin(s, NAN), MAXDYN_STATUS_NON_FINITE, f, "margin");
        expect(maxdyn_sim_set_contact_margin(s, f64::NEG_INFINITY), MAXDYN_STATUS_NON_FINITE, f, "margin");
        expect(maxdyn_sim_set_contact_margin(s, -0.01), MAXDYN_STATUS_INVALID_ARGUMENT, f, "margin");
        expect(maxdyn_sim_set_contact_margin(null_mut(), 0.1), MAXDYN_STATUS_NULL_POINTER, f, "sim");
        expect(maxdyn_sim_get_contact_margin(s, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_contact_margin", "out");
        let mut nc = -7;
        expect(maxdyn_model_get_contact_count(null(), &mut nc), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_contact_count", "model");
        assert!(same(&trajectory(s, 60), &trajectory(twin, 60)), "a failed call changed the sim");

        maxdyn_sim_free(s);
        maxdyn_sim_free(twin);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// A pendulum of two rods (revolute about x, like SCENARIOS A2) plus a third body
/// welded to the second by a fixed joint (a joint without free directions).
unsafe fn rod_builder() -> *mut maxdyn_builder {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut b1, mut b2, mut b3, mut j) = (-1, -1, -1, -1);
    ok(maxdyn_builder_add_body(b, 1.0, ROD.as_ptr(), &mut b1));
    ok(maxdyn_builder_add_body(b, 1.0, ROD.as_ptr(), &mut b2));
    ok(maxdyn_builder_add_body(b, 0.5, ROD.as_ptr(), &mut b3));
    let top = [0.0, 0.0, 0.5];
    let bottom = [0.0, 0.0, -0.5];
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, b1, ORIGIN.as_ptr(), top.as_ptr(), X.as_ptr(), &mut j));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, b1, b2, bottom.as_ptr(), top.as_ptr(), X.as_ptr(), &mut j));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_FIXED, b2, b3, bottom.as_ptr(), top.as_ptr(), X.as_ptr(), &mut j));
    ok(maxdyn_builder_set_joint_spring(b, 0, [3.0].as_ptr(), [0.1].as_ptr(), 1));
    ok(maxdyn_builder_set_joint_damper(b, 1, [0.2].as_ptr(), 1));
    ok(maxdyn_builder_add_spring(b, MAXDYN_WORLD, [0.0, 1.0, 0.0].as_ptr(), b3, ORIGIN.as_ptr(), 5.0, 0.5, 0.3, &mut j));
    b
}

#[test]
fn force_failures_name_the_argument_and_change_nothing() {
    let l = lock();
    unsafe {
        let b = rod_builder();
        let before = builder_snapshot(b);
        let (one, two) = ([1.0], [1.0, 2.0]);
        let f = "maxdyn_builder_set_joint_spring";
        expect(maxdyn_builder_set_joint_spring(null_mut(), 0, one.as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, f, "builder");
        expect(maxdyn_builder_set_joint_spring(b, 0, null(), one.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, f, "stiffness");
        expect(maxdyn_builder_set_joint_spring(b, 0, one.as_ptr(), null(), 1), MAXDYN_STATUS_NULL_POINTER, f, "rest");
        expect(maxdyn_builder_set_joint_spring(b, 3, one.as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, f, "joint");
        expect(maxdyn_builder_set_joint_spring(b, -1, one.as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, f, "joint");
        expect(maxdyn_builder_set_joint_spring(b, 0, two.as_ptr(), two.as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_builder_set_joint_spring(b, 0, null(), null(), 0), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_builder_set_joint_spring(b, 0, [NAN].as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, f, "stiffness");
        expect(maxdyn_builder_set_joint_spring(b, 0, one.as_ptr(), [f64::NEG_INFINITY].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, f, "rest");
        expect(maxdyn_builder_set_joint_spring(b, 0, [-1.0].as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_INVALID_ARGUMENT, f, "stiffness");
        expect(maxdyn_builder_set_joint_spring(b, 2, null(), null(), 0), MAXDYN_STATUS_INVALID_ARGUMENT, f, "joint");

        let f = "maxdyn_builder_set_joint_damper";
        expect(maxdyn_builder_set_joint_damper(b, 1, null(), 1), MAXDYN_STATUS_NULL_POINTER, f, "damping");
        expect(maxdyn_builder_set_joint_damper(b, 7, one.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, f, "joint");
        expect(maxdyn_builder_set_joint_damper(b, 1, two.as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_builder_set_joint_damper(b, 1, [NAN].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, f, "damping");
        expect(maxdyn_builder_set_joint_damper(b, 1, [-0.5].as_ptr(), 1), MAXDYN_STATUS_INVALID_ARGUMENT, f, "damping");
        expect(maxdyn_builder_set_joint_damper(b, 2, null(), 0), MAXDYN_STATUS_INVALID_ARGUMENT, f, "joint");

        let f = "maxdyn_builder_add_spring";
        let p = ORIGIN.as_ptr();
        let mut id = -7;
        let spring = |b, ba, pa: *const f64, bb, pb: *const f64, k, c, r, out: *mut i32| maxdyn_builder_add_spring(b, ba, pa, bb, pb, k, c, r, out);
        expect(spring(null_mut(), 0, p, 1, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "builder");
        expect(spring(b, 0, null(), 1, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "pa");
        expect(spring(b, 0, p, 1, null(), 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "pb");
        expect(spring(b, 0, p, 1, p, 1.0, 0.0, 0.0, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out_spring");
        expect(spring(b, 3, p, 1, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body_a");
        expect(spring(b, -2, p, 1, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body_a");
        expect(spring(b, 0, p, MAXDYN_WORLD, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body_b");
        expect(spring(b, 1, p, 1, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "body_b");
        expect(spring(b, 0, [NAN; 3].as_ptr(), 1, p, 1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_NON_FINITE, f, "pa");
        expect(spring(b, 0, p, 1, p, NAN, 0.0, 0.0, &mut id), MAXDYN_STATUS_NON_FINITE, f, "stiffness");
        expect(spring(b, 0, p, 1, p, 1.0, NAN, 0.0, &mut id), MAXDYN_STATUS_NON_FINITE, f, "damping");
        expect(spring(b, 0, p, 1, p, 1.0, 0.0, NAN, &mut id), MAXDYN_STATUS_NON_FINITE, f, "rest_length");
        expect(spring(b, 0, p, 1, p, -1.0, 0.0, 0.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "stiffness");
        expect(spring(b, 0, p, 1, p, 1.0, -0.1, 0.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "damping");
        expect(spring(b, 0, p, 1, p, 1.0, 0.0, -0.2, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "rest_length");
        assert_eq!(id, -7);
        expect(maxdyn_builder_get_spring_count(b, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_get_spring_count", "out");
        assert!(same(&builder_snapshot(b), &before), "a failed force-element call changed the builder");

        // inputs on the sim, beside an untouched twin that gets the same successful calls
        let s = sim_of(b, 0.01);
        let twin = sim_of(b, 0.01);
        for sim in [s, twin] {
            ok(maxdyn_sim_set_joint_input(sim, 0, [0.7].as_ptr(), 1));
            ok(maxdyn_sim_set_body_wrench(sim, 2, [0.0, 1.0, 0.0].as_ptr(), [0.1, 0.0, 0.0].as_ptr(), [0.0, 0.0, -0.5].as_ptr()));
            ok(maxdyn_sim_set_joint_target(sim, 0, [0.3].as_ptr(), [0.0].as_ptr(), 1));
        }
        let f = "maxdyn_sim_set_joint_target";
        expect(maxdyn_sim_set_joint_target(null_mut(), 0, one.as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, f, "sim");
        expect(maxdyn_sim_set_joint_target(s, 0, null(), one.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, f, "position");
        expect(maxdyn_sim_set_joint_target(s, 0, one.as_ptr(), null(), 1), MAXDYN_STATUS_NULL_POINTER, f, "velocity");
        expect(maxdyn_sim_set_joint_target(s, 3, one.as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, f, "joint");
        expect(maxdyn_sim_set_joint_target(s, 0, two.as_ptr(), two.as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_sim_set_joint_target(s, 0, [NAN].as_ptr(), one.as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, f, "position");
        expect(maxdyn_sim_set_joint_target(s, 0, one.as_ptr(), [f64::INFINITY].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, f, "velocity");
        // the welded joint has neither a spring nor a damper for a target to move; joint 0
        // has no damper to pull toward a rate, joint 1 no spring to pull toward a position
        expect(maxdyn_sim_set_joint_target(s, 2, null(), null(), 0), MAXDYN_STATUS_INVALID_ARGUMENT, f, "joint");
        expect(maxdyn_sim_set_joint_target(s, 0, one.as_ptr(), [0.1].as_ptr(), 1), MAXDYN_STATUS_INVALID_ARGUMENT, f, "velocity");
        expect(maxdyn_sim_set_joint_target(s, 1, [0.2].as_ptr(), [0.0].as_ptr(), 1), MAXDYN_STATUS_INVALID_ARGUMENT, f, "position");
        let f = "maxdyn_sim_get_joint_target";
        let (mut tp, mut tv) = ([-7.0], [-7.0]);
        expect(maxdyn_sim_get_joint_target(s, 0, null_mut(), tv.as_mut_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, f, "position");
        expect(maxdyn_sim_get_joint_target(s, 0, tp.as_mut_ptr(), null_mut(), 1), MAXDYN_STATUS_NULL_POINTER, f, "velocity");
        expect(maxdyn_sim_get_joint_target(s, 0, tp.as_mut_ptr(), tv.as_mut_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        assert_eq!((tp, tv), ([-7.0], [-7.0]), "a failed get wrote nothing");
        ok(maxdyn_sim_get_joint_target(s, 0, tp.as_mut_ptr(), tv.as_mut_ptr(), 1));
        assert_eq!((tp, tv), ([0.3], [0.0]), "the target set before the failures");
        let f = "maxdyn_sim_set_joint_input";
        expect(maxdyn_sim_set_joint_input(null_mut(), 0, one.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, f, "sim");
        expect(maxdyn_sim_set_joint_input(s, 0, null(), 1), MAXDYN_STATUS_NULL_POINTER, f, "u");
        expect(maxdyn_sim_set_joint_input(s, 3, one.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, f, "joint");
        expect(maxdyn_sim_set_joint_input(s, 0, two.as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_sim_set_joint_input(s, 0, null(), 0), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_sim_set_joint_input(s, 2, one.as_ptr(), 1), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_sim_set_joint_input(s, 0, [NAN].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, f, "u");
        let f = "maxdyn_sim_get_joint_input";
        let mut u = [-7.0; 2];
        expect(maxdyn_sim_get_joint_input(s, 0, u.as_mut_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, f, "n");
        expect(maxdyn_sim_get_joint_input(s, 0, null_mut(), 1), MAXDYN_STATUS_NULL_POINTER, f, "u");
        expect(maxdyn_sim_get_joint_input(s, 5, u.as_mut_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, f, "joint");
        assert_eq!(u, [-7.0; 2]);
        let f = "maxdyn_sim_set_body_wrench";
        let v = [0.0, 0.0, 1.0];
        expect(maxdyn_sim_set_body_wrench(s, 0, null(), v.as_ptr(), v.as_ptr()), MAXDYN_STATUS_NULL_POINTER, f, "force");
        expect(maxdyn_sim_set_body_wrench(s, 0, v.as_ptr(), null(), v.as_ptr()), MAXDYN_STATUS_NULL_POINTER, f, "torque");
        expect(maxdyn_sim_set_body_wrench(s, 0, v.as_ptr(), v.as_ptr(), null()), MAXDYN_STATUS_NULL_POINTER, f, "point");
        expect(maxdyn_sim_set_body_wrench(s, 3, v.as_ptr(), v.as_ptr(), v.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        expect(maxdyn_sim_set_body_wrench(s, MAXDYN_WORLD, v.as_ptr(), v.as_ptr(), v.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        expect(maxdyn_sim_set_body_wrench(s, 2, [NAN; 3].as_ptr(), v.as_ptr(), v.as_ptr()), MAXDYN_STATUS_NON_FINITE, f, "force");
        expect(maxdyn_sim_set_body_wrench(s, 2, v.as_ptr(), [NAN; 3].as_ptr(), v.as_ptr()), MAXDYN_STATUS_NON_FINITE, f, "torque");
        expect(maxdyn_sim_set_body_wrench(s, 2, v.as_ptr(), v.as_ptr(), [0.0, f64::INFINITY, 0.0].as_ptr()), MAXDYN_STATUS_NON_FINITE, f, "point");
        let f = "maxdyn_sim_get_energy_account";
        let (mut w, mut d) = (-7.0, -7.0);
        expect(maxdyn_sim_get_energy_account(s, null_mut(), &mut d), MAXDYN_STATUS_NULL_POINTER, f, "input_work");
        expect(maxdyn_sim_get_energy_account(s, &mut w, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "dissipation");
        assert_eq!((w, d), (-7.0, -7.0));
        expect(maxdyn_sim_reset_energy_account(null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_reset_energy_account", "sim");
        expect(maxdyn_sim_clear_inputs(null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_clear_inputs", "sim");
        expect(maxdyn_sim_get_spring_energy(s, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_spring_energy", "out");
        let mut got = [0.0];
        ok(maxdyn_sim_get_joint_input(s, 0, got.as_mut_ptr(), 1));
        assert_eq!(got, [0.7], "the input set before the failures");
        assert!(same(&trajectory(s, 60), &trajectory(twin, 60)), "a failed call changed the sim");
        // clearing the inputs changes the motion; the twin keeps them
        ok(maxdyn_sim_clear_inputs(s));
        ok(maxdyn_sim_get_joint_input(s, 0, got.as_mut_ptr(), 1));
        assert_eq!(got, [0.0]);
        ok(maxdyn_sim_get_joint_target(s, 0, tp.as_mut_ptr(), tv.as_mut_ptr(), 1));
        assert_eq!((tp, tv), ([0.1], [0.0]), "the model's rest and a zero rate");
        assert!(!same(&trajectory(s, 10), &trajectory(twin, 10)));

        maxdyn_sim_free(s);
        maxdyn_sim_free(twin);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// The C box drop is the Rust box drop bit for bit, and reads the numbers of
/// SCENARIOS A4: no penetration, resting on the 4 bottom corners carrying m g.
#[test]
fn box_drop_through_c_matches_rust_and_rests_on_four_corners() {
    let l = lock();
    unsafe {
        let b = box_builder(1.0);
        let mut nc = 0;
        ok(maxdyn_builder_get_contact_count(b, &mut nc));
        assert_eq!(nc, 9);
        let (mut t, mut d) = (-1, -1);
        ok(maxdyn_builder_get_contact_cone(b, 8, &mut t, &mut d));
        assert_eq!((t, d), (MAXDYN_CONE_LINEAR, 4), "default cone");
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        ok(maxdyn_model_get_contact_count(m, &mut nc));
        assert_eq!(nc, 9);
        let mut s = null_mut();
        ok(maxdyn_sim_new(m, 0.01, &mut s));
        maxdyn_model_free(m);
        let mut tol = 0.0;
        ok(maxdyn_sim_get_contact_tolerance(s, &mut tol));
        assert_eq!(tol, 1e-8, "default contact tolerance");

        // the same through Rust
        let mut rb = maxdyn::Builder::new();
        let body = rb.add_body(1.0, maxdyn::Inertia::from_rows(CUBE).unwrap()).unwrap();
        rb.set_body_pose(body, [0.0, 0.0, 1.25], [1.0, 0.0, 0.0, 0.0]).unwrap();
        for p in corners() {
            rb.add_ground_contact(body, p, 0.0, 0.3).unwrap();
        }
        let other = rb.add_body(1.0, maxdyn::Inertia::from_rows(CUBE).unwrap()).unwrap();
        rb.set_body_pose(other, [3.0, 0.0, 0.25], [1.0, 0.0, 0.0, 0.0]).unwrap();
        rb.add_ground_contact(other, [0.0; 3], 0.25, 0.5).unwrap();
        let mut rs = maxdyn::Sim::new(Arc::new(maxdyn::Model::new(&rb).unwrap()), 0.01).unwrap();

        let mut worst_pen: f64 = 0.0;
        let mut c = [0.0; 5];
        for _ in 0..100 {
            ok(maxdyn_sim_step(s));
            rs.step().unwrap();
            for k in 0..8 {
                ok(maxdyn_sim_get_contact(s, k, c.as_mut_ptr()));
                assert!(same(&c, &rs.contact(k as usize).unwrap().to_array()), "contact {k}: C {c:?} vs Rust");
                worst_pen = worst_pen.max(-c[0]);
            }
        }
        let mut st = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, 0, st.as_mut_ptr()));
        assert!(same(&st, &rs.body_state(0).unwrap()), "C and Rust states differ");
        let mut stats = maxdyn_step_stats::default();
        ok(maxdyn_sim_get_step_stats(s, &mut stats));
        let speed = (st[7] * st[7] + st[8] * st[8] + st[9] * st[9]).sqrt();
        let (mut normal, mut friction, mut bottom) = (0.0, 0.0_f64, f64::INFINITY);
        for k in 0..8 {
            ok(maxdyn_sim_get_contact(s, k, c.as_mut_ptr()));
            normal += c[1];
            friction = friction.max((c[2] * c[2] + c[3] * c[3] + c[4] * c[4]).sqrt());
            bottom = bottom.min(c[0]);
        }
        println!(
            "C box drop, 1 s: worst penetration {worst_pen:.2e} m, rest gap {bottom:.2e} m, speed {speed:.1e} m/s, \
             Σγ = {normal:.15} N, max |friction| {friction:.1e} N, stats {stats:?}"
        );
        // the scenario's bars are 1e-4 m, 1e-3 m and 1e-6 (m/s, N); measured: no
        // penetration (bound: round-off), rest gap 3.2e-15 m, speed 1.2e-15 m/s, Σγ to
        // 6.2e-14 N, friction 4.2e-14 N, complementarity 1.0e-9 (the tolerance 1e-8)
        assert!(worst_pen <= 1e-15 && bottom.abs() <= 3e-14, "{worst_pen:e} {bottom:e}");
        assert!(speed < 1.5e-14, "{speed:e}");
        assert_eq!((stats.contacts, stats.active_contacts), (9, 5), "4 bottom corners and the sphere of the resting box");
        assert!(stats.complementarity <= 1e-8 && stats.complementarity >= 0.0, "{}", stats.complementarity);
        // Σγ measured 7.3e-13 N off (7e-14 relative, the rounding of the momentum rows)
        // since the drop's contact steps before the rest take the projected Newton (the
        // bound was 6e-13 at 6.2e-14 measured)
        assert!((normal - G).abs() < 1e-12, "Σγ = {normal}");
        assert!(friction < 4e-13, "resting: no friction needed, got {friction}");

        // a looser contact tolerance is honoured: the complementarity of a step stays below it
        ok(maxdyn_sim_set_contact_tolerance(s, 1e-4));
        ok(maxdyn_sim_get_contact_tolerance(s, &mut tol));
        assert_eq!(tol, 1e-4);
        let (mut nt, mut it, mut acc) = (0.0, 0, 0.0);
        ok(maxdyn_sim_get_solver_options(s, &mut nt, &mut it, &mut acc));
        assert_eq!((nt, it, acc), (1e-10, 100, 1e-8), "the Newton options are kept");
        ok(maxdyn_sim_step(s));
        ok(maxdyn_sim_get_step_stats(s, &mut stats));
        assert!(stats.complementarity <= 1e-4);

        // the contact margin: default 0.05 m, settable (INFINITY: every contact in every solve)
        let mut margin = 0.0;
        ok(maxdyn_sim_get_contact_margin(s, &mut margin));
        assert_eq!(margin, 0.05);
        ok(maxdyn_sim_set_contact_margin(s, f64::INFINITY));
        ok(maxdyn_sim_get_contact_margin(s, &mut margin));
        assert_eq!(margin, f64::INFINITY);
        ok(maxdyn_sim_get_contact_tolerance(s, &mut tol));
        assert_eq!(tol, 1e-4, "the other options are kept");
        ok(maxdyn_sim_step(s));
        maxdyn_sim_free(s);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// Cones, sphere-sphere contacts and plane contacts through C: a box resting on a
/// plane tilted 20° (μ = 0.5 > tan 20°, nonlinear cones) carries m g cos 20° normally
/// and m g sin 20° in friction, up the slope; a sphere on top of another presses with
/// its weight, and the ground carries both.
#[test]
fn plane_and_sphere_contacts_carry_the_weights() {
    let l = lock();
    unsafe {
        let mut b = null_mut();
        ok(maxdyn_builder_new(&mut b));
        let ball = [0.004, 0.0, 0.0, 0.0, 0.004, 0.0, 0.0, 0.0, 0.004];
        let (mut bx, mut s2, mut s3) = (-1, -1, -1);
        ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut bx));
        ok(maxdyn_builder_add_body(b, 2.0, ball.as_ptr(), &mut s2));
        ok(maxdyn_builder_add_body(b, 1.0, ball.as_ptr(), &mut s3));
        let a = 20f64.to_radians();
        // the plane n·x ≥ 0 with n = R_x(a) z; the box turned by R_x(a), bottom on it
        let n = [0.0, -a.sin(), a.cos()];
        let q = [(a / 2.0).cos(), (a / 2.0).sin(), 0.0, 0.0];
        ok(maxdyn_builder_set_body_pose(b, bx, [0.0, -0.25 * a.sin(), 0.25 * a.cos()].as_ptr(), q.as_ptr()));
        let mut plane = Vec::new();
        for p in corners().into_iter().filter(|p| p[2] < 0.0) {
            let mut c = -1;
            ok(maxdyn_builder_add_plane_contact(b, bx, p.as_ptr(), 0.0, n.as_ptr(), 0.0, 0.5, &mut c));
            ok(maxdyn_builder_set_contact_cone(b, c, MAXDYN_CONE_NONLINEAR, 0));
            plane.push(c);
        }
        // sphere 3 (1 kg) resting on sphere 2 (2 kg) on the ground at x = 2
        let id = [1.0, 0.0, 0.0, 0.0];
        ok(maxdyn_builder_set_body_pose(b, s2, [2.0, 0.0, 0.1].as_ptr(), id.as_ptr()));
        ok(maxdyn_builder_set_body_pose(b, s3, [2.0, 0.0, 0.3].as_ptr(), id.as_ptr()));
        let (mut c_ground, mut c_pair) = (-1, -1);
        ok(maxdyn_builder_add_ground_contact(b, s2, ORIGIN.as_ptr(), 0.1, 0.5, &mut c_ground));
        ok(maxdyn_builder_add_sphere_contact(b, s3, ORIGIN.as_ptr(), 0.1, s2, ORIGIN.as_ptr(), 0.1, 0.5, &mut c_pair));
        ok(maxdyn_builder_set_contact_cone(b, c_pair, MAXDYN_CONE_LINEAR, 8));
        let (mut t, mut d) = (-1, -1);
        ok(maxdyn_builder_get_contact_cone(b, plane[0], &mut t, &mut d));
        assert_eq!(t, MAXDYN_CONE_NONLINEAR);
        ok(maxdyn_builder_get_contact_cone(b, c_pair, &mut t, &mut d));
        assert_eq!((t, d), (MAXDYN_CONE_LINEAR, 8));
        let s = sim_of(b, 0.01);
        let mut st = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, bx, st.as_mut_ptr()));
        let x0 = [st[0], st[1], st[2]];
        for _ in 0..200 {
            ok(maxdyn_sim_step(s));
        }
        let mut c = [0.0; 5];
        let (mut gamma, mut f, mut worst_gap) = (0.0, [0.0; 3], 0.0_f64);
        for &k in &plane {
            ok(maxdyn_sim_get_contact(s, k, c.as_mut_ptr()));
            gamma += c[1];
            for i in 0..3 {
                f[i] += c[2 + i];
            }
            worst_gap = worst_gap.max(c[0].abs());
        }
        ok(maxdyn_sim_get_body_state(s, bx, st.as_mut_ptr()));
        let creep = ((st[0] - x0[0]).powi(2) + (st[1] - x0[1]).powi(2) + (st[2] - x0[2]).powi(2)).sqrt();
        let ft = (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt();
        println!(
            "box on a 20° plane, 2 s: gap {worst_gap:.1e} m, creep {creep:.1e} m, Σγ {gamma:.9} (m g cos 20° = {:.9}), |Σf_t| {ft:.9} (m g sin 20° = {:.9})",
            G * a.cos(),
            G * a.sin()
        );
        assert!(worst_gap < 1e-6 && creep < 1e-6);
        assert!((gamma - G * a.cos()).abs() < 1e-6);
        assert!((ft - G * a.sin()).abs() < 1e-6);
        // friction points up the slope, along (0, cos 20°, sin 20°)
        assert!(f[0].abs() < 1e-9 && (f[1] - G * a.sin() * a.cos()).abs() < 1e-6 && (f[2] - G * a.sin() * a.sin()).abs() < 1e-6, "{f:?}");
        ok(maxdyn_sim_get_contact(s, c_pair, c.as_mut_ptr()));
        println!("sphere on sphere: gap {:.1e}, γ {:.9}", c[0], c[1]);
        assert!(c[0].abs() < 1e-6 && (c[1] - G).abs() < 1e-6, "{c:?}");
        ok(maxdyn_sim_get_contact(s, c_ground, c.as_mut_ptr()));
        assert!((c[1] - 3.0 * G).abs() < 1e-6, "the ground carries both spheres: {c:?}");
        maxdyn_sim_free(s);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// Springs, dampers, inputs and the energy account through C: the numbers equal the
/// Rust API's bit for bit, the spring energy is ½ k (θ − rest)², and the balance
/// E − E0 − W + D stays small against the input work.
#[test]
fn force_elements_and_energy_account_through_c() {
    let l = lock();
    unsafe {
        let b = rod_builder();
        let mut ns = 0;
        ok(maxdyn_builder_get_spring_count(b, &mut ns));
        assert_eq!(ns, 1);
        let s = sim_of(b, 0.001);
        // spring energy at a pose: joint spring ½ 3 (0.5 − 0.1)² plus the point spring
        ok(maxdyn_sim_set_joint_position(s, 0, [0.5].as_ptr(), 1));
        let mut e_spring = 0.0;
        ok(maxdyn_sim_get_spring_energy(s, &mut e_spring));
        let mut st = [0.0; 13];
        ok(maxdyn_sim_get_body_state(s, 2, st.as_mut_ptr()));
        let len = (st[0] * st[0] + (st[1] - 1.0).powi(2) + st[2] * st[2]).sqrt();
        let expected = 0.5 * 3.0 * 0.4f64.powi(2) + 0.5 * 5.0 * (len - 0.3).powi(2);
        assert!((e_spring - expected).abs() < 1e-12, "{e_spring} vs {expected}");
        let (mut k0, mut p0) = (0.0, 0.0);
        ok(maxdyn_sim_get_energy(s, &mut k0, &mut p0));

        // the same mechanism in Rust
        let mut rb = maxdyn::Builder::new();
        for m in [1.0, 1.0, 0.5] {
            rb.add_body(m, maxdyn::Inertia::from_rows(ROD).unwrap()).unwrap();
        }
        rb.add_joint(maxdyn::JointType::Revolute, maxdyn::Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], X).unwrap();
        rb.add_joint(maxdyn::JointType::Revolute, 0, 1, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], X).unwrap();
        rb.add_joint(maxdyn::JointType::Fixed, 1, 2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], X).unwrap();
        rb.set_joint_spring(0, &[3.0], &[0.1]).unwrap();
        rb.set_joint_damper(1, &[0.2]).unwrap();
        rb.add_spring(maxdyn::Parent::World, [0.0, 1.0, 0.0], 2, [0.0; 3], 5.0, 0.5, 0.3).unwrap();
        let mut rs = maxdyn::Sim::new(Arc::new(maxdyn::Model::new(&rb).unwrap()), 0.001).unwrap();
        rs.set_joint_position(0, &[0.5]).unwrap();

        // driven by a joint torque and a wrench at the tip for 2 s
        let (mut worst, mut w, mut d) = (0.0_f64, 0.0, 0.0);
        for k in 0..2000 {
            let u = [2.0 * (k as f64 * 0.003).sin()];
            let force = [0.0, 0.5, 0.0];
            let torque = [0.05, 0.0, 0.0];
            let point = [0.0, 0.0, -0.5];
            ok(maxdyn_sim_set_joint_input(s, 1, u.as_ptr(), 1));
            ok(maxdyn_sim_set_body_wrench(s, 2, force.as_ptr(), torque.as_ptr(), point.as_ptr()));
            rs.set_joint_input(1, &u).unwrap();
            rs.set_body_wrench(2, force, torque, point).unwrap();
            ok(maxdyn_sim_step(s));
            rs.step().unwrap();
            let (mut kin, mut pot) = (0.0, 0.0);
            ok(maxdyn_sim_get_energy(s, &mut kin, &mut pot));
            ok(maxdyn_sim_get_energy_account(s, &mut w, &mut d));
            worst = worst.max((kin + pot - k0 - p0 - w + d).abs());
        }
        let acc = rs.energy_account();
        assert!(w.to_bits() == acc.input_work.to_bits() && d.to_bits() == acc.dissipation.to_bits(), "C ({w}, {d}) vs Rust {acc:?}");
        for body in 0..3 {
            ok(maxdyn_sim_get_body_state(s, body, st.as_mut_ptr()));
            assert!(same(&st, &rs.body_state(body as usize).unwrap()), "body {body}: C and Rust differ");
        }
        println!("driven, damped pendulum through C, 2 s at dt 1e-3: input work {w:.6} J, dissipation {d:.6} J, max |E − E0 − W + D| = {worst:.2e} J");
        assert!(d > 0.0 && w.abs() > 0.1, "the inputs and dampers must act: W {w}, D {d}");
        assert!(worst < 0.01 * w.abs().max(d), "energy balance residual {worst} vs W {w}, D {d}");
        ok(maxdyn_sim_reset_energy_account(s));
        ok(maxdyn_sim_get_energy_account(s, &mut w, &mut d));
        assert_eq!((w, d), (0.0, 0.0));
        maxdyn_sim_free(s);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// Box(0.1, 0.1, 1, 1) on a revolute about x at (0, 0, 0.5), with its PD gains.
struct Pd {
    kp: f64,
    kd: f64,
    target: f64,
    joint: i32,
    calls: usize,
}

unsafe extern "C" fn pd_control(sim: *mut maxdyn_sim, user_data: *mut c_void) -> c_int {
    let pd = &mut *(user_data as *mut Pd);
    pd.calls += 1;
    let (mut th, mut om) = ([0.0], [0.0]);
    if maxdyn_sim_get_joint_position(sim, pd.joint, th.as_mut_ptr(), 1) != MAXDYN_STATUS_OK
        || maxdyn_sim_get_joint_velocity(sim, pd.joint, om.as_mut_ptr(), 1) != MAXDYN_STATUS_OK
    {
        return 1;
    }
    let u = [pd.kp * (pd.target - th[0]) - pd.kd * om[0]];
    (maxdyn_sim_set_joint_input(sim, pd.joint, u.as_ptr(), 1) != MAXDYN_STATUS_OK) as c_int
}

#[test]
fn pd_controller_in_the_callback_settles_at_the_static_balance() {
    let l = lock();
    unsafe {
        let mut b = null_mut();
        ok(maxdyn_builder_new(&mut b));
        let mut body = -1;
        ok(maxdyn_builder_add_body(b, 1.0, ROD.as_ptr(), &mut body));
        let mut pd = Pd { kp: 20.0, kd: 3.0, target: 1.2, joint: -1, calls: 0 };
        ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, body, ORIGIN.as_ptr(), [0.0, 0.0, 0.5].as_ptr(), X.as_ptr(), &mut pd.joint));
        let s = sim_of(b, 0.01);
        ok(maxdyn_sim_set_control_callback(s, Some(pd_control), &mut pd as *mut Pd as *mut c_void));
        ok(maxdyn_sim_step_n(s, 3000));
        assert_eq!(pd.calls, 3000);
        let mut th = [0.0];
        ok(maxdyn_sim_get_joint_position(s, pd.joint, th.as_mut_ptr(), 1));
        let mut pred = pd.target;
        for _ in 0..50 {
            let f = pd.kp * (pd.target - pred) - G * 0.5 * pred.sin();
            pred -= f / (-pd.kp - G * 0.5 * pred.cos());
        }
        println!("PD through the C callback: θ = {:.10}, predicted {pred:.10}, error {:.1e} rad", th[0], (th[0] - pred).abs());
        assert!(pd.target - pred > 0.1);
        assert!((th[0] - pred).abs() < 1e-6);
        maxdyn_sim_free(s);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn names_find_bodies_and_joints_and_loops_are_counted() {
    let l = lock();
    unsafe {
        let path = CString::new(format!("{}/tests/fixtures/fourbar_cd_loopjoint.urdf", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut b = null_mut();
        ok(maxdyn_builder_from_urdf(path.as_ptr(), 0, &mut b));
        let mut id = -7;
        ok(maxdyn_builder_find_body(b, c"link3".as_ptr(), &mut id));
        assert_eq!(id, 2);
        ok(maxdyn_builder_find_joint(b, c"joint24".as_ptr(), &mut id));
        assert_eq!(id, 4, "the loop joint comes after the tree joints");
        ok(maxdyn_builder_find_joint(b, c"jointb1".as_ptr(), &mut id));
        assert_eq!(id, 0);
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        let mut loops = -1;
        ok(maxdyn_model_get_loop_count(m, &mut loops));
        assert_eq!(loops, 1);
        expect(maxdyn_model_get_loop_count(m, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_loop_count", "out");
        // the planar four-bar closed by parallel revolute joints repeats 3 rows in 3-D
        let mut sim = null_mut();
        ok(maxdyn_sim_new(m, 0.01, &mut sim));
        let (mut rows, mut rank, mut redundant, mut dof) = (-1, -1, -1, -1);
        ok(maxdyn_sim_get_constraint_rank(sim, &mut rows, &mut rank, &mut redundant, &mut dof));
        assert_eq!((rows - rank, redundant), (3, 3), "rows {rows} rank {rank}");
        assert_eq!(dof, 6 * 4 - rank);
        let f = "maxdyn_sim_get_constraint_rank";
        expect(maxdyn_sim_get_constraint_rank(sim, &mut rows, null_mut(), &mut redundant, &mut dof), MAXDYN_STATUS_NULL_POINTER, f, "rank");
        expect(maxdyn_sim_get_constraint_rank(null(), &mut rows, &mut rank, &mut redundant, &mut dof), MAXDYN_STATUS_NULL_POINTER, f, "sim");
        maxdyn_sim_free(sim);
        maxdyn_model_free(m);

        id = -7;
        let f = "maxdyn_builder_find_body";
        expect(maxdyn_builder_find_body(b, c"no_such_link".as_ptr(), &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "name");
        expect(maxdyn_builder_find_body(b, c"base_link".as_ptr(), &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "name");
        expect(maxdyn_builder_find_body(b, c"".as_ptr(), &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "name");
        expect(maxdyn_builder_find_body(b, null(), &mut id), MAXDYN_STATUS_NULL_POINTER, f, "name");
        expect(maxdyn_builder_find_body(b, c"link1".as_ptr(), null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out_body");
        expect(maxdyn_builder_find_body(null(), c"link1".as_ptr(), &mut id), MAXDYN_STATUS_NULL_POINTER, f, "builder");
        expect(maxdyn_builder_find_body(b, c"\xff\xfe".as_ptr(), &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, f, "name");
        expect(maxdyn_builder_find_joint(b, c"link1".as_ptr(), &mut id), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_builder_find_joint", "name");
        assert_eq!(id, -7);

        // names set by hand; a failed rename keeps the old name
        let f = "maxdyn_builder_set_body_name";
        ok(maxdyn_builder_set_body_name(b, 0, c"crank".as_ptr()));
        ok(maxdyn_builder_find_body(b, c"crank".as_ptr(), &mut id));
        assert_eq!(id, 0);
        expect(maxdyn_builder_set_body_name(b, 4, c"x".as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        expect(maxdyn_builder_set_body_name(b, 0, c"".as_ptr()), MAXDYN_STATUS_INVALID_ARGUMENT, f, "name");
        expect(maxdyn_builder_set_body_name(b, 0, null()), MAXDYN_STATUS_NULL_POINTER, f, "name");
        ok(maxdyn_builder_find_body(b, c"crank".as_ptr(), &mut id));
        ok(maxdyn_builder_set_joint_name(b, 1, c"elbow".as_ptr()));
        ok(maxdyn_builder_find_joint(b, c"elbow".as_ptr(), &mut id));
        assert_eq!(id, 1);
        expect(maxdyn_builder_set_joint_name(b, 5, c"x".as_ptr()), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_builder_set_joint_name", "joint");
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}
