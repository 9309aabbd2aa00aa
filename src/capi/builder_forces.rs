//! Force elements on the builder, from C: joint springs and dampers and point-to-point
//! springs. Values (finite, ≥ 0, distinct bodies) are validated by the Rust API; this
//! layer checks pointers, ids and array lengths, all before anything changes.

use super::args::{array, body_index, count_i32, joint_index, out, slice};
use super::builder::{maxdyn_builder, parent_arg};
use super::error::{CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::status::maxdyn_status::{self, *};

/// `n` must be the joint's number of free directions (`dof`); a joint without any is
/// left to the Rust API, which names it.
fn check_dof(joint: i32, dof: usize, n: usize) -> CResult<()> {
    if dof == 0 || n == dof {
        Ok(())
    } else {
        Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, joint {joint} has {dof} free directions")))
    }
}

/// Puts a spring on a joint's free directions (translations first): `stiffness` (each
/// ≥ 0; N/m or N·m/rad) and `rest` position in minimal coordinates, `n` values each
/// (`n` = the joint's dof). Its energy is part of the potential energy. Replaces an
/// earlier spring on the same joint. A joint without free directions is
/// `MAXDYN_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// `builder` is NULL or live; `stiffness` and `rest` are NULL or `n` doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_joint_spring(
    builder: *mut maxdyn_builder,
    joint: i32,
    stiffness: *const f64,
    rest: *const f64,
    n: usize,
) -> maxdyn_status {
    call("maxdyn_builder_set_joint_spring", || {
        with_mut(builder, "builder", |b| {
            let j = joint_index(joint, b.inner.joint_count(), "joint")?;
            check_dof(joint, b.inner.joint(j)?.dof(), n)?;
            let k = slice(stiffness, n, "stiffness")?;
            let r = slice(rest, n, "rest")?;
            Ok(b.inner.set_joint_spring(j, k, r)?)
        })
    })
}

/// Puts a damper on a joint's free directions: `damping` (each ≥ 0; N·s/m or
/// N·m·s/rad), `n` values (the joint's dof). Dampers act through the velocities at the
/// end of the step (implicit). Replaces an earlier damper on the same joint.
///
/// # Safety
/// `builder` is NULL or live; `damping` is NULL or `n` doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_joint_damper(
    builder: *mut maxdyn_builder,
    joint: i32,
    damping: *const f64,
    n: usize,
) -> maxdyn_status {
    call("maxdyn_builder_set_joint_damper", || {
        with_mut(builder, "builder", |b| {
            let j = joint_index(joint, b.inner.joint_count(), "joint")?;
            check_dof(joint, b.inner.joint(j)?.dof(), n)?;
            let c = slice(damping, n, "damping")?;
            Ok(b.inner.set_joint_damper(j, c)?)
        })
    })
}

/// Adds a point-to-point spring-damper between point `pa` of `body_a` (its body frame;
/// with `MAXDYN_WORLD` the fixed world point `pa`) and point `pb` of `body_b` (another
/// body), acting along the line between them: `stiffness` (≥ 0, N/m), `damping` (≥ 0,
/// N·s/m), `rest_length` (≥ 0, m). Its id (0, 1, … in order of addition) goes to
/// `*out_spring`.
///
/// # Safety
/// `builder` is NULL or live; `pa` and `pb` are NULL or 3 doubles each; `out_spring` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_spring(
    builder: *mut maxdyn_builder,
    body_a: i32,
    pa: *const f64,
    body_b: i32,
    pb: *const f64,
    stiffness: f64,
    damping: f64,
    rest_length: f64,
    out_spring: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_spring", || {
        let pa = array::<3>(pa, "pa")?;
        let pb = array::<3>(pb, "pb")?;
        let o = out(out_spring, "out_spring")?;
        let id = with_mut(builder, "builder", |b| {
            let nb = b.inner.body_count();
            let body_a = parent_arg(body_a, nb, "body_a")?;
            let body_b = body_index(body_b, nb, "body_b")?;
            Ok(b.inner.add_spring(body_a, pa, body_b, pb, stiffness, damping, rest_length)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Number of point-to-point springs added so far, in `*out`.
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_get_spring_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_get_spring_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(builder, "builder", |b| Ok(count_i32(b.inner.forces().point_springs.len())))?;
        Ok(())
    })
}
