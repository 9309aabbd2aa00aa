//! The step with contacts: a primal-dual interior-point Newton method (paper appendix D;
//! Nocedal & Wright algorithm 19.1) on the step equations of bodies, joints and contacts.
//!
//! Per iteration: the residual F(s; μ) (complementarity rows read product − μ; evaluated
//! once per trial point, since at another barrier only those rows shift), the Newton
//! matrix with every contact condensed to one block (`contact::node`), the graph LDU solve,
//! the fraction-to-boundary rule (τ = 0.99: no variable moves more than 99 % of the way to
//! its cone's boundary), and backtracking on ‖F(s; μ)‖₂ that also rejects |ω| ≥ 2/dt.
//! The barrier: μ = 1 until the iterate is centred (‖F(s; 1)‖∞ ≤ 10), then Mehrotra's
//! predictor–corrector (`mehrotra_step`: one factorization, two solves per iteration),
//! and for the last decades (target ≤ 100 μ_end) or after a jam the monotone IPOPT rule
//! μ ← max(μ_end, min(0.2 μ, μ^1.5)) whenever ‖F(s; μ)‖∞ ≤ 10 μ (μ ← max(μ_end, 0.2 μ)
//! when a second-order cone is present, see below). The step has converged when
//! μ = μ_end and both the equality rows (≤ tolerance) and the complementarity products
//! (≤ contact_tolerance, times the largest normal force / 100 N when that exceeds 1:
//! `force_scale`) vanish. Warm start: velocities and joint multipliers from the last step; the contact
//! variables restart from the centre of their cones (starting on the boundary would jam).
//! Contacts far from touching are left out of the solve and checked after it
//! (`sim::culling`); a failed solve is split before the Tresca rescue runs (`split.rs`).

use super::newton::{body_velocities, norm2, norm_inf, residual_into, Workspace};
use super::{Sim, StepStats};
use crate::contact::cone::MAX_Y;
use crate::contact::geometry::{frame, gap, gap_and_jacobian};
use crate::contact::node::ContactWork;
use crate::model::Result;

/// Fraction-to-boundary factor τ.
const TAU: f64 = 0.99;
/// Rounds of the Tresca fixed point before the fallback gives up.
const TRESCA_ROUNDS: usize = 40;
/// The fixed point has converged when no normal force changed by more than this
/// (relative to the largest normal force, at least 1 N) in the last round.
const TRESCA_AGREEMENT: f64 = 1e-7;
/// Rounds without halving the change after which the fixed point is taken as it is.
const TRESCA_STALL: usize = 5;
/// Initial barrier parameter.
const MU_INITIAL: f64 = 1.0;
/// A solve gives up (to step splitting or the Tresca fallback) after `ABORT_COUNT`
/// consecutive steps shorter than `ABORT_ALPHA`, or after `STALE_ITERATIONS` (predictor–
/// corrector) or `STALE_MONOTONE_ITERATIONS` (monotone rule) without halving the merit: such solves otherwise crawl (α ~ 1e-4…1e-9,
/// B2 chain at n = 128) to the iteration limit without converging.
const ABORT_ALPHA: f64 = 1e-6;
const ABORT_COUNT: usize = 5;
const STALE_ITERATIONS: usize = 10;
/// The same for the monotone barrier rule, whose last decades may converge slowly but
/// steadily (B2 sweep n = 56…144: 10 split more steps than needed, 30 let crawls run long;
/// before the window restarted on each halving, a crawl at μ ≈ 4e-6 ran to the iteration
/// limit at every split level and n = 121 failed at step 492).
const STALE_MONOTONE_ITERATIONS: usize = 20;
/// The predictor–corrector falls back to the centred direction below this step length
/// (B2 at n = 128, measured before the `HANDOVER` rule existed: 1e-3 as in vi_contact.py
/// gave 40.0 iterations/step, 0.1 gave 28.7, 0.3 gave 36.3).
const CORRECTOR_ALPHA: f64 = 0.1;
/// A stalled solve is accepted (flagged `stalled`, like `SolverOptions::acceptance` for the
/// equality rows) with complementarity products up to this multiple of the contact
/// tolerance: friction at the edge of the cone without slip is a degenerate
/// complementarity pair that the barrier cannot drive below ~1e-6 (B2 n = 84 at step 430
/// stalled at 1.4e-6 N·m, a slip of 1e-7 m/s, and failed at every split level).
const CONTACT_ACCEPTANCE: f64 = 100.0;
/// Normal force (N) above which the complementarity tolerance grows with the force.
const FORCE_REFERENCE: f64 = 100.0;
/// Iterations without halving the equality residual after which a solve that is done
/// but for the last digits stops (and is accepted as stalled, see `SolverOptions::acceptance`).
const FLOOR_ITERATIONS: usize = 3;
/// Mehrotra's σ drops the target by decades in one iteration; near μ_end that leaves the
/// products spread over decades (max product ≫ target), and the last iterations then
/// crawl. Below `HANDOVER`·μ_end the monotone rule finishes the solve, starting from the
/// barrier at which the iterate is centred (a tenth of its largest product).
const HANDOVER: f64 = 100.0;

impl Sim {
    /// Runs at most `limit` iterations (besides `options.max_iterations`). If the direct
    /// solve fails on a model with friction, falls back to the Tresca fixed point
    /// (`tresca_fallback`).
    pub(super) fn interior_point(&mut self, limit: usize) -> (StepStats, bool) {
        let mut w = std::mem::take(&mut self.work);
        let mut cw = std::mem::take(&mut self.contacts);
        cw.frozen = false;
        self.select_contacts(&w.s, &mut cw);
        let mut iterations = 0;
        let (mut stats, ok) = loop {
            let (mut stats, mut ok) = self.interior_point_with(&mut w, &mut cw, limit, None);
            // the rescue only where splitting cannot help any more (see `split.rs`)
            let last_resort = self.split_depth >= self.tresca_depth;
            if !ok && limit == usize::MAX && last_resort && cw.friction.iter().any(|&f| f > 0.0) {
                (stats, ok) = self.tresca_fallback(&mut w, &mut cw, stats);
            }
            iterations += stats.iterations;
            if !ok || self.left_out_contacts_hold(&w.s, &mut cw) {
                break (stats, ok);
            }
            self.restart_iterate(&mut w.s);
        };
        stats.iterations = iterations;
        self.work = w;
        self.contacts = cw;
        (stats, ok)
    }

    /// Coulomb friction couples the friction bound μ_f γ to the normal force, which makes
    /// the complementarity problem non-monotone: with μ_f = 1 and many sliding contacts
    /// (the B2 chain crashing onto the ground) the central path can fold, and the
    /// interior point then jams at a point where the Newton matrix is singular although
    /// the step has a solution. With the bound frozen at ĝ (Tresca friction) the problem is
    /// monotone and the interior point is robust; the fixed point ĝ ← γ converges to the
    /// Coulomb solution (contracting by roughly μ_f × the coupling per round), and a last
    /// Coulomb solve started from it (at the final barrier) polishes the result.
    fn tresca_fallback(&mut self, w: &mut Workspace, cw: &mut ContactWork, first: StepStats) -> (StepStats, bool) {
        let model = self.model.clone();
        let sym = &model.symbolic;
        let mut stats = first;
        stats.fallback = true;
        let gamma = |s: &[f64], ci: usize| s[sym.offsets[model.contact_node[ci]]].max(0.0);
        for ci in 0..cw.count() {
            cw.limit[ci] = gamma(&w.s, ci);
        }
        cw.frozen = true;
        let (mut best_change, mut stall) = (f64::INFINITY, 0usize);
        for _ in 0..TRESCA_ROUNDS {
            self.restart_iterate(&mut w.s);
            let (st, ok) = self.interior_point_with(w, cw, usize::MAX, None);
            stats.iterations += st.iterations;
            stats.line_search_halvings += st.line_search_halvings;
            stats.tresca_rounds += 1;
            if !ok {
                break;
            }
            let (mut change, mut scale) = (0.0f64, 1.0f64);
            for ci in 0..cw.count() {
                let g = gamma(&w.s, ci);
                change = change.max((g - cw.limit[ci]).abs());
                scale = scale.max(g);
                cw.limit[ci] = g;
            }
            // the fixed point may cycle instead of contracting (friction at the cone's edge
            // without slip leaves the normal forces undetermined between rounds): after
            // `TRESCA_STALL` rounds without halving the change, polish from where it is
            if change <= 0.5 * best_change {
                (best_change, stall) = (change, 0);
            } else {
                stall += 1;
            }
            if change <= TRESCA_AGREEMENT * scale || stall >= TRESCA_STALL {
                cw.frozen = false;
                let mu_end = 0.1 * self.options.contact_tolerance;
                let (st, ok) = self.interior_point_with(w, cw, usize::MAX, Some(mu_end));
                stats.iterations += st.iterations;
                stats.line_search_halvings += st.line_search_halvings;
                stats.residual = st.residual;
                stats.complementarity = st.complementarity;
                stats.active_contacts = st.active_contacts;
                stats.stalled |= st.stalled;
                cw.frozen = false;
                return (stats, ok);
            }
        }
        cw.frozen = false;
        (stats, false)
    }

    /// The step's starting iterate: last step's velocities and joint multipliers.
    fn restart_iterate(&self, s: &mut [f64]) {
        let sym = &self.model.symbolic;
        s.copy_from_slice(&self.solution);
        for (i, &n) in self.model.body_node.iter().enumerate() {
            let o = sym.offsets[n];
            s[o..o + 3].copy_from_slice(self.v[i].as_slice());
            s[o + 3..o + 6].copy_from_slice(self.w[i].as_slice());
        }
    }

    /// Contact frames at z_{k+1} and the contact variables' starting point.
    fn start_contacts(&self, w: &mut Workspace, cw: &mut ContactWork) {
        let model = &*self.model;
        let sym = &model.symbolic;
        for (ci, c) in model.contacts.iter().enumerate() {
            let l = cw.layouts[ci];
            let o = sym.offsets[model.contact_node[ci]];
            if !cw.active[ci] {
                w.s[o..o + l.nk].iter_mut().for_each(|k| *k = 0.0);
                continue;
            }
            frame(c, &l, &self.frame.x1, &self.frame.q1, &mut cw.frames[ci]);
            let mut y = [0.0; MAX_Y];
            l.init(&mut y);
            w.s[o..o + l.nk].copy_from_slice(&y[..l.nk]);
            let eo = cw.e_offset[ci];
            cw.e[eo..eo + l.ne].copy_from_slice(&y[l.nk..l.ny()]);
        }
    }

    /// One interior-point solve. `polish`: continue from the current iterate at this
    /// barrier instead of restarting the contact variables at μ = 1.
    fn interior_point_with(&mut self, w: &mut Workspace, cw: &mut ContactWork, limit: usize, polish: Option<f64>) -> (StepStats, bool) {
        let opts = self.options;
        let mu_end = 0.1 * opts.contact_tolerance;
        let mut stats = StepStats { contacts: cw.count(), ..StepStats::default() };
        let mut mu = match polish {
            Some(mu) => mu,
            None => {
                self.start_contacts(w, cw);
                MU_INITIAL
            }
        };
        let mut converged = false;
        let mut centred = polish.is_some();
        // the last decades of the barrier go to the monotone rule (see `HANDOVER`)
        let mut handed_over = false;
        let (mut eq, mut comp);
        let mut tiny_steps = 0usize;
        let (mut stale_mu, mut stale_merit, mut stale_iters) = (f64::NAN, f64::INFINITY, 0usize);
        let (mut floor_eq, mut floor_iters) = (f64::INFINITY, 0usize);
        // Some(μ): (w.r, cw.re) already hold the iterate's residual at barrier μ (the line
        // search evaluated it), so it is shifted instead of evaluated again
        let mut evaluated_at: Option<f64> = None;
        loop {
            // convergence is judged at μ = 0: products, not products − μ
            match evaluated_at.take() {
                Some(m) => shift_barrier(cw, -m),
                None => self.ip_residual(&w.s, cw, false, 0.0, &mut w.r),
            }
            (eq, comp) = measures(cw, &w.r, 0.0);
            let comp_tol = opts.contact_tolerance * self.force_scale(&w.s, cw);
            if mu <= mu_end * (1.0 + 1e-12) && eq < opts.tolerance && comp <= comp_tol {
                converged = true;
                break;
            }
            if stats.iterations >= opts.max_iterations.min(limit) {
                break;
            }
            // at the final barrier with the products done and the equality rows below the
            // acceptance level, a residual that stops halving has reached its rounding floor
            // (impacts: momentum rows of 1e3…1e4 N·s/dt, so 1e-10 is 1e-14 relative)
            if mu <= mu_end * (1.0 + 1e-12) && comp <= comp_tol && eq < opts.acceptance {
                if eq <= 0.5 * floor_eq {
                    (floor_eq, floor_iters) = (eq, 0);
                } else {
                    floor_iters += 1;
                    if floor_iters >= FLOOR_ITERATIONS {
                        break;
                    }
                }
            }
            // Mehrotra's choice of σ needs a centred start: hold μ = 1 (as the monotone rule
            // does) until the iterate is near the central path, then predict–correct
            if self.mehrotra(cw) && !centred {
                centred = norm_inf(&w.r).max(barrier_norm_inf(cw, mu)) <= 10.0 * mu;
            }
            let (accepted, alpha, searched_at) = if self.mehrotra(cw) && centred && !handed_over {
                // predictor–corrector: the barrier follows the iterate, no outer μ loop
                let merit0 = norm2(&w.r).hypot(norm2(&cw.re));
                if merit0 <= 0.5 * stale_merit {
                    (stale_merit, stale_iters) = (merit0, 0);
                }
                stale_iters += 1;
                if stale_iters > STALE_ITERATIONS {
                    break;
                }
                match self.mehrotra_step(w, cw, eq, mu_end, &mut stats) {
                    Some((acc, a, target)) => {
                        mu = target;
                        // a jam (even the centred direction short) also hands over
                        if target <= HANDOVER * mu_end || a < CORRECTOR_ALPHA {
                            handed_over = true;
                            mu = mu.max(0.1 * comp);
                        }
                        (acc, a, target)
                    }
                    None => break,
                }
            } else {
                // barrier update (IPOPT's monotone rule)
                shift_barrier(cw, mu);
                while norm_inf(&w.r).max(norm_inf(&cw.re)) <= 10.0 * mu && mu > mu_end {
                    // superlinear decrease jams the plain (unscaled) Jordan-product direction
                    // of the second-order cone off the central path; it then decreases linearly
                    let lower = if cw.has_soc { mu_end.max(0.2 * mu) } else { mu_end.max((0.2 * mu).min(mu.powf(1.5))) };
                    shift_barrier(cw, lower - mu);
                    mu = lower;
                }
                let merit = norm2(&w.r).hypot(norm2(&cw.re));
                // stale: that many iterations at one barrier without halving the merit
                if mu != stale_mu || merit <= 0.5 * stale_merit {
                    (stale_mu, stale_merit, stale_iters) = (mu, merit, 0);
                }
                stale_iters += 1;
                if stale_iters > STALE_MONOTONE_ITERATIONS {
                    break;
                }
                // Newton direction through the condensed graph system
                if !self.ip_direction(w, cw) {
                    break;
                }
                let (acc, a) = self.ip_line_search(w, cw, mu, merit, &mut stats);
                (acc, a, mu)
            };
            if !accepted {
                break;
            }
            std::mem::swap(&mut w.s, &mut w.trial);
            std::mem::swap(&mut cw.e, &mut cw.e_trial);
            std::mem::swap(&mut w.r, &mut w.r_trial);
            std::mem::swap(&mut cw.re, &mut cw.re_trial);
            evaluated_at = Some(searched_at);
            stats.iterations += 1;
            tiny_steps = if alpha < ABORT_ALPHA { tiny_steps + 1 } else { 0 };
            if tiny_steps >= ABORT_COUNT {
                break;
            }
        }
        if !converged {
            self.ip_residual(&w.s, cw, false, 0.0, &mut w.r);
            (eq, comp) = measures(cw, &w.r, 0.0);
            // a stalled but nearly exact step (singular configurations) is accepted, flagged
            if eq.is_finite() && eq < opts.acceptance && comp <= CONTACT_ACCEPTANCE * opts.contact_tolerance * self.force_scale(&w.s, cw) {
                converged = true;
                stats.stalled = true;
            }
        }
        stats.residual = eq;
        stats.complementarity = comp;
        stats.active_contacts = self.count_active(&w.s, cw);
        (stats, converged)
    }

    /// Step residual at (s, E) with barrier μ: body/joint rows and the contacts' K rows into
    /// `r`, the contacts' E rows into `cw.re` (or `cw.re_trial` with `trial`, reading E from
    /// `cw.e_trial`).
    pub(super) fn ip_residual(&self, s: &[f64], cw: &mut ContactWork, trial: bool, mu: f64, r: &mut [f64]) {
        residual_into(self, s, r);
        let model = &*self.model;
        let sym = &model.symbolic;
        let dt = self.dt;
        let f = &self.frame;
        let vel = body_velocities(model, s);
        let (e, re) = if trial { (&cw.e_trial, &mut cw.re_trial) } else { (&cw.e, &mut cw.re) };
        for (ci, c) in model.contacts.iter().enumerate() {
            let l = cw.layouts[ci];
            let fr = &cw.frames[ci];
            let on = sym.offsets[model.contact_node[ci]];
            if !cw.active[ci] {
                let eo = cw.e_offset[ci];
                r[on..on + l.nk].iter_mut().chain(re[eo..eo + l.ne].iter_mut()).for_each(|v| *v = 0.0);
                continue;
            }
            let phi = gap_and_jacobian(c, &f.x1, &f.q1, dt, vel, None);
            let mut bv = [0.0; crate::contact::MAX_DIRECTIONS];
            for side in 0..fr.sides {
                let ob = sym.offsets[model.body_node[fr.bodies[side]]];
                for (i, b) in bv.iter_mut().enumerate().take(l.nt) {
                    let row = &fr.bv[side][i * 6..i * 6 + 6];
                    *b += (0..6).map(|k| row[k] * s[ob + k]).sum::<f64>();
                }
                // body rows: −W K
                for rr in 0..6 {
                    let wr = &fr.w[side][rr * l.nk..rr * l.nk + l.nk];
                    r[ob + rr] -= (0..l.nk).map(|k| wr[k] * s[on + k]).sum::<f64>();
                }
            }
            let eo = cw.e_offset[ci];
            let mut y = [0.0; MAX_Y];
            y[..l.nk].copy_from_slice(&s[on..on + l.nk]);
            y[l.nk..l.ny()].copy_from_slice(&e[eo..eo + l.ne]);
            let (rk, re_c) = (&mut r[on..on + l.nk], &mut re[eo..eo + l.ne]);
            let limit = if cw.frozen { Some(cw.limit[ci]) } else { None };
            l.residual(&y, phi, &bv[..l.nt], cw.friction[ci], limit, dt, mu, rk, re_c);
        }
    }

    /// Whether the solve uses the Mehrotra predictor–corrector (else the monotone barrier).
    fn mehrotra(&self, cw: &ContactWork) -> bool {
        !cw.monotone && self.options.contact_predictor_corrector
    }

    /// One Mehrotra predictor–corrector iteration (Nocedal & Wright 14.2 on the NCP) from
    /// the residual at μ = 0 in (w.r, cw.re), `eq` its equality part: factor once; the
    /// predictor solves for μ = 0, its fraction-to-boundary step α_a gives the mean product
    /// ν_a after it, σ = (ν_a/ν)³; the corrector solves with target
    /// max(σν, μ_end, 0.1 min(ν, eq)) (complementarity does not run ahead of feasibility) and
    /// Mehrotra's second-order term Δy_a∘Δy_b. If its step fails the line search or is
    /// shorter than `CORRECTOR_ALPHA`, the plain centred direction at the same target is
    /// tried. Returns (accepted, α, target); None when the matrix is singular.
    fn mehrotra_step(&mut self, w: &mut Workspace, cw: &mut ContactWork, eq: f64, mu_end: f64, stats: &mut StepStats) -> Option<(bool, f64, f64)> {
        if !self.ip_direction(w, cw) {
            return None;
        }
        let model = self.model.clone();
        let sym = &model.symbolic;
        // predictor: keep its contact directions, step to the cones' boundary
        let mut alpha_aff: f64 = 1.0;
        for ci in (0..cw.count()).filter(|&ci| cw.active[ci]) {
            let on = sym.offsets[model.contact_node[ci]];
            let l = cw.layouts[ci];
            let (mut y, mut dy) = ([0.0; MAX_Y], [0.0; MAX_Y]);
            cw.gather(ci, &w.s[on..], &cw.e, &mut y);
            cw.gather(ci, &w.ds[on..], &cw.de, &mut dy);
            let yo = cw.y_off[ci];
            cw.dy_aff[yo..yo + l.ny()].copy_from_slice(&dy[..l.ny()]);
            alpha_aff = l.max_step(&y, &dy, alpha_aff);
        }
        let (mut sum, mut sum_aff, mut count) = (0.0, 0.0, 0usize);
        for ci in (0..cw.count()).filter(|&ci| cw.active[ci]) {
            let on = sym.offsets[model.contact_node[ci]];
            let l = cw.layouts[ci];
            let mut y = [0.0; MAX_Y];
            cw.gather(ci, &w.s[on..], &cw.e, &mut y);
            let (p, n) = l.products(&y);
            let yo = cw.y_off[ci];
            for (v, d) in y.iter_mut().zip(&cw.dy_aff[yo..yo + l.ny()]) {
                *v += alpha_aff * d;
            }
            sum += p;
            sum_aff += l.products(&y).0;
            count += n;
        }
        let nu = sum / count.max(1) as f64;
        let sigma = (sum_aff / sum).clamp(0.0, 1.0).powi(3);
        let target = (sigma * nu).max(mu_end).max(0.1 * nu.min(eq));
        // corrector (w.r, cw.re hold the residual at μ = 0)
        shift_barrier(cw, target);
        let merit = norm2(&w.r).hypot(norm2(&cw.re));
        for ci in (0..cw.count()).filter(|&ci| cw.active[ci]) {
            let (l, eo, yo) = (cw.layouts[ci], cw.e_offset[ci], cw.y_off[ci]);
            l.add_second_order(&cw.dy_aff[yo..yo + l.ny()], &mut cw.re[eo..eo + l.ne]);
        }
        if self.ip_resolve(w, cw) {
            let (acc, alpha) = self.ip_line_search(w, cw, target, merit, stats);
            if acc && alpha >= CORRECTOR_ALPHA {
                return Some((acc, alpha, target));
            }
        }
        // fallback: the centred Newton direction at the same target
        self.ip_residual(&w.s, cw, false, target, &mut w.r);
        let merit = norm2(&w.r).hypot(norm2(&cw.re));
        if !self.ip_resolve(w, cw) {
            return None;
        }
        let (acc, alpha) = self.ip_line_search(w, cw, target, merit, stats);
        Some((acc, alpha, target))
    }

    /// Backtracking from the fraction-to-boundary step along (w.ds, cw.de) on ‖F(s; μ)‖₂
    /// (Armijo with 1e-4), rejecting |ω| ≥ 2/dt. Leaves the accepted point in w.trial,
    /// cw.e_trial. Returns (accepted, α).
    fn ip_line_search(&self, w: &mut Workspace, cw: &mut ContactWork, mu: f64, merit: f64, stats: &mut StepStats) -> (bool, f64) {
        let two_over_dt = 2.0 / self.dt;
        let mut alpha = (TAU * self.ip_max_step(w, cw)).min(1.0);
        for _ in 0..40 {
            for k in 0..w.s.len() {
                w.trial[k] = w.s[k] + alpha * w.ds[k];
            }
            for k in 0..cw.ne_total {
                cw.e_trial[k] = cw.e[k] + alpha * cw.de[k];
            }
            if self.angular_speed_ok(&w.trial, two_over_dt) {
                self.ip_residual(&w.trial, cw, true, mu, &mut w.r_trial);
                let m = norm2(&w.r_trial).hypot(norm2(&cw.re_trial));
                if m.is_finite() && m <= (1.0 - 1e-4 * alpha) * merit {
                    return (true, alpha);
                }
            }
            alpha *= 0.5;
            stats.line_search_halvings += 1;
        }
        (false, alpha)
    }

    /// Solves the factored Newton system (from the last `ip_direction`) again for the
    /// residual now in (w.r, cw.re); the direction goes to w.ds and cw.de.
    fn ip_resolve(&mut self, w: &mut Workspace, cw: &mut ContactWork) -> bool {
        let model = &*self.model;
        let sym = &model.symbolic;
        w.ds.copy_from_slice(&w.r);
        for ci in 0..cw.count() {
            if !cw.active[ci] {
                continue;
            }
            let on = sym.offsets[model.contact_node[ci]];
            let nk = cw.layouts[ci].nk;
            cw.condense_rhs(ci, &mut w.ds[on..on + nk]);
        }
        w.ds.iter_mut().for_each(|d| *d = -*d);
        self.matrix.solve(sym, &mut w.ds);
        for ci in 0..cw.count() {
            if !cw.active[ci] {
                continue;
            }
            let on = sym.offsets[model.contact_node[ci]];
            cw.recover(ci, &w.ds[on..]);
        }
        w.ds.iter().chain(cw.de.iter()).all(|d| d.is_finite())
    }

    /// Assembles and solves the condensed Newton system at (w.s, cw.e) for the residual in
    /// (w.r, cw.re); the direction goes to w.ds and cw.de.
    fn ip_direction(&mut self, w: &mut Workspace, cw: &mut ContactWork) -> bool {
        self.assemble_jacobian(&w.s);
        w.ds.copy_from_slice(&w.r);
        if !self.assemble_contacts(&w.s, cw, &mut w.ds) {
            return false;
        }
        if self.matrix.factor(&self.model.symbolic).is_err() {
            return false;
        }
        w.ds.iter_mut().for_each(|d| *d = -*d);
        self.matrix.solve(&self.model.symbolic, &mut w.ds);
        let model = &*self.model;
        for ci in 0..cw.count() {
            if !cw.active[ci] {
                continue;
            }
            let on = model.symbolic.offsets[model.contact_node[ci]];
            cw.recover(ci, &w.ds[on..]);
        }
        w.ds.iter().chain(cw.de.iter()).all(|d| d.is_finite())
    }

    /// Contact blocks of the Newton matrix (coupling and condensed diagonal) and the
    /// condensed right-hand side rows (in `rhs`, which holds the residual on entry).
    pub(super) fn assemble_contacts(&mut self, s: &[f64], cw: &mut ContactWork, rhs: &mut [f64]) -> bool {
        let model = &*self.model;
        let sym = &model.symbolic;
        let dt = self.dt;
        let f = &self.frame;
        let vel = body_velocities(model, s);
        for (ci, c) in model.contacts.iter().enumerate() {
            let l = cw.layouts[ci];
            let nc = model.contact_node[ci];
            let on = sym.offsets[nc];
            if !cw.active[ci] {
                // identity block, zero coupling (cleared) and zero residual: the direction is 0
                self.matrix.decouple(sym, nc);
                continue;
            }
            let mut gj = [[0.0; 6]; 2];
            gap_and_jacobian(c, &f.x1, &f.q1, dt, vel, Some(&mut gj));
            let fr = &cw.frames[ci];
            for side in 0..fr.sides {
                let nb = model.body_node[fr.bodies[side]];
                let blk = self.matrix.block_mut(sym, nc, nb);
                for k in 0..6 {
                    blk[k] = -gj[side][k] / dt;
                }
                blk[6..6 + 6 * l.nt].copy_from_slice(&fr.bv[side][..6 * l.nt]);
                let blk = self.matrix.block_mut(sym, nb, nc);
                for (b, wv) in blk.iter_mut().zip(&fr.w[side][..6 * l.nk]) {
                    *b = -wv;
                }
            }
            let mut y = [0.0; MAX_Y];
            cw.gather(ci, &s[on..], &cw.e, &mut y);
            let diag = self.matrix.block_mut(sym, nc, nc);
            if !cw.condense(ci, &y, dt, diag, &mut rhs[on..on + l.nk]) {
                return false;
            }
        }
        true
    }

    /// Largest step along (w.ds, cw.de) that keeps every contact inside its cones.
    fn ip_max_step(&self, w: &Workspace, cw: &ContactWork) -> f64 {
        let model = &*self.model;
        let mut am = f64::INFINITY;
        for ci in (0..cw.count()).filter(|&ci| cw.active[ci]) {
            let on = model.symbolic.offsets[model.contact_node[ci]];
            let (mut y, mut dy) = ([0.0; MAX_Y], [0.0; MAX_Y]);
            cw.gather(ci, &w.s[on..], &cw.e, &mut y);
            cw.gather(ci, &w.ds[on..], &cw.de, &mut dy);
            am = cw.layouts[ci].max_step(&y, &dy, am);
        }
        am
    }

    /// Scale of the complementarity tolerance: the largest normal force over
    /// `FORCE_REFERENCE`, at least 1 (IPOPT's scaled complementarity, with the normal force
    /// for the multipliers' size). At 4000 N, an unscaled product of 1e-8 N·m would ask for
    /// the gap slack to 2.5e-12 m, below what the linear solve can resolve.
    fn force_scale(&self, s: &[f64], cw: &ContactWork) -> f64 {
        let model = &*self.model;
        let gamma_max = (0..cw.count()).filter(|&ci| cw.active[ci]).map(|ci| s[model.symbolic.offsets[model.contact_node[ci]]]).fold(0.0, f64::max);
        (gamma_max / FORCE_REFERENCE).max(1.0)
    }

    fn count_active(&self, s: &[f64], cw: &ContactWork) -> usize {
        let model = &*self.model;
        (0..cw.count())
            .filter(|&ci| cw.active[ci])
            .filter(|&ci| {
                let on = model.symbolic.offsets[model.contact_node[ci]];
                s[on] > cw.e[cw.e_offset[ci]]
            })
            .count()
    }

    /// After a converged step: keep the contact variables and the reported forces.
    pub(super) fn commit_contacts(&mut self) {
        let model = &*self.model;
        let cw = &mut self.contacts;
        cw.e_solution.copy_from_slice(&cw.e);
        for ci in 0..cw.count() {
            let l = cw.layouts[ci];
            let on = model.symbolic.offsets[model.contact_node[ci]];
            let k = &self.solution[on..on + l.nk];
            let ff = l.friction_force(k, &cw.frames[ci].dirs);
            self.contact_forces[ci] = [k[0], ff.x, ff.y, ff.z];
        }
    }

    pub fn contact_count(&self) -> usize {
        self.model.contacts.len()
    }

    /// `[gap, normal force, friction force (3, world)]` of a contact: the gap at the current
    /// configuration, the forces of the last step (on body a; body b gets the opposite).
    pub fn contact(&self, contact: usize) -> Result<[f64; 5]> {
        let c = self.model.contacts.get(contact).ok_or(crate::model::Error::UnknownContact(contact as i32))?;
        let f = self.contact_forces[contact];
        Ok([gap(c, &self.x, &self.q), f[0], f[1], f[2], f[3]])
    }
}

/// Turns the contacts' E rows at barrier μ into those at μ + d.
fn shift_barrier(cw: &mut ContactWork, d: f64) {
    for ci in (0..cw.count()).filter(|&ci| cw.active[ci]) {
        let (l, eo) = (cw.layouts[ci], cw.e_offset[ci]);
        l.shift_barrier(&mut cw.re[eo..eo + l.ne], d);
    }
}

/// ‖E rows at barrier μ‖∞ from the E rows at μ = 0 in `cw.re`.
fn barrier_norm_inf(cw: &ContactWork, mu: f64) -> f64 {
    let mut norm: f64 = 0.0;
    for ci in (0..cw.count()).filter(|&ci| cw.active[ci]) {
        let (l, eo) = (cw.layouts[ci], cw.e_offset[ci]);
        let mut re = [0.0; MAX_Y];
        re[..l.ne].copy_from_slice(&cw.re[eo..eo + l.ne]);
        l.shift_barrier(&mut re[..l.ne], mu);
        norm = re[..l.ne].iter().fold(norm, |m, v| m.max(v.abs()));
    }
    norm
}

/// (equality residual, complementarity) of a residual evaluated at barrier μ.
fn measures(cw: &ContactWork, r: &[f64], mu: f64) -> (f64, f64) {
    let mut eq = norm_inf(r);
    let mut comp: f64 = 0.0;
    for ci in 0..cw.count() {
        let l = &cw.layouts[ci];
        let eo = cw.e_offset[ci];
        let re = &cw.re[eo..eo + l.ne];
        comp = comp.max(l.complementarity(re, mu));
        eq = eq.max(l.cone_equality(re));
    }
    (eq, comp)
}
