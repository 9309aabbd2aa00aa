//! Block storage of a factor, computed once per model from the elimination order and its
//! fill ([`EliminationOrder`]): the third stage of the solver pipeline. It lays out
//! every block of the factor's pattern in one value array and lists, per eliminated
//! node, the block offsets the numeric factorization ([`graph_ldu`](super::graph_ldu))
//! walks through without allocating.

use super::ordering::EliminationOrder;
use super::sparsity::{NodeKind, SparsityGraph};

/// One Schur-complement update A_jk −= A_ji U_ik, as block offsets.
#[derive(Debug, Clone, Copy)]
pub(super) struct Update {
    pub(super) lower: usize,  // A_ji (n_j × n_i)
    pub(super) upper: usize,  // U_ik (n_i × n_k)
    pub(super) target: usize, // A_jk (n_j × n_k)
    pub(super) nj: usize,
    pub(super) nk: usize,
    /// Nodes j and k as entries of the eliminated node's `later` list, numbered across
    /// all nodes (`Symbolic::later`): where the factorization records the blocks
    /// that are zero (a decoupled node's, or fill only decoupled nodes fed), so that the
    /// update is skipped.
    pub(super) j_entry: usize,
    pub(super) k_entry: usize,
}

/// Elimination order, block offsets and fill pattern, computed once per model.
#[derive(Debug, Clone)]
pub struct Symbolic {
    pub sizes: Vec<usize>,
    /// Relative pivot regularization per node (see [`SparsityGraph::set_regularization`]).
    pub regularization: Vec<f64>,
    /// Offset of each node in the solution vector (and in the pivot-index workspace).
    pub offsets: Vec<usize>,
    pub dim: usize,
    /// Nodes in elimination order.
    pub order: Vec<usize>,
    /// Position of each node in `order`.
    pub position: Vec<usize>,
    /// Per node: neighbours eliminated later, with (upper, lower) block offsets and the
    /// entry's number when all nodes' entries are numbered in one sequence.
    pub(super) later: Vec<Vec<(usize, usize, usize, usize)>>,
    /// Per `later` entry: its blocks are fill (not a graph edge). Fill blocks are zero
    /// wherever only decoupled nodes (contacts left out of the step) fed them, and the
    /// factorization skips what they multiply.
    pub(super) later_fill: Vec<bool>,
    /// Per node: all neighbours (original and fill) with the offset of block (i, j).
    pub(super) row_blocks: Vec<Vec<(usize, usize)>>,
    /// `row_blocks` sorted by neighbour, for lookups in O(log degree): a body on a
    /// thousand contacts is asked for each contact's block every assembly.
    lookup: Vec<Vec<(usize, usize)>>,
    /// Per node: offset of its diagonal block.
    pub(super) diag: Vec<usize>,
    pub(super) updates: Vec<Update>,
    /// Per node: its range in `updates`.
    pub(super) update_ranges: Vec<(usize, usize)>,
    pub value_len: usize,
    /// Number of off-diagonal block pairs created by fill-in.
    pub fill_blocks: usize,
    /// Value ranges that [`BlockMatrix::reset`](super::BlockMatrix::reset) zeros (adjacent
    /// blocks merged): every block the Newton assembly does not assign in full.
    pub(super) reset_ranges: Vec<(usize, usize)>,
}

impl Symbolic {
    /// Orders `g` and lays out its factor (the whole symbolic pipeline).
    pub fn new(g: &SparsityGraph) -> Symbolic {
        Symbolic::from_order(g, EliminationOrder::of(g))
    }

    /// Lays out the factor of `g` eliminated in `e` (the order of `g`).
    pub fn from_order(g: &SparsityGraph, e: EliminationOrder) -> Symbolic {
        let n = g.node_count();
        let mut offsets = Vec::with_capacity(n);
        let mut dim = 0;
        for &s in &g.sizes {
            offsets.push(dim);
            dim += s;
        }
        let mut value_len = 0;
        let mut diag = Vec::with_capacity(n);
        for &s in &g.sizes {
            diag.push(value_len);
            value_len += s * s;
        }
        let mut row_blocks: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (i, (row, neighbours)) in row_blocks.iter_mut().zip(&e.neighbours).enumerate() {
            for &j in neighbours {
                row.push((j, value_len));
                value_len += g.sizes[i] * g.sizes[j];
            }
        }
        let lookup: Vec<Vec<(usize, usize)>> = row_blocks
            .iter()
            .map(|row| {
                let mut sorted = row.clone();
                sorted.sort_unstable();
                sorted
            })
            .collect();
        let block = |i: usize, j: usize| -> usize {
            if i == j {
                diag[i]
            } else {
                find(&lookup[i], j).expect("block in pattern")
            }
        };
        let edges = g.adjacency();
        let mut later = vec![Vec::new(); n];
        let mut later_fill = Vec::new();
        let mut updates = Vec::new();
        let mut update_ranges = vec![(0, 0); n];
        for &i in &e.order {
            let l: Vec<usize> = e.later_neighbours(i).collect();
            let first = later_fill.len();
            later[i] = l.iter().enumerate().map(|(kl, &k)| (k, block(i, k), block(k, i), first + kl)).collect();
            later_fill.extend(l.iter().map(|k| !edges[i].contains(k)));
            let start = updates.len();
            for (jl, &j) in l.iter().enumerate() {
                for (kl, &k) in l.iter().enumerate() {
                    updates.push(Update { lower: block(j, i), upper: block(i, k), target: block(j, k), nj: g.sizes[j], nk: g.sizes[k], j_entry: first + jl, k_entry: first + kl });
                }
            }
            update_ranges[i] = (start, updates.len());
        }
        let reset_ranges = reset_ranges(g, &diag, &row_blocks, value_len);
        Symbolic {
            sizes: g.sizes.clone(),
            regularization: g.regularization.clone(),
            offsets,
            dim,
            order: e.order,
            position: e.position,
            later,
            later_fill,
            row_blocks,
            lookup,
            diag,
            updates,
            update_ranges,
            value_len,
            fill_blocks: e.fill_pairs,
            reset_ranges,
        }
    }

    /// Multiply-adds of one full factorization (every node coupled): the Schur updates'
    /// n_j n_i n_k and the pivots' n³.
    pub fn factor_flops(&self) -> usize {
        let pivots: usize = self.sizes.iter().map(|&s| s * s * s).sum();
        let updates: usize = self.order.iter().map(|&i| {
            let (s, e) = self.update_ranges[i];
            self.updates[s..e].iter().map(|u| u.nj * self.sizes[i] * u.nk).sum::<usize>()
        }).sum();
        pivots + updates
    }

    /// Offset of block (i, j) in the value array (None if structurally zero).
    pub fn block_offset(&self, i: usize, j: usize) -> Option<usize> {
        if i == j {
            return Some(self.diag[i]);
        }
        find(&self.lookup[i], j)
    }

    /// Later-eliminated neighbours of each node (for inspection and tests).
    pub fn later_neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.later[i].iter().map(|e| e.0)
    }
}

/// Offset of the block of neighbour `j` in a row sorted by neighbour.
fn find(sorted: &[(usize, usize)], j: usize) -> Option<usize> {
    sorted.binary_search_by_key(&j, |e| e.0).ok().map(|k| sorted[k].1)
}

/// The value ranges a reset between assemblies zeros: the blocks the Newton assembly
/// adds into or leaves out, which the factorization overwrote with its factors —
/// body–body couplings (dampers, springs) and fill blocks (absent from the assembly).
/// Assigned in full by every assembly, and not zeroed: every diagonal block (a body's
/// dynamics block, a joint's zero block, a contact's condensed block; force elements add
/// after them), a joint's couplings to its bodies (rows G, columns −Gᵀ) and a contact's
/// couplings (`BlockMatrix::decouple` zeros them for a contact left out).
fn reset_ranges(g: &SparsityGraph, diag: &[usize], row_blocks: &[Vec<(usize, usize)>], value_len: usize) -> Vec<(usize, usize)> {
    let edges = g.adjacency();
    let contact = |k: usize| g.kinds[k] == NodeKind::Contact;
    let assigned = |i: usize, j: usize| {
        let (zi, zj) = (g.kinds[i].has_zero_diagonal(), g.kinds[j].has_zero_diagonal());
        let body = |k: usize| g.kinds[k] == NodeKind::Body;
        let joint_body = (zi && body(j)) || (zj && body(i));
        (joint_body || contact(i) || contact(j)) && edges[i].contains(&j)
    };
    let mut blocks: Vec<(usize, usize, bool)> = Vec::new(); // (start, end, zeroed)
    for (i, &d) in diag.iter().enumerate() {
        blocks.push((d, d + g.sizes[i] * g.sizes[i], false));
        for &(j, o) in &row_blocks[i] {
            blocks.push((o, o + g.sizes[i] * g.sizes[j], !assigned(i, j)));
        }
    }
    blocks.sort_unstable();
    debug_assert!(blocks.windows(2).all(|w| w[0].1 == w[1].0) && blocks.last().map_or(0, |b| b.1) == value_len);
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (s, e, zeroed) in blocks {
        match ranges.last_mut() {
            Some(last) if zeroed && last.1 == s => last.1 = e,
            _ if zeroed => ranges.push((s, e)),
            _ => {}
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::BlockMatrix;

    /// Bodies 0–3 on joints (world–0, 0–1, 1–2, 2–3, 3–0: a loop, so fill), a damper
    /// coupling bodies 0 and 2, and a contact on body 3.
    fn mechanism() -> SparsityGraph {
        let mut g = SparsityGraph::default();
        for _ in 0..4 {
            g.add_node(6, NodeKind::Body);
        }
        let links = [(None, 0), (Some(0), 1), (Some(1), 2), (Some(2), 3), (Some(3), 0)];
        for (p, c) in links {
            let j = g.add_node(5, NodeKind::Joint { to_world: p.is_none() });
            g.add_edge(j, c);
            if let Some(p) = p {
                g.add_edge(j, p);
            }
        }
        g.add_edge(0, 2);
        let c = g.add_node(5, NodeKind::Contact);
        g.add_edge(c, 3);
        g
    }

    #[test]
    fn reset_zeros_all_but_the_assigned_blocks() {
        let g = mechanism();
        let sym = Symbolic::new(&g);
        assert!(sym.fill_blocks > 0);
        let mut m = BlockMatrix::new(&sym);
        m.values.fill(f64::NAN);
        m.reset(&sym);
        let adjacency = g.adjacency();
        for (i, neighbours) in adjacency.iter().enumerate() {
            for j in 0..g.node_count() {
                let Some(o) = sym.block_offset(i, j) else { continue };
                let edge = i != j && neighbours.contains(&j);
                let joint_body = edge && (g.kinds[i].has_zero_diagonal() ^ g.kinds[j].has_zero_diagonal()) && (g.kinds[i] == NodeKind::Body || g.kinds[j] == NodeKind::Body);
                let contact = edge && (g.kinds[i] == NodeKind::Contact || g.kinds[j] == NodeKind::Contact);
                let block = &m.values[o..o + g.sizes[i] * g.sizes[j]];
                if joint_body || contact || i == j {
                    assert!(block.iter().all(|v| v.is_nan()), "block ({i}, {j}) zeroed");
                } else {
                    assert!(block.iter().all(|&v| v == 0.0), "block ({i}, {j}) not zeroed");
                }
            }
        }
        // a contact left out: identity diagonal, zero couplings
        let c = g.node_count() - 1;
        m.decouple(&sym, c);
        for j in 0..g.node_count() {
            for (r, s) in [(c, j), (j, c)] {
                let Some(o) = sym.block_offset(r, s) else { continue };
                let n = g.sizes[r] * g.sizes[s];
                let want = |k: usize| if r == s && k.is_multiple_of(g.sizes[c] + 1) { 1.0 } else { 0.0 };
                assert!((0..n).all(|k| m.values[o + k] == want(k)), "block ({r}, {s}) after decouple");
            }
        }
    }
}
