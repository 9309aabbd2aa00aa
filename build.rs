//! Gives the shared library a versioned SONAME (libmaxdyn.so.MAJOR), so programs linked
//! with `-lmaxdyn` record `libmaxdyn.so.0` and not the path they were built against, and
//! an installed libmaxdyn.so.0.x.y can be upgraded in place within one major version.

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("cargo sets the version");
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmaxdyn.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
