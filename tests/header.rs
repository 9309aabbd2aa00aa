//! The checked-in C header is exactly what cbindgen generates from src/capi, compiles
//! alone as C99 and as C++ with -Werror, declares exactly the shared library's exported
//! `maxdyn_*` functions, and carries the version of Cargo.toml.

mod common;

use std::collections::BTreeSet;
use std::ffi::CStr;
use std::process::Command;

use common::*;

fn generate() -> String {
    let dir = manifest_dir();
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("read cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(dir.join("src").join("capi").join("mod.rs"))
        .generate()
        .expect("cbindgen generate");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("utf-8 header")
}

#[test]
fn header_is_up_to_date() {
    let fresh = generate();
    let path = header_path();
    if std::env::var("MAXDYN_BLESS").as_deref() == Ok("1") {
        std::fs::write(&path, &fresh).expect("write header");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    if checked_in != fresh {
        let line = checked_in.lines().zip(fresh.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
        panic!(
            "include/maxdyn.h is stale (first difference near line {line}); \
             regenerate with MAXDYN_BLESS=1 cargo test --test header"
        );
    }
}

/// Compiles a translation unit holding only `#include "maxdyn.h"` (twice, for the
/// include guard).
fn compile_alone(compiler: &str, lang: &str, std: &str, ext: &str) {
    let dir = scratch_dir(&format!("header_{lang}"));
    let src = dir.join(format!("only_header.{ext}"));
    std::fs::write(&src, "#include \"maxdyn.h\"\n#include \"maxdyn.h\"\nint main(void) { return 0; }\n").unwrap();
    run(Command::new(compiler)
        .arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-c", "-o"])
        .arg(dir.join("only_header.o"))
        .arg("-I")
        .arg(header_path().parent().unwrap())
        .arg(&src));
}

#[test]
fn header_compiles_alone_as_c99() {
    compile_alone(&c_compiler(), "c", "c99", "c");
}

#[test]
fn header_compiles_alone_as_cxx() {
    compile_alone(&cxx_compiler(), "cxx", "c++11", "cpp");
}

/// Function names declared in the header (outside comments: `name(` at the start of a
/// declaration; function-pointer typedefs like `(*name)(` are not functions).
fn header_functions(header: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut in_block_comment = false;
    for line in header.lines() {
        let t = line.trim_start();
        if in_block_comment {
            in_block_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with("/*") {
            in_block_comment = !t.contains("*/");
            continue;
        }
        if t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        let mut rest = t;
        while let Some(i) = rest.find("maxdyn_") {
            let tail = &rest[i..];
            let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len());
            let preceded_by_star_paren = rest[..i].ends_with("(*");
            if tail[end..].starts_with('(') && !preceded_by_star_paren {
                names.insert(tail[..end].to_string());
            }
            rest = &tail[end..];
        }
    }
    names
}

#[test]
fn exported_symbols_are_exactly_the_header_functions() {
    let header = std::fs::read_to_string(header_path()).expect("read header");
    let declared = header_functions(&header);
    assert!(declared.len() >= 40, "parsed only {} functions from the header", declared.len());
    let lib = shared_library();
    let nm = run(Command::new("nm").args(["-D", "--defined-only"]).arg(&lib));
    let exported: BTreeSet<String> = nm
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| s.starts_with("maxdyn_"))
        .map(str::to_string)
        .collect();
    let missing: Vec<_> = declared.difference(&exported).collect();
    let undeclared: Vec<_> = exported.difference(&declared).collect();
    assert!(missing.is_empty() && undeclared.is_empty(), "declared but not exported: {missing:?}; exported but not declared: {undeclared:?} ({})", lib.display());
    println!("{} functions declared and exported by {}", declared.len(), lib.display());
}

fn header_macro(header: &str, name: &str) -> String {
    header
        .lines()
        .find_map(|l| l.strip_prefix(&format!("#define {name} ")))
        .unwrap_or_else(|| panic!("{name} not defined in the header"))
        .trim()
        .to_string()
}

#[test]
fn version_macros_and_runtime_version_match_cargo_toml() {
    let header = std::fs::read_to_string(header_path()).expect("read header");
    assert_eq!(header_macro(&header, "MAXDYN_VERSION_MAJOR"), env!("CARGO_PKG_VERSION_MAJOR"));
    assert_eq!(header_macro(&header, "MAXDYN_VERSION_MINOR"), env!("CARGO_PKG_VERSION_MINOR"));
    assert_eq!(header_macro(&header, "MAXDYN_VERSION_PATCH"), env!("CARGO_PKG_VERSION_PATCH"));
    let runtime = unsafe { CStr::from_ptr(maxdyn::capi::maxdyn_version()) }.to_str().unwrap();
    assert_eq!(runtime, env!("CARGO_PKG_VERSION"));
}
