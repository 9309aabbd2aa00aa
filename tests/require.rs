//! tests/common/require.rs, the rule every test needing a tool or data follows: a missing
//! resource fails the test naming it and how to install it; `MAXDYN_SKIP` naming the test
//! or the resource skips it instead (returns false); a present one returns true.

#[path = "common/require.rs"]
mod require;

use std::panic::catch_unwind;

fn message(test: &str, resource: &str) -> String {
    let err = catch_unwind(|| require::require(test, resource, false, "run `bash tests/setup.sh`")).expect_err("a missing resource must fail");
    err.downcast_ref::<String>().cloned().unwrap()
}

/// One test function: it sets MAXDYN_SKIP, which the other crates' tests do not share.
#[test]
fn missing_resources_fail_unless_skipped_by_name() {
    std::env::remove_var("MAXDYN_SKIP");
    std::env::remove_var("MAXDYN_ALLOW_SKIP_OCTAVE");
    assert!(require::require("a_test", "gizmo", true, "unused"));
    let m = message("a_test", "gizmo");
    assert!(m.contains("a_test needs gizmo, which is missing: run `bash tests/setup.sh`"), "{m}");
    assert!(m.contains("MAXDYN_SKIP=a_test") && m.contains("MAXDYN_SKIP=gizmo"), "{m}");
    std::env::set_var("MAXDYN_SKIP", "other_test, gizmo");
    assert!(!require::require("a_test", "gizmo", false, "unused"), "skipped by the resource's name");
    std::env::set_var("MAXDYN_SKIP", "other_test,a_test");
    assert!(!require::require("a_test", "gizmo", false, "unused"), "skipped by the test's name");
    std::env::set_var("MAXDYN_SKIP", "a_tes,gizm");
    message("a_test", "gizmo"); // a prefix names nothing
    std::env::remove_var("MAXDYN_SKIP");
    std::env::set_var("MAXDYN_ALLOW_SKIP_OCTAVE", "1");
    assert!(!require::require("a_test", "octave", false, "unused"), "the older spelling of MAXDYN_SKIP=octave");
    message("a_test", "valgrind");
    std::env::remove_var("MAXDYN_ALLOW_SKIP_OCTAVE");
    assert!(require::on_path("sh") && !require::on_path("no-such-tool-maxdyn"));
}
