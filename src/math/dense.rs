//! Small dense kernels on row-major `f64` slices, allocation-free. They serve the
//! block LDU (each block is a few rows) and the dense reference solver of the tests.
//! Each kernel is written once for a size argument and called with that size as a
//! literal for the block sizes of a step (`by_block_size!`), so the compiler unrolls it
//! for them (B2 at n = 64: 1197 → 988 ms per 500 steps).

/// Runs `$body` with `$k` bound to `$n`, as a literal for 1–7 (joints 1–6, bodies 6,
/// contacts up to 7 rows) so that inlined kernels are compiled for each of these sizes.
macro_rules! by_block_size {
    ($n:expr, $k:ident => $body:expr) => {
        match $n {
            1 => { let $k = 1; $body }
            2 => { let $k = 2; $body }
            3 => { let $k = 3; $body }
            4 => { let $k = 4; $body }
            5 => { let $k = 5; $body }
            6 => { let $k = 6; $body }
            7 => { let $k = 7; $body }
            $k => $body,
        }
    };
}

/// c (m×n) −= a (m×k) · b (k×n).
pub fn gemm_sub(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
    by_block_size!(k, k => gemm_sub_sized(c, a, b, m, k, n))
}

#[inline(always)]
fn gemm_sub_sized(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
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

/// y (m) −= a (m×k) · x (k).
pub fn gemv_sub(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
    by_block_size!(k, k => gemv_sub_sized(y, a, x, m, k))
}

#[inline(always)]
fn gemv_sub_sized(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
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
    by_block_size!(n, n => lu_factor_sized(a, n, piv))
}

#[inline(always)]
fn lu_factor_sized(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
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

/// Solves A X = B in place for B (n×m, row-major) given the LU of A: block sizes one
/// column at a time in registers, larger matrices row by row.
pub fn lu_solve(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], m: usize) {
    by_block_size!(n, n => if n <= MAX_BLOCK { lu_solve_block(lu, n, piv, b, m) } else { lu_solve_any(lu, n, piv, b, m) })
}

/// Largest block solved in registers.
const MAX_BLOCK: usize = 7;

#[inline(always)]
fn lu_solve_block(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], m: usize) {
    let (lu, piv) = (&lu[..n * n], &piv[..n]);
    assert!(b.len() >= n * m);
    let mut x = [0.0; MAX_BLOCK];
    for c in 0..m {
        for i in 0..n {
            x[i] = b[i * m + c];
        }
        for (k, &p) in piv.iter().enumerate() {
            x.swap(k, p);
        }
        for i in 1..n {
            let mut s = x[i];
            for l in 0..i {
                s -= lu[i * n + l] * x[l];
            }
            x[i] = s;
        }
        for i in (0..n).rev() {
            let mut s = x[i];
            for l in i + 1..n {
                s -= lu[i * n + l] * x[l];
            }
            x[i] = s * (1.0 / lu[i * n + i]);
        }
        for i in 0..n {
            b[i * m + c] = x[i];
        }
    }
}

/// `lu_solve` for any n.
fn lu_solve_any(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], m: usize) {
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
