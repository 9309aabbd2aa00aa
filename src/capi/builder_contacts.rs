//! Contacts on the builder, from C: point/sphere-vs-plane and sphere-vs-sphere contacts
//! with friction, and each contact's friction cone. Validation of the geometry (finite,
//! radius ≥ 0, non-zero normal, friction ≥ 0, distinct bodies) is the Rust builder's;
//! this layer checks pointers, ids and enums, all before anything changes.

use super::args::{array, body_index, contact_index, count_i32, out};
use super::builder::maxdyn_builder;
use super::error::Failure;
use super::guard::{call, with_mut, with_ref};
use super::status::maxdyn_status::{self, *};
use crate::contact::{ConeType, MAX_DIRECTIONS};

// Friction cones for `maxdyn_builder_set_contact_cone` (values are `ConeType`
// discriminants, checked by a test).
/// Linearized (pyramidal) cone with an even number of directions built from the contact
/// normal (the default, with 4 directions).
pub const MAXDYN_CONE_LINEAR: i32 = 0;
/// Second-order (isotropic) cone |friction force| ≤ μ · normal force.
pub const MAXDYN_CONE_NONLINEAR: i32 = 1;

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
            let body = body_index(body, b.inner.body_count(), "body")?;
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
            let body = body_index(body, b.inner.body_count(), "body")?;
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
            let body_a = body_index(body_a, n, "body_a")?;
            let body_b = body_index(body_b, n, "body_b")?;
            Ok(b.inner.add_sphere_contact(body_a, pa, ra, body_b, pb, rb, friction)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

fn cone_arg(cone_type: i32) -> Result<ConeType, Failure> {
    ConeType::from_i32(cone_type)
        .ok_or_else(|| Failure::invalid_enum("cone_type", cone_type, "cone type", "MAXDYN_CONE_LINEAR = 0, MAXDYN_CONE_NONLINEAR = 1"))
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
pub unsafe extern "C" fn maxdyn_builder_get_contact_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_get_contact_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(builder, "builder", |b| Ok(count_i32(b.inner.contact_count())))?;
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
