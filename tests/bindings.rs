//! Runs the binding test scripts against this build's shared library: Python (ctypes)
//! and MATLAB/Octave (install it with bindings/matlab/install_octave.sh). Without Octave
//! the Octave test fails, unless skipping is asked for with MAXDYN_ALLOW_SKIP_OCTAVE=1.
//! Julia is not installable on the project's machines: bindings/julia is untested here.

mod common;

use std::process::Command;

use common::*;

fn have(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().map(|o| o.status.success()).unwrap_or(false)
}

#[test]
fn python_binding_tests_pass() {
    let lib = shared_library();
    let out = run(Command::new("python3")
        .arg(manifest_dir().join("bindings").join("python").join("test_maxdyn.py"))
        .env("MAXDYN_LIB", &lib));
    println!("{out}");
    assert!(out.contains("10 passed, 0 failed"), "{out}");
}

#[test]
fn octave_binding_tests_pass() {
    if !(have("mkoctfile") && have("octave-cli")) {
        let may_skip = std::env::var("MAXDYN_ALLOW_SKIP_OCTAVE").as_deref() == Ok("1");
        assert!(may_skip, "octave is not installed: run bindings/matlab/install_octave.sh, or set MAXDYN_ALLOW_SKIP_OCTAVE=1 to skip this test");
        println!("SKIPPED (MAXDYN_ALLOW_SKIP_OCTAVE=1): octave not installed");
        return;
    }
    let lib = shared_library();
    let build = scratch_dir("octave_binding");
    let out = run(Command::new("sh")
        .arg(manifest_dir().join("bindings").join("matlab").join("run_octave_tests.sh"))
        .arg(&lib)
        .env("MAXDYN_OCTAVE_BUILD", &build));
    println!("{out}");
    assert!(out.contains("7 passed, 0 failed"), "{out}");
}
