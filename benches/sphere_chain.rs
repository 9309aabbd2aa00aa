//! SCENARIOS B2: a chain of n spheres (r = 0.25, m = 1, centres 1 m apart, spherical
//! joints, first body floating) rising at 45°, every sphere with a ground contact (μ = 1),
//! dt = 0.01, 500 steps. Prints time per 500 steps, per body, per body
//! and Newton iteration (the solver's cost, linear when this column is flat), Newton
//! iterations per step, per step that was not split, and the number of split steps (they
//! grow with n: the chain's tip falls from 0.7·n m, so the larger chains spend more of the
//! 5 s in harder impacts, where the full step has no solution and is taken as two halves
//! after a failed attempt), and the worst penetration; medians over five starts (`STARTS`).
//!
//!   cargo bench --bench sphere_chain -- [max_n] [friction] [dt]
//!
//! (friction 1 and dt 0.01 are the scenario's; other dt run the same 5 s.)

use maxdyn_scenes::mechanisms;

use maxdyn::{Builder, Model, Sim};
use std::sync::Arc;
use std::time::Instant;

/// The chain rising at 45° + `tilt` (rad).
fn chain(n: usize, friction: f64, tilt: f64) -> (Builder, Vec<usize>) {
    mechanisms::sphere_chain_rising(n, friction, maxdyn::ConeType::Linear, std::f64::consts::FRAC_PI_4 + tilt)
}

/// One 5 s run.
#[derive(Default, Clone, Copy)]
struct Run {
    seconds: f64,
    iterations: usize,
    split_iterations: usize,
    splits: usize,
    max_iterations: usize,
    fallbacks: usize,
    penetration: f64,
}

fn run(n: usize, friction: f64, dt: f64, steps: usize, tilt: f64) -> Result<Run, String> {
    let (b, cs) = chain(n, friction, tilt);
    let mut s = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    let mut r = Run::default();
    let t = Instant::now();
    for k in 0..steps {
        let st = s.step().map_err(|e| format!("FAILED at step {k}: {e}"))?;
        r.iterations += st.iterations;
        r.max_iterations = r.max_iterations.max(st.iterations);
        r.fallbacks += st.fallback as usize;
        if st.substeps > 1 {
            r.splits += 1;
            r.split_iterations += st.iterations;
        }
        r.penetration = r.penetration.max(cs.iter().map(|&c| -s.contact(c).unwrap().gap).fold(0.0, f64::max));
    }
    r.seconds = t.elapsed().as_secs_f64();
    Ok(r)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Starts: the scenario's exact 45° and four tilted by 1e-12 rad steps. The falling chain is
/// chaotic (at n = 128 such a tilt moves the iterations per step between 22 and 26), so
/// every column is the median over these starts (time: also over the machine's noise).
const STARTS: usize = 5;

fn main() {
    // `cargo bench` appends `--bench` to the arguments
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let arg = |i: usize| args.get(i - 1).and_then(|a| a.parse::<f64>().ok());
    let max_n = arg(1).map(|v| v as usize).unwrap_or(128);
    let (friction, dt) = (arg(2).unwrap_or(1.0), arg(3).unwrap_or(0.01));
    let steps = (5.0 / dt).round() as usize;
    println!("B2 sphere chain: friction {friction}, dt {dt}, {steps} steps; medians over {STARTS} starts (45° + k·1e-12 rad)");
    println!("{:>5} {:>10} {:>14} {:>20} {:>11} {:>11} {:>15} {:>11} {:>10} {:>10} {:>16}", "n", "5 s [ms]", "per body [µs]", "per body·iter [µs]", "iters/step", "(range)", "iters/unsplit", "split steps", "max iters", "fallbacks", "penetration [m]");
    let mut medians: Vec<(usize, f64)> = Vec::new();
    let mut n = 1;
    while n <= max_n {
        let runs: Result<Vec<Run>, String> = (0..STARTS).map(|k| run(n, friction, dt, steps, k as f64 * 1e-12)).collect();
        let runs = match runs {
            Ok(r) => r,
            Err(e) => {
                println!("{n:5} {e}");
                n *= 2;
                continue;
            }
        };
        let med = |f: &dyn Fn(&Run) -> f64| median(runs.iter().map(f).collect());
        let secs = med(&|r| r.seconds);
        let per_step = |r: &Run| r.iterations as f64 / steps as f64;
        let (lo, hi) = runs.iter().map(per_step).fold((f64::INFINITY, 0.0f64), |(a, b), v| (a.min(v), b.max(v)));
        let unsplit = med(&|r| (r.iterations - r.split_iterations) as f64 / (steps - r.splits).max(1) as f64);
        let per_iteration = med(&|r| r.seconds * 1e6 / (n * r.iterations.max(1)) as f64);
        println!(
            "{:5} {:10.1} {:14.1} {:20.2} {:11.1} {:>11} {:15.1} {:11} {:10} {:10} {:16.2e}",
            n,
            secs * 1e3,
            secs * 1e6 / n as f64,
            per_iteration,
            med(&per_step),
            format!("{lo:.1}–{hi:.1}"),
            unsplit,
            med(&|r| r.splits as f64),
            runs.iter().map(|r| r.max_iterations).max().unwrap(),
            runs.iter().map(|r| r.fallbacks).sum::<usize>(),
            runs.iter().map(|r| r.penetration).fold(0.0, f64::max)
        );
        medians.push((n, secs));
        n *= 2;
    }
    let t = |n: usize| medians.iter().find(|m| m.0 == n).map(|m| m.1);
    match (t(64), t(128)) {
        (Some(a), Some(b)) => println!("t(128)/t(64) = {:.2}", b / a),
        _ => println!("t(128)/t(64): not available (n = 64 or 128 not run, or a run failed)"),
    }
}
