//! `Sim::step`: predict z_{k+1}, then Newton with backtracking line search on the step
//! equations (paper appendix D, algorithm 7, for the equality-constrained case); the
//! linear systems go through the graph LDU. No heap allocation. Mechanisms with contacts
//! take the interior-point path (`interior_point.rs`); this file keeps the equality-only
//! Newton method and the residual/Jacobian of bodies and joints that both paths share.

use super::{Sim, StepStats};
use crate::integrator::body_dynamics;
use crate::integrator::joint_rows::{advance, multiplier_jacobian, velocity_map};
use crate::joints::constraint::{GeneralConstraint, Pose, Side};
use crate::math::{qmul, step_rotation, V3};
use crate::integrator::StepFrame;
use crate::model::{Error, Model, Result};

#[derive(Debug, Clone, Default)]
pub(super) struct Workspace {
    pub s: Vec<f64>,
    pub trial: Vec<f64>,
    pub ds: Vec<f64>,
    pub r: Vec<f64>,
    pub r_trial: Vec<f64>,
    pub best: Vec<f64>,
}

impl Workspace {
    pub fn new(dim: usize) -> Workspace {
        let z = vec![0.0; dim];
        Workspace { s: z.clone(), trial: z.clone(), ds: z.clone(), r: z.clone(), r_trial: z.clone(), best: z }
    }
}

pub(super) fn norm_inf(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| if x.abs() > m || x.is_nan() { x.abs() } else { m })
}

pub(super) fn norm2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[inline]
pub(super) fn v3(s: &[f64], o: usize) -> V3 {
    V3::new(s[o], s[o + 1], s[o + 2])
}

/// Each body's (v, ω) in the graph vector `s`, as the contact geometry wants them.
pub(super) fn body_velocities<'a>(model: &'a Model, s: &'a [f64]) -> impl Fn(usize) -> (V3, V3) + Copy + 'a {
    move |b: usize| {
        let o = model.symbolic.offsets[model.body_node[b]];
        (v3(s, o), v3(s, o + 3))
    }
}

impl Sim {
    /// One step of the current `dt` (no splitting; see `split.rs`). On failure the state
    /// is unchanged and `stats()` describes the attempt.
    pub(super) fn step_once(&mut self) -> Result<StepStats> {
        let dt = self.dt;
        let nb = self.model.body_count();
        self.prepare_step();
        let opts = self.options;
        let (stats, converged) = if self.model.contacts.is_empty() {
            let stats = self.newton();
            (stats, stats.residual < opts.tolerance || (stats.stalled && stats.residual < opts.acceptance))
        } else {
            self.interior_point(usize::MAX)
        };
        let stats = StepStats { substeps: 1, ..stats };
        self.stats = stats;
        if !converged {
            return Err(Error::NotConverged { residual: stats.residual, iterations: stats.iterations });
        }
        // commit
        let sym = &self.model.symbolic;
        for i in 0..nb {
            let o = sym.offsets[self.model.body_node[i]];
            self.x[i] = self.frame.x1[i];
            self.q[i] = self.frame.q1[i];
            self.v[i] = v3(&self.work.s, o);
            self.w[i] = v3(&self.work.s, o + 3);
        }
        self.solution.copy_from_slice(&self.work.s);
        if !self.model.contacts.is_empty() {
            self.commit_contacts();
        }
        self.time += dt;
        self.steps += 1;
        self.dt_prev = dt;
        crate::forces::account_step(&self.model, &self.frame, &self.v, &self.w, &mut self.energy_account);
        Ok(stats)
    }

    /// Prediction z_{k+1}, G(z_{k+1}) and the warm start of the Newton iterate.
    pub(super) fn prepare_step(&mut self) {
        // the known velocities span the previous interval h0 (dt unless a step was split)
        let h0 = self.dt_prev;
        self.frame.dt = h0;
        let nb = self.model.body_count();
        // prediction z_{k+1} from ż_k (unit quaternion by construction; the normalization
        // only removes accumulated round-off)
        for i in 0..nb {
            self.frame.v0[i] = self.v[i];
            self.frame.w0[i] = self.w[i];
            self.frame.x1[i] = self.x[i] + self.v[i] * h0;
            self.frame.q1[i] = qmul(&self.q[i], &step_rotation(&self.w[i], h0)).normalize();
        }
        self.compute_multiplier_jacobians();
        // warm start: previous velocities and multipliers
        let sym = &self.model.symbolic;
        self.work.s.copy_from_slice(&self.solution);
        for i in 0..nb {
            let o = sym.offsets[self.model.body_node[i]];
            self.work.s[o..o + 3].copy_from_slice(self.v[i].as_slice());
            self.work.s[o + 3..o + 6].copy_from_slice(self.w[i].as_slice());
        }
    }

    fn newton(&mut self) -> StepStats {
        // the workspace is moved out while the iterations borrow `self` (no allocation)
        let mut w = std::mem::take(&mut self.work);
        let stats = self.newton_with(&mut w);
        self.work = w;
        stats
    }

    fn newton_with(&mut self, w: &mut Workspace) -> StepStats {
        let opts = self.options;
        let two_over_dt = 2.0 / self.dt;
        let mut stats = StepStats::default();
        residual_into(self, &w.s, &mut w.r);
        let mut nr = norm_inf(&w.r);
        let mut n2 = norm2(&w.r);
        let mut best = nr;
        w.best.copy_from_slice(&w.s);
        let mut since_progress = 0;
        while nr >= opts.tolerance && stats.iterations < opts.max_iterations && since_progress < 8 {
            self.assemble_jacobian(&w.s);
            if self.matrix.factor(&self.model.symbolic).is_err() {
                break;
            }
            for (d, r) in w.ds.iter_mut().zip(&w.r) {
                *d = -r;
            }
            self.matrix.solve(&self.model.symbolic, &mut w.ds);
            // backtracking: halve until the residual norm decreases and |ω| < 2/dt
            let mut alpha = 1.0;
            let mut accepted = false;
            for _ in 0..30 {
                for k in 0..w.s.len() {
                    w.trial[k] = w.s[k] + alpha * w.ds[k];
                }
                if self.angular_speed_ok(&w.trial, two_over_dt) {
                    residual_into(self, &w.trial, &mut w.r_trial);
                    let t2 = norm2(&w.r_trial);
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
                break;
            }
            std::mem::swap(&mut w.s, &mut w.trial);
            std::mem::swap(&mut w.r, &mut w.r_trial);
            nr = norm_inf(&w.r);
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
        stats
    }

    pub(super) fn angular_speed_ok(&self, s: &[f64], limit: f64) -> bool {
        let sym = &self.model.symbolic;
        self.model.body_node.iter().all(|&n| v3(s, sym.offsets[n] + 3).norm() < limit)
    }

    /// G(z_{k+1}) per joint, fixed during the step.
    fn compute_multiplier_jacobians(&mut self) {
        for (ji, j) in self.model.joints.iter().enumerate() {
            let nc = j.constraint_count();
            if nc == 0 {
                continue;
            }
            let a = match j.parent {
                Some(p) => Pose { x: self.frame.x1[p], q: self.frame.q1[p] },
                None => Pose::WORLD,
            };
            let b = Pose { x: self.frame.x1[j.child], q: self.frame.q1[j.child] };
            let o = self.g_offset[ji];
            multiplier_jacobian(j, &a, &b, &mut self.g_parent[o..o + nc * 6], &mut self.g_child[o..o + nc * 6]);
        }
    }

    /// Newton matrix ∂f/∂s at the current iterate into `self.matrix`.
    pub(super) fn assemble_jacobian(&mut self, s: &[f64]) {
        let model = &*self.model;
        let sym = &model.symbolic;
        let dt = self.dt;
        let matrix = &mut self.matrix;
        matrix.clear();
        for (i, b) in model.bodies.iter().enumerate() {
            let n = model.body_node[i];
            let w = v3(&s, sym.offsets[n] + 3);
            body_dynamics::add_jacobian(b.mass, &b.inertia, self.frame.dt, dt, &w, matrix.block_mut(sym, n, n));
        }
        for (ji, j) in model.joints.iter().enumerate() {
            let Some(nj) = model.joint_node[ji] else { continue };
            let nc = j.constraint_count();
            let o = self.g_offset[ji];
            let a = pose_next(&self.frame, model, dt, s, j.parent);
            let b = pose_next(&self.frame, model, dt, s, Some(j.child));
            let g = GeneralConstraint::eval(j, &a, &b);
            let mut sides = [(Side::Child, Some(j.child)), (Side::Parent, j.parent)];
            for (side, body) in sides.iter_mut() {
                let Some(body) = *body else { continue };
                let nb = model.body_node[body];
                let w = v3(&s, sym.offsets[nb] + 3);
                let map = velocity_map(&self.frame.q1[body], &w, dt);
                j.jacobian_block(&g, *side, dt, &map, matrix.block_mut(sym, nj, nb));
                let gsrc = if *side == Side::Child { &self.g_child } else { &self.g_parent };
                let blk = matrix.block_mut(sym, nb, nj);
                for r in 0..6 {
                    for c in 0..nc {
                        blk[r * nc + c] = -gsrc[o + c * 6 + r];
                    }
                }
            }
        }
        crate::forces::add_jacobian(model, &self.frame, s, matrix);
    }
}

/// Step residual f(s) (paper eq. for the complete integrator, equality part).
pub(super) fn residual_into(sim: &Sim, s: &[f64], r: &mut [f64]) {
    let model = &sim.model;
    let sym = &model.symbolic;
    let f = &sim.frame;
    for (i, b) in model.bodies.iter().enumerate() {
        let o = sym.offsets[model.body_node[i]];
        body_dynamics::residual(
            b.mass,
            &b.inertia,
            &model.gravity,
            f.dt,
            sim.dt,
            &f.v0[i],
            &f.w0[i],
            &v3(s, o),
            &v3(s, o + 3),
            &f.force[i],
            &f.torque[i],
            &mut r[o..o + 6],
        );
    }
    for (ji, j) in model.joints.iter().enumerate() {
        let Some(nj) = model.joint_node[ji] else { continue };
        let nc = j.constraint_count();
        let oj = sym.offsets[nj];
        let og = sim.g_offset[ji];
        for (body, g) in [(Some(j.child), &sim.g_child), (j.parent, &sim.g_parent)] {
            let Some(body) = body else { continue };
            let ob = sym.offsets[model.body_node[body]];
            for c in 0..nc {
                let lam = s[oj + c];
                for k in 0..6 {
                    r[ob + k] -= g[og + c * 6 + k] * lam;
                }
            }
        }
        let a = pose_next(f, model, sim.dt, s, j.parent);
        let b = pose_next(f, model, sim.dt, s, Some(j.child));
        j.constraint(&a, &b, &mut r[oj..oj + nc]);
    }
    crate::forces::add_residual(model, f, s, r);
}


/// Pose at z_{k+2} of a body (the world for None) at iterate s.
fn pose_next(f: &StepFrame, model: &Model, dt: f64, s: &[f64], body: Option<usize>) -> Pose {
    match body {
        None => Pose::WORLD,
        Some(i) => {
            let o = model.symbolic.offsets[model.body_node[i]];
            advance(&f.x1[i], &f.q1[i], &v3(s, o), &v3(s, o + 3), dt)
        }
    }
}
