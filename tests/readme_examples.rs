//! The README's first simulation in C, Python and Rust: the C and Python blocks are taken
//! from README.md as a user would copy them, built and run here; the Rust block is a
//! doctest of the crate (`src/lib.rs` includes the README for it). All three print the
//! same pendulum after 1 s.

mod common;

use common::*;
use std::process::Command;

/// The body of the README's first fenced block of `language`.
fn block(language: &str) -> String {
    let readme = std::fs::read_to_string(manifest_dir().join("README.md")).expect("README.md");
    let start = readme.find(&format!("```{language}\n")).unwrap_or_else(|| panic!("README.md has no ```{language} block"));
    let body = &readme[start + language.len() + 4..];
    body[..body.find("```").expect("an unclosed block")].to_string()
}

/// The three coordinates after `after 1 s: x =` (C prints them in parentheses, Python as
/// an array).
fn position(out: &str) -> Vec<f64> {
    let line = out.lines().find_map(|l| l.strip_prefix("after 1 s: x =")).unwrap_or_else(|| panic!("no result line in:\n{out}"));
    line.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+' || c == 'e')).filter_map(|w| w.parse().ok()).collect()
}

/// The pendulum through the Rust API, as the README's Rust block builds it.
fn expected() -> [f64; 3] {
    use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
    let mut b = Builder::new();
    let link = b.add_body(1.0, Inertia::diagonal(1.0 / 600.0, 1.0 / 600.0, 1.0 / 600.0).unwrap()).unwrap();
    let joint = b.add_joint(JointType::Revolute, Parent::World, link, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    let mut sim = Sim::new(std::sync::Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    sim.set_joint_position(joint, &[1.0]).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let s = sim.body_state(link).unwrap();
    [s[0], s[1], s[2]]
}

fn check(language: &str, out: &str) {
    let got = position(out);
    let want = expected();
    println!("{language}: {got:?} (Rust API: {want:?})");
    assert_eq!(got.len(), 3, "{out}");
    // printed with 6 (C %g) or 8 (numpy) significant digits
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= 1e-5 * w.abs().max(1e-3), "{language}: {got:?} vs {want:?}");
    }
}

#[test]
fn the_c_example_runs() {
    let dir = scratch_dir("readme_c");
    let source = dir.join("pendulum.c");
    std::fs::write(&source, block("c")).unwrap();
    let exe = dir.join("pendulum");
    compile_c_program(&source, &exe, false);
    check("C", &run(&mut Command::new(&exe)));
}

#[test]
fn the_python_example_runs() {
    let Some(python) = require::venv_python("the_python_example_runs") else { return };
    let dir = scratch_dir("readme_python");
    let script = dir.join("pendulum.py");
    std::fs::write(&script, block("python")).unwrap();
    let out = run(Command::new(python).arg(&script).env("PYTHONPATH", manifest_dir().join("bindings").join("python")).env("MAXDYN_LIBRARY", shared_library()));
    check("Python", &out);
}
