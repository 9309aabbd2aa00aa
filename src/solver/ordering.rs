//! Elimination order of the graph LDU, computed once per model (paper section 4,
//! algorithms 3–4: a DFS from the world that finds the cycles; fill-in only inside them).
//!
//! 1. A depth-first search from the world (a virtual root joined to every
//!    world-attached node; then from any node not reached) splits the graph into its
//!    biconnected blocks (Hopcroft–Tarjan). A block is either a single edge (a bridge:
//!    the tree part of a mechanism) or a set of cycles sharing edges (a loop, a ladder).
//!    Loops closed through the world (two joints to the ground) are cycles through the
//!    virtual root, so they are found too.
//! 2. Blocks are processed leaves first (the order in which the DFS completes them);
//!    each block eliminates all its nodes except its root, the node through which the
//!    DFS entered it. Eliminating a node then couples only nodes of its own block, so
//!    fill-in never leaves a cycle and a tree (all blocks bridges) has none.
//! 3. Inside a cyclic block the nodes go by minimum degree in the elimination graph
//!    (ties: DFS postorder). On one cycle this is its DFS order (n − 3 fill pairs); on a
//!    ladder it walks along the rungs (fill linear in the length), where a plain DFS
//!    postorder would run around the ladder's long Hamiltonian cycle and fill it
//!    quadratically.
//!
//! A zero-diagonal node (joint multipliers) is eligible only once its eliminated
//! neighbours offer enough unused columns for its rows (see `Elimination::eligible`), so
//! its pivot is a regular Schur complement G D⁻¹ Gᵀ, never 0 or singular by structure.
//! A joint that finds no support inside its cycle waits for the cycle's root body and is
//! eliminated right after it: its fill reaches the root's other neighbours (a few pairs
//! next to the cycle, still O(1) per cycle).

use super::graph_ldu::SparsityGraph;

/// Elimination order of the nodes of `g` (each node exactly once).
pub(crate) fn elimination_order(g: &SparsityGraph) -> Vec<usize> {
    let n = g.sizes.len();
    let world = n;
    // adjacency with the virtual world node; world-attached nodes are its children in
    // index order, other neighbours in edge order
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for i in 0..n {
        if g.world_attached[i] {
            adj[world].push(i);
            adj[i].push(world);
        }
    }
    for &(a, b) in &g.edges {
        if a != b && !adj[a].contains(&b) {
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    let (blocks, roots, rank) = biconnected_blocks(&adj, world);
    // elimination graph without the world (it has no matrix block)
    let elim: Vec<Vec<usize>> = adj.iter().take(n).map(|a| a.iter().copied().filter(|&v| v != world).collect()).collect();
    let mut state = Elimination {
        elim,
        done: vec![false; n],
        free: vec![0; n],
        pending: Vec::new(),
        order: Vec::with_capacity(n),
    };
    for (block, &root) in blocks.iter().zip(&roots) {
        let mut left: Vec<usize> = block.iter().copied().filter(|&v| v != root && v != world && !state.done[v]).collect();
        while !left.is_empty() {
            let best = left
                .iter()
                .enumerate()
                .filter(|(_, &v)| state.eligible(g, &adj[v], v))
                .min_by_key(|(_, &v)| (state.degree(v), rank[v]))
                .map(|(k, _)| k);
            let Some(k) = best else {
                // joints waiting for the block's root (a cycle of k bodies and k joints
                // has one joint more than non-root bodies): eliminated right after it
                state.pending.extend(left.drain(..));
                break;
            };
            let u = left.swap_remove(k);
            state.eliminate(g, &adj, u, &rank);
        }
    }
    // DFS roots of components not attached to the world go last
    let mut rest: Vec<usize> = (0..n).filter(|&v| !state.done[v] && !state.pending.contains(&v)).collect();
    rest.sort_by_key(|&v| rank[v]);
    for u in rest {
        if !state.done[u] {
            state.eliminate(g, &adj, u, &rank);
        }
    }
    // a zero-diagonal node that never became eligible (malformed graph): last, by rank
    let mut stuck = std::mem::take(&mut state.pending);
    stuck.sort_by_key(|&v| rank[v]);
    for u in stuck {
        if !state.done[u] {
            state.done[u] = true;
            state.order.push(u);
        }
    }
    state.order
}

/// The symbolic elimination in progress.
struct Elimination {
    /// Elimination graph (original edges plus fill), without the world.
    elim: Vec<Vec<usize>>,
    done: Vec<bool>,
    /// Per eliminated node with a regular diagonal: its columns not yet used as pivot
    /// support by a zero-diagonal node.
    free: Vec<usize>,
    /// Zero-diagonal nodes waiting for an eligible neighbour.
    pending: Vec<usize>,
    order: Vec<usize>,
}

impl Elimination {
    fn degree(&self, v: usize) -> usize {
        self.elim[v].iter().filter(|&&w| !self.done[w]).count()
    }

    /// A zero-diagonal node (nc multiplier rows) needs nc unused columns among its
    /// eliminated original neighbours: then the eliminated set's constraint rows always
    /// have columns of their own (a block matching), every leading principal submatrix
    /// [D −Gᵀ; G 0] stays regular, and no pivot is singular by structure. (With only
    /// "some neighbour eliminated", two revolute joints at one body would both take
    /// their pivot from its 6 columns: 10 rows.) A regularized node (a loop joint) whose
    /// neighbours are all eliminated goes anyway: it closes a loop with more rows than
    /// columns (a planar loop in 3-D), its pivot is rank deficient by the loop's
    /// redundancy and the pivot regularization handles that. Waiting would push the
    /// deficit up the chain of loops and pile the fill up at the root.
    fn eligible(&self, g: &SparsityGraph, neighbours: &[usize], v: usize) -> bool {
        let n = self.done.len();
        if g.after_neighbour[v] {
            return neighbours.iter().any(|&w| w < n && self.done[w]);
        }
        if !g.zero_diagonal[v] {
            return true;
        }
        let real = || neighbours.iter().copied().filter(|&w| w < n);
        let support: usize = real().filter(|&w| self.done[w]).map(|w| self.free[w]).sum();
        // only nodes that allow a rank-deficient pivot (regularized: loop joints) are
        // forced when all their neighbours are gone; others wait for support
        let forced = g.regularization.get(v).is_some_and(|&r| r > 0.0) && real().all(|w| self.done[w]);
        support >= g.sizes[v] || forced
    }

    fn eliminate(&mut self, g: &SparsityGraph, adj: &[Vec<usize>], u: usize, rank: &[usize]) {
        let later: Vec<usize> = self.elim[u].iter().copied().filter(|&v| !self.done[v]).collect();
        for (x, &a) in later.iter().enumerate() {
            for &b in &later[x + 1..] {
                if !self.elim[a].contains(&b) {
                    self.elim[a].push(b);
                    self.elim[b].push(a);
                }
            }
        }
        if g.zero_diagonal[u] {
            // use the columns of the neighbours with the most to spare
            let n = self.done.len();
            let mut need = g.sizes[u];
            while need > 0 {
                let Some(w) = adj[u].iter().copied().filter(|&w| w < n && self.done[w] && self.free[w] > 0).max_by_key(|&w| (self.free[w], usize::MAX - rank[w])) else { break };
                let take = need.min(self.free[w]);
                self.free[w] -= take;
                need -= take;
            }
        } else if !g.after_neighbour[u] {
            self.free[u] = g.sizes[u];
        }
        self.done[u] = true;
        self.order.push(u);
        // release waiting nodes (may cascade)
        while let Some(k) = (0..self.pending.len())
            .filter(|&k| self.eligible(g, &adj[self.pending[k]], self.pending[k]))
            .min_by_key(|&k| rank[self.pending[k]])
        {
            let p = self.pending.swap_remove(k);
            self.eliminate(g, adj, p, rank);
        }
    }
}

/// Biconnected blocks of the graph (node sets), in the order the DFS completes them
/// (children before parents), each with its root (the node the DFS entered it from),
/// plus every node's DFS postorder rank. Iterative Hopcroft–Tarjan from `start`, then
/// from every node not reached.
fn biconnected_blocks(adj: &[Vec<usize>], start: usize) -> (Vec<Vec<usize>>, Vec<usize>, Vec<usize>) {
    let n = adj.len();
    const NONE: usize = usize::MAX;
    let mut disc = vec![NONE; n];
    let mut low = vec![0; n];
    let mut rank = vec![0; n];
    let mut finished = 0;
    let mut blocks = Vec::new();
    let mut roots = Vec::new();
    let mut edge_stack: Vec<(usize, usize)> = Vec::new();
    let mut time = 0;
    let starts = std::iter::once(start).chain(0..n);
    for s in starts {
        if disc[s] != NONE {
            continue;
        }
        disc[s] = time;
        low[s] = time;
        time += 1;
        // frames: (node, parent, next neighbour index)
        let mut stack: Vec<(usize, usize, usize)> = vec![(s, NONE, 0)];
        while let Some(&mut (u, parent, ref mut next)) = stack.last_mut() {
            if *next < adj[u].len() {
                let v = adj[u][*next];
                *next += 1;
                if disc[v] == NONE {
                    edge_stack.push((u, v));
                    disc[v] = time;
                    low[v] = time;
                    time += 1;
                    stack.push((v, u, 0));
                } else if v != parent && disc[v] < disc[u] {
                    edge_stack.push((u, v)); // back edge
                    low[u] = low[u].min(disc[v]);
                }
                continue;
            }
            stack.pop();
            rank[u] = finished;
            finished += 1;
            if parent == NONE {
                continue;
            }
            low[parent] = low[parent].min(low[u]);
            if low[u] >= disc[parent] {
                // parent is the root of the block containing edge (parent, u)
                let mut block = Vec::new();
                while let Some((a, b)) = edge_stack.pop() {
                    for x in [a, b] {
                        if !block.contains(&x) {
                            block.push(x);
                        }
                    }
                    if (a, b) == (parent, u) {
                        break;
                    }
                }
                blocks.push(block);
                roots.push(parent);
            }
        }
    }
    (blocks, roots, rank)
}
