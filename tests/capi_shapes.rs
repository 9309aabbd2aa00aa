//! Collision shapes from C (issue 12): `maxdyn_builder_add_shape` on bodies and the world,
//! friction, filters, pair exclusion, the collision cone and the jointed-bodies switch,
//! read back from the compiled model. Every bad input has its own status, names the
//! argument, and changes nothing. The same from a C program (tests/capi_shapes.c).

use std::ptr::{null, null_mut};

use maxdyn::capi::maxdyn_shape_type::*;
use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

mod common;
#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{expect, lock, ok};
use common::{compile_c_program, run, scratch_dir};

const ID: [f64; 7] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
const SPHERE: i32 = MAXDYN_SHAPE_SPHERE as i32;

/// Two bodies, the second hinged to the first (which is free).
unsafe fn two_bodies() -> *mut maxdyn_builder {
    let mut b = null_mut();
    ok(maxdyn_builder_new(&mut b));
    let j = [0.01, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.0, 0.01];
    let mut id = -1;
    ok(maxdyn_builder_add_body(b, 1.0, j.as_ptr(), &mut id));
    ok(maxdyn_builder_add_body(b, 1.0, j.as_ptr(), &mut id));
    let (z, x) = ([0.0; 3], [1.0, 0.0, 0.0]);
    ok(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, 0, 1, z.as_ptr(), z.as_ptr(), x.as_ptr(), &mut id));
    b
}

unsafe fn shape_count(b: *const maxdyn_builder) -> i32 {
    let mut n = -1;
    ok(maxdyn_builder_get_shape_count(b, &mut n));
    n
}

#[test]
fn shapes_added_from_c_come_back_from_the_model() {
    let l = lock();
    unsafe {
        let b = two_bodies();
        let mut id = -1;
        let half = std::f64::consts::FRAC_1_SQRT_2;
        let tilted = [0.1, -0.2, 0.3, half, half, 0.0, 0.0];
        let shapes: [(i32, i32, [f64; 7], &[f64]); 5] = [
            (MAXDYN_WORLD, MAXDYN_SHAPE_PLANE as i32, ID, &[]),
            (0, SPHERE, tilted, &[0.05]),
            (0, MAXDYN_SHAPE_CAPSULE as i32, ID, &[0.02, 0.1]),
            (1, MAXDYN_SHAPE_BOX as i32, ID, &[0.1, 0.2, 0.3]),
            (1, MAXDYN_SHAPE_CYLINDER as i32, tilted, &[0.04, 0.15]),
        ];
        for (k, (body, kind, pose, params)) in shapes.iter().enumerate() {
            let p = if params.is_empty() { null() } else { params.as_ptr() };
            ok(maxdyn_builder_add_shape(b, *body, *kind, pose.as_ptr(), p, params.len(), &mut id));
            assert_eq!(id, k as i32);
        }
        ok(maxdyn_builder_set_shape_friction(b, 1, 0.4));
        ok(maxdyn_builder_set_collision_filter(b, 3, 2, !4));
        ok(maxdyn_builder_exclude_shape_pair(b, 4, 0));
        ok(maxdyn_builder_set_collision_cone(b, MAXDYN_CONE_LINEAR, 8));
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        maxdyn_builder_free(b);

        let mut n = -1;
        ok(maxdyn_model_get_shape_count(m, &mut n));
        assert_eq!(n, 5);
        for (k, (body, kind, pose, params)) in shapes.iter().enumerate() {
            let (mut t, mut on, mut got, mut p, mut np) = (-1, -2, [9.0; 7], [9.0; 3], 9);
            ok(maxdyn_model_get_shape(m, k as i32, &mut t, &mut on, got.as_mut_ptr(), p.as_mut_ptr(), &mut np));
            assert_eq!((t, on, np), (*kind, *body, params.len()), "shape {k}");
            assert_eq!(&p[..np], *params);
            assert!(p[np..].iter().all(|&v| v == 0.0), "unused parameters are 0: {p:?}");
            // the quaternion is normalized: 1/√2 twice is unit to an ulp
            let diff = got.iter().zip(pose).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(diff < 1e-15, "shape {k} pose {got:?}");
        }
        let mut mu = 0.0;
        ok(maxdyn_model_get_shape_friction(m, 1, &mut mu));
        assert_eq!(mu, 0.4);
        ok(maxdyn_model_get_shape_friction(m, 2, &mut mu));
        assert_eq!(mu, 1.0, "the default friction");
        let (mut g, mut k) = (0, 0);
        ok(maxdyn_model_get_collision_filter(m, 3, &mut g, &mut k));
        assert_eq!((g, k), (2, !4));
        ok(maxdyn_model_get_collision_filter(m, 2, &mut g, &mut k));
        assert_eq!((g, k), (1, u32::MAX), "the default filter");
        let (mut cone, mut dirs) = (-1, -1);
        ok(maxdyn_model_get_collision_cone(m, &mut cone, &mut dirs));
        assert_eq!((cone, dirs), (MAXDYN_CONE_LINEAR, 8));
        // the filter rule: world–body yes; one body no; jointed no; excluded no
        let may = |a: i32, c: i32| {
            let mut v = -1;
            ok(maxdyn_model_get_shapes_may_collide(m, a, c, &mut v));
            v
        };
        assert_eq!((may(0, 1), may(1, 2), may(1, 3), may(0, 4), may(0, 3)), (1, 0, 0, 0, 1));
        maxdyn_model_free(m);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn the_jointed_bodies_switch_and_the_filter_decide_which_pairs_may_touch() {
    let l = lock();
    unsafe {
        let b = two_bodies();
        let mut id = -1;
        ok(maxdyn_builder_add_shape(b, 0, SPHERE, ID.as_ptr(), [0.1].as_ptr(), 1, &mut id));
        ok(maxdyn_builder_add_shape(b, 1, SPHERE, ID.as_ptr(), [0.1].as_ptr(), 1, &mut id));
        ok(maxdyn_builder_set_jointed_bodies_collide(b, 1));
        let may = |b: *mut maxdyn_builder| {
            let mut m = null_mut();
            ok(maxdyn_model_new(b, &mut m));
            let mut v = -1;
            ok(maxdyn_model_get_shapes_may_collide(m, 0, 1, &mut v));
            maxdyn_model_free(m);
            v
        };
        assert_eq!(may(b), 1);
        // group 2 against a mask without bit 2
        ok(maxdyn_builder_set_collision_filter(b, 0, 2, u32::MAX));
        ok(maxdyn_builder_set_collision_filter(b, 1, 1, !2));
        assert_eq!(may(b), 0);
        ok(maxdyn_builder_set_collision_filter(b, 1, 1, u32::MAX));
        assert_eq!(may(b), 1);
        ok(maxdyn_builder_set_jointed_bodies_collide(b, 0));
        assert_eq!(may(b), 0);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

#[test]
fn bad_shapes_get_their_own_status_and_change_nothing() {
    let l = lock();
    unsafe {
        let b = two_bodies();
        let mut id = 77;
        let f = "maxdyn_builder_add_shape";
        let add = |body: i32, kind: i32, pose: &[f64; 7], params: &[f64], out: &mut i32| {
            maxdyn_builder_add_shape(b, body, kind, pose.as_ptr(), params.as_ptr(), params.len(), out)
        };
        expect(add(0, 8, &ID, &[0.1], &mut id), MAXDYN_STATUS_INVALID_ENUM, f, "shape_type");
        expect(add(0, -1, &ID, &[0.1], &mut id), MAXDYN_STATUS_INVALID_ENUM, f, "shape_type");
        expect(add(0, SPHERE, &ID, &[-0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        expect(add(0, MAXDYN_SHAPE_BOX as i32, &ID, &[0.1, 0.0, 0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        expect(add(0, MAXDYN_SHAPE_BOX as i32, &ID, &[0.1, 0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        assert!(capi_helpers::last_error().contains("2 parameters, the shape type takes 3"), "{}", capi_helpers::last_error());
        // a count no array has is refused before the array is touched
        expect(maxdyn_builder_add_shape(b, 0, SPHERE, ID.as_ptr(), [0.1].as_ptr(), usize::MAX, &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        expect(maxdyn_builder_add_shape(b, 0, MAXDYN_SHAPE_PLANE as i32, ID.as_ptr(), [0.1].as_ptr(), 1, &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        expect(add(0, MAXDYN_SHAPE_CYLINDER as i32, &ID, &[0.0, 0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        expect(add(0, MAXDYN_SHAPE_CAPSULE as i32, &ID, &[0.1, -0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        expect(add(0, SPHERE, &ID, &[f64::NAN], &mut id), MAXDYN_STATUS_NON_FINITE, f, "params");
        // sizes and offsets beyond what doubles collide (issue 25 item 5), naming both
        expect(add(0, SPHERE, &ID, &[1e308], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        assert!(capi_helpers::last_error().contains("sphere size 1e308 is beyond 1e12 m"), "{}", capi_helpers::last_error());
        expect(add(0, MAXDYN_SHAPE_BOX as i32, &ID, &[0.1, 1e154, 0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "params");
        assert!(capi_helpers::last_error().contains("box size 1e154 is beyond 1e12 m"), "{}", capi_helpers::last_error());
        expect(add(0, SPHERE, &[2e12, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], &[0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "pose");
        assert!(capi_helpers::last_error().contains("distance of the shape from its body's origin 2e12 is beyond 1e12 m"), "{}", capi_helpers::last_error());
        expect(add(0, SPHERE, &[0.0, 0.0, 0.0, 1.0, 0.2, 0.0, 0.0], &[0.1], &mut id), MAXDYN_STATUS_INVALID_SHAPE, f, "pose");
        expect(add(0, SPHERE, &[f64::NAN, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], &[0.1], &mut id), MAXDYN_STATUS_NON_FINITE, f, "pose");
        expect(add(0, SPHERE, &[0.0, 0.0, 0.0, f64::INFINITY, 0.0, 0.0, 0.0], &[0.1], &mut id), MAXDYN_STATUS_NON_FINITE, f, "pose");
        expect(add(2, SPHERE, &ID, &[0.1], &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        expect(add(-2, SPHERE, &ID, &[0.1], &mut id), MAXDYN_STATUS_UNKNOWN_BODY, f, "body");
        expect(maxdyn_builder_add_shape(b, 0, SPHERE, null(), [0.1].as_ptr(), 1, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "pose");
        expect(maxdyn_builder_add_shape(b, 0, SPHERE, ID.as_ptr(), null(), 1, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "params");
        expect(maxdyn_builder_add_shape(b, 0, SPHERE, ID.as_ptr(), [0.1].as_ptr(), 1, null_mut()), MAXDYN_STATUS_NULL_POINTER, f, "out_shape");
        expect(maxdyn_builder_add_shape(null_mut(), 0, SPHERE, ID.as_ptr(), [0.1].as_ptr(), 1, &mut id), MAXDYN_STATUS_NULL_POINTER, f, "builder");
        assert_eq!((shape_count(b), id), (0, 77), "refused shapes add nothing and write no id");

        ok(add(0, SPHERE, &ID, &[0.1], &mut id));
        let f = "maxdyn_builder_set_shape_friction";
        expect(maxdyn_builder_set_shape_friction(b, 1, 0.5), MAXDYN_STATUS_UNKNOWN_SHAPE, f, "shape");
        expect(maxdyn_builder_set_shape_friction(b, -1, 0.5), MAXDYN_STATUS_UNKNOWN_SHAPE, f, "shape");
        expect(maxdyn_builder_set_shape_friction(b, 0, -0.5), MAXDYN_STATUS_INVALID_ARGUMENT, f, "mu");
        expect(maxdyn_builder_set_shape_friction(b, 0, f64::NAN), MAXDYN_STATUS_NON_FINITE, f, "mu");
        let f = "maxdyn_builder_set_collision_filter";
        expect(maxdyn_builder_set_collision_filter(b, 3, 1, 1), MAXDYN_STATUS_UNKNOWN_SHAPE, f, "shape");
        let f = "maxdyn_builder_exclude_shape_pair";
        expect(maxdyn_builder_exclude_shape_pair(b, 0, 0), MAXDYN_STATUS_INVALID_ARGUMENT, f, "shape_b");
        expect(maxdyn_builder_exclude_shape_pair(b, 0, 4), MAXDYN_STATUS_UNKNOWN_SHAPE, f, "shape_b");
        expect(maxdyn_builder_exclude_shape_pair(b, 4, 0), MAXDYN_STATUS_UNKNOWN_SHAPE, f, "shape_a");
        let f = "maxdyn_builder_set_collision_cone";
        expect(maxdyn_builder_set_collision_cone(b, 2, 4), MAXDYN_STATUS_INVALID_ENUM, f, "cone_type");
        expect(maxdyn_builder_set_collision_cone(b, MAXDYN_CONE_LINEAR, 3), MAXDYN_STATUS_INVALID_ARGUMENT, f, "directions");
        expect(maxdyn_builder_set_collision_cone(b, MAXDYN_CONE_LINEAR, -4), MAXDYN_STATUS_INVALID_ARGUMENT, f, "directions");
        let f = "maxdyn_builder_set_jointed_bodies_collide";
        expect(maxdyn_builder_set_jointed_bodies_collide(b, 2), MAXDYN_STATUS_INVALID_ARGUMENT, f, "collide");

        // nothing changed: the shape keeps its defaults
        let mut m = null_mut();
        ok(maxdyn_model_new(b, &mut m));
        let (mut mu, mut g, mut k, mut cone, mut dirs, mut v) = (0.0, 0, 0, -1, -1, -1);
        ok(maxdyn_model_get_shape_friction(m, 0, &mut mu));
        ok(maxdyn_model_get_collision_filter(m, 0, &mut g, &mut k));
        ok(maxdyn_model_get_collision_cone(m, &mut cone, &mut dirs));
        assert_eq!((mu, g, k, cone, dirs), (1.0, 1, u32::MAX, MAXDYN_CONE_LINEAR, 4));
        let f = "maxdyn_model_get_shape";
        let (mut t, mut on, mut pose, mut p, mut np) = (-1, -1, [0.0; 7], [0.0; 3], 0);
        expect(maxdyn_model_get_shape(m, 1, &mut t, &mut on, pose.as_mut_ptr(), p.as_mut_ptr(), &mut np), MAXDYN_STATUS_UNKNOWN_SHAPE, f, "shape");
        expect(maxdyn_model_get_shape(m, 0, &mut t, &mut on, null_mut(), p.as_mut_ptr(), &mut np), MAXDYN_STATUS_NULL_POINTER, f, "out_pose");
        assert_eq!((t, on, np), (-1, -1, 0), "a failed read writes nothing");
        expect(maxdyn_model_get_shape_friction(m, 1, &mut mu), MAXDYN_STATUS_UNKNOWN_SHAPE, "maxdyn_model_get_shape_friction", "shape");
        expect(maxdyn_model_get_collision_filter(m, 1, &mut g, &mut k), MAXDYN_STATUS_UNKNOWN_SHAPE, "maxdyn_model_get_collision_filter", "shape");
        expect(maxdyn_model_get_shapes_may_collide(m, 0, 1, &mut v), MAXDYN_STATUS_UNKNOWN_SHAPE, "maxdyn_model_get_shapes_may_collide", "shape_b");
        maxdyn_model_free(m);
        maxdyn_builder_free(b);
    }
    assert_eq!(l.live(), 0);
}

/// tests/capi_shapes.c, compiled against the header with warnings as errors, adds a
/// ground and shapes on a body, reads them back and meets the error statuses.
#[test]
fn a_c_program_adds_shapes_and_reads_them_back() {
    let dir = scratch_dir("capi_shapes_c");
    let exe = dir.join("capi_shapes");
    compile_c_program(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/capi_shapes.c")), &exe, false);
    let out = run(&mut std::process::Command::new(&exe));
    println!("{out}");
    assert!(out.contains("shapes from C: 0 failures"), "{out}");
}
