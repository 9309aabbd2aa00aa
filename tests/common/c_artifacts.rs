//! Helpers for the tests that use the C artefacts (header, shared library).

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn header_path() -> PathBuf {
    manifest_dir().join("include").join("maxdyn.h")
}

const LIB_NAME: &str = "libmaxdyn.so";

/// The shared library built by this same `cargo test` run: cargo compiles the library
/// target once with all its crate types (rlib for the tests, cdylib beside it) into this
/// test's `deps/` directory. That one is preferred over the profile directory's copy,
/// which only `cargo build` refreshes and may be stale. If neither exists (an unusual
/// build setup), it is built with `cargo build --lib` into a separate target directory.
/// Its SONAME link (libmaxdyn.so.0) is made beside it, since programs linked with
/// `-lmaxdyn` ask the loader for that name.
pub fn shared_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps dir");
    let lib = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join(LIB_NAME))
        .find(|p| p.exists())
        .unwrap_or_else(build_separately);
    link_soname(&lib);
    lib
}

/// The library's SONAME (set by build.rs).
pub fn soname() -> String {
    format!("{LIB_NAME}.{}", env!("CARGO_PKG_VERSION_MAJOR"))
}

/// Makes `<dir>/libmaxdyn.so.0 -> libmaxdyn.so`; atomic (a rename), as tests run in parallel.
fn link_soname(lib: &Path) {
    let link = lib_dir(lib).join(soname());
    if std::fs::read_link(&link).is_ok_and(|t| t == Path::new(LIB_NAME)) {
        return;
    }
    static UNIQUE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let unique = UNIQUE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = lib_dir(lib).join(format!(".{}.{}.{unique}", soname(), std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(LIB_NAME, &tmp).expect("make the SONAME link");
    std::fs::rename(&tmp, &link).expect("place the SONAME link");
}

fn build_separately() -> PathBuf {
    let target = manifest_dir().join("target").join("capi-lib");
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let status = Command::new(cargo)
        .args(["build", "--lib", "--manifest-path"])
        .arg(manifest_dir().join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("run cargo build --lib");
    assert!(status.success(), "cargo build --lib failed");
    let p = target.join("debug").join(LIB_NAME);
    assert!(p.exists(), "{} not built", p.display());
    p
}

/// A fresh scratch directory for one test.
pub fn scratch_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// The C compiler: $CC or gcc (and $CXX or g++ for C++).
pub fn c_compiler() -> String {
    std::env::var("CC").unwrap_or_else(|_| "gcc".into())
}

pub fn cxx_compiler() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".into())
}

/// Compiles the C99 program `source` into `exe` against the header (warnings are errors)
/// and links it with this run's shared library, which it finds through its rpath.
pub fn compile_c_program(source: &Path, exe: &Path, optimize: bool) {
    run(&mut c_program_command(source, exe, optimize, true));
}

/// Compiles like `compile_c_program` but with warnings left as warnings (no `-Werror`);
/// returns what the compiler printed on stderr.
pub fn compile_c_program_warnings(source: &Path, exe: &Path) -> String {
    let mut cmd = c_program_command(source, exe, false, false);
    // plain ASCII quotes in the messages (gcc quotes with curly ones in a UTF-8 locale)
    cmd.env("LD_LIBRARY_PATH", lib_dir(&shared_library())).env("LC_ALL", "C");
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{stderr}", out.status);
    stderr
}

fn c_program_command(source: &Path, exe: &Path, optimize: bool, werror: bool) -> Command {
    let lib = shared_library();
    let mut cmd = Command::new(c_compiler());
    cmd.args(["-std=c99", "-Wall", "-Wextra", "-Wpedantic"]);
    if werror {
        cmd.arg("-Werror");
    }
    if optimize {
        cmd.arg("-O2");
    }
    cmd.arg("-I")
        .arg(header_path().parent().unwrap())
        .arg(source)
        .arg("-o")
        .arg(exe)
        .arg("-L")
        .arg(lib_dir(&lib))
        .arg(format!("-Wl,-rpath,{}", lib_dir(&lib).display()))
        .args(["-lmaxdyn", "-lm"]);
    cmd
}

/// Runs a command, panicking with its output if it fails; returns stdout.
/// The child sees the fresh library first on its search path (cargo's own
/// LD_LIBRARY_PATH may list a stale copy in the profile directory ahead of deps/).
pub fn run(cmd: &mut Command) -> String {
    cmd.env("LD_LIBRARY_PATH", lib_dir(&shared_library()));
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{stdout}\n{stderr}", out.status);
    stdout
}

pub fn lib_dir(lib: &Path) -> PathBuf {
    lib.parent().expect("library dir").to_path_buf()
}
