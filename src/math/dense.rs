//! Small dense kernels on row-major `f64` slices, allocation-free. They serve the
//! block LDU (each block is a few rows) and the dense reference solver of the tests.

/// c (m×n) −= a (m×k) · b (k×n).
#[inline]
pub fn gemm_sub(c: &mut [f64], a: &[f64], b: &[f64], m: usize, k: usize, n: usize) {
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

/// y (m) −= a (m×k) · x (k).
#[inline]
pub fn gemv_sub(y: &mut [f64], a: &[f64], x: &[f64], m: usize, k: usize) {
    for i in 0..m {
        let mut s = 0.0;
        for l in 0..k {
            s += a[i * k + l] * x[l];
        }
        y[i] -= s;
    }
}

/// In-place LU with partial pivoting of an n×n block; `piv[i]` is the row swapped into i.
/// Returns false on an exactly zero pivot.
pub fn lu_factor(a: &mut [f64], n: usize, piv: &mut [usize]) -> bool {
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

/// Solves A X = B in place for B (n×m, row-major) given the LU of A.
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
