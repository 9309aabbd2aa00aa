//! Whole-state vectors from C (issue 26): sizes from the model and the sim, the
//! configuration, generalized velocity, joint inputs and servo targets set and read in one
//! call each on
//! a floating base (a free body with a pendulum hung from it, its base frame moved off the
//! centre of mass by `maxdyn_builder_set_base_frame`), and bad input — a wrong length, NaN,
//! a non-unit quaternion, a joint too fast, NULL — refused with its own status, naming the
//! argument, with the sim's exact state unchanged.

use std::ptr::{null, null_mut};

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, lock, ok};

const CUBE: [f64; 9] = [0.1, 0.0, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.15];
const BELOW: [f64; 3] = [0.0, 0.0, -0.3];
const X: [f64; 3] = [1.0, 0.0, 0.0];
/// The base frame: 0.1 m ahead of the centre of mass, turned a quarter about z.
const BASE_FRAME: [f64; 7] = [0.1, 0.0, 0.0, std::f64::consts::FRAC_1_SQRT_2, 0.0, 0.0, std::f64::consts::FRAC_1_SQRT_2];

unsafe fn floating_pendulum() -> (*mut maxdyn_model, *mut maxdyn_sim) {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut base, mut bob, mut j) = (-1, -1, -1);
    ok(maxdyn_builder_add_body(b, 2.0, CUBE.as_ptr(), &mut base));
    ok(maxdyn_builder_add_body(b, 0.5, CUBE.as_ptr(), &mut bob));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, base, bob, BELOW.as_ptr(), [0.0, 0.0, 0.3].as_ptr(), X.as_ptr(), &mut j));
    expect(maxdyn_builder_set_base_frame(b, 7, BASE_FRAME.as_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_builder_set_base_frame", "body");
    expect(maxdyn_builder_set_base_frame(b, base, [0.0; 7].as_ptr()), MAXDYN_STATUS_ZERO_AXIS, "maxdyn_builder_set_base_frame", "pose");
    expect(maxdyn_builder_set_base_frame(b, base, null()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_builder_set_base_frame", "pose");
    ok(maxdyn_builder_set_base_frame(b, base, BASE_FRAME.as_ptr()));
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    maxdyn_builder_free(b);
    let mut s = null_mut();
    ok(maxdyn_sim_new(m, 1e-2, &mut s));
    (m, s)
}

unsafe fn state(s: *const maxdyn_sim) -> Vec<u64> {
    let mut n = 0;
    ok(maxdyn_sim_state_size(s, &mut n));
    let mut out = vec![0.0; n];
    ok(maxdyn_sim_get_state(s, out.as_mut_ptr(), n));
    out.iter().map(|x| x.to_bits()).collect()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

#[test]
fn whole_state_vectors_set_and_read_in_one_call() {
    let guard = lock();
    unsafe {
        let (m, s) = floating_pendulum();
        let (mut nq, mut nv, mut nu) = (0, 0, 0);
        ok(maxdyn_model_get_dimensions(m, &mut nq, &mut nv, &mut nu));
        assert_eq!((nq, nv, nu), (8, 7, 1));
        maxdyn_model_free(m);
        ok(maxdyn_sim_get_dimensions(s, &mut nq, &mut nv, &mut nu));
        assert_eq!((nq, nv, nu), (8, 7, 1));
        let (half, c) = (0.3f64, 0.3f64.cos());
        let q = [0.5, -1.0, 2.0, c, 0.0, half.sin(), 0.0, 0.7];
        ok(maxdyn_sim_set_configuration(s, q.as_ptr(), nq));
        let mut back = [0.0; 8];
        ok(maxdyn_sim_get_configuration(s, back.as_mut_ptr(), nq));
        assert!(max_diff(&q, &back) < 1e-12, "{back:?}");
        let v = [0.1, -0.2, 0.3, 0.5, -0.4, 0.2, 1.5];
        ok(maxdyn_sim_set_generalized_velocity(s, v.as_ptr(), nv));
        let mut vb = [0.0; 7];
        ok(maxdyn_sim_get_generalized_velocity(s, vb.as_mut_ptr(), nv));
        assert!(max_diff(&v, &vb) < 1e-12, "{vb:?}");
        // the base twist is the base frame's: its origin's velocity, in its own axes
        let mut all = [0.0; 7];
        ok(maxdyn_sim_get_minimal_velocities(s, all.as_mut_ptr(), 7));
        assert!(max_diff(&all[..6], &v[..6]) < 1e-12, "{all:?}");
        ok(maxdyn_sim_set_joint_inputs(s, [0.25].as_ptr(), nu));
        let mut u = [0.0];
        ok(maxdyn_sim_get_joint_inputs(s, u.as_mut_ptr(), nu));
        assert_eq!(u, [0.25]);
        ok(maxdyn_sim_step(s));
        maxdyn_sim_free(s);
        assert_eq!(guard.live(), 0);
    }
}

#[test]
fn bad_whole_state_input_gets_its_status_and_changes_nothing() {
    let guard = lock();
    unsafe {
        let (m, s) = floating_pendulum();
        maxdyn_model_free(m);
        ok(maxdyn_sim_set_configuration(s, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.4].as_ptr(), 8));
        let before = state(s);
        let good_q = [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.4];
        let (set_q, set_v, set_u) = ("maxdyn_sim_set_configuration", "maxdyn_sim_set_generalized_velocity", "maxdyn_sim_set_joint_inputs");
        expect(maxdyn_sim_set_configuration(s, good_q.as_ptr(), 7), MAXDYN_STATUS_WRONG_LENGTH, set_q, "n");
        expect(maxdyn_sim_set_configuration(s, null(), 8), MAXDYN_STATUS_NULL_POINTER, set_q, "q");
        let mut q = good_q;
        q[7] = f64::NAN;
        expect(maxdyn_sim_set_configuration(s, q.as_ptr(), 8), MAXDYN_STATUS_NON_FINITE, set_q, "q");
        let mut q = good_q;
        q[3] = 0.9; // norm 0.9
        expect(maxdyn_sim_set_configuration(s, q.as_ptr(), 8), MAXDYN_STATUS_INVALID_ARGUMENT, set_q, "q");
        let v = [0.0; 7];
        expect(maxdyn_sim_set_generalized_velocity(s, v.as_ptr(), 8), MAXDYN_STATUS_WRONG_LENGTH, set_v, "n");
        let mut v = [0.0; 7];
        v[2] = f64::INFINITY;
        expect(maxdyn_sim_set_generalized_velocity(s, v.as_ptr(), 7), MAXDYN_STATUS_NON_FINITE, set_v, "v");
        let mut v = [0.0; 7];
        v[6] = 400.0; // 4 rad in one step of 0.01 s
        expect(maxdyn_sim_set_generalized_velocity(s, v.as_ptr(), 7), MAXDYN_STATUS_INVALID_ARGUMENT, set_v, "v");
        let mut v = [0.0; 7];
        v[4] = 300.0; // the base spinning beyond 2/dt
        expect(maxdyn_sim_set_generalized_velocity(s, v.as_ptr(), 7), MAXDYN_STATUS_INVALID_ARGUMENT, set_v, "v");
        expect(maxdyn_sim_set_joint_inputs(s, [1.0, 2.0].as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, set_u, "n");
        expect(maxdyn_sim_set_joint_inputs(s, [f64::NAN].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, set_u, "u");
        // the pendulum's joint has neither a spring nor a damper: its targets take zeros only
        let set_t = "maxdyn_sim_set_joint_targets";
        ok(maxdyn_sim_set_joint_targets(s, [0.0].as_ptr(), [0.0].as_ptr(), 1));
        expect(maxdyn_sim_set_joint_targets(s, [0.3].as_ptr(), [0.0].as_ptr(), 1), MAXDYN_STATUS_INVALID_ARGUMENT, set_t, "position");
        expect(maxdyn_sim_set_joint_targets(s, [0.0, 0.0].as_ptr(), [0.0, 0.0].as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, set_t, "n");
        expect(maxdyn_sim_set_joint_targets(s, [0.0].as_ptr(), null(), 1), MAXDYN_STATUS_NULL_POINTER, set_t, "velocity");
        expect(maxdyn_sim_set_joint_targets(s, [0.0].as_ptr(), [f64::NAN].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, set_t, "velocity");
        let mut t = [7.0];
        expect(maxdyn_sim_get_joint_targets(s, t.as_mut_ptr(), null_mut(), 1), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_joint_targets", "velocity");
        assert_eq!(t, [7.0], "a refused getter wrote its output");
        let mut out = [7.0; 8];
        expect(maxdyn_sim_get_configuration(s, out.as_mut_ptr(), 9), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_configuration", "n");
        expect(maxdyn_sim_get_generalized_velocity(s, null_mut(), 7), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_generalized_velocity", "v");
        expect(maxdyn_sim_get_dimensions(null(), null_mut(), null_mut(), null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_dimensions", "sim");
        let mut n = 0;
        expect(maxdyn_sim_get_dimensions(s, &mut n, null_mut(), &mut n), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_get_dimensions", "nv");
        assert_eq!(out, [7.0; 8], "a refused getter wrote its output");
        assert_eq!(state(s), before, "a refused call changed the sim");
        maxdyn_sim_free(s);
        assert_eq!(guard.live(), 0);
    }
}
