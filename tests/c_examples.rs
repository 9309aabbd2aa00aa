//! The C examples compile against the checked-in header (C99, -Werror), link against the
//! shared library built by this `cargo test`, run, and meet their own bounds; the double
//! pendulum through C lands exactly where the Rust API puts it.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use common::*;
use maxdyn::{model::box_inertia, Builder, JointType, Model, Sim, WORLD};

/// Compiles `examples_c/<name>.c` into a scratch directory; returns the executable.
fn build_example(name: &str) -> PathBuf {
    let lib = shared_library();
    let dir = scratch_dir(&format!("c_example_{name}"));
    let exe = dir.join(name);
    run(Command::new(c_compiler())
        .args(["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2", "-I"])
        .arg(header_path().parent().unwrap())
        .arg(manifest_dir().join("examples_c").join(format!("{name}.c")))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(lib_dir(&lib))
        .arg(format!("-Wl,-rpath,{}", lib_dir(&lib).display()))
        .args(["-lmaxdyn", "-lm"]));
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
    let j = box_inertia(1.0, 0.1, 0.1, 0.1);
    let ja: [f64; 9] = j.as_slice().try_into().unwrap();
    let b1 = b.add_body(1.0, ja).unwrap() as i32;
    let b2 = b.add_body(1.0, ja).unwrap() as i32;
    let j1 = b.add_joint(JointType::Revolute, WORLD, b1, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
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
    let out = Command::new(&exe).arg(steps.to_string()).output().expect("run double_pendulum");
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
