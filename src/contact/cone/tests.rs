//! Each cone kind against finite differences of its own residual, its starting point, and
//! the barrier shift.

use super::*;

const LAYOUTS: [Layout; 4] = [
    Layout { kind: Kind::Frictionless, nt: 0, nk: 1, ne: 1 },
    Layout { kind: Kind::Linear, nt: 4, nk: 5, ne: 7 },
    Layout { kind: Kind::Linear, nt: 6, nk: 7, ne: 9 },
    Layout { kind: Kind::Soc, nt: 2, nk: 3, ne: 5 },
];

/// An interior point away from the centre: distinct positive values, small SOC tangents.
fn sample(l: &Layout) -> [f64; MAX_Y] {
    let mut y = [0.0; MAX_Y];
    l.init(&mut y);
    for (i, v) in y[..l.ny()].iter_mut().enumerate() {
        *v = if *v == 0.0 { 0.1 * (i as f64 - 3.5) / 4.0 } else { 0.5 + 0.13 * i as f64 };
    }
    y
}

/// [K rows; E rows] of the residual at y.
fn rows(l: &Layout, y: &[f64], law: FrictionLaw) -> [f64; MAX_Y] {
    let bv = [0.3, -0.2, 0.1, 0.4, -0.5, 0.25, 0.05, -0.15, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let mut r = [0.0; MAX_Y];
    let (rk, re) = r.split_at_mut(l.nk);
    l.residual(y, 0.02, &bv, 0.7, law, 0.01, 0.1, rk, re);
    r
}

/// Every row but the second-order cone's complementarity rows, whose Newton rows hold the
/// Nesterov–Todd scaling at the iterate (checked below).
#[test]
fn jacobian_matches_finite_differences_of_the_residual() {
    for l in LAYOUTS {
        for law in [FrictionLaw::Coulomb, FrictionLaw::Tresca(1.3), FrictionLaw::Relaxed] {
            let y = sample(&l);
            let ny = l.ny();
            let mut a = [f64::NAN; MAX_Y * MAX_Y];
            l.jacobian(&y, 0.7, law, 0.01, &mut a);
            let h = 1e-6;
            for c in 0..ny {
                let (mut up, mut dn) = (y, y);
                up[c] += h;
                dn[c] -= h;
                let (ru, rd) = (rows(&l, &up, law), rows(&l, &dn, law));
                for r in 0..ny {
                    if l.kind == Kind::Soc && r >= l.nk + 2 {
                        continue;
                    }
                    let fd = (ru[r] - rd[r]) / (2.0 * h);
                    let an = a[r * ny + c];
                    assert!((an - fd).abs() < 1e-7 * (1.0 + fd.abs()), "{l:?} {law:?}: ∂r{r}/∂y{c} analytic {an} fd {fd}");
                }
            }
        }
    }
}

/// The second-order cone's complementarity rows: the Newton rows are the derivative of
/// (W⁻¹β)∘(Wη) with the scaling W held at the iterate, and the residual λ∘λ − μe
/// vanishes where β∘η = μe.
#[test]
fn soc_complementarity_rows_are_the_scaled_newton_rows() {
    use super::nt_scaling::{jordan, NtScaling};
    let l = LAYOUTS[3];
    let nk = l.nk;
    let y = sample(&l);
    let pair = |y: &[f64]| ([y[nk + 1], y[1], y[2]], [y[nk + 2], y[nk + 3], y[nk + 4]]);
    let (beta, eta) = pair(&y);
    let w = NtScaling::of(&beta, &eta);
    let frozen = |y: &[f64]| {
        let (b, e) = pair(y);
        jordan(&w.apply_inverse(&b), &w.apply(&e))
    };
    let mut a = [f64::NAN; MAX_Y * MAX_Y];
    l.jacobian(&y, 0.7, FrictionLaw::Coulomb, 0.01, &mut a);
    let (ny, h) = (l.ny(), 1e-6);
    for c in 0..ny {
        let (mut up, mut dn) = (y, y);
        up[c] += h;
        dn[c] -= h;
        let (fu, fd) = (frozen(&up), frozen(&dn));
        for r in 0..3 {
            let num = (fu[r] - fd[r]) / (2.0 * h);
            let an = a[(nk + 2 + r) * ny + c];
            assert!((an - num).abs() < 1e-8 * (1.0 + num.abs()), "row {r} column {c}: {an} vs {num}");
        }
    }
    // on the central path: η = μ β⁻¹ (Jordan inverse)
    let mu = 0.05;
    let det = beta[0] * beta[0] - beta[1] * beta[1] - beta[2] * beta[2];
    let mut c = y;
    (c[nk + 2], c[nk + 3], c[nk + 4]) = (mu * beta[0] / det, -mu * beta[1] / det, -mu * beta[2] / det);
    let r = rows(&l, &c, FrictionLaw::Coulomb);
    for row in nk + 2..nk + 5 {
        let target = if row == nk + 2 { 0.1 - mu } else { 0.0 };
        assert!((r[row] + target).abs() < 1e-15, "row {row}: {}", r[row]);
    }
}

#[test]
fn init_is_strictly_interior_and_centred() {
    for l in LAYOUTS {
        let mut y = [f64::NAN; MAX_Y];
        l.init(&mut y);
        let y = &y[..l.ny()];
        assert!(y.iter().all(|v| v.is_finite()), "{l:?}: {y:?}");
        // the whole way to the origin stays inside and reaches the boundary at α = 1
        let dy: Vec<f64> = y.iter().map(|v| -v).collect();
        assert_eq!(l.max_step(y, &dy, f64::INFINITY), 1.0, "{l:?}");
        assert!(l.max_step(y, &dy, 0.5) == 0.5);
        if l.kind == Kind::Soc {
            let nk = l.nk;
            for cone in [[y[nk + 1], y[1], y[2]], [y[nk + 2], y[nk + 3], y[nk + 4]]] {
                assert_eq!(cone, [1.0, 0.0, 0.0]);
            }
            assert!(y[0] > 0.0 && y[nk] > 0.0);
        } else {
            assert!(y.iter().all(|&v| v == 1.0), "{l:?}: {y:?}");
        }
        // at the centre every product equals 1 (the barrier's central value for μ = 1)
        let (sum, count) = l.products(y);
        assert_eq!(sum, count as f64, "{l:?}");
    }
}

#[test]
fn shift_barrier_equals_evaluation_at_the_new_barrier() {
    let bv = [0.1; MAX_DIRECTIONS];
    for l in LAYOUTS {
        let y = sample(&l);
        let (mut rk, mut re, mut re_new) = ([0.0; MAX_Y], [0.0; MAX_Y], [0.0; MAX_Y]);
        l.residual(&y, 0.02, &bv, 0.7, FrictionLaw::Coulomb, 0.01, 0.1, &mut rk, &mut re);
        l.residual(&y, 0.02, &bv, 0.7, FrictionLaw::Coulomb, 0.01, 0.1 + 0.03, &mut rk, &mut re_new);
        l.shift_barrier(&mut re, 0.03);
        for i in 0..l.ne {
            assert!((re[i] - re_new[i]).abs() < 1e-15, "{l:?} row {i}: {} vs {}", re[i], re_new[i]);
        }
    }
}

#[test]
fn linear_directions_are_exact_on_the_quarter_turns() {
    let l = LAYOUTS[1];
    let mut d = [V3::zeros(); MAX_DIRECTIONS];
    directions(&l, &V3::z(), &mut d);
    assert_eq!(&d[..4], &[V3::x(), V3::y(), -V3::x(), -V3::y()]);
    directions(&LAYOUTS[3], &V3::z(), &mut d);
    assert_eq!(&d[..2], &[V3::x(), V3::y()]);
}

/// β and η of a second-order cone node's y (β = (E1, K1, K2), η = (E2, E3, E4)).
fn soc_pair(y: &[f64]) -> ([f64; 3], [f64; 3]) {
    ([y[4], y[1], y[2]], [y[5], y[6], y[7]])
}

/// A second-order cone node on the central path at `mu_end` with frame û = (cos θ, sin θ)
/// and eigenvalues β: (lb1, lb2), η: (le1, le2) where each pair multiplies to `mu_end`.
fn soc_solution(theta: f64, lb: [f64; 2], le: [f64; 2]) -> [f64; MAX_Y] {
    let u = [theta.cos(), theta.sin()];
    let mut y = [0.0; MAX_Y];
    (y[0], y[3]) = (30.0, 1e-10);
    let half = |l: [f64; 2]| [0.5 * (l[0] + l[1]), 0.5 * (l[0] - l[1]) * u[0], 0.5 * (l[0] - l[1]) * u[1]];
    let (b, e) = (half(lb), half(le));
    (y[4], y[1], y[2]) = (b[0], b[1], b[2]);
    (y[5], y[6], y[7]) = (e[0], e[1], e[2]);
    y
}

/// A warm start of a second-order cone puts β and η on the central path at μ
/// (β∘η = μ(1, 0, 0), both strictly inside), and a sliding contact keeps both its friction
/// force (β's axis, within μ-sized terms) and its slip, which becomes the slip at the
/// iterate: η's tangent part equals it exactly, turned and grown as the iterate has it.
#[test]
fn soc_warm_start_keeps_a_sliding_contacts_force_and_takes_the_slip_at_the_iterate() {
    let l = LAYOUTS[3];
    let mu_end = 1e-9;
    // sliding: friction 6 N on the cone's boundary along û, slip 0.7 m/s along −û
    let (force, speed) = (6.0, 0.7);
    let mut y = soc_solution(0.3, [2.0 * force, mu_end / (2.0 * speed)], [mu_end / (2.0 * force), 2.0 * speed]);
    // the slip at the iterate: turned by 0.2 rad, 10 % faster
    let slip = [-0.77 * (0.5f64).cos(), -0.77 * (0.5f64).sin()];
    let mu = 2e-5;
    l.centre(&mut y, 0.0, &slip, mu);
    let (beta, eta) = soc_pair(&y);
    let j = jordan_product(&beta, &eta);
    // to the rounding of products of terms of size β₀η₀ ≈ 5 (measured 8.9e-16)
    assert!((j[0] - mu).abs() < 1e-14 && j[1].abs() < 1e-14 && j[2].abs() < 1e-14, "{j:?}");
    for x in [beta, eta] {
        assert!(x[0] > x[1].hypot(x[2]), "{x:?} not strictly inside");
    }
    assert!((beta[0] - force).abs() < 1e-4, "force {}", beta[0]);
    assert_eq!([eta[1], eta[2]], slip, "slip");
    // β's tangent part opposes the new slip
    let cos = -(beta[1] * slip[0] + beta[2] * slip[1]) / (beta[1].hypot(beta[2]) * 0.77);
    assert!((cos - 1.0).abs() < 1e-14, "{cos}");
}

/// A sticking contact (η = 0 at the solution, β inside the cone) keeps its friction force
/// exactly, and η becomes μ times β's Jordan inverse; a contact that was left out (all
/// zero) starts at √μ on the cones' axis.
#[test]
fn soc_warm_start_keeps_a_sticking_force_and_starts_a_left_out_contact_on_the_axis() {
    let l = LAYOUTS[3];
    let mu = 2e-5;
    let mut y = soc_solution(-1.1, [9.0, 3.0], [1e-9 / 9.0, 1e-9 / 3.0]);
    let (before, _) = soc_pair(&y);
    l.centre(&mut y, 0.0, &[1e-7, -2e-7], mu);
    let (beta, eta) = soc_pair(&y);
    for k in 0..3 {
        assert!((beta[k] - before[k]).abs() < 1e-15 * 9.0, "{beta:?} vs {before:?}");
    }
    let det = beta[0] * beta[0] - beta[1] * beta[1] - beta[2] * beta[2];
    let inverse = [mu * beta[0] / det, -mu * beta[1] / det, -mu * beta[2] / det];
    for k in 0..3 {
        assert!((eta[k] - inverse[k]).abs() < 1e-15, "{eta:?} vs {inverse:?}");
    }
    let mut y = [0.0; MAX_Y];
    l.centre(&mut y, 0.01, &[0.0, 0.0], mu);
    let (beta, eta) = soc_pair(&y);
    assert_eq!(beta, [mu.sqrt(), 0.0, 0.0]);
    assert_eq!(eta, [mu.sqrt(), 0.0, 0.0]);
}

/// The Jordan product x∘y = (xᵀy, x₀ y_r + y₀ x_r).
fn jordan_product(x: &[f64; 3], y: &[f64; 3]) -> [f64; 3] {
    [x[0] * y[0] + x[1] * y[1] + x[2] * y[2], x[0] * y[1] + y[0] * x[1], x[0] * y[2] + y[0] * x[2]]
}

/// A friction force near its cone's boundary (eigenvalues 104 and 2.4e-3, a sliding foot's
/// at barrier 5e-3) asked to turn by 0.3 rad: on the straight line it leaves the cone after
/// α ≈ 0.03 (√(λ₁λ₂)/(x₀ θ)), along its arc not before a full step; the arc's eigenvalues are
/// linear in α, it turns to the chord, and its tangent at α = 0 is the direction.
#[test]
fn soc_arc_turns_a_boundary_point_without_spending_its_small_eigenvalue() {
    use super::soc::{cone_trial, cone_trial_max_step, soc_max_step};
    let (big, small, theta) = (104.0, 2.4e-3, 0.3);
    let x = [0.5 * (big + small), 0.5 * (big - small), 0.0];
    // a turn of the tangent part by θ, axis and tangent length shrinking alike (the small
    // eigenvalue stays)
    let dx = [-0.5, -0.5, x[1] * theta];
    let line = soc_max_step(&x, &dx);
    let arc = cone_trial_max_step(&x, &dx);
    println!("max step on the line {line:.4e}, on the arc {arc:.4e}");
    assert!(line < 0.05 && arc > 1.0, "{line} {arc}");
    let rho = x[1].hypot(x[2]);
    let drho = (x[1] * dx[1] + x[2] * dx[2]) / rho;
    for alpha in [0.25, 0.5, 1.0] {
        let p = cone_trial(&x, &dx, alpha);
        let r = p[1].hypot(p[2]);
        // both eigenvalues on their straight lines, the frame along the chord
        assert!((p[0] - r - (x[0] - rho + alpha * (dx[0] - drho))).abs() < 1e-12 * big);
        assert!((p[0] + r - (x[0] + rho + alpha * (dx[0] + drho))).abs() < 1e-12 * big);
        assert!((p[2].atan2(p[1]) - (alpha * dx[2]).atan2(x[1] + alpha * dx[1])).abs() < 1e-14);
        assert!(p[0] - r > 0.0);
    }
    let h = 1e-7;
    let (p, m) = (cone_trial(&x, &dx, h), cone_trial(&x, &dx, -h));
    for k in 0..3 {
        let d = (p[k] - m[k]) / (2.0 * h);
        assert!((d - dx[k]).abs() < 1e-6 * (1.0 + dx[k].abs()), "component {k}: {d} vs {}", dx[k]);
    }
    // near the axis a variable keeps the straight line
    let axis = [1.0, 0.1, 0.0];
    let q = cone_trial(&axis, &dx, 0.01);
    for k in 0..3 {
        assert_eq!(q[k], axis[k] + 0.01 * dx[k]);
    }
    assert_eq!(cone_trial_max_step(&axis, &dx), soc_max_step(&axis, &dx));
}

/// Without arcs (a warm-started solve) the trial point of every kind is y + α dy.
#[test]
fn trial_without_arcs_is_the_straight_step() {
    for l in LAYOUTS {
        let y = sample(&l);
        let mut dy = [0.0; MAX_Y];
        for (i, d) in dy[..l.ny()].iter_mut().enumerate() {
            *d = 0.01 * (i as f64 - 2.0);
        }
        let mut t = [0.0; MAX_Y];
        l.trial(&y, &dy, 0.7, false, &mut t);
        for i in 0..l.ny() {
            assert_eq!(t[i], y[i] + 0.7 * dy[i]);
        }
        assert_eq!(l.max_trial_step(&y, &dy, false, 1.0), l.max_step(&y, &dy, 1.0));
    }
}
