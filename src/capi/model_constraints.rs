//! Joint limits and mimics of the compiled model: how many there are, each joint's
//! limits, each mimic's joints and coefficients.

use super::args::{count_i32, joint_index, out, slice_mut};
use super::error::Failure;
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::status::maxdyn_status::{self, *};

/// Number of bounded joint coordinates (each coordinate with a finite lower or upper
/// limit counts once), in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_limit_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_limit_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.limits.len())))?;
        Ok(())
    })
}

/// The limits of every free direction of `joint` into `lower` and `upper`, `n` values
/// each (`n` = the joint's dof, else `MAXDYN_STATUS_WRONG_LENGTH`); a free side reads
/// `-INFINITY` / `INFINITY`.
///
/// # Safety
/// `model` is NULL or live; `lower` and `upper` are NULL or `n` writable doubles each.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_limits(
    model: *const maxdyn_model,
    joint: i32,
    lower: *mut f64,
    upper: *mut f64,
    n: usize,
) -> maxdyn_status {
    call("maxdyn_model_get_joint_limits", || {
        with_ref(model, "model", |m| {
            let j = joint_index(joint, m.inner.joint_count(), "joint")?;
            let dof = m.inner.joints[j].dof();
            if n != dof {
                return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, joint {joint} has {dof} free directions")));
            }
            let lo = slice_mut(lower, n, "lower")?;
            let hi = slice_mut(upper, n, "upper")?;
            lo.fill(f64::NEG_INFINITY);
            hi.fill(f64::INFINITY);
            for l in m.inner.limits.iter().filter(|l| l.joint == j) {
                lo[l.coordinate] = l.lower;
                hi[l.coordinate] = l.upper;
            }
            Ok(())
        })
    })
}

/// Number of mimics (`maxdyn_builder_add_mimic`, URDF `<mimic>`), in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_mimic_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_mimic_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.mimics.len())))?;
        Ok(())
    })
}

/// Mimic `mimic` (q_follower = multiplier · q_leader + offset): its follower and leader
/// joints, multiplier and offset, each in its out-pointer; `MAXDYN_STATUS_UNKNOWN_MIMIC`
/// for an id out of range.
///
/// # Safety
/// `model` is NULL or live; the four out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_mimic(
    model: *const maxdyn_model,
    mimic: i32,
    out_follower: *mut i32,
    out_leader: *mut i32,
    out_multiplier: *mut f64,
    out_offset: *mut f64,
) -> maxdyn_status {
    call("maxdyn_model_get_mimic", || {
        let (f, l) = (out(out_follower, "out_follower")?, out(out_leader, "out_leader")?);
        let (k, c) = (out(out_multiplier, "out_multiplier")?, out(out_offset, "out_offset")?);
        let mm = with_ref(model, "model", |m| {
            let count = m.inner.mimics.len();
            usize::try_from(mimic).ok().and_then(|i| m.inner.mimics.get(i)).copied().ok_or_else(|| {
                Failure::new(MAXDYN_STATUS_UNKNOWN_MIMIC, format!("argument `mimic`: unknown mimic id {mimic} (there are {count} mimics)"))
            })
        })?;
        (*f, *l, *k, *c) = (count_i32(mm.follower), count_i32(mm.leader), mm.multiplier, mm.offset);
        Ok(())
    })
}
