//! The block LDU's kernels at compile-time block sizes. A step's blocks are a few rows
//! (bodies 6, joints 1–6 constraint rows, contact nodes 1–7), so each kernel is written
//! once with const-generic sizes and dispatched for every pair of sizes 1–7: the loops
//! unroll, rows are contiguous slices without bounds checks in the inner loops, and the
//! row-oriented updates vectorize. Larger blocks fall back to the any-size kernels of
//! [`dense`](super::dense).
//!
//! Every kernel performs the same floating-point operations in the same order as its
//! any-size counterpart, so results are bit-identical (the tests check equality).
//! The LU keeps the reciprocal of each pivot, computed once when the pivot is chosen:
//! the solves then multiply instead of dividing per row and column.

use super::dense;

/// Runs `$f::<A, B>(args)` with `A`, `B` the literal values of `$a`, `$b` when both are
/// 1–7, else `$fallback`.
macro_rules! by_two_sizes {
    ($a:expr, $b:expr, $f:ident $args:tt, $fallback:expr) => {
        by_two_sizes!(@outer $a, $b, $f, $args, $fallback, [1 2 3 4 5 6 7])
    };
    (@outer $a:expr, $b:expr, $f:ident, $args:tt, $fallback:expr, [$($x:literal)*]) => {
        match $a {
            $($x => by_two_sizes!(@inner $x, $b, $f, $args, $fallback, [1 2 3 4 5 6 7]),)*
            _ => $fallback,
        }
    };
    (@inner $x:literal, $b:expr, $f:ident, $args:tt, $fallback:expr, [$($y:literal)*]) => {
        match $b {
            $($y => $f::<$x, $y> $args,)*
            _ => $fallback,
        }
    };
}

/// Runs `$f::<A>(args)` with `A` the literal value of `$a` when it is 1–7, else `$fallback`.
macro_rules! by_size {
    ($a:expr, $f:ident $args:tt, $fallback:expr) => {
        by_size!(@arms $a, $f, $args, $fallback, [1 2 3 4 5 6 7])
    };
    (@arms $a:expr, $f:ident, $args:tt, $fallback:expr, [$($x:literal)*]) => {
        match $a {
            $($x => $f::<$x> $args,)*
            _ => $fallback,
        }
    };
}

/// `for $k in 0..$n { $body }` with the loop unrolled for $n ≤ 7 (a compile-time size),
/// so that loops nested in the body get compile-time bounds and unroll too.
macro_rules! unrolled_for {
    ($k:ident in 0..$n:expr => $body:block) => {
        unrolled_for!(@steps $k, $n, $body, [0 1 2 3 4 5 6])
    };
    (@steps $k:ident, $n:expr, $body:block, [$($x:literal)*]) => {
        $({
            let $k: usize = $x;
            if $k < $n $body
        })*
    };
}

/// In-place LU with partial pivoting of an n×n block (as [`dense::lu_factor`]), and
/// `inv[k]` = 1 / U_kk. Returns false on a zero or non-finite pivot.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize], inv: &mut [f64]) -> bool {
    by_size!(n, lu_factor_sized(a, piv, inv), {
        let ok = dense::lu_factor(a, n, piv);
        for k in 0..n {
            inv[k] = 1.0 / a[k * n + k];
        }
        ok
    })
}

// indices rather than iterators: with the pivot loop unrolled the bounds are constants
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn lu_factor_sized<const N: usize>(a: &mut [f64], piv: &mut [usize], inv: &mut [f64]) -> bool {
    let (piv, inv) = (&mut piv[..N], &mut inv[..N]);
    let a = a[..N * N].as_chunks_mut::<N>().0;
    unrolled_for!(k in 0..N => {
        let mut p = k;
        let mut best = a[k][k].abs();
        for i in k + 1..N {
            if a[i][k].abs() > best {
                best = a[i][k].abs();
                p = i;
            }
        }
        piv[k] = p;
        if best == 0.0 || !best.is_finite() {
            return false;
        }
        if p != k {
            a.swap(k, p);
        }
        let d = 1.0 / a[k][k];
        inv[k] = d;
        for i in k + 1..N {
            let f = a[i][k] * d;
            a[i][k] = f;
            if f != 0.0 {
                for j in k + 1..N {
                    a[i][j] -= f * a[k][j];
                }
            }
        }
    });
    true
}

/// Solves A X = B in place for B (n×m, row-major) with the factors of [`lu_factor`].
pub fn lu_solve(lu: &[f64], n: usize, piv: &[usize], inv: &[f64], b: &mut [f64], m: usize) {
    by_two_sizes!(n, m, lu_solve_sized(lu, piv, inv, b), dense::lu_solve(lu, n, piv, b, m))
}

/// Row-oriented: each step subtracts a multiple of a whole row of B (M columns at once),
/// so each entry sees the same operations in the same order as a column-by-column solve.
#[inline(always)]
fn lu_solve_sized<const N: usize, const M: usize>(lu: &[f64], piv: &[usize], inv: &[f64], b: &mut [f64]) {
    let (lu, piv, inv) = (lu[..N * N].as_chunks::<N>().0, &piv[..N], &inv[..N]);
    let b = b[..N * M].as_chunks_mut::<M>().0;
    unrolled_for!(k in 0..N => {
        if piv[k] != k {
            b.swap(k, piv[k]);
        }
    });
    // forward: unit lower triangle
    unrolled_for!(i in 0..N => {
        for l in 0..i {
            let (f, xl) = (lu[i][l], b[l]);
            for c in 0..M {
                b[i][c] -= f * xl[c];
            }
        }
    });
    // backward: upper triangle, times the reciprocal pivot
    unrolled_for!(r in 0..N => {
        let i = N - 1 - r;
        for l in i + 1..N {
            let (f, xl) = (lu[i][l], b[l]);
            for c in 0..M {
                b[i][c] -= f * xl[c];
            }
        }
        let d = inv[i];
        b[i].iter_mut().for_each(|x| *x *= d);
    });
}

/// c (m×n) −= a (m×k) · b (k×n).
pub fn gemm_sub(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
    // square updates are the common case (a tree's A_kk −= A_ki U_ik): rows unrolled too
    if m == n {
        return by_two_sizes!(k, n, gemm_sub_square(c, a, b), dense::gemm_sub(c, a, b, m, k, n));
    }
    by_two_sizes!(k, n, gemm_sub_sized(c, a, b, m), dense::gemm_sub(c, a, b, m, k, n))
}

/// `gemm_sub_sized` with M = N.
#[inline(always)]
fn gemm_sub_square<const K: usize, const N: usize>(c: &mut [f64], a: &[f64], b: &[f64]) {
    gemm_sub_sized::<K, N>(c, a, b, N)
}

/// Each row of c accumulates its products in a row of sums (vectorized over the
/// columns) before subtracting, as the dot-product form does per entry.
#[inline(always)]
fn gemm_sub_sized<const K: usize, const N: usize>(c: &mut [f64], a: &[f64], b: &[f64], m: usize) {
    let b = b[..K * N].as_chunks::<N>().0;
    let rows = c[..m * N].as_chunks_mut::<N>().0.iter_mut().zip(a[..m * K].as_chunks::<K>().0);
    for (ci, ai) in rows {
        let mut s = [0.0; N];
        for (&f, bl) in ai.iter().zip(b) {
            for j in 0..N {
                s[j] += f * bl[j];
            }
        }
        for j in 0..N {
            ci[j] -= s[j];
        }
    }
}

/// y (m) −= a (m×k) · x (k).
pub fn gemv_sub(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
    by_two_sizes!(m, k, gemv_sub_sized(y, a, x), dense::gemv_sub(y, a, x, m, k))
}

#[inline(always)]
fn gemv_sub_sized<const M: usize, const K: usize>(y: &mut [f64], a: &[f64], x: &[f64]) {
    let x: &[f64; K] = x[..K].try_into().unwrap();
    for (yi, ai) in y[..M].iter_mut().zip(a[..M * K].as_chunks::<K>().0) {
        let mut s = 0.0;
        for l in 0..K {
            s += ai[l] * x[l];
        }
        *yi -= s;
    }
}

/// Every pair of sizes 1–9 (compiled 1–7, fallback 8, 9) against the any-size kernels of
/// `dense`: the results must be bit-identical (same operations in the same order).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::dense::tests::{random, Rng};

    #[test]
    fn lu_equals_the_any_size_lu_bit_for_bit() {
        let mut rng = Rng(3);
        for n in 1..=9 {
            for m in 1..=9 {
                let mut a = random(&mut rng, n * n);
                for i in 0..n {
                    a[i * n + i] += 1.0;
                }
                if n > 1 {
                    a[0] = 0.0; // a row swap at the first pivot
                    a[n + 1] = 0.0; // a zero multiplier path
                }
                let b = random(&mut rng, n * m);
                let (mut lu, mut piv, mut inv, mut x) = (a.clone(), vec![0; n], vec![0.0; n], b.clone());
                let (mut lu0, mut piv0, mut x0) = (a.clone(), vec![0; n], b.clone());
                assert!(lu_factor(&mut lu, n, &mut piv, &mut inv) && dense::lu_factor(&mut lu0, n, &mut piv0));
                assert_eq!((&lu, &piv), (&lu0, &piv0), "n = {n}: factors differ");
                assert!((0..n).all(|k| inv[k] == 1.0 / lu[k * n + k]));
                lu_solve(&lu, n, &piv, &inv, &mut x, m);
                dense::lu_solve(&lu0, n, &piv0, &mut x0, m);
                assert_eq!(x, x0, "n = {n}, m = {m}: solutions differ");
            }
        }
    }

    #[test]
    fn lu_reports_a_singular_block() {
        for n in 1..=9 {
            let mut a = vec![1.0; n * n]; // rank one
            if n == 1 {
                a[0] = 0.0;
            }
            assert!(!lu_factor(&mut a, n, &mut vec![0; n], &mut vec![0.0; n]), "n = {n}");
        }
    }

    #[test]
    fn products_equal_the_any_size_products_bit_for_bit() {
        let mut rng = Rng(5);
        for k in 1..=9 {
            for n in 1..=9 {
                for m in [1, 3, 6, 8] {
                    let (a, b, c0) = (random(&mut rng, m * k), random(&mut rng, k * n), random(&mut rng, m * n));
                    let (mut c, mut c_ref) = (c0.clone(), c0.clone());
                    gemm_sub(&mut c, &a, &b, m, k, n);
                    dense::gemm_sub(&mut c_ref, &a, &b, m, k, n);
                    assert_eq!(c, c_ref, "gemm m = {m}, k = {k}, n = {n}");
                }
            }
            for m in 1..=9 {
                let (a, x, y0) = (random(&mut rng, m * k), random(&mut rng, k), random(&mut rng, m));
                let (mut y, mut y_ref) = (y0.clone(), y0.clone());
                gemv_sub(&mut y, &a, &x, m, k);
                dense::gemv_sub(&mut y_ref, &a, &x, m, k);
                assert_eq!(y, y_ref, "gemv m = {m}, k = {k}");
            }
        }
    }
}
