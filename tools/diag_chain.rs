//! Diagnostics for SCENARIOS B2 (not a benchmark): runs one sphere chain with overridable
//! dt, friction, cone, contact tolerance and margin, and prints, per step with
//! fallback/failure (every step with V), the sphere speeds and gaps; at the end the
//! largest |ω|·dt/2 (1 is where the discrete rotation map folds).
//!   N=64 DT=0.01 MU=1 CONE=lin|soc STEPS=500 CTOL=1e-8 MARGIN=0.05 V=1 \
//!   TIP=10 (rise to a 10 m tip instead of 45°) WARM=0 (cold-start every contact solve)
//!   cargo run --release --example diag_chain
use maxdyn_scenes::mechanisms;

use maxdyn::{Model, Sim};
use std::sync::Arc;
fn env<T: std::str::FromStr>(k: &str, d: T) -> T {
    std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d)
}
fn main() {
    let n: usize = env("N", 64);
    let dt: f64 = env("DT", 0.01);
    let mu: f64 = env("MU", 1.0);
    let soc = std::env::var("CONE").map(|c| c == "soc").unwrap_or(false);
    let steps: usize = env("STEPS", (5.0 / dt) as usize);
    let verbose = std::env::var("V").is_ok();
    let cone = if soc { maxdyn::ConeType::Nonlinear } else { maxdyn::ConeType::Linear };
    // TIP=h: the chain rises to a tip height of h m (same impacts for every n) instead of 45°
    let (b, cs) = match std::env::var("TIP").ok().and_then(|v| v.parse::<f64>().ok()) {
        Some(h) => mechanisms::sphere_chain_rising(n, mu, cone, (h / (n.max(2) - 1) as f64).min(1.0).asin()),
        None => mechanisms::sphere_chain(n, mu, cone),
    };
    let model = Arc::new(Model::new(&b).unwrap());
    let mut s = Sim::new(model, dt).unwrap();
    let mut o = s.options();
    o.contact_tolerance = env("CTOL", o.contact_tolerance);
    o.contact_warm_start = env("WARM", 1) == 1;
    o.contact_margin = env("MARGIN", o.contact_margin);
    s.set_options(o).unwrap();
    // REPLAY_MU: on failure, replay the failing step's state with this friction (< 0: no contacts)
    let replay: Option<f64> = std::env::var("REPLAY_MU").ok().and_then(|v| v.parse().ok());
    let (b2, _) = mechanisms::sphere_chain(n, replay.unwrap_or(mu), cone);
    let model2 = Arc::new(Model::new(&b2).unwrap());
    let (mut tot, mut maxit, mut pen, mut fb) = (0, 0, 0.0f64, 0);
    // |ω|·dt/2 → 1 is where the discrete rotation map folds (see sim/split.rs)
    let (mut max_turn, mut turn_steps) = (0.0f64, 0usize);
    let t0 = std::time::Instant::now();
    for k in 0..steps {
        let speeds: Vec<f64> = (0..n).map(|i| { let st = s.body_state(i).unwrap(); (st[7]*st[7]+st[8]*st[8]+st[9]*st[9]).sqrt() }).collect();
        let vmax = speeds.iter().cloned().fold(0.0, f64::max);
        let turn = (0..n).map(|i| { let st = s.body_state(i).unwrap(); (st[10]*st[10]+st[11]*st[11]+st[12]*st[12]).sqrt() * dt / 2.0 }).fold(0.0, f64::max);
        max_turn = max_turn.max(turn);
        if turn > 0.5 { turn_steps += 1; }
        let gaps: Vec<f64> = cs.iter().map(|&c| s.contact(c).unwrap().gap).collect();
        let near = gaps.iter().filter(|&&g| g < 0.05).count();
        match s.step() {
            Ok(st) => {
                tot += st.iterations;
                maxit = maxit.max(st.iterations);
                fb += st.fallback as usize;
                pen = pen.max(cs.iter().map(|&c| -s.contact(c).unwrap().gap).fold(0.0, f64::max));
                if st.fallback || verbose {
                    println!("step {k} it {} fb {} rounds {} vmax {vmax:.2} near-ground {near} active {}", st.iterations, st.fallback, st.tresca_rounds, st.active_contacts);
                }
            }
            Err(e) => {
                println!("FAIL at {k}: {e}; vmax {vmax:.2} m/s, contacts with gap < 5 cm: {near}");
                let impact: Vec<String> = (0..n).filter(|&i| gaps[i] < 0.4 && gaps[i] > 0.001).map(|i| format!("{i}:{:.3}@{:.1}", gaps[i], speeds[i])).collect();
                println!("  approaching (gap@speed): {}", impact.join(" "));
                for i in 0..n {
                    let st = s.body_state(i).unwrap();
                    let w = (st[10] * st[10] + st[11] * st[11] + st[12] * st[12]).sqrt();
                    print!("{i}:|w|={w:.0},v=({:.1},{:.1},{:.1}),gap={:.3} ", st[7], st[8], st[9], gaps[i]);
                }
                println!();
                if replay.is_some() {
                    let mut s2 = Sim::new(model2.clone(), dt).unwrap();
                    for i in 0..n {
                        s2.set_body_state(i, &s.body_state(i).unwrap()).unwrap();
                    }
                    println!("replay with friction {:?}: {:?}", replay, s2.step().map(|st| (st.iterations, st.fallback)));
                }
                break;
            }
        }
    }
    println!("largest |ω|·dt/2 {max_turn:.2} (fold at 1); steps with a body above 0.5: {turn_steps}");
    println!("n {n} dt {dt} mu {mu} soc {soc}: iters/step {:.1} max {maxit} fallbacks {fb} pen {pen:.2e} time {:.2}s", tot as f64 / steps as f64, t0.elapsed().as_secs_f64());
}
