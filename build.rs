//! Gives the shared library a versioned SONAME (libmaxdyn.so.MAJOR), so programs linked
//! with `-lmaxdyn` record `libmaxdyn.so.0` and not the path they were built against, and
//! an installed libmaxdyn.so.0.x.y can be upgraded in place within one major version.
//! It also puts the link `libmaxdyn.so.0 -> libmaxdyn.so` in the profile directory
//! (target/release, target/debug), so a program linked against the checkout finds the
//! library by that name without a hand-made link.

use std::path::Path;

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmaxdyn.so.{major}");
        soname_link(&major);
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// OUT_DIR is <profile dir>/build/maxdyn-<hash>/out; the link is made once, relative, so
/// it stays valid when cargo replaces libmaxdyn.so. Best effort: a build never fails here.
fn soname_link(major: &str) {
    let Ok(out_dir) = std::env::var("OUT_DIR") else { return };
    let Some(profile_dir) = Path::new(&out_dir).ancestors().nth(3) else { return };
    let link = profile_dir.join(format!("libmaxdyn.so.{major}"));
    if std::fs::symlink_metadata(&link).is_err() {
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink("libmaxdyn.so", &link);
    }
}
