//! The step's nonlinear problem as the solvers see it: the step equations f(s) = 0 with
//! everything fixed during the step (the prediction z_{k+1}, G(z_{k+1}), the inputs), the
//! outcome every solver returns, and the residual norms they measure with.

use crate::contact::cone::FrictionLaw;
use crate::data::StepStats;
use crate::forces;
use crate::integrator::{self, Inputs, MultiplierJacobians, NextPoses, StepFrame};
use crate::limits::TrackedValues;
use crate::mimic;
use crate::model::Model;
use crate::solver::BlockMatrix;

/// The equality part of the step equations (bodies, joints, force elements) at one step.
#[derive(Clone, Copy)]
pub struct Equations<'a> {
    pub model: &'a Model,
    /// The prediction z_{k+1} and the known velocities.
    pub frame: &'a StepFrame,
    /// The caller's forces and joint inputs.
    pub inputs: &'a Inputs,
    pub g: &'a MultiplierJacobians,
    /// Interval of the unknown velocities (the step's, or a split step's half: an
    /// argument of `step::step_once`).
    pub dt: f64,
    /// The joint coordinates of limits and mimics at z_{k+1}, angles unwrapped.
    pub tracked: &'a TrackedValues,
    /// The contacts' friction law: Coulomb's, or a rescue's (Tresca's frozen bound, the
    /// relaxed gap rows).
    pub friction: Friction<'a>,
}

/// The friction law of the step equations' contacts (`FrictionLaw` per contact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Friction<'a> {
    /// μ_f γ, the contact's own normal force (Coulomb).
    Coulomb,
    /// μ_f ĝ with ĝ fixed per inequality (Tresca: the rescue's rounds, `step::tresca`).
    Tresca(&'a [f64]),
    /// Coulomb's cone with the gap rows relaxed by dt μ_f v_slip (Anitescu: the relaxed
    /// rescue, `step::relaxed`).
    Relaxed,
}

impl Friction<'_> {
    /// Inequality `ci`'s friction law.
    #[inline]
    pub fn law(self, ci: usize) -> FrictionLaw {
        match self {
            Friction::Coulomb => FrictionLaw::Coulomb,
            Friction::Tresca(limits) => FrictionLaw::Tresca(limits[ci]),
            Friction::Relaxed => FrictionLaw::Relaxed,
        }
    }
}

impl Equations<'_> {
    /// f(s) into `r`: bodies and joints, then the force elements, then the mimics. The
    /// poses z_{k+2}(s) are placed into `next` first and the joints' and mimics' rows
    /// read them there.
    pub fn residual(&self, s: &[f64], next: &mut NextPoses, r: &mut [f64]) {
        next.update(self.model, self.frame, self.dt, s, false);
        integrator::body_rows_into(self.model, self.frame, self.inputs, self.g, self.dt, s, r);
        integrator::joint_rows_into(self.model, self.g, next, s, r);
        forces::add_step_residual(self.model, self.frame, self.g, self.inputs, s, r);
        mimic::add_residual(self.model, self.frame, self.tracked, next, s, r);
        // a limit side's row as left out of the solve, γ = 0 (the interior point writes
        // the rows of those it solves)
        let at = &self.model.addresses;
        for l in 0..self.model.limit_sides.len() {
            let o = at.contact(self.model.contacts.len() + l);
            r[o] = s[o];
        }
    }

    /// ∂f/∂s at `s` into `matrix` (cleared first), through the poses z_{k+2}(s) and
    /// their rotation maps placed into `next` first.
    pub fn jacobian(&self, s: &[f64], next: &mut NextPoses, matrix: &mut BlockMatrix) {
        next.update(self.model, self.frame, self.dt, s, true);
        integrator::assemble_jacobian(self.model, self.frame, self.g, self.dt, s, next, matrix);
        forces::add_step_jacobian(self.model, self.frame, self.g, s, matrix);
        mimic::add_jacobian(self.model, self.frame, self.tracked, next, self.dt, matrix);
    }

    /// ‖r‖∞ with each body's rows weighted by `Model::residual_weights` (velocity units
    /// for bodies heavier than 1 kg): what Newton's tolerance bounds.
    pub fn residual_norm(&self, r: &[f64]) -> f64 {
        let w = &self.model.residual_weights;
        if w.is_empty() {
            return norm_inf(r);
        }
        r.iter().zip(w).fold(0.0, |m: f64, (x, w)| if x.is_nan() || m.is_nan() { f64::NAN } else { m.max(x.abs() * w) })
    }

    /// ‖r‖₂ with the weights of [`Equations::residual_norm`]: Newton's line search
    /// measures progress in the units its tolerance bounds. Unweighted, a 1e8 kg body's
    /// rounding (1e-8 N) hid the light rows' error: a chord step that would have met the
    /// tolerance was halved, and the next Newton steps stalled at 2.3e-10.
    pub fn merit(&self, r: &[f64]) -> f64 {
        let w = &self.model.residual_weights;
        if w.is_empty() {
            return norm2(r);
        }
        r.iter().zip(w).map(|(x, w)| (x * w) * (x * w)).sum::<f64>().sqrt()
    }

    /// Every body's |ω| below `limit` (2/dt: beyond it the discrete rotation folds).
    pub fn angular_speed_ok(&self, s: &[f64], limit: f64) -> bool {
        let at = &self.model.addresses;
        (0..self.model.body_count()).all(|i| at.angular_velocity(s, i).norm() < limit)
    }
}

/// What a nonlinear solve of one step returns.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Outcome {
    pub stats: StepStats,
    /// The iterate solves the step (possibly accepted as stalled, see `stats`).
    pub converged: bool,
}

/// ‖v‖∞, NaN if any entry is NaN. Four independent lanes of `max` vectorize; NaN (which
/// `max` skips) is caught by the lanes' x − x sums, and then the scalar fold decides.
pub fn norm_inf(v: &[f64]) -> f64 {
    let (mut max, mut poison) = ([0.0f64; 4], [0.0f64; 4]);
    let mut chunks = v.chunks_exact(4);
    for c in &mut chunks {
        for k in 0..4 {
            max[k] = max[k].max(c[k].abs());
            // x − x is 0, or NaN for NaN and ±∞: intended (clippy's eq_op reads it as a slip)
            #[allow(clippy::eq_op)]
            {
                poison[k] += c[k] - c[k];
            }
        }
    }
    let m = chunks.remainder().iter().fold(max[0].max(max[1]).max(max[2].max(max[3])), |m, x| m.max(x.abs()));
    if (poison[0] + poison[1] + poison[2] + poison[3]).is_nan() || chunks.remainder().iter().any(|x| x.is_nan()) {
        return v.iter().fold(0.0, |m, x| if x.abs() > m || x.is_nan() { x.abs() } else { m });
    }
    m
}

/// max(a, b), NaN if either is NaN (`f64::max` returns the other operand, which would
/// hide a NaN residual behind a zero row).
pub fn max_or_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

pub fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::{norm_inf, Friction, FrictionLaw};

    #[test]
    fn each_contact_gets_its_law_and_tresca_its_own_fixed_limit() {
        let limits = [0.0, 1.0, 4.5];
        assert_eq!(Friction::Coulomb.law(2), FrictionLaw::Coulomb);
        assert_eq!(Friction::Tresca(&limits).law(2), FrictionLaw::Tresca(4.5));
        assert_eq!(Friction::Relaxed.law(2), FrictionLaw::Relaxed);
    }

    #[test]
    fn norm_inf_is_the_largest_magnitude_and_sees_nan_and_infinity() {
        for n in 0..11 {
            let v: Vec<f64> = (0..n).map(|i| (i as f64 - 4.5) * if i % 2 == 0 { 1.0 } else { -1.3 }).collect();
            let expected = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            assert_eq!(norm_inf(&v), expected);
            for bad in 0..n {
                let mut w = v.clone();
                w[bad] = f64::NAN;
                assert!(norm_inf(&w).is_nan(), "NaN at {bad} of {n}");
                w[bad] = f64::NEG_INFINITY;
                assert_eq!(norm_inf(&w), f64::INFINITY);
            }
        }
    }
}
