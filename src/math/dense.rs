//! Dense kernels on row-major `f64` slices of any size, allocation-free: the dense
//! reference solver of the tests, and the fallback of the block kernels
//! ([`block`](super::block)) for blocks larger than those compiled at fixed sizes.

/// c (m×n) −= a (m×k) · b (k×n).
pub fn gemm_sub(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
    let (c, a, b) = (&mut c[..m * n], &a[..m * k], &b[..k * n]);
    for i in 0..m {
        let ai = &a[i * k..i * k + k];
        for (j, cij) in c[i * n..i * n + n].iter_mut().enumerate() {
            let mut s = 0.0;
            for l in 0..k {
                s += ai[l] * b[l * n + j];
            }
            *cij -= s;
        }
    }
}

/// c (m×n) −= a (m×k) · b (k×n) for wide b (many right-hand sides): each row of c takes
/// multiples of whole rows of b, so the inner loop runs along n contiguous entries.
pub fn panel_sub(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
    let (c, a, b) = (&mut c[..m * n], &a[..m * k], &b[..k * n]);
    for (ci, ai) in c.chunks_exact_mut(n).zip(a.chunks_exact(k)) {
        for (bl, &f) in b.chunks_exact(n).zip(ai) {
            if f != 0.0 {
                for (x, y) in ci.iter_mut().zip(bl) {
                    *x -= f * y;
                }
            }
        }
    }
}

/// y (m) −= a (m×k) · x (k).
pub fn gemv_sub(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
    let (y, a, x) = (&mut y[..m], &a[..m * k], &x[..k]);
    for (i, yi) in y.iter_mut().enumerate() {
        let mut s = 0.0;
        for l in 0..k {
            s += a[i * k + l] * x[l];
        }
        *yi -= s;
    }
}

/// In-place LU with partial pivoting of an n×n block; `piv[i]` is the row swapped into i.
/// Returns false on an exactly zero pivot.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    let (a, piv) = (&mut a[..n * n], &mut piv[..n]);
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[i * n + k].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return false;
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let inv = 1.0 / a[k * n + k];
        for i in k + 1..n {
            let f = a[i * n + k] * inv;
            a[i * n + k] = f;
            // a zero multiplier leaves row i as it is (most rows of a sparse dense-reference
            // matrix)
            if f != 0.0 {
                for j in k + 1..n {
                    a[i * n + j] -= f * a[k * n + j];
                }
            }
        }
    }
    true
}

/// Solves A X = B in place for B (n×m, row-major) given the LU of A, row by row.
pub fn lu_solve(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], m: usize) {
    for k in 0..n {
        let p = piv[k];
        if p != k {
            let (head, tail) = b.split_at_mut(p * m);
            head[k * m..(k + 1) * m].swap_with_slice(&mut tail[..m]);
        }
    }
    // forward: unit lower triangle (rows as slices so the inner loops have no bounds checks)
    for i in 1..n {
        let (done, rest) = b.split_at_mut(i * m);
        let row = &mut rest[..m];
        for (l, &f) in lu[i * n..i * n + i].iter().enumerate() {
            if f != 0.0 {
                for (x, y) in row.iter_mut().zip(&done[l * m..(l + 1) * m]) {
                    *x -= f * y;
                }
            }
        }
    }
    // backward: upper triangle
    for i in (0..n).rev() {
        let (head, done) = b.split_at_mut((i + 1) * m);
        let row = &mut head[i * m..];
        for (l, &f) in lu[i * n + i + 1..(i + 1) * n].iter().enumerate() {
            if f != 0.0 {
                for (x, y) in row.iter_mut().zip(&done[l * m..(l + 1) * m]) {
                    *x -= f * y;
                }
            }
        }
        let d = 1.0 / lu[i * n + i];
        row.iter_mut().for_each(|x| *x *= d);
    }
}

/// The kernels against plain sums, with row swaps forced by a zero leading entry:
/// ‖A X − B‖∞ ≤ 1e-12 and products equal to 1e-14 (entries of order 1).
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// xorshift64*, uniform in [−1, 1).
    pub(crate) struct Rng(pub(crate) u64);

    impl Rng {
        pub(crate) fn uniform(&mut self) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }
    }

    pub(crate) fn random(rng: &mut Rng, len: usize) -> Vec<f64> {
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
}
