//! Issue 13 part 4 from C: examples_c/lqr_double_pendulum.c (an inverted double pendulum
//! on a cart, only the cart driven, dt 0.01 s) stabilized by a discrete LQR computed from
//! `maxdyn_sim_linearize` at the upright equilibrium holds upright for 10 s from a
//! 0.05 rad push, and comes back to the equilibrium.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn build_lqr_example(dir: &str) -> PathBuf {
    let exe = scratch_dir(dir).join("lqr_double_pendulum");
    compile_c_program(&manifest_dir().join("examples_c").join("lqr_double_pendulum.c"), &exe, true);
    exe
}

/// (exit status ok, stdout).
fn run(exe: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(exe).env("LD_LIBRARY_PATH", lib_dir(&shared_library())).args(args).output().expect("run lqr_double_pendulum");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    println!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    (out.status.success(), stdout)
}

/// The numbers after `prefix` on its line.
fn field(out: &str, prefix: &str) -> Vec<f64> {
    let line = out.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"));
    line.split_whitespace().filter_map(|w| w.parse::<f64>().ok()).collect()
}

/// Measured with the linearization by differences (h 1e-6, the scaffold of
/// `maxdyn_sim_linearize`): worst tilt 6.613299e-2 rad, final state below. Linearizations
/// by differences with h = 1e-6, 1e-4 and 1e-3 move the worst tilt by 6e-8 rad and the
/// final entries by 1e-8 (relative 4e-5): the bounds allow ten times that.
const WORST_TILT: f64 = 6.613299e-2;
const FINAL_STATE: [f64; 6] = [2.319497e-4, -9.185919e-6, 3.214476e-7, -1.859028e-4, -1.812768e-6, -4.752437e-7];

fn assert_lqr_run(stdout: &str) {
    let tilt = field(stdout, "worst tilt:")[0];
    assert!((tilt - WORST_TILT).abs() <= 1e-6, "worst tilt {tilt:e} vs {WORST_TILT:e}");
    let fin = field(stdout, "final state:");
    assert_eq!(fin.len(), 6, "{fin:?}");
    for (k, (f, r)) in fin.iter().zip(FINAL_STATE).enumerate() {
        assert!((f - r).abs() <= 1e-7 + 4e-4 * r.abs(), "final state[{k}] {f:e} vs {r:e}");
    }
    // back at the equilibrium within 2.4e-4 (m, the cart is the slowest) after 10 s
    assert!(fin.iter().all(|v| v.abs() <= 2.5e-4), "{fin:?}");
    assert!(stdout.contains("\nOK\n"), "{stdout}");
}

#[test]
fn lqr_holds_the_double_pendulum_on_a_cart_upright_for_10_s() {
    let exe = build_lqr_example("c_example_lqr");
    let (ok, stdout) = run(&exe, &["0.05", "1000"]);
    assert!(ok, "lqr_double_pendulum failed");
    assert!(stdout.contains("linearized by maxdyn_sim_linearize"), "{stdout}");
    assert_eq!(field(&stdout, "push:")[..2], [0.05, 1000.0]);
    assert!((field(&stdout, "push:")[3] - 10.0).abs() < 1e-9, "ran 10 s");
    assert_lqr_run(&stdout);
    // the gain from central differences of whole steps steers the same way
    let (ok, stdout) = run(&exe, &["0.05", "1000", "1e-4"]);
    assert!(ok, "lqr_double_pendulum with differences failed");
    assert!(stdout.contains("linearized by central differences, h = 0.0001"), "{stdout}");
    assert_lqr_run(&stdout);
    // the example's own checks can fail: a 0.3 rad push tilts a rod past its 0.2 rad bound
    let (ok, stdout) = run(&exe, &["0.3", "1000"]);
    assert!(!ok, "a 0.3 rad push should fail the example's tilt bound");
    assert!(field(&stdout, "worst tilt:")[0] > 0.2);
}

/// The example under valgrind's memcheck (as tests/c_examples.rs does for the others),
/// at the equilibrium for 1 s: no invalid access, no uninitialized read, no leak.
#[test]
fn lqr_example_is_clean_under_valgrind() {
    if !require::valgrind("lqr_example_is_clean_under_valgrind") {
        return;
    }
    let exe = build_lqr_example("valgrind_lqr");
    let out = Command::new("valgrind")
        .args(["--quiet", "--error-exitcode=99", "--leak-check=full", "--show-leak-kinds=definite,indirect", "--errors-for-leak-kinds=definite,indirect"])
        .arg(&exe)
        .args(["0", "100"])
        .env("LD_LIBRARY_PATH", lib_dir(&shared_library()))
        .output()
        .expect("run valgrind");
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{}{stderr}", String::from_utf8_lossy(&out.stdout));
    assert_ne!(out.status.code(), Some(99), "valgrind found errors:\n{stderr}");
    assert!(out.status.success(), "lqr_double_pendulum failed its own checks under valgrind");
}
