//! The contacts' rows of the interior point's step equations (paper sections 3.3–3.4,
//! appendix C): their residual F(s, E; μ) beside the equality rows, and their blocks of
//! the Newton matrix, each contact condensed to one node (`contact::node`).

use super::settings::FORCE_REFERENCE;
use crate::contact::cone::{by_node_size, Kind, Layout, MAX_Y};
use crate::contact::node::ContactWork;
use crate::integrator::NextPoses;
use crate::contact::geometry::ContactFrame;
use crate::contact::MAX_DIRECTIONS;
use crate::model::addresses::Addresses;
use crate::solver::BlockMatrix;
use crate::step::problem::{norm_inf, Equations};
use crate::data::Scratch;

/// Contact frames at z_{k+1} and the contact variables' starting point: the centre of
/// their cones (starting on the boundary would jam); a left-out contact's variables are 0.
pub fn start_contacts(eqs: &Equations, s: &mut [f64], cw: &mut ContactWork) {
    let model = eqs.model;
    for ci in 0..cw.count() {
        let l = cw.nodes.layout(ci);
        let o = model.addresses.contact(ci);
        if !cw.selection.contains(ci) {
            s[o..o + l.nk].iter_mut().for_each(|k| *k = 0.0);
            continue;
        }
        eqs.fill_frame(cw, ci);
        let mut y = [0.0; MAX_Y];
        l.init(&mut y);
        // a contact the free motion would cross starts near the force that stops its
        // bodies, m |φ|/dt² (from unit products, an impact of hundreds of newtons is a
        // crawl of damped steps at μ = 1: the 16-sphere chain of SCENARIOS B2 split steps
        // at 100 iterations and needs none now), at most `COLD_FORCE_CAP`
        let phi = eqs.gap(&cw.points, ci, s, None);
        if phi < 0.0 && ci < model.contacts.len() {
            let fr = &cw.frames[ci];
            let mobility: f64 = fr.bodies[..fr.sides].iter().map(|&b| eqs.dt / model.bodies[b].mass).sum();
            let gamma = (-phi / (eqs.dt * mobility)).clamp(1.0, COLD_FORCE_CAP);
            l.scale_normal(&mut y, gamma);
        }
        s[o..o + l.nk].copy_from_slice(&y[..l.nk]);
        cw.vars.e[cw.nodes.e_range(ci)].copy_from_slice(&y[l.nk..l.ny()]);
    }
}

/// The largest normal force (N) a cold start puts on a contact: ten times the force
/// above which the complementarity tolerance scales (`settings::FORCE_REFERENCE`). A
/// deeper estimate (the projection out of a start 0.42 m in the ground asks for 1e5 N
/// per contact in one step of 1 ms) starts so far from the products' scale that the solve
/// jams: the A1 at its file's pose is refused with a cap of 1e4 N and resolved with 1e3.
const COLD_FORCE_CAP: f64 = 10.0 * FORCE_REFERENCE;

/// Fills the selected inequalities' force and slip maps at z_{k+1} (`cw.frames`): they do
/// not depend on the iterate, so a warm start fills them once for its measure and its
/// centring.
pub fn fill_frames(eqs: &Equations, cw: &mut ContactWork) {
    for ci in 0..cw.count() {
        if cw.selection.contains(ci) {
            eqs.fill_frame(cw, ci);
        }
    }
}

/// The contact variables' warm start from the last step's solution (K in `s` and E in
/// `cw.vars.e`, put there by `step::warm_start`), centred at barrier μ
/// (`Layout::centre`) with the gap and the slip at the iterate. A contact that was left out of the
/// last step (γ = 0 exactly: the interior point keeps γ > 0) starts from zero forces.
/// The frames are filled first ([`fill_frames`]). False if a variable is not finite.
pub fn warm_contacts(eqs: &Equations, s: &mut [f64], mu: f64, cw: &mut ContactWork) -> bool {
    warm_contacts_keeping(eqs, s, mu, cw, false)
}

/// [`warm_contacts`], and with `keep_forces` a contact that carries a force γ keeps it
/// where the gap at the iterate exceeds μ/γ and holding that gap would cost its body rows
/// more (γ − μ/gap) than holding the force costs its gap row ((gap − μ/γ)/dt): the
/// balance's warm start (`WarmBarrier::Balance`), whose last forces nearly balance the
/// step. Centred at μ_end by the gap, a sphere of the 25-sphere pile 1e-8 m above its
/// support lost its weight (momentum rows at 2.9 where the start's were 4e-4 of the
/// loads) and the solve crawled to its cap; with the forces kept, that pile started from
/// the balance every step rests in 1–3 iterations a step.
pub fn warm_contacts_keeping(eqs: &Equations, s: &mut [f64], mu: f64, cw: &mut ContactWork, keep_forces: bool) -> bool {
    let model = eqs.model;
    let at = &model.addresses;
    for ci in 0..cw.count() {
        let l = cw.nodes.layout(ci);
        let o = at.contact(ci);
        let er = cw.nodes.e_range(ci);
        if !cw.selection.contains(ci) {
            s[o..o + l.nk].iter_mut().for_each(|k| *k = 0.0);
            continue;
        }
        let mut y = [0.0; MAX_Y];
        if s[o] != 0.0 {
            cw.nodes.gather(ci, &s[o..], &cw.vars.e, &mut y);
        }
        let mut phi = eqs.gap(&cw.points, ci, s, None);
        if keep_forces {
            let gamma = y[0].max(mu.sqrt());
            if phi > mu / gamma && (phi - mu / gamma) / eqs.dt < gamma - mu / phi {
                phi = mu / gamma;
            }
        }
        let bv = slip(&cw.frames[ci], at, s, l.nt);
        l.centre(&mut y, phi, &bv[..l.nt], mu);
        if !y[..l.ny()].iter().all(|v| v.is_finite()) {
            return false;
        }
        s[o..o + l.nk].copy_from_slice(&y[..l.nk]);
        cw.vars.e[er].copy_from_slice(&y[l.nk..l.ny()]);
    }
    true
}

/// How far the last step's solution (velocities, multipliers and contact forces in
/// `sc.it.s`) is from balancing this step: the largest body or joint row of the residual
/// with its contact forces applied (the contacts' own rows left out: the warm start
/// centres them). `sc.it.r` holds the residual without them (`Equations::residual` at
/// `sc.it.s`, as the loads' measure leaves it) and the frames are filled ([`fill_frames`]).
pub fn balance_residual(eqs: &Equations, sc: &mut Scratch) -> f64 {
    let Scratch { it: w, contacts: cw, .. } = sc;
    let at = &eqs.model.addresses;
    for ci in 0..cw.count() {
        let (o, l) = (at.contact(ci), cw.nodes.layout(ci));
        let nk = l.nk;
        if cw.selection.contains(ci) {
            apply_forces(&cw.frames[ci], at, &l, &w.s[o..o + nk], &mut w.r);
        }
        w.r[o..o + nk].iter_mut().for_each(|v| *v = 0.0);
    }
    norm_inf(&w.r)
}

/// A contact's forces `k` (its layout's nk entries) on its bodies' rows of `r`: −W k.
fn apply_forces(fr: &ContactFrame, at: &Addresses, l: &Layout, k: &[f64], r: &mut [f64]) {
    by_node_size!(l, apply_forces_sized(fr, at, k, r))
}

/// `apply_forces` at the node's sizes (literals where usual: the sums unroll).
#[inline(always)]
fn apply_forces_sized(nk: usize, _ne: usize, fr: &ContactFrame, at: &Addresses, k: &[f64], r: &mut [f64]) {
    for side in 0..fr.sides {
        let ob = at.body(fr.bodies[side]);
        for rr in 0..6 {
            let wr = &fr.w[side][rr * nk..rr * nk + nk];
            r[ob + rr] -= (0..nk).map(|j| wr[j] * k[j]).sum::<f64>();
        }
    }
}

/// The projected Newton's projection (`interior_point::projected`) after a whole step
/// (`ds` in the graph vector, `cw.vars.de` in E) to `s` and `cw.vars.e`, every contact in
/// the solve closed: one whose normal force came out negative opens (leaves the solve);
/// one whose friction variables the step took out of their cones has them put back on
/// the central path at μ (`Layout::centre`, as the warm start puts them), its normal pair
/// kept; the others stay where Newton put them. Returns how many changed; None if a
/// variable is not finite.
pub fn project_closed(eqs: &Equations, s: &mut [f64], ds: &[f64], mu: f64, cw: &mut ContactWork) -> Option<usize> {
    let at = &eqs.model.addresses;
    let mut changed = 0;
    for ci in 0..cw.count() {
        if !cw.selection.contains(ci) {
            continue;
        }
        let l = cw.nodes.layout(ci);
        let o = at.contact(ci);
        let (mut y, mut dy) = cw.node_and_step(ci, &s[o..], &ds[o..]);
        if y[0] < 0.0 {
            s[o..o + l.nk].iter_mut().for_each(|k| *k = 0.0);
            cw.set_active(ci, false);
            changed += 1;
            continue;
        }
        if friction_stayed_inside(&l, &y, &mut dy) {
            continue;
        }
        let (gamma, s_phi) = (y[0], y[l.nk]);
        let bv = slip(&cw.frames[ci], at, s, l.nt);
        l.centre(&mut y, 0.0, &bv[..l.nt], mu);
        (y[0], y[l.nk]) = (gamma, s_phi);
        if !y[..l.ny()].iter().all(|v| v.is_finite()) {
            return None;
        }
        cw.nodes.scatter(ci, &y, &mut s[o..], &mut cw.vars.e);
        changed += 1;
    }
    Some(changed)
}

/// For a chord step that finishes a projected Newton's solution (`ds`, `cw.vars.de` just
/// taken to `s`, `cw.vars.e`): false if it took a contact's friction variables out of
/// their cones or a closed contact's normal force below −`pull`; a pull down to that is
/// rounding and is clipped to zero.
pub fn clip_closed(eqs: &Equations, s: &mut [f64], ds: &[f64], pull: f64, cw: &mut ContactWork) -> bool {
    let at = &eqs.model.addresses;
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let o = at.contact(ci);
        if s[o] < -pull {
            return false;
        }
        s[o] = s[o].max(0.0);
        let (y, mut dy) = cw.node_and_step(ci, &s[o..], &ds[o..]);
        if !friction_stayed_inside(&l, &y, &mut dy) {
            return false;
        }
    }
    true
}

/// Whether a closed contact's whole step `dy` that ended at `y` kept its friction
/// variables inside their cones (the normal pair left out: its force is free, its gap
/// slack held at zero). Zeroes dy's normal pair.
fn friction_stayed_inside(l: &Layout, y: &[f64; MAX_Y], dy: &mut [f64; MAX_Y]) -> bool {
    let mut before: [f64; MAX_Y] = std::array::from_fn(|i| y[i] - dy[i]);
    (before[0], dy[0], before[l.nk], dy[l.nk]) = (1.0, 0.0, 1.0, 0.0);
    l.max_step(&before, dy, 1.0) >= 1.0
}

/// The slip velocity of a contact's bodies at s along its `nt` friction directions.
fn slip(fr: &ContactFrame, at: &Addresses, s: &[f64], nt: usize) -> [f64; MAX_DIRECTIONS] {
    let mut bv = [0.0; MAX_DIRECTIONS];
    for side in 0..fr.sides {
        let ob = at.body(fr.bodies[side]);
        for (i, b) in bv.iter_mut().enumerate().take(nt) {
            let row = &fr.bv[side][i * 6..i * 6 + 6];
            *b += (0..6).map(|k| row[k] * s[ob + k]).sum::<f64>();
        }
    }
    bv
}

/// Step residual at (s, E) with barrier μ: body/joint rows and the contacts' K rows into
/// `r`, the contacts' E rows into `cw.vars.re` (or `re_trial` with `trial`, reading E
/// from `e_trial`).
pub fn residual(eqs: &Equations, s: &[f64], next: &mut NextPoses, cw: &mut ContactWork, trial: bool, mu: f64, r: &mut [f64]) {
    eqs.residual(s, next, r);
    let model = eqs.model;
    let at = &model.addresses;
    let dt = eqs.dt;
    let ContactWork { nodes, vars, frames, points, selection, .. } = cw;
    let (e, re) = if trial { (&vars.e_trial, &mut vars.re_trial) } else { (&vars.e, &mut vars.re) };
    for (ci, fr) in frames.iter().enumerate() {
        let l = nodes.layout(ci);
        let on = at.contact(ci);
        let er = nodes.e_range(ci);
        if !selection.contains(ci) {
            r[on..on + l.nk].iter_mut().chain(re[er].iter_mut()).for_each(|v| *v = 0.0);
            continue;
        }
        let phi = eqs.gap_at(next, points, ci, s, None);
        let bv = slip(fr, at, s, l.nt);
        apply_forces(fr, at, &l, &s[on..on + l.nk], r);
        let mut y = [0.0; MAX_Y];
        nodes.gather(ci, &s[on..], e, &mut y);
        let (rk, re_c) = (&mut r[on..on + l.nk], &mut re[er]);
        l.residual(&y, phi, &bv[..l.nt], nodes.friction(ci), eqs.friction.law(ci), dt, mu, rk, re_c);
        if nodes.is_closed(ci) {
            l.close_normal_row(&y, re_c);
        }
    }
}

/// Contact blocks of the Newton matrix (coupling and condensed diagonal) and the
/// condensed right-hand side rows (in `rhs`, which holds the residual on entry).
/// False when a contact's condensation is singular (the iterate left the cones). `next`
/// holds the poses at `s` (`Equations::jacobian` placed them).
pub fn assemble(eqs: &Equations, s: &[f64], next: &NextPoses, cw: &mut ContactWork, matrix: &mut BlockMatrix, rhs: &mut [f64]) -> bool {
    let model = eqs.model;
    let sym = &model.symbolic;
    let at = &model.addresses;
    let dt = eqs.dt;
    for ci in 0..cw.count() {
        let l = cw.nodes.layout(ci);
        let nc = model.inequality_node(ci);
        let on = at.contact(ci);
        if !cw.selection.contains(ci) {
            // identity block, zero coupling (cleared) and zero residual: the direction is 0
            matrix.decouple(sym, nc);
            continue;
        }
        let mut gj = [[0.0; 6]; 2];
        eqs.gap_at(next, &cw.points, ci, s, Some(&mut gj));
        let fr = &cw.frames[ci];
        for side in 0..fr.sides {
            let nb = model.body_node[fr.bodies[side]];
            let blk = matrix.block_mut(sym, nc, nb);
            for k in 0..6 {
                blk[k] = -gj[side][k] / dt;
            }
            blk[6..6 + 6 * l.nt].copy_from_slice(&fr.bv[side][..6 * l.nt]);
            let blk = matrix.block_mut(sym, nb, nc);
            for (b, wv) in blk.iter_mut().zip(&fr.w[side][..6 * l.nk]) {
                *b = -wv;
            }
        }
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &s[on..], &cw.vars.e, &mut y);
        let diag = matrix.block_mut(sym, nc, nc);
        if !cw.nodes.condense(ci, &y, &cw.vars.re, eqs.friction.law(ci), dt, diag, &mut rhs[on..on + l.nk]) {
            return false;
        }
    }
    true
}

/// Static regularization of the contacts' condensed pivots, relative to each one's
/// Delassus estimate: an active contact's complementarity block
/// vanishes as μ → 0, and with several mutually touching contacts (a pile, a grasp) their
/// rows are dependent, so the Newton matrix turns singular on the self-equilibrated force
/// modes and the unpivoted LDU's direction carries rounding of eps·cond. The shift keeps
/// the matrix quasi-definite (each row pushed away from zero on the side its condensed
/// block already lies: the gap row's −s_φ/(γ dt) negative, the friction rows positive).
/// It perturbs only the matrix that is factored; the direction is refined against the
/// matrix as assembled (`direction`) and the residual is never touched, so a converged
/// step is exact.
pub const CONTACT_REGULARIZATION: f64 = 1e-10;
/// The friction rows' shift is at least this fraction of the row's own pivot: a contact
/// sliding between two facets of the linear cone has two friction rows c + η_i/β_i with
/// η_i/β_i ≪ c = ψ/s_ψ, equal to rounding, where a shift relative to the Delassus
/// estimate alone (1e-10 × ~1e-2 on an A1 foot) is below the pivot's last digit (c ≈ 8e4).
/// On the linear cone it stays ~500 eps, not more: only the rows' own parts η_i/β_i tell
/// the facets apart, and a larger shift replaced them in the refined direction. At 1e-10
/// a box of the 100-box pour sliding between two facets (c = 2.4e6, η/β ≈ 1e-7) had them
/// shifted by 2.4e-4, its refinement could not gain 10 % a round, and the relaxed solve
/// stalled at 4.5e-8 m/s in that slip row (step 17); at 1e-13 it converges (2.4e-13).
/// This floor is for the solves that are refined throughout (the step's last resorts: the
/// refined, Tresca and relaxed solves, `friction_floor`).
pub const FRICTION_PIVOT_FLOOR: f64 = 1e-13;
/// Every other regularized factorization's floor: the second-order cone's (at 1e-13 the
/// A1 trot on second-order cones with joint limits took 3 relaxed steps in 10 s instead
/// of 1), the polish's, and a plain solve's one refined factorization after a singular
/// pivot (at 1e-13 a cylinder rolling across a plane at dt 1e-4 wobbled 2.3e-10 m/s and
/// slipped 3.3e-11 m/s, where at 1e-10 it keeps 2.4e-12 and 4.9e-15).
pub const FALLBACK_FRICTION_PIVOT_FLOOR: f64 = 1e-10;

/// The friction rows' floor of `regularize` for a linear cone in a solve refined
/// throughout (`refined_throughout`), and for the rest.
pub fn friction_floor(l: &Layout, refined_throughout: bool) -> f64 {
    if l.kind == Kind::Linear && refined_throughout { FRICTION_PIVOT_FLOOR } else { FALLBACK_FRICTION_PIVOT_FLOOR }
}

pub fn regularize(eqs: &Equations, cw: &ContactWork, matrix: &mut BlockMatrix, refined_throughout: bool) {
    let model = eqs.model;
    let sym = &model.symbolic;
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let (nk, floor) = (l.nk, friction_floor(&l, refined_throughout));
        let nc = model.inequality_node(ci);
        // Delassus estimate of the normal row: Σ over its bodies and directions of
        // (gap row entry · force map entry) / body pivot entry, from the assembled blocks
        let fr = &cw.frames[ci];
        let mut delassus = 0.0;
        for &body in &fr.bodies[..fr.sides] {
            let nb = model.body_node[body];
            let (row, column, pivot) = (matrix.block(sym, nc, nb), matrix.block(sym, nb, nc), matrix.block(sym, nb, nb));
            for k in 0..6 {
                let h = pivot[k * 6 + k].abs();
                if h > 0.0 {
                    delassus += (row[k] * column[k * nk]).abs() / h;
                }
            }
        }
        let delta = CONTACT_REGULARIZATION * delassus;
        let diag = matrix.block_mut(sym, nc, nc);
        diag[0] -= delta;
        for r in 1..nk {
            let d = &mut diag[r * nk + r];
            *d += delta.max(floor * d.abs());
        }
    }
}
