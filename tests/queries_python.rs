//! Runs bindings/python/test_queries.py (the issue-13 queries from Python) against this
//! build's shared library.

mod common;

use std::process::Command;

use common::*;

#[test]
fn python_query_tests_pass() {
    let lib = shared_library();
    let out = run(Command::new("python3").arg(manifest_dir().join("bindings").join("python").join("test_queries.py")).env("MAXDYN_LIB", &lib));
    println!("{out}");
    assert!(out.contains("1 passed, 0 failed"), "{out}");
}
