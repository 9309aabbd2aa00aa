//! What the interior point measures of its iterate: the equality residual and the
//! complementarity products, the barrier shift of the complementarity rows, the scale of
//! the complementarity tolerance, and the contacts that carry load.

use super::settings::FORCE_REFERENCE;
use crate::contact::cone::MAX_Y;
use crate::contact::node::ContactWork;
use crate::model::Model;
use crate::step::problem::{max_or_nan, norm_inf};

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
