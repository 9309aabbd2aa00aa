//! The structure of a block matrix: node sizes, what kind of pivot each node has, and
//! which node pairs are coupled. The first stage of the solver pipeline
//! (sparsity → [`ordering`](super::ordering) → [`symbolic`](super::symbolic) →
//! [`graph_ldu`](super::graph_ldu)).

/// What a node is, which decides when it may be eliminated (paper section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A regular diagonal block (a body's mass matrix): eliminated in any order.
    Body,
    /// Constraint multipliers with a structurally zero diagonal block: eliminated only
    /// after neighbours that give its pivot support, so the pivot is the Schur
    /// complement −G D⁻¹ Gᵀ rather than 0. `to_world`: the joint ties its body to the
    /// world, so the node is a root of the DFS (the world itself has no unknowns).
    Joint { to_world: bool },
    /// A condensed contact: a regular but possibly nearly singular diagonal block (the
    /// contact is active or sticks), eliminated after one of its neighbours without
    /// taking pivot support from them; the pivot it then meets, S − J D⁻¹ W, stays away
    /// from zero.
    Contact,
}

impl NodeKind {
    pub fn has_zero_diagonal(self) -> bool {
        matches!(self, NodeKind::Joint { .. })
    }

    pub fn is_attached_to_world(self) -> bool {
        matches!(self, NodeKind::Joint { to_world: true })
    }

    pub fn waits_for_a_neighbour(self) -> bool {
        self == NodeKind::Contact
    }
}

/// Node sizes, kinds and couplings of a block matrix.
#[derive(Debug, Clone, Default)]
pub struct SparsityGraph {
    pub sizes: Vec<usize>,
    pub kinds: Vec<NodeKind>,
    /// Coupled node pairs (smaller index first).
    pub edges: Vec<(usize, usize)>,
    /// Relative pivot regularization per node (0: none), see [`SparsityGraph::set_regularization`].
    pub regularization: Vec<f64>,
}

impl SparsityGraph {
    /// Adds a node with a `size`×`size` diagonal block; returns its index.
    pub fn add_node(&mut self, size: usize, kind: NodeKind) -> usize {
        self.sizes.push(size);
        self.kinds.push(kind);
        self.regularization.push(0.0);
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

    /// Couples nodes `a` and `b` (blocks (a, b) and (b, a)); a self-loop is ignored.
    pub fn add_edge(&mut self, a: usize, b: usize) {
        if a != b {
            self.edges.push((a.min(b), a.max(b)));
        }
    }

    pub fn node_count(&self) -> usize {
        self.sizes.len()
    }

    /// Size of the whole matrix.
    pub fn dim(&self) -> usize {
        self.sizes.iter().sum()
    }

    /// Neighbours of every node, each pair once, in edge order (duplicate edges merged).
    pub(super) fn adjacency(&self) -> Vec<Vec<usize>> {
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); self.node_count()];
        for &(a, b) in &self.edges {
            if !adj[a].contains(&b) {
                adj[a].push(b);
                adj[b].push(a);
            }
        }
        adj
    }
}
