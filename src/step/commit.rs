//! The last stages of a converged step: the solution becomes the state.

use crate::data::Data;
use crate::model::Model;
use crate::data::WarmBarrier;

/// z_{k+1} (the prediction) and ż_{k+1} (the solution) become the state (with the tracked
/// joint coordinates); the solution and the inequalities' variables become the warm
/// start (a polished solution's inequalities start from the interior point's solution
/// it came from: `data::Unpolished`); the contact and limit forces are reported; the
/// clock advances by the step's interval `dt`, which the new velocities span.
pub fn commit(model: &Model, d: &mut Data, dt: f64) {
    let at = &model.addresses;
    let s = &d.scratch.it.s;
    for i in 0..model.body_count() {
        d.state.x[i] = d.frame.x1[i];
        d.state.q[i] = d.frame.q1[i];
        (d.state.v[i], d.state.w[i]) = at.velocities(s, i);
    }
    // the committed solution becomes the previous one; a step of the same interval as the
    // last one (not a half of a split step) makes the pair an extrapolation base, and the
    // intervals of the last three (`WarmStart::intervals`) say what else the start may use
    for i in 0..model.body_count() {
        let o = at.body(i);
        d.warm.older[6 * i..6 * i + 6].copy_from_slice(&d.warm.previous[o..o + 6]);
    }
    let [last, before, _] = d.warm.intervals;
    d.warm.intervals = [dt, last, before];
    std::mem::swap(&mut d.warm.previous, &mut d.warm.solution);
    d.warm.solution.copy_from_slice(s);
    d.warm.pair_interval = if d.steps > 0 && dt == d.dt_prev { dt } else { f64::NAN };
    d.tracked.commit();
    if model.inequality_count() > 0 {
        let cw = &d.scratch.contacts;
        let unpolished = &d.scratch.polish;
        if unpolished.polished {
            for ci in 0..cw.count() {
                let on = at.contact(ci);
                let nk = cw.nodes.layout(ci).nk;
                d.warm.solution[on..on + nk].copy_from_slice(&unpolished.s[on..on + nk]);
            }
        }
        d.warm.e_solution.copy_from_slice(if unpolished.polished { &unpolished.e } else { &cw.vars.e });
        // a step whose warm starts failed is followed by a cold one: hard steps (impacts)
        // come in runs, where warm starts mostly fail
        d.warm.first_barrier = if d.stats.cold_restarts == 0 { Some(d.scratch.warm_barrier.unwrap_or(WarmBarrier::Loads)) } else { None };
        for ci in 0..model.contacts.len() {
            let l = cw.nodes.layout(ci);
            let on = at.contact(ci);
            let k = &s[on..on + l.nk];
            let ff = l.friction_force(k, &cw.frames[ci].dirs);
            d.contact_forces[ci] = [k[0], ff.x, ff.y, ff.z];
        }
        for (l, force) in d.limit_forces.iter_mut().enumerate() {
            *force = s[at.contact(model.contacts.len() + l)];
        }
    }
    d.time += dt;
    d.steps += 1;
    d.dt_prev = dt;
    d.velocities_at_node = false;
}
