//! Joint-limit and mimic results of `maxdyn_sim` from C: each limit's coordinate, bounds,
//! violation and force of the last step, and the largest limit and mimic violations.
//! Limits and mimics are set on the builder (`maxdyn_builder_set_joint_limits`,
//! `maxdyn_builder_add_mimic`); limit ids are in the order the model lists them (per
//! joint in the order limits were set, one per bounded coordinate).

use super::args::{count_i32, out, slice_mut};
use super::error::Failure;
use super::guard::{call, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};

/// Doubles written by `maxdyn_sim_get_limit`: position, lower, upper, violation, force.
pub const MAXDYN_LIMIT_SIZE: usize = 5;

/// Writes the number of limits (bounded joint coordinates) to `out_count`.
///
/// # Safety
/// `sim` is NULL or live; the out-pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_limit_count(sim: *const maxdyn_sim, out_count: *mut i32) -> maxdyn_status {
    call("maxdyn_sim_get_limit_count", || {
        let o = out(out_count, "out_count")?;
        *o = with_ref(sim, "sim", |s| Ok(count_i32(s.inner.limit_count())))?;
        Ok(())
    })
}

/// Copies a limit's state to `out` (`MAXDYN_LIMIT_SIZE` = 5 doubles): the coordinate at
/// the current configuration (rad or m; angles unwrapped, so beyond ±π where the joint has
/// turned), its lower and upper bound (±infinity for a free side), how far it is outside
/// them (0 inside; a start outside the limits is reported here before a step corrects
/// it), and the limit's generalized force in the last step (N·m or N; positive pushes up
/// from the lower bound).
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or 5 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_limit(sim: *const maxdyn_sim, limit: i32, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_limit", || {
        let o = slice_mut(out, MAXDYN_LIMIT_SIZE, "out")?;
        let r = with_ref(sim, "sim", |s| {
            let count = s.inner.limit_count();
            let l = usize::try_from(limit)
                .ok()
                .filter(|&l| l < count)
                .ok_or_else(|| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `limit`: unknown limit id {limit} (there are {count} limits)")))?;
            Ok(s.inner.limit(l)?)
        })?;
        // the bounds of a free side are ±∞ by design
        super::args::finite_answer("out", &[r.position, r.violation, r.force])?;
        o.copy_from_slice(&[r.position, r.lower, r.upper, r.violation, r.force]);
        Ok(())
    })
}

/// Writes the largest limit violation at the current configuration to `out_violation` (0 when
/// every limited coordinate is within its bounds).
///
/// # Safety
/// `sim` is NULL or live; the out-pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_limit_violation(sim: *const maxdyn_sim, out_violation: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_limit_violation", || {
        let o = out(out_violation, "out_violation")?;
        let v = with_ref(sim, "sim", |s| Ok(s.inner.limit_violation()))?;
        super::args::finite_answer("out_violation", &[v])?;
        *o = v;
        Ok(())
    })
}

/// Writes the largest |q_follower − multiplier · q_leader − offset| over the mimics at the
/// current configuration to `out_violation` (0 without mimics).
///
/// # Safety
/// `sim` is NULL or live; the out-pointer is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_mimic_violation(sim: *const maxdyn_sim, out_violation: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_mimic_violation", || {
        let o = out(out_violation, "out_violation")?;
        let v = with_ref(sim, "sim", |s| Ok(s.inner.mimic_violation()))?;
        super::args::finite_answer("out_violation", &[v])?;
        *o = v;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capi::builder::*;
    use crate::capi::model::{maxdyn_model_free, maxdyn_model_new};
    use crate::capi::sim::{maxdyn_sim_free, maxdyn_sim_new, maxdyn_sim_step};
    use crate::capi::sim_state::maxdyn_sim_set_joint_position;
    use crate::joints::JointType;
    use crate::model::{Inertia, Parent};

    /// A hinge limited to [−0.3, 0.3] started at −0.5: the violation 0.2 is reported
    /// before stepping and 0 (≤ 1e-8) two steps later; bad ids and NULLs are refused and
    /// write nothing.
    #[test]
    fn limits_are_read_from_c() {
        unsafe {
            let mut b = std::ptr::null_mut();
            assert_eq!(maxdyn_builder_new(&mut b), MAXDYN_STATUS_OK);
            let body = (*b).inner.add_body(1.0, Inertia::diagonal(0.02, 0.02, 0.001).unwrap()).unwrap();
            let j = (*b).inner.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
            (*b).inner.set_joint_limits(j, &[-0.3], &[0.3]).unwrap();
            let (mut m, mut s) = (std::ptr::null_mut(), std::ptr::null_mut());
            assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_OK);
            assert_eq!(maxdyn_sim_new(m, 1e-3, &mut s), MAXDYN_STATUS_OK);
            assert_eq!(maxdyn_sim_set_joint_position(s, j as i32, [-0.5].as_ptr(), 1), MAXDYN_STATUS_OK);
            let mut n = -1;
            assert_eq!(maxdyn_sim_get_limit_count(s, &mut n), MAXDYN_STATUS_OK);
            assert_eq!(n, 1);
            let mut r = [7.0; MAXDYN_LIMIT_SIZE];
            assert_eq!(maxdyn_sim_get_limit(s, 0, r.as_mut_ptr()), MAXDYN_STATUS_OK);
            assert!((r[0] + 0.5).abs() < 1e-12 && r[1] == -0.3 && r[2] == 0.3 && (r[3] - 0.2).abs() < 1e-12 && r[4] == 0.0, "{r:?}");
            for _ in 0..2 {
                assert_eq!(maxdyn_sim_step(s), MAXDYN_STATUS_OK);
            }
            let mut v = -1.0;
            assert_eq!(maxdyn_sim_get_limit_violation(s, &mut v), MAXDYN_STATUS_OK);
            assert!((0.0..=1e-8).contains(&v), "{v}");
            assert_eq!(maxdyn_sim_get_mimic_violation(s, &mut v), MAXDYN_STATUS_OK);
            assert_eq!(v, 0.0);
            let mut untouched = [7.0; MAXDYN_LIMIT_SIZE];
            assert_eq!(maxdyn_sim_get_limit(s, 1, untouched.as_mut_ptr()), MAXDYN_STATUS_INVALID_ARGUMENT);
            assert_eq!(maxdyn_sim_get_limit(s, -1, untouched.as_mut_ptr()), MAXDYN_STATUS_INVALID_ARGUMENT);
            assert_eq!(untouched, [7.0; MAXDYN_LIMIT_SIZE]);
            assert_eq!(maxdyn_sim_get_limit(s, 0, std::ptr::null_mut()), MAXDYN_STATUS_NULL_POINTER);
            maxdyn_sim_free(s);
            maxdyn_model_free(m);
            maxdyn_builder_free(b);
        }
    }
}
