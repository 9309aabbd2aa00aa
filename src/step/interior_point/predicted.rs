//! The last step's contact mode kept: most steps of a walk or of a resting pile close and
//! open the same contacts as the step before. From the warm start, each selected contact
//! keeps the mode it had (closed where its normal force exceeds its gap slack, as the
//! polish reads it, `polish::AMBIGUOUS`; open otherwise), and the step equations on that
//! mode are solved by the polish's Newton (closed: the gap row's slack held at zero, the
//! force free; open: out of the solve; friction pairs on their barrier rows at μ_end).
//!
//! The answer is verified as the interior point's polished answer is: the equality rows
//! below the tolerance and the products below the scaled contact tolerance, every closed
//! contact pushing (a rounding-level pull clipped), every friction variable inside its
//! cone (the fraction-to-boundary rule of each Newton step), and every contact left out
//! with a gap ≥ 0 at the solution. A prediction that fails any of these leaves the
//! iterate as it found it, and the interior point runs as it would have.

use super::measures::count_active;
use super::polish::{self, AMBIGUOUS};
use crate::contact::cone::MAX_Y;
use crate::data::{Scratch, StepStats};
use crate::step::culling;
use crate::step::options::SolverOptions;
use crate::step::problem::{Equations, Outcome};

/// Newton directions the prediction may take: from the last step's solution a kept
/// mode converges in two or three; more means the mode is not the solution's.
const ITERATIONS: usize = 4;

/// Solves the step on the last step's contact mode from the warm start in the iterate
/// (`it.s`, and `warm_e`, the last solution's E variables). Converged: the polished
/// solution is in the iterate and `sc.polish` holds it centred at `mu_end` (what the
/// next step starts from, `step::commit`). Not converged: the iterate, E and the
/// selection are as they were, and the work done is in the stats.
pub fn solve(eqs: &Equations, sc: &mut Scratch, warm_e: &[f64], opts: &SolverOptions, mu_end: f64) -> Outcome {
    let model = eqs.model;
    let mut stats = StepStats { contacts: model.contacts.len(), ..StepStats::default() };
    sc.contacts.vars.e.copy_from_slice(warm_e);
    // a contact out of the solve has no force (as the interior point's start has it)
    for ci in 0..sc.contacts.count() {
        if !sc.contacts.selection.contains(ci) {
            let on = model.addresses.contact(ci);
            sc.it.s[on..on + sc.contacts.nodes.layout(ci).nk].iter_mut().for_each(|k| *k = 0.0);
        }
    }
    sc.polish.keep(&sc.it, &sc.contacts);
    let before = sc.factorizations;
    sc.factors = None;
    let finish = keep_mode(eqs, sc, mu_end).then(|| polish::newton(eqs, sc, mu_end, opts, ITERATIONS)).flatten();
    stats.iterations = sc.factorizations - before;
    let accepted = finish.filter(|_| polish::clip_pulls(eqs, sc, opts) && culling::left_out_contacts_hold(eqs, sc, 0.0));
    polish::open_all(sc);
    let Some((eq, comp)) = accepted else {
        sc.polish.put_back(&mut sc.it, &mut sc.contacts);
        sc.factors = None;
        return Outcome { stats, converged: false };
    };
    centre_for_warm_start(eqs, sc, mu_end);
    sc.polish.polished = true;
    stats.residual = eq;
    stats.complementarity = comp;
    stats.active_contacts = count_active(model, &sc.it.s, &sc.contacts);
    Outcome { stats, converged: true }
}

/// Sets each selected contact closed or open as the warm start has it, its frame at the
/// prediction, and a closed one's friction pairs on the central path at `mu_end`. False
/// when a variable is not finite.
fn keep_mode(eqs: &Equations, sc: &mut Scratch, mu_end: f64) -> bool {
    let model = eqs.model;
    let noise = AMBIGUOUS * mu_end.sqrt();
    let Scratch { it, contacts: cw, .. } = &mut *sc;
    for ci in 0..cw.count() {
        if !cw.selection.contains(ci) {
            continue;
        }
        let (l, er) = (cw.nodes.layout(ci), cw.nodes.e_range(ci));
        let on = model.addresses.contact(ci);
        let (gamma, s_phi) = (it.s[on], cw.vars.e[er.start]);
        if !(gamma >= s_phi && gamma > noise) {
            it.s[on..on + l.nk].iter_mut().for_each(|k| *k = 0.0);
            cw.set_active(ci, false);
            continue;
        }
        eqs.fill_frame(cw, ci);
        let mut y = [0.0; MAX_Y];
        y[..l.nk].copy_from_slice(&it.s[on..on + l.nk]);
        y[l.nk..l.ny()].copy_from_slice(&cw.vars.e[er.clone()]);
        l.centre(&mut y, 0.0, mu_end);
        (y[0], y[l.nk]) = (gamma, 0.0);
        if !y[..l.ny()].iter().all(|v| v.is_finite()) {
            return false;
        }
        it.s[on..on + l.nk].copy_from_slice(&y[..l.nk]);
        cw.vars.e[er].copy_from_slice(&y[l.nk..l.ny()]);
        cw.nodes.set_closed(ci, true);
    }
    true
}

/// The accepted solution, with each closed contact's normal pair moved onto the central
/// path at `mu_end` (γ kept, s_φ = μ_end/γ), into `sc.polish`: the interior point's warm
/// start wants points inside the cones, and the next prediction reads the mode there.
/// The open contacts keep what they had there (the last interior point's open pairs).
fn centre_for_warm_start(eqs: &Equations, sc: &mut Scratch, mu_end: f64) {
    let model = eqs.model;
    let Scratch { it, contacts: cw, polish: saved, .. } = &mut *sc;
    for ci in cw.selection.iter() {
        let (l, er) = (cw.nodes.layout(ci), cw.nodes.e_range(ci));
        let on = model.addresses.contact(ci);
        let mut y = [0.0; MAX_Y];
        y[..l.nk].copy_from_slice(&it.s[on..on + l.nk]);
        y[l.nk..l.ny()].copy_from_slice(&cw.vars.e[er.clone()]);
        l.centre(&mut y, 0.0, mu_end);
        saved.s[on..on + l.nk].copy_from_slice(&y[..l.nk]);
        saved.e[er].copy_from_slice(&y[l.nk..l.ny()]);
    }
}
