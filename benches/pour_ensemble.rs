//! Pours are chaotic: a start moved by 1e-6 m takes another path, and a change to the
//! solver that helps one path can hurt the next. This bench pours the same pile from
//! several starts (`scenes::piles::pour_seeded`: every body moved sideways by up to 1e-6
//! m, differently per seed) and prints, per start, the iterations of all its steps and per
//! step at rest (the last 100), the relaxed and failed steps and the time; then the
//! median (the upper one for an even count) and mean iterations over the starts, which
//! is what a change is judged on.
//!
//! Run: cargo bench --bench pour_ensemble [-- KIND MU N STEPS SEEDS] (default: the
//! 25-box and the 25-body mixed pour, μ 0.5, 300 steps of 0.01 s, 6 starts each)

use std::time::Instant;

use maxdyn_scenes::piles::{pour_seeded, Pour};

/// Steps at the end of a pour counted as its rest.
const REST: usize = 100;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let runs: Vec<(Pour, f64, usize, usize, u64)> = if args.len() >= 5 {
        let kind = match args[0].as_str() {
            "boxes" => Pour::Boxes,
            "mixed" => Pour::Mixed,
            _ => Pour::Spheres,
        };
        vec![(kind, args[1].parse().expect("MU"), args[2].parse().expect("N"), args[3].parse().expect("STEPS"), args[4].parse().expect("SEEDS"))]
    } else {
        vec![(Pour::Boxes, 0.5, 25, 300, 6), (Pour::Mixed, 0.5, 25, 300, 6)]
    };
    println!("{:>7} {:>4} {:>4} {:>5} | {:>4} | {:>10} {:>8} {:>7} {:>6} | {:>7}", "pour", "μ", "n", "steps", "seed", "iterations", "at rest", "relaxed", "failed", "s");
    for (kind, mu, n, steps, seeds) in runs {
        let mut totals = Vec::new();
        for seed in 0..seeds {
            let mut sim = pour_seeded(kind, mu, n, Some(seed));
            let (mut iterations, mut rest, mut relaxed, mut failed) = (0, 0, 0, 0);
            let t = Instant::now();
            for k in 0..steps {
                match sim.step() {
                    Ok(st) => {
                        iterations += st.iterations;
                        relaxed += st.relaxed as usize;
                        if k + REST >= steps {
                            rest += st.iterations;
                        }
                    }
                    Err(_) => failed += 1,
                }
            }
            println!("{:>7} {:>4} {:>4} {:>5} | {:>4} | {:>10} {:>8.1} {:>7} {:>6} | {:>7.1}", format!("{kind:?}"), mu, n, steps, seed, iterations, rest as f64 / REST as f64, relaxed, failed, t.elapsed().as_secs_f64());
            totals.push(iterations);
        }
        totals.sort_unstable();
        let mean = totals.iter().sum::<usize>() as f64 / totals.len() as f64;
        println!("{:>7} {:>4} {:>4} {:>5} | median {} iterations, mean {:.0}", format!("{kind:?}"), mu, n, steps, totals[totals.len() / 2], mean);
    }
}
