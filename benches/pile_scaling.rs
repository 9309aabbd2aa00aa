//! Issue 27's scaling bar: the frictional pour of `scenes::piles::pour_of` at 50, 100 and
//! 200 bodies (spheres, and boxes, μ 0.5, dt 0.01). A pile's cost per step should grow
//! at most linearly with its contacts: each row prints the steps that failed, and over the
//! last `WINDOW` steps of `STEPS` (the pile at rest) the mean contacts in the step's
//! layout and active at its solution, the mean iterations and factorizations per step,
//! the median step time and that time per contact, and the multiply-adds of one full
//! factorization of the last step's layout (`Symbolic::factor_flops`: every contact
//! coupled; culled contacts' updates are skipped in a step), which shows the fill.
//!
//! Run: cargo bench --bench pile_scaling [-- spheres|boxes] [-- N...] (the rows of those
//! kinds and sizes only; all six by default)

use std::time::Instant;

use maxdyn_scenes::piles::{pour_of, Pour};

/// Steps of each pour (5 s) and the last ones timed.
const STEPS: usize = 500;
const WINDOW: usize = 200;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![50, 100, 200] } else { sizes };
    let named = |k: &str| args.iter().any(|a| a == k);
    let kinds: Vec<Pour> = [(Pour::Spheres, "spheres"), (Pour::Boxes, "boxes")].into_iter().filter(|(_, k)| named(k) || !(named("spheres") || named("boxes"))).map(|(p, _)| p).collect();
    println!("{:>7} {:>5} | {:>6} {:>9} {:>7} {:>8} {:>8} | {:>10} {:>13} | {:>12}", "pour", "n", "failed", "contacts", "active", "it/step", "fact/st", "median µs", "µs/contact", "flops/factor");
    for &kind in &kinds {
        for &n in &sizes {
            let mut sim = pour_of(kind, 0.5, n);
            let (mut failed, mut contacts, mut active, mut iterations, mut factorizations) = (0, 0, 0, 0, 0);
            let mut times = Vec::with_capacity(WINDOW);
            for k in 0..STEPS {
                let t = Instant::now();
                let result = sim.step();
                let elapsed = t.elapsed().as_secs_f64() * 1e6;
                let st = match result {
                    Ok(st) => st,
                    Err(_) => {
                        failed += 1;
                        *sim.stats()
                    }
                };
                if k >= STEPS - WINDOW {
                    times.push(elapsed);
                    contacts += st.contacts;
                    active += st.active_contacts;
                    iterations += st.iterations;
                    factorizations += st.factorizations;
                }
            }
            times.sort_by(f64::total_cmp);
            let median = times[times.len() / 2];
            let per = |x: usize| x as f64 / WINDOW as f64;
            println!(
                "{:>7} {:>5} | {:>6} {:>9.1} {:>7.1} {:>8.2} {:>8.2} | {:>10.1} {:>13.3} | {:>12.3e}",
                format!("{kind:?}"),
                n,
                failed,
                per(contacts),
                per(active),
                per(iterations),
                per(factorizations),
                median,
                median / per(active).max(1.0),
                sim.debug_layout().symbolic.factor_flops() as f64
            );
        }
    }
}
