//! scripts/install.sh into a temporary prefix, then the installed library used as a user
//! would: a C program built with `pkg-config --cflags --libs maxdyn` and a CMake project
//! with `find_package(maxdyn)` (shared and static imported targets) compile and run with
//! no LD_LIBRARY_PATH (rpath), and the shared library carries its SONAME. The artefacts
//! installed are this `cargo test` run's own (`--from`), so no release build is needed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use maxdyn::{Builder, Inertia, JointType, Parent};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs `cmd` without LD_LIBRARY_PATH (what a user's shell has); panics with its output
/// if it fails; returns stdout.
fn run_clean(cmd: &mut Command) -> String {
    cmd.env_remove("LD_LIBRARY_PATH");
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{stdout}\n{stderr}", out.status);
    stdout
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Installs into `<scratch>/prefix`; returns the prefix.
fn install(scratch: &str) -> PathBuf {
    let prefix = scratch_dir(scratch).join("prefix");
    let from = lib_dir(&shared_library());
    assert!(from.join("libmaxdyn.a").exists(), "no static library beside {}", from.display());
    run_clean(Command::new("bash").arg(manifest_dir().join("scripts").join("install.sh")).arg("--prefix").arg(&prefix).arg("--from").arg(&from));
    prefix
}

/// The fixture's printed height of the pendulum (1 rad, 1 s at dt 0.01) via the Rust API.
fn expected_height() -> String {
    let mut b = Builder::new();
    let link = b.add_body(1.0, Inertia::from_rows([1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0, 0.0, 0.0, 0.0, 1.0 / 600.0]).unwrap()).unwrap();
    let joint = b.add_joint(JointType::Revolute, Parent::World, link, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]).unwrap();
    let mut s = sim(&b, 0.01);
    s.set_joint_position(joint, &[1.0]).unwrap();
    for _ in 0..100 {
        s.step().unwrap();
    }
    format!("z {:.6}", s.body_state(link).unwrap()[2])
}

fn check_output(out: &str) {
    assert!(out.contains(&format!("version {VERSION}\n")), "{out}");
    assert!(out.contains(&expected_height()), "expected `{}` in:\n{out}", expected_height());
}

fn readelf_dynamic(file: &Path) -> String {
    run_clean(Command::new("readelf").arg("-d").arg(file))
}

fn fixture(name: &str) -> PathBuf {
    manifest_dir().join("tests").join("fixtures").join("install").join(name)
}

#[test]
fn installed_layout_has_versioned_library_and_soname() {
    let prefix = install("install_layout");
    let lib = prefix.join("lib");
    let real = format!("libmaxdyn.so.{VERSION}");
    assert_eq!(std::fs::read_link(lib.join(soname())).unwrap(), PathBuf::from(&real));
    assert_eq!(std::fs::read_link(lib.join("libmaxdyn.so")).unwrap(), PathBuf::from(soname()));
    for f in ["libmaxdyn.a", "pkgconfig/maxdyn.pc", "cmake/maxdyn/maxdynConfig.cmake", "cmake/maxdyn/maxdynConfigVersion.cmake"] {
        assert!(lib.join(f).is_file(), "{f} not installed");
    }
    assert_eq!(std::fs::read(prefix.join("include").join("maxdyn.h")).unwrap(), std::fs::read(header_path()).unwrap());
    let dynamic = readelf_dynamic(&lib.join(&real));
    assert!(dynamic.contains(&format!("Library soname: [{}]", soname())), "{dynamic}");
}

#[test]
fn pkg_config_program_runs_without_ld_library_path() {
    assert!(have("pkg-config"), "pkg-config is not installed: run `bash tests/setup.sh`");
    let prefix = install("install_pkg_config");
    let pc_path = prefix.join("lib").join("pkgconfig");
    let pkg_config = |args: &[&str]| run_clean(Command::new("pkg-config").args(args).arg("maxdyn").env("PKG_CONFIG_PATH", &pc_path));
    assert_eq!(pkg_config(&["--modversion"]).trim(), VERSION);
    let static_libs = pkg_config(&["--libs", "--static"]);
    assert!(static_libs.contains("-lm -ldl -lpthread"), "{static_libs}");
    let flags = pkg_config(&["--cflags", "--libs"]);
    let exe = prefix.parent().unwrap().join("pendulum");
    run_clean(Command::new(c_compiler()).args(["-std=c99", "-Wall", "-Werror"]).arg(fixture("pendulum.c")).arg("-o").arg(&exe).args(flags.split_whitespace()));
    check_output(&run_clean(&mut Command::new(&exe)));
    // the program asks for the SONAME, not for the path it was linked against
    let dynamic = readelf_dynamic(&exe);
    assert!(dynamic.contains(&format!("Shared library: [{}]", soname())), "{dynamic}");
}

#[test]
fn cmake_find_package_shared_and_static_targets_run() {
    assert!(have("cmake"), "cmake is not installed: run `bash tests/setup.sh`");
    let prefix = install("install_cmake");
    let build = prefix.parent().unwrap().join("build");
    let source = fixture("CMakeLists.txt");
    run_clean(Command::new("cmake").arg("-S").arg(source.parent().unwrap()).arg("-B").arg(&build).arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())));
    run_clean(Command::new("cmake").arg("--build").arg(&build));
    check_output(&run_clean(&mut Command::new(build.join("pendulum_shared"))));
    check_output(&run_clean(&mut Command::new(build.join("pendulum_static"))));
    let dynamic = readelf_dynamic(&build.join("pendulum_static"));
    assert!(!dynamic.contains("libmaxdyn"), "the static build needs no libmaxdyn.so:\n{dynamic}");
}

/// Issue 26: the installed libraries carry no debug info, whatever built them (here the
/// test profile's, 26 MB and 82 MB with it). Measured: libmaxdyn.so 4.4 MB; libmaxdyn.a
/// 30.6 MB (std's and the dependencies' objects, parry's and the mesh loaders' among them:
/// 20 MB when this test was written), every member without a `.debug_` section; from a
/// release build 2.2 MB and 22 MB then (13.5 MB and 54 MB with debug info). The archive is
/// checked by its sections, not its size, which follows the code.
#[test]
fn installed_libraries_are_stripped_of_debug_info() {
    let prefix = install("install_stripped");
    let lib = prefix.join("lib");
    let so = lib.join(format!("libmaxdyn.so.{VERSION}"));
    let size = |p: &Path| std::fs::metadata(p).unwrap().len() as f64 / 1e6;
    let (so_mb, a_mb) = (size(&so), size(&lib.join("libmaxdyn.a")));
    println!("installed: libmaxdyn.so {so_mb:.1} MB, libmaxdyn.a {a_mb:.1} MB (from {:.1} MB and {:.1} MB)", size(&shared_library()), size(&lib_dir(&shared_library()).join("libmaxdyn.a")));
    assert!(so_mb < 5.0, "libmaxdyn.so is {so_mb:.1} MB");
    let sections = run_clean(Command::new("readelf").arg("-S").arg(&so));
    assert!(!sections.contains(".debug_info") && sections.contains(".dynsym"), "{sections}");
    let members = run_clean(Command::new("readelf").arg("-S").arg(lib.join("libmaxdyn.a")));
    assert!(!members.contains(".debug_") && members.contains(".text"), "libmaxdyn.a ({a_mb:.1} MB) keeps debug sections");
    // still usable: the exported functions are there
    let symbols = run_clean(Command::new("nm").arg("-D").arg("--defined-only").arg(&so));
    assert!(symbols.contains(" T maxdyn_sim_step\n"), "maxdyn_sim_step not exported");
}

/// Issue 26: a program linked against the checkout (`-L target/<profile> -lmaxdyn`) asks
/// the loader for libmaxdyn.so.0; build.rs puts that link beside the library, so no
/// hand-made link is needed.
#[test]
fn the_build_puts_the_soname_link_in_the_profile_directory() {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let link = profile_dir.join(soname());
    assert_eq!(std::fs::read_link(&link).unwrap_or_else(|e| panic!("{}: {e}", link.display())), PathBuf::from("libmaxdyn.so"));
}
