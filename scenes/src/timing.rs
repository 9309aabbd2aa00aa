//! Median wall time of a few repetitions (benchmarks print tables; no timing in tests).

use std::time::Instant;

/// Runs `f` `reps` times and returns the median duration in seconds and the last result.
pub fn median<T>(reps: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::with_capacity(reps);
    let mut out = None;
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        out = Some(f());
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (times[times.len() / 2], out.unwrap())
}
