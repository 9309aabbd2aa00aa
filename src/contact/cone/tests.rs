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
fn rows(l: &Layout, y: &[f64], limit: Option<f64>) -> [f64; MAX_Y] {
    let bv = [0.3, -0.2, 0.1, 0.4, -0.5, 0.25, 0.05, -0.15, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let mut r = [0.0; MAX_Y];
    let (rk, re) = r.split_at_mut(l.nk);
    l.residual(y, 0.02, &bv, 0.7, limit, 0.01, 0.1, rk, re);
    r
}

#[test]
fn jacobian_matches_finite_differences_of_the_residual() {
    for l in LAYOUTS {
        for (frozen, limit) in [(false, None), (true, Some(1.3))] {
            let y = sample(&l);
            let ny = l.ny();
            let mut a = [f64::NAN; MAX_Y * MAX_Y];
            l.jacobian(&y, 0.7, frozen, 0.01, &mut a);
            let h = 1e-6;
            for c in 0..ny {
                let (mut up, mut dn) = (y, y);
                up[c] += h;
                dn[c] -= h;
                let (ru, rd) = (rows(&l, &up, limit), rows(&l, &dn, limit));
                for r in 0..ny {
                    let fd = (ru[r] - rd[r]) / (2.0 * h);
                    let an = a[r * ny + c];
                    assert!((an - fd).abs() < 1e-7 * (1.0 + fd.abs()), "{l:?} frozen {frozen}: ∂r{r}/∂y{c} analytic {an} fd {fd}");
                }
            }
        }
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
        l.residual(&y, 0.02, &bv, 0.7, None, 0.01, 0.1, &mut rk, &mut re);
        l.residual(&y, 0.02, &bv, 0.7, None, 0.01, 0.1 + 0.03, &mut rk, &mut re_new);
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
