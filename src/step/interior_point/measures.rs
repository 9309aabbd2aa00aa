//! What the interior point measures of its iterate: the equality residual and the
//! complementarity products, the barrier shift of the complementarity rows, the scale of
//! the complementarity tolerance, and the contacts that carry load.

use super::settings::FORCE_REFERENCE;
use crate::contact::cone::{MAX_K, MAX_Y};
use crate::contact::node::ContactWork;
use crate::data::Scratch;
use crate::model::Model;
use crate::step::problem::{max_or_nan, norm_inf, Equations};

/// Turns the contacts' E rows at barrier μ into those at μ + d (only the complementarity
/// rows read product − μ).
pub fn shift_barrier(cw: &mut ContactWork, d: f64) {
    for ci in cw.selection.iter() {
        cw.nodes.layout(ci).shift_barrier(&mut cw.vars.re[cw.nodes.e_range(ci)], d);
    }
}

/// ‖E rows at barrier μ‖∞ from the E rows at μ = 0 in `cw.vars.re`.
pub fn barrier_norm_inf(cw: &ContactWork, mu: f64) -> f64 {
    let mut norm: f64 = 0.0;
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let mut re = [0.0; MAX_Y];
        re[..l.ne].copy_from_slice(&cw.vars.re[cw.nodes.e_range(ci)]);
        l.shift_barrier(&mut re[..l.ne], mu);
        norm = re[..l.ne].iter().fold(norm, |m, v| max_or_nan(m, v.abs()));
    }
    norm
}

/// (equality residual, complementarity) of a residual evaluated at barrier μ.
pub fn measures(cw: &ContactWork, r: &[f64], mu: f64) -> (f64, f64) {
    let mut eq = norm_inf(r);
    let mut comp: f64 = 0.0;
    for ci in 0..cw.count() {
        let l = cw.nodes.layout(ci);
        let re = &cw.vars.re[cw.nodes.e_range(ci)];
        // NaN must survive: a NaN residual measured as 0 was accepted as a solution
        comp = max_or_nan(comp, l.complementarity(re, mu));
        eq = max_or_nan(eq, l.cone_equality(re));
    }
    (eq, comp)
}

/// Scale of the complementarity tolerance: the largest normal force over
/// `FORCE_REFERENCE`, at least 1 (IPOPT's scaled complementarity, with the normal force
/// for the multipliers' size). At 4000 N, an unscaled product of 1e-8 N·m would ask for
/// the gap slack to 2.5e-12 m, below what the linear solve can resolve.
pub fn force_scale(model: &Model, s: &[f64], cw: &ContactWork) -> f64 {
    let gamma_max = cw.selection.iter().map(|ci| s[model.addresses.contact(ci)]).fold(0.0, f64::max);
    (gamma_max / FORCE_REFERENCE).max(1.0)
}

/// Contacts (not limits) whose normal force exceeds their gap slack (the first E variable).
pub fn count_active(model: &Model, s: &[f64], cw: &ContactWork) -> usize {
    cw.selection.iter().filter(|&ci| ci < model.contacts.len() && s[model.addresses.contact(ci)] > cw.vars.e[cw.nodes.e_range(ci).start]).count()
}

/// An iterate's equality rows measured against their terms ([`relative_equality`]).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RowMeasure {
    /// max |r_i| / (1 + scale_i), and the row it is largest in, its residual and scale.
    pub relative: f64,
    pub row: usize,
    pub residual: f64,
    pub scale: f64,
    /// The row of the largest |r_i|, its residual and scale.
    pub largest_row: usize,
    pub largest: f64,
    pub largest_scale: f64,
}

/// The largest equality residual relative to the terms of its row (a backward error,
/// LAPACK's and Clarabel's): max over the equality rows of |r_i| / (1 + Σ_j |A_ij s_j| +
/// |r_i − Σ_j A_ij s_j|), A the Jacobian before condensation at the iterate, so a row's
/// constant part (known momentum, gravity, inputs, a gap's start) counts as one term.
/// Body and joint rows from the step Jacobian (assembled into `sc.reference`), the
/// contacts' force maps in the body rows, each contact's K rows and cone equality
/// (E row 1) from its local Jacobian and its body columns. Returns (that measure, the row
/// it is largest in: an index into `it.r`, or `it.r.len()` + an index into the E rows;
/// the largest absolute residual beside it).
/// Overwrites `sc.reference` and the refinement buffers (`it.trial`, `it.lin_r`,
/// `it.rhs`), none of which a finished solve needs.
pub fn relative_equality(eqs: &Equations, sc: &mut Scratch) -> RowMeasure {
    let model = eqs.model;
    let (sym, at) = (&model.symbolic, &model.addresses);
    let Scratch { it, next, reference, contacts: cw, .. } = sc;
    // the Jacobian's products with the iterate, the contacts' forces left out of x (their
    // coupling blocks in `reference` are not the step's: added below from the force maps)
    it.trial.copy_from_slice(&it.s);
    for ci in cw.selection.iter() {
        let o = at.contact(ci);
        it.trial[o..o + cw.nodes.layout(ci).nk].fill(0.0);
    }
    eqs.jacobian(&it.s, next, reference);
    reference.products(sym, &it.trial, &mut it.lin_r, &mut it.rhs);
    let (signed, terms) = (&mut it.lin_r, &mut it.rhs);
    let mut worst = RowMeasure::default();
    let mut note = |row: usize, r: f64, signed: f64, terms: f64| {
        let scale = terms + (r - signed).abs();
        let rel = r.abs() / (1.0 + scale);
        if rel.is_nan() || rel > worst.relative {
            (worst.relative, worst.row, worst.residual, worst.scale) = (rel, row, r, scale);
        }
        if r.is_nan() || r.abs() > worst.largest.abs() {
            (worst.largest, worst.largest_row, worst.largest_scale) = (r, row, scale);
        }
    };
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let (nk, ny, on) = (l.nk, l.ny(), at.contact(ci));
        let fr = &cw.frames[ci];
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &it.s[on..], &cw.vars.e, &mut y);
        let mut gj = [[0.0; 6]; 2];
        eqs.gap_at(next, &cw.points, ci, &it.s, Some(&mut gj));
        let mut a = [0.0; MAX_Y * MAX_Y];
        l.jacobian(&y, cw.nodes.friction(ci), eqs.friction.law(ci), eqs.dt, &mut a);
        // rows: the K rows, then the cone equality (E row 1) when there is friction
        let rows = if l.ne > 1 { nk + 1 } else { nk };
        let (mut row_signed, mut row_terms) = ([0.0; MAX_K + 1], [0.0; MAX_K + 1]);
        for (r, (sg, tm)) in row_signed[..rows].iter_mut().zip(&mut row_terms[..rows]).enumerate() {
            let local = if r < nk { r } else { nk + 1 };
            for (&c, &v) in a[local * ny..local * ny + ny].iter().zip(&y[..ny]) {
                *sg += c * v;
                *tm += (c * v).abs();
            }
        }
        for (side, gap_row) in gj.iter().enumerate().take(fr.sides) {
            let ob = at.body(fr.bodies[side]);
            let v = &it.s[ob..ob + 6];
            for k in 0..6 {
                // the gap row's body columns −∂φ/∂v / dt, the friction rows' slip maps
                let g = -gap_row[k] / eqs.dt * v[k];
                row_signed[0] += g;
                row_terms[0] += g.abs();
                for r in 1..=l.nt {
                    let b = fr.bv[side][(r - 1) * 6 + k] * v[k];
                    row_signed[r] += b;
                    row_terms[r] += b.abs();
                }
                // the body rows' −W K
                let w = &fr.w[side][k * nk..k * nk + nk];
                for (&wk, &kk) in w.iter().zip(&it.s[on..on + nk]) {
                    signed[ob + k] -= wk * kk;
                    terms[ob + k] += (wk * kk).abs();
                }
            }
        }
        for r in 0..nk {
            note(on + r, it.r[on + r], row_signed[r], row_terms[r]);
        }
        if rows > nk {
            let e1 = cw.nodes.e_range(ci).start + 1;
            note(it.r.len() + e1, cw.vars.re[e1], row_signed[nk], row_terms[nk]);
        }
        // the contact's rows are done: the loop over the rest skips them
        terms[on..on + nk].fill(f64::NAN);
    }
    for (i, (&r, (&sg, &tm))) in it.r.iter().zip(signed.iter().zip(terms.iter())).enumerate() {
        if !tm.is_nan() || r.is_nan() {
            note(i, r, sg, if tm.is_nan() { 0.0 } else { tm });
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::relative_equality;
    use crate::data::Data;
    use crate::math::V3;
    use crate::model::{Builder, Inertia, Model};
    use crate::step::interior_point::contact_rows;
    use crate::step::problem::{Equations, Friction};
    use crate::step::{step_once, Rescue, SolverOptions};

    /// A 1 kg sphere sliding at 1 m/s on the ground (μ 0.5): at a step's solution every
    /// row is exact to rounding against its terms; an error of 1e-6 m/s in its vertical
    /// velocity leaves m δ/dt = 1e-4 N in its vertical momentum row, whose terms are
    /// gravity and the normal force (m g each) and m v/dt, so it is measured as
    /// 1e-4 / (1 + 2 m g + 1e-4).
    #[test]
    fn a_row_is_measured_against_its_own_terms() {
        let dt = 0.01;
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::diagonal(1e-3, 1e-3, 1e-3).unwrap()).unwrap();
        b.set_body_pose(body, [0.0, 0.0, 0.05], [1.0, 0.0, 0.0, 0.0]).unwrap();
        b.add_ground_contact(body, [0.0; 3], 0.05, 0.5).unwrap();
        let model = Model::new(&b).unwrap();
        let mut d = Data::new(&model, dt);
        d.state.v[0] = V3::new(1.0, 0.0, 0.0);
        step_once(&model, &mut d, &SolverOptions::default(), Rescue::Allowed, dt).unwrap();
        let eqs = Equations { model: &model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt, tracked: &d.tracked, friction: Friction::Coulomb };
        let sc = &mut d.scratch;
        contact_rows::residual(&eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
        let solved = relative_equality(&eqs, sc);
        println!("at the solution: {solved:?}");
        assert!(solved.relative < 1e-14, "{solved:?}");
        let vz = model.addresses.body(0) + 2;
        sc.it.s[vz] += 1e-6;
        contact_rows::residual(&eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, 0.0, &mut sc.it.r);
        let off = relative_equality(&eqs, sc);
        let g = 9.81;
        let expected = 1e-4 / (1.0 + 2.0 * g + 1e-4);
        println!("vertical velocity off by 1e-6 m/s: {off:?}, expected {expected:e}");
        assert_eq!(off.row, vz);
        assert!((off.residual - 1e-4).abs() < 1e-9 && (off.relative / expected - 1.0).abs() < 1e-3, "{off:?}");
    }
}
