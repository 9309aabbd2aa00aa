//! `maxdyn_batch` through the C ABI: argument errors name the argument and write nothing,
//! a control callback cannot step its own batch nor its sim (REENTRANT_CALL) but may read
//! them, a stopped sim stays stopped until cleared, and batch and sims are freed together.

use std::ffi::{c_int, c_void};
use std::ptr::{null, null_mut};

use maxdyn::capi::batch::*;
use maxdyn::capi::maxdyn_status::{self, *};
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, last_error, lock, ok};

/// One body hanging from the world by a revolute joint about x.
unsafe fn pendulum() -> *mut maxdyn_model {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let (mut body, mut joint) = (-1, -1);
    let inertia = [0.1, 0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1];
    ok(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body));
    ok(maxdyn_builder_add_joint(b, 0, -1, body, [0.0; 3].as_ptr(), [0.0, 0.0, 0.5].as_ptr(), [1.0, 0.0, 0.0].as_ptr(), &mut joint));
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    maxdyn_builder_free(b);
    m
}

#[test]
fn argument_errors_name_the_argument_and_write_nothing() {
    let serial = lock();
    unsafe {
        let m = pendulum();
        let mut batch = null_mut();
        expect(maxdyn_batch_new(null(), 2, 0.01, 1, &mut batch), MAXDYN_STATUS_NULL_POINTER, "maxdyn_batch_new", "model");
        expect(maxdyn_batch_new(m, 2, -0.01, 1, &mut batch), MAXDYN_STATUS_INVALID_TIME_STEP, "maxdyn_batch_new", "dt");
        expect(maxdyn_batch_new(m, 2, 0.01, 1, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_batch_new", "out");
        assert!(batch.is_null());
        assert_eq!(serial.live(), 1, "a failed batch_new leaves nothing behind");
        ok(maxdyn_batch_new(m, 3, 0.01, 2, &mut batch));
        assert_eq!(serial.live(), 5, "the model, the batch and its 3 sims");

        let untouched = std::ptr::dangling_mut::<maxdyn_sim>();
        let mut sim = untouched;
        expect(maxdyn_batch_get_sim(batch, 3, &mut sim), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_batch_get_sim", "index");
        assert_eq!(sim, untouched);
        let mut statuses = [maxdyn_status::MAXDYN_STATUS_INTERNAL; 2];
        expect(maxdyn_batch_step(batch, 1, None, null_mut(), statuses.as_mut_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_batch_step", "n_statuses");
        assert_eq!(statuses, [MAXDYN_STATUS_INTERNAL; 2]);
        let mut states = [0.0; 38];
        expect(maxdyn_batch_get_body_states(batch, states.as_mut_ptr(), 38), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_batch_get_body_states", "n");
        expect(maxdyn_batch_get_body_states(batch, null_mut(), 39), MAXDYN_STATUS_NULL_POINTER, "maxdyn_batch_get_body_states", "out");
        expect(maxdyn_batch_step(null_mut(), 1, None, null_mut(), null_mut(), 0), MAXDYN_STATUS_NULL_POINTER, "maxdyn_batch_step", "batch");
        let mut status = MAXDYN_STATUS_INTERNAL;
        expect(maxdyn_batch_get_status(batch, 9, &mut status), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_batch_get_status", "index");
        expect(maxdyn_batch_clear_failure(batch, 3), MAXDYN_STATUS_INVALID_ARGUMENT, "maxdyn_batch_clear_failure", "index");
        // nothing was stepped
        ok(maxdyn_batch_get_sim(batch, 0, &mut sim));
        let mut steps = 9;
        ok(maxdyn_sim_get_step_count(sim, &mut steps));
        assert_eq!(steps, 0);

        maxdyn_batch_free(batch);
        maxdyn_batch_free(null_mut());
        maxdyn_model_free(m);
        assert_eq!(serial.live(), 0);
    }
}

struct Reentry {
    batch: *mut maxdyn_batch,
    inner_status: [maxdyn_status; 2],
    size_seen: [usize; 2],
}

unsafe extern "C" fn step_again(_sim: *mut maxdyn_sim, index: usize, user: *mut c_void) -> c_int {
    let r = &mut *(user as *mut Reentry);
    r.inner_status[index] = maxdyn_batch_step(r.batch, 1, None, null_mut(), null_mut(), 0);
    ok(maxdyn_batch_get_size(r.batch, &mut r.size_seen[index]));
    0
}

#[test]
fn a_callback_cannot_step_its_batch_but_can_read_it() {
    let _serial = lock();
    unsafe {
        let m = pendulum();
        let mut batch = null_mut();
        // one thread: the callback for both sims runs here, so `Reentry` is not shared
        ok(maxdyn_batch_new(m, 2, 0.01, 1, &mut batch));
        let mut r = Reentry { batch, inner_status: [MAXDYN_STATUS_OK; 2], size_seen: [0; 2] };
        ok(maxdyn_batch_step(batch, 1, Some(step_again), &mut r as *mut Reentry as *mut c_void, null_mut(), 0));
        assert_eq!(r.inner_status, [MAXDYN_STATUS_REENTRANT_CALL; 2]);
        assert_eq!(r.size_seen, [2, 2]);
        // the batch steps again afterwards
        ok(maxdyn_batch_step(batch, 2, None, null_mut(), null_mut(), 0));
        let mut sim = null_mut();
        ok(maxdyn_batch_get_sim(batch, 1, &mut sim));
        let mut steps = 0;
        ok(maxdyn_sim_get_step_count(sim, &mut steps));
        assert_eq!(steps, 3);
        maxdyn_batch_free(batch);
        maxdyn_model_free(m);
    }
}

/// What a callback saw when it stepped its own sim: the status of each call (per sim
/// index, per kind: `maxdyn_sim_step`, `maxdyn_sim_step_n`) and its message.
struct SimReentry {
    statuses: [[maxdyn_status; 2]; 2],
    messages: [String; 2],
}

unsafe extern "C" fn step_own_sim(sim: *mut maxdyn_sim, index: usize, user: *mut c_void) -> c_int {
    let r = &mut *(user as *mut SimReentry);
    r.statuses[index][0] = maxdyn_sim_step(sim);
    r.messages[index] = last_error();
    r.statuses[index][1] = maxdyn_sim_step_n(sim, 3);
    0
}

/// Issue 30 item 9: a callback stepping the sim it was called for got OK and stepped it
/// twice per batch step; it is refused with REENTRANT_CALL as for a lone sim (whose own
/// callback gets the same), the sim takes only the batch's steps, and the batch goes on.
#[test]
fn a_callback_cannot_step_its_own_sim() {
    let _serial = lock();
    unsafe {
        let m = pendulum();
        let mut batch = null_mut();
        // one thread: the callback for both sims runs here, so `SimReentry` is not shared
        ok(maxdyn_batch_new(m, 2, 0.01, 1, &mut batch));
        let mut r = SimReentry { statuses: [[MAXDYN_STATUS_OK; 2]; 2], messages: Default::default() };
        let mut statuses = [MAXDYN_STATUS_INTERNAL; 2];
        ok(maxdyn_batch_step(batch, 2, Some(step_own_sim), &mut r as *mut SimReentry as *mut c_void, statuses.as_mut_ptr(), 2));
        assert_eq!(r.statuses, [[MAXDYN_STATUS_REENTRANT_CALL; 2]; 2]);
        assert_eq!(statuses, [MAXDYN_STATUS_OK; 2]);
        for msg in &r.messages {
            assert!(msg.starts_with("maxdyn_sim_step: argument `sim` is being stepped"), "{msg}");
        }
        for i in 0..2 {
            let mut sim = null_mut();
            ok(maxdyn_batch_get_sim(batch, i, &mut sim));
            let mut steps = 0;
            ok(maxdyn_sim_get_step_count(sim, &mut steps));
            assert_eq!(steps, 2, "sim {i} took only the batch's steps");
            // outside the callback the sim steps as any other
            ok(maxdyn_sim_step(sim));
        }
        ok(maxdyn_batch_step(batch, 1, None, null_mut(), null_mut(), 0));
        maxdyn_batch_free(batch);
        maxdyn_model_free(m);
    }
}

unsafe extern "C" fn stop_sim_1(_sim: *mut maxdyn_sim, index: usize, _user: *mut c_void) -> c_int {
    (index == 1) as c_int * 5
}

#[test]
fn a_stopped_sim_stays_stopped_until_cleared() {
    let _serial = lock();
    unsafe {
        let m = pendulum();
        let mut batch = null_mut();
        ok(maxdyn_batch_new(m, 3, 0.01, 2, &mut batch));
        let mut statuses = [MAXDYN_STATUS_INTERNAL; 3];
        let st = maxdyn_batch_step(batch, 4, Some(stop_sim_1), null_mut(), statuses.as_mut_ptr(), 3);
        assert_eq!(st, MAXDYN_STATUS_CALLBACK_ABORTED);
        let msg = last_error();
        assert!(msg.starts_with("maxdyn_batch_step: sim 1 is stopped") && msg.contains("returned 5"), "{msg}");
        assert_eq!(statuses, [MAXDYN_STATUS_OK, MAXDYN_STATUS_CALLBACK_ABORTED, MAXDYN_STATUS_OK]);
        // without the callback sim 1 is still stopped; the others step
        statuses = [MAXDYN_STATUS_INTERNAL; 3];
        assert_eq!(maxdyn_batch_step(batch, 1, None, null_mut(), statuses.as_mut_ptr(), 3), MAXDYN_STATUS_CALLBACK_ABORTED);
        assert_eq!(statuses[1], MAXDYN_STATUS_CALLBACK_ABORTED);
        let counts = |batch| {
            let mut c = [0u64; 3];
            for (i, c) in c.iter_mut().enumerate() {
                let mut sim = null_mut();
                ok(maxdyn_batch_get_sim(batch, i, &mut sim));
                ok(maxdyn_sim_get_step_count(sim, c));
            }
            c
        };
        assert_eq!(counts(batch), [5, 0, 5]);
        let mut status = MAXDYN_STATUS_OK;
        ok(maxdyn_batch_get_status(batch, 1, &mut status));
        assert_eq!(status, MAXDYN_STATUS_CALLBACK_ABORTED);
        ok(maxdyn_batch_clear_failure(batch, 1));
        ok(maxdyn_batch_get_status(batch, 1, &mut status));
        assert_eq!(status, MAXDYN_STATUS_OK);
        ok(maxdyn_batch_step(batch, 2, None, null_mut(), statuses.as_mut_ptr(), 3));
        assert_eq!(statuses, [MAXDYN_STATUS_OK; 3]);
        assert_eq!(counts(batch), [7, 2, 7]);
        // the all-sims getter agrees with each sim's own
        let mut all = [0.0; 39];
        ok(maxdyn_batch_get_body_states(batch, all.as_mut_ptr(), 39));
        for i in 0..3 {
            let mut sim = null_mut();
            ok(maxdyn_batch_get_sim(batch, i, &mut sim));
            let mut one = [0.0; 13];
            ok(maxdyn_sim_get_body_states(sim, one.as_mut_ptr(), 1));
            assert_eq!(all[13 * i..13 * i + 13], one);
        }
        let mut threads = 0;
        ok(maxdyn_batch_get_thread_count(batch, &mut threads));
        assert_eq!(threads, 2);
        maxdyn_batch_free(batch);
        maxdyn_model_free(m);
    }
}
