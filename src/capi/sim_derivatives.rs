//! Step derivatives from C (see `derivatives`): the linearization x_{k+1} = f(x_k, u_k) of
//! one step from the sim's current state and inputs (the sim is not advanced), its sizes,
//! A = ∂f/∂x and B = ∂f/∂u by the implicit function theorem, and the same by central
//! differences.

use super::args::{finite_answer, out as out_ptr, slice_mut};
use super::error::{renamed, Failure, SIM};
use super::guard::{call, with_ref};
use super::model::maxdyn_model;
use super::sim::maxdyn_sim;
use super::sim_kinematics::coords as coords_arg;
use super::status::maxdyn_status::{self, *};

/// The sizes of a linearization x_{k+1} = f(x_k, u_k) in `coords` into `*nx` and `*nu`.
/// `MAXDYN_COORDS_MINIMAL`: x is each floating base's tangent (6: a move along, then a
/// turn about, its frame's own axes; 0 at the current state) and every joint's positions,
/// then the generalized velocity of `maxdyn_sim_get_generalized_velocity` (nx = 2 nv);
/// u is every joint's inputs in joint-id order (nu).
/// `MAXDYN_COORDS_MAXIMAL`: x is the 13 doubles of `maxdyn_sim_get_body_state` per body;
/// u is every body's wrench, force (world, 3) then torque (body frame, 3), the force at
/// the point set by `maxdyn_sim_set_body_wrench`.
///
/// # Safety
/// `model` is NULL or live; `nx`, `nu` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_state_size(model: *const maxdyn_model, coords: i32, nx: *mut usize, nu: *mut usize) -> maxdyn_status {
    call("maxdyn_model_state_size", || {
        let c = coords_arg(coords)?;
        let (ox, ou) = (out_ptr(nx, "nx")?, out_ptr(nu, "nu")?);
        let (x, u) = with_ref(model, "model", |m| Ok(m.inner.linearization_size(c)))?;
        (*ox, *ou) = (x, u);
        Ok(())
    })
}

/// The sizes of `maxdyn_model_state_size` for the sim's model (whose handle may be freed
/// already).
///
/// # Safety
/// `sim` is NULL or live; `nx`, `nu` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_state_dimensions(sim: *const maxdyn_sim, coords: i32, nx: *mut usize, nu: *mut usize) -> maxdyn_status {
    call("maxdyn_sim_state_dimensions", || {
        let c = coords_arg(coords)?;
        let (ox, ou) = (out_ptr(nx, "nx")?, out_ptr(nu, "nu")?);
        let (x, u) = with_ref(sim, "sim", |s| Ok(s.inner.model().linearization_size(c)))?;
        (*ox, *ou) = (x, u);
        Ok(())
    })
}

/// B = ∂x_{k+1}/∂u (nx × nu row-major, `n` = nx·nu, sizes from `maxdyn_model_state_size`)
/// of one step from the current state and inputs, as `maxdyn_sim_linearize` gives it; the
/// sim is not advanced. Refusals: those of `maxdyn_sim_linearize`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or `n` writable doubles.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_input_derivative(sim: *const maxdyn_sim, coords: i32, out: *mut f64, n: usize) -> maxdyn_status {
    call("maxdyn_sim_input_derivative", || {
        let c = coords_arg(coords)?;
        with_ref(sim, "sim", |s| {
            let (nx, nu) = s.inner.model().linearization_size(c);
            if n != nx * nu {
                return Err(Failure::new(MAXDYN_STATUS_WRONG_LENGTH, format!("argument `n` is {n}, B has {nx} × {nu} entries")));
            }
            super::args::answer_into(out, n, "out", |o| renamed(s.inner.input_derivative(c, o), SIM))
        })
    })
}

/// The linearization x_{k+1} = f(x_k, u_k) of one step from the sim's current state and
/// inputs (the sim is not advanced): A = ∂f/∂x (nx × nx) into `A` and B = ∂f/∂u (nx × nu)
/// into `B`, row-major, with nx, nu and the meaning of x and u from
/// `maxdyn_model_state_size` for `coords`. Either pointer may be NULL to skip that matrix.
///
/// Analytic: the implicit function theorem on the step's equations at its solution, one
/// solve with the step's factored Newton matrix per state entry and input. With contacts,
/// at the interior point's solution: the step smoothed by its final barrier
/// (`contact_tolerance` / 10; a larger contact tolerance gives smoother derivatives near
/// contacts opening or closing). MAXDYN_STATUS_INVALID_ARGUMENT (nothing written) for
/// what is not derived: contacts other than a sphere, box or capsule on a body against
/// a world plane, a step that had to be split; in minimal coordinates also kinematic
/// loops and the second- and fourth-order integrators (use maximal coordinates: with the
/// second order, limits and contacts included). `maxdyn_sim_linearize_differences` works
/// for all.
///
/// # Safety
/// `sim` is NULL or live; `A` is NULL or nx·nx writable doubles, `B` NULL or nx·nu.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_linearize(sim: *const maxdyn_sim, coords: i32, a: *mut f64, b: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_linearize", || {
        let c = coords_arg(coords)?;
        with_ref(sim, "sim", |s| {
            let (nx, nu) = s.inner.model().linearization_size(c);
            let (mut sa, mut sb) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
            renamed(s.inner.linearize(c, &mut sa, &mut sb), SIM)?;
            finite_answer("a", &sa)?;
            finite_answer("b", &sb)?;
            copy_out(a, &sa, "a")?;
            copy_out(b, &sb, "b")?;
            Ok(())
        })
    })
}

/// The largest step `maxdyn_sim_linearize_differences` takes: a unit quaternion's
/// entries lie in [-1, 1], and central differences err by O(h²).
pub const MAXDYN_MAX_DIFFERENCE_STEP: f64 = 1.0;
/// The smallest step of `maxdyn_sim_linearize_differences` relative to the largest
/// magnitude of a state or input entry (x ± h must move x by h, not by a few ulps of x).
pub const MAXDYN_MIN_RELATIVE_DIFFERENCE_STEP: f64 = 1e-12;
const _: () = assert!(MAXDYN_MAX_DIFFERENCE_STEP == crate::derivatives::MAX_DIFFERENCE_STEP && MAXDYN_MIN_RELATIVE_DIFFERENCE_STEP == crate::derivatives::MIN_RELATIVE_DIFFERENCE_STEP);

/// `maxdyn_sim_linearize` by central differences of whole steps with step `h` on every
/// state and input entry (2 (nx + nu) steps): the reference for the analytic derivatives,
/// and for models the analytic path refuses. Each perturbed step must converge; a tight
/// solver tolerance makes the columns accurate (they err by about tolerance / h).
///
/// `h` must lie in [max(tolerance, MAXDYN_MIN_RELATIVE_DIFFERENCE_STEP × |x|),
/// MAXDYN_MAX_DIFFERENCE_STEP], where tolerance is the solver options' Newton
/// `tolerance` (1e-10 by default: below it each perturbed step's own error is larger
/// than the difference it measures) and |x| the largest magnitude of a state or input
/// entry in `coords`. NaN or ±∞ gives `MAXDYN_STATUS_NON_FINITE`; any other `h` outside
/// the range, and an `h` that moves an entry to a state the setters refuse (a rate the
/// step cannot represent), `MAXDYN_STATUS_INVALID_ARGUMENT` naming `h`.
///
/// # Safety
/// As `maxdyn_sim_linearize`.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_linearize_differences(sim: *const maxdyn_sim, coords: i32, h: f64, a: *mut f64, b: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_linearize_differences", || {
        let c = coords_arg(coords)?;
        with_ref(sim, "sim", |s| {
            let (nx, nu) = s.inner.model().linearization_size(c);
            let (mut sa, mut sb) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
            renamed(s.inner.linearize_by_differences(c, h, &mut sa, &mut sb), SIM)?;
            finite_answer("a", &sa)?;
            finite_answer("b", &sb)?;
            copy_out(a, &sa, "a")?;
            copy_out(b, &sb, "b")?;
            Ok(())
        })
    })
}

/// Copies a computed matrix to the caller's array (NULL: not wanted). Written only after
/// the whole computation succeeded, so a failure leaves the caller's arrays untouched.
unsafe fn copy_out(dst: *mut f64, src: &[f64], arg: &str) -> super::error::CResult<()> {
    if !dst.is_null() {
        slice_mut(dst, src.len(), arg)?.copy_from_slice(src);
    }
    Ok(())
}
