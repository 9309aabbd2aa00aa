//! Nesterov–Todd scaling of the second-order cone's complementarity pair.

/// Nesterov–Todd scaling of a pair (s, z) inside the second-order cone: the symmetric
/// W = ω (2 w wᵀ − J) (J = diag(1, −1, −1), wᵀJw = 1) with W z = W⁻¹ s =: λ, so that
/// s∘z = μe exactly when λ∘λ = μe, and the linearized complementarity
/// λ∘(W⁻¹Δs + WΔz) = μe − λ∘λ is symmetric in s and z (Vandenberghe, "The CVXOPT linear
/// and quadratic cone program solvers", sec. on second-order cones).
#[derive(Debug, Clone, Copy)]
pub struct NtScaling {
    w: [f64; 3],
    omega: f64,
}

fn jdet(x: &[f64; 3]) -> f64 {
    x[0] * x[0] - x[1] * x[1] - x[2] * x[2]
}

impl NtScaling {
    pub fn of(s: &[f64; 3], z: &[f64; 3]) -> NtScaling {
        let (ns, nz) = (jdet(s).sqrt(), jdet(z).sqrt());
        let sb = [s[0] / ns, s[1] / ns, s[2] / ns];
        let zb = [z[0] / nz, z[1] / nz, z[2] / nz];
        let gamma = ((1.0 + sb[0] * zb[0] + sb[1] * zb[1] + sb[2] * zb[2]) / 2.0).sqrt();
        let w = [(sb[0] + zb[0]) / (2.0 * gamma), (sb[1] - zb[1]) / (2.0 * gamma), (sb[2] - zb[2]) / (2.0 * gamma)];
        let omega = (ns / nz).sqrt();
        NtScaling { w, omega }
    }

    /// W x = ω [w₀ x₀ + w_rᵀx_r; w_r x₀ + x_r + w_r (w_rᵀx_r)/(1 + w₀)].
    pub fn apply(&self, x: &[f64; 3]) -> [f64; 3] {
        self.map(x, 1.0, self.omega)
    }

    /// W⁻¹ x = J W J x / ω².
    pub fn apply_inverse(&self, x: &[f64; 3]) -> [f64; 3] {
        self.map(x, -1.0, 1.0 / self.omega)
    }

    fn map(&self, x: &[f64; 3], sign: f64, scale: f64) -> [f64; 3] {
        let w = &self.w;
        let wrx = w[1] * x[1] + w[2] * x[2];
        let k = wrx / (1.0 + w[0]) + sign * x[0];
        [scale * (w[0] * x[0] + sign * wrx), scale * (x[1] + w[1] * k), scale * (x[2] + w[2] * k)]
    }
}

/// The Jordan product x∘y = (xᵀy, x₀ y_r + y₀ x_r).
pub fn jordan(x: &[f64; 3], y: &[f64; 3]) -> [f64; 3] {
    [x[0] * y[0] + x[1] * y[1] + x[2] * y[2], x[0] * y[1] + y[0] * x[1], x[0] * y[2] + y[0] * x[2]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nt_scaling_maps_both_to_one_point() {
        let s = [2.0, 0.7, -1.1];
        let z = [1.5, -0.4, 0.9];
        let nt = NtScaling::of(&s, &z);
        let (a, b) = (nt.apply(&z), nt.apply_inverse(&s));
        for k in 0..3 {
            assert!((a[k] - b[k]).abs() < 1e-14, "{a:?} {b:?}");
        }
        // W W⁻¹ = I
        let x = [0.3, -0.2, 0.5];
        let y = nt.apply(&nt.apply_inverse(&x));
        for k in 0..3 {
            assert!((x[k] - y[k]).abs() < 1e-14);
        }
        // λᵀλ = sᵀz
        let l = a;
        assert!((jordan(&l, &l)[0] - jordan(&s, &z)[0]).abs() < 1e-13);
    }
}
