//! Contacts between collision shapes from C: one record per contact point the last step
//! found (`Sim::shape_contacts`). Shapes are added on the builder
//! (`maxdyn_builder_add_shape`).

use super::args::{count_i32, out};
use super::builder::MAXDYN_WORLD;
use super::error::Failure;
use super::guard::{call, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, MAXDYN_STATUS_WRONG_LENGTH};
use crate::sim::ShapeContactReport;

/// One contact point between two collision shapes after the last step: a point the step
/// was solved with, its force acting there along its normal.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct maxdyn_shape_contact {
    /// Side a's shape (on a body) and side b's (on a body or the world); the normal points
    /// from b to a.
    pub shape_a: i32,
    pub shape_b: i32,
    /// Side a's body and side b's (`MAXDYN_WORLD` for a world shape).
    pub body_a: i32,
    pub body_b: i32,
    /// The contact point (world, m): on side a's surface, moved half the gap towards b.
    pub point: [f64; 3],
    /// Unit normal (world) from b to a.
    pub normal: [f64; 3],
    /// Gap along the normal at the current configuration (m; negative: penetration).
    pub gap: f64,
    /// Normal force of the last step (N, ≥ 0, on body a; body b gets the opposite).
    pub normal_force: f64,
    /// Friction force of the last step (N, world frame, on body a).
    pub friction_force: [f64; 3],
}

impl From<ShapeContactReport> for maxdyn_shape_contact {
    fn from(r: ShapeContactReport) -> maxdyn_shape_contact {
        maxdyn_shape_contact {
            shape_a: count_i32(r.shapes[0]),
            shape_b: count_i32(r.shapes[1]),
            body_a: count_i32(r.body_a),
            body_b: r.body_b.map_or(MAXDYN_WORLD, count_i32),
            point: r.point,
            normal: r.normal,
            gap: r.gap,
            normal_force: r.normal_force,
            friction_force: r.friction_force,
        }
    }
}

/// The number of contact points between collision shapes after the last step (0 before
/// the first step), into `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_shape_contact_count(sim: *const maxdyn_sim, out_count: *mut i32) -> maxdyn_status {
    call("maxdyn_sim_get_shape_contact_count", || {
        let o = out(out_count, "out_count")?;
        *o = with_ref(sim, "sim", |s| Ok(count_i32(s.inner.shape_contact_count())))?;
        Ok(())
    })
}

/// The contact slots the step's layout holds now, filled or kept empty for a pair that
/// needed them before (at most `maxdyn_model_get_contact_capacity`), into `*out_slots`.
///
/// # Safety
/// `sim` is NULL or live; `out_slots` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_contact_slots(sim: *const maxdyn_sim, out_slots: *mut i32) -> maxdyn_status {
    call("maxdyn_sim_get_contact_slots", || {
        let o = out(out_slots, "out_slots")?;
        *o = with_ref(sim, "sim", |s| Ok(count_i32(s.inner.contact_slots())))?;
        Ok(())
    })
}

/// Copies the contact points between collision shapes of the last step into `out`
/// (room for `capacity` records, in shape-pair order) and their number into `*written`.
/// A `capacity` below the count (`maxdyn_sim_get_shape_contact_count`) is
/// `MAXDYN_STATUS_WRONG_LENGTH`, and nothing is written.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `capacity` writable records (NULL is allowed
/// when `capacity` is 0); `written` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_shape_contacts(sim: *const maxdyn_sim, out_contacts: *mut maxdyn_shape_contact, capacity: usize, written: *mut usize) -> maxdyn_status {
    call("maxdyn_sim_get_shape_contacts", || {
        let w = out(written, "written")?;
        with_ref(sim, "sim", |s| {
            let n = s.inner.shape_contact_count();
            if capacity < n {
                return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `capacity` is {capacity}, the last step found {n} shape contacts")));
            }
            if n > 0 && out_contacts.is_null() {
                return Err(Failure::null("out_contacts"));
            }
            for (k, r) in s.inner.shape_contacts().enumerate() {
                // n records fit: `capacity` ≥ n was checked, the pointer is not NULL
                *out_contacts.add(k) = r.into();
            }
            *w = n;
            Ok(())
        })
    })
}
