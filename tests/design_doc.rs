//! The developer docs name what the code holds: docs/DESIGN.md names every folder under
//! `src/`, every file of the C API (`src/capi/`) and every stage file of the step
//! (`src/step/`, `src/step/interior_point/`); CONTRIBUTING.md names every benchmark of
//! `benches/`. Each test lists the files on disk, so a new one that the docs leave out
//! fails here, named. README.md stays under 200 lines.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The names of the entries of `dir` that are folders (`folders`) or `.rs` files, sorted.
fn entries(dir: &Path, folders: bool) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| if folders { p.is_dir() } else { p.extension().is_some_and(|x| x == "rs") })
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every folder under `src/`, as its path relative to `src/` (`contact`, `contact/cone`).
fn src_folders(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    for name in entries(dir, true) {
        let rel = if prefix.is_empty() { name.clone() } else { format!("{prefix}/{name}") };
        src_folders(&dir.join(&name), &rel, out);
        out.push(rel);
    }
}

/// The part of `doc` from the heading that starts with `heading` to the next heading of
/// the same or a higher level.
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc.find(heading).unwrap_or_else(|| panic!("no section {heading:?} in docs/DESIGN.md"));
    let level = heading.chars().take_while(|&c| c == '#').count();
    let body = &doc[start + heading.len()..];
    let end = body
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| {
            let hashes = body[i..].chars().take_while(|&c| c == '#').count();
            hashes > 0 && hashes <= level && body[i + hashes..].starts_with(' ')
        })
        .unwrap_or(body.len());
    &body[..end]
}

fn assert_none_missing(what: &str, missing: &[String]) {
    assert!(missing.is_empty(), "{what} does not name: {}", missing.join(", "));
}

/// Every folder under `src/` appears in docs/DESIGN.md as `name/` (a top-level layer) or
/// by its path from `src/` (`contact/cone/`).
#[test]
fn design_doc_names_every_src_folder() {
    let doc = read("docs/DESIGN.md");
    let mut folders = Vec::new();
    src_folders(&repo().join("src"), "", &mut folders);
    assert!(folders.len() >= 20, "too few folders found: {folders:?}");
    let missing: Vec<String> = folders.into_iter().filter(|f| !doc.contains(&format!("{f}/"))).collect();
    assert_none_missing("docs/DESIGN.md", &missing);
}

/// Every file of `src/capi/` appears in DESIGN.md's section on the C edge, as `name.rs`.
#[test]
fn design_doc_names_every_capi_file() {
    let doc = read("docs/DESIGN.md");
    let capi = section(&doc, "### urdf, capi");
    let files = entries(&repo().join("src/capi"), false);
    assert!(files.len() >= 30, "too few C-API files found: {files:?}");
    let missing: Vec<String> = files.into_iter().filter(|f| !capi.contains(&format!("`{f}`"))).collect();
    assert_none_missing("docs/DESIGN.md's \"urdf, capi\" section", &missing);
}

/// Every file of `src/step/` and of its interior point appears in DESIGN.md's section on
/// the step, as `name.rs` (the interior point's as `interior_point/name.rs`).
#[test]
fn design_doc_names_every_step_stage() {
    let doc = read("docs/DESIGN.md");
    let step = section(&doc, "### step");
    let mut files = entries(&repo().join("src/step"), false);
    files.extend(entries(&repo().join("src/step/interior_point"), false).into_iter().map(|f| format!("interior_point/{f}")));
    assert!(files.len() >= 15, "too few step files found: {files:?}");
    let missing: Vec<String> = files.into_iter().filter(|f| !step.contains(&format!("`{f}`")) && !step.contains(&format!("`src/step/{f}`"))).collect();
    assert_none_missing("docs/DESIGN.md's \"step\" section", &missing);
}

/// CONTRIBUTING.md's benchmark list names every `benches/*.rs` as `` `name` ``.
#[test]
fn contributing_lists_every_benchmark() {
    let contributing = read("CONTRIBUTING.md");
    let benches = entries(&repo().join("benches"), false);
    assert!(benches.len() >= 10, "too few benchmarks found: {benches:?}");
    let missing: Vec<String> = benches.iter().map(|b| b.trim_end_matches(".rs").to_string()).filter(|b| !contributing.contains(&format!("`{b}`"))).collect();
    assert_none_missing("CONTRIBUTING.md", &missing);
}

/// The README stays a user document under 200 lines (issue 26): results tables and design
/// notes go to docs/.
#[test]
fn readme_is_under_200_lines() {
    let lines = read("README.md").lines().count();
    assert!(lines < 200, "README.md has {lines} lines: move tables and design notes to docs/");
}
