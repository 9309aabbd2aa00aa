//! Dense LU with partial pivoting: the reference the graph solver is checked against.
//! Never used by `Sim::step`.

use crate::math::dense::{lu_factor, lu_solve};

/// Solves A x = b for a dense row-major n×n matrix. Returns None if A is singular.
pub fn dense_solve(a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut lu = a.to_vec();
    let mut piv = vec![0; n];
    if !lu_factor(&mut lu, n, &mut piv) {
        return None;
    }
    let mut x = b.to_vec();
    lu_solve(&lu, n, &piv, &mut x, 1);
    Some(x)
}
