//! Piles and robot drops (issue 24): where the contact solver meets many mutually touching
//! frictional contacts.
//!
//! * `pours`: 100 spheres, 100 boxes, 100 mixed bodies poured into a box (μ 0.5 and 0),
//!   10 s at dt 0.01: failed steps, the deepest penetration reported, the kinetic energy
//!   per body over the last 2 s, iterations per step, the most contact slots the layout
//!   held (against the model's capacity, which fixes the saved state's size), and the
//!   median and mean step time.
//! * `a1`: the A1 of example-robot-data (floating, collision shapes, ground plane, joint
//!   limits) dropped limp or held by joint PD, 2 s at dt 0.005, 0.002 and 0.001 from
//!   `n` seeded starts (joints ±0.3 rad about a stand, lifted 0.25–0.35 m): rollouts with
//!   every step OK. Needs the corpus of tests/setup.sh.
//!
//! Run: cargo bench --bench piles [-- pours] [-- a1 [n]]

use std::sync::Arc;
use std::time::Instant;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};
use maxdyn_scenes::piles::{pour, Pour};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let all = !args.iter().any(|a| a == "pours" || a == "a1");
    if all || args.iter().any(|a| a == "pours") {
        pours();
    }
    if all || args.iter().any(|a| a == "a1") {
        let n = args.iter().find_map(|a| a.parse().ok()).unwrap_or(32);
        a1_drops(n);
    }
}

fn pours() {
    println!("{:>8} {:>4} | {:>6} {:>8} {:>11} {:>12} {:>8} {:>10} | {:>9} {:>9}", "pour", "μ", "failed", "stuck at", "worst gap", "KE/body end", "it/step", "slots/cap", "median ms", "mean ms");
    for kind in [Pour::Spheres, Pour::Boxes, Pour::Mixed] {
        for mu in [0.5, 0.0] {
            let mut sim = pour(kind, mu);
            let n = sim.model().body_count() as f64;
            let (mut failed, mut in_a_row, mut worst_gap, mut iterations, mut rest_ke) = (0, 0, f64::INFINITY, 0, 0.0f64);
            let mut times = Vec::with_capacity(1000);
            let mut stuck = None;
            let mut slots = 0;
            for k in 0..1000 {
                let t = Instant::now();
                match sim.step() {
                    Ok(st) => {
                        iterations += st.iterations;
                        in_a_row = 0;
                    }
                    Err(_) => {
                        failed += 1;
                        in_a_row += 1;
                    }
                }
                times.push(t.elapsed().as_secs_f64() * 1e3);
                // five failures in a row: the pile is stuck (each failure spends the
                // retry budget); the row reports where, with its times so far
                if in_a_row == 5 {
                    stuck = Some(k - 4);
                    break;
                }
                slots = slots.max(sim.contact_slots());
                worst_gap = worst_gap.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
                if k >= 800 {
                    rest_ke = rest_ke.max(sim.energy().0 / n);
                }
            }
            let steps = times.len();
            let mean = times.iter().sum::<f64>() / steps as f64;
            times.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let stuck = stuck.map_or("-".to_string(), |k| k.to_string());
            let held = format!("{slots}/{}", sim.model().collision.slot_capacity());
            println!("{:>8} {:>4} | {:>6} {:>8} {:>11.2e} {:>12.2e} {:>8.1} {:>10} | {:>9.2} {:>9.2}", format!("{kind:?}"), mu, failed, stuck, worst_gap, rest_ke, iterations as f64 / steps as f64, held, times[steps / 2], mean);
        }
    }
}

const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/a1_description/urdf/a1.urdf");

/// Rollout `seed`'s start: joints ±0.3 rad about a standing pose, the robot lifted so its
/// lowest body's centre is 0.25–0.35 m up.
fn a1(model: &Arc<Model>, joints: &[usize], dt: f64, seed: u64) -> Sim {
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut rand = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let stand = [0.0, 0.9, -1.8];
    for (k, &j) in joints.iter().enumerate() {
        sim.set_joint_position(j, &[stand[k % 3] + 0.3 * rand()]).unwrap();
    }
    let lowest = (0..model.body_count()).map(|i| sim.body_state(i).unwrap()[2]).fold(f64::INFINITY, f64::min);
    let lift = 0.3 + 0.05 * rand();
    for i in 0..model.body_count() {
        let mut s = sim.body_state(i).unwrap();
        s[2] += lift - lowest;
        sim.set_body_state(i, &s).unwrap();
    }
    sim
}

fn a1_drops(n: u64) {
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, ..UrdfOptions::default() };
    let u = Urdf::from_file_with(A1, &options).unwrap_or_else(|e| panic!("{A1}: {e} (run `bash tests/setup.sh`: it unpacks the example-robot-data corpus)"));
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let joints: Vec<usize> = ["FR", "FL", "RR", "RL"].iter().flat_map(|l| ["hip", "thigh", "calf"].map(|p| u.joint(&format!("{l}_{p}_joint")).unwrap())).collect();
    let (target, kp, kd) = ([0.0, 0.9, -1.8], [100.0, 80.0, 60.0], [5.0, 4.0, 3.0]);
    println!("{:>6} {:>5} | {:>9} {:>22} | {:>8}", "dt", "PD", "all OK", "first failures (step)", "mean s");
    for dt in [0.005, 0.002, 0.001] {
        for pd in [false, true] {
            let (mut ok, mut firsts, mut seconds) = (0, Vec::new(), 0.0);
            for seed in 0..n {
                let mut sim = a1(&model, &joints, dt, seed);
                let t = Instant::now();
                let (mut q, mut w) = ([0.0], [0.0]);
                let mut failed = None;
                for k in 0..(2.0 / dt).round() as usize {
                    if pd {
                        for (i, &j) in joints.iter().enumerate() {
                            sim.joint_position(j, &mut q).unwrap();
                            sim.joint_velocity(j, &mut w).unwrap();
                            sim.set_joint_input(j, &[kp[i % 3] * (target[i % 3] - q[0]) - kd[i % 3] * w[0]]).unwrap();
                        }
                    }
                    if sim.step().is_err() {
                        failed = Some(k);
                        break;
                    }
                }
                seconds += t.elapsed().as_secs_f64();
                match failed {
                    None => ok += 1,
                    Some(k) => firsts.push(k),
                }
            }
            let shown: Vec<String> = firsts.iter().take(4).map(|k| k.to_string()).collect();
            println!("{:>6} {:>5} | {:>4}/{:<4} {:>22} | {:>8.2}", dt, pd, ok, n, shown.join(" "), seconds / n as f64);
        }
    }
}
