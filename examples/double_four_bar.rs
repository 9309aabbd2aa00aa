//! SCENARIOS A8: the double four-bar linkage (IFToMM benchmark; the paper's comparison
//! with the GGL method). Three cranks and two couplers, 7 revolute joints, two loops
//! (6 redundant rows); it goes over the top and passes the singular horizontal pose
//! twice per revolution. 10 s at dt = 0.01 and 0.001.
//!
//! Run: cargo run --release --example double_four_bar

use maxdyn_scenes::mechanisms;

use maxdyn::math::{rotation, V3, V4};

fn crank_top(sim: &maxdyn::Sim) -> V3 {
    let s = sim.body_state(0).unwrap();
    V3::new(s[0], s[1], s[2]) + rotation(&V4::new(s[3], s[4], s[5], s[6])) * V3::new(0.0, 0.0, 0.5)
}

fn main() {
    println!("{:>7} | {:>22} | {:>11} {:>11} {:>11} | {:>9} {:>7} {:>7} {:>9}", "dt", "crank-1 top at 10 s (x, z)", "max viol.", "max |ΔE|", "|ΔE| 10 s", "crossings", "stalls", "iters", "time");
    for dt in [0.01, 0.001] {
        let mut sim = mechanisms::double_four_bar(dt);
        let steps = (10.0 / dt).round() as usize;
        let e0 = { let (k, p) = sim.energy(); k + p };
        let (mut worst, mut emax, mut stalls, mut iters, mut crossings) = (0.0f64, 0.0f64, 0, 0, 0);
        let mut z_last = crank_top(&sim).z;
        let start = std::time::Instant::now();
        for k in 0..steps {
            let st = sim.step().expect("A8 step");
            stalls += st.stalled as usize;
            iters += st.iterations;
            if k > 0 {
                worst = worst.max(sim.constraint_violation());
            }
            let (ke, pe) = sim.energy();
            emax = emax.max((ke + pe - e0).abs());
            let z = crank_top(&sim).z;
            crossings += (z.signum() != z_last.signum()) as usize;
            z_last = z;
        }
        let elapsed = start.elapsed();
        let top = crank_top(&sim);
        let (ke, pe) = sim.energy();
        println!(
            "{dt:>7} | ({:>9.6}, {:>9.6}) | {worst:>11.3e} {emax:>11.3e} {:>11.3e} | {crossings:>9} {stalls:>7} {:>7.2} {:>9.2?}",
            top.x,
            top.z,
            (ke + pe - e0).abs(),
            iters as f64 / steps as f64,
            elapsed
        );
    }
    println!("total energy E0 = {:.4} J; 'crossings' counts passes of crank 1 through the horizontal (singular) pose;", { let s = mechanisms::double_four_bar(0.01); let (k, p) = s.energy(); k + p });
    println!("'stalls' counts steps accepted by the stall rule (residual stopped decreasing below options.acceptance).");
}
