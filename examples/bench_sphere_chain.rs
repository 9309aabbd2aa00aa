//! SCENARIOS B2: a chain of n spheres (r = 0.25, m = 1, centres 1 m apart, spherical
//! joints, first body floating) rising at 45°, every sphere with a ground contact (μ = 1),
//! dt = 0.01, 500 steps. Prints time per 500 steps (median of 3 runs), per body, per body
//! and Newton iteration (the solver's cost, linear when this column is flat), Newton
//! iterations per step, per step that was not split, and the number of split steps (they
//! grow with n: the chain's tip falls from 0.7·n m, so the larger chains spend more of the
//! 5 s in harder impacts, where the full step has no solution and is taken as two halves
//! after a failed attempt), and the worst penetration.
//!
//!   cargo run --release --example bench_sphere_chain [max_n] [friction] [dt]
//!
//! (friction 1 and dt 0.01 are the scenario's; other dt run the same 5 s.)

#[path = "common/mechanisms.rs"]
mod mechanisms;

use maxdyn::{Builder, Model, Sim};
use std::sync::Arc;
use std::time::Instant;

fn chain(n: usize, friction: f64) -> (Builder, Vec<usize>) {
    mechanisms::sphere_chain(n, friction, maxdyn::ConeType::Linear)
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i).and_then(|a| a.parse::<f64>().ok());
    let max_n = arg(1).map(|v| v as usize).unwrap_or(128);
    let (friction, dt) = (arg(2).unwrap_or(1.0), arg(3).unwrap_or(0.01));
    let steps = (5.0 / dt).round() as usize;
    println!("B2 sphere chain: friction {friction}, dt {dt}, {steps} steps");
    println!("{:>5} {:>10} {:>14} {:>20} {:>11} {:>15} {:>11} {:>10} {:>10} {:>16}", "n", "5 s [ms]", "per body [µs]", "per body·iter [µs]", "iters/step", "iters/unsplit", "split steps", "max iters", "fallbacks", "penetration [m]");
    let mut medians: Vec<(usize, f64)> = Vec::new();
    let mut n = 1;
    while n <= max_n {
        let (b, cs) = chain(n, friction);
        let model = Arc::new(Model::new(&b).unwrap());
        let mut times = Vec::new();
        let (mut iters, mut max_it, mut pen, mut fallbacks, mut splits) = (0usize, 0usize, 0.0f64, 0usize, 0usize);
        let mut split_iters = 0usize;
        let mut failed = None;
        for rep in 0..3 {
            let mut s = Sim::new(model.clone(), dt).unwrap();
            let t = Instant::now();
            for k in 0..steps {
                let st = match s.step() {
                    Ok(st) => st,
                    Err(e) => {
                        failed = Some((k, e));
                        break;
                    }
                };
                if rep == 0 {
                    iters += st.iterations;
                    max_it = max_it.max(st.iterations);
                    fallbacks += st.fallback as usize;
                    splits += (st.substeps > 1) as usize;
                    split_iters += if st.substeps > 1 { st.iterations } else { 0 };
                }
                if rep == 0 {
                    pen = pen.max(cs.iter().map(|&c| -s.contact(c).unwrap()[0]).fold(0.0, f64::max));
                }
            }
            times.push(t.elapsed().as_secs_f64());
            if failed.is_some() {
                break;
            }
        }
        if let Some((k, e)) = failed {
            println!("{n:5} FAILED at step {k}: {e}");
            n *= 2;
            continue;
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let med = times[1];
        let per_iteration = med * 1e6 / (n * iters.max(1)) as f64;
        let unsplit = (iters - split_iters) as f64 / (steps - splits).max(1) as f64;
        println!("{:5} {:10.1} {:14.1} {:20.2} {:11.1} {:15.1} {:11} {:10} {:10} {:16.2e}", n, med * 1e3, med * 1e6 / n as f64, per_iteration, iters as f64 / steps as f64, unsplit, splits, max_it, fallbacks, pen);
        medians.push((n, med));
        n *= 2;
    }
    let t = |n: usize| medians.iter().find(|m| m.0 == n).map(|m| m.1);
    match (t(64), t(128)) {
        (Some(a), Some(b)) => println!("t(128)/t(64) = {:.2}", b / a),
        _ => println!("t(128)/t(64): not available (n = 64 or 128 not run, or a run failed)"),
    }
}
