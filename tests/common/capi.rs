//! Helpers of the C-API tests: status assertions that read the last error message, and a
//! guard that serializes the tests of a file (the live-object count is global to the
//! process) and measures the objects a test leaves relative to its start.
#![allow(dead_code)]

use maxdyn::capi::maxdyn_status::{self, MAXDYN_STATUS_OK};
use maxdyn::capi::{maxdyn_debug_live_objects, maxdyn_last_error_message};
use std::ffi::CStr;
use std::sync::Mutex;

pub fn last_error() -> String {
    unsafe { CStr::from_ptr(maxdyn_last_error_message()) }.to_str().unwrap().to_string()
}

/// Asserts `status` is `expected` and the last error names `function` and `` `arg` ``, and
/// no argument `function` does not have.
#[track_caller]
pub fn expect(status: maxdyn_status, expected: maxdyn_status, function: &str, arg: &str) {
    let msg = last_error();
    assert_eq!(status, expected, "{function}: {msg}");
    assert!(msg.starts_with(function), "message {msg:?} does not name {function}");
    assert!(msg.contains(&format!("`{arg}`")), "message {msg:?} does not name argument `{arg}`");
    let foreign = foreign_arguments(&msg);
    assert!(foreign.is_empty(), "message {msg:?} names {foreign:?}, which {function} does not have");
}

#[track_caller]
pub fn ok(status: maxdyn_status) {
    assert_eq!(status, MAXDYN_STATUS_OK, "{}", last_error());
}

static LOCK: Mutex<()> = Mutex::new(());

/// Serializes the tests of a file and remembers the live-object count at the start, so
/// that one failing test does not make the others fail on its leaked objects.
pub struct Serial {
    _guard: std::sync::MutexGuard<'static, ()>,
    base: usize,
}

impl Serial {
    /// Objects created by this test and still alive.
    pub fn live(&self) -> usize {
        maxdyn_debug_live_objects() - self.base
    }
}

pub fn lock() -> Serial {
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    Serial { _guard: guard, base: maxdyn_debug_live_objects() }
}

/// Every function of include/maxdyn.h with its parameter names.
pub fn header_parameters() -> &'static std::collections::HashMap<String, Vec<String>> {
    static PARAMS: std::sync::OnceLock<std::collections::HashMap<String, Vec<String>>> = std::sync::OnceLock::new();
    PARAMS.get_or_init(|| {
        let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/include/maxdyn.h")).unwrap();
        // comments, directives and a deprecated alias's attribute line left out
        let code: String = header.lines().filter(|l| !l.trim_start().starts_with("//") && !l.trim_start().starts_with('#') && !l.starts_with("MAXDYN_DEPRECATED(")).collect::<Vec<_>>().join(" ");
        let mut out = std::collections::HashMap::new();
        for decl in code.split(';').map(str::trim).filter(|d| !d.starts_with("typedef") && d.ends_with(')')) {
            let Some(open) = decl.find('(') else { continue };
            let Some(name) = decl[..open].split_whitespace().last() else { continue };
            let name = name.trim_start_matches('*');
            if !name.starts_with("maxdyn_") {
                continue;
            }
            let params = decl[open + 1..decl.len() - 1]
                .split(',')
                .filter_map(|p| p.split(|c: char| c.is_whitespace() || c == '*').rfind(|t| !t.is_empty()))
                .map(|p| p.split('[').next().unwrap_or(p).to_string())
                .filter(|p| p != "void")
                .collect();
            out.insert(name.to_string(), params);
        }
        out
    })
}

/// The arguments a failure message (`function: …`) names that its function does not
/// have: "argument `x`", "array `x`" and "invalid shape `x`" must name a parameter.
pub fn foreign_arguments(msg: &str) -> Vec<String> {
    let Some((function, text)) = msg.split_once(": ") else { return vec![format!("no function in {msg:?}")] };
    let Some(params) = header_parameters().get(function) else { return vec![format!("{function} is not in the header")] };
    let mut foreign = Vec::new();
    for marker in ["argument `", "array `", "invalid shape `"] {
        for (at, _) in text.match_indices(marker) {
            let rest = &text[at + marker.len()..];
            let name = rest.split('`').next().unwrap_or(rest);
            // a struct argument's field: `options.tolerance`
            let param = name.split('.').next().unwrap_or(name);
            if !params.iter().any(|p| p == param) {
                foreign.push(name.to_string());
            }
        }
    }
    foreign
}

/// Asserts the last error message names only parameters of its function.
#[track_caller]
pub fn names_own_parameters() {
    let msg = last_error();
    let foreign = foreign_arguments(&msg);
    assert!(foreign.is_empty(), "{msg:?} names {foreign:?}, which its function does not have");
}
