//! The linearized cone with nd directions d_i, y = [γ, β | s_φ, ψ, s_ψ, η]:
//!   K: bv_i + ψ − η_i
//!   E: s_ψ − (μ_f γ − Σβ);  ψ s_ψ − μ;  β_i η_i − μ
//! (paper eq. "friction NCP", appendix C), after the normal pair.

use super::ConeKind;
use crate::math::V3;

pub struct Linear {
    /// Number of friction directions (even, ≥ 2).
    pub nd: usize,
}

impl Linear {
    fn nk(&self) -> usize {
        1 + self.nd
    }
}

impl ConeKind for Linear {
    fn init(&self, _y: &mut [f64]) {}

    /// Forces β_i and the cone slack s_ψ by γ; slips η_i and the sliding speed ψ by 1/γ.
    fn scale(&self, y: &mut [f64], gamma: f64) {
        let nk = self.nk();
        let (k, e) = y.split_at_mut(nk);
        k[1..].iter_mut().for_each(|b| *b *= gamma);
        e[1] /= gamma;
        e[2] *= gamma;
        e[3..3 + self.nd].iter_mut().for_each(|v| *v /= gamma);
    }

    /// (ψ, s_ψ) and each (β_i, η_i).
    fn centre(&self, y: &mut [f64], _slip: &[f64], mu: f64) {
        let nk = self.nk();
        let (k, e) = y.split_at_mut(nk);
        let (psi, rest) = e[1..].split_first_mut().unwrap();
        super::centre_pair(psi, &mut rest[0], mu);
        for i in 0..self.nd {
            super::centre_pair(&mut k[1 + i], &mut e[3 + i], mu);
        }
    }

    fn residual(&self, k: &[f64], e: &[f64], bv: &[f64], bound: f64, mu: f64, rk: &mut [f64], re: &mut [f64]) {
        let nd = self.nd;
        let beta = &k[1..1 + nd];
        let (psi, spsi) = (e[1], e[2]);
        let eta = &e[3..3 + nd];
        let mut sum = 0.0;
        for i in 0..nd {
            rk[1 + i] = bv[i] + psi - eta[i];
            sum += beta[i];
            re[3 + i] = beta[i] * eta[i] - mu;
        }
        re[1] = spsi - (bound - sum);
        re[2] = psi * spsi - mu;
    }

    fn shift_barrier(&self, re: &mut [f64], d: f64) {
        re[2] -= d;
        re[3..3 + self.nd].iter_mut().for_each(|r| *r -= d);
    }

    fn jacobian(&self, k: &[f64], e: &[f64], mu_f_gamma: f64, a: &mut [f64]) {
        let nk = self.nk();
        let ny = nk + 3 + self.nd;
        let mut set = |r: usize, c: usize, v: f64| a[r * ny + c] = v;
        let ie = |i: usize| nk + i; // index of E variable / E row i
        let (psi, spsi) = (e[1], e[2]);
        for i in 0..self.nd {
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

    fn max_step(&self, y: &[f64], dy: &[f64], limit: f64) -> f64 {
        let ny = self.nk() + 3 + self.nd;
        super::orthant_max_step(&y[..ny], &dy[..ny], limit)
    }

    fn complementarity(&self, re: &[f64], mu: f64) -> f64 {
        let mut m = (re[0] + mu).abs().max((re[2] + mu).abs());
        for i in 0..self.nd {
            m = m.max((re[3 + i] + mu).abs());
        }
        m
    }

    fn products(&self, y: &[f64]) -> (f64, usize) {
        let nd = self.nd;
        let (k, e) = y.split_at(self.nk());
        let sum = (0..nd).map(|i| k[1 + i] * e[3 + i]).sum::<f64>();
        (k[0] * e[0] + e[1] * e[2] + sum, 2 + nd)
    }

    fn add_second_order(&self, _y: &[f64], k: &[f64], e: &[f64], re: &mut [f64]) {
        re[2] += e[1] * e[2];
        for i in 0..self.nd {
            re[3 + i] += k[1 + i] * e[3 + i];
        }
    }

    fn cone_equality(&self, re: &[f64]) -> f64 {
        re[1].abs()
    }

    /// nd evenly spaced directions from t1 (t1, t2, −t1, −t2 for 4).
    fn directions(&self, t1: &V3, t2: &V3, out: &mut [V3]) {
        let nd = self.nd;
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

    fn slip_speed(&self) -> Option<usize> {
        Some(1)
    }
}
