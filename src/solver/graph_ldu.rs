//! Graph-based block LDU factorization (paper section 4).
//!
//! The Newton matrix has one block row/column per graph node (body, joint, contact) and
//! an off-diagonal block pair only where two nodes are connected. Eliminating the nodes
//! in the order of [`EliminationOrder`](super::EliminationOrder) (a DFS from the world
//! that splits the graph into trees and cycles, leaves first) gives:
//!
//! * on a tree (algorithms 1–2): every node has exactly one neighbour left when it is
//!   eliminated (its DFS parent), so there is no fill-in and the cost is linear;
//! * on a graph with cycles (algorithms 3–4): eliminating a node couples its remaining
//!   neighbours, and that fill-in stays inside the cycle the node lies on.
//!
//! A [`SparsityGraph`](super::SparsityGraph) describes the blocks, the
//! [`EliminationOrder`](super::EliminationOrder) orders the nodes and finds the fill, and
//! [`Symbolic`] lays the factor's blocks out, once per model; this file is the numeric
//! factorization and solve, which run through those offsets without allocating.
//! With A = L D U (L, U unit block triangular),
//!   factor: for i in order: D_i = A_ii; U_ik = D_i⁻¹ A_ik; A_jk −= A_ji U_ik (j, k after i)
//!   solve:  forward  y_i = D_i⁻¹ b_i; b_j −= A_ji y_i;   backward x_i = y_i − Σ U_ik x_k.
//!
//! # Using the solver on its own
//!
//! Describe the block structure once, fill the blocks, factor and solve; vectors use
//! the node-offset layout (`Symbolic::offsets`). A four-node cycle of 2×2 blocks:
//!
//! ```
//! use maxdyn::solver::{BlockMatrix, NodeKind, SparsityGraph, Symbolic};
//!
//! let mut g = SparsityGraph::default();
//! for _ in 0..4 {
//!     g.add_node(2, NodeKind::Body); // block size, regular diagonal block
//! }
//! for i in 0..4 {
//!     g.add_edge(i, (i + 1) % 4);
//! }
//! let sym = Symbolic::new(&g); // elimination order and fill, computed once
//! assert_eq!(sym.fill_blocks, 1); // a 4-cycle needs one chord
//!
//! let mut a = BlockMatrix::new(&sym);
//! for i in 0..4 {
//!     let j = (i + 1) % 4;
//!     a.block_mut(&sym, i, i).copy_from_slice(&[4.0, 1.0, 1.0, 4.0]); // row-major
//!     a.block_mut(&sym, i, j).copy_from_slice(&[1.0, 0.0, 0.5, 1.0]);
//!     a.block_mut(&sym, j, i).copy_from_slice(&[1.0, 0.5, 0.0, 1.0]);
//! }
//! let x_true: Vec<f64> = (0..sym.dim).map(|k| k as f64).collect();
//! let mut b = vec![0.0; sym.dim];
//! a.multiply(&sym, &x_true, &mut b);
//!
//! a.factor(&sym).expect("regular pivots"); // in place, allocation-free
//! a.solve(&sym, &mut b); // b becomes x, in place
//! assert!(b.iter().zip(&x_true).all(|(x, t)| (x - t).abs() < 1e-12));
//! ```
//!
//! The same `Symbolic` and `BlockMatrix` are reused for every new set of values
//! (`BlockMatrix::clear`, fill, factor, solve). Zero-diagonal nodes (constraint
//! multipliers) are described on [`NodeKind`](super::NodeKind), pivot regularization on
//! [`SparsityGraph::set_regularization`](super::SparsityGraph::set_regularization).
//! `examples/bench_sparse_dense.rs` times it against dense LU (SCENARIOS B4).

use super::symbolic::Symbolic;
use crate::math::block::{gemm_sub, gemv_sub, lu_factor, lu_solve};
use crate::math::dense::panel_sub;

/// Numeric values of a block matrix with a given [`Symbolic`] pattern, plus the
/// factorization workspace. Factor and solve allocate nothing.
#[derive(Debug, Clone)]
pub struct BlockMatrix {
    pub values: Vec<f64>,
    /// Per row (node-offset layout): the pivot row of its diagonal block's LU and the
    /// reciprocal of its U diagonal entry.
    piv: Vec<usize>,
    inv_pivot: Vec<f64>,
    /// Per node: its diagonal block is the identity and its coupling blocks are zero (a
    /// contact left out of the step, `sim::culling`); factor and solve skip it (x = b).
    decoupled: Vec<bool>,
    /// Per `later` entry (i, k) (`Symbolic::later`), set by the last
    /// factorization: its block U_ik (upper) or A_ki (lower) is zero, because k is
    /// decoupled or the block is fill that only decoupled nodes fed. In a pile most
    /// contacts in the layout are left out, and the fill their elimination would have
    /// made stays zero: factor and solve skip the products with it (exact: they add zeros).
    zero_upper: Vec<bool>,
    zero_lower: Vec<bool>,
}

/// A diagonal block became singular during factorization.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SingularPivot(pub usize);

impl BlockMatrix {
    pub fn new(sym: &Symbolic) -> BlockMatrix {
        let entries = sym.later_fill.len();
        BlockMatrix {
            values: vec![0.0; sym.value_len],
            piv: vec![0; sym.dim],
            inv_pivot: vec![0.0; sym.dim],
            decoupled: vec![false; sym.sizes.len()],
            zero_upper: vec![false; entries],
            zero_lower: vec![false; entries],
        }
    }

    /// Zeros every block and couples every node again.
    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(|v| *v = 0.0);
        self.decoupled.iter_mut().for_each(|d| *d = false);
    }

    /// Zeros what the Newton assembly does not assign before it assembles again, and
    /// couples every node again: every block but those the assembly writes in full,
    /// a joint's couplings to its bodies (rows G, columns −Gᵀ) and a contact's blocks
    /// (the condensed diagonal and its couplings, or [`BlockMatrix::decouple`]).
    /// Cheaper than [`BlockMatrix::clear`] by those blocks.
    pub fn reset(&mut self, sym: &Symbolic) {
        for &(s, e) in &sym.reset_ranges {
            self.values[s..e].fill(0.0);
        }
        self.decoupled.fill(false);
    }

    /// Makes `node` an identity block without coupling (zeros its row and column blocks):
    /// factor and solve then skip it instead of eliminating zeros.
    pub fn decouple(&mut self, sym: &Symbolic, node: usize) {
        let n = sym.sizes[node];
        let d = sym.diag[node];
        self.values[d..d + n * n].fill(0.0);
        for k in 0..n {
            self.values[d + k * n + k] = 1.0;
        }
        for &(j, o) in &sym.row_blocks[node] {
            let len = n * sym.sizes[j];
            self.values[o..o + len].fill(0.0);
            let o = sym.block_offset(j, node).expect("pattern is symmetric");
            self.values[o..o + len].fill(0.0);
        }
        self.decoupled[node] = true;
    }

    /// Mutable view of block (i, j), row-major n_i × n_j. Panics if not in the pattern.
    pub fn block_mut(&mut self, sym: &Symbolic, i: usize, j: usize) -> &mut [f64] {
        let o = sym.block_offset(i, j).expect("block (i, j) not in the sparsity pattern");
        &mut self.values[o..o + sym.sizes[i] * sym.sizes[j]]
    }

    pub fn block(&self, sym: &Symbolic, i: usize, j: usize) -> &[f64] {
        let o = sym.block_offset(i, j).expect("block (i, j) not in the sparsity pattern");
        &self.values[o..o + sym.sizes[i] * sym.sizes[j]]
    }

    /// In-place block LDU factorization (algorithms 1 and 3).
    pub fn factor(&mut self, sym: &Symbolic) -> Result<(), SingularPivot> {
        let vals = &mut self.values;
        for &i in &sym.order {
            if self.decoupled[i] {
                continue;
            }
            let ni = sym.sizes[i];
            let d = sym.diag[i];
            let rows = sym.offsets[i]..sym.offsets[i] + ni;
            let (piv, inv) = (&mut self.piv[rows.clone()], &mut self.inv_pivot[rows]);
            if sym.regularization[i] > 0.0 {
                regularize_pivot(&mut vals[d..d + ni * ni], ni, sym.regularization[i]);
            }
            if !lu_factor(&mut vals[d..d + ni * ni], ni, piv, inv) {
                return Err(SingularPivot(i));
            }
            // a decoupled node's coupling blocks are zero, and so is a fill block that only
            // decoupled nodes fed: their terms are skipped (exactly)
            for &(k, upper, lower, entry) in &sym.later[i] {
                let nk = sym.sizes[k];
                let (lower_zero, upper_zero) = if self.decoupled[k] {
                    (true, true)
                } else if sym.later_fill[entry] {
                    (is_zero(&vals[lower..lower + nk * ni]), is_zero(&vals[upper..upper + ni * nk]))
                } else {
                    (false, false)
                };
                self.zero_lower[entry] = lower_zero;
                self.zero_upper[entry] = upper_zero;
                if !upper_zero {
                    let (dblock, ublock) = split_two(vals, d, ni * ni, upper, ni * nk);
                    lu_solve(dblock, ni, piv, inv, ublock, nk);
                }
            }
            let (s, e) = sym.update_ranges[i];
            for u in &sym.updates[s..e] {
                if self.zero_lower[u.j_entry] || self.zero_upper[u.k_entry] {
                    continue;
                }
                // target never overlaps lower/upper: they are blocks of row/column i
                let (lower, upper, target) = split_three(vals, u.lower, u.nj * ni, u.upper, ni * u.nk, u.target, u.nj * u.nk);
                gemm_sub(target, lower, upper, u.nj, ni, u.nk);
            }
        }
        Ok(())
    }

    /// Fill blocks that the last factorization found zero between nodes that are not
    /// decoupled (fed only by decoupled ones), and skipped: for inspection and tests.
    pub fn zero_fill_blocks(&self, sym: &Symbolic) -> usize {
        let mut count = 0;
        for &i in &sym.order {
            if self.decoupled[i] {
                continue;
            }
            for &(k, _, _, entry) in &sym.later[i] {
                count += usize::from(sym.later_fill[entry] && !self.decoupled[k] && self.zero_upper[entry]);
            }
        }
        count
    }

    /// Solves A x = b in place (b in node-offset layout) with the factorization (alg. 2, 4).
    pub fn solve(&self, sym: &Symbolic, b: &mut [f64]) {
        // one column: the matrix-vector kernel (the step's hot path)
        self.substitute(sym, b, 1, |y, a, x, rows, cols, _| gemv_sub(y, a, x, rows, cols));
    }

    /// Solves A X = B in place for `m` right-hand sides at once, B row-major (n × m, rows
    /// in node-offset layout): the same elimination as [`BlockMatrix::solve`], each block
    /// operation applied to m columns (the step's derivatives, one column per state entry).
    pub fn solve_many(&self, sym: &Symbolic, b: &mut [f64], m: usize) {
        self.substitute(sym, b, m, panel_sub);
    }

    /// The forward and backward substitutions of `solve` and `solve_many` on `m` columns;
    /// `sub(Y, A, X, r, c, m)` is Y −= A X for an r × c block A. Generic, not `dyn`: each
    /// caller gets its own copy with its kernel inlined (and m = 1 folded in for `solve`).
    #[inline(always)]
    fn substitute(&self, sym: &Symbolic, b: &mut [f64], m: usize, sub: impl Fn(&mut [f64], &[f64], &[f64], usize, usize, usize)) {
        let vals = &self.values;
        for &i in &sym.order {
            if self.decoupled[i] {
                continue;
            }
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            let d = sym.diag[i];
            let rows = oi..oi + ni;
            lu_solve(&vals[d..d + ni * ni], ni, &self.piv[rows.clone()], &self.inv_pivot[rows], &mut b[oi * m..(oi + ni) * m], m);
            for &(j, _, lower, entry) in &sym.later[i] {
                if self.zero_lower[entry] {
                    continue;
                }
                let (oj, nj) = (sym.offsets[j], sym.sizes[j]);
                let (bi, bj) = split_two(b, oi * m, ni * m, oj * m, nj * m);
                sub(bj, &vals[lower..lower + nj * ni], bi, nj, ni, m);
            }
        }
        for &i in sym.order.iter().rev() {
            if self.decoupled[i] {
                continue;
            }
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            for &(k, upper, _, entry) in &sym.later[i] {
                if self.zero_upper[entry] {
                    continue;
                }
                let (ok, nk) = (sym.offsets[k], sym.sizes[k]);
                let (bi, bk) = split_two(b, oi * m, ni * m, ok * m, nk * m);
                sub(bi, &vals[upper..upper + ni * nk], bk, ni, nk, m);
            }
        }
    }

    /// y = A x with the assembled (not yet factored) matrix, for residual checks in tests.
    pub fn multiply(&self, sym: &Symbolic, x: &[f64], y: &mut [f64]) {
        y.fill(0.0);
        self.each_product(sym, x, |row, p| y[row] += p);
    }

    /// y = A x and t = |A| |x| (each row's Σ_j |A_ij x_j|) with the assembled matrix: a
    /// row's products and the magnitude of its terms, for a backward error.
    pub fn products(&self, sym: &Symbolic, x: &[f64], y: &mut [f64], t: &mut [f64]) {
        y.fill(0.0);
        t.fill(0.0);
        self.each_product(sym, x, |row, p| {
            y[row] += p;
            t[row] += p.abs();
        });
    }

    /// Calls `f(row, A_ij x_j)` for every stored entry of the assembled matrix.
    fn each_product(&self, sym: &Symbolic, x: &[f64], mut f: impl FnMut(usize, f64)) {
        for i in 0..sym.sizes.len() {
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            let mut acc = |j: usize, o: usize| {
                let (oj, nj) = (sym.offsets[j], sym.sizes[j]);
                for r in 0..ni {
                    for c in 0..nj {
                        f(oi + r, self.values[o + r * nj + c] * x[oj + c]);
                    }
                }
            };
            acc(i, sym.diag[i]);
            for &(j, o) in &sym.row_blocks[i] {
                acc(j, o);
            }
        }
    }

    /// r = b − A x with the matrix as it is (assembled, not factored): the residual of a
    /// solve, for iterative refinement. Block kernels of `math::block`.
    pub fn residual(&self, sym: &Symbolic, x: &[f64], b: &[f64], r: &mut [f64]) {
        r.copy_from_slice(b);
        for i in 0..sym.sizes.len() {
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            let ri = &mut r[oi..oi + ni];
            gemv_sub(ri, &self.values[sym.diag[i]..sym.diag[i] + ni * ni], &x[oi..oi + ni], ni, ni);
            for &(j, o) in &sym.row_blocks[i] {
                let (oj, nj) = (sym.offsets[j], sym.sizes[j]);
                gemv_sub(ri, &self.values[o..o + ni * nj], &x[oj..oj + nj], ni, nj);
            }
        }
    }

    /// The assembled matrix as a dense row-major array (tests and the dense reference).
    pub fn to_dense(&self, sym: &Symbolic) -> Vec<f64> {
        let n = sym.dim;
        let mut a = vec![0.0; n * n];
        for i in 0..sym.sizes.len() {
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            let mut put = |j: usize, o: usize| {
                let (oj, nj) = (sym.offsets[j], sym.sizes[j]);
                for r in 0..ni {
                    for c in 0..nj {
                        a[(oi + r) * n + oj + c] = self.values[o + r * nj + c];
                    }
                }
            };
            put(i, sym.diag[i]);
            for &(j, o) in &sym.row_blocks[i] {
                put(j, o);
            }
        }
        a
    }
}

/// Every entry of a block exactly zero.
fn is_zero(block: &[f64]) -> bool {
    block.iter().all(|&v| v == 0.0)
}

/// P += sign(tr P)·ε·max|P|·I (see [`SparsityGraph::set_regularization`](super::SparsityGraph::set_regularization)).
fn regularize_pivot(p: &mut [f64], n: usize, epsilon: f64) {
    let scale = p.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let trace: f64 = (0..n).map(|r| p[r * n + r]).sum();
    let shift = if trace < 0.0 { -epsilon * scale } else { epsilon * scale };
    for r in 0..n {
        p[r * n + r] += shift;
    }
}

/// Two disjoint mutable sub-slices.
fn split_two(v: &mut [f64], a: usize, la: usize, b: usize, lb: usize) -> (&mut [f64], &mut [f64]) {
    if a < b {
        let (x, y) = v.split_at_mut(b);
        (&mut x[a..a + la], &mut y[..lb])
    } else {
        let (x, y) = v.split_at_mut(a);
        let (ya, xb) = (&mut y[..la], &mut x[b..b + lb]);
        (ya, xb)
    }
}

/// Two read-only sub-slices and one disjoint mutable one.
fn split_three(v: &mut [f64], a: usize, la: usize, b: usize, lb: usize, t: usize, lt: usize) -> (&[f64], &[f64], &mut [f64]) {
    let (head, tail) = v.split_at_mut(t);
    let (target, rest) = tail.split_at_mut(lt);
    let (head, rest): (&[f64], &[f64]) = (head, rest);
    let pick = |o: usize, l: usize| if o < t { &head[o..o + l] } else { &rest[o - t - lt..o - t - lt + l] };
    (pick(a, la), pick(b, lb), target)
}
