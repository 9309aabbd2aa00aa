//! Contacts far from touching, and joint limits far from their bounds, are left out of a
//! step's solve (both are the interior point's inequalities, `step::inequalities`; the
//! text below says contact for either).
//!
//! An interior point moves all contacts with one step length, and the fraction-to-boundary
//! rule lets the contact that is farthest from its solution set it: a sphere 10 m above
//! the ground still has to drive its normal force from the barrier start to zero. Left
//! out, such a contact is an identity block with zero multipliers (the graph and its
//! elimination order stay as they are), and its cost is one gap evaluation per step.
//!
//! Selection: a contact takes part when its gap at z_{k+2} (a signed distance, see
//! `contact::geometry`), predicted with the warm-start velocities, is below
//! `SolverOptions::contact_margin` plus the distance its point moves in one step at those
//! velocities (the velocity may change as much as that within the step, e.g. a chain
//! yanked by an impact).
//!
//! Verification: with the solution's velocities every left-out contact must have a
//! non-negative gap at z_{k+2}. Then multipliers 0 and slack = gap satisfy its
//! complementarity rows exactly, so the solution is one of the full problem. A contact
//! that fails the check is added and the step solved again.

use super::problem::Equations;
use crate::data::Scratch;
use crate::limits;

/// Marks the contacts that take part in this step's solve, at the warm start in `sc.it.s`.
pub fn select_contacts(eqs: &Equations, margin: f64, sc: &mut Scratch) {
    let model = eqs.model;
    let (s, cw) = (&sc.it.s, &mut sc.contacts);
    let vel = |b: usize| model.addresses.velocities(s, b);
    for ci in 0..cw.count() {
        if let Some(l) = ci.checked_sub(model.contacts.len()) {
            let active = !margin.is_finite() || limits::near(model, l, eqs.tracked, margin);
            cw.set_active(ci, active);
            continue;
        }
        let active = if margin.is_finite() {
            let mut j = [[0.0; 6]; 2];
            let phi = eqs.gap(&cw.points, ci, s, Some(&mut j));
            // distance the contact point moves in one step at these velocities
            let mut reach = 0.0;
            let (a, b) = eqs.inequality_bodies(&cw.points, ci);
            for (jv, body) in j.iter().zip([Some(a), b]) {
                if let Some(body) = body {
                    let (v, w) = vel(body);
                    reach += (jv[0] * v.x + jv[1] * v.y + jv[2] * v.z + jv[3] * w.x + jv[4] * w.y + jv[5] * w.z).abs();
                }
            }
            phi < margin + reach
        } else {
            true
        };
        cw.set_active(ci, active);
    }
}

/// Checks the left-out contacts at the solution in `sc.it.s`: adds each one whose gap at
/// z_{k+2} is below `floor` (0 in a step; the projection out of penetration,
/// `step::penetration`, leaves contacts shallower than its resolution to the step) to the
/// solve. Returns whether all held.
pub fn left_out_contacts_hold(eqs: &Equations, sc: &mut Scratch, floor: f64) -> bool {
    let model = eqs.model;
    let (s, cw) = (&sc.it.s, &mut sc.contacts);
    let mut hold = true;
    for ci in 0..model.contacts.len() {
        if !cw.selection.contains(ci) && eqs.gap(&cw.points, ci, s, None) < floor {
            cw.set_active(ci, true);
            hold = false;
        }
    }
    // the sides of a limit are consecutive and share their coordinate: evaluated once
    let mut last: Option<(usize, f64)> = None;
    for (l, side) in model.limit_sides.iter().enumerate() {
        let ci = model.contacts.len() + l;
        if cw.selection.contains(ci) {
            continue;
        }
        let theta = match last {
            Some((t, theta)) if t == side.coordinate => theta,
            _ => limits::next_coordinate(model, side.coordinate, eqs.tracked, &eqs.frame.x1, &eqs.frame.q1, eqs.dt, |b| model.addresses.velocities(s, b)),
        };
        last = Some((side.coordinate, theta));
        if side.sign * (theta - side.bound) < 0.0 {
            cw.set_active(ci, true);
            hold = false;
        }
    }
    hold
}
