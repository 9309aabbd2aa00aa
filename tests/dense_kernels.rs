//! The small dense kernels of the block LDU at the sizes compiled unrolled (1–7) and the
//! general ones (8, 9), against plain sums, with row swaps forced by a zero leading entry:
//! ‖A X − B‖∞ ≤ 1e-12 and products equal to 1e-14 (entries of order 1).

use maxdyn_scenes::graphs;

use graphs::Rng;
use maxdyn::math::dense::{gemm_sub, gemv_sub, lu_factor, lu_solve};

fn random(rng: &mut Rng, len: usize) -> Vec<f64> {
    (0..len).map(|_| rng.uniform()).collect()
}

#[test]
fn lu_solves_every_block_size_with_pivoting() {
    let mut rng = Rng(7);
    for n in 1..=9 {
        for m in 1..=7 {
            let mut a = random(&mut rng, n * n);
            for i in 0..n {
                a[i * n + i] += 2.0; // well conditioned …
            }
            if n > 1 {
                a[0] = 0.0; // … but the first pivot must be swapped in
            }
            let b = random(&mut rng, n * m);
            let (mut lu, mut piv, mut x) = (a.clone(), vec![0; n], b.clone());
            assert!(lu_factor(&mut lu, n, &mut piv), "n = {n}: factor failed");
            lu_solve(&lu, n, &piv, &mut x, m);
            let mut worst: f64 = 0.0;
            for i in 0..n {
                for c in 0..m {
                    let ax: f64 = (0..n).map(|l| a[i * n + l] * x[l * m + c]).sum();
                    worst = worst.max((ax - b[i * m + c]).abs());
                }
            }
            assert!(worst < 1e-12, "n = {n}, m = {m}: residual {worst:e}");
        }
    }
}

#[test]
fn lu_factor_reports_a_singular_block() {
    for n in 1..=9 {
        let mut a = vec![1.0; n * n]; // rank one
        if n == 1 {
            a[0] = 0.0;
        }
        assert!(!lu_factor(&mut a, n, &mut vec![0; n]), "n = {n}: singular block factored");
    }
}

#[test]
fn products_match_plain_sums_for_every_inner_size() {
    let mut rng = Rng(11);
    for k in 1..=9 {
        for (m, n) in [(1, 1), (3, 6), (6, 3), (7, 5)] {
            let (a, b, c0) = (random(&mut rng, m * k), random(&mut rng, k * n), random(&mut rng, m * n));
            let mut c = c0.clone();
            gemm_sub(&mut c, &a, &b, m, k, n);
            for i in 0..m {
                for j in 0..n {
                    let want = c0[i * n + j] - (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum::<f64>();
                    assert!((c[i * n + j] - want).abs() < 1e-14, "gemm k = {k}: {} vs {want}", c[i * n + j]);
                }
            }
            let x = random(&mut rng, k);
            let mut y = c0[..m].to_vec();
            gemv_sub(&mut y, &a, &x, m, k);
            for i in 0..m {
                let want = c0[i] - (0..k).map(|l| a[i * k + l] * x[l]).sum::<f64>();
                assert!((y[i] - want).abs() < 1e-14, "gemv k = {k}: {} vs {want}", y[i]);
            }
        }
    }
}
