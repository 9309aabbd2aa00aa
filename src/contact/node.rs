//! The condensed contact node (paper section 4, first paragraph: "each inequality node
//! carries its own slacks").
//!
//! A contact's Newton rows, with K its kept variables (they act on the bodies), E its
//! slacks and cone variables (they do not), and b the bodies' velocities:
//! ```text
//!   [A_KK A_KE] [dK]   [C_b db]     [r_K]
//!   [A_EK A_EE] [dE] + [  0   ]  = −[r_E]
//! ```
//! E is eliminated inside the node: with X = A_EE⁻¹A_EK and z = A_EE⁻¹r_E,
//! ```text
//!   (A_KK − A_KE X) dK + C_b db = −(r_K − A_KE z),     dE = −z − X dK,
//! ```
//! so the graph sees one nk × nk block per contact. A_EE is block triangular with the
//! complementarity partners on its diagonal, hence invertible strictly inside the cones.
//!
//! Storage for all contacts is allocated once; nothing here allocates during a step.

use super::cone::{Layout, MAX_Y};
use super::geometry::ContactFrame;
use super::Contact;
use crate::math::dense::{gemm_sub, lu_factor, lu_solve};

#[derive(Debug, Clone, Default)]
pub struct ContactWork {
    pub layouts: Vec<Layout>,
    pub friction: Vec<f64>,
    /// Offset of each contact's E variables in the flat E vectors.
    pub e_offset: Vec<usize>,
    pub ne_total: usize,
    /// E variables: iterate, trial, Newton direction, residual rows, trial residual rows.
    pub e: Vec<f64>,
    pub e_trial: Vec<f64>,
    pub de: Vec<f64>,
    pub re: Vec<f64>,
    pub re_trial: Vec<f64>,
    pub frames: Vec<ContactFrame>,
    /// Some contact uses the second-order cone.
    pub has_soc: bool,
    /// Tresca mode: each contact's friction bounded by μ_f·`limit[ci]` instead of μ_f·γ.
    pub frozen: bool,
    pub limit: Vec<f64>,
    /// Contacts taking part in the current step's solve (see `step::culling`); a left-out
    /// contact's node is an identity block with zero multipliers.
    pub active: Vec<bool>,
    /// Predictor (affine) direction of each node's variables y = [K; E], at `y_off`.
    pub y_off: Vec<usize>,
    pub dy_aff: Vec<f64>,
    // condensation scratch, per contact at its offsets
    a_off: Vec<usize>,
    a: Vec<f64>,
    lu_off: Vec<usize>,
    lu: Vec<f64>,
    piv: Vec<usize>,
    x_off: Vec<usize>,
    x: Vec<f64>,
    z: Vec<f64>,
}

impl ContactWork {
    pub fn new(contacts: &[Contact]) -> ContactWork {
        let mut w = ContactWork::default();
        let (mut eo, mut ao, mut lo, mut xo, mut yo) = (0, 0, 0, 0, 0);
        for c in contacts {
            let l = c.layout();
            w.layouts.push(l);
            w.has_soc |= l.kind == super::cone::Kind::Soc;
            w.friction.push(c.friction);
            w.e_offset.push(eo);
            w.a_off.push(ao);
            w.lu_off.push(lo);
            w.x_off.push(xo);
            w.y_off.push(yo);
            yo += l.ny();
            eo += l.ne;
            ao += l.ny() * l.ny();
            lo += l.ne * l.ne;
            xo += l.ne * l.nk;
        }
        w.ne_total = eo;
        for v in [&mut w.e, &mut w.e_trial, &mut w.de, &mut w.re, &mut w.re_trial, &mut w.z] {
            *v = vec![0.0; eo];
        }
        w.piv = vec![0; eo];
        w.dy_aff = vec![0.0; yo];
        w.limit = vec![0.0; contacts.len()];
        w.active = vec![true; contacts.len()];
        w.a = vec![0.0; ao];
        w.lu = vec![0.0; lo];
        w.x = vec![0.0; xo];
        w.frames = vec![ContactFrame::default(); contacts.len()];
        w
    }

    /// Puts contact `ci` into the solve or leaves it out; a contact entering or leaving
    /// gets zero multipliers and direction (its variables are set again when a solve
    /// starts with it).
    pub fn set_active(&mut self, ci: usize, active: bool) {
        if self.active[ci] == active {
            return;
        }
        self.active[ci] = active;
        let l = self.layouts[ci];
        let eo = self.e_offset[ci];
        let mut y = [0.0; MAX_Y];
        l.init(&mut y);
        self.e[eo..eo + l.ne].copy_from_slice(&y[l.nk..l.ny()]);
        self.de[eo..eo + l.ne].iter_mut().for_each(|d| *d = 0.0);
    }

    pub fn count(&self) -> usize {
        self.layouts.len()
    }

    /// The node's variables y = [K; E] gathered from the graph vector slice `k` and `e`.
    pub fn gather(&self, ci: usize, k: &[f64], e: &[f64], y: &mut [f64; MAX_Y]) {
        let l = &self.layouts[ci];
        let o = self.e_offset[ci];
        y[..l.nk].copy_from_slice(&k[..l.nk]);
        y[l.nk..l.ny()].copy_from_slice(&e[o..o + l.ne]);
    }

    /// Condenses contact `ci` at its variables `y` with E residual rows `self.re`: writes
    /// the node's diagonal block (nk × nk) into `diag` and turns `rk` (the K rows of the
    /// residual) into r_K − A_KE A_EE⁻¹ r_E. Returns false if A_EE is singular (the iterate
    /// left the cones' interior).
    pub fn condense(&mut self, ci: usize, y: &[f64], dt: f64, diag: &mut [f64], rk: &mut [f64]) -> bool {
        let l = self.layouts[ci];
        let (nk, ne, ny) = (l.nk, l.ne, l.ny());
        let a = &mut self.a[self.a_off[ci]..self.a_off[ci] + ny * ny];
        l.jacobian(y, self.friction[ci], self.frozen, dt, a);
        let lu = &mut self.lu[self.lu_off[ci]..self.lu_off[ci] + ne * ne];
        let x = &mut self.x[self.x_off[ci]..self.x_off[ci] + ne * nk];
        for r in 0..ne {
            for c in 0..ne {
                lu[r * ne + c] = a[(nk + r) * ny + nk + c];
            }
            for c in 0..nk {
                x[r * nk + c] = a[(nk + r) * ny + c];
            }
        }
        let eo = self.e_offset[ci];
        let piv = &mut self.piv[eo..eo + ne];
        if !lu_factor(lu, ne, piv) {
            return false;
        }
        lu_solve(lu, ne, piv, x, nk);
        // A_KE (nk × ne) as a contiguous copy for the kernels
        let mut ake = [0.0; MAX_Y * MAX_Y];
        for r in 0..nk {
            for c in 0..ne {
                ake[r * ne + c] = a[r * ny + nk + c];
            }
            for c in 0..nk {
                diag[r * nk + c] = a[r * ny + c];
            }
        }
        gemm_sub(diag, &ake[..nk * ne], x, nk, ne, nk);
        self.condense_rhs(ci, rk);
        true
    }

    /// The right-hand side part of `condense` alone, with the factors of the last
    /// condensation: turns `rk` into r_K − A_KE A_EE⁻¹ r_E for the E rows now in `self.re`
    /// (the predictor–corrector solves twice with one matrix; only the complementarity
    /// rows' right-hand side changes between the solves).
    pub fn condense_rhs(&mut self, ci: usize, rk: &mut [f64]) {
        let l = self.layouts[ci];
        let (nk, ne, ny) = (l.nk, l.ne, l.ny());
        let a = &self.a[self.a_off[ci]..self.a_off[ci] + ny * ny];
        let lu = &self.lu[self.lu_off[ci]..self.lu_off[ci] + ne * ne];
        let eo = self.e_offset[ci];
        let piv = &self.piv[eo..eo + ne];
        let z = &mut self.z[eo..eo + ne];
        z.copy_from_slice(&self.re[eo..eo + ne]);
        lu_solve(lu, ne, piv, z, 1);
        for r in 0..nk {
            rk[r] -= (0..ne).map(|c| a[r * ny + nk + c] * z[c]).sum::<f64>();
        }
    }

    /// Recovers the E part of the Newton direction from the K part: dE = −z − X dK.
    pub fn recover(&mut self, ci: usize, dk: &[f64]) {
        let l = self.layouts[ci];
        let (nk, ne) = (l.nk, l.ne);
        let eo = self.e_offset[ci];
        let x = &self.x[self.x_off[ci]..self.x_off[ci] + ne * nk];
        for r in 0..ne {
            let mut s = self.z[eo + r];
            for c in 0..nk {
                s += x[r * nk + c] * dk[c];
            }
            self.de[eo + r] = -s;
        }
    }

    /// The full local Jacobian of contact `ci` from its last condensation (tests: the
    /// uncondensed Newton system).
    pub fn local_jacobian(&self, ci: usize) -> &[f64] {
        let ny = self.layouts[ci].ny();
        &self.a[self.a_off[ci]..self.a_off[ci] + ny * ny]
    }
}
