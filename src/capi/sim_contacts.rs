//! Contact results of `maxdyn_sim` from C: a contact's gap and the forces of the last
//! step. Contacts are added on the builder (`builder_contacts.rs`).

use super::args::{contact_index, slice_mut};
use super::guard::{call, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status;

/// Doubles written by `maxdyn_sim_get_contact`: gap, normal force, friction force (3).
pub const MAXDYN_CONTACT_SIZE: usize = 5;

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
            Ok(s.inner.contact(c)?.to_array())
        })?;
        super::args::finite_answer("out", &c)?;
        o.copy_from_slice(&c);
        Ok(())
    })
}
