//! Library version: header macros (checked against Cargo.toml by a test) and the
//! run-time string.

use std::ffi::c_char;

/// Version of this header (the library's is `maxdyn_version()`).
pub const MAXDYN_VERSION_MAJOR: u32 = 0;
pub const MAXDYN_VERSION_MINOR: u32 = 3;
pub const MAXDYN_VERSION_PATCH: u32 = 0;

/// The library's version, "MAJOR.MINOR.PATCH" (static; do not free). Compare it with
/// the header's `MAXDYN_VERSION_*` macros to detect a header/library mismatch.
#[no_mangle]
pub extern "C" fn maxdyn_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_match_cargo_toml() {
        assert_eq!(MAXDYN_VERSION_MAJOR.to_string(), env!("CARGO_PKG_VERSION_MAJOR"));
        assert_eq!(MAXDYN_VERSION_MINOR.to_string(), env!("CARGO_PKG_VERSION_MINOR"));
        assert_eq!(MAXDYN_VERSION_PATCH.to_string(), env!("CARGO_PKG_VERSION_PATCH"));
    }
}
