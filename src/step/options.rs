//! The nonlinear solvers' settings.

use crate::model::{Error, Result};

/// The default largest joint violation (m, or the rotational rows' sin(angle/2)) a step
/// starts from (`SolverOptions::joint_tolerance`): rounding in poses computed elsewhere
/// stays far below it, and the pull it gives is at most 1e-6/dt m/s.
pub const JOINT_TOLERANCE: f64 = 1e-6;

/// Newton solver settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverOptions {
    /// Converged when the residual's largest entry is below this.
    pub tolerance: f64,
    pub max_iterations: usize,
    /// A step whose residual stopped decreasing is still accepted below this level (and
    /// flagged in the stats): at singular configurations (a four-bar in its parallel
    /// pose) the step equations may have no exact solution. The contact solves a step
    /// falls back to last (`LinearSolve::Refined`) also accept a stall whose every
    /// equality row is below this times 1 + the size of its terms (a backward error,
    /// `interior_point::measures::relative_equality`).
    pub acceptance: f64,
    /// Contacts: converged when every complementarity product (normal force × gap slack,
    /// friction pairs) is below this, scaled by the largest normal force / 100 N when that
    /// exceeds 1 (impacts of kN would otherwise ask for gap slacks below what the linear
    /// solve resolves); the barrier parameter ends at a tenth of it.
    pub contact_tolerance: f64,
    /// A step Newton cannot solve is retried as two halves, recursively, at most this
    /// many levels deep (5: down to dt/32); 0 disables splitting. Only failed steps pay
    /// for it: the hardest impact of SCENARIOS B2 (n = 128, one of five starts) needs
    /// dt/32.
    pub max_splits: usize,
    /// Contacts: Mehrotra predictor–corrector barrier steps (default); false gives the
    /// monotone barrier rule (for comparison).
    pub contact_predictor_corrector: bool,
    /// Contacts whose gap at the predicted next configuration exceeds this margin (m) plus
    /// the distance their point moves in one step are left out of the step's solve; one
    /// found penetrating at the solution is added and the step solved again, so the result
    /// is that of the full problem. `f64::INFINITY` keeps every contact in every solve.
    pub contact_margin: f64,
    /// Contacts: each step's interior point starts from the last step's contact
    /// variables (pushed inside their cones, at the barrier of their mean product),
    /// falling back to a cold start when that solve fails (default); false starts every
    /// step cold, at the centre of the cones with barrier 1.
    pub contact_warm_start: bool,
    /// The largest joint violation a step starts from (`sim::assemble`); beyond it the
    /// step is refused. `f64::INFINITY` steps from any configuration (finite differences
    /// in maximal coordinates step from states off the joints on purpose).
    pub joint_tolerance: f64,
    /// Which discrete step advances the state (docs/INTEGRATOR.md). `FirstOrder` (default)
    /// is the paper's step with the velocities the caller sets taken as those of the
    /// step's interval; `SecondOrder` takes them as the velocities at the current time
    /// and starts the next step consistently from them (a half step of the same
    /// equations), so the positions converge at second order in dt.
    pub integrator: Integrator,
}

/// The integrator choice of [`SolverOptions::integrator`]; the discriminants are the C
/// numbers (`MAXDYN_INTEGRATOR_*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(i32)]
pub enum Integrator {
    /// The state's velocities are those of the step's interval [t_k, t_k + dt].
    #[default]
    FirstOrder = 0,
    /// Velocities set by the caller are those at t_k; the step after starts from them by
    /// the discrete Legendre transform (a half step), second order in positions.
    SecondOrder = 1,
    /// As `SecondOrder`, each step composed of five of lengths (p, p, 1 − 4p, p, p)·dt,
    /// p = 1/(4 − 4^{1/3}), 1 − 4p < 0 (Suzuki's fractal composition of the symmetric
    /// step, [`FOURTH_ORDER_PARTS`]): fourth order in positions, five solves per step.
    /// Models without contacts, collision shapes or joint limits (a step back in time has
    /// no meaning for an impact).
    FourthOrder = 2,
}

/// The lengths of the fourth-order step's five parts, in units of dt: Suzuki's fractal
/// composition (p, p, 1 − 4p, p, p), p = 1/(4 − 4^{1/3}) (Hairer, Lubich & Wanner,
/// *Geometric Numerical Integration*, II.4). Yoshida's triple jump (w₁, 1 − 2w₁, w₁),
/// w₁ = 1/(2 − 2^{1/3}), takes three parts, but its error constant on the panda of
/// `tests/second_order.rs` is 71× larger (1.45e-5 against 2.03e-7 rad at dt 1e-3): for
/// 1e-4 rad over 1 s it needs dt 1.6e-3 against 4.7e-3, and costs 1.8–2.4× the CPU time
/// per simulated second (`cargo bench --bench integrator_peer`, docs/INTEGRATOR.md).
pub const FOURTH_ORDER_PARTS: [f64; 5] = {
    // 4^{1/3} (no cbrt in const context)
    const CUBE_ROOT_4: f64 = 1.587_401_051_968_199_5;
    let p = 1.0 / (4.0 - CUBE_ROOT_4);
    [p, p, 1.0 - 4.0 * p, p, p]
};

/// The fourth-order step's solves, in units of dt: the consistent start's interval (the
/// first part's), then each part's unknown velocities, which span the part after it (the
/// last part's span the next step's first).
pub fn fourth_order_solves() -> (f64, [f64; 5]) {
    let w = FOURTH_ORDER_PARTS;
    (w[0], [w[1], w[2], w[3], w[4], w[0]])
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions { tolerance: 1e-10, max_iterations: 100, acceptance: 1e-8, contact_tolerance: 1e-8, max_splits: 5, contact_predictor_corrector: true, contact_margin: 0.05, contact_warm_start: true, joint_tolerance: JOINT_TOLERANCE, integrator: Integrator::FirstOrder }
    }
}

impl SolverOptions {
    /// Checks every setting (the only way options reach a simulation).
    pub fn validate(&self) -> Result<()> {
        let o = self;
        // NaN and infinities have their own error (MAXDYN_STATUS_NON_FINITE); an infinite
        // margin is meaningful (keep every contact)
        crate::error::check_finite("tolerance", &[o.tolerance])?;
        crate::error::check_finite("acceptance", &[o.acceptance])?;
        crate::error::check_finite("contact_tolerance", &[o.contact_tolerance])?;
        if o.joint_tolerance.is_nan() {
            return Err(Error::NonFinite("joint_tolerance"));
        }
        if !(o.joint_tolerance > 0.0) {
            return Err(Error::InvalidArgument("joint_tolerance", format!("{} must be > 0 (infinity: no check)", o.joint_tolerance)));
        }
        if o.contact_margin.is_nan() {
            return Err(Error::NonFinite("contact_margin"));
        }
        if !(o.tolerance.is_finite() && o.tolerance > 0.0) {
            return Err(Error::InvalidArgument("tolerance", format!("{} must be finite and > 0", o.tolerance)));
        }
        if !(o.acceptance.is_finite() && o.acceptance >= o.tolerance) {
            return Err(Error::InvalidArgument("acceptance", "must be finite and ≥ tolerance".into()));
        }
        if !(o.contact_tolerance.is_finite() && o.contact_tolerance > 0.0) {
            return Err(Error::InvalidArgument("contact_tolerance", format!("{} must be finite and > 0", o.contact_tolerance)));
        }
        if !(o.contact_margin >= 0.0) {
            return Err(Error::InvalidArgument("contact_margin", format!("{} must be ≥ 0 (infinity keeps every contact)", o.contact_margin)));
        }
        if o.max_iterations == 0 {
            return Err(Error::InvalidArgument("max_iterations", "must be ≥ 1".into()));
        }
        Ok(())
    }
}
