//! SCENARIOS B3: chains of N = 1…10 four-link loop segments (rhombi of Box(0.1, 0.1, 1,
//! 1) links hanging one below the other; every joint on a loop, 3 redundant rows per
//! loop), 1000 steps at dt = 0.01. Fill-in stays inside each loop, so the time grows
//! close to linearly in N. Median of 3 runs.
//!
//! Run: cargo bench --bench loop_chain

use maxdyn_scenes::mechanisms;
use maxdyn_scenes::timing;

fn main() {
    println!("{:>3} | {:>6} {:>6} {:>9} | {:>10} {:>14} {:>7} {:>7} {:>11}", "N", "bodies", "nodes", "fill", "ms/1000", "ms/segment", "iters", "stalls", "max viol.");
    for n in 1..=10 {
        let (secs, (iters, stalls, viol)) = timing::median(3, || {
            let mut sim = mechanisms::loop_segment_chain(n, 0.01);
            let (mut iters, mut stalls, mut viol) = (0, 0, 0.0f64);
            for k in 0..1000 {
                let st = sim.step().unwrap_or_else(|e| panic!("N={n} step {k}: {e}"));
                iters += st.iterations;
                stalls += st.stalled as usize;
                viol = viol.max(sim.constraint_violation());
            }
            (iters, stalls, viol)
        });
        let sim = mechanisms::loop_segment_chain(n, 0.01);
        let m = sim.model();
        println!(
            "{n:>3} | {:>6} {:>6} {:>9} | {:>10.2} {:>14.2} {:>7.2} {stalls:>7} {viol:>11.2e}",
            m.body_count(),
            m.nodes.len(),
            m.symbolic.fill_blocks,
            secs * 1e3,
            secs * 1e3 / n as f64,
            iters as f64 / 1000.0
        );
    }
}
