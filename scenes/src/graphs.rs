//! Test and benchmark graphs for the graph LDU (SCENARIOS B4): tree, cycle, ladder, net,
//! crystal, and a mechanism-like body/joint graph; random block values. Used by the
//! solver tests and the sparse-vs-dense benchmark.

use maxdyn::solver::{BlockMatrix, NodeKind, SparsityGraph, Symbolic};

/// xorshift64*: deterministic random numbers without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [−1, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A graph of `n` nodes of one block size with the given edges.
pub fn uniform_graph(n: usize, size: usize, edges: &[(usize, usize)]) -> SparsityGraph {
    let mut g = SparsityGraph::default();
    for _ in 0..n {
        g.add_node(size, NodeKind::Body);
    }
    for &(a, b) in edges {
        g.add_edge(a, b);
    }
    g
}

/// Random tree: node i > 0 hangs from a random earlier node.
pub fn tree_edges(n: usize, rng: &mut Rng) -> Vec<(usize, usize)> {
    (1..n).map(|i| (rng.below(i), i)).collect()
}

/// One cycle 0–1–…–(n−1)–0.
pub fn cycle_edges(n: usize) -> Vec<(usize, usize)> {
    (0..n).map(|i| (i, (i + 1) % n)).collect()
}

/// Ladder of 2L nodes: rails 2i, 2i+1 with rungs; every square is a 4-cycle.
pub fn ladder_edges(l: usize) -> Vec<(usize, usize)> {
    let mut e = Vec::new();
    for i in 0..l {
        e.push((2 * i, 2 * i + 1));
        if i + 1 < l {
            e.push((2 * i, 2 * i + 2));
            e.push((2 * i + 1, 2 * i + 3));
        }
    }
    e
}

/// Square net of L × L nodes.
pub fn net_edges(l: usize) -> Vec<(usize, usize)> {
    let id = |r: usize, c: usize| r * l + c;
    let mut e = Vec::new();
    for r in 0..l {
        for c in 0..l {
            if c + 1 < l {
                e.push((id(r, c), id(r, c + 1)));
            }
            if r + 1 < l {
                e.push((id(r, c), id(r + 1, c)));
            }
        }
    }
    e
}

/// Cubic crystal of L³ nodes.
pub fn crystal_edges(l: usize) -> Vec<(usize, usize)> {
    let id = |x: usize, y: usize, z: usize| (x * l + y) * l + z;
    let mut e = Vec::new();
    for x in 0..l {
        for y in 0..l {
            for z in 0..l {
                if x + 1 < l {
                    e.push((id(x, y, z), id(x + 1, y, z)));
                }
                if y + 1 < l {
                    e.push((id(x, y, z), id(x, y + 1, z)));
                }
                if z + 1 < l {
                    e.push((id(x, y, z), id(x, y, z + 1)));
                }
            }
        }
    }
    e
}

/// Fills every block of the pattern's original edges (and diagonals) with random values;
/// diagonal blocks get `dominance` · (block degree) on their diagonal so the matrix is
/// well conditioned (SCENARIOS B4: "random well-conditioned blocks"). Zero-diagonal
/// nodes keep a zero diagonal block.
pub fn random_values(g: &SparsityGraph, sym: &Symbolic, rng: &mut Rng, dominance: f64) -> BlockMatrix {
    let mut m = BlockMatrix::new(sym);
    let n = g.sizes.len();
    let mut degree = vec![0usize; n];
    for &(a, b) in &g.edges {
        degree[a] += g.sizes[b];
        degree[b] += g.sizes[a];
        for (i, j) in [(a, b), (b, a)] {
            m.block_mut(sym, i, j).iter_mut().for_each(|v| *v = rng.uniform());
        }
    }
    for i in 0..n {
        if g.kinds[i].has_zero_diagonal() {
            continue;
        }
        let ni = g.sizes[i];
        let blk = m.block_mut(sym, i, i);
        blk.iter_mut().for_each(|v| *v = rng.uniform());
        for r in 0..ni {
            blk[r * ni + r] += dominance * (degree[i] + ni) as f64;
        }
    }
    m
}

/// A mechanism-like KKT graph: `bodies` body nodes (size 6, SPD diagonal) and one
/// zero-diagonal joint node (size `nc`) per body pair in `links`; pair (None, b) ties b
/// to the world. Returns the graph and, per joint, its node.
pub fn mechanism_graph(bodies: usize, links: &[(Option<usize>, usize)], nc: usize) -> SparsityGraph {
    let mut g = SparsityGraph::default();
    for _ in 0..bodies {
        g.add_node(6, NodeKind::Body);
    }
    for &(p, c) in links {
        let j = g.add_node(nc, NodeKind::Joint { to_world: p.is_none() });
        g.add_edge(j, c);
        if let Some(p) = p {
            g.add_edge(j, p);
        }
    }
    g
}

/// Random values for a [`mechanism_graph`] shaped like the Newton matrix: body blocks
/// B Bᵀ + I·`dominance` (SPD), joint rows G against each body and body columns −Gᵀ, zero
/// joint diagonals; the joint pivots G D⁻¹ Gᵀ are then positive definite.
pub fn random_kkt_values(g: &SparsityGraph, sym: &Symbolic, rng: &mut Rng, dominance: f64) -> BlockMatrix {
    let mut m = BlockMatrix::new(sym);
    for &(a, b) in &g.edges {
        let (j, body) = if g.kinds[a].has_zero_diagonal() { (a, b) } else { (b, a) };
        let (nj, nb) = (g.sizes[j], g.sizes[body]);
        let gj: Vec<f64> = (0..nj * nb).map(|_| rng.uniform()).collect();
        m.block_mut(sym, j, body).copy_from_slice(&gj);
        let blk = m.block_mut(sym, body, j);
        for r in 0..nb {
            for c in 0..nj {
                blk[r * nj + c] = -gj[c * nb + r];
            }
        }
    }
    for i in 0..g.sizes.len() {
        if g.kinds[i].has_zero_diagonal() {
            continue;
        }
        let n = g.sizes[i];
        let b: Vec<f64> = (0..n * n).map(|_| rng.uniform()).collect();
        let blk = m.block_mut(sym, i, i);
        for r in 0..n {
            for c in 0..n {
                blk[r * n + c] = (0..n).map(|k| b[r * n + k] * b[c * n + k]).sum::<f64>() + if r == c { dominance } else { 0.0 };
            }
        }
    }
    m
}

pub fn rel_diff(a: &[f64], b: &[f64]) -> f64 {
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    a.iter().zip(b).fold(0.0f64, |m, (x, y)| m.max((x - y).abs())) / scale
}
