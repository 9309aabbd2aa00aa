//! SCENARIOS B4: the graph LDU on its own (Rust API: SparsityGraph → Symbolic →
//! BlockMatrix) against dense LU with partial pivoting, block size 6, random
//! well-conditioned blocks, on ladder (2L nodes), square net (L×L) and cubic crystal
//! (L³) graphs. Sparse = factor + solve (the pattern is computed once, outside the
//! timing, as in a simulation); dense = LU + solve. Checks sparse == dense to 1e-10.
//! Medians of 5 sparse and 3 dense runs (1 dense run above 1000 unknowns).
//!
//! Run: cargo bench --bench sparse_dense

use maxdyn_scenes::timing;

use maxdyn_scenes::graphs::*;
use maxdyn::solver::dense_reference::dense_solve;
use maxdyn::solver::Symbolic;

fn bench(name: &str, l: usize, nodes: usize, edges: Vec<(usize, usize)>) {
    let g = uniform_graph(nodes, 6, &edges);
    let sym = Symbolic::new(&g);
    let mut rng = Rng(42 + nodes as u64);
    let a = random_values(&g, &sym, &mut rng, 1.0);
    let b: Vec<f64> = (0..sym.dim).map(|_| rng.uniform()).collect();
    let mut work = a.clone();
    let (t_sparse, x) = timing::median(5, || {
        work.values.copy_from_slice(&a.values);
        work.factor(&sym).expect("graph LDU");
        let mut x = b.clone();
        work.solve(&sym, &mut x);
        x
    });
    let dense_a = a.to_dense(&sym);
    let reps = if sym.dim > 1000 { 1 } else { 3 };
    let (t_dense, xd) = timing::median(reps, || dense_solve(&dense_a, &b).expect("dense LU"));
    let diff = rel_diff(&x, &xd);
    assert!(diff < 1e-10, "{name} L={l}: sparse vs dense {diff:e}");
    println!(
        "{name:>8} {l:>4} | {nodes:>5} {:>6} {:>7} | {:>11.3} {:>11.3} {:>9.1} | {diff:>9.1e}",
        sym.dim,
        sym.fill_blocks,
        t_sparse * 1e3,
        t_dense * 1e3,
        t_dense / t_sparse
    );
}

fn main() {
    println!("{:>8} {:>4} | {:>5} {:>6} {:>7} | {:>11} {:>11} {:>9} | {:>9}", "graph", "L", "nodes", "dim", "fill", "sparse ms", "dense ms", "speed-up", "rel.diff");
    for l in [5, 10, 20, 40, 80, 151] {
        bench("ladder", l, 2 * l, ladder_edges(l));
    }
    for l in [3, 6, 9, 12, 15, 18] {
        bench("net", l, l * l, net_edges(l));
    }
    for l in [2, 3, 4, 5, 6] {
        bench("crystal", l, l * l * l, crystal_edges(l));
    }
    println!("bars: ladder > 100x at L = 151, net > 10x at L = 18; crystal reported only.");
}
