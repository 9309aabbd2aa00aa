//! Test support (feature `test-support`): the Newton system of a contact step solved three
//! ways — the graph LDU on the condensed system, a dense LU on the same condensed matrix,
//! and a dense LU on the full uncondensed system (slacks and cone variables as unknowns)
//! — and the full system's Jacobian against finite differences. Not used by `step`.

use super::Sim;
use crate::contact::node::ContactWork;
use crate::data::Data;
use crate::model::Model;
use crate::solver::dense_reference::dense_solve;
use crate::step::interior_point::{self, contact_rows, IterationCap, Start};
use crate::step::problem::{Equations, Friction};
use crate::step::warm_start::warm_start;
use crate::step::{culling, narrow_phase, predict, SolverOptions};

/// Largest differences between the solutions, relative to the largest solution entry.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct ContactSystemCheck {
    pub condensed_dim: usize,
    pub full_dim: usize,
    /// Graph LDU vs dense LU on the condensed matrix.
    pub sparse_vs_dense: f64,
    /// Graph LDU + recovery of the condensed variables vs dense LU on the full system.
    pub condensed_vs_full: f64,
    /// Normwise backward error of the graph LDU solution on the condensed matrix,
    /// ‖A x − b‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞).
    pub backward_error: f64,
    /// ‖b − A x‖∞ / ‖b‖∞ on the full (uncondensed) system, for the graph LDU solution with
    /// the condensed variables recovered.
    pub full_residual: f64,
    /// The same for the refined direction (`LinearSolve::Refined`: regularized factors,
    /// refinement against the uncondensed system).
    pub refined_full_residual: f64,
    /// Barrier parameter at which the system was built.
    pub mu: f64,
}

/// The next step's iterate after `iterations` interior-point iterations with every contact
/// in the solve; then the residual at barrier `mu` and the assembled, condensed Newton
/// system (its right-hand side returned). The state is not changed.
fn system_after(model: &Model, d: &mut Data, opts: SolverOptions, iterations: usize, mu: f64) -> Vec<f64> {
    predict(model, d);
    narrow_phase(model, d);
    warm_start(model, &d.warm, &d.state, d.dt, &mut d.scratch.it.s);
    let eqs = Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked, friction: Friction::Coulomb };
    let opts = SolverOptions { contact_margin: f64::INFINITY, ..opts };
    culling::select_contacts(&eqs, opts.contact_margin, &mut d.scratch);
    let _ = interior_point::solve_with(&eqs, &mut d.scratch, &opts, Start::Fresh, IterationCap::AtMost(iterations), interior_point::LinearSolve::Plain);
    let sc = &mut d.scratch;
    contact_rows::residual(&eqs, &sc.it.s, &mut sc.next, &mut sc.contacts, false, mu, &mut sc.it.r);
    eqs.jacobian(&sc.it.s, &mut sc.next, &mut sc.matrix);
    let mut rhs = sc.it.r.clone();
    assert!(contact_rows::assemble(&eqs, &sc.it.s, &sc.next, &mut sc.contacts, &mut sc.matrix, &mut rhs));
    rhs
}

impl Sim {
    /// Builds the Newton system of the next step after `iterations` interior-point
    /// iterations, at barrier `mu`, and solves it three ways. Leaves the state unchanged.
    #[doc(hidden)]
    pub fn debug_contact_system_check(&mut self, iterations: usize, mu: f64) -> ContactSystemCheck {
        // the collision shapes' contacts of the next step
        let _ = crate::step::collide::update(&self.model, &mut self.data, &self.options);
        let layout = self.layout();
        let model = &*layout;
        // the test's iterates (iteration count ↔ barrier) are those of the monotone rule
        let opts = SolverOptions { contact_predictor_corrector: false, ..self.options };
        let rhs = system_after(model, &mut self.data, opts, iterations, mu);
        let sc = &mut self.data.scratch;
        let (matrix, cw) = (&mut sc.matrix, &mut sc.contacts);
        let sym = &model.symbolic;
        let n = sym.dim;
        let ne = cw.nodes.e_len();
        let dense = matrix.to_dense(sym);
        let neg: Vec<f64> = rhs.iter().map(|v| -v).collect();
        let x_dense = dense_solve(&dense, &neg).expect("dense condensed system singular");
        matrix.factor(sym).expect("graph LDU failed");
        let mut x_sparse = neg.clone();
        matrix.solve(sym, &mut x_sparse);
        for ci in 0..cw.count() {
            cw.nodes.recover(ci, &x_sparse[model.addresses.contact(ci)..], &mut cw.vars.de);
        }
        // full system: contact diagonal blocks uncondensed, E rows and columns appended
        let nf = n + ne;
        let full = full_system(model, cw, &dense);
        let mut rf: Vec<f64> = sc.it.r.iter().map(|v| -v).collect();
        rf.extend(cw.vars.re.iter().map(|v| -v));
        let x_full = dense_solve(&full, &rf).expect("dense full system singular");
        let scale = x_full.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let d1 = x_sparse.iter().zip(&x_dense).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        let d2 = x_sparse.iter().chain(cw.vars.de.iter()).zip(&x_full).fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        let mut res: f64 = 0.0;
        let mut anorm: f64 = 0.0;
        for r in 0..n {
            let row = &dense[r * n..r * n + n];
            let ax: f64 = row.iter().zip(&x_sparse).map(|(a, x)| a * x).sum();
            res = res.max((ax - neg[r]).abs());
            anorm = anorm.max(row.iter().map(|a| a.abs()).sum());
        }
        let xn = x_sparse.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let bn = neg.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let plain: Vec<f64> = x_sparse.iter().chain(cw.vars.de.iter()).copied().collect();
        let full_residual = relative_residual(&full, &plain, &rf);
        // the refined direction, as the interior point makes it at this iterate
        let d = &mut self.data;
        let eqs = Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked, friction: Friction::Coulomb };
        assert!(interior_point::direction(&eqs, &mut d.scratch, interior_point::LinearSolve::Refined), "refined direction failed");
        let refined: Vec<f64> = d.scratch.it.ds.iter().chain(d.scratch.contacts.vars.de.iter()).copied().collect();
        let refined_full_residual = relative_residual(&full, &refined, &rf);
        ContactSystemCheck {
            full_residual,
            refined_full_residual,
            condensed_dim: n,
            full_dim: nf,
            sparse_vs_dense: d1 / scale,
            condensed_vs_full: d2 / scale,
            backward_error: res / (anorm * xn + bn),
            mu,
        }
    }

    /// Largest difference between the analytic Newton matrix of the full (uncondensed)
    /// contact step and central finite differences of the residual (step `h`), relative to
    /// the largest matrix entry, after `iterations` interior-point iterations.
    #[doc(hidden)]
    pub fn debug_contact_jacobian_fd(&mut self, iterations: usize, h: f64) -> f64 {
        // the collision shapes' contacts of the next step
        let _ = crate::step::collide::update(&self.model, &mut self.data, &self.options);
        let layout = self.layout();
        let model = &*layout;
        let mu = 1e-3;
        // analytic: graph blocks (contact diagonal replaced by the local A_KK) + local blocks
        let _ = system_after(model, &mut self.data, self.options, iterations, mu);
        let d = &mut self.data;
        let eqs = Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked, friction: Friction::Coulomb };
        let sc = &mut d.scratch;
        let (w, next, cw) = (&mut sc.it, &mut sc.next, &mut sc.contacts);
        let (n, ne) = (model.symbolic.dim, cw.nodes.e_len());
        let nf = n + ne;
        let dense = sc.matrix.to_dense(&model.symbolic);
        let full = full_system(model, cw, &dense);
        // finite differences
        let base_s = w.s.clone();
        let base_e = cw.vars.e.clone();
        let mut fp = vec![0.0; nf];
        let mut fm = vec![0.0; nf];
        let mut err: f64 = 0.0;
        let scale = full.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // the second-order cone's complementarity rows hold the Nesterov–Todd scaling at
        // the iterate (their own test: contact::cone::tests), not the residual's derivative
        let mut skip = vec![false; nf];
        for ci in 0..cw.count() {
            if cw.nodes.layout(ci).kind == crate::contact::cone::Kind::Soc {
                let e0 = n + cw.nodes.e_range(ci).start;
                skip[e0 + 2..e0 + 5].iter_mut().for_each(|k| *k = true);
            }
        }
        for col in 0..nf {
            for (sign, out) in [(1.0, &mut fp), (-1.0, &mut fm)] {
                w.s.copy_from_slice(&base_s);
                cw.vars.e.copy_from_slice(&base_e);
                if col < n {
                    w.s[col] += sign * h;
                } else {
                    cw.vars.e[col - n] += sign * h;
                }
                contact_rows::residual(&eqs, &w.s, next, cw, false, mu, &mut w.r);
                out[..n].copy_from_slice(&w.r);
                out[n..].copy_from_slice(&cw.vars.re);
            }
            for r in (0..nf).filter(|&r| !skip[r]) {
                let fd = (fp[r] - fm[r]) / (2.0 * h);
                err = err.max((fd - full[r * nf + col]).abs());
            }
        }
        w.s.copy_from_slice(&base_s);
        cw.vars.e.copy_from_slice(&base_e);
        err / scale
    }
}

/// ‖b − A x‖∞ / ‖b‖∞ for a dense row-major A.
fn relative_residual(a: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let n = x.len();
    let r = (0..n).map(|i| (b[i] - a[i * n..i * n + n].iter().zip(x).map(|(a, x)| a * x).sum::<f64>()).abs()).fold(0.0, f64::max);
    r / b.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// The uncondensed Newton matrix (nf = n + condensed unknowns, row-major): the graph
/// matrix `dense` (n×n) with each contact's diagonal block replaced by its local
/// Jacobian over kept and condensed variables.
fn full_system(model: &Model, cw: &ContactWork, dense: &[f64]) -> Vec<f64> {
    let n = model.symbolic.dim;
    let nf = n + cw.nodes.e_len();
    let mut full = vec![0.0; nf * nf];
    for r in 0..n {
        full[r * nf..r * nf + n].copy_from_slice(&dense[r * n..r * n + n]);
    }
    for ci in 0..cw.count() {
        let l = cw.nodes.layout(ci);
        let (nk, ny) = (l.nk, l.ny());
        let on = model.addresses.contact(ci);
        let eo = n + cw.nodes.e_range(ci).start;
        let a = cw.nodes.local_jacobian(ci);
        let idx = |i: usize| if i < nk { on + i } else { eo + i - nk };
        for r in 0..ny {
            for c in 0..ny {
                full[idx(r) * nf + idx(c)] = a[r * ny + c];
            }
        }
    }
    full
}
