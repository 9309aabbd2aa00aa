//! Issue 16: the batch pool under valgrind's thread checkers. helgrind and DRD watch every
//! memory access of the threads and report any pair not ordered by a pthread lock, a
//! condition variable, thread creation or join. The pool synchronizes only through
//! pthread's own mutex and condition variable (src/batch/pthread_sync.rs), so a clean run
//! is a verdict: 0 errors. Over std's futex-based locks helgrind saw none of the ordering
//! and reported 69 093 possible races.
//!
//! Runs: examples_c/batch_rollouts.c (6 PD-controlled pendulums with ground contacts, 2
//! threads, 60 steps; its own checks, batch bit-identical to serial sims, must pass too)
//! and a Rust batch of quadruped rollouts (this program run again with `--child`) — each
//! under helgrind and under DRD. The binary has its own `main` (`harness = false`):
//! libtest's runner thread and channels are futex-based too, and helgrind reports them.
//! About 20 s; without valgrind it fails, unless MAXDYN_SKIP=valgrind_threads (or valgrind).

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

/// Runs `exe args` under `tool`; returns its stderr after checking the exit status
/// (99: the tool found errors) and the error summary.
fn run_checked(tool: &str, exe: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new("valgrind");
    cmd.args([&format!("--tool={tool}"), "--error-exitcode=99"]).arg(exe).args(args);
    cmd.env("LD_LIBRARY_PATH", lib_dir(&shared_library()));
    let out = cmd.output().expect("run valgrind");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    println!("{tool} {}: exit {:?}\n{stdout}\n{}", exe.display(), out.status.code(), stderr.lines().last().unwrap_or(""));
    assert_ne!(out.status.code(), Some(99), "{tool} found errors:\n{stderr}");
    assert!(out.status.success(), "{} failed under {tool}:\n{stdout}\n{stderr}", exe.display());
    assert!(stderr.contains("ERROR SUMMARY: 0 errors from 0 contexts"), "{stderr}");
    stdout.into_owned()
}

fn the_c_batch_example_is_clean_under_helgrind_and_drd() {
    let exe = scratch_dir("valgrind_threads").join("batch_rollouts");
    compile_c_program(&manifest_dir().join("examples_c/batch_rollouts.c"), &exe, true);
    for tool in ["helgrind", "drd"] {
        let stdout = run_checked(tool, &exe, &["2", "60"]);
        assert!(stdout.contains("all running: batch and serial bit-identical"), "{stdout}");
        assert!(stdout.contains("batch rollouts: OK"), "{stdout}");
    }
}

/// The workload of the Rust run: 4 quadruped rollouts under PD control on 2 threads, in
/// three calls, bit-identical to serial stepping.
fn quadruped_batch_child() {
    use maxdyn::batch::Batch;
    use maxdyn_scenes::quadruped::{perturbed_learned_gaits, Quadruped};
    let q = Quadruped::load();
    let gaits = perturbed_learned_gaits(4, 3);
    let bits = |s: &maxdyn::Sim| (0..s.model().body_count()).flat_map(|b| s.body_state(b).unwrap()).map(f64::to_bits).collect::<Vec<u64>>();
    let mut batch = Batch::from_sims(gaits.iter().map(|g| q.standing(g, 0.0)).collect(), 2).unwrap();
    for steps in [10, 1, 9] {
        assert_eq!(
            batch.step_with(steps, |i, sim| {
                let t = sim.time();
                q.control(sim, &gaits[i], t)
            }),
            0
        );
    }
    for (i, g) in gaits.iter().enumerate() {
        let mut sim = q.standing(g, 0.0);
        for _ in 0..20 {
            let t = sim.time();
            q.control(&mut sim, g, t);
            sim.step().unwrap();
        }
        assert_eq!(bits(&sim), bits(batch.sim(i)), "sim {i}");
    }
    println!("quadruped batch child: 4 rollouts of 20 steps on 2 threads bit-identical to serial");
}

fn a_rust_quadruped_batch_is_clean_under_helgrind_and_drd() {
    let exe = std::env::current_exe().unwrap();
    for tool in ["helgrind", "drd"] {
        let stdout = run_checked(tool, &exe, &["--child"]);
        assert!(stdout.contains("bit-identical to serial"), "{stdout}");
    }
}

fn main() {
    if std::env::args().any(|a| a == "--child") {
        quadruped_batch_child();
        return;
    }
    if !require::valgrind("valgrind_threads") {
        return;
    }
    the_c_batch_example_is_clean_under_helgrind_and_drd();
    a_rust_quadruped_batch_is_clean_under_helgrind_and_drd();
    println!("helgrind and DRD: 0 errors over the C batch example and the Rust quadruped batch");
}
