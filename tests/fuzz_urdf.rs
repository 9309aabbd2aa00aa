//! Seeded URDF mutations (issue 16): the repository's URDF fixtures (tests/fixtures), the
//! shared models (../shared/models) and the robot corpus (target/corpus) when present mutated by byte flips, element deletion and
//! duplication, numeric extremes (NaN, ±∞, 1e308, 1e-308, 1e999, a 5000-digit number) and
//! deep nesting (10 000 levels), then loaded (fixed or floating base), built into a model
//! and stepped a few times. Issue 30's surfaces: names made empty or blank, elements given
//! 64, 65, 1000 or 100 000 attributes (beyond 64 they are refused before the XML parser),
//! and a quarter of the mutants loaded through the C entry `maxdyn_builder_from_urdf_string`
//! (its refusals name only its parameters). Holds: no panic, no step returns OK with a
//! non-finite state, and every mutant finishes (a hang keeps the test from finishing; the
//! slowest mutant's time is printed, not asserted: a wall-clock limit fails on a loaded
//! machine and passes a slow regression on a fast one). The counts are printed.
//!
//! 2000 mutants by default (~2 s in a debug build); `MAXDYN_FUZZ_URDFS=10000`
//! and `MAXDYN_FUZZ_SEED=k` for longer runs (docs/RELIABILITY.md records them).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::{maxdyn_builder_free, maxdyn_builder_from_urdf_string};
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};

#[path = "common/capi.rs"]
mod capi_helpers;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/models");
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus");

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn urdf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            urdf_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "urdf") {
            out.push(p);
        }
    }
}

/// Byte offsets of every `<` that opens an element (not `</`, `<?`, `<!`).
fn element_starts(s: &[u8]) -> Vec<usize> {
    (0..s.len().saturating_sub(1)).filter(|&i| s[i] == b'<' && s[i + 1].is_ascii_alphabetic()).collect()
}

/// The byte range of the element starting at `start`: to its matching close tag, or to the
/// end of a self-closing tag (nesting of the same name is not tracked: a mutant is a mutant).
fn element_range(s: &[u8], start: usize) -> std::ops::Range<usize> {
    let name_end = (start + 1..s.len()).find(|&i| !(s[i].is_ascii_alphanumeric() || s[i] == b'_')).unwrap_or(s.len());
    let name = &s[start + 1..name_end];
    let tag_end = (start..s.len()).find(|&i| s[i] == b'>').map_or(s.len(), |i| i + 1);
    if tag_end >= 2 && s[tag_end - 2] == b'/' {
        return start..tag_end;
    }
    let close = [b"</".as_slice(), name, b">"].concat();
    let end = s[tag_end..].windows(close.len()).position(|w| w == close.as_slice()).map_or(tag_end, |p| tag_end + p + close.len());
    start..end
}

/// Offsets and lengths of the numbers in the text.
fn numbers(s: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i].is_ascii_digit() || (s[i] == b'-' && i + 1 < s.len() && s[i + 1].is_ascii_digit()) {
            let j = (i + 1..s.len()).find(|&k| !(s[k].is_ascii_digit() || matches!(s[k], b'.' | b'e' | b'E' | b'-' | b'+'))).unwrap_or(s.len());
            out.push((i, j - i));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// One to three mutations of `text`.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const EXTREMES: [&str; 12] = ["nan", "inf", "-inf", "1e308", "-1e308", "1e-308", "1e999", "-1e999", "0", "-0", "-1", "4.9e-324"];
    let mut s = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        if s.is_empty() {
            break;
        }
        match rng.below(9) {
            0 => {
                // byte flips
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(s.len());
                    s[i] = (rng.next() & 0x7f) as u8;
                }
            }
            1 | 2 => {
                // delete or duplicate an element
                let starts = element_starts(&s);
                if let Some(&start) = starts.get(rng.below(starts.len())) {
                    let r = element_range(&s, start);
                    if rng.below(2) == 0 {
                        s.drain(r);
                    } else {
                        let copy = s[r.clone()].to_vec();
                        s.splice(r.end..r.end, copy);
                    }
                }
            }
            3 | 4 => {
                // a number becomes an extreme
                let nums = numbers(&s);
                if let Some(&(i, n)) = nums.get(rng.below(nums.len())) {
                    let e = EXTREMES[rng.below(EXTREMES.len())].as_bytes().to_vec();
                    s.splice(i..i + n, e);
                }
            }
            5 => {
                // a huge number
                let nums = numbers(&s);
                if let Some(&(i, n)) = nums.get(rng.below(nums.len())) {
                    s.splice(i..i + n, std::iter::repeat_n(b'9', 5000));
                }
            }
            7 => {
                // a name made empty or blank
                let names: Vec<usize> = s.windows(6).enumerate().filter(|(_, w)| w == b"name=\"").map(|(i, _)| i + 6).collect();
                if let Some(&at) = names.get(rng.below(names.len())) {
                    let end = (at..s.len()).find(|&i| s[i] == b'"').unwrap_or(s.len());
                    let blank: &[u8] = if rng.below(2) == 0 { b"" } else { b"  " };
                    s.splice(at..end, blank.iter().copied());
                }
            }
            8 => {
                // an element given many attributes: up to the cap, just over it, far over it
                let starts = element_starts(&s);
                if let Some(&start) = starts.get(rng.below(starts.len())) {
                    let at = (start + 1..s.len()).find(|&i| s[i].is_ascii_whitespace() || s[i] == b'>' || s[i] == b'/').unwrap_or(s.len());
                    let n = [64, 65, 1000, 100_000][rng.below(4)];
                    let attrs: String = (0..n).map(|k| format!(" z{k}=\"{k}\"")).collect();
                    s.splice(at..at, attrs.into_bytes());
                }
            }
            _ => {
                // deep nesting inside an element
                let starts = element_starts(&s);
                if let Some(&start) = starts.get(rng.below(starts.len())) {
                    let at = (start..s.len()).find(|&i| s[i] == b'>').map_or(s.len(), |i| i + 1);
                    let depth = 10_000;
                    let nest = ["<a>".repeat(depth), "</a>".repeat(depth)].concat();
                    s.splice(at..at, nest.into_bytes());
                }
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

#[derive(Debug, Default)]
struct Counts {
    mutants: usize,
    refused: usize,
    loaded: usize,
    models: usize,
    steps_ok: usize,
    steps_failed: usize,
    nan_with_ok: usize,
    panics: usize,
    /// Mutants loaded through the C entry, and its refusals that were internal errors or
    /// named an argument it does not have.
    c_loads: usize,
    c_bad_refusals: usize,
}

/// Loads a mutant through the C entry: never an internal error, a refusal names only
/// the function's parameters, the builder is freed.
fn run_c(text: &str, floating: bool, counts: &mut Counts) {
    let Ok(xml) = std::ffi::CString::new(text) else { return };
    let mut b = std::ptr::null_mut();
    let status = unsafe { maxdyn_builder_from_urdf_string(xml.as_ptr(), i32::from(floating), &mut b) };
    counts.c_loads += 1;
    if status == MAXDYN_STATUS_OK {
        unsafe { maxdyn_builder_free(b) };
        return;
    }
    let msg = capi_helpers::last_error();
    if status == MAXDYN_STATUS_INTERNAL || !capi_helpers::foreign_arguments(&msg).is_empty() {
        counts.c_bad_refusals += 1;
        eprintln!("{status:?}: {msg}");
    }
}

/// Loads, builds and steps one mutant, counting what happened.
fn run(text: &str, floating: bool, counts: &mut Counts) {
    let Ok(u) = Urdf::from_str_with(text, &UrdfOptions { floating, ..Default::default() }) else {
        counts.refused += 1;
        return;
    };
    counts.loaded += 1;
    let Ok(model) = Model::new(&u.builder) else { return };
    counts.models += 1;
    let Ok(mut sim) = Sim::new(Arc::new(model), 0.01) else { return };
    for _ in 0..3 {
        match sim.step() {
            Ok(_) => {
                counts.steps_ok += 1;
                let finite = (0..sim.model().body_count()).all(|b| sim.body_state(b).unwrap().iter().all(|v| v.is_finite()));
                if !finite {
                    counts.nan_with_ok += 1;
                }
            }
            Err(_) => {
                counts.steps_failed += 1;
                break;
            }
        }
    }
}

#[test]
fn mutated_urdfs_never_panic_hang_or_step_ok_into_nan() {
    let mutants: usize = std::env::var("MAXDYN_FUZZ_URDFS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::var("MAXDYN_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let mut files = Vec::new();
    urdf_files(Path::new(FIXTURES), &mut files);
    urdf_files(Path::new(SHARED), &mut files);
    urdf_files(Path::new(CORPUS), &mut files);
    files.sort();
    assert!(files.len() >= 7, "the fixtures' URDF seeds are missing: {files:?}");
    let seeds: Vec<String> = files.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut counts = Counts::default();
    let mut slowest = Duration::ZERO;
    let start = Instant::now();
    std::panic::set_hook(Box::new(|_| {}));
    for k in 0..mutants {
        let text = mutate(&seeds[rng.below(seeds.len())], &mut rng);
        let floating = rng.below(2) == 0;
        let t0 = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut c = Counts::default();
            if k % 4 == 0 {
                run_c(&text, floating, &mut c);
            }
            run(&text, floating, &mut c);
            c
        }));
        let took = t0.elapsed();
        slowest = slowest.max(took);
        counts.mutants += 1;
        match outcome {
            Ok(c) => {
                counts.refused += c.refused;
                counts.loaded += c.loaded;
                counts.models += c.models;
                counts.steps_ok += c.steps_ok;
                counts.steps_failed += c.steps_failed;
                counts.nan_with_ok += c.nan_with_ok;
                counts.c_loads += c.c_loads;
                counts.c_bad_refusals += c.c_bad_refusals;
            }
            Err(_) => {
                counts.panics += 1;
                std::fs::write(format!("{}/fuzz_urdf_panic_{seed}_{k}.urdf", std::env::temp_dir().display()), &text).ok();
            }
        }
    }
    let _ = std::panic::take_hook();
    println!("URDF fuzz, seed {seed}, {} seed files: {counts:?}", seeds.len());
    println!("  {:.1} s in all, slowest mutant {:.2} s", start.elapsed().as_secs_f64(), slowest.as_secs_f64());
    assert_eq!((counts.panics, counts.nan_with_ok, counts.c_bad_refusals), (0, 0, 0), "{counts:?}");
    assert!(counts.refused > 0 && counts.steps_ok > 0, "the mutants reach both the refusals and the steps: {counts:?}");
}
