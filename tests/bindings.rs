//! Runs the MATLAB/Octave binding test against this build's shared library (mkoctfile
//! and octave-cli, installed by tests/setup.sh); the Python package's tests run from
//! tests/python_package.rs. Without
//! Octave the Octave tests fail, unless `MAXDYN_SKIP=octave` asks to skip them by name
//! (tests/common/require.rs). Julia is not installable
//! on the project's machines: bindings/julia is untested here.

mod common;

use std::process::Command;

use common::*;

#[test]
fn octave_binding_tests_pass() {
    if !require::octave("octave_binding_tests_pass") {
        return;
    }
    let lib = shared_library();
    let build = scratch_dir("octave_binding");
    let out = run(Command::new("sh")
        .arg(manifest_dir().join("bindings").join("matlab").join("run_octave_tests.sh"))
        .arg(&lib)
        .env("MAXDYN_OCTAVE_BUILD", &build));
    println!("{out}");
    let expected = octave_test_count();
    assert!(out.contains(&format!("{expected} passed, 0 failed")), "expected {expected} passed:\n{out}");
}

/// The tests test_maxdyn.m lists (the `@name` handles of its `tests = {...}` cell): all
/// must run and pass.
fn octave_test_count() -> usize {
    let source = std::fs::read_to_string(manifest_dir().join("bindings").join("matlab").join("test_maxdyn.m")).unwrap();
    let list = source.split("tests = {").nth(1).and_then(|t| t.split("};").next()).expect("the tests = {...}; cell of test_maxdyn.m");
    let count = list.matches('@').count();
    assert!(count >= 10, "only {count} Octave tests listed");
    count
}

/// The Octave build line of bindings/README.md, run as written against a temporary
/// install, in a copy of the repository's layout; the MEX file then loads in Octave
/// without LD_LIBRARY_PATH.
#[test]
fn documented_octave_build_command_works() {
    let test = "documented_octave_build_command_works";
    if !require::octave(test) || !require::require(test, "pkg-config", require::on_path("pkg-config"), "run `bash tests/setup.sh`") {
        return;
    }
    let readme = std::fs::read_to_string(manifest_dir().join("bindings").join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().filter(|l| l.starts_with("mkoctfile ")).collect();
    assert_eq!(lines.len(), 1, "one mkoctfile line expected in bindings/README.md: {lines:?}");
    let scratch = scratch_dir("octave_documented_build");
    let prefix = scratch.join("prefix");
    let from = lib_dir(&shared_library());
    run(Command::new("bash").arg(manifest_dir().join("scripts").join("install.sh")).arg("--prefix").arg(&prefix).arg("--from").arg(&from));
    let repo = scratch.join("repo");
    let matlab = repo.join("bindings").join("matlab");
    std::fs::create_dir_all(&matlab).unwrap();
    for entry in std::fs::read_dir(manifest_dir().join("bindings").join("matlab")).unwrap() {
        let path = entry.unwrap().path();
        if matches!(path.extension().and_then(|e| e.to_str()), Some("c" | "h" | "m")) {
            std::fs::copy(&path, matlab.join(path.file_name().unwrap())).unwrap();
        }
    }
    let pkg_config_path = prefix.join("lib").join("pkgconfig");
    let sh = |script: &str| {
        let out = Command::new("sh")
            .arg("-c")
            .arg(script)
            .current_dir(&repo)
            .env("PKG_CONFIG_PATH", &pkg_config_path)
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .expect("run sh");
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "`{script}` failed:\n{text}");
        text
    };
    sh(lines[0]);
    let out = sh("octave-cli --no-gui --norc --quiet --eval \"addpath('bindings/matlab'); printf('version %s\\n', maxdyn_mex('version'))\"");
    assert!(out.contains(&format!("version {}", env!("CARGO_PKG_VERSION"))), "{out}");
}

/// The coverage table of bindings/README.md lists every function of the header, in
/// its order, and its ✓ marks are exactly the functions each binding's source names.
/// `MAXDYN_BLESS=1 cargo test --test bindings coverage` rewrites it (after the header or
/// a binding changed).
#[test]
fn coverage_table_matches_the_header_and_the_bindings() {
    let header = std::fs::read_to_string(header_path()).unwrap();
    let functions: Vec<String> = header
        .lines()
        .filter(|l| !l.starts_with(|c: char| c.is_whitespace() || c == '/' || c == '#') && !l.starts_with("typedef"))
        .filter_map(|l| {
            let open = l.find('(')?;
            let name = l[..open].rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
            name.starts_with("maxdyn_").then(|| name.to_string())
        })
        .collect();
    assert!(functions.len() > 100, "read only {} functions from the header", functions.len());
    let read = |dirs: &[&str], ext: &str| -> String {
        let mut files: Vec<_> = dirs
            .iter()
            .flat_map(|d| std::fs::read_dir(manifest_dir().join(d)).unwrap().map(|e| e.unwrap().path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
    };
    let sources = [
        read(&["bindings/python/maxdyn"], "py"),
        read(&["bindings/matlab"], "c"),
        read(&["bindings/julia", "bindings/julia/src"], "jl"),
    ];
    let names = |source: &str, function: &str| {
        source.match_indices(function).any(|(at, _)| {
            let before = source[..at].chars().next_back();
            let after = source[at + function.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    };
    let expected: Vec<String> = functions
        .iter()
        .map(|f| {
            let marks: Vec<&str> = sources.iter().map(|src| if names(src, f) { "✓" } else { "—" }).collect();
            format!("| `{f}` | {} |", marks.join(" | "))
        })
        .collect();
    let count = |k: usize| expected.iter().filter(|r| r.split(" | ").nth(k).map(|c| c.trim_end_matches(" |")) == Some("✓")).count();
    println!("coverage: Python {}, Octave/MATLAB {}, Julia {} of {} functions", count(1), count(2), count(3), expected.len());

    let path = manifest_dir().join("bindings").join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- coverage:begin -->\n", "<!-- coverage:end -->");
    let start = readme.find(begin).expect("coverage:begin marker") + begin.len();
    let stop = readme.find(end).expect("coverage:end marker");
    let table = format!("| C function | Python | Octave/MATLAB | Julia |\n|---|:-:|:-:|:-:|\n{}\n", expected.join("\n"));
    if std::env::var("MAXDYN_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, format!("{}{table}{}", &readme[..start], &readme[stop..])).unwrap();
        return;
    }
    let listed: Vec<&str> = readme[start..stop].lines().filter(|l| l.starts_with("| `")).collect();
    let wrong: Vec<String> = expected
        .iter()
        .filter(|row| !listed.contains(&row.as_str()))
        .map(|row| format!("should be: {row}"))
        .chain(listed.iter().filter(|row| !expected.contains(&row.to_string())).map(|row| format!("is wrong:  {row}")))
        .collect();
    assert!(
        wrong.is_empty() && listed.len() == expected.len(),
        "bindings/README.md's coverage table is out of date (regenerate: MAXDYN_BLESS=1 cargo test --test bindings coverage):\n{}",
        wrong.join("\n")
    );
    assert_eq!(listed, expected.iter().map(String::as_str).collect::<Vec<_>>(), "rows out of the header's order");
}
