//! Solver options of `maxdyn_sim` from C: the `maxdyn_solver_options` struct with every
//! option, its defaults, and `maxdyn_sim_set_options`/`_get_options`; then shorthands
//! that change a few options and keep the others.

use super::args::{count_i32, out};
use super::error::{renamed, CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status::{self, *};
use crate::sim::{Integrator, SolverOptions};

/// Every solver option of a sim (`maxdyn_sim_set_options`, `maxdyn_sim_get_options`).
/// Start from `maxdyn_solver_options_default()` or `maxdyn_sim_get_options` and change
/// the fields you need: code written so keeps its meaning when fields are added. Fields
/// are only ever added at the end (the library reads the whole struct: compile against
/// the header of the library you link).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct maxdyn_solver_options {
    /// Newton: converged when the largest residual entry is below this (finite, > 0;
    /// default 1e-10).
    pub tolerance: f64,
    /// Newton: at most this many iterations per solve (≥ 1; default 100).
    pub max_iterations: i32,
    /// A step whose residual stalls is still accepted below this level, and flagged
    /// `stalled` in the step stats (finite, ≥ tolerance; default 1e-8). A contact step's
    /// last solves measure each row against it times 1 + the size of the row's terms.
    pub acceptance: f64,
    /// Contacts: converged when every complementarity product (normal force × gap
    /// slack, and the friction pairs) is below this, times the largest normal force /
    /// 100 N when that exceeds 1 (finite, > 0; default 1e-8).
    pub contact_tolerance: f64,
    /// A step Newton cannot solve is retried as two halves, recursively, at most this
    /// many levels deep (≥ 0; default 5, down to dt/32; 0 disables splitting).
    pub max_splits: i32,
    /// Contacts: 1 for Mehrotra predictor–corrector barrier steps (default), 0 for the
    /// monotone barrier rule.
    pub contact_predictor_corrector: i32,
    /// Contacts whose gap at the predicted next configuration exceeds this margin (m)
    /// plus the distance their point moves in one step are left out of the step's
    /// solve; one found penetrating at the solution is added and the step solved again,
    /// so results are those of the full problem (≥ 0; default 0.05; `INFINITY` keeps
    /// every contact in every solve).
    pub contact_margin: f64,
    /// Contacts: 1 (default) starts each step's interior point from the last step's
    /// contact variables, restarting cold when that solve fails (counted in
    /// `maxdyn_step_stats.cold_restarts`); 0 starts every step cold.
    pub contact_warm_start: i32,
    /// The largest joint violation a step starts from (> 0; default
    /// `MAXDYN_JOINT_TOLERANCE` = 1e-6; `INFINITY` steps from any configuration, e.g. for
    /// finite differences in maximal coordinates); beyond it `maxdyn_sim_step` returns
    /// `MAXDYN_STATUS_JOINT_VIOLATION`.
    pub joint_tolerance: f64,
    /// The integrator (`MAXDYN_INTEGRATOR_FIRST_ORDER` = 0, the default,
    /// `MAXDYN_INTEGRATOR_SECOND_ORDER` = 1 or `MAXDYN_INTEGRATOR_FOURTH_ORDER` = 2): with
    /// the second and fourth, the velocities set on the sim are those at the current time,
    /// and the next step starts consistently from them (positions converge at second or
    /// fourth order in dt; docs/INTEGRATOR.md).
    pub integrator: i32,
}

/// `maxdyn_solver_options.integrator`: the paper's step; the velocities set are those of
/// the step's interval (first order in dt).
pub const MAXDYN_INTEGRATOR_FIRST_ORDER: i32 = 0;
/// `maxdyn_solver_options.integrator`: the same step started consistently from the
/// velocities at the current time (second order in dt).
pub const MAXDYN_INTEGRATOR_SECOND_ORDER: i32 = 1;
/// `maxdyn_solver_options.integrator`: as the second order, each step composed of five
/// (Suzuki's fractal composition): fourth order in dt, five solves per step; models without
/// contacts, collision shapes or joint limits (else `MAXDYN_STATUS_INVALID_ARGUMENT`).
pub const MAXDYN_INTEGRATOR_FOURTH_ORDER: i32 = 2;

impl From<SolverOptions> for maxdyn_solver_options {
    fn from(o: SolverOptions) -> Self {
        maxdyn_solver_options {
            tolerance: o.tolerance,
            max_iterations: count_i32(o.max_iterations),
            acceptance: o.acceptance,
            contact_tolerance: o.contact_tolerance,
            max_splits: count_i32(o.max_splits),
            contact_predictor_corrector: i32::from(o.contact_predictor_corrector),
            contact_margin: o.contact_margin,
            contact_warm_start: i32::from(o.contact_warm_start),
            joint_tolerance: o.joint_tolerance,
            integrator: o.integrator as i32,
        }
    }
}

fn non_finite(name: &str, value: f64) -> Failure {
    Failure::new(MAXDYN_STATUS_NON_FINITE, format!("argument `{name}` is {value}: must be finite"))
}

/// A margin may be `INFINITY` (every contact in every solve), not NaN or −∞.
fn check_margin(name: &str, value: f64) -> CResult<()> {
    if value.is_nan() || value == f64::NEG_INFINITY {
        return Err(Failure::new(MAXDYN_STATUS_NON_FINITE, format!("argument `{name}` is {value}: must be a number ≥ 0 (INFINITY allowed)")));
    }
    Ok(())
}

/// Changes some options of a sim and keeps the others; `Sim::set_options` validates
/// the result, so a rejected change leaves every option as it was.
unsafe fn update(sim: *mut maxdyn_sim, change: impl FnOnce(&mut SolverOptions)) -> CResult<()> {
    with_mut(sim, "sim", |s| {
        let mut o = s.inner.options();
        change(&mut o);
        Ok(s.inner.set_options(o)?)
    })
}

/// Writes one option of a sim to `out`.
unsafe fn read<T>(sim: *const maxdyn_sim, out: *mut T, option: impl FnOnce(&SolverOptions) -> T) -> CResult<()> {
    let o = super::args::out(out, "out")?;
    *o = with_ref(sim, "sim", |s| Ok(option(&s.inner.options())))?;
    Ok(())
}

fn non_negative(name: &str, value: i32) -> CResult<usize> {
    usize::try_from(value).map_err(|_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{name}` is {value}: must be ≥ 0")))
}

/// What only the C struct can get wrong (NaN, negative counts, a flag other than 0 or
/// 1); the ranges are checked by `Sim::set_options`.
fn to_rust(o: &maxdyn_solver_options) -> CResult<SolverOptions> {
    for (name, value) in [("options.tolerance", o.tolerance), ("options.acceptance", o.acceptance), ("options.contact_tolerance", o.contact_tolerance)] {
        if !value.is_finite() {
            return Err(non_finite(name, value));
        }
    }
    check_margin("options.contact_margin", o.contact_margin)?;
    check_margin("options.joint_tolerance", o.joint_tolerance)?;
    let flag = |name: &str, v: i32| match v {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `options.{name}` is {v}, expected 0 or 1"))),
    };
    let contact_predictor_corrector = flag("contact_predictor_corrector", o.contact_predictor_corrector)?;
    let contact_warm_start = flag("contact_warm_start", o.contact_warm_start)?;
    let integrator = match o.integrator {
        MAXDYN_INTEGRATOR_FIRST_ORDER => Integrator::FirstOrder,
        MAXDYN_INTEGRATOR_SECOND_ORDER => Integrator::SecondOrder,
        MAXDYN_INTEGRATOR_FOURTH_ORDER => Integrator::FourthOrder,
        v => {
            return Err(Failure::new(
                MAXDYN_STATUS_INVALID_ENUM,
                format!("argument `options.integrator` is {v}, expected MAXDYN_INTEGRATOR_FIRST_ORDER (0), _SECOND_ORDER (1) or _FOURTH_ORDER (2)"),
            ))
        }
    };
    Ok(SolverOptions {
        tolerance: o.tolerance,
        max_iterations: non_negative("options.max_iterations", o.max_iterations)?,
        acceptance: o.acceptance,
        contact_tolerance: o.contact_tolerance,
        max_splits: non_negative("options.max_splits", o.max_splits)?,
        contact_predictor_corrector,
        contact_margin: o.contact_margin,
        contact_warm_start,
        joint_tolerance: o.joint_tolerance,
        integrator,
    })
}

/// The default solver options (those of a new sim).
#[no_mangle]
pub extern "C" fn maxdyn_solver_options_default() -> maxdyn_solver_options {
    SolverOptions::default().into()
}

/// Sets every solver option from `*options`. All fields are checked before any is
/// changed: on failure the sim keeps its options and the message names the field.
///
/// # Safety
/// `sim` is NULL or live; `options` is NULL or a readable `maxdyn_solver_options`.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_options(sim: *mut maxdyn_sim, options: *const maxdyn_solver_options) -> maxdyn_status {
    call("maxdyn_sim_set_options", || {
        let o = to_rust(options.as_ref().ok_or_else(|| Failure::null("options"))?)?;
        with_mut(sim, "sim", |s| renamed(s.inner.set_options(o), OPTION_FIELDS))
    })
}

/// The Rust options' names of the fields of the C argument `options`.
const OPTION_FIELDS: &[(&str, &str)] = &[
    ("tolerance", "options.tolerance"),
    ("max_iterations", "options.max_iterations"),
    ("acceptance", "options.acceptance"),
    ("contact_tolerance", "options.contact_tolerance"),
    ("max_splits", "options.max_splits"),
    ("contact_predictor_corrector", "options.contact_predictor_corrector"),
    ("contact_margin", "options.contact_margin"),
    ("contact_warm_start", "options.contact_warm_start"),
    ("joint_tolerance", "options.joint_tolerance"),
    ("integrator", "options.integrator"),
];

/// The sim's solver options in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_options(sim: *const maxdyn_sim, out: *mut maxdyn_solver_options) -> maxdyn_status {
    call("maxdyn_sim_get_options", || read(sim, out, |o| (*o).into()))
}

/// Shorthand of `maxdyn_sim_set_options` for the Newton options; the others are kept.
/// Converged when the largest residual entry is below `tolerance` (> 0, default
/// 1e-10); at most `max_iterations` (≥ 1, default 100) iterations; a step whose
/// residual stalls is still accepted (and flagged `stalled` in the stats) below
/// `acceptance` (≥ tolerance, default 1e-8). All three are checked before any is
/// changed.
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_solver_options(
    sim: *mut maxdyn_sim,
    tolerance: f64,
    max_iterations: i32,
    acceptance: f64,
) -> maxdyn_status {
    call("maxdyn_sim_set_solver_options", || {
        let max_iterations = usize::try_from(max_iterations).map_err(|_| {
            Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `max_iterations` is {max_iterations}: must be ≥ 1"))
        })?;
        update(sim, |o| (o.tolerance, o.max_iterations, o.acceptance) = (tolerance, max_iterations, acceptance))
    })
}

/// The Newton options of `maxdyn_sim_get_options` (see `maxdyn_sim_set_solver_options`).
///
/// # Safety
/// `sim` is NULL or live; the three out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_solver_options(
    sim: *const maxdyn_sim,
    tolerance: *mut f64,
    max_iterations: *mut i32,
    acceptance: *mut f64,
) -> maxdyn_status {
    call("maxdyn_sim_get_solver_options", || {
        let t = out(tolerance, "tolerance")?;
        let m = out(max_iterations, "max_iterations")?;
        let a = out(acceptance, "acceptance")?;
        let o = with_ref(sim, "sim", |s| Ok(s.inner.options()))?;
        *t = o.tolerance;
        *m = count_i32(o.max_iterations);
        *a = o.acceptance;
        Ok(())
    })
}

/// Shorthand of `maxdyn_sim_set_options` for `contact_tolerance` alone (the others are
/// kept): the interior-point tolerance of contacts (> 0, default 1e-8). A step with
/// contacts converges when every complementarity product (normal force × gap slack, and
/// the friction pairs) is below it — times the largest normal force / 100 N when that
/// exceeds 1 — besides the Newton tolerance.
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_contact_tolerance(sim: *mut maxdyn_sim, tolerance: f64) -> maxdyn_status {
    call("maxdyn_sim_set_contact_tolerance", || {
        if !tolerance.is_finite() {
            return Err(non_finite("tolerance", tolerance));
        }
        if tolerance <= 0.0 {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `tolerance` is {tolerance}: must be > 0")));
        }
        update(sim, |o| o.contact_tolerance = tolerance)
    })
}

/// The contact tolerance (see `maxdyn_sim_set_contact_tolerance`) in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_contact_tolerance(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_contact_tolerance", || read(sim, out, |o| o.contact_tolerance))
}

/// Shorthand of `maxdyn_sim_set_options` for `contact_margin` alone (the others are
/// kept): the contact margin (m, ≥ 0, default 0.05; `INFINITY` keeps every contact in
/// every solve). A contact whose gap at the predicted next configuration exceeds the
/// margin plus the distance its point moves in one step is left out of the step's
/// solve; one found penetrating at the solution is added and the step solved again, so
/// results are those of the full problem.
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_set_contact_margin(sim: *mut maxdyn_sim, margin: f64) -> maxdyn_status {
    call("maxdyn_sim_set_contact_margin", || {
        check_margin("margin", margin)?;
        if margin < 0.0 {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `margin` is {margin}: must be ≥ 0")));
        }
        update(sim, |o| o.contact_margin = margin)
    })
}

/// The contact margin (see `maxdyn_sim_set_contact_margin`) in `*out`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_contact_margin(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_contact_margin", || read(sim, out, |o| o.contact_margin))
}
