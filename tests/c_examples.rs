//! The C examples compile against the checked-in header (C99, -Werror), link against the
//! shared library built by this `cargo test`, run, and meet their own bounds; the double
//! pendulum through C lands exactly where the Rust API puts it.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use common::*;
use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};

/// Compiles `examples_c/<name>.c` into a scratch directory; returns the executable.
fn build_example(name: &str) -> PathBuf {
    build_example_in(name, &format!("c_example_{name}"))
}

/// As [`build_example`], into scratch directory `dir` (tests run in parallel: each
/// builds into its own).
fn build_example_in(name: &str, dir: &str) -> PathBuf {
    let exe = scratch_dir(dir).join(name);
    compile_c_program(&manifest_dir().join("examples_c").join(format!("{name}.c")), &exe, true);
    exe
}

fn field(out: &str, prefix: &str) -> Vec<f64> {
    let line = out.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"));
    line.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter_map(|w| w.parse::<f64>().ok())
        .collect()
}

/// The same mechanism and start through the Rust API: body 2's position after `steps`.
fn rust_double_pendulum(steps: usize) -> [f64; 3] {
    let mut b = Builder::new();
    let ja = Inertia::cuboid(1.0, 0.1, 0.1, 0.1).unwrap();
    let b1 = b.add_body(1.0, ja).unwrap();
    let b2 = b.add_body(1.0, ja).unwrap();
    let j1 = b.add_joint(JointType::Revolute, Parent::World, b1, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, b1, b2, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    let mut s = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    s.set_joint_position(j1, &[std::f64::consts::FRAC_PI_2]).unwrap();
    s.set_joint_position(j2, &[0.0]).unwrap();
    for _ in 0..steps {
        s.step().unwrap();
    }
    let st = s.body_state(1).unwrap();
    [st[0], st[1], st[2]]
}

#[test]
fn double_pendulum_c_example_runs_within_its_bounds() {
    let steps = 6000;
    let exe = build_example("double_pendulum");
    let out = Command::new(&exe).env("LD_LIBRARY_PATH", lib_dir(&shared_library())).arg(steps.to_string()).output().expect("run double_pendulum");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "double_pendulum exited with {}", out.status);
    let de = field(&stdout, "max |E - E0|:");
    let (first, second) = (de[0], de[1]);
    let violation = field(&stdout, "max constraint violation")[0];
    assert!(violation <= 1e-9, "violation {violation:e}");
    assert!(first.max(second) <= 1.0, "energy error {first} / {second} J");
    assert!(second <= 1.5 * first, "energy error grows: {first} -> {second} J");
    // the C path is a thin layer: bit-for-bit the Rust trajectory (up to printing)
    let c_pos = field(&stdout, "body 2 at");
    let r_pos = rust_double_pendulum(steps);
    for k in 0..3 {
        assert!((c_pos[k] - r_pos[k]).abs() <= 1e-12, "body 2 {c_pos:?} vs Rust {r_pos:?}");
    }
}

fn run_example(exe: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(exe).env("LD_LIBRARY_PATH", lib_dir(&shared_library())).args(args).output().expect("run example");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{text}");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Lowest corner height every 5 steps of the same box drop through the Rust API.
fn rust_box_drop(drop: f64) -> Vec<f64> {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.5, 0.5, 0.5).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.25 + drop], [1.0, 0.0, 0.0, 0.0]).unwrap();
    let mut cs = Vec::new();
    for k in 0..8 {
        let c = |bit: usize| if k & bit != 0 { 0.25 } else { -0.25 };
        cs.push(b.add_ground_contact(body, [c(1), c(2), c(4)], 0.0, 0.3).unwrap());
    }
    let mut s = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    let mut lowest = Vec::new();
    for step in 1..=100 {
        s.step().unwrap();
        if step % 5 == 0 {
            lowest.push(cs.iter().map(|&c| s.contact(c).unwrap().gap).fold(f64::INFINITY, f64::min));
        }
    }
    lowest
}

/// SCENARIOS A4 from C: the box stops on the ground (penetration ≤ 1e-4 m, at rest within
/// 1e-3 m, carrying m g), and the printed lowest-corner heights are the Rust API's.
#[test]
fn box_drop_c_example_stays_on_the_ground() {
    let exe = build_example("box_drop");
    for (arg, drop) in [("1", 1.0), ("0.25", 0.25)] {
        let (success, stdout) = run_example(&exe, &[arg]);
        assert!(success, "box_drop {arg} failed");
        let penetration = field(&stdout, "max penetration:")[0];
        let rest = field(&stdout, "rest height:")[0];
        let normal = field(&stdout, "total normal force:")[0];
        assert!(penetration <= 1e-4, "penetration {penetration:e}");
        assert!(rest.abs() <= 1e-3, "rest height {rest:e}");
        assert!((normal - 9.81).abs() < 1e-6, "Σγ = {normal}");
        // the table: time, lowest corner, active, normal force, iterations
        let table: Vec<Vec<f64>> = stdout
            .lines()
            .map(|l| l.split_whitespace().filter_map(|w| w.parse::<f64>().ok()).collect::<Vec<_>>())
            .filter(|r| r.len() == 5)
            .collect();
        let rust = rust_box_drop(drop);
        assert_eq!(table.len(), rust.len());
        for (row, r) in table.iter().zip(&rust) {
            assert!((row[1] - r).abs() <= 1e-3 * r.abs() + 1e-12, "t = {}: C {} vs Rust {r}", row[0], row[1]);
        }
        // it fell (lowest corner starts near `drop`) and ended on 4 corners
        assert!(table[0][1] > 0.9 * drop, "{:?}", table[0]);
        assert_eq!(table.last().unwrap()[2], 4.0);
    }
    // the example's own check can fail: from 5 m the box is still falling after 1 s
    let (success, _) = run_example(&exe, &["5"]);
    assert!(!success, "box_drop 5 should report that the box is not at rest");
}

/// The PD controller in the C callback settles at the static balance angle
/// Kp (θ* − θ) = m g (l/2) sin θ within 1e-6 rad, and so does the same PD as a servo (the
/// joint's spring and damper, its target set by `maxdyn_sim_set_joint_target`; within
/// 1e-10 rad).
#[test]
fn pd_control_c_example_settles_at_the_balance_angle() {
    let exe = build_example("pd_control");
    let (success, stdout) = run_example(&exe, &["3000"]);
    assert!(success, "pd_control failed");
    let settled = field(&stdout, "settled angle:")[0];
    let predicted = field(&stdout, "predicted angle:")[0];
    assert_eq!(field(&stdout, "callback calls:")[0], 3000.0);
    // the prediction, independently: bisection on Kp (θ* − θ) − m g (l/2) sin θ over [0, θ*]
    let (kp, target) = (20.0, 1.2);
    let f = |t: f64| kp * (target - t) - 9.81 * 0.5 * t.sin();
    let (mut lo, mut hi) = (0.0, target);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    assert!((predicted - lo).abs() < 1e-11, "printed prediction {predicted} vs {lo}");
    assert!(target - lo > 0.1, "gravity must pull visibly below the target");
    assert!((settled - lo).abs() <= 1e-6, "settled {settled} vs balance {lo}");
    let servo = field(&stdout, "servo settled angle:")[0];
    // measured 1.3e-12 rad
    assert!((servo - lo).abs() <= 1e-10, "the servo settled {servo} vs balance {lo}");
    // too short a run has not settled, and the example says so
    let (success, _) = run_example(&exe, &["100"]);
    assert!(!success, "pd_control 100 should fail its 1e-6 rad check");
}

/// Batch rollouts from C: a batch of PD-controlled pendulums with ground contacts on 1, 2
/// and 3 threads (and the machine's count) lands bit for bit where sims stepped one by one
/// land, also when the callback stops one sim.
#[test]
fn batch_rollouts_c_example_matches_serial_sims_bit_for_bit() {
    let exe = build_example("batch_rollouts");
    for threads in ["1", "2", "3", "0"] {
        let (success, stdout) = run_example(&exe, &[threads]);
        assert!(success, "batch_rollouts {threads} failed");
        assert!(stdout.contains("all running: batch and serial bit-identical"), "{stdout}");
        assert!(stdout.contains("sim 2 aborted: batch and serial bit-identical"), "{stdout}");
        assert!(stdout.contains("statuses: 0 0 201 0 0 0"), "{stdout}");
        assert!(stdout.contains("batch rollouts: OK"), "{stdout}");
    }
}

/// Issue 16: every C example under valgrind's memcheck (installed by tests/setup.sh):
/// no invalid read or write, no use of uninitialized memory, no definite or indirect
/// leak (valgrind exits with 99 on any), and the example's own checks pass (they end with
/// `maxdyn_debug_live_objects() == 0` where the example frees everything). Shorter runs
/// than above: memcheck is some 30× slower.
#[test]
fn c_examples_are_clean_under_valgrind() {
    if !require::valgrind("c_examples_are_clean_under_valgrind") {
        return;
    }
    for (name, args) in [("double_pendulum", vec!["200"]), ("box_drop", vec!["0.25"]), ("pd_control", vec!["3000"]), ("batch_rollouts", vec!["2"])] {
        let exe = build_example_in(name, &format!("valgrind_{name}"));
        let out = Command::new("valgrind")
            .args(["--quiet", "--error-exitcode=99", "--leak-check=full", "--show-leak-kinds=definite,indirect", "--errors-for-leak-kinds=definite,indirect"])
            .arg(&exe)
            .args(&args)
            .env("LD_LIBRARY_PATH", lib_dir(&shared_library()))
            .output()
            .expect("run valgrind");
        let stderr = String::from_utf8_lossy(&out.stderr);
        println!("{name}: exit {:?}\n{stderr}", out.status.code());
        assert_ne!(out.status.code(), Some(99), "{name}: valgrind found errors:\n{stderr}");
        assert!(out.status.success(), "{name} failed its own checks under valgrind");
    }
}
