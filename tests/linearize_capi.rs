//! The linearization from C (issue 13 part 3): `maxdyn_model_state_size`,
//! `maxdyn_sim_state_dimensions`, `maxdyn_sim_linearize` and `_differences` — sizes,
//! NULL matrices, bad arguments with their own status, kinematic loops refused in minimal
//! coordinates, every call (failing or not) leaving the sim bit-identical, and A, B
//! predicting a step from a perturbed equilibrium to second order.

use std::ffi::CString;
use std::ptr::{null, null_mut};

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, lock, ok};

const MIN: i32 = MAXDYN_COORDS_MINIMAL;
const MAX: i32 = MAXDYN_COORDS_MAXIMAL;
const CUBE: [f64; 9] = [1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0];
const ORIGIN: [f64; 3] = [0.0; 3];
const ABOVE: [f64; 3] = [0.0, 0.0, 1.0];
const X: [f64; 3] = [1.0, 0.0, 0.0];

/// The double pendulum (1 kg cubes 1 m below revolute joints about x), hanging at rest
/// (an equilibrium) or, `swinging`, displaced 0.4 rad with 0.1 N·m at joint 2 after 3 steps.
unsafe fn double_pendulum(swinging: bool) -> (*mut maxdyn_model, *mut maxdyn_sim) {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut b1, mut b2, mut j) = (-1, -1, -1);
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut b1));
    ok(maxdyn_builder_add_body(b, 1.0, CUBE.as_ptr(), &mut b2));
    ok(maxdyn_builder_set_body_pose(b, b1, [0.0, 0.0, -1.0].as_ptr(), [1.0, 0.0, 0.0, 0.0].as_ptr()));
    ok(maxdyn_builder_set_body_pose(b, b2, [0.0, 0.0, -2.0].as_ptr(), [1.0, 0.0, 0.0, 0.0].as_ptr()));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, b1, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut j));
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, b1, b2, ORIGIN.as_ptr(), ABOVE.as_ptr(), X.as_ptr(), &mut j));
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    maxdyn_builder_free(b);
    let mut s = null_mut();
    ok(maxdyn_sim_new(m, 0.01, &mut s));
    if swinging {
        ok(maxdyn_sim_set_joint_position(s, 0, [0.4].as_ptr(), 1));
        ok(maxdyn_sim_set_joint_input(s, 1, [0.1].as_ptr(), 1));
        ok(maxdyn_sim_step_n(s, 3));
    }
    (m, s)
}

unsafe fn exact_state(s: *const maxdyn_sim) -> Vec<u64> {
    let mut n = 0;
    ok(maxdyn_sim_state_size(s, &mut n));
    let mut out = vec![0.0; n];
    ok(maxdyn_sim_get_state(s, out.as_mut_ptr(), n));
    out.iter().map(|x| x.to_bits()).collect()
}

unsafe fn dims(s: *const maxdyn_sim, coords: i32) -> (usize, usize) {
    let (mut nx, mut nu) = (0, 0);
    ok(maxdyn_sim_state_dimensions(s, coords, &mut nx, &mut nu));
    (nx, nu)
}

/// (A, B) by `maxdyn_sim_linearize`.
unsafe fn linearize(s: *const maxdyn_sim, coords: i32) -> (Vec<f64>, Vec<f64>) {
    let (nx, nu) = dims(s, coords);
    let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
    ok(maxdyn_sim_linearize(s, coords, a.as_mut_ptr(), b.as_mut_ptr()));
    (a, b)
}

/// The minimal state: joint positions, then joint velocities (one dof per joint here).
unsafe fn minimal_state(s: *const maxdyn_sim, joints: i32) -> Vec<f64> {
    let mut x = vec![0.0; 2 * joints as usize];
    for j in 0..joints {
        ok(maxdyn_sim_get_joint_position(s, j, &mut x[j as usize], 1));
        ok(maxdyn_sim_get_joint_velocity(s, j, &mut x[(joints + j) as usize], 1));
    }
    x
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

#[test]
fn sizes_in_both_coordinates_and_their_errors() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum(true);
        let (mut nx, mut nu) = (0, 0);
        ok(maxdyn_model_state_size(m, MIN, &mut nx, &mut nu));
        assert_eq!((nx, nu), (4, 2));
        ok(maxdyn_model_state_size(m, MAX, &mut nx, &mut nu));
        assert_eq!((nx, nu), (26, 12));
        assert_eq!(dims(s, MIN), (4, 2));
        assert_eq!(dims(s, MAX), (26, 12));
        expect(maxdyn_model_state_size(m, 2, &mut nx, &mut nu), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_model_state_size", "coords");
        expect(maxdyn_model_state_size(m, MIN, null_mut(), &mut nu), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_state_size", "nx");
        expect(maxdyn_model_state_size(null(), MIN, &mut nx, &mut nu), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_state_size", "model");
        expect(maxdyn_sim_state_dimensions(s, -1, &mut nx, &mut nu), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_sim_state_dimensions", "coords");
        expect(maxdyn_sim_state_dimensions(s, MAX, &mut nx, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_state_dimensions", "nu");
        // the sim's dimensions outlive the model handle
        maxdyn_model_free(m);
        assert_eq!(dims(s, MIN), (4, 2));
        maxdyn_sim_free(s);
        assert_eq!(guard.live(), 0);
    }
}

/// Either matrix may be NULL: the other is the same as when both are asked for, bit for
/// bit; the sim is not advanced by any call.
#[test]
fn null_matrices_skip_them_and_the_sim_is_not_advanced() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum(true);
        let before = exact_state(s);
        // differences with a larger step (h = 1e-4) give the same matrices to their
        // truncation error, relative to the largest entry: measured A 1.6e-9, B 1.2e-8
        // (minimal); A 1.0e-8, B 3.2e-6 (maximal)
        for (coords, bound_a, bound_b) in [(MIN, 1e-8, 1e-7), (MAX, 1e-7, 2e-5)] {
            let (a, b) = linearize(s, coords);
            let (nx, nu) = dims(s, coords);
            let (mut a_only, mut b_only) = (vec![f64::NAN; nx * nx], vec![f64::NAN; nx * nu]);
            ok(maxdyn_sim_linearize(s, coords, a_only.as_mut_ptr(), null_mut()));
            ok(maxdyn_sim_linearize(s, coords, null_mut(), b_only.as_mut_ptr()));
            ok(maxdyn_sim_linearize(s, coords, null_mut(), null_mut()));
            assert_eq!(a.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), a_only.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
            assert_eq!(b.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), b_only.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
            let (mut ad, mut bd) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
            ok(maxdyn_sim_linearize_differences(s, coords, 1e-4, ad.as_mut_ptr(), null_mut()));
            ok(maxdyn_sim_linearize_differences(s, coords, 1e-4, null_mut(), bd.as_mut_ptr()));
            let da: Vec<f64> = a.iter().zip(&ad).map(|(x, y)| x - y).collect();
            let db: Vec<f64> = b.iter().zip(&bd).map(|(x, y)| x - y).collect();
            println!("coords {coords}: |A - A_fd(1e-4)| {:.2e}, |B - B_fd(1e-4)| {:.2e} of the largest entry", max_abs(&da) / max_abs(&a), max_abs(&db) / max_abs(&b));
            assert!(max_abs(&da) <= bound_a * max_abs(&a) && max_abs(&db) <= bound_b * max_abs(&b), "coords {coords}");
            // B is the analytic input derivative: the same computation, bit for bit (its
            // accuracy against differences is the check above)
            let mut bi = vec![0.0; nx * nu];
            ok(maxdyn_sim_input_derivative(s, coords, bi.as_mut_ptr(), nx * nu));
            assert_eq!(b.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), bi.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), "coords {coords}");
        }
        assert_eq!(exact_state(s), before, "linearize advanced the sim");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
        assert_eq!(guard.live(), 0);
    }
}

/// Bad coordinates, a NULL sim, a bad difference step and minimal coordinates of a
/// kinematic loop each get their status and name their argument; none changes the sim
/// or writes the caller's matrices.
#[test]
fn errors_have_their_status_and_change_nothing() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum(true);
        let before = exact_state(s);
        let (mut a, mut b) = ([7.0; 26 * 26], [7.0; 26 * 12]);
        let (pa, pb) = (a.as_mut_ptr(), b.as_mut_ptr());
        expect(maxdyn_sim_linearize(s, 2, pa, pb), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_sim_linearize", "coords");
        expect(maxdyn_sim_linearize(s, -1, pa, pb), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_sim_linearize", "coords");
        expect(maxdyn_sim_linearize(null(), MIN, pa, pb), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_linearize", "sim");
        expect(maxdyn_sim_linearize_differences(s, 5, 1e-6, pa, pb), MAXDYN_STATUS_INVALID_ENUM, "maxdyn_sim_linearize_differences", "coords");
        expect(maxdyn_sim_linearize_differences(null(), MIN, 1e-6, pa, pb), MAXDYN_STATUS_NULL_POINTER, "maxdyn_sim_linearize_differences", "sim");
        for h in [0.0, -1e-6, 1e-20, 1000.0] {
            expect(maxdyn_sim_linearize_differences(s, MIN, h, pa, pb), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize_differences", "h");
            expect(maxdyn_sim_linearize_differences(s, MAX, h, pa, pb), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize_differences", "h");
        }
        for h in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            expect(maxdyn_sim_linearize_differences(s, MIN, h, pa, pb), MAXDYN_STATUS_NON_FINITE, "maxdyn_sim_linearize_differences", "h");
        }
        assert!(a.iter().chain(&b).all(|&x| x == 7.0), "a failed call wrote the caller's matrices");
        assert_eq!(exact_state(s), before, "a failed call changed the sim");
        maxdyn_sim_free(s);
        maxdyn_model_free(m);

        // the four-bar of the URDF fixtures: its loop-closing joint has no coordinates of
        // its own, so minimal coordinates are not a state of it
        let path = CString::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fourbar_cd_loopjoint.urdf")).unwrap();
        let mut fb = null_mut();
        ok(maxdyn_builder_from_urdf(path.as_ptr(), 0, &mut fb));
        let mut fm = null_mut();
        ok(maxdyn_model_new(fb, &mut fm));
        maxdyn_builder_free(fb);
        let mut loops = 0;
        ok(maxdyn_model_get_loop_count(fm, &mut loops));
        assert_eq!(loops, 1);
        let mut fs = null_mut();
        ok(maxdyn_sim_new(fm, 0.01, &mut fs));
        let before = exact_state(fs);
        let (nx, nu) = dims(fs, MIN);
        let (mut a, mut b) = (vec![7.0; nx * nx], vec![7.0; nx * nu]);
        expect(maxdyn_sim_linearize(fs, MIN, a.as_mut_ptr(), b.as_mut_ptr()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize", "coords");
        assert!(capi_helpers::last_error().contains("loop"), "{}", capi_helpers::last_error());
        expect(maxdyn_sim_linearize_differences(fs, MIN, 1e-6, a.as_mut_ptr(), b.as_mut_ptr()), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize_differences", "coords");
        assert!(a.iter().chain(&b).all(|&x| x == 7.0));
        assert_eq!(exact_state(fs), before);
        maxdyn_sim_free(fs);
        maxdyn_model_free(fm);
        assert_eq!(guard.live(), 0);
    }
}

/// At the hanging equilibrium x* (at rest, no input), one step from x* + δx with inputs
/// δu lands at x* + A δx + B δu + O(δ²), in both coordinates.
#[test]
fn a_and_b_predict_a_step_from_a_perturbed_equilibrium() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum(false);
        // measured: minimal 8.9e-8, 9.1e-11, 1.9e-12 (third order: the hanging pendulum is
        // symmetric); maximal 8.7e-3, 8.7e-5, 8.7e-7 (second order: an arbitrary maximal
        // δx breaks the joints, and the step pulls the bodies back, |x_(k+1) − x*| 1.6 at
        // δ = 1e-2)
        for (coords, bounds) in [(MIN, [2e-7, 2e-10, 1e-11]), (MAX, [1e-2, 1e-4, 1e-6])] {
            let errors = prediction_errors(s, coords, &[1e-2, 1e-3, 1e-4]);
            for (e, bound) in errors.iter().zip(bounds) {
                assert!(*e <= bound, "coords {coords}: {errors:?}");
            }
            // δ = 1e-4 is at the accuracy of A itself (1e-12 = 1e-8 relative of A × δ)
            assert!(errors[0] / errors[1] > 50.0, "coords {coords}: not second order: {errors:?}");
        }
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
        assert_eq!(guard.live(), 0);
    }
}

/// The state x in `coords` (2 bodies, 2 one-dof joints).
unsafe fn state_of(s: *const maxdyn_sim, coords: i32) -> Vec<f64> {
    if coords == MIN {
        return minimal_state(s, 2);
    }
    let mut x = vec![0.0; 26];
    ok(maxdyn_sim_get_body_states(s, x.as_mut_ptr(), 2));
    x
}

/// Puts state x and inputs u (`coords`) into the sim.
unsafe fn set_state_and_inputs(p: *mut maxdyn_sim, coords: i32, x: &[f64], u: &[f64]) {
    if coords == MIN {
        for j in 0..2 {
            ok(maxdyn_sim_set_joint_position(p, j, &x[j as usize], 1));
        }
        for j in 0..2 {
            ok(maxdyn_sim_set_joint_velocity(p, j, &x[2 + j as usize], 1));
            ok(maxdyn_sim_set_joint_input(p, j, &u[j as usize], 1));
        }
    } else {
        ok(maxdyn_sim_set_body_states(p, x.as_ptr(), 2));
        for body in 0..2 {
            let w = &u[6 * body as usize..6 * body as usize + 6];
            ok(maxdyn_sim_set_body_force(p, body, w.as_ptr(), w[3..].as_ptr()));
        }
    }
}

/// max |x_{k+1} − (x* + A δx + B δu)| for perturbations of size δ along fixed directions
/// (maximal: the quaternion perturbed along its tangent), from the equilibrium `s`.
unsafe fn prediction_errors(s: *const maxdyn_sim, coords: i32, deltas: &[f64]) -> Vec<f64> {
    let x_eq = state_of(s, coords);
    let (nx, nu) = dims(s, coords);
    let (a, b) = linearize(s, coords);
    // the equilibrium stays put: x_{k+1}(x*, 0) = x*
    let mut still = null_mut();
    ok(maxdyn_sim_copy(s, &mut still));
    ok(maxdyn_sim_step(still));
    let drift: Vec<f64> = state_of(still, coords).iter().zip(&x_eq).map(|(p, q)| p - q).collect();
    assert!(max_abs(&drift) <= 1e-15, "equilibrium drifts by {drift:?}");
    maxdyn_sim_free(still);
    let dx_dir: Vec<f64> = (0..nx).map(|i| if coords == MAX && i % 13 == 3 { 0.0 } else { ((i * 7 % 11) as f64 - 5.0) / 5.0 }).collect();
    let du_dir: Vec<f64> = (0..nu).map(|i| ((i * 5 % 7) as f64 - 3.0) / 3.0).collect();
    let mut errors = Vec::new();
    for &delta in deltas {
        let mut p = null_mut();
        ok(maxdyn_sim_copy(s, &mut p));
        let dx: Vec<f64> = dx_dir.iter().map(|d| d * delta).collect();
        let du: Vec<f64> = du_dir.iter().map(|d| d * delta).collect();
        let x: Vec<f64> = x_eq.iter().zip(&dx).map(|(e, d)| e + d).collect();
        if coords == MAX {
            // a maximal state moved by δ is off the joints by δ: step from it anyway
            let mut o = maxdyn_solver_options_default();
            ok(maxdyn_sim_get_options(p, &mut o));
            ok(maxdyn_sim_set_options(p, &maxdyn_solver_options { joint_tolerance: f64::INFINITY, ..o }));
        }
        set_state_and_inputs(p, coords, &x, &du);
        if coords == MIN {
            // the setters put the state where asked (measured 2e-14: the velocities read
            // back are the discrete ones, recomputed from the poses)
            let set: Vec<f64> = state_of(p, coords).iter().zip(&x).map(|(a, b)| a - b).collect();
            assert!(max_abs(&set) <= 1e-13, "state set off by {set:?}");
        }
        ok(maxdyn_sim_step(p));
        let next = state_of(p, coords);
        let err: Vec<f64> = (0..nx)
            .map(|r| {
                let predicted = x_eq[r] + (0..nx).map(|c| a[r * nx + c] * dx[c]).sum::<f64>() + (0..nu).map(|c| b[r * nu + c] * du[c]).sum::<f64>();
                next[r] - predicted
            })
            .collect();
        let moved: Vec<f64> = next.iter().zip(&x_eq).map(|(n, e)| n - e).collect();
        println!("coords {coords}, δ = {delta:e}: |x_(k+1) − x*| {:.3e}, |error of A δx + B δu| {:.3e}", max_abs(&moved), max_abs(&err));
        errors.push(max_abs(&err));
        maxdyn_sim_free(p);
    }
    errors
}

/// Issue 30 item 5: h ≤ 1e-20 returned OK with A all zeros (A₀₀ is 1: x_{k+1} moves with
/// x_k), h = NaN returned INVALID_ARGUMENT where NaN is NON_FINITE, and h = 1000 was
/// refused naming `values`, an argument of another function. The range is [max(solver
/// tolerance, 1e-12 |x|), 1]: its ends pass and A₀₀ is 1 there, just outside them each is
/// refused naming `h` with the range (which grows with the largest entry: an input of 1e6
/// makes it start at 1e-6), and a state the step of h cannot represent (a joint rate
/// pushed past π/dt) is refused naming `h`. Nothing is written, the sim is unchanged.
#[test]
fn difference_steps_outside_their_range_are_refused_naming_h() {
    let guard = lock();
    unsafe {
        let (m, s) = double_pendulum(false);
        let before = exact_state(s);
        let (nx, nu) = dims(s, MIN);
        let (mut a, mut b) = (vec![7.0; nx * nx], vec![7.0; nx * nu]);
        let differences = |s, h: f64, a: &mut [f64], b: &mut [f64]| maxdyn_sim_linearize_differences(s, MIN, h, a.as_mut_ptr(), b.as_mut_ptr());
        // the default Newton tolerance is 1e-10 and the state's entries are below 1
        for h in [1e-20, 1e-11, 0.99e-10, 1.01, 1000.0] {
            expect(differences(s, h, &mut a, &mut b), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize_differences", "h");
            let msg = capi_helpers::last_error();
            assert!(msg.contains("is outside [1e-10, 1e0]"), "{msg}");
            capi_helpers::names_own_parameters();
        }
        assert!(a.iter().chain(&b).all(|&x| x == 7.0), "a refused call wrote the caller's matrices");
        // at the ends the columns are coarse (tolerance / h, O(h²)) but they are columns
        for (h, close) in [(1e-10, 1.0), (1e-6, 1e-6), (1.0, 1e-2)] {
            ok(differences(s, h, &mut a, &mut b));
            assert!((a[0] - 1.0).abs() < close, "h {h}: A00 = {}", a[0]);
        }
        assert_eq!(exact_state(s), before, "the calls changed the sim");

        // the lower end grows with the entries: an input of 1e6 N·m moves by h only above 1e-6
        ok(maxdyn_sim_set_joint_input(s, 0, [1e6].as_ptr(), 1));
        expect(differences(s, 1e-7, &mut a, &mut b), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize_differences", "h");
        assert!(capi_helpers::last_error().contains("is outside [1e-6, 1e0]"), "{}", capi_helpers::last_error());
        ok(maxdyn_sim_set_joint_input(s, 0, [0.0].as_ptr(), 1));

        // a rate just below π/dt = 314.16 rad/s: moved by 0.5 the step cannot represent it
        ok(maxdyn_sim_set_joint_velocity(s, 0, [314.0].as_ptr(), 1));
        let at = exact_state(s);
        expect(differences(s, 0.5, &mut a, &mut b), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_sim_linearize_differences", "h");
        let msg = capi_helpers::last_error();
        assert!(msg.contains("moved by 5e-1 is refused") && !msg.contains("`values`"), "{msg}");
        assert_eq!(exact_state(s), at);
        maxdyn_sim_free(s);
        maxdyn_model_free(m);
        assert_eq!(guard.live(), 0);
    }
}
