//! Exact complementarity at the end of a contact solve: the active-set polish (OSQP's
//! solution polishing, adapted to the step's nonlinear equations; research note
//! "contact robustness" §4).
//!
//! An interior point stops at a barrier μ_end > 0, where every normal pair holds
//! γ s_φ = μ_end: a closed contact keeps a gap s_φ = μ_end/γ at z_{k+2} and an open one a
//! force γ = μ_end/s_φ across its gap. Small as they are, these push: a wheel resting on
//! its joint limit with no load sits at γ = s_φ ≈ √μ_end and is pushed off (5.3 mrad in
//! 6 s), and an impact comes out with a rebound of μ_end/(γ dt) instead of none.
//!
//! The polish takes the converged solution, reads off the normal pairs' active set and
//! solves the step equations on it:
//! - a pair with γ ≥ s_φ, and γ above the noise level [`AMBIGUOUS`]·√μ_end, is closed: its
//!   complementarity row becomes s_φ = 0 (`Layout::close_normal_row`), so the gap at
//!   z_{k+2} is exactly zero and γ is free;
//! - any other pair is open: the contact leaves the solve (no force, friction included,
//!   as a culled contact; `step::culling`).
//!
//! The friction pairs keep their barrier rows at μ_end. Newton on these equations from the
//! interior point's solution (regularized, refined solves: a closed pair's condensed pivot
//! is zero) converges in one or two iterations. The result is kept only if it solves the
//! step as well as the interior point's (equality rows below the tolerance, products
//! below the contact tolerance), every closed contact pushes (γ ≥ 0, a rounding-level
//! pull clipped), and every opened contact keeps a gap ≥ 0 at the solution; a closed
//! contact that would pull is opened (a contact leaving: its force still above its gap
//! slack at μ_end), an opened one that would penetrate is closed, and the polish tried
//! again. Otherwise the interior point's solution stands, unchanged.

use super::contact_rows;
use super::direction::{self, LinearSolve};
use super::measures::{force_scale, measures};
use super::settings::TAU;
use crate::contact::cone::MAX_Y;
use crate::data::Scratch;
use crate::step::culling;
use crate::step::options::SolverOptions;
use crate::step::problem::Equations;

/// Newton iterations of one polish attempt.
const ITERATIONS: usize = 3;

/// Chord steps the affine finish takes at most (each a residual and a solve with the
/// interior point's last factors; they converge linearly, by ~1e-3 per step on the
/// 125 resting spheres, where the first leaves 3e-10).
const CHORD_STEPS: usize = 3;

/// A normal variable the affine finish leaves below zero by less than this (times the
/// force scale) is clipped to zero; further below, the finish fails.
const AFFINE_CLIP: f64 = 1e-12;

/// Least reduction of the residual per Newton iteration (see `newton`).
const CONTRACTION: f64 = 0.1;

/// Attempts: a later one opens the contacts the last closed and found pulling, or closes
/// those it opened and found penetrating.
const ATTEMPTS: usize = 3;

/// A normal pair whose force is below this multiple of √μ_end is at the noise level of
/// the barrier (a degenerate pair: force and gap both ≈ √μ_end): it is tried open first.
pub const AMBIGUOUS: f64 = 10.0;

/// Replaces the converged solution in `sc` by its polish when that is at least as exact;
/// returns whether it did. `mu_end` is the barrier the interior point ended at.
pub fn polish(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, mu_end: f64) -> bool {
    if sc.contacts.selection.iter().next().is_none() {
        return false;
    }
    sc.polish.keep(&sc.it, &sc.contacts);
    let aff = affine_finish(eqs, sc, opts, mu_end);
    if aff {
        sc.polish.polished = true;
        return true;
    }
    restore(sc);
    let noise = AMBIGUOUS * mu_end.sqrt();
    for _ in 0..ATTEMPTS {
        classify(eqs, sc, noise);
        let solved = newton(eqs, sc, mu_end, opts);
        if solved && clip_pulls(eqs, sc, opts) {
            // an opened contact must not penetrate at the polished solution; the check
            // puts those that do back into the selection
            if culling::left_out_contacts_hold(eqs, sc, 0.0) {
                open_all(sc);
                sc.polish.polished = true;
                return true;
            }
            if !mark_penetrating(sc) {
                break;
            }
        } else if solved && mark_pulling(eqs, sc, opts) {
            // a contact that would have to pull to stay closed is leaving: the next attempt
            // opens it (and closes it again if it then penetrates)
            restore(sc);
            open_marked(eqs, sc);
            continue;
        } else {
            open_all(sc);
        }
        restore(sc);
        if !sc.contacts.nodes.any_closed() {
            // nothing to close that the last attempt left open: another would be the same
            break;
        }
    }
    open_all(sc);
    restore(sc);
    false
}

/// The cheap finish, tried first: one more Newton step of the interior point's own
/// system, with the factors of its last iteration (a chord step: no assembly, no
/// factorization), the normal pairs aimed at γ s_φ = 0 and the friction pairs held at
/// μ_end, taken whole. Where every pair is strictly complementary this lands the normal
/// products at second order: the closed contacts' gaps fall below what the gap row
/// resolves (tolerance × dt), while the open contacts leave the solve as in the
/// active-set Newton. Kept only if the equality rows meet the tolerance, no normal
/// variable went below zero beyond rounding (clipped) and no opened contact penetrates; a
/// degenerate pair (a wheel resting on its limit, force and gap both ≈ √μ_end) is left
/// to the active-set Newton. On the A1 trot it replaces that Newton's assembly and
/// factorization by one more solve.
fn affine_finish(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, mu_end: f64) -> bool {
    if sc.factors.is_none() {
        return false;
    }
    let model = eqs.model;
    // open contacts leave the solve (their friction would have to collapse with their
    // force, to the cones' boundary); a pair near the noise level is left to the
    // active-set Newton
    let noise = AMBIGUOUS * mu_end.sqrt();
    let mut opened = 0;
    {
        let Scratch { it, contacts: cw, .. } = &mut *sc;
        for ci in 0..cw.count() {
            if !cw.selection.contains(ci) {
                continue;
            }
            let on = model.addresses.contact(ci);
            let (gamma, s_phi) = (it.s[on], cw.vars.e[cw.nodes.e_range(ci).start]);
            if gamma.max(s_phi) <= noise {
                return false;
            }
            if gamma < s_phi {
                let nk = cw.nodes.layout(ci).nk;
                it.s[on..on + nk].iter_mut().for_each(|k| *k = 0.0);
                cw.set_active(ci, false);
                opened += 1;
            }
        }
    }
    // the residual at μ = 0 that the interior point ended with is this point's unless a
    // contact left
    if opened > 0 {
        contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
    }
    for _ in 0..CHORD_STEPS {
        if !chord_step(eqs, sc) {
            return false;
        }
        // a normal variable stepped just below zero is at zero to rounding
        let Scratch { it: w, contacts: cw, .. } = &mut *sc;
        let scale = force_scale(model, &w.s, cw);
        for ci in cw.selection.iter() {
            let (on, at) = (model.addresses.contact(ci), cw.nodes.e_range(ci).start);
            for v in [&mut w.s[on], &mut cw.vars.e[at]] {
                if *v < -AFFINE_CLIP * scale {
                    return false;
                }
                *v = v.max(0.0);
            }
        }
        if !eqs.angular_speed_ok(&w.s, 2.0 / eqs.dt) {
            return false;
        }
        contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
        let (eq, comp) = measures(&sc.contacts, &sc.it.r, 0.0);
        // every gap left under a force is below what the gap row resolves (its residual
        // (s_φ − φ)/dt is held to the tolerance)
        let cw = &sc.contacts;
        let gap = cw.selection.iter().map(|ci| cw.vars.e[cw.nodes.e_range(ci).start]).fold(0.0, f64::max);
        if eq < opts.tolerance && comp <= opts.contact_tolerance * scale && gap <= opts.tolerance * eqs.dt {
            // and an opened contact must not penetrate
            return opened == 0 || culling::left_out_contacts_hold(eqs, sc, 0.0);
        }
    }
    false
}

/// One chord step of the affine finish from the residual at μ = 0 in (it.r, cw.re): the
/// closed pairs' rows read γ s_φ (aimed at zero); the friction pairs' complementarity
/// rows (those a barrier shift moves) are aimed at their products as they are, so the
/// friction variables move only with the normal step. The step is taken whole; false if
/// that would leave a friction cone or the solve fails.
fn chord_step(eqs: &Equations, sc: &mut Scratch) -> bool {
    let model = eqs.model;
    {
        let cw = &mut sc.contacts;
        for ci in 0..cw.count() {
            if !cw.selection.contains(ci) {
                continue;
            }
            let (l, r) = (cw.nodes.layout(ci), cw.nodes.e_range(ci));
            let mut probe = [0.0; MAX_Y];
            probe[..l.ne].copy_from_slice(&cw.vars.re[r.clone()]);
            l.shift_barrier(&mut probe[..l.ne], 1.0);
            for (j, (row, shifted)) in cw.vars.re[r].iter_mut().zip(&probe).enumerate() {
                if j > 0 && *shifted != *row {
                    *row = 0.0;
                }
            }
        }
    }
    if !direction::resolve(eqs, sc) || TAU * max_step(eqs, sc, |_| true) < 1.0 {
        return false;
    }
    let Scratch { it: w, contacts: cw, .. } = &mut *sc;
    for (s, d) in w.s.iter_mut().zip(&w.ds) {
        *s += d;
    }
    for (e, d) in cw.vars.e.iter_mut().zip(&cw.vars.de) {
        *e += d;
    }
    // the opened contacts' force stays zero (the chord's factors still couple them)
    for ci in 0..cw.count() {
        if !cw.selection.contains(ci) {
            let on = model.addresses.contact(ci);
            w.s[on..on + cw.nodes.layout(ci).nk].iter_mut().for_each(|k| *k = 0.0);
        }
    }
    true
}

/// After an attempt whose opened contacts penetrate (put back into the selection by
/// `culling`): marks exactly those closed for the next attempt. False when one of them
/// was not in the interior point's solve at all (a culled contact the polished velocities
/// bring into contact: a polish cannot decide it).
fn mark_penetrating(sc: &mut Scratch) -> bool {
    let Scratch { contacts: cw, polish: saved, .. } = &mut *sc;
    let mut decidable = true;
    for ci in 0..cw.count() {
        let put_back = cw.selection.contains(ci) && !cw.nodes.is_closed(ci);
        decidable &= !put_back || saved.selection.contains(ci);
        cw.nodes.set_closed(ci, put_back);
    }
    decidable
}

/// Sets each selected pair closed or open (see the module notes); a pair already marked
/// closed (`mark_penetrating`) stays closed whatever its force.
fn classify(eqs: &Equations, sc: &mut Scratch, noise: f64) {
    let model = eqs.model;
    let Scratch { it, contacts: cw, .. } = &mut *sc;
    for ci in 0..cw.count() {
        if !cw.selection.contains(ci) {
            continue;
        }
        let on = model.addresses.contact(ci);
        let s_phi_at = cw.nodes.e_range(ci).start;
        let (gamma, s_phi) = (it.s[on], cw.vars.e[s_phi_at]);
        if cw.nodes.is_closed(ci) || (gamma >= s_phi && gamma > noise) {
            cw.nodes.set_closed(ci, true);
            cw.vars.e[s_phi_at] = 0.0;
        } else {
            let nk = cw.nodes.layout(ci).nk;
            it.s[on..on + nk].iter_mut().for_each(|k| *k = 0.0);
            cw.set_active(ci, false);
        }
    }
}

/// Newton on the polished equations from the iterate; true when it meets the interior
/// point's acceptance (equality rows below `tolerance`, products below the scaled
/// contact tolerance).
fn newton(eqs: &Equations, sc: &mut Scratch, mu_end: f64, opts: &SolverOptions) -> bool {
    let model = eqs.model;
    let mut last = f64::INFINITY;
    for k in 0..=ITERATIONS {
        // one residual: the rows at μ_end, toward which the direction goes (the friction
        // pairs stay centred there); its products at μ = 0 are the same rows plus μ_end
        contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, mu_end, &mut sc.it.r);
        let (eq, comp) = measures(&sc.contacts, &sc.it.r, mu_end);
        let comp_tol = opts.contact_tolerance * force_scale(model, &sc.it.s, &sc.contacts);
        if k > 0 && eq < opts.tolerance && comp <= comp_tol {
            return true;
        }

        // Newton from a point this close converges at once: a residual that does not fall
        // by `CONTRACTION` means the active set guessed is not the solution's, or the
        // closed contacts are statically indeterminate (a plate on 100 points: 3
        // iterations, still 1e-9), where the interior point's answer stands
        if !(eq.is_finite() && eq < CONTRACTION * last) || k == ITERATIONS {
            return false;
        }
        last = eq;
        if !direction::direction(eqs, sc, LinearSolve::Regularized) {
            return false;
        }
        let alpha = (TAU * max_step(eqs, sc, |ci| sc.contacts.nodes.is_closed(ci))).min(1.0);
        let Scratch { it: w, contacts: cw, .. } = &mut *sc;
        for (s, d) in w.s.iter_mut().zip(&w.ds) {
            *s += alpha * d;
        }
        for (e, d) in cw.vars.e.iter_mut().zip(&cw.vars.de) {
            *e += alpha * d;
        }
        if !eqs.angular_speed_ok(&w.s, 2.0 / eqs.dt) {
            return false;
        }
    }
    false
}

/// Largest step keeping every variable in its cone, the normal pairs of the contacts
/// `free` names excepted (a closed pair: its force is free, its gap slack held at zero
/// by its row; the affine finish: its normal pairs step whole).
fn max_step(eqs: &Equations, sc: &Scratch, free: impl Fn(usize) -> bool) -> f64 {
    let (w, cw) = (&sc.it, &sc.contacts);
    let mut am = f64::INFINITY;
    let (mut y, mut dy) = ([0.0; MAX_Y], [0.0; MAX_Y]);
    for ci in cw.selection.iter() {
        let on = eqs.model.addresses.contact(ci);
        let l = cw.nodes.layout(ci);
        cw.node_and_step_into(ci, &w.s[on..], &w.ds[on..], &mut y, &mut dy);
        if free(ci) {
            (y[0], dy[0], y[l.nk], dy[l.nk]) = (1.0, 0.0, 1.0, 0.0);
        }
        am = l.max_step(&y, &dy, am);
    }
    am
}

/// A closed contact whose force came out negative pulls: kept only at rounding level
/// (below `SolverOptions::acceptance`, the level at which a stalled solve is accepted;
/// then clipped to zero), else the polish fails. A wheel resting on its limit at 2π + 1
/// rad meets pulls of 1.5e-10: the rounding of its angle, 4.4e-13 rad/s.
fn clip_pulls(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions) -> bool {
    let Scratch { it, contacts: cw, .. } = &mut *sc;
    for ci in 0..cw.count() {
        if !(cw.selection.contains(ci) && cw.nodes.is_closed(ci)) {
            continue;
        }
        let on = eqs.model.addresses.contact(ci);
        if it.s[on] < -opts.acceptance {
            return false;
        }
        it.s[on] = it.s[on].max(0.0);
    }
    true
}

/// After an attempt whose closed contacts solved with a pull beyond rounding: marks
/// exactly those (their closed flag) for [`open_marked`]; false when none pulls.
fn mark_pulling(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions) -> bool {
    let Scratch { it, contacts: cw, .. } = &mut *sc;
    let mut any = false;
    for ci in 0..cw.count() {
        let pulls = cw.selection.contains(ci) && cw.nodes.is_closed(ci) && it.s[eqs.model.addresses.contact(ci)] < -opts.acceptance;
        cw.nodes.set_closed(ci, pulls);
        any |= pulls;
    }
    any
}

/// In the interior point's solution put back: the contacts [`mark_pulling`] marked lose
/// their force, so that `classify` opens them, and every mark is cleared.
fn open_marked(eqs: &Equations, sc: &mut Scratch) {
    let Scratch { it, contacts: cw, .. } = &mut *sc;
    for ci in 0..cw.count() {
        if cw.nodes.is_closed(ci) {
            let on = eqs.model.addresses.contact(ci);
            it.s[on..on + cw.nodes.layout(ci).nk].iter_mut().for_each(|k| *k = 0.0);
            cw.nodes.set_closed(ci, false);
        }
    }
}

/// Every normal pair back to its barrier row (the polish's modes end with it).
fn open_all(sc: &mut Scratch) {
    let cw = &mut sc.contacts;
    for ci in 0..cw.count() {
        cw.nodes.set_closed(ci, false);
    }
}

/// The interior point's solution back.
fn restore(sc: &mut Scratch) {
    sc.polish.put_back(&mut sc.it, &mut sc.contacts);
}
