//! Runs the binding test scripts against this build's shared library: Python (ctypes)
//! and MATLAB/Octave (mkoctfile and octave-cli, installed by tests/setup.sh). Without
//! Octave the Octave test fails, unless MAXDYN_ALLOW_SKIP_OCTAVE=1 explicitly allows the
//! skip (never under MAXDYN_REQUIRE_OCTAVE=1, which CI sets). Julia is not installable
//! on the project's machines: bindings/julia is untested here.

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
    assert!(out.contains("14 passed, 0 failed"), "{out}");
}

#[test]
fn octave_binding_tests_pass() {
    let flag = |name: &str| std::env::var(name).as_deref() == Ok("1");
    if !(have("mkoctfile") && have("octave-cli")) {
        // a test that cannot run fails, unless skipping was asked for by name
        assert!(
            flag("MAXDYN_ALLOW_SKIP_OCTAVE") && !flag("MAXDYN_REQUIRE_OCTAVE"),
            "GNU Octave (mkoctfile, octave-cli) is not installed, so the Octave binding test cannot run: \
             install it with `bash tests/setup.sh` (or bindings/matlab/install_octave.sh), or set \
             MAXDYN_ALLOW_SKIP_OCTAVE=1 to skip this test (not allowed with MAXDYN_REQUIRE_OCTAVE=1)"
        );
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
    assert!(out.contains("9 passed, 0 failed"), "{out}");
}
