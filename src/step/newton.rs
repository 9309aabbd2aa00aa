//! Newton with backtracking line search on the step equations of bodies, joints and force
//! elements (paper appendix D, algorithm 7, for the equality-constrained case); the
//! linear systems go through the graph LDU, and once Newton contracts fast the next step
//! reuses the factorization (`CHORD_CONTRACTION`). No heap allocation.

use super::options::SolverOptions;
use super::problem::{Equations, Outcome};
use crate::data::{Scratch, StepStats};

/// Iterations without halving the residual after which the solve stops.
const STALL_ITERATIONS: usize = 8;
/// Halvings of the step length before the line search gives up.
const LINE_SEARCH_HALVINGS: usize = 30;
/// After a full step that cut the residual at least this much, the next step reuses the
/// factorization (a chord step: residual and solve, no assembly or factorization). Newton
/// is then already in its quadratic range, the iterate moved by about the residual, and
/// the old matrix is as good as a new one to the digits that are left.
const CHORD_CONTRACTION: f64 = 1e-3;

/// Solves f(s) = 0 from the iterate in `scratch.it.s`, leaving the solution (or the best
/// iterate of a stalled solve) there.
pub fn solve(eqs: &Equations, scratch: &mut Scratch, opts: &SolverOptions) -> Outcome {
    let Scratch { it: w, next, matrix, factorizations, .. } = scratch;
    let sym = &eqs.model.symbolic;
    let two_over_dt = 2.0 / eqs.dt.abs();
    let mut stats = StepStats::default();
    eqs.residual(&w.s, next, &mut w.r);
    let mut nr = eqs.residual_norm(&w.r);
    let mut n2 = eqs.merit(&w.r);
    let mut best = nr;
    w.best.copy_from_slice(&w.s);
    let mut since_progress = 0;
    let mut chord = false;
    while nr >= opts.tolerance && stats.iterations < opts.max_iterations && since_progress < STALL_ITERATIONS {
        if !chord {
            eqs.jacobian(&w.s, next, matrix);
            // inequalities (limit sides) are all left out when Newton runs: γ = 0
            for i in 0..eqs.model.inequality_count() {
                matrix.decouple(sym, eqs.model.inequality_node(i));
            }
            *factorizations += 1;
            if matrix.factor(sym).is_err() {
                break;
            }
        }
        for (d, r) in w.ds.iter_mut().zip(&w.r) {
            *d = -r;
        }
        matrix.solve(sym, &mut w.ds);
        // backtracking: halve until the residual norm decreases and |ω| < 2/dt
        let mut alpha = 1.0;
        let mut accepted = false;
        for _ in 0..LINE_SEARCH_HALVINGS {
            for k in 0..w.s.len() {
                w.trial[k] = w.s[k] + alpha * w.ds[k];
            }
            if eqs.angular_speed_ok(&w.trial, two_over_dt) {
                eqs.residual(&w.trial, next, &mut w.r_trial);
                let t2 = eqs.merit(&w.r_trial);
                if t2 < n2 {
                    accepted = true;
                    n2 = t2;
                    break;
                }
            }
            alpha *= 0.5;
            stats.line_search_halvings += 1;
        }
        if !accepted {
            if chord {
                // the old factorization was not good enough: a fresh one
                chord = false;
                continue;
            }
            break;
        }
        std::mem::swap(&mut w.s, &mut w.trial);
        std::mem::swap(&mut w.r, &mut w.r_trial);
        let before = nr;
        nr = eqs.residual_norm(&w.r);
        chord = alpha == 1.0 && nr <= CHORD_CONTRACTION * before;
        stats.iterations += 1;
        if nr < 0.5 * best {
            since_progress = 0;
        } else {
            since_progress += 1;
        }
        if nr < best {
            best = nr;
            w.best.copy_from_slice(&w.s);
        }
    }
    if nr >= opts.tolerance {
        // stalled: keep the best iterate seen
        w.s.copy_from_slice(&w.best);
        nr = best;
        stats.stalled = true;
    }
    stats.residual = nr;
    let converged = nr < opts.tolerance || (stats.stalled && nr < opts.acceptance);
    Outcome { stats, converged }
}
