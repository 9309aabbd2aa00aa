//! Issue 31: maxdyn's integrators beside MuJoCo's RK4 (and Euler) at equal accuracy, one
//! process, on the panda of tests/second_order.rs (benches/peer/panda_accuracy.rs says how
//! the case is made equal). Each engine and integrator runs 1 s at several dt; the table
//! gives the error against Pinocchio's RK4 and the CPU time of the step calls per
//! simulated second (median of the repetitions), then the dt each needs for 1e-4 rad and
//! its cost there (log-log interpolation of its runs), beside MuJoCo's RK4.
//!
//! Run: bash benches/peer/setup.sh && cargo bench --bench integrator_peer [-- --reps N]
//! (needs tests/setup.sh's corpus and venv too). Without `--bench` it runs one dt each.

#[path = "../tests/common/arm_reference.rs"]
mod arm_reference;
#[path = "peer/mujoco.rs"]
#[allow(dead_code)] // the peer benches' calls this one does not make
mod mujoco;
#[path = "peer/panda_accuracy.rs"]
mod panda_accuracy;
#[path = "../tests/common/require.rs"]
mod require;
#[path = "../tests/common/rng.rs"]
mod rng;

use maxdyn::Integrator;
use mujoco::Mujoco;
use panda_accuracy::{at_accuracy, Engine, PandaCase, Run};
use std::path::PathBuf;

const TARGET: f64 = 1e-4;

fn env_path(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let full = args.iter().any(|a| a == "--bench");
    let reps: usize = args.iter().position(|a| a == "--reps").and_then(|i| args.get(i + 1)).and_then(|r| r.parse().ok()).unwrap_or(if full { 5 } else { 1 });
    let shim = env_path("MAXDYN_PEER_SHIM", "target/peer/libmujoco_shim.so");
    let panda_xml = env_path("MAXDYN_PEER_ROBOTS", "target/peer/robots").join("panda.urdf");
    if !shim.exists() || !panda_xml.exists() {
        println!("integrator peer benchmark skipped: no {} or {} (run `bash benches/peer/setup.sh` after `bash tests/setup.sh`)", shim.display(), panda_xml.display());
        return;
    }
    let mj = Mujoco::open(&shim).unwrap_or_else(|e| panic!("{}: {e} (rerun benches/peer/setup.sh)", shim.display()));
    let case = match PandaCase::new("integrator_peer") {
        Ok(c) => c,
        Err(e) => {
            println!("integrator peer benchmark skipped: {e}");
            return;
        }
    };
    let mut mjsim = mj.load(&panda_xml).unwrap_or_else(|e| panic!("{}: {e}", panda_xml.display()));

    println!("Panda, 1 s from tests/second_order.rs's start: maxdyn {} vs MuJoCo {} (one process), median of {reps} runs", env!("CARGO_PKG_VERSION"), mj.version());
    let date = std::process::Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"]).output().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_default();
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default().lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).unwrap_or("?").trim().to_string();
    println!("date {date}; {cpu}");

    // (engine, dts): each spans 1e-4 rad; the smallest MuJoCo RK4 and maxdyn fourth-order
    // steps check the models against the reference (their errors are the reference's own)
    let plan: Vec<(Engine, Vec<f64>)> = if full {
        vec![
            (Engine::Maxdyn(Integrator::FirstOrder), vec![1e-3, 1e-4, 1e-5]),
            (Engine::Maxdyn(Integrator::SecondOrder), vec![1e-3, 5e-4, 2e-4, 1e-4]),
            (Engine::Maxdyn(Integrator::FourthOrder), vec![5e-3, 4e-3, 2e-3, 1e-3, 1e-4]),
            (Engine::MujocoRk4, vec![1e-2, 8e-3, 5e-3, 4e-3, 2e-3, 1e-3, 1e-4]),
            (Engine::MujocoEuler, vec![1e-3, 1e-4, 1e-5]),
        ]
    } else {
        vec![(Engine::Maxdyn(Integrator::SecondOrder), vec![1e-3]), (Engine::MujocoRk4, vec![4e-3])]
    };
    println!("\n| engine | dt (s) | error after 1 s (rad) | µs per step | CPU ms per simulated second |");
    println!("|---|---|---|---|---|");
    let mut runs: Vec<Run> = Vec::new();
    for (engine, dts) in &plan {
        for &dt in dts {
            let run = match engine {
                Engine::Maxdyn(i) => case.maxdyn(*i, dt, reps),
                Engine::MujocoRk4 => case.mujoco(&mut mjsim, true, dt, reps),
                Engine::MujocoEuler => case.mujoco(&mut mjsim, false, dt, reps),
            };
            match run {
                Ok(r) => {
                    println!("| {} | {dt:.0e} | {:.2e} | {:.2} | {:.2} |", engine.label(), r.error, 1e6 * r.cpu * dt, 1e3 * r.cpu);
                    runs.push(r);
                }
                Err(e) => println!("| {} | {dt:.0e} | failed: {e} | | |", engine.label()),
            }
        }
    }
    println!("(error: largest joint error over the millisecond nodes against Pinocchio's ABA + RK4 at 1e-4 s; CPU: the step calls only)");
    if full {
        // the Newton tolerance (default 1e-10) against the cost: the error stays the
        // integrator's while the tolerance is far below it
        println!("\nmaxdyn at looser Newton tolerances:");
        println!("| integrator | dt (s) | tolerance | error after 1 s (rad) | µs per step |");
        println!("|---|---|---|---|---|");
        for (integrator, dt) in [(Integrator::SecondOrder, 2e-4), (Integrator::FourthOrder, 2e-3)] {
            for tolerance in [1e-10, 1e-8, 1e-6] {
                let d = maxdyn::SolverOptions::default();
                let options = maxdyn::SolverOptions { integrator, tolerance, acceptance: d.acceptance.max(tolerance), ..d };
                match case.maxdyn_with(options, dt, reps) {
                    Ok(r) => println!("| {integrator:?} | {dt:.0e} | {tolerance:.0e} | {:.2e} | {:.2} |", r.error, 1e6 * r.cpu * dt),
                    Err(e) => println!("| {integrator:?} | {dt:.0e} | {tolerance:.0e} | failed: {e} | |"),
                }
            }
        }
    }

    let engine_runs = |e: Engine| -> Vec<Run> { runs.iter().filter(|r| r.engine == e).copied().collect() };
    let mujoco = at_accuracy(&engine_runs(Engine::MujocoRk4), TARGET);
    println!("\nat {TARGET:.0e} rad over 1 s:");
    println!("| engine | dt for {TARGET:.0e} rad (s) | CPU ms per simulated second | ÷ MuJoCo RK4 |");
    println!("|---|---|---|---|");
    for (engine, _) in &plan {
        let Some((dt, cost)) = at_accuracy(&engine_runs(*engine), TARGET) else { continue };
        let ratio = mujoco.map_or("—".to_string(), |(_, m)| format!("{:.2}", cost / m));
        println!("| {} | {dt:.2e} | {:.2} | {ratio} |", engine.label(), 1e3 * cost);
    }
}
