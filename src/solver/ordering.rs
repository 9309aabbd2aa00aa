//! Elimination order of the graph LDU and the fill it causes, computed once per model
//! (paper section 4, algorithms 3–4: a DFS from the world that finds the cycles; fill-in
//! only inside them). The second stage of the solver pipeline: its result is all that
//! [`Symbolic`](super::Symbolic) needs.
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

use super::sparsity::{NodeKind, SparsityGraph};

/// The elimination order of a graph and the pattern of its factor.
#[derive(Debug, Clone)]
pub struct EliminationOrder {
    /// Nodes in elimination order (each node exactly once).
    pub order: Vec<usize>,
    /// Position of each node in `order`.
    pub position: Vec<usize>,
    /// Per node: its neighbours in the factor (graph edges and fill), sorted by position.
    pub neighbours: Vec<Vec<usize>>,
    /// Number of coupled node pairs of the factor that are not graph edges.
    pub fill_pairs: usize,
}

impl EliminationOrder {
    /// Orders the nodes of `g` and records the fill of eliminating them in that order.
    pub fn of(g: &SparsityGraph) -> EliminationOrder {
        let n = g.node_count();
        let original = g.adjacency();
        let original_pairs: usize = original.iter().map(Vec::len).sum::<usize>() / 2;
        let (order, mut neighbours) = eliminate_all(g, original);
        let mut position = vec![0; n];
        for (p, &i) in order.iter().enumerate() {
            position[i] = p;
        }
        for list in &mut neighbours {
            list.sort_by_key(|&j| position[j]);
        }
        let fill_pairs = neighbours.iter().map(Vec::len).sum::<usize>() / 2 - original_pairs;
        EliminationOrder { order, position, neighbours, fill_pairs }
    }

    /// Neighbours of `i` in the factor that are eliminated after it.
    pub fn later_neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbours[i].iter().copied().filter(move |&j| self.position[j] > self.position[i])
    }
}

/// Elimination order of the nodes of `g` and the elimination graph it leaves (the
/// original adjacency `elim` plus fill).
fn eliminate_all(g: &SparsityGraph, elim: Vec<Vec<usize>>) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = g.node_count();
    let world = n;
    // adjacency with the virtual world node; world-attached nodes are its children in
    // index order, other neighbours in edge order
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for i in 0..n {
        if g.kinds[i].is_attached_to_world() {
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
    let eager = eager_contacts(g, &adj);
    // the elimination graph has no world (it has no matrix block)
    let mut state = Elimination {
        eager,
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
                state.pending.append(&mut left);
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
            state.add_fill(u);
            state.done[u] = true;
            state.order.push(u);
        }
    }
    (state.order, state.elim)
}

/// Contacts on one body beyond which its contacts are eliminated before it.
///
/// A contact waits for one of its bodies (`NodeKind::Contact`): the body is eliminated
/// first and the contacts then meet the regular pivot S − J D⁻¹ W. But that couples every
/// contact of the body with every other: k contacts fill a dense k × k block, so a body
/// on many contacts costs O(k³) per step and in the symbolic analysis (a plate on 256
/// points: 2.2 s to build, 0.47 s a step). Beyond this many, the contacts of a body go
/// first, as leaves of a tree: no fill, linear cost. Their pivots are the condensed
/// blocks themselves (s/γ for the normal force: small when the contact is active), whose
/// Schur complements add the interior point's usual large but exactly formed barrier
/// terms (γ/s)JᵀJ to the body. A box on its eight corners stays as it was.
pub const CROWDED: usize = 8;

/// Per node: a contact on a body with more than [`CROWDED`] contacts, eliminated without
/// waiting for its bodies.
fn eager_contacts(g: &SparsityGraph, adj: &[Vec<usize>]) -> Vec<bool> {
    let n = g.node_count();
    let contact = |w: usize| w < n && g.kinds[w] == NodeKind::Contact;
    let crowded = |b: usize| g.kinds[b] == NodeKind::Body && adj[b].iter().filter(|&&w| contact(w)).count() > CROWDED;
    (0..n).map(|v| contact(v) && adj[v].iter().any(|&b| b < n && crowded(b))).collect()
}

/// The symbolic elimination in progress.
struct Elimination {
    /// Contacts that do not wait for a neighbour ([`eager_contacts`]).
    eager: Vec<bool>,
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
        let kind = g.kinds[v];
        if self.eager[v] {
            return true;
        }
        if kind.waits_for_a_neighbour() {
            return neighbours.iter().any(|&w| w < n && self.done[w]);
        }
        if !kind.has_zero_diagonal() {
            return true;
        }
        let real = || neighbours.iter().copied().filter(|&w| w < n);
        let support: usize = real().filter(|&w| self.done[w]).map(|w| self.free[w]).sum();
        // only nodes that allow a rank-deficient pivot (regularized: loop joints) are
        // forced when all their neighbours are gone; others wait for support
        let forced = g.regularization.get(v).is_some_and(|&r| r > 0.0) && real().all(|w| self.done[w]);
        support >= g.sizes[v] || forced
    }

    /// Eliminating `u` couples all its neighbours not yet eliminated.
    fn add_fill(&mut self, u: usize) {
        let later: Vec<usize> = self.elim[u].iter().copied().filter(|&v| !self.done[v]).collect();
        for (x, &a) in later.iter().enumerate() {
            for &b in &later[x + 1..] {
                if !self.elim[a].contains(&b) {
                    self.elim[a].push(b);
                    self.elim[b].push(a);
                }
            }
        }
    }

    fn eliminate(&mut self, g: &SparsityGraph, adj: &[Vec<usize>], u: usize, rank: &[usize]) {
        self.add_fill(u);
        let kind = g.kinds[u];
        if kind.has_zero_diagonal() {
            // use the columns of the neighbours with the most to spare
            let n = self.done.len();
            let mut need = g.sizes[u];
            while need > 0 {
                let Some(w) = adj[u].iter().copied().filter(|&w| w < n && self.done[w] && self.free[w] > 0).max_by_key(|&w| (self.free[w], usize::MAX - rank[w])) else { break };
                let take = need.min(self.free[w]);
                self.free[w] -= take;
                need -= take;
            }
        } else if !kind.waits_for_a_neighbour() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::NodeKind;

    fn graph(kinds: &[NodeKind], edges: &[(usize, usize)]) -> SparsityGraph {
        let mut g = SparsityGraph::default();
        for &k in kinds {
            g.add_node(if k.has_zero_diagonal() { 3 } else { 6 }, k);
        }
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g
    }

    #[test]
    fn a_tree_has_no_fill_and_every_node_one_later_neighbour() {
        // 0 – 1 – 2, 1 – 3 – 4, 3 – 5
        let g = graph(&[NodeKind::Body; 6], &[(0, 1), (1, 2), (1, 3), (3, 4), (3, 5)]);
        let e = EliminationOrder::of(&g);
        assert_eq!(e.fill_pairs, 0);
        let mut sorted = e.order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..6).collect::<Vec<_>>());
        let roots = (0..6).filter(|&i| e.later_neighbours(i).count() == 0).count();
        assert_eq!(roots, 1, "one root, every other node eliminated before its one DFS parent");
        assert!((0..6).all(|i| e.later_neighbours(i).count() <= 1));
    }

    #[test]
    fn a_cycle_fills_only_inside_itself() {
        // cycle 0–1–2–3–4–0 with a tail 5–6 hanging off node 2
        let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (2, 5), (5, 6)];
        let g = graph(&[NodeKind::Body; 7], &edges);
        let e = EliminationOrder::of(&g);
        assert_eq!(e.fill_pairs, 2, "a 5-cycle needs 5 − 3 chords");
        for i in 0..7 {
            for &j in &e.neighbours[i] {
                let edge = edges.contains(&(i.min(j), i.max(j)));
                assert!(edge || (i < 5 && j < 5), "fill pair ({i}, {j}) leaves the cycle");
            }
        }
    }

    #[test]
    fn a_zero_pivot_joint_goes_after_a_body() {
        // world – joint 2 – body 0 – joint 3 – body 1
        let kinds = [NodeKind::Body, NodeKind::Body, NodeKind::Joint { to_world: true }, NodeKind::Joint { to_world: false }];
        let g = graph(&kinds, &[(2, 0), (3, 0), (3, 1)]);
        let e = EliminationOrder::of(&g);
        assert_eq!(e.fill_pairs, 0);
        for joint in [2, 3] {
            let first_body = g.adjacency()[joint].iter().map(|&b| e.position[b]).min().unwrap();
            assert!(e.position[joint] > first_body, "joint {joint} eliminated before its bodies: {:?}", e.order);
        }
    }

    /// Up to CROWDED contacts on a body are eliminated after it (a dense block among
    /// them); beyond that they go first, as the leaves they are, with no fill.
    #[test]
    fn contacts_of_a_crowded_body_go_first_without_fill() {
        for k in [CROWDED, CROWDED + 1, 40] {
            let mut kinds = vec![NodeKind::Body];
            kinds.extend(std::iter::repeat(NodeKind::Contact).take(k));
            let edges: Vec<(usize, usize)> = (1..=k).map(|c| (0, c)).collect();
            let e = EliminationOrder::of(&graph(&kinds, &edges));
            let body_first = e.position[0] == 0;
            assert_eq!(body_first, k <= CROWDED, "k = {k}: {:?}", e.order);
            assert_eq!(e.fill_pairs, if body_first { k * (k - 1) / 2 } else { 0 }, "k = {k}");
        }
    }
}
