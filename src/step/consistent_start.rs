//! The second-order integrator's start (docs/INTEGRATOR.md): velocities the caller set are
//! those at the current configuration z_k, and the step's state needs the velocity of the
//! interval [t_k, t_k + dt]. The discrete Legendre transform p_k = −D₁L_d(z_k, z_{k+1}) −
//! (dt/2)F(z_k) gives it: a half step of the same discrete Euler–Lagrange rows from the node
//! itself,
//! ```text
//!   m (v₁ − v_k) = (dt/2)(m g + F + G(z_k)ᵀλ)
//!   (dt/2)(s₁ I + [ω₁]×) J ω₁ − J ω_k = (dt/2)(τ + G(z_k)ᵀλ),   g(z_k ⊕ dt·(v₁, ω₁)) = 0
//! ```
//! which are the step's rows with the prediction z_{k+1} := z_k, the known interval h₀ :=
//! dt/2 and the known rotational term the continuous momentum J ω_k
//! (`MultiplierJacobians::use_node_momentum`). It is solved by the step's own solve stage
//! (Newton, or the interior point with contacts and limits), so joints, loops, contacts
//! and limits hold at z_{k+1} as in any step. Its solution becomes the state's velocities;
//! positions and the clock stay.

use super::{solve_at_frame, Rescue, SolverOptions};
use crate::data::{Data, StepStats};
use crate::model::{Model, Result};
use crate::step::options::Integrator;

/// With the second- or fourth-order integrator and velocities the caller set since the
/// last step, replaces them by those of the interval `dt` that follows (the consistent
/// start) and returns the solve's statistics; otherwise does nothing (None). On failure
/// the state is unchanged.
pub fn start(model: &Model, d: &mut Data, opts: &SolverOptions, dt: f64) -> Result<Option<StepStats>> {
    if opts.integrator == Integrator::FirstOrder || !d.velocities_at_node {
        return Ok(None);
    }
    let (s, f) = (&d.state, &mut d.frame);
    f.dt = 0.5 * dt;
    f.impulse = 0.5 * dt;
    f.damping_weights = (0.0, 1.0);
    for i in 0..s.x.len() {
        (f.v0[i], f.w0[i], f.x1[i], f.q1[i]) = (s.v[i], s.w[i], s.x[i], s.q[i]);
    }
    d.g.compute(model, &d.frame);
    d.g.use_node_momentum(model, &d.frame);
    d.tracked.predict(model, &d.frame.x1, &d.frame.q1);
    let stats = solve_at_frame(model, d, opts, Rescue::Allowed, dt)?;
    let at = &model.addresses;
    for i in 0..model.body_count() {
        (d.state.v[i], d.state.w[i]) = at.velocities(&d.scratch.it.s, i);
    }
    // the multipliers warm the first step; no extrapolation from before the start
    d.warm.solution.copy_from_slice(&d.scratch.it.s);
    d.warm.pair_interval = f64::NAN;
    d.warm.intervals = [dt, f64::NAN, f64::NAN];
    d.dt_prev = dt;
    d.velocities_at_node = false;
    Ok(Some(StepStats { substeps: 0, ..stats }))
}
