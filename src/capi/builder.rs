//! `maxdyn_builder`: the mutable mechanism description, from C. Every setter validates
//! all its arguments before it changes the builder (the Rust [`Builder`] guarantees the
//! same), so a failed call leaves it as it was.

use std::sync::atomic::AtomicBool;

use super::args::{array, body_index, count_i32, joint_index, out, slice_mut};
use super::error::{renamed, CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::handles::{free, into_raw, Object};
use super::status::maxdyn_status;
use crate::joints::JointType;
use crate::model::body::check_mass;
use crate::model::{Builder, Inertia, Parent};

/// The smallest time step (s) `maxdyn_sim_new` takes.
pub const MAXDYN_MIN_DT: f64 = 1e-9;
/// The largest time step (s) `maxdyn_sim_new` takes.
pub const MAXDYN_MAX_DT: f64 = 1.0;
const _: () = assert!(MAXDYN_MIN_DT == crate::sim::MIN_DT && MAXDYN_MAX_DT == crate::sim::MAX_DT);

/// The parent id meaning "the world" in `maxdyn_builder_add_joint`.
pub const MAXDYN_WORLD: i32 = -1;

/// A body id or `MAXDYN_WORLD`, named `arg` in errors.
pub(crate) fn parent_arg(id: i32, count: usize, arg: &str) -> CResult<Parent> {
    if id == MAXDYN_WORLD {
        Ok(Parent::World)
    } else {
        body_index(id, count, arg).map(Parent::Body)
    }
}

// Joint types for `maxdyn_builder_add_joint` (the joint table of the paper's appendix B;
// values are `JointType` discriminants, checked by a test). Free directions in brackets:
/// All six directions fixed.
pub const MAXDYN_JOINT_FIXED: i32 = 0;
/// Translation along the axis.
pub const MAXDYN_JOINT_PRISMATIC: i32 = 1;
/// Translation in the plane normal to the axis.
pub const MAXDYN_JOINT_PLANAR: i32 = 2;
/// Any translation, no rotation.
pub const MAXDYN_JOINT_FIXED_ORIENTATION: i32 = 3;
/// Rotation about the axis.
pub const MAXDYN_JOINT_REVOLUTE: i32 = 4;
/// Translation along and rotation about the axis.
pub const MAXDYN_JOINT_CYLINDRICAL: i32 = 5;
/// Translation in the plane normal to the axis, rotation about the axis.
pub const MAXDYN_JOINT_PLANAR_AXIS: i32 = 6;
/// Any translation, rotation about the axis.
pub const MAXDYN_JOINT_FREE_REVOLUTE: i32 = 7;
/// Any rotation about the joint point.
pub const MAXDYN_JOINT_SPHERICAL: i32 = 8;
/// Translation along the axis, any rotation.
pub const MAXDYN_JOINT_CYLINDRICAL_FREE: i32 = 9;
/// Translation in the plane normal to the axis, any rotation.
pub const MAXDYN_JOINT_PLANAR_FREE: i32 = 10;
/// No constraint (a floating body with minimal coordinates).
pub const MAXDYN_JOINT_FLOATING: i32 = 11;
/// Rotations about the axis (parent) and a second axis perpendicular to it (child): the
/// Hooke joint. Its second axis is set by `maxdyn_builder_add_universal_joint`;
/// `maxdyn_builder_add_joint` takes a perpendicular of the axis.
pub const MAXDYN_JOINT_UNIVERSAL: i32 = 12;

/// A mechanism description under construction (opaque). Create with
/// `maxdyn_builder_new`, free with `maxdyn_builder_free`.
pub struct maxdyn_builder {
    pub(crate) inner: Builder,
    poisoned: AtomicBool,
}

impl Object for maxdyn_builder {
    fn poison_flag(&self) -> &AtomicBool {
        &self.poisoned
    }
}

/// Creates an empty builder (gravity (0, 0, −9.81), no bodies) in `*out`.
///
/// # Safety
/// `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_new(out: *mut *mut maxdyn_builder) -> maxdyn_status {
    call("maxdyn_builder_new", || {
        let out = super::args::out(out, "out")?;
        *out = into_raw(maxdyn_builder { inner: Builder::new(), poisoned: AtomicBool::new(false) });
        Ok(())
    })
}

/// Frees a builder. NULL is accepted. Models made from it stay valid.
///
/// # Safety
/// `builder` is NULL or from `maxdyn_builder_new` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_free(builder: *mut maxdyn_builder) {
    free(builder)
}

/// Sets gravity (world frame, m/s²).
///
/// # Safety
/// `builder` is NULL or live; `gravity` is NULL or points to 3 doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_gravity(builder: *mut maxdyn_builder, gravity: *const f64) -> maxdyn_status {
    call("maxdyn_builder_set_gravity", || {
        let g = array::<3>(gravity, "gravity")?;
        with_mut(builder, "builder", |b| Ok(b.inner.set_gravity(g)?))
    })
}

/// Copies the gravity vector to `out` (3 doubles).
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or 3 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_get_gravity(builder: *const maxdyn_builder, out: *mut f64) -> maxdyn_status {
    call("maxdyn_builder_get_gravity", || {
        let o = slice_mut(out, 3, "out")?;
        let g = with_ref(builder, "builder", |b| Ok(b.inner.gravity()))?;
        o.copy_from_slice(&g);
        Ok(())
    })
}

/// Adds a body of `mass` (> 0) and `inertia` (row-major 3×3 about the centre of mass in
/// the body frame, symmetric positive definite, principal moments obeying the triangle
/// inequality). It starts at the origin, identity orientation, at rest. Its id (0, 1, …
/// in order of addition) goes to `*out_body`.
///
/// # Safety
/// `builder` is NULL or live; `inertia` is NULL or points to 9 doubles; `out_body` is NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_body(
    builder: *mut maxdyn_builder,
    mass: f64,
    inertia: *const f64,
    out_body: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_body", || {
        let j = array::<9>(inertia, "inertia")?;
        let out_body = out(out_body, "out_body")?;
        let id = with_mut(builder, "builder", |b| {
            check_mass(mass)?; // a call with both wrong reports the mass
            Ok(b.inner.add_body(mass, Inertia::from_rows(j)?)?)
        })?;
        *out_body = count_i32(id);
        Ok(())
    })
}

/// Sets a body's initial position `x` (world) and orientation `q` (w, x, y, z, body to
/// world; normalized here, must not be zero).
///
/// # Safety
/// `builder` is NULL or live; `x` is NULL or 3 doubles; `q` is NULL or 4 doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_body_pose(
    builder: *mut maxdyn_builder,
    body: i32,
    x: *const f64,
    q: *const f64,
) -> maxdyn_status {
    call("maxdyn_builder_set_body_pose", || {
        let x = array::<3>(x, "x")?;
        let q = array::<4>(q, "q")?;
        with_mut(builder, "builder", |b| {
            let body = body_index(body, b.inner.body_count(), "body")?;
            Ok(b.inner.set_body_pose(body, x, q)?)
        })
    })
}

/// Sets a body's initial linear velocity `v` (world frame) and angular velocity `omega`
/// (body frame).
///
/// # Safety
/// `builder` is NULL or live; `v` and `omega` are NULL or 3 doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_body_velocity(
    builder: *mut maxdyn_builder,
    body: i32,
    v: *const f64,
    omega: *const f64,
) -> maxdyn_status {
    call("maxdyn_builder_set_body_velocity", || {
        let v = array::<3>(v, "v")?;
        let w = array::<3>(omega, "omega")?;
        with_mut(builder, "builder", |b| {
            let body = body_index(body, b.inner.body_count(), "body")?;
            Ok(b.inner.set_body_velocity(body, v, w)?)
        })
    })
}

/// Adds a joint of type `joint_type` (a `MAXDYN_JOINT_*` value) between `parent` (a body
/// id or `MAXDYN_WORLD`) and `child` (a body id). `p_parent` is the joint point in the
/// parent's frame (the world frame for the world), `p_child` in the child's frame,
/// `axis` a non-zero direction in the parent frame (ignored by joints without an axis,
/// but it must still be finite and non-zero). The joint's id goes to `*out_joint`.
///
/// # Safety
/// `builder` is NULL or live; the three vectors are NULL or 3 doubles each; `out_joint`
/// is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_joint(
    builder: *mut maxdyn_builder,
    joint_type: i32,
    parent: i32,
    child: i32,
    p_parent: *const f64,
    p_child: *const f64,
    axis: *const f64,
    out_joint: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_joint", || {
        let kind = JointType::from_i32(joint_type).ok_or_else(|| {
            Failure::invalid_enum("joint_type", joint_type, "joint type", "MAXDYN_JOINT_FIXED = 0 … MAXDYN_JOINT_UNIVERSAL = 12")
        })?;
        let pp = array::<3>(p_parent, "p_parent")?;
        let pc = array::<3>(p_child, "p_child")?;
        let ax = array::<3>(axis, "axis")?;
        let out_joint = out(out_joint, "out_joint")?;
        let id = with_mut(builder, "builder", |b| {
            let n = b.inner.body_count();
            let parent = parent_arg(parent, n, "parent")?;
            let child = body_index(child, n, "child")?;
            Ok(b.inner.add_joint(kind, parent, child, pp, pc, ax)?)
        })?;
        *out_joint = count_i32(id);
        Ok(())
    })
}

/// Adds a universal (Hooke) joint between `parent` (a body id or `MAXDYN_WORLD`) and
/// `child`: the child's point `p_child` (child frame) held at `p_parent` (parent frame),
/// the parent's axis `axis_parent` (parent frame) kept perpendicular to the child's axis
/// `axis_child` (as it lies in the parent frame at zero coordinates: the child frame while
/// the orientation offset is the identity). The axes must be non-zero and perpendicular
/// (|cos| ≤ 1e-6). Two coordinates: α about `axis_parent`, then β about `axis_child`.
/// The joint's id goes to `*out_joint`.
///
/// # Safety
/// `builder` is NULL or live; the four vectors are NULL or 3 doubles each; `out_joint`
/// is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_universal_joint(
    builder: *mut maxdyn_builder,
    parent: i32,
    child: i32,
    p_parent: *const f64,
    p_child: *const f64,
    axis_parent: *const f64,
    axis_child: *const f64,
    out_joint: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_universal_joint", || {
        let pp = array::<3>(p_parent, "p_parent")?;
        let pc = array::<3>(p_child, "p_child")?;
        let aa = array::<3>(axis_parent, "axis_parent")?;
        let ab = array::<3>(axis_child, "axis_child")?;
        let out_joint = out(out_joint, "out_joint")?;
        let id = with_mut(builder, "builder", |b| {
            let n = b.inner.body_count();
            let parent = parent_arg(parent, n, "parent")?;
            let child = body_index(child, n, "child")?;
            Ok(b.inner.add_universal_joint(parent, child, pp, pc, aa, ab)?)
        })?;
        *out_joint = count_i32(id);
        Ok(())
    })
}

/// Sets a joint's orientation offset `q` (w, x, y, z; normalized here): the child's
/// orientation relative to the parent when the joint's rotational coordinates are zero.
///
/// # Safety
/// `builder` is NULL or live; `q` is NULL or 4 doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_joint_offset(builder: *mut maxdyn_builder, joint: i32, q: *const f64) -> maxdyn_status {
    call("maxdyn_builder_set_joint_offset", || {
        let q = array::<4>(q, "q")?;
        with_mut(builder, "builder", |b| {
            let joint = joint_index(joint, b.inner.joint_count(), "joint")?;
            renamed(b.inner.set_joint_offset(joint, q), &[("q_offset", "q")])
        })
    })
}

/// Number of bodies added so far, in `*out`.
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_get_body_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_get_body_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(builder, "builder", |b| Ok(count_i32(b.inner.body_count())))?;
        Ok(())
    })
}

/// Number of joints added so far, in `*out`.
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_get_joint_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_get_joint_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(builder, "builder", |b| Ok(count_i32(b.inner.joint_count())))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joint_constants_are_the_joint_type_discriminants() {
        let c = [
            MAXDYN_JOINT_FIXED,
            MAXDYN_JOINT_PRISMATIC,
            MAXDYN_JOINT_PLANAR,
            MAXDYN_JOINT_FIXED_ORIENTATION,
            MAXDYN_JOINT_REVOLUTE,
            MAXDYN_JOINT_CYLINDRICAL,
            MAXDYN_JOINT_PLANAR_AXIS,
            MAXDYN_JOINT_FREE_REVOLUTE,
            MAXDYN_JOINT_SPHERICAL,
            MAXDYN_JOINT_CYLINDRICAL_FREE,
            MAXDYN_JOINT_PLANAR_FREE,
            MAXDYN_JOINT_FLOATING,
            MAXDYN_JOINT_UNIVERSAL,
        ];
        for (k, t) in JointType::ALL.iter().enumerate() {
            assert_eq!(c[k], *t as i32, "{t:?}");
            assert_eq!(JointType::from_i32(c[k]), Some(*t));
        }
    }
}
