//! Solves with a contact node's A_EE block (its E rows against its E variables, `node`)
//! at the structure the cones give it (`cone`, appendix C).
//!
//! Linear cone, E = [s_φ, ψ, s_ψ, η]: the rows γ s_φ − μ and β_i η_i − μ depend on one E
//! variable each, and the pair s_ψ − (μ_f γ − Σβ), ψ s_ψ − μ on (ψ, s_ψ):
//! ```text
//!   A_EE = diag(γ) ⊕ [0 1; s_ψ ψ] ⊕ diag(β)
//! ```
//! (frictionless: diag(γ) alone). Partial-pivot LU of this block swaps the pair's rows
//! and leaves every multiplier zero, so solving by its pivots' reciprocals in the LU's
//! order gives the LU's results bit for bit, without the LU. The second-order cone's
//! block holds the arrow matrix of β, whose LU pivots on values: it takes the dense
//! kernels at their fixed sizes.

use super::cone::{by_node_size, Kind, Layout, MAX_K};
use crate::math::block::{lu_factor, lu_solve};

/// The factors of one contact's A_EE: reciprocal pivots `inv` (ne); for the
/// second-order cone also its LU `lu` (ne × ne) and row pivots `piv` (ne).
pub(super) struct Factors<'a> {
    pub lu: &'a mut [f64],
    pub piv: &'a mut [usize],
    pub inv: &'a mut [f64],
}

/// Entry (E row r, E column c) of the local Jacobian `a` (ny × ny, row-major).
#[inline]
fn ee(l: &Layout, a: &[f64], r: usize, c: usize) -> f64 {
    a[(l.nk + r) * l.ny() + l.nk + c]
}

/// Factors A_EE of a node with layout `l` from its local Jacobian `a`. False if it is
/// singular (the iterate left the cones' interior): a zero or non-finite pivot.
pub(super) fn factor(l: &Layout, a: &[f64], f: Factors) -> bool {
    let ne = l.ne;
    if l.kind == Kind::Soc {
        for (r, row) in f.lu[..ne * ne].chunks_exact_mut(ne).enumerate() {
            row.copy_from_slice(&a[(l.nk + r) * l.ny() + l.nk..][..ne]);
        }
        return lu_factor(f.lu, ne, f.piv, f.inv);
    }
    // pivots in the LU's order: γ, s_ψ (rows swapped), 1, β_i
    let pivot = |k: usize| match k {
        1 => ee(l, a, 2, 1),
        2 => ee(l, a, 1, 2),
        _ => ee(l, a, k, k),
    };
    for k in 0..ne {
        let p = pivot(k);
        if p == 0.0 || !p.is_finite() {
            return false;
        }
        f.inv[k] = 1.0 / p;
    }
    true
}

/// r (ne × m, row-major) := A_EE⁻¹ r with the factors of [`factor`] (`lu`, `piv` are
/// read for the second-order cone only).
#[inline(always)]
pub(super) fn solve(l: &Layout, a: &[f64], lu: &[f64], piv: &[usize], inv: &[f64], r: &mut [f64], m: usize) {
    let ne = l.ne;
    if l.kind == Kind::Soc {
        return lu_solve(lu, ne, piv, inv, r, m);
    }
    let r = &mut r[..ne * m];
    let (first, rest) = r.split_at_mut(m);
    first.iter_mut().for_each(|x| *x *= inv[0]);
    if ne == 1 {
        return;
    }
    // the pair: s_ψ x_ψ + ψ x_sψ = r_sψ-row, x_sψ = r_ψ-row (rows swapped by the LU)
    let (pair, orthant) = rest.split_at_mut(2 * m);
    let (row1, row2) = pair.split_at_mut(m);
    row1.swap_with_slice(row2);
    let psi = ee(l, a, 2, 2);
    for (x1, x2) in row1.iter_mut().zip(row2.iter_mut()) {
        *x2 *= inv[2];
        *x1 = (*x1 - psi * *x2) * inv[1];
    }
    for (row, &d) in orthant.chunks_exact_mut(m).zip(&inv[3..ne]) {
        row.iter_mut().for_each(|x| *x *= d);
    }
}

/// X = A_EE⁻¹ A_EK into `x` (ne × nk) and the condensed block A_KK − A_KE X into `diag`
/// (nk × nk), from the local Jacobian `a` and the factors of [`factor`]. A_KE has a few
/// nonzeros per row (the K rows' slack and cone terms): the products skip its zeros.
pub(super) fn schur(l: &Layout, a: &[f64], lu: &[f64], piv: &[usize], inv: &[f64], x: &mut [f64], diag: &mut [f64]) {
    by_node_size!(l, schur_sized(l, a, lu, piv, inv, x, diag))
}

/// `schur` at the node's sizes (literals where usual: the loops unroll).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn schur_sized(nk: usize, ne: usize, l: &Layout, a: &[f64], lu: &[f64], piv: &[usize], inv: &[f64], x: &mut [f64], diag: &mut [f64]) {
    let ny = nk + ne;
    let x = &mut x[..ne * nk];
    for (r, row) in x.chunks_exact_mut(nk).enumerate() {
        row.copy_from_slice(&a[(nk + r) * ny..][..nk]);
    }
    solve(&Layout { nk, ne, ..*l }, a, lu, piv, inv, x, nk);
    for (r, out) in diag[..nk * nk].chunks_exact_mut(nk).enumerate() {
        let (a_kk, a_ke) = a[r * ny..(r + 1) * ny].split_at(nk);
        let mut sum = [0.0; MAX_K];
        let sum = &mut sum[..nk];
        for (&f, xl) in a_ke.iter().zip(x.chunks_exact(nk)) {
            if f != 0.0 {
                for (s, &v) in sum.iter_mut().zip(xl) {
                    *s += f * v;
                }
            }
        }
        for ((d, &akk), &s) in out.iter_mut().zip(a_kk).zip(sum.iter()) {
            *d = akk - s;
        }
    }
}

/// z := A_EE⁻¹ r_E (`re`, the node's E rows) and r_K −= A_KE z (`rk`), with the factors
/// of [`factor`]; the products skip A_KE's zeros.
// many arguments: the node's Jacobian, its factors and the three vectors, as slices
#[allow(clippy::too_many_arguments)]
pub(super) fn condense_rhs(l: &Layout, a: &[f64], lu: &[f64], piv: &[usize], inv: &[f64], re: &[f64], z: &mut [f64], rk: &mut [f64]) {
    by_node_size!(l, condense_rhs_sized(l, a, lu, piv, inv, re, z, rk))
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn condense_rhs_sized(nk: usize, ne: usize, l: &Layout, a: &[f64], lu: &[f64], piv: &[usize], inv: &[f64], re: &[f64], z: &mut [f64], rk: &mut [f64]) {
    let ny = nk + ne;
    let z = &mut z[..ne];
    z.copy_from_slice(&re[..ne]);
    solve(&Layout { nk, ne, ..*l }, a, lu, piv, inv, z, 1);
    for (r, rk_r) in rk[..nk].iter_mut().enumerate() {
        let a_ke = &a[r * ny + nk..(r + 1) * ny];
        let mut sum = 0.0;
        for (&f, &zl) in a_ke.iter().zip(z.iter()) {
            if f != 0.0 {
                sum += f * zl;
            }
        }
        *rk_r -= sum;
    }
}

/// dE = −z − X dK into `de` (ne), X (ne × nk) and z from the last condensation.
pub(super) fn recover(l: &Layout, x: &[f64], z: &[f64], dk: &[f64], de: &mut [f64]) {
    by_node_size!(l, recover_sized(x, z, dk, de))
}

#[inline(always)]
fn recover_sized(nk: usize, ne: usize, x: &[f64], z: &[f64], dk: &[f64], de: &mut [f64]) {
    let dk = &dk[..nk];
    for ((d, &z), xr) in de[..ne].iter_mut().zip(&z[..ne]).zip(x[..ne * nk].chunks_exact(nk)) {
        let mut s = z;
        for (&xv, &dv) in xr.iter().zip(dk) {
            s += xv * dv;
        }
        *d = -s;
    }
}

/// Every cone kind at random interior points (and a frozen Tresca bound) against the
/// dense partial-pivot LU of A_EE: the solutions must be identical (the structured solve
/// performs the LU's nonzero operations in its order).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::geometry::Shape;
    use crate::contact::{ConeType, Contact};
    use crate::math::dense::tests::{random, Rng};
    use crate::contact::cone::FrictionLaw;
    use crate::math::{dense, V3};

    fn layouts() -> Vec<Layout> {
        let ground = |friction: f64, cone: ConeType, directions: usize| {
            let shapes = [Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.0 }, Shape::Plane { normal: V3::z(), offset: 0.0 }];
            Contact { shapes, friction, cone, directions }.layout()
        };
        vec![ground(0.0, ConeType::Linear, 4), ground(0.5, ConeType::Linear, 4), ground(0.5, ConeType::Linear, 8), ground(0.5, ConeType::Nonlinear, 4)]
    }

    #[test]
    fn structured_solves_equal_the_dense_lu() {
        let mut rng = Rng(17);
        for l in layouts() {
            for trial in 0..20 {
                let (ny, ne) = (l.ny(), l.ne);
                // interior point: positive orthant variables, cone variables inside
                let mut y: Vec<f64> = random(&mut rng, ny).iter().map(|v| 0.2 + v.abs()).collect();
                if l.kind == Kind::Soc {
                    y[l.nk + 1] += 2.0; // β₀ > |b|
                    y[l.nk + 2] += 2.0; // η₀ > |e|
                }
                let mut a = vec![0.0; ny * ny];
                l.jacobian(&y, 0.5, if trial % 2 == 1 { FrictionLaw::Tresca(1.0) } else { FrictionLaw::Coulomb }, 0.01, &mut a);
                let m = 1 + trial % l.nk.max(1);
                let b = random(&mut rng, ne * m);
                // dense reference
                let mut lu0: Vec<f64> = (0..ne * ne).map(|k| ee(&l, &a, k / ne, k % ne)).collect();
                let mut piv0 = vec![0; ne];
                assert!(dense::lu_factor(&mut lu0, ne, &mut piv0));
                let mut x0 = b.clone();
                dense::lu_solve(&lu0, ne, &piv0, &mut x0, m);
                // structured
                let (mut lu, mut piv, mut inv) = (vec![0.0; ne * ne], vec![0; ne], vec![0.0; ne]);
                assert!(factor(&l, &a, Factors { lu: &mut lu, piv: &mut piv, inv: &mut inv }));
                let mut x = b.clone();
                solve(&l, &a, &lu, &piv, &inv, &mut x, m);
                assert_eq!(x, x0, "{:?} nk {} trial {trial}", l.kind, l.nk);
            }
        }
    }

    #[test]
    fn a_zero_pivot_is_singular() {
        for l in layouts() {
            let mut y = vec![1.0; l.ny()];
            y[0] = 0.0; // γ = 0: the row γ s_φ − μ loses its E entry
            let mut a = vec![0.0; l.ny() * l.ny()];
            l.jacobian(&y, 0.5, FrictionLaw::Coulomb, 0.01, &mut a);
            let ne = l.ne;
            let (mut lu, mut piv, mut inv) = (vec![0.0; ne * ne], vec![0; ne], vec![0.0; ne]);
            assert!(!factor(&l, &a, Factors { lu: &mut lu, piv: &mut piv, inv: &mut inv }), "{:?}", l.kind);
        }
    }
}
