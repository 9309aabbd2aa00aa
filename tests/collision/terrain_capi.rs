//! Height fields and triangle meshes from C: each bad input its own status and message,
//! nothing added; the shapes read back with their types.

use maxdyn::capi::*;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

#[test]
fn terrain_shapes_from_c_refuse_bad_input_and_change_nothing() {
    unsafe {
        let mut b = null_mut();
        assert_eq!(maxdyn_builder_new(&mut b), maxdyn_status::MAXDYN_STATUS_OK);
        let inertia = [0.01, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.0, 0.01];
        let mut body = -1;
        assert_eq!(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body), maxdyn_status::MAXDYN_STATUS_OK);
        let pose = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        let world = MAXDYN_WORLD;
        let heights = [0.0, 0.1, 0.2, 0.0, 0.1, 0.2];
        let mut nan = heights;
        nan[4] = f64::NAN;
        let vertices = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0];
        let (triangle, outside, negative, flat) = ([0, 1, 2], [0, 1, 4], [0, -1, 2], [0, 1, 3]);
        let mut bad_vertices = vertices;
        bad_vertices[7] = f64::INFINITY;
        let mut id = -1;
        let message = || CStr::from_ptr(maxdyn_last_error_message()).to_string_lossy().into_owned();
        let field = |body: i32, h: *const f64, rows: usize, cols: usize, dx: f64, id: *mut i32| maxdyn_builder_add_heightfield_shape(b, body, pose.as_ptr(), h, rows, cols, dx, 0.5, id);
        let mesh = |body: i32, v: *const f64, nv: usize, t: *const i32, nt: usize, id: *mut i32| maxdyn_builder_add_trimesh_shape(b, body, pose.as_ptr(), v, nv, t, nt, id);
        use maxdyn_status::*;
        let refused = [
            (field(world, heights.as_ptr(), 1, 6, 0.5, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "`rows`: a height field needs at least 2 rows, got 1"),
            (field(world, heights.as_ptr(), 2, 1, 0.5, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "`cols`"),
            (field(world, nan.as_ptr(), 2, 3, 0.5, &mut id), MAXDYN_STATUS_NON_FINITE, message(), "heights"),
            (field(world, heights.as_ptr(), 2, 3, 0.0, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "cell size 0 must be > 0"),
            (field(world, heights.as_ptr(), 2, 3, f64::NAN, &mut id), MAXDYN_STATUS_NON_FINITE, message(), "dx"),
            (field(world, heights.as_ptr(), 2, 3, 1e13, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "beyond"),
            (field(body, heights.as_ptr(), 2, 3, 0.5, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "static world geometry"),
            (field(7, heights.as_ptr(), 2, 3, 0.5, &mut id), MAXDYN_STATUS_UNKNOWN_BODY, message(), "7"),
            (field(world, null(), 2, 3, 0.5, &mut id), MAXDYN_STATUS_NULL_POINTER, message(), "heights"),
            (field(world, heights.as_ptr(), 2, 3, 0.5, null_mut()), MAXDYN_STATUS_NULL_POINTER, message(), "out_shape"),
            (field(world, heights.as_ptr(), usize::MAX, 3, 0.5, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "too many"),
            (mesh(world, vertices.as_ptr(), 4, outside.as_ptr(), 1, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "triangle 0 names vertex 4, there are 4"),
            (mesh(world, vertices.as_ptr(), 4, negative.as_ptr(), 1, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "names vertex -1"),
            (mesh(world, vertices.as_ptr(), 4, flat.as_ptr(), 1, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "has no area"),
            (mesh(world, vertices.as_ptr(), 4, triangle.as_ptr(), 0, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "at least 1 triangle"),
            (mesh(world, bad_vertices.as_ptr(), 4, triangle.as_ptr(), 1, &mut id), MAXDYN_STATUS_NON_FINITE, message(), "vertices"),
            (mesh(body, vertices.as_ptr(), 4, triangle.as_ptr(), 1, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "static world geometry"),
            (mesh(world, null(), 4, triangle.as_ptr(), 1, &mut id), MAXDYN_STATUS_NULL_POINTER, message(), "vertices"),
            (mesh(world, vertices.as_ptr(), 4, null(), 1, &mut id), MAXDYN_STATUS_NULL_POINTER, message(), "triangles"),
            (maxdyn_builder_add_shape(b, world, maxdyn_shape_type::MAXDYN_SHAPE_HEIGHTFIELD as i32, pose.as_ptr(), null(), 0, &mut id), MAXDYN_STATUS_INVALID_SHAPE, message(), "heights"),
            (maxdyn_builder_add_shape(b, world, 8, pose.as_ptr(), null(), 0, &mut id), MAXDYN_STATUS_INVALID_ENUM, message(), "MAXDYN_SHAPE_TRIMESH = 7"),
        ];
        for (status, expected, text, says) in &refused {
            assert_eq!(status, expected, "{text}");
            assert!(text.contains(says), "{text} should say {says}");
        }
        assert_eq!(id, -1, "a refused call writes no id");
        let mut count = -1;
        assert_eq!(maxdyn_builder_get_shape_count(b, &mut count), MAXDYN_STATUS_OK);
        assert_eq!(count, 0, "refused shapes add nothing");
        assert_eq!(field(world, heights.as_ptr(), 2, 3, 0.5, &mut id), MAXDYN_STATUS_OK);
        assert_eq!(id, 0);
        assert_eq!(mesh(world, vertices.as_ptr(), 4, triangle.as_ptr(), 1, &mut id), MAXDYN_STATUS_OK);
        assert_eq!(id, 1);
        let mut m = null_mut();
        assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_OK);
        for (shape, kind) in [(0, maxdyn_shape_type::MAXDYN_SHAPE_HEIGHTFIELD), (1, maxdyn_shape_type::MAXDYN_SHAPE_TRIMESH)] {
            let (mut t, mut on, mut n) = (-1, -2, 9);
            let (mut p, mut params) = ([0.0; 7], [0.0; 3]);
            assert_eq!(maxdyn_model_get_shape(m, shape, &mut t, &mut on, p.as_mut_ptr(), params.as_mut_ptr(), &mut n), MAXDYN_STATUS_OK);
            assert_eq!((t, on, n), (kind as i32, world, 0));
        }
        maxdyn_model_free(m);
        maxdyn_builder_free(b);
    }
}
