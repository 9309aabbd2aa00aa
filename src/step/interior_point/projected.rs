//! The projected Newton (issue 27): a step solved on the last step's contact modes,
//! tried before the warm interior point (`step::contact_solve`).
//!
//! The warm interior point starts from the last step's solution centred at a barrier
//! above μ_end and walks it down by Mehrotra's steps, each held to a factor 100 by the
//! fraction-to-boundary rule: a trot step whose contacts keep their modes took 3–4
//! factorizations. Here the warm start is centred at μ_end itself
//! (`contact_rows::warm_contacts`) and each contact's mode is read off it (`set_modes`):
//! closed where its force exceeds its gap slack or its gap at the extrapolated velocities
//! is below zero (the gap slack then held at zero, `Layout::close_normal_row`: its force
//! free, its gap exact), open otherwise (out of the solve, as a culled contact). Friction
//! pairs stay on the central path at μ_end, so every condensed block stays invertible
//! (`contact::node`) and the modes of friction (stick, slide, direction) need no guess.
//!
//! Whole Newton steps follow, without a line search; after each, the projection
//! (`contact_rows::project_closed`): a closed contact that pulls opens, friction variables
//! the step took out of their cones are centred at μ_end again, and a contact out of the
//! solve that the step takes below zero joins closed. Once Newton contracts a
//! thousandfold on unchanged modes the last factors serve the next step (a chord), and a
//! solution is finished by chord steps to the residual's rounding (`finish`). Where the
//! modes hold, a step takes one factorization and a few chords.
//!
//! The answer meets the interior point's own test (equality rows below the tolerance,
//! products at μ_end) with exact complementarity in the normal pairs, so no polish
//! follows. It is not tried with a joint limit in the solve, or where a body's closed
//! contacts do not determine their forces (`determinate`); after `ITERATIONS` directions, or a direction
//! that fails, the warm start is put back and the warm interior point runs.

use super::contact_rows;
use super::direction::{self, LinearSolve};
use super::final_barrier;
use super::measures::{count_active, force_scale, measures, shift_barrier};
use crate::contact::cone::MAX_Y;
use crate::contact::body_lists::BodyLists;
use crate::contact::node::ContactWork;
use crate::data::{Scratch, StepStats};
use crate::step::culling;
use crate::step::options::SolverOptions;
use crate::step::problem::{Equations, Outcome};

/// Newton directions an attempt may take: from the last step's solution, a step on the
/// same modes converges in two, and one or two more carry a change of mode.
const ITERATIONS: usize = 10;

/// A Newton step that cut the equality residual at least this much leaves the next one to
/// the same factors (a chord step: residual and solve, no assembly or factorization), as
/// `step::newton` does.
const CHORD_CONTRACTION: f64 = 1e-3;

/// Chord steps that finish a solution (`finish`), at most; each must halve the equality
/// residual, which they do down to its rounding floor.
const FINISH_STEPS: usize = 3;

/// A solution whose equality residual is below this fraction of the tolerance is
/// finished: 1e-12 N in the momentum rows and 1e-15 m in a closed gap at 1 ms by
/// default, where the tests of resting forces (2e-14 relative on a capsule's weight) and
/// of a sphere's rebound hold. Each finishing chord costs a solve and a residual, a tenth
/// of the trot's step: at 1e-4 of the tolerance it took 24.5 µs, at 1e-2 21.3 µs.
const FINISHED: f64 = 1e-2;

/// The projected Newton from the warm start in `sc` (velocities extrapolated by
/// `step::warm_start`, the last solution's contact variables in `it.s` and
/// `contacts.vars.e`). Converged: the exact solution is in the iterate (closed contacts at
/// zero gap, open ones out of the solve) and `sc.polish` holds it centred at μ_end for
/// the next step's warm start (`step::commit`). Not converged: the iterate is the warm
/// start again, and the work done is in the stats.
pub fn solve(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions) -> Outcome {
    let model = eqs.model;
    let mu_end = final_barrier(opts);
    let mut stats = StepStats { contacts: model.contacts.len(), ..StepStats::default() };
    sc.factors = None;
    if crowded(eqs, &sc.it.s, &mut sc.contacts) {
        return Outcome { stats, converged: false };
    }
    sc.contacts.arcs = false;
    sc.polish.keep(&sc.it, &sc.contacts);
    contact_rows::fill_frames(eqs, &mut sc.contacts);
    let converged = contact_rows::warm_contacts(eqs, &mut sc.it.s, mu_end, &mut sc.contacts) && {
        set_modes(eqs, sc) && determinate(eqs, &mut sc.contacts) && newton(eqs, sc, opts, mu_end, &mut stats)
    };
    if converged {
        keep_centred(eqs, sc, mu_end);
        sc.polish.polished = true;
        stats.active_contacts = count_active(model, &sc.it.s, &sc.contacts);
    } else {
        sc.polish.put_back(&mut sc.it, &mut sc.contacts);
        sc.factors = None;
    }
    for ci in 0..sc.contacts.count() {
        sc.contacts.nodes.set_closed(ci, false);
    }
    Outcome { stats, converged }
}

/// Each contact in the solve closed (its gap slack held at zero, `Layout::close_normal_row`)
/// where the warm start has its force above its gap or its gap at the extrapolated
/// velocities below zero; any other leaves the solve. False when a joint limit is in the
/// solve.
fn set_modes(eqs: &Equations, sc: &mut Scratch) -> bool {
    let at = &eqs.model.addresses;
    let Scratch { it, contacts: cw, polish: saved, .. } = &mut *sc;
    for ci in 0..cw.count() {
        if !cw.selection.contains(ci) {
            continue;
        }
        if ci >= eqs.model.contacts.len() {
            // a joint limit in the solve: a limit at rest on its bound carries a force at
            // the barrier's noise level or none, which the polish's degenerate pairs settle
            // (a wheel on its limit stays there to rounding, `tests/exact_complementarity.rs`)
            return false;
        }
        let on = at.contact(ci);
        let s_phi_at = cw.nodes.e_range(ci).start;
        // the warm start's pair: the last force, or the gap at the extrapolated velocities
        let (gamma, s_phi) = (it.s[on], cw.vars.e[s_phi_at]);
        if gamma >= s_phi || eqs.gap(&cw.points, ci, &it.s, None) < 0.0 {
            cw.nodes.set_closed(ci, true);
            it.s[on] = gamma.max(saved.s[on]);
            cw.vars.e[s_phi_at] = 0.0;
        } else {
            it.s[on..on + cw.nodes.layout(ci).nk].iter_mut().for_each(|k| *k = 0.0);
            cw.set_active(ci, false);
        }
    }
    true
}

/// Chord steps from a solution (its residual at μ = 0, `eq`, in the iterate) with the
/// last factors, kept while each halves the equality residual: a closed gap held to the
/// tolerance × dt (1e-13 m at 1 ms) is a velocity error of 1e-10 m/s and, on a body at
/// rest, a force error of m·1e-10/dt, where the interior point's solutions land at
/// rounding. A step that leaves a friction cone or pulls beyond rounding on a closed
/// contact is taken back. Returns the equality residual of the solution kept.
fn finish(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, mu_end: f64, mut eq: f64) -> f64 {
    for _ in 0..FINISH_STEPS {
        if sc.factors.is_none() || eq <= FINISHED * opts.tolerance {
            break;
        }
        shift_barrier(&mut sc.contacts, mu_end);
        reclose(eqs, &mut sc.contacts, &sc.it.s);
        if !direction::resolve(eqs, sc) {
            break;
        }
        step_whole(sc, 1.0);
        let kept = contact_rows::clip_closed(eqs, &mut sc.it.s, &sc.it.ds, opts.acceptance, &mut sc.contacts) && {
            contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
            let (next, comp) = measures(&sc.contacts, &sc.it.r, 0.0);
            let kept = next <= 0.5 * eq && comp <= opts.contact_tolerance * force_scale(eqs.model, &sc.it.s, &sc.contacts);
            if kept {
                eq = next;
            }
            kept
        };
        if !kept {
            step_whole(sc, -1.0);
            break;
        }
    }
    eq
}

/// The iterate moved by `sign` × the whole direction.
fn step_whole(sc: &mut Scratch, sign: f64) {
    let Scratch { it: w, contacts: cw, .. } = &mut *sc;
    for (s, d) in w.s.iter_mut().zip(&w.ds) {
        *s += sign * d;
    }
    for (e, d) in cw.vars.e.iter_mut().zip(&cw.vars.de) {
        *e += sign * d;
    }
}

/// Each closed pair's row back to its gap slack after a barrier shift of the E rows.
fn reclose(eqs: &Equations, cw: &mut ContactWork, s: &[f64]) {
    let at = &eqs.model.addresses;
    for ci in 0..cw.count() {
        if cw.selection.contains(ci) && cw.nodes.is_closed(ci) {
            let l = cw.nodes.layout(ci);
            let mut y = [0.0; MAX_Y];
            cw.nodes.gather(ci, &s[at.contact(ci)..], &cw.vars.e, &mut y);
            l.close_normal_row(&y, &mut cw.vars.re[cw.nodes.e_range(ci)]);
        }
    }
}

/// Whether some body carried more than six closed contacts at the last step's solution
/// (the warm start: force above gap slack), so that their columns are dependent
/// whatever the modes (`determinate` would say so after the warm start's centring): a
/// plate on its points, a box on a mesh. Read before anything is moved.
fn crowded(eqs: &Equations, s: &[f64], cw: &mut ContactWork) -> bool {
    let model = eqs.model;
    let ContactWork { nodes, vars, selection, by_body: lists, .. } = cw;
    let last_closed = |ci: usize| selection.contains(ci) && s[model.addresses.contact(ci)] >= vars.e[nodes.e_range(ci).start];
    lists.most_on_one_body(&model.contacts, last_closed) > 6
}

/// Whether the closed contacts' forces are determined by the step: on every body, the
/// closed contacts' normal-force columns (their 6-vectors on its rows) are independent.
/// Closed rows hold their gaps exactly, with no barrier term that picks one force
/// distribution among many, so dependent columns make the Newton matrix singular: a box on
/// its four corners (four columns in the three directions of lift, roll and pitch), a
/// sphere on four faces, where the interior point's central path settles the forces.
/// Independence on each body suffices for the whole system: a combination of closed rows
/// that vanishes must vanish on each body's block, where its coefficients are those of
/// independent columns. So a capsule or cylinder lying on a plane (two contacts along
/// its axis) or a box on one edge is solved here.
fn determinate(eqs: &Equations, cw: &mut ContactWork) -> bool {
    let contacts = eqs.model.contacts.len();
    let ContactWork { nodes, frames, selection, by_body: lists, .. } = cw;
    let closed = |ci: usize| selection.contains(ci) && nodes.is_closed(ci);
    let sides = |ci: usize| frames[ci].bodies.into_iter().take(frames[ci].sides).enumerate();
    // each body's closed contacts as a list, in their order
    for ci in (0..contacts).rev().filter(|&ci| closed(ci)) {
        for (side, body) in sides(ci) {
            lists.next[ci][side] = lists.first[body];
            lists.first[body] = ci;
        }
    }
    let mut independent_everywhere = true;
    'bodies: for ci in (0..contacts).filter(|&ci| closed(ci)) {
        for (_, body) in sides(ci) {
            // each body once, from the head of its list
            if lists.first[body] != ci {
                continue;
            }
            let (mut basis, mut rank, mut j) = ([[0.0; 6]; 6], 0, ci);
            while j != BodyLists::NONE {
                let side = usize::from(frames[j].bodies[0] != body);
                let nk = nodes.layout(j).nk;
                let mut v: [f64; 6] = std::array::from_fn(|r| frames[j].w[side][r * nk]);
                if rank == 6 || !independent(&mut v, &basis[..rank]) {
                    independent_everywhere = false;
                    break 'bodies;
                }
                basis[rank] = v;
                rank += 1;
                j = lists.next[j][side];
            }
        }
    }
    // the lists empty again
    for ci in (0..contacts).filter(|&ci| closed(ci)) {
        for (_, body) in sides(ci) {
            lists.first[body] = BodyLists::NONE;
        }
    }
    independent_everywhere
}

/// Columns whose part outside the span of the others is below this fraction of their
/// length count as dependent. Two contact points along a line with the same normal give
/// columns that differ only in their moment parts, by the points' distance (in metres,
/// against a force part of length 1): points closer than about 1 mm give a Newton matrix
/// too ill-conditioned to solve on closed rows.
const INDEPENDENT: f64 = 1e-3;

/// Whether `v` keeps more than [`INDEPENDENT`] of its length outside the span of the
/// orthonormal `basis` (Gram–Schmidt, twice for rounding); `v` becomes its normalized
/// remainder.
fn independent(v: &mut [f64; 6], basis: &[[f64; 6]]) -> bool {
    let dot = |a: &[f64; 6], b: &[f64; 6]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let length = dot(v, v).sqrt();
    for _ in 0..2 {
        for b in basis {
            let c = dot(v, b);
            v.iter_mut().zip(b).for_each(|(x, y)| *x -= c * y);
        }
    }
    let rest = dot(v, v).sqrt();
    if !(rest > INDEPENDENT * length) {
        return false;
    }
    v.iter_mut().for_each(|x| *x /= rest);
    true
}

/// Whole Newton steps on the modes, each followed by the projection
/// (`contact_rows::project_closed`); true when the step equations are solved.
fn newton(eqs: &Equations, sc: &mut Scratch, opts: &SolverOptions, mu_end: f64, stats: &mut StepStats) -> bool {
    let model = eqs.model;
    let (mut last, mut changed) = (f64::INFINITY, true);
    let limit = ITERATIONS.min(opts.max_iterations);
    for k in 0..=limit {
        // convergence is judged at μ = 0, as the interior point judges it
        contact_rows::residual(eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
        let (eq, comp) = measures(&sc.contacts, &sc.it.r, 0.0);
        // at least one Newton step: a warm start within the tolerance is not at rounding,
        // and the finishing chords need its factors
        if k > 0 && eq < opts.tolerance && comp <= opts.contact_tolerance * force_scale(model, &sc.it.s, &sc.contacts) {
            stats.residual = finish(eqs, sc, opts, mu_end, eq);
            stats.complementarity = comp;
            // a contact out of the solve must not penetrate at the solution: one that does
            // joins closed (a foot touching down), and Newton goes on
            if culling::left_out_contacts_hold(eqs, sc, 0.0) {
                return true;
            }
            if !close_joined(eqs, sc, mu_end) {
                return false;
            }
            changed = true;
            continue;
        }
        if !eq.is_finite() || k == limit {
            return false;
        }
        // Newton in its quadratic range on unchanged modes: the last factors serve
        let chord = !changed && eq <= CHORD_CONTRACTION * last && sc.factors.is_some();
        last = eq;
        // the direction aims at μ_end; a closed pair's row is its gap slack at any barrier
        shift_barrier(&mut sc.contacts, mu_end);
        reclose(eqs, &mut sc.contacts, &sc.it.s);
        let solved = if chord { direction::resolve(eqs, sc) } else { direction::direction(eqs, sc, LinearSolve::Plain) };
        if !solved {
            return false;
        }
        stats.iterations += 1;
        step_whole(sc, 1.0);
        if !eqs.angular_speed_ok(&sc.it.s, 2.0 / eqs.dt) {
            return false;
        }
        match contact_rows::project_closed(eqs, &mut sc.it.s, &sc.it.ds, mu_end, &mut sc.contacts) {
            Some(n) => changed = n > 0,
            None => return false,
        }
        // a contact out of the solve that the step takes below zero joins closed
        if !culling::left_out_contacts_hold(eqs, sc, 0.0) {
            if !close_joined(eqs, sc, mu_end) {
                return false;
            }
            changed = true;
        }
    }
    false
}

/// Closes the contacts the check at the solution put back into the solve (in it, not
/// closed): friction centred at μ_end from zero, normal force free. False if a variable
/// is not finite.
fn close_joined(eqs: &Equations, sc: &mut Scratch, mu_end: f64) -> bool {
    let at = &eqs.model.addresses;
    let Scratch { it, contacts: cw, .. } = &mut *sc;
    for ci in 0..cw.count() {
        if !cw.selection.contains(ci) || cw.nodes.is_closed(ci) {
            continue;
        }
        let l = cw.nodes.layout(ci);
        let on = at.contact(ci);
        eqs.fill_frame(cw, ci);
        let mut y = [0.0; MAX_Y];
        l.centre(&mut y, 0.0, &[0.0; MAX_Y][..l.nt], mu_end);
        y[l.nk] = 0.0;
        if !y[..l.ny()].iter().all(|v| v.is_finite()) {
            return false;
        }
        cw.nodes.scatter(ci, &y, &mut it.s[on..], &mut cw.vars.e);
        cw.nodes.set_closed(ci, true);
    }
    true
}

/// The solution centred at μ_end into `sc.polish` (what the next step's warm start reads,
/// `step::commit`) and the iterate's gap slacks: each closed contact's gap slack μ_end
/// over its force; the contacts out of the solve keep what the warm start had.
fn keep_centred(eqs: &Equations, sc: &mut Scratch, mu_end: f64) {
    let at = &eqs.model.addresses;
    let Scratch { it, contacts: cw, polish: saved, .. } = &mut *sc;
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let on = at.contact(ci);
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &it.s[on..], &cw.vars.e, &mut y);
        y[0] = y[0].max(mu_end.sqrt());
        y[l.nk] = mu_end / y[0];
        cw.nodes.scatter(ci, &y, &mut saved.s[on..], &mut saved.e);
        // the iterate's gap slack too (the solution's velocities and forces stay): the
        // step's derivative is taken at the point of the central path at μ_end
        // (`derivatives::contact_sensitivity`), where a closed pair's condensed row is
        // −s_φ/(γ dt), not the zero row of s_φ = 0 (with it the A1 standing linearized
        // 1.4e-8 off its differences instead of 1.5e-10)
        cw.vars.e[cw.nodes.e_range(ci).start] = y[l.nk];
    }
}

#[cfg(test)]
mod tests {
    use super::independent;

    /// The normal-force column [n; r × n] of a contact at `r` (from the centre of mass)
    /// with normal `n`.
    fn column(r: [f64; 3], n: [f64; 3]) -> [f64; 6] {
        [n[0], n[1], n[2], r[1] * n[2] - r[2] * n[1], r[2] * n[0] - r[0] * n[2], r[0] * n[1] - r[1] * n[0]]
    }

    /// Whether `columns` are independent in turn, as `determinate` tests one body's.
    fn rank_ok(columns: &[[f64; 6]]) -> bool {
        let mut basis = Vec::new();
        columns.iter().all(|c| {
            let mut v = *c;
            let ok = independent(&mut v, &basis);
            basis.push(v);
            ok
        })
    }

    /// A box (half-extents 0.1) on a plane: one edge's two corners determine their
    /// forces, three corners still do (lift, roll, pitch), the fourth repeats them.
    #[test]
    fn a_box_on_an_edge_is_determinate_on_four_corners_not() {
        let up = [0.0, 0.0, 1.0];
        let corners = [[-0.1, -0.1, -0.1], [0.1, -0.1, -0.1], [0.1, 0.1, -0.1], [-0.1, 0.1, -0.1]].map(|r| column(r, up));
        assert!(rank_ok(&corners[..2]));
        assert!(rank_ok(&corners[..3]));
        assert!(!rank_ok(&corners));
    }

    /// A sphere's contacts act through its centre: two faces of a valley determine their
    /// forces, four faces of a pit do not (four normals in three directions).
    #[test]
    fn a_sphere_in_a_valley_is_determinate_in_a_pit_not() {
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let faces = [[s, 0.0, s], [-s, 0.0, s], [0.0, s, s], [0.0, -s, s]];
        let at = |n: [f64; 3]| column([-0.1 * n[0], -0.1 * n[1], -0.1 * n[2]], n);
        assert!(rank_ok(&[at(faces[0]), at(faces[1])]));
        assert!(!rank_ok(&faces.map(at)));
    }

    /// Two points along a line closer than about 1 mm count as one (1 cm apart: two).
    #[test]
    fn nearly_coincident_points_count_as_dependent() {
        let up = [0.0, 0.0, 1.0];
        assert!(rank_ok(&[column([0.0, 0.0, -0.1], up), column([1e-2, 0.0, -0.1], up)]));
        assert!(!rank_ok(&[column([0.0, 0.0, -0.1], up), column([1e-4, 0.0, -0.1], up)]));
    }
}
