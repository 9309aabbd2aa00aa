//! SCENARIOS B1 (n-link pendulum, revolute and spherical, n = 1…128, 1000 steps at
//! dt = 0.01, tolerance 1e-10) and B5 (the revolute chain at tolerances 1e-6, 1e-8,
//! 1e-10). Medians of 3 runs. The time per body should stay flat (linear complexity):
//! the bar is t(128)/t(64) ≤ 2.3.
//!
//! Run: cargo bench --bench pendulum

use maxdyn_scenes::mechanisms;
use maxdyn_scenes::timing;

use maxdyn::SolverOptions;

/// 1000 steps; returns (mean iterations per step, failures).
fn run(n: usize, spherical: bool, tolerance: f64) -> (f64, usize) {
    let mut sim = mechanisms::pendulum_chain(n, spherical, 0.01);
    sim.set_options(SolverOptions { tolerance, acceptance: tolerance.max(1e-8), ..SolverOptions::default() }).unwrap();
    let (mut iters, mut failures) = (0, 0);
    for _ in 0..1000 {
        match sim.step() {
            Ok(st) => iters += st.iterations,
            Err(_) => failures += 1,
        }
    }
    (iters as f64 / 1000.0, failures)
}

fn main() {
    let sizes = [1usize, 2, 4, 8, 16, 32, 64, 128];
    println!("B1: n-link pendulum, 1000 steps, dt 0.01, tolerance 1e-10 (median of 3)");
    println!("{:>5} | {:>12} {:>8} {:>12} | {:>12} {:>8} {:>12}", "n", "revolute ms", "iters", "µs/body/step", "spherical ms", "iters", "µs/body/step");
    let mut t = [[0.0; 2]; 8];
    for (k, &n) in sizes.iter().enumerate() {
        let mut cells = Vec::new();
        for (s, spherical) in [false, true].into_iter().enumerate() {
            let (secs, (it, fails)) = timing::median(3, || run(n, spherical, 1e-10));
            assert_eq!(fails, 0, "n={n} spherical={spherical}: failed steps");
            t[k][s] = secs;
            cells.push(format!("{:>12.2} {:>8.2} {:>12.3}", secs * 1e3, it, secs * 1e6 / (1000.0 * n as f64)));
        }
        println!("{n:>5} | {} | {}", cells[0], cells[1]);
    }
    println!("t(128)/t(64): revolute {:.2}, spherical {:.2} (bar ≤ 2.3)", t[7][0] / t[6][0], t[7][1] / t[6][1]);

    println!("\nB5: revolute chain at three tolerances (1000 steps; median of 3)");
    println!("{:>5} | {:>24} | {:>24} | {:>24}", "n", "tol 1e-6: ms / iters / fails", "tol 1e-8", "tol 1e-10");
    for &n in &sizes {
        let mut cells = Vec::new();
        for tol in [1e-6, 1e-8, 1e-10] {
            let (secs, (it, fails)) = timing::median(3, || run(n, false, tol));
            cells.push(format!("{:>10.2} {:>7.2} {:>5}", secs * 1e3, it, fails));
        }
        println!("{n:>5} | {} | {} | {}", cells[0], cells[1], cells[2]);
    }
}
