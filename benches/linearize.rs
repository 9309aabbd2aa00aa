//! Issue 13: the cost of step derivatives beside one step, on the 32-link revolute chain
//! (minimal and maximal coordinates) and the double pendulum (dt 0.01, moving after 20
//! steps). For each: one step; `Sim::linearize` (A and B together); central differences
//! of whole steps, `Sim::linearize_by_differences` (2 (nx + nu) steps, each on a copy);
//! and the analytic input derivative B alone, `Sim::input_derivative`. The goal:
//! the whole A of the 32-link chain for ≤ 3 steps' cost.
//!
//! Two tables: instructions (callgrind; repeatable, the numbers to quote: the machine is
//! shared, so wall clock is noise) and wall-clock medians, both with the ratio to one step.
//! Instructions of an operation are those of a run doing it twice minus a run doing it
//! once (same setup), so setup and first-call effects cancel; this bench runs itself under
//! `valgrind --tool=callgrind` for that (skipped, with a note, without valgrind).
//!
//! Measured with `linearize` still the central-difference scaffold (h 1e-6), instructions:
//! one step of the chain 378k; minimal A and B 121M (320 steps), maximal 596M (1574
//! steps); B alone (analytic) 2.26M (6.0 steps) minimal, 9.98M (26.4) maximal. Double
//! pendulum: step 23.9k, minimal A and B 24.2 steps, B alone 2.7 steps.
//!
//! Run: cargo bench --bench linearize              (both tables)
//!      cargo bench --bench linearize -- --wall    (wall clock only)

use std::process::Command;

use maxdyn::{Coords, Sim};
use maxdyn_scenes::mechanisms::pendulum_chain;
use maxdyn_scenes::{double_pendulum, timing};

const SCENES: [(&str, Coords); 4] =
    [("chain32", Coords::Minimal), ("chain32", Coords::Maximal), ("double_pendulum", Coords::Minimal), ("double_pendulum", Coords::Maximal)];
const OPERATIONS: [&str; 4] = ["step", "linearize", "differences", "input_derivative"];
/// Central-difference step of `linearize_by_differences` here (that of the scaffold).
const H: f64 = 1e-6;

fn scene(name: &str) -> Sim {
    let mut sim = match name {
        "chain32" => pendulum_chain(32, false, 0.01),
        "double_pendulum" => double_pendulum::sim(0.01),
        _ => panic!("unknown scene {name}"),
    };
    for _ in 0..20 {
        sim.step().unwrap();
    }
    sim
}

fn coords_name(c: Coords) -> &'static str {
    match c {
        Coords::Minimal => "minimal",
        Coords::Maximal => "maximal",
    }
}

fn coords_of(name: &str) -> Coords {
    if name == "maximal" {
        Coords::Maximal
    } else {
        Coords::Minimal
    }
}

/// Returns a closure doing `operation` once on `sim` (a step advances a copy made here).
fn operation<'a>(sim: &'a Sim, coords: Coords, name: &str) -> Box<dyn FnMut() + 'a> {
    let (nx, nu) = sim.model().linearization_size(coords);
    let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
    match name {
        "step" => {
            let mut s = sim.clone();
            Box::new(move || {
                s.step().unwrap();
            })
        }
        "linearize" => Box::new(move || sim.linearize(coords, &mut a, &mut b).unwrap()),
        "differences" => Box::new(move || sim.linearize_by_differences(coords, H, &mut a, &mut b).unwrap()),
        "input_derivative" => Box::new(move || sim.input_derivative(coords, &mut b).unwrap()),
        _ => panic!("unknown operation {name}"),
    }
}

/// Child mode (`--child SCENE COORDS OPERATION TIMES`): the setup, then the operation.
fn child(args: &[String]) {
    let sim = scene(&args[0]);
    let mut op = operation(&sim, coords_of(&args[1]), &args[2]);
    for _ in 0..args[3].parse::<usize>().unwrap() {
        op();
    }
}

/// Instructions callgrind counts in a child run doing the operation `times` times.
fn instructions(scene: &str, coords: Coords, op: &str, times: usize) -> Option<u64> {
    let exe = std::env::current_exe().ok()?;
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--child", scene, coords_name(coords), op, &times.to_string()])
        .output()
        .ok()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr.lines().find(|l| l.contains("Collected :"))?;
    line.rsplit(':').next()?.trim().replace(',', "").parse().ok()
}

fn instruction_table() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("(valgrind not installed: no instruction counts; bash tests/setup.sh installs it)\n");
        return;
    }
    println!("instructions per operation (callgrind: run doing it twice minus run doing it once)");
    println!("{:>16} {:>8} {:>5} {:>4} | {:>12} | {:>12} {:>7} | {:>12} {:>7} | {:>12} {:>7}", "scene", "coords", "nx", "nu", "one step", "linearize", "steps", "differences", "steps", "B alone", "steps");
    for (name, coords) in SCENES {
        let (nx, nu) = scene(name).model().linearization_size(coords);
        let per_op: Vec<f64> = OPERATIONS
            .iter()
            .map(|op| match (instructions(name, coords, op, 1), instructions(name, coords, op, 2)) {
                (Some(one), Some(two)) => two as f64 - one as f64,
                _ => f64::NAN,
            })
            .collect();
        let step = per_op[0];
        println!(
            "{name:>16} {:>8} {nx:>5} {nu:>4} | {:>12.0} | {:>12.0} {:>7.2} | {:>12.0} {:>7.2} | {:>12.0} {:>7.2}",
            coords_name(coords),
            step,
            per_op[1],
            per_op[1] / step,
            per_op[2],
            per_op[2] / step,
            per_op[3],
            per_op[3] / step
        );
    }
    println!("goal (issue 13): the whole A and B of the 32-link chain for ≤ 3 steps\n");
}

fn wall_table() {
    println!("wall-clock medians (µs; shared machine: indicative only)");
    println!("{:>16} {:>8} | {:>10} | {:>10} {:>7} | {:>11} {:>7} | {:>10} {:>7}", "scene", "coords", "one step", "linearize", "steps", "differences", "steps", "B alone", "steps");
    for (name, coords) in SCENES {
        let sim = scene(name);
        let t: Vec<f64> = OPERATIONS
            .iter()
            .map(|op| {
                let reps = if *op == "step" { 200 } else if *op == "differences" || *op == "linearize" { 2 } else { 20 };
                let mut f = operation(&sim, coords, op);
                let (t, _) = timing::median(5, || {
                    for _ in 0..reps {
                        f();
                    }
                });
                t / reps as f64 * 1e6
            })
            .collect();
        println!(
            "{name:>16} {:>8} | {:>10.1} | {:>10.1} {:>7.2} | {:>11.1} {:>7.2} | {:>10.1} {:>7.2}",
            coords_name(coords),
            t[0],
            t[1],
            t[1] / t[0],
            t[2],
            t[2] / t[0],
            t[3],
            t[3] / t[0]
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|a| a == "--child") {
        return child(&args[at + 1..]);
    }
    if !args.iter().any(|a| a == "--wall") {
        instruction_table();
    }
    wall_table();
}
