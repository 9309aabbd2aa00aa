//! The checked-in C header is exactly what cbindgen generates from src/capi, compiles
//! alone as C99 and as C++ with -Werror, declares exactly the shared library's exported
//! `maxdyn_*` functions, carries the version of Cargo.toml, and keeps the deprecated
//! names working from C.

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
    with_dividers(&String::from_utf8(out).expect("utf-8 header"))
}

/// The header's sections: one per file of `src/capi` that exports functions, in the
/// order of `src/capi/mod.rs` (which is the header's), with the title its divider shows.
/// A new file with functions must be named here (`generate` fails naming it).
const SECTIONS: [(&str, &str); 34] = [
    ("status", "Status codes"),
    ("error", "Errors: the last error message"),
    ("version", "Version"),
    ("builder", "Builder: bodies, joints, gravity"),
    ("builder_names", "Builder: names of bodies and joints"),
    ("builder_constraints", "Builder: joint limits, mimic joints, frames"),
    ("builder_forces", "Builder: springs and dampers"),
    ("builder_contacts", "Builder: point and sphere contacts, friction cones"),
    ("builder_collision", "Builder: collision shapes and their filters"),
    ("urdf", "Builder from URDF"),
    ("model", "Model: creation and counts"),
    ("model_names", "Model: names"),
    ("model_structure", "Model: joint types, parents, masses, inertias"),
    ("model_frames", "Model: named frames"),
    ("model_shapes", "Model: collision shapes"),
    ("model_constraints", "Model: joint limits and mimics"),
    ("sim", "Sim: creation, control callback, stepping"),
    ("options", "Sim: solver options"),
    ("sim_state", "Sim: time, body states, joint coordinates"),
    ("sim_whole_state", "Sim: whole-state vectors q, v, u"),
    ("sim_assemble", "Sim: assembled start"),
    ("sim_snapshot", "Sim: exact state and copies"),
    ("sim_kinematics", "Sim: kinematics (poses, twists, Jacobians)"),
    ("sim_dynamics", "Sim: dynamics terms (mass matrix, bias forces, inverse dynamics)"),
    ("sim_derivatives", "Sim: step derivatives (linearization)"),
    ("sim_inputs", "Sim: joint inputs and body wrenches"),
    ("sim_contacts", "Sim: contact results"),
    ("sim_shape_contacts", "Sim: contacts between collision shapes"),
    ("sim_limits", "Sim: joint-limit and mimic results"),
    ("diagnostics", "Sim: step statistics, energy, constraint diagnostics"),
    ("step_stats_sized", "Sim: step statistics at the caller's struct size"),
    ("recorder", "Recorder: trajectories for the viewer"),
    ("batch", "Batch: many sims on a thread pool"),
    ("deprecated", "Deprecated names (aliases of the maxdyn_<object>_get_<thing> functions)"),
];

fn divider(title: &str) -> String {
    let rule = format!("// {}", "=".repeat(96));
    format!("{rule}\n// {title}\n{rule}\n\n")
}

/// The file of `src/capi` that defines each exported function.
fn function_files() -> std::collections::BTreeMap<String, String> {
    let mut files = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(manifest_dir().join("src/capi")).expect("src/capi") {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, _) in text.match_indices("extern \"C\" fn maxdyn_") {
            let name: String = text[i + "extern \"C\" fn ".len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            files.insert(name, stem.clone());
        }
    }
    files
}

/// cbindgen's header with a divider before the constants, the types and each file's
/// functions. Items are separated by blank lines; an item's function is the first
/// `maxdyn_…(` outside its comment lines.
fn with_dividers(header: &str) -> String {
    let files = function_files();
    let (mut constants, mut types) = (false, false);
    let mut file = String::new();
    let mut out = String::new();
    for item in header.split_inclusive("\n\n") {
        let code: Vec<&str> = item
            .lines()
            .filter(|l| {
                let t = l.trim_start();
                !(t.starts_with("//") || t.starts_with("/*") || t.starts_with('*'))
            })
            .collect();
        if !constants && code.iter().any(|l| l.starts_with("#define MAXDYN_VERSION_MAJOR")) {
            constants = true;
            out += &divider("Constants");
        } else if !types && code.iter().any(|l| l.starts_with("enum ") || l.starts_with("typedef ")) {
            types = true;
            out += &divider("Types");
        } else if let Some(name) = code.iter().find_map(|l| declared_function(l)) {
            let f = files.get(&name).unwrap_or_else(|| panic!("{name}: no file of src/capi defines it"));
            if *f != file {
                let title = SECTIONS.iter().find(|(s, _)| s == f).unwrap_or_else(|| panic!("src/capi/{f}.rs has no section title in tests/header.rs SECTIONS")).1;
                out += &divider(&format!("{title} (src/capi/{f}.rs)"));
                file = f.clone();
            }
        }
        out += item;
    }
    out
}

/// The function a declaration line names: `maxdyn_…(` not preceded by `(*` (a function
/// pointer).
fn declared_function(line: &str) -> Option<String> {
    if line.starts_with('#') {
        return None;
    }
    line.match_indices("maxdyn_").find_map(|(i, _)| {
        let name: String = line[i..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        (line[i + name.len()..].starts_with('(') && !line[..i].ends_with("(*")).then_some(name)
    })
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

/// A C program calling every deprecated name beside its `get_` function: the old names
/// compile against the header (C99, warnings on but not errors: each old name is declared
/// deprecated), link against the library and give the same values. It also passes
/// `maxdyn_solver_options` across the ABI both ways.
const DEPRECATED_NAMES_C: &str = r#"
#include <stdio.h>
#include <string.h>
#include "maxdyn.h"

static int failures = 0;
#define OK(call) do { maxdyn_status st_ = (call); if (st_ != MAXDYN_STATUS_OK) { \
    printf("%s: %s\n", #call, maxdyn_last_error_message()); return 1; } } while (0)
#define SAME_INT(a, b) do { if ((a) != (b)) { printf("differ: %s %d vs %s %d\n", #a, (int)(a), #b, (int)(b)); failures++; } } while (0)
#define SAME_DOUBLE(a, b) do { if (memcmp(&(a), &(b), sizeof(double)) != 0) { \
    printf("differ: %s %.17g vs %s %.17g\n", #a, a, #b, b); failures++; } } while (0)

int main(void) {
    const double inertia[9] = {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1};
    const double zero[3] = {0, 0, 0}, down[3] = {0, 0, 1}, x[3] = {1, 0, 0}, side[3] = {0, 1, 0};
    maxdyn_builder *b = NULL;
    maxdyn_model *m = NULL;
    maxdyn_sim *s = NULL;
    int32_t b1, b2, j1, j2, c, spring, old_i, new_i;
    int32_t r_old[4], r_new[4];
    double d_old, d_new, e_old, e_new, k_old, p_old, k_new, p_new;
    maxdyn_solver_options opts, read_back;
    int k;
    OK(maxdyn_builder_new(&b));
    OK(maxdyn_builder_add_body(b, 1.0, inertia, &b1));
    OK(maxdyn_builder_add_body(b, 1.0, inertia, &b2));
    OK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, MAXDYN_WORLD, b1, zero, down, x, &j1));
    OK(maxdyn_builder_add_joint(b, MAXDYN_JOINT_REVOLUTE, b1, b2, zero, down, x, &j2));
    OK(maxdyn_builder_add_plane_contact(b, b2, zero, 0.1, down, -5.0, 0.5, &c));
    OK(maxdyn_builder_add_spring(b, MAXDYN_WORLD, side, b2, zero, 5.0, 0.0, 0.0, &spring));

    OK(maxdyn_builder_body_count(b, &old_i)); OK(maxdyn_builder_get_body_count(b, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_builder_joint_count(b, &old_i)); OK(maxdyn_builder_get_joint_count(b, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_builder_spring_count(b, &old_i)); OK(maxdyn_builder_get_spring_count(b, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_builder_contact_count(b, &old_i)); OK(maxdyn_builder_get_contact_count(b, &new_i)); SAME_INT(old_i, new_i);

    OK(maxdyn_model_new(b, &m));
    OK(maxdyn_model_body_count(m, &old_i)); OK(maxdyn_model_get_body_count(m, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_model_joint_count(m, &old_i)); OK(maxdyn_model_get_joint_count(m, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_model_joint_dof(m, j2, &old_i)); OK(maxdyn_model_get_joint_dof(m, j2, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_model_loop_count(m, &old_i)); OK(maxdyn_model_get_loop_count(m, &new_i)); SAME_INT(old_i, new_i);
    OK(maxdyn_model_contact_count(m, &old_i)); OK(maxdyn_model_get_contact_count(m, &new_i)); SAME_INT(old_i, new_i);

    OK(maxdyn_sim_new(m, 0.01, &s));
    for (k = 0; k < 10; k++) OK(maxdyn_sim_step(s));
    OK(maxdyn_sim_energy(s, &k_old, &p_old)); OK(maxdyn_sim_get_energy(s, &k_new, &p_new));
    SAME_DOUBLE(k_old, k_new); SAME_DOUBLE(p_old, p_new);
    OK(maxdyn_sim_spring_energy(s, &e_old)); OK(maxdyn_sim_get_spring_energy(s, &e_new)); SAME_DOUBLE(e_old, e_new);
    OK(maxdyn_sim_constraint_violation(s, &d_old)); OK(maxdyn_sim_get_constraint_violation(s, &d_new)); SAME_DOUBLE(d_old, d_new);
    OK(maxdyn_sim_constraint_rank(s, &r_old[0], &r_old[1], &r_old[2], &r_old[3]));
    OK(maxdyn_sim_get_constraint_rank(s, &r_new[0], &r_new[1], &r_new[2], &r_new[3]));
    for (k = 0; k < 4; k++) SAME_INT(r_old[k], r_new[k]);
    if (maxdyn_sim_energy(s, NULL, &p_old) != MAXDYN_STATUS_NULL_POINTER) failures++;

    /* the options struct across the C ABI: returned by value, passed by pointer */
    opts = maxdyn_solver_options_default();
    if (!(opts.tolerance == 1e-10 && opts.max_iterations == 100 && opts.acceptance == 1e-8
          && opts.contact_tolerance == 1e-8 && opts.max_splits == 5
          && opts.contact_predictor_corrector == 1 && opts.contact_margin == 0.05)) {
        printf("unexpected default options\n");
        failures++;
    }
    opts.max_splits = 1;
    opts.contact_margin = 0.25;
    OK(maxdyn_sim_set_options(s, &opts));
    OK(maxdyn_sim_get_options(s, &read_back));
    if (!(read_back.tolerance == opts.tolerance && read_back.max_iterations == opts.max_iterations
          && read_back.acceptance == opts.acceptance && read_back.contact_tolerance == opts.contact_tolerance
          && read_back.max_splits == 1 && read_back.contact_predictor_corrector == 1
          && read_back.contact_margin == 0.25)) {
        printf("options differ after a round trip\n");
        failures++;
    }

    printf("deprecated names: %d failures, kinetic %.3g J, spring %.3g J\n", failures, k_new, e_new);
    maxdyn_sim_free(s);
    maxdyn_model_free(m);
    maxdyn_builder_free(b);
    return failures == 0 && k_new > 0.0 && e_new > 0.0 && maxdyn_debug_live_objects() == 0 ? 0 : 1;
}
"#;

#[test]
fn deprecated_names_compile_link_and_match_in_c() {
    let lib = shared_library();
    let dir = scratch_dir("header_deprecated_names");
    let src = dir.join("deprecated_names.c");
    let exe = dir.join("deprecated_names");
    std::fs::write(&src, DEPRECATED_NAMES_C).unwrap();
    let warnings = compile_c_program_warnings(&src, &exe);
    println!("{warnings}");
    // the compiler warns at every deprecated call, naming the old function and the new
    // one (the note), and at nothing else
    let deprecated = deprecated_aliases();
    assert_eq!(deprecated.len(), 13, "deprecated aliases in src/capi/deprecated.rs: {deprecated:?}");
    for (old, new) in &deprecated {
        let warned = warnings.lines().any(|l| l.contains("warning:") && l.contains(&format!("'{old}' is deprecated")) && l.contains(&format!("use {new}")));
        assert!(warned, "no deprecation warning for {old} (replacement {new}):\n{warnings}");
    }
    let count = warnings.lines().filter(|l| l.contains("warning:")).count();
    let calls = warnings.lines().filter(|l| l.contains("warning:") && l.contains("is deprecated")).count();
    assert_eq!(count, calls, "warnings other than deprecations:\n{warnings}");
    let out = Command::new(&exe).env("LD_LIBRARY_PATH", lib_dir(&lib)).output().expect("run deprecated_names");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(out.status.success(), "deprecated_names failed: {stdout}");
    assert!(stdout.contains("deprecated names: 0 failures"), "{stdout}");
}

/// The deprecated aliases and their replacements, from the `#[deprecated(note = "use …")]`
/// attributes of src/capi/deprecated.rs.
fn deprecated_aliases() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(manifest_dir().join("src/capi/deprecated.rs")).unwrap();
    let mut pairs = Vec::new();
    let mut note: Option<String> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("#[deprecated(note = \"use ") {
            note = Some(rest.trim_end_matches("\")]").to_string());
        } else if let (Some(i), Some(new)) = (line.find("extern \"C\" fn "), note.as_ref()) {
            let old: String = line[i + "extern \"C\" fn ".len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            pairs.push((old, new.clone()));
            note = None;
        }
    }
    pairs
}

/// Every C test and example compiled with `-Werror` includes the header: the deprecation
/// macro must stay silent where nothing deprecated is called (`-Wall -Wextra
/// -Wpedantic`, C99 and C++11, checked by compiling the header alone above), and the
/// header declares each deprecated alias with it.
#[test]
fn header_declares_every_deprecated_alias_deprecated() {
    let header = std::fs::read_to_string(header_path()).expect("read header");
    for (old, new) in deprecated_aliases() {
        let decl = format!("MAXDYN_DEPRECATED(\"use {new}\")");
        let at = header.find(&format!(" {old}(")).unwrap_or_else(|| panic!("{old} not declared"));
        let before = &header[..at];
        let start = before.rfind(";\n").map_or(0, |i| i + 2);
        assert!(before[start..].contains(&decl), "{old} is not declared with {decl}");
    }
    assert!(header.contains("#define MAXDYN_DEPRECATED(note) __attribute__((deprecated(note)))"));
}
