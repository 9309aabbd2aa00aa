//! The A1 three-link loop in minimal (absolute-angle) coordinates, integrated by explicit
//! RK4 with the loop enforced only at the acceleration level (index-reduced DAE with
//! Lagrange multipliers, no Baumgarte, no projection): the comparison for the variational
//! integrator's loop drift (`examples/loop_drift.rs`, `tests/long_horizon.rs`).

use nalgebra::{Matrix2x3, Matrix3, SMatrix, SVector, Vector2, Vector3};
use std::f64::consts::{FRAC_1_SQRT_2, PI};

/// The initial angles and rates of `mechanisms::three_link_loop` (at rest).
pub fn initial_state() -> (Vector3<f64>, Vector3<f64>) {
    let t1 = 2.842889445268244;
    (Vector3::new(t1, t1 - 1.209429202890086, PI), Vector3::zeros())
}

const G: f64 = 9.81;
const L: [f64; 3] = [1.0, FRAC_1_SQRT_2, 1.0];

/// Direction of a link hanging along its body −z, rotated by θ about x, in (y, z).
fn u(t: f64) -> Vector2<f64> {
    Vector2::new(t.sin(), -t.cos())
}
fn du(t: f64) -> Vector2<f64> {
    Vector2::new(t.cos(), t.sin())
}

/// Centre of link i = const + Σ_k a[i][k] u(θ_k): link 1 from the origin, link 2 from
/// link 1's tip, link 3 from the world point (y, z) = (1, 0).
const A: [[f64; 3]; 3] = [[0.5, 0.0, 0.0], [1.0, FRAC_1_SQRT_2 / 2.0, 0.0], [0.0, 0.0, 0.5]];

/// Loop closure Φ(θ) = tip of link 2 − tip of link 3 (2 rows), and φ_k with
/// Φ = Σ φ_k u(θ_k) − (1, 0).
const PHI: [f64; 3] = [L[0], L[1], -L[2]];

pub fn closure(th: &Vector3<f64>) -> Vector2<f64> {
    (0..3).map(|k| PHI[k] * u(th[k])).sum::<Vector2<f64>>() - Vector2::new(1.0, 0.0)
}

/// θ̈ from M θ̈ + h = Φ_θᵀ λ, Φ_θ θ̈ = Σ φ_k u_k θ̇_k² (acceleration-level constraint).
fn acceleration(th: &Vector3<f64>, om: &Vector3<f64>) -> Vector3<f64> {
    let mut m = Matrix3::zeros();
    let mut h = Vector3::zeros();
    for i in 0..3 {
        let mass = L[i];
        // ∂c_i/∂θ (2×3) and the velocity-product part of c̈_i
        let mut jac = Matrix2x3::zeros();
        let mut quad = Vector2::zeros();
        for k in 0..3 {
            jac.set_column(k, &(A[i][k] * du(th[k])));
            quad -= A[i][k] * u(th[k]) * om[k] * om[k];
        }
        m += mass * jac.transpose() * jac;
        h += mass * jac.transpose() * quad;
        h += mass * G * jac.transpose() * Vector2::new(0.0, 1.0); // ∂V/∂θ, V = m g z
        m[(i, i)] += mass * (0.01 + L[i] * L[i]) / 12.0; // Box(0.1, 0.1, l) about x
    }
    let mut phi_t = Matrix2x3::zeros();
    let mut gamma = Vector2::zeros();
    for k in 0..3 {
        phi_t.set_column(k, &(PHI[k] * du(th[k])));
        gamma += PHI[k] * u(th[k]) * om[k] * om[k];
    }
    let mut kkt = SMatrix::<f64, 5, 5>::zeros();
    kkt.fixed_view_mut::<3, 3>(0, 0).copy_from(&m);
    kkt.fixed_view_mut::<3, 2>(0, 3).copy_from(&(-phi_t.transpose()));
    kkt.fixed_view_mut::<2, 3>(3, 0).copy_from(&phi_t);
    let mut rhs = SVector::<f64, 5>::zeros();
    rhs.fixed_rows_mut::<3>(0).copy_from(&(-h));
    rhs.fixed_rows_mut::<2>(3).copy_from(&gamma);
    let sol = kkt.lu().solve(&rhs).expect("regular KKT");
    sol.fixed_rows::<3>(0).into_owned()
}

pub fn rk4(th: &mut Vector3<f64>, om: &mut Vector3<f64>, dt: f64) {
    let f = |t: &Vector3<f64>, o: &Vector3<f64>| (*o, acceleration(t, o));
    let (k1t, k1o) = f(th, om);
    let (k2t, k2o) = f(&(*th + 0.5 * dt * k1t), &(*om + 0.5 * dt * k1o));
    let (k3t, k3o) = f(&(*th + 0.5 * dt * k2t), &(*om + 0.5 * dt * k2o));
    let (k4t, k4o) = f(&(*th + dt * k3t), &(*om + dt * k3o));
    *th += dt / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t);
    *om += dt / 6.0 * (k1o + 2.0 * k2o + 2.0 * k3o + k4o);
}

pub fn rk4_energy(th: &Vector3<f64>, om: &Vector3<f64>) -> f64 {
    let mut e = 0.0;
    for i in 0..3 {
        let mut v = Vector2::zeros();
        let mut c = Vector2::zeros();
        for k in 0..3 {
            v += A[i][k] * du(th[k]) * om[k];
            c += A[i][k] * u(th[k]);
        }
        if i == 2 {
            c += Vector2::new(1.0, 0.0);
        }
        e += 0.5 * L[i] * v.norm_squared() + 0.5 * L[i] * (0.01 + L[i] * L[i]) / 12.0 * om[i] * om[i] + L[i] * G * c.y;
    }
    e
}
