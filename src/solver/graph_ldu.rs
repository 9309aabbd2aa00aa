//! Graph-based block LDU factorization (paper section 4).
//!
//! The Newton matrix has one block row/column per graph node (body, joint, contact) and
//! an off-diagonal block pair only where two nodes are connected. Eliminating the nodes
//! in the order of `ordering.rs` (a DFS from the world that splits the graph into trees
//! and cycles, leaves first) gives:
//!
//! * on a tree (algorithms 1–2): every node has exactly one neighbour left when it is
//!   eliminated (its DFS parent), so there is no fill-in and the cost is linear;
//! * on a graph with cycles (algorithms 3–4): eliminating a node couples its remaining
//!   neighbours, and that fill-in stays inside the cycle the node lies on.
//!
//! This file computes the fill pattern once per model ([`Symbolic`]); the numeric
//! factorization and solve then run through precomputed block offsets without
//! allocating. With A = L D U (L, U unit block triangular),
//!   factor: for i in order: D_i = A_ii; U_ik = D_i⁻¹ A_ik; A_jk −= A_ji U_ik (j, k after i)
//!   solve:  forward  y_i = D_i⁻¹ b_i; b_j −= A_ji y_i;   backward x_i = y_i − Σ U_ik x_k.
//!
//! # Using the solver on its own
//!
//! Describe the block structure once, fill the blocks, factor and solve; vectors use
//! the node-offset layout (`Symbolic::offsets`). A four-node cycle of 2×2 blocks:
//!
//! ```
//! use maxdyn::solver::{BlockMatrix, SparsityGraph, Symbolic};
//!
//! let mut g = SparsityGraph::default();
//! for i in 0..4 {
//!     // block size, structurally zero diagonal?, DFS root (attached to the world)?
//!     g.add_node(2, false, i == 0);
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
//! multipliers) and pivot regularization are described on [`SparsityGraph`].
//! `examples/bench_sparse_dense.rs` times it against dense LU (SCENARIOS B4).

use crate::math::dense::{gemm_sub, gemv_sub, lu_factor, lu_solve};
use super::ordering::elimination_order;

/// The structure of a block matrix: node sizes and which node pairs are coupled.
#[derive(Debug, Clone, Default)]
pub struct SparsityGraph {
    pub sizes: Vec<usize>,
    /// Nodes whose diagonal block is structurally zero (joint multipliers): they must be
    /// eliminated after at least one neighbour, so their pivot is the Schur complement
    /// −G D⁻¹ Gᵀ rather than 0.
    pub zero_diagonal: Vec<bool>,
    /// Nodes attached to the world (roots of the DFS, in this order).
    pub world_attached: Vec<bool>,
    pub edges: Vec<(usize, usize)>,
    /// Relative pivot regularization per node (0: none), see [`SparsityGraph::set_regularization`].
    pub regularization: Vec<f64>,
    /// Nodes with a regular but possibly nearly singular diagonal (condensed contacts),
    /// eliminated after one of their neighbours; see [`SparsityGraph::set_after_neighbour`].
    pub after_neighbour: Vec<bool>,
}

impl SparsityGraph {
    pub fn add_node(&mut self, size: usize, zero_diagonal: bool, world_attached: bool) -> usize {
        self.sizes.push(size);
        self.zero_diagonal.push(zero_diagonal);
        self.world_attached.push(world_attached);
        self.regularization.push(0.0);
        self.after_neighbour.push(false);
        self.sizes.len() - 1
    }

    /// Lets the pivot of `node` be rank deficient: when the node is eliminated, its pivot
    /// block P (the Schur complement that reached it) is factored as P + sign(tr P)·ε·max|P|·I.
    /// Meant for multiplier nodes of redundant constraints (a planar loop in 3-D): the
    /// shift is relative, so it is the same fraction of the pivot at any mass, length and
    /// time-step scale, and it follows the pivot's sign (semidefinite of either sign).
    /// The factorization is then that of a matrix perturbed by ε relative in the pivot
    /// only: directions in the pivot's null space get a finite (minimum-size) answer,
    /// all other directions are solved to a relative error of order ε.
    pub fn set_regularization(&mut self, node: usize, epsilon: f64) {
        self.regularization[node] = epsilon;
    }
    /// Eliminates `node` only after at least one of its neighbours, without it taking
    /// pivot support from them (unlike a zero-diagonal node): for a condensed contact
    /// block, which is regular but nearly singular when the contact is active or sticks,
    /// the pivot it then meets, S − J D⁻¹ W, stays away from zero.
    pub fn set_after_neighbour(&mut self, node: usize) {
        self.after_neighbour[node] = true;
    }

    pub fn add_edge(&mut self, a: usize, b: usize) {
        if a != b {
            self.edges.push((a.min(b), a.max(b)));
        }
    }
    pub fn dim(&self) -> usize {
        self.sizes.iter().sum()
    }
}

/// One Schur-complement update A_jk −= A_ji U_ik, as block offsets.
#[derive(Debug, Clone, Copy)]
struct Update {
    lower: usize, // A_ji (n_j × n_i)
    upper: usize, // U_ik (n_i × n_k)
    target: usize, // A_jk (n_j × n_k)
    nj: usize,
    nk: usize,
}

/// Elimination order and fill pattern, computed once per model.
#[derive(Debug, Clone)]
pub struct Symbolic {
    pub sizes: Vec<usize>,
    /// Relative pivot regularization per node (see [`SparsityGraph::set_regularization`]).
    pub regularization: Vec<f64>,
    /// Offset of each node in the solution vector.
    pub offsets: Vec<usize>,
    pub dim: usize,
    /// Nodes in elimination order.
    pub order: Vec<usize>,
    /// Position of each node in `order`.
    pub position: Vec<usize>,
    /// Per node: neighbours eliminated later, with (upper, lower) block offsets.
    later: Vec<Vec<(usize, usize, usize)>>,
    /// Per node: all neighbours (original and fill) with the offset of block (i, j).
    row_blocks: Vec<Vec<(usize, usize)>>,
    diag: Vec<usize>,
    pivots: Vec<usize>,
    updates: Vec<Update>,
    update_ranges: Vec<(usize, usize)>,
    pub value_len: usize,
    /// Number of off-diagonal block pairs created by fill-in.
    pub fill_blocks: usize,
}

impl Symbolic {
    pub fn new(g: &SparsityGraph) -> Symbolic {
        let n = g.sizes.len();
        let order = elimination_order(g);
        let mut position = vec![0; n];
        for (p, &i) in order.iter().enumerate() {
            position[i] = p;
        }
        // symbolic elimination: adjacency sets grow by fill
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b) in &g.edges {
            if !adj[a].contains(&b) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
        let original_pairs: usize = adj.iter().map(|a| a.len()).sum::<usize>() / 2;
        for &i in &order {
            let later: Vec<usize> = adj[i].iter().copied().filter(|&j| position[j] > position[i]).collect();
            for (x, &j) in later.iter().enumerate() {
                for &k in &later[x + 1..] {
                    if !adj[j].contains(&k) {
                        adj[j].push(k);
                        adj[k].push(j);
                    }
                }
            }
        }
        let total_pairs: usize = adj.iter().map(|a| a.len()).sum::<usize>() / 2;
        // block storage
        let mut value_len = 0;
        let mut diag = vec![0; n];
        for i in 0..n {
            diag[i] = value_len;
            value_len += g.sizes[i] * g.sizes[i];
        }
        let mut row_blocks: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for i in 0..n {
            adj[i].sort_by_key(|&j| position[j]);
            for &j in &adj[i] {
                row_blocks[i].push((j, value_len));
                value_len += g.sizes[i] * g.sizes[j];
            }
        }
        let block = |rb: &Vec<Vec<(usize, usize)>>, i: usize, j: usize| -> usize {
            if i == j {
                diag[i]
            } else {
                rb[i].iter().find(|e| e.0 == j).expect("block in pattern").1
            }
        };
        let mut later = vec![Vec::new(); n];
        let mut updates = Vec::new();
        let mut update_ranges = vec![(0, 0); n];
        for &i in &order {
            let l: Vec<usize> = adj[i].iter().copied().filter(|&j| position[j] > position[i]).collect();
            later[i] = l.iter().map(|&k| (k, block(&row_blocks, i, k), block(&row_blocks, k, i))).collect();
            let start = updates.len();
            for &j in &l {
                for &k in &l {
                    updates.push(Update {
                        lower: block(&row_blocks, j, i),
                        upper: block(&row_blocks, i, k),
                        target: block(&row_blocks, j, k),
                        nj: g.sizes[j],
                        nk: g.sizes[k],
                    });
                }
            }
            update_ranges[i] = (start, updates.len());
        }
        let mut offsets = vec![0; n];
        let mut o = 0;
        for i in 0..n {
            offsets[i] = o;
            o += g.sizes[i];
        }
        let mut pivots = vec![0; n];
        let mut p = 0;
        for i in 0..n {
            pivots[i] = p;
            p += g.sizes[i];
        }
        Symbolic {
            sizes: g.sizes.clone(),
            regularization: if g.regularization.len() == n { g.regularization.clone() } else { vec![0.0; n] },
            offsets,
            dim: o,
            order,
            position,
            later,
            row_blocks,
            diag,
            pivots,
            updates,
            update_ranges,
            value_len,
            fill_blocks: total_pairs - original_pairs,
        }
    }

    /// Offset of block (i, j) in the value array (None if structurally zero).
    pub fn block_offset(&self, i: usize, j: usize) -> Option<usize> {
        if i == j {
            return Some(self.diag[i]);
        }
        self.row_blocks[i].iter().find(|e| e.0 == j).map(|e| e.1)
    }

    /// Later-eliminated neighbours of each node (for inspection and tests).
    pub fn later_neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.later[i].iter().map(|e| e.0)
    }
}

/// Numeric values of a block matrix with a given [`Symbolic`] pattern, plus the
/// factorization workspace. Factor and solve allocate nothing.
#[derive(Debug, Clone)]
pub struct BlockMatrix {
    pub values: Vec<f64>,
    piv: Vec<usize>,
    /// Per node: its diagonal block is the identity and its coupling blocks are zero (a
    /// contact left out of the step, `sim::culling`); factor and solve skip it (x = b).
    decoupled: Vec<bool>,
}

/// A diagonal block became singular during factorization.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SingularPivot(pub usize);

impl BlockMatrix {
    pub fn new(sym: &Symbolic) -> BlockMatrix {
        BlockMatrix { values: vec![0.0; sym.value_len], piv: vec![0; sym.dim], decoupled: vec![false; sym.sizes.len()] }
    }

    /// Zeros every block and couples every node again.
    pub fn clear(&mut self) {
        self.values.iter_mut().for_each(|v| *v = 0.0);
        self.decoupled.iter_mut().for_each(|d| *d = false);
    }

    /// Makes `node` an identity block without coupling (its blocks must be zero, as after
    /// `clear`): factor and solve then skip it instead of eliminating zeros.
    pub fn decouple(&mut self, sym: &Symbolic, node: usize) {
        let n = sym.sizes[node];
        let d = sym.diag[node];
        for k in 0..n {
            self.values[d + k * n + k] = 1.0;
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
            let piv = &mut self.piv[sym.pivots[i]..sym.pivots[i] + ni];
            if sym.regularization[i] > 0.0 {
                regularize_pivot(&mut vals[d..d + ni * ni], ni, sym.regularization[i]);
            }
            if !lu_factor(&mut vals[d..d + ni * ni], ni, piv) {
                return Err(SingularPivot(i));
            }
            for &(k, upper, _) in &sym.later[i] {
                let nk = sym.sizes[k];
                let (dblock, ublock) = split_two(vals, d, ni * ni, upper, ni * nk);
                lu_solve(dblock, ni, piv, ublock, nk);
            }
            let (s, e) = sym.update_ranges[i];
            for u in &sym.updates[s..e] {
                // target never overlaps lower/upper: they are blocks of row/column i
                let (lower, upper, target) = split_three(vals, u.lower, u.nj * ni, u.upper, ni * u.nk, u.target, u.nj * u.nk);
                gemm_sub(target, lower, upper, u.nj, ni, u.nk);
            }
        }
        Ok(())
    }

    /// Solves A x = b in place (b in node-offset layout) with the factorization (alg. 2, 4).
    pub fn solve(&self, sym: &Symbolic, b: &mut [f64]) {
        let vals = &self.values;
        for &i in &sym.order {
            if self.decoupled[i] {
                continue;
            }
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            let d = sym.diag[i];
            lu_solve(&vals[d..d + ni * ni], ni, &self.piv[sym.pivots[i]..sym.pivots[i] + ni], &mut b[oi..oi + ni], 1);
            for &(j, _, lower) in &sym.later[i] {
                let (oj, nj) = (sym.offsets[j], sym.sizes[j]);
                let (bi, bj) = split_two(b, oi, ni, oj, nj);
                gemv_sub(bj, &vals[lower..lower + nj * ni], bi, nj, ni);
            }
        }
        for &i in sym.order.iter().rev() {
            if self.decoupled[i] {
                continue;
            }
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            for &(k, upper, _) in &sym.later[i] {
                let (ok, nk) = (sym.offsets[k], sym.sizes[k]);
                let (bi, bk) = split_two(b, oi, ni, ok, nk);
                gemv_sub(bi, &vals[upper..upper + ni * nk], bk, ni, nk);
            }
        }
    }

    /// y = A x with the assembled (not yet factored) matrix, for residual checks in tests.
    pub fn multiply(&self, sym: &Symbolic, x: &[f64], y: &mut [f64]) {
        y.iter_mut().for_each(|v| *v = 0.0);
        for i in 0..sym.sizes.len() {
            let (oi, ni) = (sym.offsets[i], sym.sizes[i]);
            let mut acc = |j: usize, o: usize| {
                let (oj, nj) = (sym.offsets[j], sym.sizes[j]);
                for r in 0..ni {
                    for c in 0..nj {
                        y[oi + r] += self.values[o + r * nj + c] * x[oj + c];
                    }
                }
            };
            acc(i, sym.diag[i]);
            for &(j, o) in &sym.row_blocks[i] {
                acc(j, o);
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

/// P += sign(tr P)·ε·max|P|·I (see [`SparsityGraph::set_regularization`]).
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
