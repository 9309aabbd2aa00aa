//! One Mehrotra predictor–corrector iteration (Nocedal & Wright 14.2, on the
//! complementarity problem of the contacts).

use super::contact_rows;
use super::direction::{direction, line_search, resolve, LinearSolve};
use super::measures::shift_barrier;
use super::settings::CORRECTOR_ALPHA;
use crate::contact::cone::MAX_Y;
use crate::data::{Scratch, StepStats};
use crate::step::problem::{norm2, Equations};

/// What a predictor–corrector iteration did.
pub struct PcStep {
    /// The line search found a point (in it.trial, cw.e_trial).
    pub accepted: bool,
    pub alpha: f64,
    /// The barrier the step aimed at (its residual in it.r_trial, cw.re_trial).
    pub target: f64,
}

/// From the residual at μ = 0 in (it.r, cw.re), `eq` its equality part: factor once; the
/// predictor solves for μ = 0, its fraction-to-boundary step α_a gives the mean product
/// ν_a after it, σ = (ν_a/ν)³; the corrector solves with target
/// max(σν, μ_end, 0.1 min(ν, eq)) (complementarity does not run ahead of feasibility) and
/// Mehrotra's second-order term Δy_a∘Δy_b. If its step fails the line search or is
/// shorter than `CORRECTOR_ALPHA`, the plain centred direction at the same target is
/// tried. None when the matrix is singular.
pub fn step(eqs: &Equations, sc: &mut Scratch, eq: f64, mu_end: f64, stats: &mut StepStats, linear: LinearSolve) -> Option<PcStep> {
    if !direction(eqs, sc, linear) {
        return None;
    }
    let at = &eqs.model.addresses;
    let Scratch { it: w, contacts: cw, .. } = &mut *sc;
    // predictor: keep its contact directions, step to the cones' boundary
    let mut alpha_aff: f64 = 1.0;
    for ci in cw.selection.iter() {
        let on = at.contact(ci);
        let l = cw.nodes.layout(ci);
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &w.s[on..], &cw.vars.e, &mut y);
        let dy = &mut cw.dy_aff[ci];
        cw.nodes.gather(ci, &w.ds[on..], &cw.vars.de, dy);
        alpha_aff = l.max_trial_step(&y, dy, cw.arcs, alpha_aff);
    }
    let (mut sum, mut sum_aff, mut count) = (0.0, 0.0, 0usize);
    for ci in cw.selection.iter() {
        let on = at.contact(ci);
        let l = cw.nodes.layout(ci);
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &w.s[on..], &cw.vars.e, &mut y);
        let (p, n) = l.products(&y);
        let mut after = [0.0; MAX_Y];
        l.trial(&y, &cw.dy_aff[ci], alpha_aff, cw.arcs, &mut after);
        sum += p;
        sum_aff += l.products(&after).0;
        count += n;
    }
    let nu = sum / count.max(1) as f64;
    let sigma = (sum_aff / sum).clamp(0.0, 1.0).powi(3);
    let target = (sigma * nu).max(mu_end).max(0.1 * nu.min(eq));
    // corrector (it.r, cw.vars.re hold the residual at μ = 0)
    shift_barrier(cw, target);
    let merit = norm2(&w.r).hypot(norm2(&cw.vars.re));
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &w.s[at.contact(ci)..], &cw.vars.e, &mut y);
        l.add_second_order(&y[..l.ny()], &cw.dy_aff[ci][..l.ny()], &mut cw.vars.re[cw.nodes.e_range(ci)]);
    }
    if resolve(eqs, sc) {
        let (accepted, alpha) = line_search(eqs, sc, target, merit, stats);
        if accepted && alpha >= CORRECTOR_ALPHA {
            return Some(PcStep { accepted, alpha, target });
        }
    }
    // fallback: the centred Newton direction at the same target
    let Scratch { it: w, next, contacts: cw, .. } = &mut *sc;
    contact_rows::residual(eqs, &w.s, next, cw, false, target, &mut w.r);
    let merit = norm2(&w.r).hypot(norm2(&cw.vars.re));
    if !resolve(eqs, sc) {
        return None;
    }
    let (accepted, alpha) = line_search(eqs, sc, target, merit, stats);
    Some(PcStep { accepted, alpha, target })
}
