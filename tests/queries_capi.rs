//! The exact state from C (issue 13 part 5): `maxdyn_sim_state_size/get_state/set_state`
//! replay a run bit for bit, `maxdyn_sim_copy` is an independent sim at the same state,
//! and bad arrays get their own status and change nothing.

use std::ptr::null_mut;

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, lock, ok};

const CUBE: [f64; 9] = [1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0];
const ORIGIN: [f64; 3] = [0.0; 3];
const ABOVE: [f64; 3] = [0.0, 0.0, 1.0];
const X: [f64; 3] = [1.0, 0.0, 0.0];

/// The double pendulum, displaced 1 rad, driven by 0.1 N·m at its second joint.
unsafe fn double_pendulum() -> (*mut maxdyn_model, *mut maxdyn_sim) {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut b1, mut b2, mut j) = (-1, -1, -1);
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut b1));
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut b2));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, b1, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut j));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, b1, b2, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut j));
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    maxdyn_builder_free(b);
    let mut s = null_mut();
    ok(maxdyn_sim_new(m, 1e-3, &mut s));
    ok(maxdyn_sim_set_joint_position(s, 0, [1.0].as_ptr(), 1));
    ok(maxdyn_sim_set_joint_input(s, 1, [0.1].as_ptr(), 1));
    (m, s)
}

unsafe fn state(s: *const maxdyn_sim) -> Vec<f64> {
    let mut n = 0;
    ok(maxdyn_sim_state_size(s, &mut n));
    let mut out = vec![0.0; n];
    ok(maxdyn_sim_get_state(s, out.as_mut_ptr(), n));
    out
}

/// Bits of the state after each of 1000 steps.
unsafe fn run(s: *mut maxdyn_sim) -> Vec<Vec<u64>> {
    (0..1000)
        .map(|_| {
            ok(maxdyn_sim_step(s));
            state(s).iter().map(|x| x.to_bits()).collect()
        })
        .collect()
}

#[test]
fn save_step_restore_step_is_bit_identical_and_a_copy_replays_too() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum();
        for _ in 0..50 {
            ok(maxdyn_sim_step(s));
        }
        let saved = state(s);
        let mut copy = null_mut();
        ok(maxdyn_sim_copy(s, &mut copy));
        let first = run(s);
        ok(maxdyn_sim_set_state(s, saved.as_ptr(), saved.len()));
        let mut t = 0.0;
        ok(maxdyn_sim_get_time(s, &mut t));
        // after the version, the 10 counts, the model's fingerprint (2), dt and the
        // velocities' interval
        assert_eq!(t.to_bits(), saved[15].to_bits(), "time is restored");
        assert!(run(s) == first, "replay after restore differs");
        assert!(run(copy) == first, "the copy's run differs");
        let mut fresh = null_mut();
        ok(maxdyn_sim_new(m, 0.01, &mut fresh));
        ok(maxdyn_sim_set_state(fresh, saved.as_ptr(), saved.len()));
        assert!(run(fresh) == first, "a fresh sim's replay differs");
        for o in [s, copy, fresh] {
            maxdyn_sim_free(o);
        }
        maxdyn_model_free(m);
    }
    assert_eq!(guard.live(), 0);
}

#[test]
fn bad_state_arrays_get_their_status_and_change_nothing() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum();
        ok(maxdyn_sim_step(s));
        let good = state(s);
        let n = good.len();
        expect(maxdyn_sim_set_state(s, good.as_ptr(), n - 1), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_set_state", "n");
        let mut short = vec![0.0; n + 1];
        expect(maxdyn_sim_get_state(s, short.as_mut_ptr(), n + 1), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_state", "n");
        let mut bad = good.clone();
        bad[n / 2] = f64::NAN;
        expect(maxdyn_sim_set_state(s, bad.as_ptr(), n), MAXDYN_STATUS_NON_FINITE, "maxdyn_sim_set_state", "state");
        bad = good.clone();
        bad[0] = 99.0; // layout version
        expect(maxdyn_sim_set_state(s, bad.as_ptr(), n), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_set_state", "state");
        expect(maxdyn_sim_set_state(s, std::ptr::null(), n), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_set_state", "in");
        expect(maxdyn_sim_state_size(s, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_state_size", "n");
        expect(maxdyn_sim_copy(null_mut(), &mut null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_copy", "sim");
        assert_eq!(state(s), good);
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(guard.live(), 0);
}

/// Point Jacobians from C: the maximal one maps the body velocities to the point's twist
/// (measured: rounding, asserted 1e-14), the minimal one turns the tip about x at
/// θ̇1 + θ̇2; bad arguments get their status.
#[test]
fn point_jacobians_from_c_map_velocities_to_the_twist() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum();
        ok(maxdyn_sim_set_joint_velocity(s, 0, [0.7].as_ptr(), 1));
        let (mut nmin, mut nmax) = (0, 0);
        ok(maxdyn_model_velocity_count(m, MAXDYN_COORDS_MINIMAL, &mut nmin));
        ok(maxdyn_model_velocity_count(m, MAXDYN_COORDS_MAXIMAL, &mut nmax));
        assert_eq!((nmin, nmax), (2, 12));
        let tip = [0.0, 0.0, -0.5];
        let mut jmax = vec![0.0; 6 * nmax];
        ok(maxdyn_sim_get_point_jacobian(s, 1, tip.as_ptr(), MAXDYN_AXES_WORLD, MAXDYN_COORDS_MAXIMAL, jmax.as_mut_ptr(), jmax.len()));
        let mut zdot = Vec::new();
        for b in 0..2 {
            let mut st = [0.0; 13];
            ok(maxdyn_sim_get_body_state(s, b, st.as_mut_ptr()));
            zdot.extend_from_slice(&st[7..]);
        }
        let mut tw = [0.0; 6];
        ok(maxdyn_sim_get_point_velocity(s, 1, tip.as_ptr(), MAXDYN_AXES_WORLD, tw.as_mut_ptr()));
        for i in 0..6 {
            let jz: f64 = (0..nmax).map(|k| jmax[i * nmax + k] * zdot[k]).sum();
            assert!((jz - tw[i]).abs() < 1e-14, "row {i}: {jz} vs {}", tw[i]);
        }
        let mut jmin = vec![0.0; 6 * nmin];
        ok(maxdyn_sim_get_point_jacobian(s, 1, tip.as_ptr(), MAXDYN_AXES_WORLD, MAXDYN_COORDS_MINIMAL, jmin.as_mut_ptr(), jmin.len()));
        assert_eq!((jmin[6], jmin[7]), (1.0, 1.0), "ω_x = θ̇1 + θ̇2");
        expect(maxdyn_sim_get_point_jacobian(s, 1, tip.as_ptr(), MAXDYN_AXES_WORLD, MAXDYN_COORDS_MINIMAL, jmin.as_mut_ptr(), 6), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_point_jacobian", "n");
        expect(maxdyn_sim_get_point_jacobian(s, 1, tip.as_ptr(), 7, MAXDYN_COORDS_MINIMAL, jmin.as_mut_ptr(), 12), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_sim_get_point_jacobian", "axes");
        expect(maxdyn_sim_get_point_jacobian(s, 2, tip.as_ptr(), MAXDYN_AXES_WORLD, MAXDYN_COORDS_MINIMAL, jmin.as_mut_ptr(), 12), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_sim_get_point_jacobian", "body");
        let mut pose = [0.0; 7];
        expect(maxdyn_sim_get_frame_pose(s, 0, pose.as_mut_ptr()), MAXDYN_STATUS_UNKNOWN_FRAME, "maxdyn_sim_get_frame_pose", "frame");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(guard.live(), 0);
}

/// Dynamics terms from C: M q̈ + b = τ on the double pendulum (measured: rounding, asserted
/// 1e-12), with wrong lengths refused.
#[test]
fn dynamics_terms_from_c_agree() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum();
        let mut mm = [0.0; 4];
        ok(maxdyn_sim_get_mass_matrix(s, mm.as_mut_ptr(), 4));
        let (qd, qdd) = ([0.3, -0.4], [1.0, 2.0]);
        let (mut b, mut tau) = ([0.0; 2], [0.0; 2]);
        ok(maxdyn_sim_get_bias_forces(s, qd.as_ptr(), b.as_mut_ptr(), 2));
        ok(maxdyn_sim_inverse_dynamics(s, qd.as_ptr(), qdd.as_ptr(), tau.as_mut_ptr(), 2));
        for i in 0..2 {
            let lhs = mm[2 * i] * qdd[0] + mm[2 * i + 1] * qdd[1] + b[i];
            assert!((lhs - tau[i]).abs() < 1e-12 * tau[i].abs().max(1.0), "{lhs} vs {}", tau[i]);
        }
        expect(maxdyn_sim_get_mass_matrix(s, mm.as_mut_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_get_mass_matrix", "n_out");
        expect(maxdyn_sim_inverse_dynamics(s, qd.as_ptr(), std::ptr::null(), tau.as_mut_ptr(), 2), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_inverse_dynamics", "qdd");
        let mut v = [0.0; 2];
        ok(maxdyn_sim_get_minimal_velocities(s, v.as_mut_ptr(), 2));
        assert_eq!(v, [0.0, 0.0], "at rest");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(guard.live(), 0);
}

/// The linearization's sizes and B from C: the double pendulum's B (minimal) has zero
/// position rows, and velocity rows ≈ dt M⁻¹ (positive diagonal, symmetric).
#[test]
fn input_derivative_from_c_has_the_contract_sizes() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum();
        let (mut nx, mut nu) = (0, 0);
        ok(maxdyn_model_state_size(m, MAXDYN_COORDS_MINIMAL, &mut nx, &mut nu));
        assert_eq!((nx, nu), (4, 2));
        ok(maxdyn_model_state_size(m, MAXDYN_COORDS_MAXIMAL, &mut nx, &mut nu));
        assert_eq!((nx, nu), (26, 12));
        let mut b = vec![0.0; 8];
        ok(maxdyn_sim_input_derivative(s, MAXDYN_COORDS_MINIMAL, b.as_mut_ptr(), 8));
        assert!(b[..4].iter().all(|&x| x == 0.0), "positions after the step do not depend on u");
        assert!(b[4] > 0.0 && b[7] > 0.0, "a joint's torque speeds that joint: {b:?}");
        // ∂q̇/∂u ≈ dt M⁻¹, symmetric to O(dt) terms (seen: 1.8e-11 relative)
        assert!((b[5] - b[6]).abs() < 1e-10 * b[5].abs(), "{b:?}");
        expect(maxdyn_sim_input_derivative(s, MAXDYN_COORDS_MINIMAL, b.as_mut_ptr(), 4), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_sim_input_derivative", "n");
        expect(maxdyn_model_state_size(m, 5, &mut nx, &mut nu), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_model_state_size", "coords");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
    }
    assert_eq!(guard.live(), 0);
}
