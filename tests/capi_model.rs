//! The model keeps names and structure after its builder is freed, from C: names by id
//! (caller's buffer, truncated safely, full length reported) and ids by name, joint
//! type, parent, child and dof, body mass and inertia, frames with their body and pose,
//! joint limits and mimics. Every failure mode of these functions and of the builder's
//! `set_joint_limits`, `add_mimic` and `add_frame` has its own status, names the
//! argument, and changes nothing. The same read from a C program (tests/capi_model.c).

use std::ffi::{c_char, CStr};
use std::ptr::{null, null_mut};

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

mod common;
#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, lock, ok};
use common::{compile_c_program, run, scratch_dir};

const INF: f64 = f64::INFINITY;
/// A symmetric inertia with distinct off-diagonal terms, to see each entry in its place.
const SKEWED: [f64; 9] = [0.3, 0.01, 0.02, 0.01, 0.2, 0.03, 0.02, 0.03, 0.15];

fn c(s: &str) -> std::ffi::CString {
    std::ffi::CString::new(s).unwrap()
}

/// base (welded to the world) → upper (revolute "shoulder") → lower (prismatic "slide")
/// → ball (spherical "wrist"); "slide" mimics "shoulder"; limits on both; frames "tool"
/// on lower and "origin" on the world.
unsafe fn builder() -> *mut maxdyn_builder {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let mut id = -1;
    for (k, (mass, name)) in [(2.0, "base"), (1.0, "upper"), (0.5, "lower"), (0.25, "ball")].into_iter().enumerate() {
        let j: Vec<f64> = SKEWED.iter().map(|v| v * mass).collect();
        ok(maxdyn_builder_add_body(b, mass, j.as_ptr(), &mut id));
        assert_eq!(id, k as i32);
        ok(maxdyn_builder_set_body_name(b, id, c(name).as_ptr()));
    }
    let (z, x) = ([0.0; 3], [1.0, 0.0, 0.0]);
    let joints = [(MAXDYN_JOINT_FIXED, MAXDYN_WORLD, 0, "weld"), (MAXDYN_JOINT_REVOLUTE, 0, 1, "shoulder"), (MAXDYN_JOINT_PRISMATIC, 1, 2, "slide"), (MAXDYN_JOINT_SPHERICAL, 2, 3, "wrist")];
    for (k, (kind, parent, child, name)) in joints.into_iter().enumerate() {
        ok(maxdyn_builder_add_joint(b, kind, parent, child, z.as_ptr(), z.as_ptr(), x.as_ptr(), &mut id));
        assert_eq!(id, k as i32);
        ok(maxdyn_builder_set_joint_name(b, id, c(name).as_ptr()));
    }
    ok(maxdyn_builder_set_joint_limits(b, 1, [-1.0].as_ptr(), [2.0].as_ptr(), 1));
    ok(maxdyn_builder_set_joint_limits(b, 2, [-INF].as_ptr(), [0.3].as_ptr(), 1));
    ok(maxdyn_builder_set_joint_limits(b, 3, [-INF; 3].as_ptr(), [INF; 3].as_ptr(), 3));
    ok(maxdyn_builder_add_mimic(b, 2, 1, 0.1, 0.05, &mut id));
    assert_eq!(id, 0);
    ok(maxdyn_builder_add_frame(b, c("tool").as_ptr(), 2, [0.0, 0.0, 0.4, 0.0, 0.0, 0.0, 2.0].as_ptr(), &mut id));
    assert_eq!(id, 0);
    ok(maxdyn_builder_add_frame(b, c("origin").as_ptr(), MAXDYN_WORLD, [1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0].as_ptr(), &mut id));
    assert_eq!(id, 1);
    b
}

/// The model of `builder()`, the builder already freed.
unsafe fn model() -> *mut maxdyn_model {
    let b = builder();
    let mut m = null_mut();
    ok(maxdyn_model_new(b, &mut m));
    maxdyn_builder_free(b);
    m
}

type NameGetter = unsafe extern "C" fn(*const maxdyn_model, i32, *mut c_char, usize, *mut usize) -> maxdyn_status;

/// The whole name, read with a buffer of the reported length.
unsafe fn name_of(m: *const maxdyn_model, get: NameGetter, id: i32) -> String {
    let mut len = usize::MAX;
    ok(get(m, id, null_mut(), 0, &mut len));
    let mut buf = vec![0x7f as c_char; len + 1];
    let mut again = 0;
    ok(get(m, id, buf.as_mut_ptr(), buf.len(), &mut again));
    assert_eq!(again, len);
    CStr::from_ptr(buf.as_ptr()).to_str().unwrap().to_string()
}

type Find = unsafe extern "C" fn(*const maxdyn_model, *const c_char, *mut i32) -> maxdyn_status;

unsafe fn find(m: *const maxdyn_model, f: Find, name: &str) -> i32 {
    let mut id = -7;
    ok(f(m, c(name).as_ptr(), &mut id));
    id
}

#[test]
fn names_and_structure_survive_the_builder() {
    let l = lock();
    unsafe {
        let m = model();
        let bodies = ["base", "upper", "lower", "ball"];
        let joints = ["weld", "shoulder", "slide", "wrist"];
        for (k, name) in bodies.iter().enumerate() {
            assert_eq!(name_of(m, maxdyn_model_get_body_name, k as i32), *name);
            assert_eq!(find(m, maxdyn_model_find_body, name), k as i32);
        }
        for (k, name) in joints.iter().enumerate() {
            assert_eq!(name_of(m, maxdyn_model_get_joint_name, k as i32), *name);
            assert_eq!(find(m, maxdyn_model_find_joint, name), k as i32);
        }
        for (k, name) in ["tool", "origin"].iter().enumerate() {
            assert_eq!(name_of(m, maxdyn_model_get_frame_name, k as i32), *name);
            assert_eq!(find(m, maxdyn_model_find_frame, name), k as i32);
        }

        // type, parent (the world is MAXDYN_WORLD), child, dof of each joint
        let expected = [(MAXDYN_JOINT_FIXED, MAXDYN_WORLD, 0, 0), (MAXDYN_JOINT_REVOLUTE, 0, 1, 1), (MAXDYN_JOINT_PRISMATIC, 1, 2, 1), (MAXDYN_JOINT_SPHERICAL, 2, 3, 3)];
        for (j, want) in expected.into_iter().enumerate() {
            let (mut kind, mut parent, mut child, mut dof) = (-9, -9, -9, -9);
            ok(maxdyn_model_get_joint_type(m, j as i32, &mut kind));
            ok(maxdyn_model_get_joint_parent(m, j as i32, &mut parent));
            ok(maxdyn_model_get_joint_child(m, j as i32, &mut child));
            ok(maxdyn_model_get_joint_dof(m, j as i32, &mut dof));
            assert_eq!((kind, parent, child, dof), want, "joint {j}");
        }

        // mass and inertia, row-major as given
        for (k, mass) in [2.0, 1.0, 0.5, 0.25].into_iter().enumerate() {
            let (mut got, mut j) = (0.0, [0.0; 9]);
            ok(maxdyn_model_get_body_mass(m, k as i32, &mut got));
            ok(maxdyn_model_get_body_inertia(m, k as i32, j.as_mut_ptr()));
            assert_eq!(got, mass);
            assert_eq!(j, SKEWED.map(|v| v * mass), "body {k}");
        }

        // frames: body and pose (the quaternion normalized)
        let mut n = -1;
        ok(maxdyn_model_get_frame_count(m, &mut n));
        assert_eq!(n, 2);
        let (mut body, mut pose) = (-9, [0.0; 7]);
        ok(maxdyn_model_get_frame_body(m, 0, &mut body));
        ok(maxdyn_model_get_frame_pose(m, 0, pose.as_mut_ptr()));
        assert_eq!((body, pose), (2, [0.0, 0.0, 0.4, 0.0, 0.0, 0.0, 1.0]));
        ok(maxdyn_model_get_frame_body(m, 1, &mut body));
        ok(maxdyn_model_get_frame_pose(m, 1, pose.as_mut_ptr()));
        assert_eq!((body, pose), (MAXDYN_WORLD, [1.0, 2.0, 3.0, 1.0, 0.0, 0.0, 0.0]));

        // limits: two bounded coordinates; a free side reads ±INFINITY
        ok(maxdyn_model_get_limit_count(m, &mut n));
        assert_eq!(n, 2, "the spherical joint's ±inf limits bound nothing");
        let (mut lo, mut hi) = ([0.0; 3], [0.0; 3]);
        ok(maxdyn_model_get_joint_limits(m, 1, lo.as_mut_ptr(), hi.as_mut_ptr(), 1));
        assert_eq!((lo[0], hi[0]), (-1.0, 2.0));
        ok(maxdyn_model_get_joint_limits(m, 2, lo.as_mut_ptr(), hi.as_mut_ptr(), 1));
        assert_eq!((lo[0], hi[0]), (-INF, 0.3));
        ok(maxdyn_model_get_joint_limits(m, 3, lo.as_mut_ptr(), hi.as_mut_ptr(), 3));
        assert_eq!((lo, hi), ([-INF; 3], [INF; 3]));
        ok(maxdyn_model_get_joint_limits(m, 0, null_mut(), null_mut(), 0));

        // the mimic
        ok(maxdyn_model_get_mimic_count(m, &mut n));
        assert_eq!(n, 1);
        let (mut f, mut ld, mut k, mut off) = (-9, -9, 0.0, 0.0);
        ok(maxdyn_model_get_mimic(m, 0, &mut f, &mut ld, &mut k, &mut off));
        assert_eq!((f, ld, k, off), (2, 1, 0.1, 0.05));
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

/// A short buffer gets a NUL-terminated prefix cut at a character boundary, and the
/// full length; duplicate names find the lowest id.
#[test]
fn names_are_truncated_safely_and_duplicates_find_the_lowest_id() {
    let l = lock();
    unsafe {
        let b = builder();
        ok(maxdyn_builder_set_body_name(b, 0, c("épaule").as_ptr()));
        ok(maxdyn_builder_set_body_name(b, 3, c("upper").as_ptr()));
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        maxdyn_builder_free(b);
        let mut buf = [0x7f as c_char; 8];
        let mut len = 0;
        ok(maxdyn_model_get_body_name(m, 0, buf.as_mut_ptr(), 2, &mut len));
        assert_eq!((len, buf[0], buf[1]), (7, 0, 0x7f), "é (2 bytes) does not fit in 1: an empty string");
        ok(maxdyn_model_get_body_name(m, 0, buf.as_mut_ptr(), 4, &mut len));
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_bytes(), "ép".as_bytes());
        assert_eq!(len, 7, "the full length, so the caller knows it was cut");
        ok(maxdyn_model_get_body_name(m, 0, buf.as_mut_ptr(), 8, &mut len));
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "épaule");
        assert_eq!(find(m, maxdyn_model_find_body, "upper"), 1, "bodies 1 and 3 are both `upper`");
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn model_queries_refuse_bad_ids_names_and_pointers_with_their_status() {
    let l = lock();
    unsafe {
        let m = model();
        let (mut i, mut x, mut len) = (-5, -5.0, 99usize);
        let mut buf = [0 as c_char; 8];
        let mut nine = [-5.0; 9];
        let (mut lo, mut hi) = ([-5.0; 3], [-5.0; 3]);
        let none: *const maxdyn_model = null();

        let getters: [(&str, NameGetter, i32, maxdyn_status, &str); 3] = [
            ("maxdyn_model_get_body_name", maxdyn_model_get_body_name, 4, MAXDYN_STATUS_UNKNOWN_BODY, "body"),
            ("maxdyn_model_get_joint_name", maxdyn_model_get_joint_name, -1, MAXDYN_STATUS_UNKNOWN_JOINT, "joint"),
            ("maxdyn_model_get_frame_name", maxdyn_model_get_frame_name, 2, MAXDYN_STATUS_UNKNOWN_FRAME, "frame"),
        ];
        for (name, get, bad, status, arg) in getters {
            expect(get(m, bad, buf.as_mut_ptr(), 8, &mut len), status, name, arg);
            expect(get(m, 0, null_mut(), 8, &mut len), MAXDYN_STATUS_NULL_POINTER, name, "name");
            expect(get(m, 0, buf.as_mut_ptr(), 8, null_mut()), MAXDYN_STATUS_NULL_POINTER, name, "out_length");
            expect(get(none, 0, buf.as_mut_ptr(), 8, &mut len), MAXDYN_STATUS_NULL_POINTER, name, "model");
        }
        assert_eq!((len, buf), (99, [0; 8]), "failed calls write nothing");

        let finders: [(&str, Find, maxdyn_status, &str); 3] = [
            ("maxdyn_model_find_body", maxdyn_model_find_body, MAXDYN_STATUS_UNKNOWN_BODY, "out_body"),
            ("maxdyn_model_find_joint", maxdyn_model_find_joint, MAXDYN_STATUS_UNKNOWN_JOINT, "out_joint"),
            ("maxdyn_model_find_frame", maxdyn_model_find_frame, MAXDYN_STATUS_UNKNOWN_FRAME, "out_frame"),
        ];
        for (name, f, missing, out_arg) in finders {
            expect(f(m, c("elbow").as_ptr(), &mut i), missing, name, "name");
            assert!(capi_helpers::last_error().contains("\"elbow\""), "{}", capi_helpers::last_error());
            expect(f(m, c("").as_ptr(), &mut i), MAXDYN_STATUS_INVALID_ARGUMENT, name, "name");
            expect(f(m, [0xffu8, 0].as_ptr().cast(), &mut i), MAXDYN_STATUS_INVALID_ARGUMENT, name, "name");
            expect(f(m, null(), &mut i), MAXDYN_STATUS_NULL_POINTER, name, "name");
            expect(f(m, c("base").as_ptr(), null_mut()), MAXDYN_STATUS_NULL_POINTER, name, out_arg);
            expect(f(none, c("base").as_ptr(), &mut i), MAXDYN_STATUS_NULL_POINTER, name, "model");
        }

        expect(maxdyn_model_get_joint_type(m, 4, &mut i), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_model_get_joint_type", "joint");
        expect(maxdyn_model_get_joint_type(m, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_joint_type", "out_type");
        expect(maxdyn_model_get_joint_parent(m, -2, &mut i), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_model_get_joint_parent", "joint");
        expect(maxdyn_model_get_joint_parent(m, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_joint_parent", "out_parent");
        expect(maxdyn_model_get_joint_child(m, 9, &mut i), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_model_get_joint_child", "joint");
        expect(maxdyn_model_get_joint_child(none, 0, &mut i), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_joint_child", "model");
        expect(maxdyn_model_get_body_mass(m, 4, &mut x), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_model_get_body_mass", "body");
        expect(maxdyn_model_get_body_mass(m, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_body_mass", "out_mass");
        expect(maxdyn_model_get_body_inertia(m, -1, nine.as_mut_ptr()), MAXDYN_STATUS_UNKNOWN_BODY, "maxdyn_model_get_body_inertia", "body");
        expect(maxdyn_model_get_body_inertia(m, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_body_inertia", "out_inertia");
        expect(maxdyn_model_get_frame_count(m, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_frame_count", "out");
        expect(maxdyn_model_get_frame_body(m, 2, &mut i), MAXDYN_STATUS_UNKNOWN_FRAME, "maxdyn_model_get_frame_body", "frame");
        expect(maxdyn_model_get_frame_body(m, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_frame_body", "out_body");
        expect(maxdyn_model_get_frame_pose(m, -1, nine.as_mut_ptr()), MAXDYN_STATUS_UNKNOWN_FRAME, "maxdyn_model_get_frame_pose", "frame");
        expect(maxdyn_model_get_frame_pose(m, 0, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_frame_pose", "out_pose");
        expect(maxdyn_model_get_limit_count(none, &mut i), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_limit_count", "model");
        expect(maxdyn_model_get_joint_limits(m, 4, lo.as_mut_ptr(), hi.as_mut_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, "maxdyn_model_get_joint_limits", "joint");
        expect(maxdyn_model_get_joint_limits(m, 3, lo.as_mut_ptr(), hi.as_mut_ptr(), 1), MAXDYN_STATUS_WRONG_LENGTH, "maxdyn_model_get_joint_limits", "n");
        expect(maxdyn_model_get_joint_limits(m, 1, null_mut(), hi.as_mut_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_joint_limits", "lower");
        expect(maxdyn_model_get_joint_limits(m, 1, lo.as_mut_ptr(), null_mut(), 1), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_joint_limits", "upper");
        expect(maxdyn_model_get_mimic_count(m, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_mimic_count", "out");
        let (mut f, mut ld, mut k, mut off) = (-5, -5, -5.0, -5.0);
        expect(maxdyn_model_get_mimic(m, 1, &mut f, &mut ld, &mut k, &mut off), MAXDYN_STATUS_UNKNOWN_MIMIC, "maxdyn_model_get_mimic", "mimic");
        expect(maxdyn_model_get_mimic(m, -1, &mut f, &mut ld, &mut k, &mut off), MAXDYN_STATUS_UNKNOWN_MIMIC, "maxdyn_model_get_mimic", "mimic");
        expect(maxdyn_model_get_mimic(m, 0, &mut f, &mut ld, &mut k, null_mut()), MAXDYN_STATUS_NULL_POINTER, "maxdyn_model_get_mimic", "out_offset");
        assert_eq!((i, x, nine, lo, hi, f, ld, k, off), (-5, -5.0, [-5.0; 9], [-5.0; 3], [-5.0; 3], -5, -5, -5.0, -5.0), "failed calls write nothing");
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn limits_mimics_and_frames_refuse_bad_input_with_their_status_and_change_nothing() {
    let l = lock();
    unsafe {
        let b = builder();
        let (one_lo, one_hi) = ([-1.0], [1.0]);
        let sl = "maxdyn_builder_set_joint_limits";
        expect(maxdyn_builder_set_joint_limits(b, 4, one_lo.as_ptr(), one_hi.as_ptr(), 1), MAXDYN_STATUS_UNKNOWN_JOINT, sl, "joint");
        expect(maxdyn_builder_set_joint_limits(b, 1, one_lo.as_ptr(), one_hi.as_ptr(), 2), MAXDYN_STATUS_WRONG_LENGTH, sl, "n");
        expect(maxdyn_builder_set_joint_limits(b, 1, null(), one_hi.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, sl, "lower");
        expect(maxdyn_builder_set_joint_limits(b, 1, one_lo.as_ptr(), null(), 1), MAXDYN_STATUS_NULL_POINTER, sl, "upper");
        expect(maxdyn_builder_set_joint_limits(b, 1, [f64::NAN].as_ptr(), one_hi.as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, sl, "lower");
        expect(maxdyn_builder_set_joint_limits(b, 1, one_lo.as_ptr(), [f64::NAN].as_ptr(), 1), MAXDYN_STATUS_NON_FINITE, sl, "upper");
        expect(maxdyn_builder_set_joint_limits(b, 1, [2.0].as_ptr(), one_hi.as_ptr(), 1), MAXDYN_STATUS_INVALID_ARGUMENT, sl, "lower");
        expect(maxdyn_builder_set_joint_limits(b, 3, [-1.0; 3].as_ptr(), [1.0; 3].as_ptr(), 3), MAXDYN_STATUS_INVALID_ARGUMENT, sl, "lower");
        expect(maxdyn_builder_set_joint_limits(null_mut(), 1, one_lo.as_ptr(), one_hi.as_ptr(), 1), MAXDYN_STATUS_NULL_POINTER, sl, "builder");

        let am = "maxdyn_builder_add_mimic";
        let mut id = -5;
        expect(maxdyn_builder_add_mimic(b, 4, 1, 1.0, 0.0, &mut id), MAXDYN_STATUS_UNKNOWN_JOINT, am, "follower");
        expect(maxdyn_builder_add_mimic(b, 1, -1, 1.0, 0.0, &mut id), MAXDYN_STATUS_UNKNOWN_JOINT, am, "leader");
        expect(maxdyn_builder_add_mimic(b, 1, 2, f64::NAN, 0.0, &mut id), MAXDYN_STATUS_NON_FINITE, am, "multiplier");
        expect(maxdyn_builder_add_mimic(b, 1, 2, 1.0, INF, &mut id), MAXDYN_STATUS_NON_FINITE, am, "offset");
        expect(maxdyn_builder_add_mimic(b, 1, 1, 1.0, 0.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, am, "leader");
        expect(maxdyn_builder_add_mimic(b, 3, 1, 1.0, 0.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, am, "follower");
        expect(maxdyn_builder_add_mimic(b, 2, 1, 1.0, 0.0, &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, am, "follower");
        expect(maxdyn_builder_add_mimic(b, 1, 2, 1.0, 0.0, null_mut()), MAXDYN_STATUS_NULL_POINTER, am, "out_mimic");

        let af = "maxdyn_builder_add_frame";
        let pose = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let tip = c("tip");
        expect(maxdyn_builder_add_frame(b, null(), 0, pose.as_ptr(), &mut id), MAXDYN_STATUS_NULL_POINTER, af, "name");
        expect(maxdyn_builder_add_frame(b, c("").as_ptr(), 0, pose.as_ptr(), &mut id), MAXDYN_STATUS_INVALID_ARGUMENT, af, "name");
        expect(maxdyn_builder_add_frame(b, tip.as_ptr(), 4, pose.as_ptr(), &mut id), MAXDYN_STATUS_UNKNOWN_BODY, af, "body");
        expect(maxdyn_builder_add_frame(b, tip.as_ptr(), -2, pose.as_ptr(), &mut id), MAXDYN_STATUS_UNKNOWN_BODY, af, "body");
        expect(maxdyn_builder_add_frame(b, tip.as_ptr(), 0, null(), &mut id), MAXDYN_STATUS_NULL_POINTER, af, "pose");
        let nan = [0.0, f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0];
        expect(maxdyn_builder_add_frame(b, tip.as_ptr(), 0, nan.as_ptr(), &mut id), MAXDYN_STATUS_NON_FINITE, af, "pose");
        let zero_q = [0.0; 7];
        expect(maxdyn_builder_add_frame(b, tip.as_ptr(), 0, zero_q.as_ptr(), &mut id), MAXDYN_STATUS_ZERO_AXIS, af, "pose");
        expect(maxdyn_builder_add_frame(b, tip.as_ptr(), 0, pose.as_ptr(), null_mut()), MAXDYN_STATUS_NULL_POINTER, af, "out_frame");
        expect(maxdyn_builder_add_frame(null_mut(), tip.as_ptr(), 0, pose.as_ptr(), &mut id), MAXDYN_STATUS_NULL_POINTER, af, "builder");
        assert_eq!(id, -5, "failed calls write nothing");

        // nothing changed: the model has builder()'s limits, mimic and frames
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        let (mut limits, mut mimics, mut frames) = (0, 0, 0);
        ok(maxdyn_model_get_limit_count(m, &mut limits));
        ok(maxdyn_model_get_mimic_count(m, &mut mimics));
        ok(maxdyn_model_get_frame_count(m, &mut frames));
        assert_eq!((limits, mimics, frames), (2, 1, 2));
        let (mut lo, mut hi) = ([0.0], [0.0]);
        ok(maxdyn_model_get_joint_limits(m, 1, lo.as_mut_ptr(), hi.as_mut_ptr(), 1));
        assert_eq!((lo, hi), ([-1.0], [2.0]));

        // a later call replaces a joint's limits; a frame on the world is fine
        ok(maxdyn_builder_set_joint_limits(b, 1, [-INF].as_ptr(), [0.5].as_ptr(), 1));
        ok(maxdyn_builder_add_frame(b, tip.as_ptr(), MAXDYN_WORLD, pose.as_ptr(), &mut id));
        assert_eq!(id, 2);
        let mut m2 = null_mut();
        ok(maxdyn_model_new(b, &mut m2));
        ok(maxdyn_model_get_joint_limits(m2, 1, lo.as_mut_ptr(), hi.as_mut_ptr(), 1));
        assert_eq!((lo, hi), ([-INF], [0.5]));
        maxdyn_model_free(m2);
        maxdyn_model_free(m);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// A mimic cycle ("shoulder" following "slide", which follows "shoulder") is accepted
/// mimic by mimic but refused by `maxdyn_model_new` with MAXDYN_STATUS_INVALID_MODEL, the
/// message naming the joints of the cycle; `*out` is not written.
#[test]
fn a_mimic_cycle_is_refused_by_model_new_naming_the_joints() {
    let l = lock();
    unsafe {
        let b = builder();
        let mut id = -1;
        ok(maxdyn_builder_add_mimic(b, 1, 2, 1.0, 0.0, &mut id));
        assert_eq!(id, 1);
        let mut m = null_mut();
        assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_INVALID_MODEL);
        assert!(m.is_null(), "nothing written");
        let msg = capi_helpers::last_error();
        assert!(msg.starts_with("maxdyn_model_new: invalid model: mimic cycle: joint `shoulder` (1) → `slide` (2) → `shoulder` (1)"), "{msg}");
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// tests/capi_model.c, compiled against the header with warnings as errors, builds a
/// model, frees the builder, and reads names, structure, frames, limits and a mimic.
#[test]
fn a_c_program_reads_names_and_structure_after_the_builder_is_freed() {
    let dir = scratch_dir("capi_model_c");
    let exe = dir.join("capi_model");
    compile_c_program(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/capi_model.c")), &exe, false);
    let out = run(&mut std::process::Command::new(&exe));
    println!("{out}");
    assert!(out.contains("model from C: 0 failures"), "{out}");
}
