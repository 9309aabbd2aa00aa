//! Friction cones as the local equations of a contact node (paper eq. "friction NCP",
//! appendix C; the second-order cone as in Dojo's nonlinear contact).
//!
//! A node's variables y = [K | E]: K are the multipliers that act on the bodies (normal
//! force γ and friction magnitudes), E the slacks and cone variables that are condensed
//! inside the node. Its rows are [K rows | E rows]: the K rows are the ones that depend on
//! body velocities (the gap row and the slip rows), the E rows only on y. With φ the gap at
//! z_{k+2} and `bv` the slip velocity projected on the friction directions (both supplied
//! by the geometry), and μ the barrier parameter:
//!
//! Linear cone, directions d_i (i < nd), y = [γ, β | s_φ, ψ, s_ψ, η]:
//!   K: (s_φ − φ)/dt;  bv_i + ψ − η_i
//!   E: γ s_φ − μ;  s_ψ − (μ_f γ − Σβ);  ψ s_ψ − μ;  β_i η_i − μ
//! Second-order cone, tangents t1, t2, y = [γ, b | s_φ, β₀, η₀, e]:
//!   K: (s_φ − φ)/dt;  bv_i − e_i
//!   E: γ s_φ − μ;  β₀ − μ_f γ;  β∘η − μ(1,0,0)  (Jordan product, β = [β₀; b], η = [η₀; e])
//! Frictionless (μ_f = 0), y = [γ | s_φ]:  K: (s_φ − φ)/dt;  E: γ s_φ − μ.
//!
//! The gap row is divided by dt so that it is in velocity units like the slip rows and its
//! body entries (n·dt·/dt = n) are of order one next to body blocks of order m/dt.

use super::{ConeType, Contact, MAX_DIRECTIONS};
use crate::math::V3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Frictionless,
    Linear,
    Soc,
}

/// Sizes of a contact node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub kind: Kind,
    /// Friction directions in the body coupling (nd for the linear cone, 2 for the SOC).
    pub nt: usize,
    /// Kept (graph) variables: 1 + nt.
    pub nk: usize,
    /// Condensed variables.
    pub ne: usize,
}

/// Largest node sizes (for stack buffers).
pub const MAX_K: usize = 1 + MAX_DIRECTIONS;
pub const MAX_E: usize = 3 + MAX_DIRECTIONS;
pub const MAX_Y: usize = MAX_K + MAX_E;

impl Layout {
    pub fn of(c: &Contact) -> Layout {
        if c.friction == 0.0 {
            return Layout { kind: Kind::Frictionless, nt: 0, nk: 1, ne: 1 };
        }
        match c.cone {
            ConeType::Linear => Layout { kind: Kind::Linear, nt: c.directions, nk: 1 + c.directions, ne: 3 + c.directions },
            ConeType::Nonlinear => Layout { kind: Kind::Soc, nt: 2, nk: 3, ne: 5 },
        }
    }

    pub fn ny(&self) -> usize {
        self.nk + self.ne
    }

    /// Index of s_φ in y.
    #[inline]
    pub fn s_phi(&self) -> usize {
        self.nk
    }

    /// A strictly interior starting point: all orthant variables 1, cone variables (1, 0, 0).
    pub fn init(&self, y: &mut [f64]) {
        y[..self.ny()].iter_mut().for_each(|v| *v = 1.0);
        if self.kind == Kind::Soc {
            // b (K 1..3) and e (E 3..5) start at the cone axis
            y[1] = 0.0;
            y[2] = 0.0;
            y[self.nk + 3] = 0.0;
            y[self.nk + 4] = 0.0;
        }
    }

    /// Local residual: K rows (without the body terms −φ/dt and bv, added by the caller
    /// through `phi` and `bv`) and E rows. `limit`: the normal force that bounds friction,
    /// None for γ itself (Coulomb); Some(ĝ) freezes it (Tresca, see `interior_point`).
    #[allow(clippy::too_many_arguments)]
    pub fn residual(&self, y: &[f64], phi: f64, bv: &[f64], mu_f: f64, limit: Option<f64>, dt: f64, mu: f64, rk: &mut [f64], re: &mut [f64]) {
        let nk = self.nk;
        let (k, e) = y.split_at(nk);
        let gamma = k[0];
        let g_lim = limit.unwrap_or(gamma);
        let sphi = e[0];
        rk[0] = (sphi - phi) / dt;
        re[0] = gamma * sphi - mu;
        match self.kind {
            Kind::Frictionless => {}
            Kind::Linear => {
                let nd = self.nt;
                let beta = &k[1..1 + nd];
                let (psi, spsi) = (e[1], e[2]);
                let eta = &e[3..3 + nd];
                let mut sum = 0.0;
                for i in 0..nd {
                    rk[1 + i] = bv[i] + psi - eta[i];
                    sum += beta[i];
                    re[3 + i] = beta[i] * eta[i] - mu;
                }
                re[1] = spsi - (mu_f * g_lim - sum);
                re[2] = psi * spsi - mu;
            }
            Kind::Soc => {
                let (b1, b2) = (k[1], k[2]);
                let (b0, e0, e1, e2) = (e[1], e[2], e[3], e[4]);
                rk[1] = bv[0] - e1;
                rk[2] = bv[1] - e2;
                re[1] = b0 - mu_f * g_lim;
                re[2] = b0 * e0 + b1 * e1 + b2 * e2 - mu;
                re[3] = b0 * e1 + e0 * b1;
                re[4] = b0 * e2 + e0 * b2;
            }
        }
    }

    /// The E rows at barrier μ + d from those at μ: the rows that read "product − μ"
    /// (orthant pairs, the SOC's first Jordan row) lose d, the others are unchanged.
    pub fn shift_barrier(&self, re: &mut [f64], d: f64) {
        re[0] -= d;
        match self.kind {
            Kind::Frictionless => {}
            Kind::Linear => {
                re[2] -= d;
                re[3..3 + self.nt].iter_mut().for_each(|r| *r -= d);
            }
            Kind::Soc => re[2] -= d,
        }
    }

    /// Local Jacobian ∂[K rows; E rows]/∂y (ny × ny, row-major), body columns excluded;
    /// `frozen`: the friction bound does not depend on γ (Tresca).
    pub fn jacobian(&self, y: &[f64], mu_f: f64, frozen: bool, dt: f64, a: &mut [f64]) {
        let mu_f_gamma = if frozen { 0.0 } else { mu_f };
        let ny = self.ny();
        let nk = self.nk;
        a[..ny * ny].iter_mut().for_each(|v| *v = 0.0);
        let mut set = |r: usize, c: usize, v: f64| a[r * ny + c] = v;
        let (k, e) = y.split_at(nk);
        let gamma = k[0];
        let sphi = e[0];
        let ie = |i: usize| nk + i; // index of E variable / E row i
        set(0, ie(0), 1.0 / dt);
        set(ie(0), 0, sphi);
        set(ie(0), ie(0), gamma);
        match self.kind {
            Kind::Frictionless => {}
            Kind::Linear => {
                let nd = self.nt;
                let (psi, spsi) = (e[1], e[2]);
                for i in 0..nd {
                    set(1 + i, ie(1), 1.0);
                    set(1 + i, ie(3 + i), -1.0);
                    set(ie(1), 1 + i, 1.0);
                    set(ie(3 + i), 1 + i, e[3 + i]);
                    set(ie(3 + i), ie(3 + i), k[1 + i]);
                }
                set(ie(1), ie(2), 1.0);
                set(ie(1), 0, -mu_f_gamma);
                set(ie(2), ie(1), spsi);
                set(ie(2), ie(2), psi);
            }
            Kind::Soc => {
                let (b1, b2) = (k[1], k[2]);
                let (b0, e0, e1, e2) = (e[1], e[2], e[3], e[4]);
                set(1, ie(3), -1.0);
                set(2, ie(4), -1.0);
                set(ie(1), ie(1), 1.0);
                set(ie(1), 0, -mu_f_gamma);
                // d(β∘η) = Arw(η) dβ + Arw(β) dη, β = (E1, K1, K2), η = (E2, E3, E4)
                set(ie(2), ie(1), e0);
                set(ie(2), 1, e1);
                set(ie(2), 2, e2);
                set(ie(2), ie(2), b0);
                set(ie(2), ie(3), b1);
                set(ie(2), ie(4), b2);
                set(ie(3), ie(1), e1);
                set(ie(3), 1, e0);
                set(ie(3), ie(2), b1);
                set(ie(3), ie(3), b0);
                set(ie(4), ie(1), e2);
                set(ie(4), 2, e0);
                set(ie(4), ie(2), b2);
                set(ie(4), ie(4), b0);
            }
        }
    }

    /// Largest α ≤ `limit` with y + α dy still in the cones (strictly: the boundary itself
    /// is excluded by the caller's fraction-to-boundary factor τ < 1).
    pub fn max_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        let mut am = limit;
        let mut orthant = |i: usize| {
            if dy[i] < 0.0 {
                am = am.min(-y[i] / dy[i]);
            }
        };
        match self.kind {
            Kind::Frictionless | Kind::Linear => {
                for i in 0..self.ny() {
                    orthant(i);
                }
            }
            Kind::Soc => {
                orthant(0);
                orthant(self.nk);
                let nk = self.nk;
                let beta = [y[nk + 1], y[1], y[2]];
                let dbeta = [dy[nk + 1], dy[1], dy[2]];
                let eta = [y[nk + 2], y[nk + 3], y[nk + 4]];
                let deta = [dy[nk + 2], dy[nk + 3], dy[nk + 4]];
                am = am.min(soc_max_step(&beta, &dbeta)).min(soc_max_step(&eta, &deta));
            }
        }
        am
    }

    /// Largest complementarity residual of the node at μ = 0 (the products).
    pub fn complementarity(&self, re: &[f64], mu: f64) -> f64 {
        // E rows hold products − μ (orthant pairs, SOC first Jordan row) or cone-linear rows
        match self.kind {
            Kind::Frictionless => (re[0] + mu).abs(),
            Kind::Linear => {
                let mut m = (re[0] + mu).abs().max((re[2] + mu).abs());
                for i in 0..self.nt {
                    m = m.max((re[3 + i] + mu).abs());
                }
                m
            }
            Kind::Soc => (re[0] + mu).abs().max((re[2] + mu).abs()).max(re[3].abs()).max(re[4].abs()),
        }
    }

    /// (Sum of the complementarity products, their number) at y: the orthant pairs and the
    /// SOC's β·η (first Jordan row, whose central value is μ like an orthant pair's).
    pub fn products(&self, y: &[f64]) -> (f64, usize) {
        let nk = self.nk;
        let (k, e) = y.split_at(nk);
        let g = k[0] * e[0];
        match self.kind {
            Kind::Frictionless => (g, 1),
            Kind::Linear => {
                let nd = self.nt;
                let sum = (0..nd).map(|i| k[1 + i] * e[3 + i]).sum::<f64>();
                (g + e[1] * e[2] + sum, 2 + nd)
            }
            Kind::Soc => (g + e[1] * e[2] + k[1] * e[3] + k[2] * e[4], 2),
        }
    }

    /// Mehrotra's second-order term: adds the products of the predictor direction's
    /// complementarity partners, Δy_a∘Δy_b (Jordan product for the SOC), to the E rows.
    pub fn add_second_order(&self, dy: &[f64], re: &mut [f64]) {
        let nk = self.nk;
        let (k, e) = dy.split_at(nk);
        re[0] += k[0] * e[0];
        match self.kind {
            Kind::Frictionless => {}
            Kind::Linear => {
                re[2] += e[1] * e[2];
                for i in 0..self.nt {
                    re[3 + i] += k[1 + i] * e[3 + i];
                }
            }
            Kind::Soc => {
                let (b1, b2) = (k[1], k[2]);
                let (b0, e0, e1, e2) = (e[1], e[2], e[3], e[4]);
                re[2] += b0 * e0 + b1 * e1 + b2 * e2;
                re[3] += b0 * e1 + e0 * b1;
                re[4] += b0 * e2 + e0 * b2;
            }
        }
    }

    /// Largest residual of the E rows that are not complementarity rows (cone equalities).
    pub fn cone_equality(&self, re: &[f64]) -> f64 {
        match self.kind {
            Kind::Frictionless => 0.0,
            Kind::Linear | Kind::Soc => re[1].abs(),
        }
    }

    /// Friction force (world) of the node variables for the given tangent directions.
    pub fn friction_force(&self, y: &[f64], dirs: &[V3]) -> V3 {
        let mut f = V3::zeros();
        for i in 0..self.nt {
            f += dirs[i] * y[1 + i];
        }
        f
    }
}

/// Largest α > 0 with x + α dx in the second-order cone {x₀ ≥ |x₁:₂|}, x interior;
/// +∞ if the whole ray stays inside.
pub fn soc_max_step(x: &[f64; 3], dx: &[f64; 3]) -> f64 {
    let a = dx[0] * dx[0] - dx[1] * dx[1] - dx[2] * dx[2];
    let b = 2.0 * (x[0] * dx[0] - x[1] * dx[1] - x[2] * dx[2]);
    let c = x[0] * x[0] - x[1] * x[1] - x[2] * x[2];
    let mut am = f64::INFINITY;
    if a.abs() < 1e-300 {
        if b < 0.0 {
            am = -c / b;
        }
    } else {
        let disc = b * b - 4.0 * a * c;
        if disc >= 0.0 {
            let q = -0.5 * (b + disc.sqrt().copysign(b));
            for r in [q / a, if q != 0.0 { c / q } else { f64::INFINITY }] {
                if r > 0.0 {
                    am = am.min(r);
                }
            }
        }
    }
    if dx[0] < 0.0 {
        am = am.min(-x[0] / dx[0]);
    }
    am
}

/// Orthonormal tangent basis (t1, t2) of a unit normal, built from the normal itself: t1 is
/// the world x axis projected on the tangent plane (the y axis when n is close to x), so a
/// z normal gives (x, y) and a tilted plane gives its slope directions.
pub fn tangent_basis(n: &V3) -> (V3, V3) {
    let e = if n.x.abs() < 0.9 { V3::x() } else { V3::y() };
    let t1 = (e - n * n.dot(&e)).normalize();
    (t1, n.cross(&t1))
}

/// The nt friction directions of a contact (world): nd evenly spaced directions of the
/// linear cone (t1, t2, −t1, −t2 for 4), or (t1, t2) for the SOC.
pub fn directions(layout: &Layout, n: &V3, out: &mut [V3; MAX_DIRECTIONS]) {
    let (t1, t2) = tangent_basis(n);
    match layout.kind {
        Kind::Frictionless => {}
        Kind::Soc => {
            out[0] = t1;
            out[1] = t2;
        }
        Kind::Linear => {
            let nd = layout.nt;
            for (i, d) in out.iter_mut().enumerate().take(nd) {
                let th = 2.0 * std::f64::consts::PI * i as f64 / nd as f64;
                // exact axes for the quarter turns
                let (s, c) = match (4 * i) % nd {
                    0 if (4 * i) / nd == 1 => (1.0, 0.0),
                    0 if (4 * i) / nd == 2 => (0.0, -1.0),
                    0 if (4 * i) / nd == 3 => (-1.0, 0.0),
                    0 if i == 0 => (0.0, 1.0),
                    _ => th.sin_cos(),
                };
                *d = t1 * c + t2 * s;
            }
        }
    }
}
