//! The graph LDU against a dense LU on random block systems (tree, cycle, ladder, net,
//! crystal, mechanism-like KKT graphs with zero-diagonal joint nodes), and its fill-in:
//! none on trees, O(n) on one cycle, never outside cycles.

use maxdyn_scenes::graphs;

use graphs::*;
use maxdyn::solver::dense_reference::dense_solve;
use maxdyn::solver::{BlockMatrix, NodeKind, SingularPivot, SparsityGraph, Symbolic};
use std::collections::HashSet;

/// Factor + solve with the graph LDU and with dense LU; returns the relative difference.
fn sparse_vs_dense(g: &SparsityGraph, seed: u64) -> f64 {
    let sym = Symbolic::new(g);
    let mut rng = Rng(seed);
    let a = if g.kinds.iter().any(|k| k.has_zero_diagonal()) { random_kkt_values(g, &sym, &mut rng, 1.0) } else { random_values(g, &sym, &mut rng, 1.0) };
    let b: Vec<f64> = (0..sym.dim).map(|_| rng.uniform()).collect();
    let dense = dense_solve(&a.to_dense(&sym), &b).expect("dense LU succeeds");
    let mut f = a.clone();
    f.factor(&sym).expect("graph LDU succeeds");
    let mut x = b.clone();
    f.solve(&sym, &mut x);
    // the residual of the sparse answer with the unfactored matrix, too
    // normwise backward error ‖Ax − b‖ / (‖A‖ ‖x‖ + ‖b‖): the sparse answer is as good
    // as the dense one
    let dense_a = a.to_dense(&sym);
    let norm_a = (0..sym.dim).map(|r| dense_a[r * sym.dim..(r + 1) * sym.dim].iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    let inf = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let backward_error = |x: &[f64]| {
        let mut ax = vec![0.0; sym.dim];
        a.multiply(&sym, x, &mut ax);
        let r: Vec<f64> = ax.iter().zip(&b).map(|(p, q)| p - q).collect();
        inf(&r) / (norm_a * inf(x) + inf(&b))
    };
    let (es, ed) = (backward_error(&x), backward_error(&dense));
    if std::env::var("SHOW").is_ok() { eprintln!("n={} be {es:e} {ed:e} diff {:e}", g.sizes.len(), rel_diff(&x, &dense)); }
    // 1e-11: block elimination without pivoting across blocks; the worst random KKT
    // draw (condition ~1e8) measures 5e-12 against dense 5e-17
    assert!(es < 1e-11, "sparse backward error {es:e}, dense {ed:e}");
    rel_diff(&x, &dense)
}

#[test]
fn sparse_equals_dense_on_trees() {
    for (k, n) in [1usize, 2, 5, 20, 60].into_iter().enumerate() {
        let mut rng = Rng(11 + k as u64);
        let g = uniform_graph(n, 6, &tree_edges(n, &mut rng));
        let d = sparse_vs_dense(&g, 100 + k as u64);
        assert!(d < 1e-10, "tree n={n}: {d:e}");
    }
}

#[test]
fn sparse_equals_dense_on_cycles_ladders_nets_crystals() {
    let cases: Vec<(String, SparsityGraph)> = vec![
        ("cycle 3".into(), uniform_graph(3, 6, &cycle_edges(3))),
        ("cycle 17".into(), uniform_graph(17, 6, &cycle_edges(17))),
        ("ladder 2x12".into(), uniform_graph(24, 6, &ladder_edges(12))),
        ("net 6x6".into(), uniform_graph(36, 6, &net_edges(6))),
        ("crystal 3^3".into(), uniform_graph(27, 6, &crystal_edges(3))),
        ("mixed sizes ladder".into(), {
            let mut g = SparsityGraph::default();
            for i in 0..16 {
                g.add_node(1 + i % 6, NodeKind::Body);
            }
            for (a, b) in ladder_edges(8) {
                g.add_edge(a, b);
            }
            g
        }),
    ];
    for (k, (name, g)) in cases.iter().enumerate() {
        let d = sparse_vs_dense(g, 7 + k as u64);
        assert!(d < 1e-10, "{name}: {d:e}");
    }
}

/// Mechanism-shaped systems: 6×6 body blocks and zero-diagonal joint blocks, on a
/// chain, a chain with a loop-closing joint, a ladder of loops (B3-like), and a loop
/// through the world. The joint pivots are Schur complements −G D⁻¹ Gᵀ.
#[test]
fn sparse_equals_dense_on_mechanism_graphs() {
    let chain: Vec<(Option<usize>, usize)> = (0..12).map(|i| (if i == 0 { None } else { Some(i - 1) }, i)).collect();
    let mut closed = chain.clone();
    closed.push((Some(7), 2)); // closes a 6-body loop
    let mut two_loops = closed.clone();
    two_loops.push((None, 11)); // a second loop, through the world
    // ladder of four-body loops: bodies 2i, 2i+1 with rungs
    let mut ladder = vec![(None, 0), (None, 1)];
    for i in 0..5 {
        ladder.push((Some(2 * i), 2 * i + 1));
        ladder.push((Some(2 * i), 2 * i + 2));
        ladder.push((Some(2 * i + 1), 2 * i + 3));
    }
    // a ladder of 5-row joints has more rows than columns (planar ladders are redundant)
    let cases = [("chain", 12, chain, &[3, 5]), ("chain + loop", 12, closed, &[3, 5]), ("two loops", 12, two_loops, &[3, 5]), ("ladder", 12, ladder, &[2, 3])];
    for (k, (name, nb, links, ncs)) in cases.into_iter().enumerate() {
        for &nc in ncs {
            let g = mechanism_graph(nb, &links, nc);
            let d = sparse_vs_dense(&g, 31 + k as u64 * 10 + nc as u64);
            assert!(d < 1e-10, "{name} nc={nc}: {d:e}");
        }
    }
}

/// Random mechanisms: a random tree of bodies from the world plus loop-closing joints
/// between bodies at least 8 tree levels apart. Overlapping loops can put more
/// constraint rows than velocity columns on a set of bodies (a singular system, not a
/// solver test): those draws are skipped, by the dense matrix's condition number.
#[test]
fn sparse_equals_dense_on_random_mechanisms() {
    let (mut tested, mut skipped) = (0, 0);
    for seed in 1..40u64 {
        let mut rng = Rng(1000 + seed);
        let n = 8 + rng.below(40);
        let mut parent = vec![None; n];
        let mut depth = vec![1usize; n];
        let mut links = vec![(None, 0)];
        for i in 1..n {
            let p = rng.below(i);
            parent[i] = Some(p);
            depth[i] = depth[p] + 1;
            links.push((Some(p), i));
        }
        let dist = |mut a: usize, mut b: usize| {
            let mut d = 0;
            while a != b {
                if depth[a] >= depth[b] {
                    a = parent[a].unwrap_or(a);
                } else {
                    b = parent[b].unwrap_or(b);
                }
                d += 1;
                if d > 1000 {
                    break; // different roots cannot happen: all hang from body 0
                }
            }
            d
        };
        let mut loops = 0;
        for _ in 0..4 * n {
            if loops >= n / 8 + 1 {
                break;
            }
            let (a, b) = (rng.below(n), rng.below(n));
            if dist(a, b) >= 8 {
                links.push((Some(a), b));
                loops += 1;
            }
        }
        for nc in [3, 5] {
            let g = mechanism_graph(n, &links, nc);
            if condition_number(&g, seed * 7 + nc as u64) > 1e8 {
                skipped += 1;
                continue;
            }
            let d = sparse_vs_dense(&g, seed * 7 + nc as u64);
            assert!(d < 1e-10, "seed {seed} n={n} loops={loops} nc={nc}: {d:e}");
            tested += 1;
        }
    }
    assert!(tested >= 60, "only {tested} regular draws ({skipped} singular)");
}

/// 2-norm condition number of the random KKT matrix `sparse_vs_dense` builds.
fn condition_number(g: &SparsityGraph, seed: u64) -> f64 {
    let sym = Symbolic::new(g);
    let a = random_kkt_values(g, &sym, &mut Rng(seed), 1.0);
    let m = nalgebra::DMatrix::from_row_slice(sym.dim, sym.dim, &a.to_dense(&sym));
    let sv = m.singular_values();
    sv.max() / sv.min()
}

/// Pairs of the factor's pattern that are not edges of the graph.
fn fill_pairs(g: &SparsityGraph, sym: &Symbolic) -> Vec<(usize, usize)> {
    let edges: HashSet<(usize, usize)> = g.edges.iter().copied().collect();
    let n = g.sizes.len();
    let mut fill = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if sym.block_offset(i, j).is_some() && !edges.contains(&(i, j)) {
                fill.push((i, j));
            }
        }
    }
    assert_eq!(fill.len(), sym.fill_blocks);
    fill
}

#[test]
fn no_fill_on_trees() {
    for seed in 1..20u64 {
        let mut rng = Rng(seed);
        let n = 2 + rng.below(80);
        let g = uniform_graph(n, 6, &tree_edges(n, &mut rng));
        assert_eq!(Symbolic::new(&g).fill_blocks, 0, "random tree seed {seed}");
        // mechanism trees: every joint pivot sees exactly its eliminated child body
        let links: Vec<(Option<usize>, usize)> = (0..n).map(|i| (if i == 0 { None } else { Some(rng.below(i)) }, i)).collect();
        let g = mechanism_graph(n, &links, 5);
        assert_eq!(Symbolic::new(&g).fill_blocks, 0, "random mechanism tree seed {seed}");
    }
}

/// One cycle of n nodes with trees hanging off it: the fill is at most n − 3 pairs
/// (a cycle needs n − 3 chords to be triangulated) and every fill pair joins two cycle
/// nodes.
#[test]
fn fill_stays_inside_a_cycle() {
    for n in [3usize, 4, 10, 40, 100] {
        let mut rng = Rng(n as u64);
        let mut edges = cycle_edges(n);
        // 3n tree nodes hanging off random cycle nodes or off each other
        let extra = 3 * n;
        for k in 0..extra {
            let id = n + k;
            edges.push((rng.below(id), id));
        }
        let g = uniform_graph(n + extra, 6, &edges);
        let sym = Symbolic::new(&g);
        let fill = fill_pairs(&g, &sym);
        assert!(fill.len() <= n.saturating_sub(3), "cycle {n}: {} fill pairs", fill.len());
        for &(a, b) in &fill {
            assert!(a < n && b < n, "cycle {n}: fill pair ({a}, {b}) leaves the cycle");
        }
    }
}

/// A ladder's fill grows linearly with its length (each square adds a bounded number
/// of pairs), a chain of disjoint loops keeps fill inside each loop.
#[test]
fn fill_is_linear_on_ladders() {
    let f = |l: usize| Symbolic::new(&uniform_graph(2 * l, 6, &ladder_edges(l))).fill_blocks;
    let (f50, f100) = (f(50), f(100));
    assert!(f50 > 0);
    assert!(f100 <= 2 * f50 + 2, "ladder fill 50: {f50}, 100: {f100}");
    assert!(f100 <= 2 * 100, "ladder fill per rung bounded: {f100}");
}

#[test]
fn loop_closing_joint_is_eliminated_after_a_body() {
    // a joint that closes a loop is a DFS leaf; held back until a neighbour is gone
    let links = vec![(None, 0), (Some(0), 1), (Some(1), 2), (Some(2), 0)];
    let g = mechanism_graph(3, &links, 5);
    let sym = Symbolic::new(&g);
    for (j, _) in links.iter().enumerate() {
        let node = 3 + j;
        let first_neighbour = g.edges.iter().filter(|e| e.0 == node || e.1 == node).map(|e| if e.0 == node { e.1 } else { e.0 }).map(|b| sym.position[b]).min().unwrap();
        assert!(sym.position[node] > first_neighbour, "joint {j} eliminated before all its bodies");
    }
}

/// Redundant constraints: two identical joints between the same bodies make the
/// Schur complement singular. With a relative pivot regularization the factorization
/// succeeds, and for a consistent right-hand side the body part of the answer is the
/// exact one.
#[test]
fn regularized_pivot_solves_redundant_systems() {
    let links = vec![(None, 0), (Some(0), 1), (Some(0), 1)];
    let mut g = mechanism_graph(2, &links, 3);
    let sym0 = Symbolic::new(&g);
    let mut rng = Rng(5);
    let mut a = random_values(&g, &sym0, &mut rng, 1.0);
    // joint 2 repeats joint 1 exactly (both its blocks)
    for body in [0, 1] {
        let r = a.block(&sym0, 3, body).to_vec();
        a.block_mut(&sym0, 4, body).copy_from_slice(&r);
        let c = a.block(&sym0, body, 3).to_vec();
        a.block_mut(&sym0, body, 4).copy_from_slice(&c);
    }
    // the repeated rows make the matrix exactly singular: dense LU meets an exact zero
    // pivot, and the graph LDU finds the Schur complement of the joint eliminated second
    // to be exactly zero (measured: all its entries 0.0)
    let dense = a.to_dense(&sym0);
    assert!(dense_solve(&dense, &vec![1.0; sym0.dim]).is_none(), "dense LU factored a singular matrix");
    let second = if sym0.position[3] < sym0.position[4] { 4 } else { 3 };
    assert_eq!(a.clone().factor(&sym0), Err(SingularPivot(second)));
    for j in [3, 4] {
        g.set_regularization(j, 1e-10);
    }
    let sym = Symbolic::new(&g);
    let mut f = a.clone();
    f.factor(&sym).expect("regularized factorization succeeds");
    let x0: Vec<f64> = (0..sym.dim).map(|_| rng.uniform()).collect();
    let mut b = vec![0.0; sym.dim];
    a.multiply(&sym, &x0, &mut b);
    let mut x = b.clone();
    f.solve(&sym, &mut x);
    let mut ax = vec![0.0; sym.dim];
    a.multiply(&sym, &x, &mut ax);
    assert!(rel_diff(&ax, &b) < 1e-8, "residual {:e}", rel_diff(&ax, &b));
    // body unknowns are unique; multipliers of the repeated joints are not
    assert!(rel_diff(&x[..12], &x0[..12]) < 1e-8, "bodies {:e}", rel_diff(&x[..12], &x0[..12]));
}

/// A node without coupling (a contact left out of a step) is skipped by factor and solve
/// (`BlockMatrix::decouple`); the answer still equals dense LU of the same matrix (1e-12),
/// with the node's entries passed through (x = b there).
#[test]
fn decoupled_nodes_are_skipped_exactly() {
    let mut rng = Rng(5);
    let n = 40;
    let g = uniform_graph(n, 5, &tree_edges(n, &mut rng));
    let sym = Symbolic::new(&g);
    let mut a = random_values(&g, &sym, &mut rng, 1.0);
    // decouple a few nodes, leaves and inner ones alike
    let chosen = [3usize, 17, 29, 39];
    for &i in &chosen {
        leave_out(&g, &sym, &mut a, i);
    }
    let b: Vec<f64> = (0..sym.dim).map(|_| rng.uniform()).collect();
    let x = solve_as_dense_lu_does(&sym, &mut a, &b);
    for &i in &chosen {
        let o = sym.offsets[i];
        assert_eq!(&x[o..o + 5], &b[o..o + 5], "node {i} not passed through");
    }
}

/// A pile's pattern: bodies on a 5 × 5 net, each neighbour pair touching through a
/// contact node (no direct coupling), most contacts left out. Eliminating a body fills
/// between its contacts; the fill between left-out contacts and bodies stays zero and is
/// skipped (`BlockMatrix::zero_fill_blocks`), and the answer still equals dense LU of the
/// same matrix (1e-12). Here 53 of the 152 fill pairs are found zero and skipped.
#[test]
fn fill_fed_only_by_decoupled_nodes_is_skipped_exactly() {
    let mut rng = Rng(8);
    let bodies = 25;
    let mut g = SparsityGraph::default();
    for _ in 0..bodies {
        g.add_node(6, NodeKind::Body);
    }
    let mut contacts = Vec::new();
    for (a, b) in net_edges(5) {
        let c = g.add_node(4, NodeKind::Contact);
        g.add_edge(c, a);
        g.add_edge(c, b);
        contacts.push(c);
    }
    let sym = Symbolic::new(&g);
    assert_eq!(sym.fill_blocks, 152);
    let mut a = random_values(&g, &sym, &mut rng, 1.0);
    // two contacts in three left out, as a resting pile's layout
    for &c in contacts.iter().filter(|&&c| c % 3 != 0) {
        leave_out(&g, &sym, &mut a, c);
    }
    let b: Vec<f64> = (0..sym.dim).map(|_| rng.uniform()).collect();
    solve_as_dense_lu_does(&sym, &mut a, &b);
    assert_eq!(a.zero_fill_blocks(&sym), 53);
}

/// Node `i` left out of the step as the contact culling does: its blocks zero, then
/// `BlockMatrix::decouple`.
fn leave_out(g: &SparsityGraph, sym: &Symbolic, a: &mut BlockMatrix, i: usize) {
    for &(x, y) in &g.edges {
        if x == i || y == i {
            a.block_mut(sym, x, y).iter_mut().for_each(|v| *v = 0.0);
            a.block_mut(sym, y, x).iter_mut().for_each(|v| *v = 0.0);
        }
    }
    a.block_mut(sym, i, i).iter_mut().for_each(|v| *v = 0.0);
    a.decouple(sym, i);
}

/// Factors `a` and solves for `b`; asserts the answer equals dense LU's of the same
/// matrix to 1e-12 (relative) and returns it.
fn solve_as_dense_lu_does(sym: &Symbolic, a: &mut BlockMatrix, b: &[f64]) -> Vec<f64> {
    let dense = dense_solve(&a.to_dense(sym), b).expect("dense LU succeeds");
    let mut x = b.to_vec();
    a.factor(sym).expect("graph LDU succeeds");
    a.solve(sym, &mut x);
    let diff = rel_diff(&x, &dense);
    assert!(diff < 1e-12, "graph solve differs from dense LU by {diff:e}");
    x
}

/// Many right-hand sides at once (`solve_many`, the step derivatives' columns) give the
/// one-at-a-time solves: on mechanism-like KKT graphs (a chain, and one with a loop), 7
/// columns. The sums run in another order (whole rows at a time), so they differ at
/// rounding: largest difference relative to the solution 5.9e-14 measured on these
/// random KKT values.
#[test]
fn solving_many_right_hand_sides_equals_solving_each() {
    let chain: Vec<(Option<usize>, usize)> = (0..12).map(|i| (if i == 0 { None } else { Some(i - 1) }, i)).collect();
    let mut closed = chain.clone();
    closed.push((Some(11), 3));
    for edges in [chain, closed] {
        let g = mechanism_graph(12, &edges, 5);
        let sym = Symbolic::new(&g);
        let mut rng = Rng(5);
        let mut a = random_kkt_values(&g, &sym, &mut rng, 1.0);
        a.factor(&sym).expect("graph LDU succeeds");
        let m = 7;
        let cols: Vec<Vec<f64>> = (0..m).map(|_| (0..sym.dim).map(|_| rng.uniform()).collect()).collect();
        let mut many = vec![0.0; sym.dim * m];
        for (k, c) in cols.iter().enumerate() {
            for (i, v) in c.iter().enumerate() {
                many[i * m + k] = *v;
            }
        }
        a.solve_many(&sym, &mut many, m);
        for (k, c) in cols.iter().enumerate() {
            let mut x = c.clone();
            a.solve(&sym, &mut x);
            let scale = x.iter().fold(0.0f64, |s, v| s.max(v.abs()));
            let worst = x.iter().enumerate().fold(0.0f64, |w, (i, v)| w.max((v - many[i * m + k]).abs()));
            if std::env::var("SHOW").is_ok() { eprintln!("column {k}: {:e}", worst / scale); }
            assert!(worst <= 5e-13 * scale, "column {k}: {:e}", worst / scale);
        }
    }
}
