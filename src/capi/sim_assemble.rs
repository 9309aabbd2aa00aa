//! The assembled start from C (see `sim::assemble`): a step refuses poses that violate a
//! joint beyond `MAXDYN_JOINT_TOLERANCE` (`MAXDYN_STATUS_JOINT_VIOLATION`), and
//! `maxdyn_sim_assemble` places the bodies so that every joint holds.

use super::args::out as out_ptr;
use super::guard::{call, with_mut, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status;

/// The largest joint violation (m, or sin(angle/2) of the rotational rows) a step starts
/// from; beyond it `maxdyn_sim_step` returns `MAXDYN_STATUS_JOINT_VIOLATION`.
pub const MAXDYN_JOINT_TOLERANCE: f64 = 1e-6;
const _: () = assert!(MAXDYN_JOINT_TOLERANCE == crate::sim::JOINT_TOLERANCE);

/// Places every body so that every joint holds, at the current configuration and at the
/// one the next step predicts (so velocities satisfy the joints too): tree bodies from
/// their parents at the joint coordinates and rates their current poses give, then
/// kinematic loops closed by the smallest mass-weighted motion. The largest joint
/// violation removed goes to `*out_violation` (may be NULL). A loop that cannot close at
/// these poses gives `MAXDYN_STATUS_ASSEMBLY_FAILED` and changes nothing.
///
/// # Safety
/// `sim` is NULL or live; `out_violation` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_assemble(sim: *mut maxdyn_sim, out_violation: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_assemble", || {
        let removed = with_mut(sim, "sim", |s| Ok(s.inner.assemble()?))?;
        if !out_violation.is_null() {
            *out_violation = removed;
        }
        Ok(())
    })
}

/// The joint most violated at the current configuration into `*out_joint` (−1 when every
/// joint holds exactly) and its largest absolute constraint value into `*out_violation`.
///
/// # Safety
/// `sim` is NULL or live; `out_joint` and `out_violation` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_joint_violation(sim: *const maxdyn_sim, out_joint: *mut i32, out_violation: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_joint_violation", || {
        let (oj, ov) = (out_ptr(out_joint, "out_joint")?, out_ptr(out_violation, "out_violation")?);
        let (joint, violation) = with_ref(sim, "sim", |s| Ok(s.inner.joint_violation()))?;
        super::args::finite_answer("out_violation", &[violation])?;
        (*oj, *ov) = (joint.map_or(-1, |j| j as i32), violation);
        Ok(())
    })
}
