//! Contacts far from touching are left out of a step's solve.
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

use super::newton::body_velocities;
use super::Sim;
use crate::contact::cone::MAX_Y;
use crate::contact::geometry::gap_and_jacobian;
use crate::contact::node::ContactWork;

impl Sim {
    /// Marks the contacts that take part in this step's solve, at the warm start `s`.
    pub(super) fn select_contacts(&self, s: &[f64], cw: &mut ContactWork) {
        let model = &*self.model;
        let vel = body_velocities(model, s);
        let margin = self.options.contact_margin;
        for (ci, c) in model.contacts.iter().enumerate() {
            let active = if margin.is_finite() {
                let mut j = [[0.0; 6]; 2];
                let phi = gap_and_jacobian(c, &self.frame.x1, &self.frame.q1, self.dt, vel, Some(&mut j));
                // distance the contact point moves in one step at these velocities
                let mut reach = 0.0;
                let (a, b) = c.bodies();
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
            if cw.active[ci] != active {
                cw.active[ci] = active;
                cw.reset(ci);
            }
        }
    }

    /// Checks the left-out contacts at the solution `s`: adds each one whose gap at z_{k+2}
    /// is negative to the solve. Returns whether all held.
    pub(super) fn left_out_contacts_hold(&self, s: &[f64], cw: &mut ContactWork) -> bool {
        let model = &*self.model;
        let vel = body_velocities(model, s);
        let mut hold = true;
        for (ci, c) in model.contacts.iter().enumerate() {
            if !cw.active[ci] && gap_and_jacobian(c, &self.frame.x1, &self.frame.q1, self.dt, vel, None) < 0.0 {
                cw.active[ci] = true;
                cw.reset(ci);
                hold = false;
            }
        }
        hold
    }
}

impl ContactWork {
    /// Zero multipliers and direction for a contact entering or leaving the solve (its
    /// variables are set again by `start_contacts` when it takes part).
    fn reset(&mut self, ci: usize) {
        let l = self.layouts[ci];
        let eo = self.e_offset[ci];
        let mut y = [0.0; MAX_Y];
        l.init(&mut y);
        self.e[eo..eo + l.ne].copy_from_slice(&y[l.nk..l.ny()]);
        self.de[eo..eo + l.ne].iter_mut().for_each(|d| *d = 0.0);
    }
}
