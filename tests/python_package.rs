//! The Python package as a user gets it: `pip install bindings/python` into the venv that
//! tests/setup.sh makes (target/python-venv: numpy, pytest, setuptools), with this run's
//! shared library put into the wheel (MAXDYN_LIBRARY), then pytest on
//! bindings/python/tests from another directory, loading the wheel's library.

mod common;

use std::process::Command;

use common::*;

/// bindings/python without build leftovers, so pip builds from a clean copy.
fn copy_package(to: &std::path::Path) {
    let from = manifest_dir().join("bindings").join("python");
    for entry in ["pyproject.toml", "setup.py", "README.md", "maxdyn"] {
        let status = Command::new("cp").arg("-r").arg(from.join(entry)).arg(to).status().expect("cp");
        assert!(status.success(), "cannot copy {entry}");
    }
}

#[test]
fn pip_installed_package_passes_pytest() {
    let Some(python) = require::venv_python("pip_installed_package_passes_pytest") else { return };
    let scratch = scratch_dir("python_package");
    let source = scratch.join("source");
    std::fs::create_dir_all(&source).unwrap();
    copy_package(&source);
    run(Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps", "--force-reinstall"])
        .arg(&source)
        .env("MAXDYN_LIBRARY", shared_library()));
    let elsewhere = scratch.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(manifest_dir().join("bindings").join("python").join("tests"))
        .current_dir(&elsewhere)
        .env_remove("MAXDYN_LIB")
        .env_remove("MAXDYN_LIBRARY")
        .env("MAXDYN_EXPECT_LIBRARY_IN", "package")
        .output()
        .expect("run pytest");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "pytest failed");
    let expected = test_function_count();
    assert!(stdout.contains(&format!("{expected} passed")) && !stdout.contains("failed"), "expected {expected} passed:\n{stdout}");
}

/// The `def test_` functions of bindings/python/tests: all must run and pass.
fn test_function_count() -> usize {
    let dir = manifest_dir().join("bindings").join("python").join("tests");
    let count: usize = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("test_") && n.ends_with(".py")))
        .map(|p| std::fs::read_to_string(p).unwrap().lines().filter(|l| l.starts_with("def test_")).count())
        .sum();
    assert!(count >= 24, "only {count} test functions found in {}", dir.display());
    count
}
