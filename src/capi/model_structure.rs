//! The structure of the compiled model, after the builder is gone: each joint's type,
//! parent and child, each body's mass and inertia.

use super::args::{body_index, joint_index, out, slice_mut};
use super::builder::MAXDYN_WORLD;
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::status::maxdyn_status;
use crate::joints::Joint;

/// Reads one value of `joint` into `*out_value`.
unsafe fn get_joint<T>(function: &str, model: *const maxdyn_model, joint: i32, out_value: *mut T, arg: &str, read: impl FnOnce(&Joint) -> T) -> maxdyn_status {
    call(function, || {
        let o = out(out_value, arg)?;
        *o = with_ref(model, "model", |m| {
            let j = joint_index(joint, m.inner.joint_count(), "joint")?;
            Ok(read(&m.inner.joints[j]))
        })?;
        Ok(())
    })
}

/// The type of `joint` (a `MAXDYN_JOINT_*` value) in `*out_type`.
///
/// # Safety
/// `model` is NULL or live; `out_type` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_type(model: *const maxdyn_model, joint: i32, out_type: *mut i32) -> maxdyn_status {
    get_joint("maxdyn_model_get_joint_type", model, joint, out_type, "out_type", |j| j.kind as i32)
}

/// The parent body of `joint` (`MAXDYN_WORLD` for the world) in `*out_parent`.
///
/// # Safety
/// `model` is NULL or live; `out_parent` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_parent(model: *const maxdyn_model, joint: i32, out_parent: *mut i32) -> maxdyn_status {
    get_joint("maxdyn_model_get_joint_parent", model, joint, out_parent, "out_parent", |j| {
        j.parent.map_or(MAXDYN_WORLD, super::args::count_i32)
    })
}

/// The child body of `joint` in `*out_child`.
///
/// # Safety
/// `model` is NULL or live; `out_child` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_child(model: *const maxdyn_model, joint: i32, out_child: *mut i32) -> maxdyn_status {
    get_joint("maxdyn_model_get_joint_child", model, joint, out_child, "out_child", |j| super::args::count_i32(j.child))
}

/// The mass of `body` (kg) in `*out_mass`.
///
/// # Safety
/// `model` is NULL or live; `out_mass` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_body_mass(model: *const maxdyn_model, body: i32, out_mass: *mut f64) -> maxdyn_status {
    call("maxdyn_model_get_body_mass", || {
        let o = out(out_mass, "out_mass")?;
        *o = with_ref(model, "model", |m| {
            let b = body_index(body, m.inner.body_count(), "body")?;
            Ok(m.inner.bodies[b].mass)
        })?;
        Ok(())
    })
}

/// The inertia of `body` (kg·m², about its centre of mass in the body frame) into
/// `out_inertia`: 9 doubles, row-major, as `maxdyn_builder_add_body` takes it.
///
/// # Safety
/// `model` is NULL or live; `out_inertia` is NULL or 9 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_body_inertia(model: *const maxdyn_model, body: i32, out_inertia: *mut f64) -> maxdyn_status {
    call("maxdyn_model_get_body_inertia", || {
        let o = slice_mut(out_inertia, 9, "out_inertia")?;
        let j = with_ref(model, "model", |m| {
            let b = body_index(body, m.inner.body_count(), "body")?;
            Ok(m.inner.bodies[b].inertia)
        })?;
        for (k, v) in o.iter_mut().enumerate() {
            *v = j[(k / 3, k % 3)];
        }
        Ok(())
    })
}

/// The sizes of the whole-state vectors: `*nq` configuration entries (7 per floating base:
/// position, quaternion w x y z; then every joint's coordinates), `*nv` generalized
/// velocities (6 per floating base, then every joint's) and `*nu` joint inputs. A floating
/// base is a body no joint places (a free root: a URDF loaded floating has one).
///
/// # Safety
/// `model` is NULL or live; `nq`, `nv`, `nu` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_dimensions(model: *const maxdyn_model, nq: *mut usize, nv: *mut usize, nu: *mut usize) -> maxdyn_status {
    call("maxdyn_model_get_dimensions", || with_ref(model, "model", |m| super::sim_whole_state::write_dimensions(&m.inner, nq, nv, nu)))
}
