//! The interior point's Newton direction and step length: the condensed graph system
//! assembled and solved (and solved again for a new right-hand side with the same
//! factors), the fraction-to-boundary rule and the backtracking line search.

use super::contact_rows;
use super::settings::{LINE_SEARCH_HALVINGS, REFINEMENTS, REFINEMENT_FLOOR, REFINEMENT_GAIN, TAU};
use crate::contact::cone::MAX_Y;
pub use crate::data::LinearSolve;
use crate::contact::node::ContactWork;
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
    if factor(eqs, sc, linear, false) || (linear == LinearSolve::Plain && factor(eqs, sc, LinearSolve::Refined, true)) {
        return resolve_rhs_in_place(eqs, sc);
    }
    false
}

/// Assembles the Newton matrix and its right-hand side (in it.ds) at the iterate, and
/// factors it as `linear` says (`fallback`: a plain solve's one refined factorization
/// after a singular pivot); records the factors in `sc.factors`.
fn factor(eqs: &Equations, sc: &mut Scratch, linear: LinearSolve, fallback: bool) -> bool {
    let Scratch { it: w, next, matrix, reference, contacts: cw, factors, factorizations, .. } = sc;
    let sym = &eqs.model.symbolic;
    *factors = None;
    *factorizations += 1;
    eqs.jacobian(&w.s, next, matrix);
    w.ds.copy_from_slice(&w.r);
    if !contact_rows::assemble(eqs, &w.s, next, cw, matrix, &mut w.ds) {
        return false;
    }
    match linear {
        LinearSolve::Plain => {}
        LinearSolve::Regularized => contact_rows::regularize(eqs, cw, matrix, false),
        LinearSolve::Refined => {
            reference.values.copy_from_slice(&matrix.values);
            contact_rows::regularize(eqs, cw, matrix, !fallback);
        }
    }
    if matrix.factor(sym).is_err() {
        return false;
    }
    *factors = Some(linear);
    true
}

/// Solves the factored system for the condensed right-hand side in it.ds and recovers
/// the contacts' eliminated variables; refined (`LinearSolve::Refined`), the direction is
/// then corrected against the system before condensation (`refine`).
fn resolve_rhs_in_place(eqs: &Equations, sc: &mut Scratch) -> bool {
    let Scratch { it: w, matrix, reference, contacts: cw, factors, .. } = sc;
    let Some(linear) = *factors else { return false };
    w.ds.iter_mut().for_each(|d| *d = -*d);
    matrix.solve(&eqs.model.symbolic, &mut w.ds);
    for ci in cw.selection.iter() {
        let on = eqs.model.addresses.contact(ci);
        cw.nodes.recover(ci, &w.ds[on..], &mut cw.vars.de);
    }
    if linear == LinearSolve::Refined {
        refine(eqs, matrix, reference, w, cw);
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

/// Iterative refinement of the direction (it.ds, cw.de) for the right-hand side
/// −(it.r, cw.re): x ← x + A_reg⁻¹(b − A x) while the residual keeps falling by
/// `REFINEMENT_GAIN` and is above `REFINEMENT_FLOOR` × ‖b‖∞, at most `REFINEMENTS` rounds
/// (ECOS, Clarabel, IPOPT: regularize, then refine). The residual b − A x is taken in the
/// system before condensation (`contact::node`): body and joint rows against the matrix
/// as assembled (`reference`), each contact's rows from its coupling blocks and its
/// local Jacobian. Against the condensed matrix the refinement could not see what
/// condensation rounds away: a sliding contact's friction rows carry c = ψ/s_ψ ≈ 1e8
/// near the final barrier, so their own entries (of order 1) keep only eps·c ≈ 2e-8 of
/// their digits, the A1's feet stalled at that equality residual, and the regularization's
/// bias stayed too.
fn refine(eqs: &Equations, matrix: &BlockMatrix, reference: &BlockMatrix, w: &mut Iterate, cw: &mut ContactWork) {
    let model = eqs.model;
    let (sym, at) = (&model.symbolic, &model.addresses);
    for (b, r) in w.rhs.iter_mut().zip(&w.r) {
        *b = -r;
    }
    let b_norm = norm_inf(&w.r).max(cw.selection.iter().map(|ci| norm_inf(&cw.vars.re[cw.nodes.e_range(ci)])).fold(0.0, f64::max));
    let mut last = f64::INFINITY;
    for _ in 0..REFINEMENTS {
        // b − A x: body and joint rows from the assembled matrix; each contact's K rows
        // (into lin_r) and E rows (into lin_re) before condensation
        reference.residual(sym, &w.ds, &w.rhs, &mut w.lin_r);
        let mut err = 0.0f64;
        for ci in 0..cw.count() {
            if cw.selection.contains(ci) {
                err = err.max(contact_residual(eqs, reference, w, cw, ci));
            }
        }
        err = err.max(norm_inf(&w.lin_r));
        if !(err > REFINEMENT_FLOOR * b_norm && err < REFINEMENT_GAIN * last) {
            break;
        }
        last = err;
        // the correction: the contacts' E rows condensed into their K rows, one solve,
        // the E part recovered
        for ci in cw.selection.iter() {
            let (on, nk, er) = (at.contact(ci), cw.nodes.layout(ci).nk, cw.nodes.e_range(ci));
            cw.vars.lin_re[er.clone()].iter_mut().for_each(|v| *v = -*v);
            let rk = &mut w.lin_r[on..on + nk];
            rk.iter_mut().for_each(|v| *v = -*v);
            cw.nodes.condense_rhs(ci, &cw.vars.lin_re, rk);
            rk.iter_mut().for_each(|v| *v = -*v);
        }
        matrix.solve(sym, &mut w.lin_r);
        for (x, d) in w.ds.iter_mut().zip(&w.lin_r) {
            *x += d;
        }
        for ci in cw.selection.iter() {
            let on = at.contact(ci);
            cw.nodes.recover(ci, &w.lin_r[on..], &mut cw.vars.lin_de);
            let er = cw.nodes.e_range(ci);
            for (x, d) in cw.vars.de[er.clone()].iter_mut().zip(&cw.vars.lin_de[er]) {
                *x += d;
            }
        }
    }
}

/// Contact `ci`'s rows of b − A x before condensation, for the direction (it.ds, cw.de)
/// and b = −(it.r, cw.re): the K rows into it.lin_r, the E rows into cw.vars.lin_re;
/// returns their largest magnitude. The coupling blocks come from the assembled matrix,
/// the node's own block from its local Jacobian (`ContactNodes::local_jacobian`, as
/// the last condensation took it).
fn contact_residual(eqs: &Equations, reference: &BlockMatrix, w: &mut Iterate, cw: &mut ContactWork, ci: usize) -> f64 {
    let model = eqs.model;
    let (sym, at) = (&model.symbolic, &model.addresses);
    let l = cw.nodes.layout(ci);
    let (nk, ny) = (l.nk, l.ny());
    let (on, nc, er) = (at.contact(ci), model.inequality_node(ci), cw.nodes.e_range(ci));
    let mut dy = [0.0; MAX_Y];
    cw.nodes.gather(ci, &w.ds[on..], &cw.vars.de, &mut dy);
    let mut rho = [0.0; MAX_Y];
    for (r, v) in rho[..nk].iter_mut().enumerate() {
        *v = -w.r[on + r];
    }
    for (v, &re) in rho[nk..ny].iter_mut().zip(&cw.vars.re[er.clone()]) {
        *v = -re;
    }
    let fr = &cw.frames[ci];
    for &body in &fr.bodies[..fr.sides] {
        let (blk, ob) = (reference.block(sym, nc, model.body_node[body]), at.body(body));
        for (r, v) in rho[..nk].iter_mut().enumerate() {
            *v -= (0..6).map(|k| blk[r * 6 + k] * w.ds[ob + k]).sum::<f64>();
        }
    }
    let a = cw.nodes.local_jacobian(ci);
    for (r, v) in rho[..ny].iter_mut().enumerate() {
        *v -= (0..ny).map(|k| a[r * ny + k] * dy[k]).sum::<f64>();
    }
    w.lin_r[on..on + nk].copy_from_slice(&rho[..nk]);
    cw.vars.lin_re[er].copy_from_slice(&rho[nk..ny]);
    rho[..ny].iter().fold(0.0, |m, v| m.max(v.abs()))
}

/// Backtracking from the fraction-to-boundary step along (it.ds, cw.de) on ‖F(s; μ)‖₂
/// (Armijo with 1e-4), rejecting |ω| ≥ 2/dt. A solve with arcs (`ContactWork::arcs`)
/// tries each α on the second-order cones' arcs (`Layout::trial`) and then, where the
/// straight line is still inside the cones, on the line: each is Newton's step to first
/// order, and the search takes whichever meets the rule first. Leaves the accepted point
/// in it.trial, cw.e_trial and its residual in it.r_trial, cw.re_trial. Returns
/// (accepted, α).
pub fn line_search(eqs: &Equations, sc: &mut Scratch, mu: f64, merit: f64, stats: &mut StepStats) -> (bool, f64) {
    let two_over_dt = 2.0 / eqs.dt.abs();
    let alpha_max = max_step(eqs, sc, sc.contacts.arcs);
    let line_max = if sc.contacts.arcs { max_step(eqs, sc, false) } else { alpha_max };
    let mut alpha = (TAU * alpha_max).min(1.0);
    let Scratch { it: w, next, contacts: cw, .. } = sc;
    for _ in 0..LINE_SEARCH_HALVINGS {
        // whether a variable on an arc left the straight line (else the line is the same point)
        let mut bent = false;
        for on_arcs in [true, false] {
            if (on_arcs && !cw.arcs) || (!on_arcs && cw.arcs && (!bent || alpha > TAU * line_max)) {
                continue;
            }
            for k in 0..w.s.len() {
                w.trial[k] = w.s[k] + alpha * w.ds[k];
            }
            let v = &mut cw.vars;
            for k in 0..v.e.len() {
                v.e_trial[k] = v.e[k] + alpha * v.de[k];
            }
            if on_arcs {
                // a second-order cone's variables near its boundary move along their arcs
                for ci in cw.selection.iter() {
                    let l = cw.nodes.layout(ci);
                    if !l.has_arcs() {
                        continue;
                    }
                    let on = eqs.model.addresses.contact(ci);
                    let (y, dy) = cw.node_and_step(ci, &w.s[on..], &w.ds[on..]);
                    let mut t = [0.0; MAX_Y];
                    l.trial(&y, &dy, alpha, true, &mut t);
                    bent |= (0..l.ny()).any(|i| t[i] != y[i] + alpha * dy[i]);
                    cw.nodes.scatter(ci, &t, &mut w.trial[on..], &mut cw.vars.e_trial);
                }
            }
            if eqs.angular_speed_ok(&w.trial, two_over_dt) {
                contact_rows::residual(eqs, &w.trial, next, cw, true, mu, &mut w.r_trial);
                let m = norm2(&w.r_trial).hypot(norm2(&cw.vars.re_trial));
                if m.is_finite() && m <= (1.0 - 1e-4 * alpha) * merit {
                    return (true, alpha);
                }
            }
        }
        alpha *= 0.5;
        stats.line_search_halvings += 1;
    }
    (false, alpha)
}

/// Largest step along (it.ds, cw.de) whose trial point (`Layout::trial`, on arcs or not)
/// keeps every contact inside its cones.
fn max_step(eqs: &Equations, sc: &Scratch, arcs: bool) -> f64 {
    let (w, cw) = (&sc.it, &sc.contacts);
    let mut am = f64::INFINITY;
    let (mut y, mut dy) = ([0.0; MAX_Y], [0.0; MAX_Y]);
    for ci in cw.selection.iter() {
        let on = eqs.model.addresses.contact(ci);
        cw.node_and_step_into(ci, &w.s[on..], &w.ds[on..], &mut y, &mut dy);
        am = cw.nodes.layout(ci).max_trial_step(&y, &dy, arcs, am);
    }
    am
}
