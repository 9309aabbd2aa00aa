//! What a test needs from outside the crate: tools and data that `bash tests/setup.sh`
//! installs (valgrind, GNU Octave, the Python venv, the URDF corpus…). A missing one
//! FAILS the test, naming it and how to install it, unless the user asked to skip it by
//! name: `MAXDYN_SKIP=<name>,<name>…`, where a name is the test's (its function, e.g.
//! `c_examples_are_clean_under_valgrind`) or the resource's (`valgrind`, `octave`,
//! `corpus`, `python-venv`), which skips every test needing it. A skipped test prints
//! `SKIPPED` and passes. Only std here: crates include this file on its own.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// True when `resource` is present; false (after printing SKIPPED) when MAXDYN_SKIP names
/// `test` or `resource`; otherwise panics naming what is missing and how to install it.
pub fn require(test: &str, resource: &str, present: bool, install: &str) -> bool {
    if present {
        return true;
    }
    if skip_requested(test, resource) {
        println!("SKIPPED {test}: {resource} is missing and MAXDYN_SKIP names it");
        return false;
    }
    panic!(
        "{test} needs {resource}, which is missing: {install}. \
         To skip on purpose: MAXDYN_SKIP={test} (this test) or MAXDYN_SKIP={resource} (every test needing it)"
    );
}

/// Whether MAXDYN_SKIP (comma- or space-separated) names `test` or `resource`.
/// `MAXDYN_ALLOW_SKIP_OCTAVE=1` is the older spelling of `MAXDYN_SKIP=octave`.
pub fn skip_requested(test: &str, resource: &str) -> bool {
    let list = std::env::var("MAXDYN_SKIP").unwrap_or_default();
    let named = list.split([',', ' ']).map(str::trim).any(|n| n == test || n == resource);
    let old_octave = resource == "octave" && std::env::var("MAXDYN_ALLOW_SKIP_OCTAVE").as_deref() == Ok("1");
    named || old_octave
}

/// Whether `tool` is on PATH.
pub fn on_path(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().is_ok_and(|o| o.status.success())
}

pub fn valgrind(test: &str) -> bool {
    require(test, "valgrind", on_path("valgrind"), "install it with `bash tests/setup.sh` (apt-get install valgrind)")
}

/// GNU Octave with mkoctfile (the MEX build) and octave-cli.
pub fn octave(test: &str) -> bool {
    require(
        test,
        "octave",
        on_path("mkoctfile") && on_path("octave-cli"),
        "GNU Octave (mkoctfile, octave-cli) is not installed: run `bash tests/setup.sh` (or bindings/matlab/install_octave.sh)",
    )
}

/// A file or directory of example-robot-data 6.0.0, which setup.sh unpacks under target/corpus.
pub fn corpus(test: &str, path: &str) -> bool {
    require(test, "corpus", Path::new(path).exists(), &format!("no {path}: run `bash tests/setup.sh` (it unpacks example-robot-data 6.0.0 into target/corpus)"))
}

/// The venv setup.sh makes (numpy, pytest), never whatever python3 is first on PATH; its
/// bin/python is the interpreter itself (a symlink), not a launcher script.
pub fn venv_python(test: &str) -> Option<PathBuf> {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join("python-venv").join("bin").join("python");
    let install = format!("no {}: run `bash tests/setup.sh` (it makes the venv with numpy and pytest)", python.display());
    require(test, "python-venv", python.exists(), &install).then_some(python)
}
