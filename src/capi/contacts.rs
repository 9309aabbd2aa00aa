//! Contacts from C: adding point/sphere-vs-plane and sphere-vs-sphere contacts with
//! friction, choosing each contact's friction cone, reading a contact's gap and forces
//! after a step, and the interior-point contact tolerance. Validation of the geometry
//! (finite, radius ≥ 0, non-zero normal, friction ≥ 0, distinct bodies) is the Rust
//! builder's; this layer checks pointers, ids and enums, all before anything changes.

use super::args::{array, body_index, contact_index, count_i32, out, slice_mut};
use super::builder::maxdyn_builder;
use super::error::Failure;
use super::guard::{call, with_mut, with_ref};
use super::model::maxdyn_model;
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};
use crate::contact::{ConeType, MAX_DIRECTIONS};
use crate::sim::SolverOptions;

// Friction cones for `maxdyn_builder_set_contact_cone` (values are `ConeType`
// discriminants, checked by a test).
/// Linearized (pyramidal) cone with an even number of directions built from the contact
/// normal (the default, with 4 directions).
pub const MAXDYN_CONE_LINEAR: i32 = 0;
/// Second-order (isotropic) cone |friction force| ≤ μ · normal force.
pub const MAXDYN_CONE_NONLINEAR: i32 = 1;

/// Doubles written by `maxdyn_sim_get_contact`: gap, normal force, friction force (3).
pub const MAXDYN_CONTACT_SIZE: usize = 5;

/// Adds a contact between a sphere of `radius` (≥ 0; 0 is a point) centred at `p` (body
/// frame of `body`) and the fixed half-space `normal · x ≥ offset` (world frame; `normal`
/// non-zero, normalized here), with friction coefficient `friction` (≥ 0; 0 is
/// frictionless). It gets the linear cone with 4 directions
/// (`maxdyn_builder_set_contact_cone` changes it). Its id (0, 1, … in order of addition)
/// goes to `*out_contact`.
///
/// # Safety
/// `builder` is NULL or live; `p` and `normal` are NULL or 3 doubles each; `out_contact`
/// is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_plane_contact(
    builder: *mut maxdyn_builder,
    body: i32,
    p: *const f64,
    radius: f64,
    normal: *const f64,
    offset: f64,
    friction: f64,
    out_contact: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_plane_contact", || {
        let p = array::<3>(p, "p")?;
        let n = array::<3>(normal, "normal")?;
        let o = out(out_contact, "out_contact")?;
        let id = with_mut(builder, "builder", |b| {
            body_index(body, b.inner.body_count(), "body")?;
            Ok(b.inner.add_plane_contact(body, p, radius, n, offset, friction)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Adds a contact against the ground z ≥ 0: `maxdyn_builder_add_plane_contact` with
/// normal (0, 0, 1) and offset 0.
///
/// # Safety
/// `builder` is NULL or live; `p` is NULL or 3 doubles; `out_contact` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_ground_contact(
    builder: *mut maxdyn_builder,
    body: i32,
    p: *const f64,
    radius: f64,
    friction: f64,
    out_contact: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_ground_contact", || {
        let p = array::<3>(p, "p")?;
        let o = out(out_contact, "out_contact")?;
        let id = with_mut(builder, "builder", |b| {
            body_index(body, b.inner.body_count(), "body")?;
            Ok(b.inner.add_ground_contact(body, p, radius, friction)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Adds a contact between a sphere on `body_a` (centre `pa` in its frame, radius `ra`
/// ≥ 0) and a sphere on another body `body_b` (`pb`, `rb` ≥ 0), with friction coefficient
/// `friction` (≥ 0). The contact normal points from b to a; the forces read by
/// `maxdyn_sim_get_contact` act on a (b gets the opposite). Its id goes to `*out_contact`.
///
/// # Safety
/// `builder` is NULL or live; `pa` and `pb` are NULL or 3 doubles each; `out_contact` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_sphere_contact(
    builder: *mut maxdyn_builder,
    body_a: i32,
    pa: *const f64,
    ra: f64,
    body_b: i32,
    pb: *const f64,
    rb: f64,
    friction: f64,
    out_contact: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_sphere_contact", || {
        let pa = array::<3>(pa, "pa")?;
        let pb = array::<3>(pb, "pb")?;
        let o = out(out_contact, "out_contact")?;
        let id = with_mut(builder, "builder", |b| {
            let n = b.inner.body_count();
            body_index(body_a, n, "body_a")?;
            body_index(body_b, n, "body_b")?;
            Ok(b.inner.add_sphere_contact(body_a, pa, ra, body_b, pb, rb, friction)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

fn cone_arg(cone_type: i32) -> Result<ConeType, Failure> {
    ConeType::from_i32(cone_type).ok_or_else(|| {
        Failure::new(
            MAXDYN_STATUS_INVALID_ENUM,
            format!("argument `cone_type`: {cone_type} is not a cone type (MAXDYN_CONE_LINEAR = 0, MAXDYN_CONE_NONLINEAR = 1)"),
        )
    })
}

/// Sets a contact's friction cone: `MAXDYN_CONE_LINEAR` with `directions` an even number
/// from 2 to 16 (directions spread evenly in the plane normal to the contact normal), or
/// `MAXDYN_CONE_NONLINEAR` (the second-order cone; `directions` is ignored but must be
/// ≥ 0; pass 0). The cone of a frictionless contact does not matter.
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_contact_cone(
    builder: *mut maxdyn_builder,
    contact: i32,
    cone_type: i32,
    directions: i32,
) -> maxdyn_status {
    call("maxdyn_builder_set_contact_cone", || {
        let cone = cone_arg(cone_type)?;
        let dirs = usize::try_from(directions).map_err(|_| {
            Failure::new(
                MAXDYN_STATUS_INVALID_ARGUMENT,
                format!("argument `directions` is {directions}: must be even, between 2 and {MAX_DIRECTIONS} (0 for the nonlinear cone)"),
            )
        })?;
        with_mut(builder, "builder", |b| {
            let c = contact_index(contact, b.inner.contact_count(), "contact")?;
            Ok(b.inner.set_contact_cone(c, cone, dirs)?)
        })
    })
}

/// A contact's friction cone: its `MAXDYN_CONE_*` type in `*cone_type` and its number of
/// linear-cone directions in `*directions` (kept, but unused, by the nonlinear cone).
///
/// # Safety
/// `builder` is NULL or live; the out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_get_contact_cone(
    builder: *const maxdyn_builder,
    contact: i32,
    cone_type: *mut i32,
    directions: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_get_contact_cone", || {
        let t = out(cone_type, "cone_type")?;
        let d = out(directions, "directions")?;
        let (cone, dirs) = with_ref(builder, "builder", |b| {
            let c = b.inner.contact(contact_index(contact, b.inner.contact_count(), "contact")?)?;
            Ok((c.cone, c.directions))
        })?;
        *t = cone as i32;
        *d = count_i32(dirs);
        Ok(())
    })
}

/// Number of contacts added so far, in `*out`.
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_contact_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_contact_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(builder, "builder", |b| Ok(count_i32(b.inner.contact_count())))?;
        Ok(())
    })
}

/// Number of contacts of the model, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_contact_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_contact_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.contacts.len())))?;
        Ok(())
    })
}

/// Copies a contact's state to `out` (`MAXDYN_CONTACT_SIZE` = 5 doubles): the gap (m) at
/// the current configuration (negative: penetration), then the normal force (N, ≥ 0) and
/// the friction force (3, N, world frame) of the last step, acting on the contact's body
/// (on body_a of a sphere pair; body_b gets the opposite). Forces are 0 before the first
/// step.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or 5 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_contact(sim: *const maxdyn_sim, contact: i32, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_contact", || {
        let o = slice_mut(out, MAXDYN_CONTACT_SIZE, "out")?;
        let c = with_ref(sim, "sim", |s| {
            let c = contact_index(contact, s.inner.contact_count(), "contact")?;
            Ok(s.inner.contact(c)?)
        })?;
        o.copy_from_slice(&c);
        Ok(())
    })
}

/// Sets the interior-point tolerance of contacts (> 0, default 1e-8): a step with
/// contacts converges when every complementarity product (normal force × gap slack, and
/// the friction pairs) is below it — times the largest normal force / 100 N when that
/// exceeds 1 — besides the Newton tolerance of `maxdyn_sim_set_solver_options` (whose
/// settings it keeps).
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_contact_tolerance(sim: *mut maxdyn_sim, tolerance: f64) -> maxdyn_status {
    call("maxdyn_sim_set_contact_tolerance", || {
        if !tolerance.is_finite() {
            return Err(Failure::new(MAXDYN_STATUS_NON_FINITE, format!("argument `tolerance` is {tolerance}: must be finite")));
        }
        if tolerance <= 0.0 {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `tolerance` is {tolerance}: must be > 0")));
        }
        with_mut(sim, "sim", |s| {
            let o = SolverOptions { contact_tolerance: tolerance, ..s.inner.options() };
            Ok(s.inner.set_options(o)?)
        })
    })
}

/// The contact tolerance (see `maxdyn_sim_set_contact_tolerance`) in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_contact_tolerance(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_contact_tolerance", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.options().contact_tolerance))?;
        Ok(())
    })
}

/// Sets the contact margin (m, ≥ 0, default 0.05; `INFINITY` keeps every contact in every
/// solve): a contact whose gap at the predicted next configuration exceeds the margin plus
/// the distance its point moves in one step is left out of the step's solve; one found
/// penetrating at the solution is added and the step solved again, so results are those
/// of the full problem. Other solver settings are kept.
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_contact_margin(sim: *mut maxdyn_sim, margin: f64) -> maxdyn_status {
    call("maxdyn_sim_set_contact_margin", || {
        if margin.is_nan() || margin == f64::NEG_INFINITY {
            return Err(Failure::new(MAXDYN_STATUS_NON_FINITE, format!("argument `margin` is {margin}: must be a number ≥ 0 (INFINITY allowed)")));
        }
        if margin < 0.0 {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `margin` is {margin}: must be ≥ 0")));
        }
        with_mut(sim, "sim", |s| {
            let o = SolverOptions { contact_margin: margin, ..s.inner.options() };
            Ok(s.inner.set_options(o)?)
        })
    })
}

/// The contact margin (see `maxdyn_sim_set_contact_margin`) in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_contact_margin(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_contact_margin", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.options().contact_margin))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cone_constants_are_the_cone_type_discriminants() {
        assert_eq!(MAXDYN_CONE_LINEAR, ConeType::Linear as i32);
        assert_eq!(MAXDYN_CONE_NONLINEAR, ConeType::Nonlinear as i32);
        assert_eq!(ConeType::from_i32(MAXDYN_CONE_NONLINEAR), Some(ConeType::Nonlinear));
        assert_eq!(ConeType::from_i32(2), None);
    }
}
