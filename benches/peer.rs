//! Peer benchmark (issue 17, item 4): maxdyn and MuJoCo in one process on the same
//! models, with the same controller, dt and duration, timed interleaved (the engines
//! alternate, several repetitions, medians of the time per step).
//!
//! Cases: the A1 quadruped of SCENARIOS C1 trotting (gait LEARNED_SEED1) with the linear
//! / pyramidal and the second-order / elliptic friction cones, and standing (gait START),
//! 1 s at dt 1e-3; the B1 revolute and spherical pendulum chains, n = 8, 32, 128, 1000
//! steps at dt 0.01. MuJoCo runs through a C shim loaded with dlopen: build it and the
//! models with `bash benches/peer/setup.sh` (venv with the `mujoco` wheel), or do setup
//! and benchmark in one go with `bash benches/peer/run.sh`. docs/PEERS.md explains.
//!
//! Run: bash benches/peer/run.sh [-- --reps N --only SUBSTRING]
//! Without `--bench` (under `cargo test --benches`) it only smoke-runs a few steps.

#[path = "peer/cases.rs"]
mod cases;
#[path = "peer/mujoco.rs"]
mod mujoco;

use cases::{ChainPair, Outcome, Pair, QuadrupedPair};
use maxdyn_scenes::quadruped::{LEARNED_SEED1, START};
use mujoco::Mujoco;
use std::path::PathBuf;

fn env_path(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default))
}

fn command_line(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "?".into())
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).unwrap_or("?").trim().to_string();
    let cores = info.lines().filter(|l| l.starts_with("processor")).count();
    format!("{model}, {cores} cores")
}

/// Median and spread (slowest / fastest) of the repetitions.
fn median(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (v[v.len() / 2], v[v.len() - 1] / v[0])
}

fn ratio(r: f64) -> String {
    if r < 10.0 { format!("{r:.2}×") } else { format!("{r:.1}×") }
}

fn meters(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| if v == 0.0 { "0".into() } else { format!("{v:.1e}") })
}

fn distance(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{:.3}", if v.abs() < 5e-4 { 0.0 } else { v }))
}

/// Steps per turn of one engine before the other takes over.
const CHUNK: usize = 50;

struct Case {
    label: String,
    steps: usize,
    pair: Box<dyn Pair>,
}

fn cases(mj: &Mujoco, models: &std::path::Path, quad_steps: usize, chain_steps: usize) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    let quad = [
        ("A1 trot, linear / pyramidal cone", LEARNED_SEED1, false, None),
        ("A1 trot, second-order / elliptic cone", LEARNED_SEED1, true, None),
        ("A1 PD standing, linear / pyramidal cone", START, false, None),
        // MuJoCo's contacts as stiff as it advises (time constant 2 dt): less sinking
        ("A1 trot, linear / pyramidal cone, MuJoCo solref 0.002", LEARNED_SEED1, false, Some(0.002)),
    ];
    for (label, gait, elliptic, timeconst) in quad {
        let pair = QuadrupedPair::new(mj, models, gait, elliptic, timeconst)?;
        out.push(Case { label: format!("{label} (dt 1e-3, {quad_steps} steps)"), steps: quad_steps, pair: Box::new(pair) });
    }
    for spherical in [false, true] {
        for n in [8, 32, 128] {
            let pair = ChainPair::new(mj, models, n, spherical)?;
            let kind = if spherical { "spherical" } else { "revolute" };
            out.push(Case { label: format!("{kind} chain n = {n} (dt 0.01, {chain_steps} steps)"), steps: chain_steps, pair: Box::new(pair) });
        }
    }
    Ok(out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let full = args.iter().any(|a| a == "--bench");
    let reps: usize = flag("--reps").and_then(|r| r.parse().ok()).unwrap_or(if full { 7 } else { 1 }).max(1);
    let only = flag("--only");
    let (quad_steps, chain_steps) = if full { (1000, 1000) } else { (20, 10) };

    let shim = env_path("MAXDYN_PEER_SHIM", "target/peer/libmujoco_shim.so");
    let models = env_path("MAXDYN_PEER_MODELS", "target/peer/models");
    if !shim.exists() || !models.join("a1.xml").exists() {
        println!("peer benchmark skipped: no MuJoCo shim at {} (or no models in {}).", shim.display(), models.display());
        println!("Run `bash benches/peer/run.sh` (setup + benchmark), or `bash benches/peer/setup.sh` once and then `cargo bench --bench peer`.");
        return;
    }
    let mj = match Mujoco::open(&shim) {
        Ok(mj) => mj,
        Err(e) => {
            println!("peer benchmark skipped: cannot load {}: {e}. Rerun `bash benches/peer/setup.sh`.", shim.display());
            return;
        }
    };
    let mut cases = match cases(&mj, &models, quad_steps, chain_steps) {
        Ok(c) => c,
        Err(e) => {
            println!("peer benchmark skipped: cannot build the MuJoCo models ({e}). Rerun `bash benches/peer/setup.sh`.");
            return;
        }
    };
    cases.retain(|c| only.as_ref().map_or(true, |s| c.label.contains(s.as_str())));

    println!("Peer benchmark: maxdyn {} vs MuJoCo {} (one process, engines interleaved, median of {reps} runs)", env!("CARGO_PKG_VERSION"), mj.version());
    println!("date {}; {}; {}", command_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]), command_line("uname", &["-srm"]), cpu_model());
    if !full {
        println!("(smoke run: pass --bench, as `cargo bench` does, for the full benchmark)");
    }

    println!("\nModels and initial states, maxdyn vs MuJoCo (largest difference over the bodies; MuJoCo's quadruped 1 mm higher: its feet are 1 mm spheres):");
    for c in &cases {
        let a = c.pair.agreement();
        println!("  {:<58} COM {:.1e} m, orientation {:.1e}, mass/inertia {:.1e} (relative)", c.label, a.position, a.orientation, a.inertia);
    }

    println!("\n| case | maxdyn µs/step | MuJoCo µs/step | ratio | penetration maxdyn / MuJoCo (m) | iterations/step maxdyn / MuJoCo | distance maxdyn / MuJoCo (m) | spread maxdyn / MuJoCo |");
    println!("|---|---|---|---|---|---|---|---|");
    let mut notes = Vec::new();
    for c in &mut cases {
        // chunk × repetition step times: the engines alternate every CHUNK steps (who goes
        // first alternates too), so load changes on the shared machine hit both alike; a
        // chunk's time is its median over the repetitions, robust to bursts
        let chunks = c.steps.div_ceil(CHUNK);
        let (mut ta, mut tb) = (vec![Vec::new(); chunks], vec![Vec::new(); chunks]);
        let (mut total_a, mut total_b) = (Vec::new(), Vec::new());
        let (mut a, mut b) = (Outcome::default(), Outcome::default());
        for rep in 0..reps {
            let (mut ra, mut rb) = c.pair.rollouts();
            for (k, (ta, tb)) in ta.iter_mut().zip(tb.iter_mut()).enumerate() {
                let n = CHUNK.min(c.steps - k * CHUNK);
                if (rep + k) % 2 == 0 {
                    ta.push(ra.advance(n));
                    tb.push(rb.advance(n));
                } else {
                    tb.push(rb.advance(n));
                    ta.push(ra.advance(n));
                }
            }
            (a, b) = (ra.outcome(), rb.outcome());
            total_a.push(a.step_seconds);
            total_b.push(b.step_seconds);
        }
        let per_step = |t: Vec<Vec<f64>>, o: &Outcome| 1e6 * t.into_iter().map(|v| median(v).0).sum::<f64>() / o.steps.max(1) as f64;
        let (ta, tb) = (per_step(ta, &a), per_step(tb, &b));
        let (sa, sb) = (median(total_a).1, median(total_b).1);
        let failed = if a.failure.is_some() || b.failure.is_some() { " †" } else { "" };
        println!(
            "| {} | {:.1}{failed} | {:.1} | {} | {} / {} | {:.1} / {:.1} | {} / {} | {:.2} / {:.2} |",
            c.label,
            ta,
            tb,
            ratio(ta / tb),
            meters(a.penetration),
            meters(b.penetration),
            a.iterations_per_step(),
            b.iterations_per_step(),
            distance(a.distance),
            distance(b.distance),
            sa,
            sb
        );
        if let Some(f) = a.failure.or(b.failure) {
            notes.push(format!("† {}: {f} (the row's numbers are over the {} steps done)", c.label, a.steps));
        }
    }
    println!("(µs/step: CPU time of the step calls, each chunk of {CHUNK} steps its median over the repetitions; spread: slowest / fastest repetition's total)");
    for n in notes {
        println!("{n}");
    }
}
