//! Small dense kernels on row-major `f64` slices, allocation-free. They serve the
//! block LDU (each block is a few rows) and the dense reference solver of the tests.

/// c (m×n) −= a (m×k) · b (k×n). The inner sizes of a step's blocks (1–7) are unrolled.
#[inline]
pub fn gemm_sub(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
    match k {
        1 => gemm_sub_fixed::<1>(c, a, b, m, n),
        2 => gemm_sub_fixed::<2>(c, a, b, m, n),
        3 => gemm_sub_fixed::<3>(c, a, b, m, n),
        4 => gemm_sub_fixed::<4>(c, a, b, m, n),
        5 => gemm_sub_fixed::<5>(c, a, b, m, n),
        6 => gemm_sub_fixed::<6>(c, a, b, m, n),
        7 => gemm_sub_fixed::<7>(c, a, b, m, n),
        _ => gemm_sub_any(c, a, b, m, k, n),
    }
}

/// `gemm_sub` for k = K.
fn gemm_sub_fixed<const K: usize>(c: &mut [f64], a: &[f64], b: &[f64], m: usize, n: usize) {
    let (c, a, b) = (&mut c[..m * n], &a[..m * K], &b[..K * n]);
    for i in 0..m {
        let ai = &a[i * K..i * K + K];
        let ci = &mut c[i * n..i * n + n];
        for (j, cij) in ci.iter_mut().enumerate() {
            let mut s = 0.0;
            for l in 0..K {
                s += ai[l] * b[l * n + j];
            }
            *cij -= s;
        }
    }
}

/// `gemm_sub` for any k.
fn gemm_sub_any(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
    for i in 0..m {
        let ci = &mut c[i * n..(i + 1) * n];
        for l in 0..k {
            let ail = a[i * k + l];
            if ail == 0.0 {
                continue;
            }
            let bl = &b[l * n..(l + 1) * n];
            for j in 0..n {
                ci[j] -= ail * bl[j];
            }
        }
    }
}

/// y (m) −= a (m×k) · x (k), unrolled like `gemm_sub`.
#[inline]
pub fn gemv_sub(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
    match k {
        1 => gemv_sub_fixed::<1>(y, a, x, m),
        2 => gemv_sub_fixed::<2>(y, a, x, m),
        3 => gemv_sub_fixed::<3>(y, a, x, m),
        4 => gemv_sub_fixed::<4>(y, a, x, m),
        5 => gemv_sub_fixed::<5>(y, a, x, m),
        6 => gemv_sub_fixed::<6>(y, a, x, m),
        7 => gemv_sub_fixed::<7>(y, a, x, m),
        _ => gemv_sub_any(y, a, x, m, k),
    }
}

fn gemv_sub_fixed<const K: usize>(y: &mut [f64], a: &[f64], x: &[f64], m: usize) {
    let (y, a, x) = (&mut y[..m], &a[..m * K], &x[..K]);
    for (i, yi) in y.iter_mut().enumerate() {
        let mut s = 0.0;
        for l in 0..K {
            s += a[i * K + l] * x[l];
        }
        *yi -= s;
    }
}

fn gemv_sub_any(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
    for i in 0..m {
        let mut s = 0.0;
        for l in 0..k {
            s += a[i * k + l] * x[l];
        }
        y[i] -= s;
    }
}

/// In-place LU with partial pivoting of an n×n block; `piv[i]` is the row swapped into i.
/// Returns false on an exactly zero pivot. Sizes 1–7 use a kernel unrolled for the size.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
    match n {
        1 => lu_factor_fixed::<1>(a, piv),
        2 => lu_factor_fixed::<2>(a, piv),
        3 => lu_factor_fixed::<3>(a, piv),
        4 => lu_factor_fixed::<4>(a, piv),
        5 => lu_factor_fixed::<5>(a, piv),
        6 => lu_factor_fixed::<6>(a, piv),
        7 => lu_factor_fixed::<7>(a, piv),
        _ => lu_factor_any(a, n, piv),
    }
}

/// `lu_factor` for n = N.
fn lu_factor_fixed<const N: usize>(a: &mut [f64], piv: &mut [usize]) -> bool {
    let (a, piv) = (&mut a[..N * N], &mut piv[..N]);
    for k in 0..N {
        let mut p = k;
        let mut best = a[k * N + k].abs();
        for i in k + 1..N {
            let v = a[i * N + k].abs();
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
            for j in 0..N {
                a.swap(k * N + j, p * N + j);
            }
        }
        let inv = 1.0 / a[k * N + k];
        for i in k + 1..N {
            let f = a[i * N + k] * inv;
            a[i * N + k] = f;
            for j in k + 1..N {
                a[i * N + j] -= f * a[k * N + j];
            }
        }
    }
    true
}

/// `lu_factor` for any n.
fn lu_factor_any(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
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
            if f != 0.0 {
                for j in k + 1..n {
                    a[i * n + j] -= f * a[k * n + j];
                }
            }
        }
    }
    true
}

/// Solves A X = B in place for B (n×m, row-major) given the LU of A. The block sizes
/// of a step (1–7: joints, bodies, contacts) go to kernels unrolled for their size (the
/// block solves are a third of a contact step's time; unrolled: see the commit).
pub fn lu_solve(lu: &[f64], n: usize, piv: &[usize], b: &mut [f64], m: usize) {
    match n {
        1 => lu_solve_fixed::<1>(lu, piv, b, m),
        2 => lu_solve_fixed::<2>(lu, piv, b, m),
        3 => lu_solve_fixed::<3>(lu, piv, b, m),
        4 => lu_solve_fixed::<4>(lu, piv, b, m),
        5 => lu_solve_fixed::<5>(lu, piv, b, m),
        6 => lu_solve_fixed::<6>(lu, piv, b, m),
        7 => lu_solve_fixed::<7>(lu, piv, b, m),
        _ => lu_solve_any(lu, n, piv, b, m),
    }
}

/// `lu_solve` for n = N: one column at a time in registers.
fn lu_solve_fixed<const N: usize>(lu: &[f64], piv: &[usize], b: &mut [f64], m: usize) {
    let (lu, piv) = (&lu[..N * N], &piv[..N]);
    assert!(b.len() >= N * m);
    for c in 0..m {
        let mut x = [0.0; N];
        for i in 0..N {
            x[i] = b[i * m + c];
        }
        for (k, &p) in piv.iter().enumerate() {
            x.swap(k, p);
        }
        for i in 1..N {
            let mut s = x[i];
            for l in 0..i {
                s -= lu[i * N + l] * x[l];
            }
            x[i] = s;
        }
        for i in (0..N).rev() {
            let mut s = x[i];
            for l in i + 1..N {
                s -= lu[i * N + l] * x[l];
            }
            x[i] = s * (1.0 / lu[i * N + i]);
        }
        for i in 0..N {
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
