//! The interior point's Newton direction and step length: the condensed graph system
//! assembled and solved (and solved again for a new right-hand side with the same
//! factors), the fraction-to-boundary rule and the backtracking line search.

use super::contact_rows;
use super::settings::{LINE_SEARCH_HALVINGS, REFINEMENTS, REFINEMENT_FLOOR, REFINEMENT_GAIN, TAU};
use crate::contact::cone::MAX_Y;
pub use crate::data::LinearSolve;
use crate::data::{Iterate, Scratch, StepStats};
use crate::solver::BlockMatrix;
use crate::step::problem::{norm2, norm_inf, Equations};

/// Assembles and solves the condensed Newton system at (s, E) for the residual in
/// (it.r, cw.re); the direction goes to it.ds and cw.de. A plain factorization that meets
/// a singular pivot is made again regularized and refined (`LinearSolve::Refined`): a
/// contact sliding between two facets of the linear cone has two friction rows equal to
/// rounding (c + η/β with η/β ≪ c, the cone term c = ψ/s_ψ large), although the matrix
/// is not singular. False when even that fails or the direction is not finite.
pub fn direction(eqs: &Equations, sc: &mut Scratch, linear: LinearSolve) -> bool {
    if factor(eqs, sc, linear) || (linear == LinearSolve::Plain && factor(eqs, sc, LinearSolve::Refined)) {
        return resolve_rhs_in_place(eqs, sc);
    }
    false
}

/// Assembles the Newton matrix and its right-hand side (in it.ds) at the iterate, and
/// factors it as `linear` says; records the factors in `sc.factors`.
fn factor(eqs: &Equations, sc: &mut Scratch, linear: LinearSolve) -> bool {
    let Scratch { it: w, next, matrix, reference, contacts: cw, factors, .. } = sc;
    let sym = &eqs.model.symbolic;
    *factors = None;
    eqs.jacobian(&w.s, next, matrix);
    w.ds.copy_from_slice(&w.r);
    if !contact_rows::assemble(eqs, &w.s, cw, matrix, &mut w.ds) {
        return false;
    }
    match linear {
        LinearSolve::Plain => {}
        LinearSolve::Regularized => contact_rows::regularize(eqs, cw, matrix),
        LinearSolve::Refined => {
            reference.values.copy_from_slice(&matrix.values);
            contact_rows::regularize(eqs, cw, matrix);
        }
    }
    if matrix.factor(sym).is_err() {
        return false;
    }
    *factors = Some(linear);
    true
}

/// Solves the factored system for the condensed right-hand side in it.ds and recovers
/// the contacts' eliminated variables.
fn resolve_rhs_in_place(eqs: &Equations, sc: &mut Scratch) -> bool {
    let Scratch { it: w, matrix, reference, contacts: cw, factors, .. } = sc;
    let Some(linear) = *factors else { return false };
    w.ds.iter_mut().for_each(|d| *d = -*d);
    solve(eqs, matrix, reference, w, linear);
    for ci in cw.selection.iter() {
        let on = eqs.model.addresses.contact(ci);
        cw.nodes.recover(ci, &w.ds[on..], &mut cw.vars.de);
    }
    w.ds.iter().chain(cw.vars.de.iter()).all(|d| d.is_finite())
}

/// Solves the factored Newton system (from the last [`direction`], as it was factored)
/// again for the residual now in (it.r, cw.re); the direction goes to it.ds and cw.de.
pub fn resolve(eqs: &Equations, sc: &mut Scratch) -> bool {
    let Scratch { it: w, contacts: cw, .. } = &mut *sc;
    let at = &eqs.model.addresses;
    w.ds.copy_from_slice(&w.r);
    for ci in cw.selection.iter() {
        let on = at.contact(ci);
        let nk = cw.nodes.layout(ci).nk;
        cw.nodes.condense_rhs(ci, &cw.vars.re, &mut w.ds[on..on + nk]);
    }
    resolve_rhs_in_place(eqs, sc)
}

/// Solves the condensed system for the right-hand side in it.ds (in place). Refined:
/// with the factors of the regularized matrix, then x ← x + A_reg⁻¹(b − A x) against the
/// matrix as assembled (`reference`) while the residual keeps falling by
/// `REFINEMENT_GAIN` and is above `REFINEMENT_FLOOR`, at most `REFINEMENTS` rounds. This
/// removes both the regularization's bias and the growth of rounding on nearly singular
/// contact sets (ECOS, Clarabel, IPOPT: regularize, then refine).
fn solve(eqs: &Equations, matrix: &BlockMatrix, reference: &BlockMatrix, w: &mut Iterate, linear: LinearSolve) {
    let sym = &eqs.model.symbolic;
    if linear != LinearSolve::Refined {
        matrix.solve(sym, &mut w.ds);
        return;
    }
    w.rhs.copy_from_slice(&w.ds);
    matrix.solve(sym, &mut w.ds);
    let b_norm = norm_inf(&w.rhs);
    let mut last = f64::INFINITY;
    for _ in 0..REFINEMENTS {
        reference.residual(sym, &w.ds, &w.rhs, &mut w.lin_r);
        let err = norm_inf(&w.lin_r);
        if !(err > REFINEMENT_FLOOR * b_norm && err < REFINEMENT_GAIN * last) {
            break;
        }
        last = err;
        matrix.solve(sym, &mut w.lin_r);
        for (x, d) in w.ds.iter_mut().zip(&w.lin_r) {
            *x += d;
        }
    }
}

/// Backtracking from the fraction-to-boundary step along (it.ds, cw.de) on ‖F(s; μ)‖₂
/// (Armijo with 1e-4), rejecting |ω| ≥ 2/dt. Leaves the accepted point in it.trial,
/// cw.e_trial and its residual in it.r_trial, cw.re_trial. Returns (accepted, α).
pub fn line_search(eqs: &Equations, sc: &mut Scratch, mu: f64, merit: f64, stats: &mut StepStats) -> (bool, f64) {
    let two_over_dt = 2.0 / eqs.dt;
    let mut alpha = (TAU * max_step(eqs, sc)).min(1.0);
    let Scratch { it: w, next, contacts: cw, .. } = sc;
    for _ in 0..LINE_SEARCH_HALVINGS {
        for k in 0..w.s.len() {
            w.trial[k] = w.s[k] + alpha * w.ds[k];
        }
        let v = &mut cw.vars;
        for k in 0..v.e.len() {
            v.e_trial[k] = v.e[k] + alpha * v.de[k];
        }
        if eqs.angular_speed_ok(&w.trial, two_over_dt) {
            contact_rows::residual(eqs, &w.trial, next, cw, true, mu, &mut w.r_trial);
            let m = norm2(&w.r_trial).hypot(norm2(&cw.vars.re_trial));
            if m.is_finite() && m <= (1.0 - 1e-4 * alpha) * merit {
                return (true, alpha);
            }
        }
        alpha *= 0.5;
        stats.line_search_halvings += 1;
    }
    (false, alpha)
}

/// Largest step along (it.ds, cw.de) that keeps every contact inside its cones.
fn max_step(eqs: &Equations, sc: &Scratch) -> f64 {
    let (w, cw) = (&sc.it, &sc.contacts);
    let mut am = f64::INFINITY;
    for ci in cw.selection.iter() {
        let on = eqs.model.addresses.contact(ci);
        let (mut y, mut dy) = ([0.0; MAX_Y], [0.0; MAX_Y]);
        cw.nodes.gather(ci, &w.s[on..], &cw.vars.e, &mut y);
        cw.nodes.gather(ci, &w.ds[on..], &cw.vars.de, &mut dy);
        am = cw.nodes.layout(ci).max_step(&y, &dy, am);
    }
    am
}
