//! Piles and robot drops (issue 24): where the contact solver meets many mutually touching
//! frictional contacts.
//!
//! * `pours`: 100 spheres, 100 boxes, 100 mixed bodies poured into a box (μ 0.5 and 0),
//!   10 s at dt 0.01: failed steps, the deepest gap reported (the step's points, held at
//!   its prediction) and the deepest any shape went into another measured from the poses
//!   after each step (`Sim::deepest_penetration`, the bar), the kinetic energy
//!   per body over the last 2 s, iterations per step, the most contact slots the layout
//!   held (against the model's capacity, which fixes the saved state's size), and the
//!   median and mean step time.
//! * `a1`: the A1 of example-robot-data (floating, collision shapes, ground plane, joint
//!   limits) dropped limp, held by joint PD inputs, or held by the same PD as joint
//!   springs and dampers (the servo), 2 s at dt 0.005, 0.002 and 0.001 from
//!   `n` seeded starts (joints ±0.3 rad about a stand, lifted 0.25–0.35 m); and on the servo
//!   with moving targets: 1 s of the drop, then into a crouch and back (`a1_crouch_rollout`,
//!   3 s): rollouts with every step OK. Needs the corpus of tests/setup.sh.
//! * `robots`: every floating robot of the corpus dropped limp (`scenes::robot_drops`),
//!   2 s at dt 0.01, 0.005, 0.002 and 0.001: the first failed step if any, iterations per step,
//!   split steps, the deepest any shape went below the ground (from the poses) and the
//!   time per rollout.
//!
//! Run: cargo bench --bench piles [-- pours [spheres|boxes|mixed] [0.5|0]] [-- a1 [n]] [-- robots]
//! (a pour's kind and friction pick its rows: each row takes minutes to an hour)

use std::time::Instant;

use maxdyn_scenes::piles::{a1_crouch_rollout, a1_drop, a1_drop_rollout, a1_for_drops, a1_for_servo_drops, pour, Pour};
use maxdyn_scenes::robot_drops::{limp_drop, FLOATING_ROBOTS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let all = !args.iter().any(|a| a == "pours" || a == "a1" || a == "robots");
    if all || args.iter().any(|a| a == "pours") {
        let kinds: Vec<Pour> = [("spheres", Pour::Spheres), ("boxes", Pour::Boxes), ("mixed", Pour::Mixed)].into_iter().filter(|(name, _)| args.iter().any(|a| a == name)).map(|(_, kind)| kind).collect();
        let frictions: Vec<f64> = args.iter().filter_map(|a| a.parse::<f64>().ok()).filter(|mu| a_pour_friction(*mu)).collect();
        let kinds = if kinds.is_empty() { vec![Pour::Spheres, Pour::Boxes, Pour::Mixed] } else { kinds };
        pours(&kinds, if frictions.is_empty() { &[0.5, 0.0] } else { &frictions });
    }
    if all || args.iter().any(|a| a == "a1") {
        let n = args.iter().skip_while(|a| *a != "a1").nth(1).and_then(|a| a.parse().ok()).unwrap_or(32);
        a1_drops(n);
    }
    if all || args.iter().any(|a| a == "robots") {
        robot_drops();
    }
}

/// The pours' frictions: μ 0.5 and 0 (a count of A1 seeds is neither).
fn a_pour_friction(mu: f64) -> bool {
    mu == 0.5 || mu == 0.0
}

fn pours(kinds: &[Pour], frictions: &[f64]) {
    println!("{:>8} {:>4} | {:>6} {:>8} {:>11} {:>9} {:>12} {:>8} {:>10} | {:>9} {:>9}", "pour", "μ", "failed", "stuck at", "worst gap", "deepest", "KE/body end", "it/step", "slots/cap", "median ms", "mean ms");
    for &kind in kinds {
        for &mu in frictions {
            let mut sim = pour(kind, mu);
            let n = sim.model().body_count() as f64;
            let (mut failed, mut in_a_row, mut worst_gap, mut deepest, mut iterations, mut rest_ke) = (0, 0, f64::INFINITY, 0.0f64, 0, 0.0f64);
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
                deepest = deepest.max(sim.deepest_penetration());
                if k >= 800 {
                    rest_ke = rest_ke.max(sim.energy().0 / n);
                }
            }
            let steps = times.len();
            let mean = times.iter().sum::<f64>() / steps as f64;
            times.sort_by(|a, b| a.partial_cmp(b).unwrap());
            let stuck = stuck.map_or("-".to_string(), |k| k.to_string());
            let held = format!("{slots}/{}", sim.model().collision.slot_capacity());
            println!("{:>8} {:>4} | {:>6} {:>8} {:>11.2e} {:>9.2e} {:>12.2e} {:>8.1} {:>10} | {:>9.2} {:>9.2}", format!("{kind:?}"), mu, failed, stuck, worst_gap, deepest, rest_ke, iterations as f64 / steps as f64, held, times[steps / 2], mean);
        }
    }
}

const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/a1_description/urdf/a1.urdf");

fn a1_drops(n: u64) {
    let (model, joints) = a1_for_drops(A1).unwrap_or_else(|e| panic!("{A1}: {e} (run `bash tests/setup.sh`: it unpacks the example-robot-data corpus)"));
    let (servo, _) = a1_for_servo_drops(A1).unwrap();
    println!("{:>6} {:>6} | {:>9} {:>22} | {:>8}", "dt", "hold", "all OK", "first failures (step)", "mean s");
    for dt in [0.005, 0.002, 0.001] {
        // limp; PD inputs (explicit); the same PD as joint springs and dampers (implicit)
        for (hold, model, pd) in [("limp", &model, false), ("PD", &model, true), ("servo", &servo, false)] {
            let (mut ok, mut firsts, mut seconds) = (0, Vec::new(), 0.0);
            for seed in 0..n {
                let mut sim = a1_drop(model, &joints, dt, seed);
                let t = Instant::now();
                let failed = a1_drop_rollout(&mut sim, &joints, pd, 2.0);
                seconds += t.elapsed().as_secs_f64();
                match failed {
                    None => ok += 1,
                    Some(k) => firsts.push(k),
                }
            }
            let shown: Vec<String> = firsts.iter().take(4).map(|k| k.to_string()).collect();
            println!("{:>6} {:>6} | {:>4}/{:<4} {:>22} | {:>8.2}", dt, hold, ok, n, shown.join(" "), seconds / n as f64);
        }
        // the servo's targets moved into a crouch and back
        let (mut ok, mut firsts, mut seconds) = (0, Vec::new(), 0.0);
        for seed in 0..n {
            let mut sim = a1_drop(&servo, &joints, dt, seed);
            let t = Instant::now();
            let failed = a1_drop_rollout(&mut sim, &joints, false, 1.0).or_else(|| a1_crouch_rollout(&mut sim, &joints).0);
            seconds += t.elapsed().as_secs_f64();
            match failed {
                None => ok += 1,
                Some(k) => firsts.push(k),
            }
        }
        let shown: Vec<String> = firsts.iter().take(4).map(|k| k.to_string()).collect();
        println!("{:>6} {:>6} | {:>4}/{:<4} {:>22} | {:>8.2}", dt, "crouch", ok, n, shown.join(" "), seconds / n as f64);
    }
}

const ROBOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots");

fn robot_drops() {
    println!("{:>48} {:>6} | {:>12} {:>8} {:>6} {:>10} | {:>8}", "robot", "dt", "failed at", "it/step", "split", "deepest", "s");
    for dt in [0.01, 0.005, 0.002, 0.001] {
        for name in FLOATING_ROBOTS {
            let path = format!("{ROBOTS}/{name}");
            let mut sim = limp_drop(&path, dt).unwrap_or_else(|e| panic!("{path}: {e} (run `bash tests/setup.sh`: it unpacks the example-robot-data corpus)"));
            let model = sim.model().clone();
            let (steps, t) = ((2.0 / dt) as usize, Instant::now());
            let (mut failed, mut iterations, mut split, mut deepest) = (None, 0, 0, 0.0f64);
            for k in 0..steps {
                match sim.step() {
                    Ok(st) => {
                        iterations += st.iterations;
                        split += usize::from(st.substeps > 1);
                    }
                    Err(_) => {
                        failed = Some(k);
                        break;
                    }
                }
                deepest = deepest.min(maxdyn_scenes::heights::lowest(&model, &sim));
            }
            let at = failed.map_or("-".to_string(), |k| k.to_string());
            println!("{name:>48} {dt:>6} | {at:>12} {:>8.1} {split:>6} {deepest:>10.1e} | {:>8.2}", iterations as f64 / steps as f64, t.elapsed().as_secs_f64());
        }
    }
}
