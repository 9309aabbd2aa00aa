//! Collision shapes of the compiled model, from C: their count, type, body, pose and
//! parameters, friction and filter, and the settings of the contacts between shapes.

use super::args::{count_i32, out, slice_mut};
use super::builder::MAXDYN_WORLD;
use super::builder_collision::shape_index;
use super::builder_shapes::maxdyn_shape_type;
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::status::maxdyn_status;
use crate::model::shape::Geometry;

/// A geometry's parameters in the order `maxdyn_builder_add_shape` takes them, padded
/// with zeros, and their number.
fn geometry_params(g: &Geometry) -> ([f64; 3], usize) {
    match *g {
        Geometry::HalfSpace => ([0.0; 3], 0),
        Geometry::Sphere { radius } => ([radius, 0.0, 0.0], 1),
        Geometry::Capsule { radius, half_length } | Geometry::Cylinder { radius, half_length } => ([radius, half_length, 0.0], 2),
        Geometry::Box { half_extents: e } => ([e.x, e.y, e.z], 3),
        // a hull has no parameters (its points: maxdyn_builder_add_hull_shape)
        // nor does static geometry (its heights, its vertices: the builder's calls)
        Geometry::Hull(_) | Geometry::HeightField(_) | Geometry::TriMesh(_) => ([0.0; 3], 0),
    }
}

/// Number of collision shapes, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_shape_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_shape_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.collision.shapes.len())))?;
        Ok(())
    })
}

/// Collision shape `shape` as `maxdyn_builder_add_shape` took it: its `MAXDYN_SHAPE_*`
/// type in `*out_type`, its body (`MAXDYN_WORLD` for a static shape) in `*out_body`, its
/// pose in the body frame in `out_pose` (7 doubles: position, then the normalized unit
/// quaternion w, x, y, z), its parameters in `out_params` (3 doubles, unused ones 0) and
/// their number in `*out_n_params` (0 to 3).
///
/// # Safety
/// `model` is NULL or live; `out_type`, `out_body` and `out_n_params` are NULL or
/// writable; `out_pose` is NULL or 7 writable doubles; `out_params` is NULL or 3.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_shape(
    model: *const maxdyn_model,
    shape: i32,
    out_type: *mut i32,
    out_body: *mut i32,
    out_pose: *mut f64,
    out_params: *mut f64,
    out_n_params: *mut usize,
) -> maxdyn_status {
    call("maxdyn_model_get_shape", || {
        let t = out(out_type, "out_type")?;
        let b = out(out_body, "out_body")?;
        let pose = slice_mut(out_pose, 7, "out_pose")?;
        let params = slice_mut(out_params, 3, "out_params")?;
        let n = out(out_n_params, "out_n_params")?;
        let s = with_ref(model, "model", |m| {
            let c = &m.inner.collision;
            Ok(c.shapes[shape_index(shape, c.shapes.len(), "shape")?].clone())
        })?;
        *t = maxdyn_shape_type::from(s.geometry.kind()) as i32;
        *b = s.body.map_or(MAXDYN_WORLD, count_i32);
        pose[..3].copy_from_slice(s.x.as_slice());
        pose[3..].copy_from_slice(s.q.as_slice());
        let (p, count) = geometry_params(&s.geometry);
        params.copy_from_slice(&p);
        *n = count;
        Ok(())
    })
}

/// The friction coefficient of collision shape `shape`, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_shape_friction(model: *const maxdyn_model, shape: i32, out: *mut f64) -> maxdyn_status {
    call("maxdyn_model_get_shape_friction", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| {
            let c = &m.inner.collision;
            Ok(c.shapes[shape_index(shape, c.shapes.len(), "shape")?].friction)
        })?;
        Ok(())
    })
}

/// The collision group bits of `shape` in `*out_group` and its mask in `*out_mask`
/// (`maxdyn_builder_set_collision_filter`).
///
/// # Safety
/// `model` is NULL or live; the out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_collision_filter(model: *const maxdyn_model, shape: i32, out_group: *mut u32, out_mask: *mut u32) -> maxdyn_status {
    call("maxdyn_model_get_collision_filter", || {
        let g = out(out_group, "out_group")?;
        let k = out(out_mask, "out_mask")?;
        let s = with_ref(model, "model", |m| {
            let c = &m.inner.collision;
            Ok(c.shapes[shape_index(shape, c.shapes.len(), "shape")?].clone())
        })?;
        (*g, *k) = (s.group, s.mask);
        Ok(())
    })
}

/// Whether collision shapes `shape_a` and `shape_b` may touch, in `*out` (1 or 0): each
/// one's group shares a bit with the other's mask, they are on different bodies (or one
/// is on the world), the bodies are not the two ends of a joint (unless
/// `maxdyn_builder_set_jointed_bodies_collide` allowed it), and the pair was not excluded.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_shapes_may_collide(model: *const maxdyn_model, shape_a: i32, shape_b: i32, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_shapes_may_collide", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| {
            let c = &m.inner.collision;
            let a = shape_index(shape_a, c.shapes.len(), "shape_a")?;
            let b = shape_index(shape_b, c.shapes.len(), "shape_b")?;
            Ok(i32::from(m.inner.shapes_may_collide(a, b)))
        })?;
        Ok(())
    })
}

/// The friction cone of the contacts between collision shapes: its `MAXDYN_CONE_*` type
/// in `*cone_type` and its number of linear-cone directions in `*directions`.
///
/// # Safety
/// `model` is NULL or live; the out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_collision_cone(model: *const maxdyn_model, cone_type: *mut i32, directions: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_collision_cone", || {
        let t = out(cone_type, "cone_type")?;
        let d = out(directions, "directions")?;
        let (cone, dirs) = with_ref(model, "model", |m| Ok((m.inner.collision.cone, m.inner.collision.directions)))?;
        *t = cone as i32;
        *d = count_i32(dirs);
        Ok(())
    })
}

/// The most contact slots between collision shapes a step of this model may hold
/// (`maxdyn_builder_set_contact_capacity`; 0 without shapes), into `*out_slots`.
///
/// # Safety
/// `model` is NULL or live; `out_slots` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_contact_capacity(model: *const maxdyn_model, out_slots: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_contact_capacity", || {
        let o = out(out_slots, "out_slots")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.collision.slot_capacity())))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::V3;

    #[test]
    fn parameters_come_back_in_the_order_add_shape_takes_them() {
        assert_eq!(geometry_params(&Geometry::HalfSpace), ([0.0; 3], 0));
        assert_eq!(geometry_params(&Geometry::Sphere { radius: 0.5 }), ([0.5, 0.0, 0.0], 1));
        assert_eq!(geometry_params(&Geometry::Capsule { radius: 0.1, half_length: 0.3 }), ([0.1, 0.3, 0.0], 2));
        assert_eq!(geometry_params(&Geometry::Cylinder { radius: 0.2, half_length: 0.4 }), ([0.2, 0.4, 0.0], 2));
        assert_eq!(geometry_params(&Geometry::Box { half_extents: V3::new(1.0, 2.0, 3.0) }), ([1.0, 2.0, 3.0], 3));
    }
}
