//! Batch rollouts (issue 17): quadruped rollouts of 1 s (SCENARIOS C1 model, dt 1e-3,
//! the learned trot `LEARNED_SEED1` with each gait parameter moved by 0.002·N(0, 1) per
//! rollout, as the random search samples) on 1 thread against 2 threads. The rollouts run
//! in rounds of `round` sims; each round is stepped once per thread count, alternating
//! which goes first, and only `Batch::step_with` is timed (making the sims is not).
//! Prints medians over the rounds: rollouts/s, steps/s and the speed-up (bar: 2 threads
//! ≥ 1.8× one thread), and the process CPU time per rollout (user + system, all threads):
//! equal CPU times mean the threads add no work, so a wall-clock speed-up below 2 comes
//! from cores taken by other processes. Both thread counts must end bit-identical.
//!
//! Then the pool's dispatch cost: 2 quadruped sims stepped one step per `Batch::step(1)`
//! call on 2 threads (a job per step, the pool's worst case), wall time per call.
//!
//! Run: cargo bench --bench batch [-- ROLLOUTS [ROUND]]   (defaults 1000 and 20)

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use maxdyn::batch::Batch;
use maxdyn::Sim;
use maxdyn_scenes::quadruped::{perturbed_learned_gaits, Gait, Quadruped, DT, FALLEN, LEARNED_SEED1};

const STEPS: usize = 1000;


/// CPU time of the process so far (all threads, user + system) [s].
fn cpu_seconds() -> f64 {
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    t(u.ru_utime) + t(u.ru_stime)
}

/// CPU time of the calling thread [s].
fn thread_cpu_seconds() -> f64 {
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

struct Round {
    wall: f64,
    cpu: f64,
    /// One thread: each sim's CPU time [s] (from the thread's clock at its first control call).
    per_sim: Vec<f64>,
    states: Vec<f64>,
    failed: usize,
    fallen: usize,
}

/// Steps one round's rollouts on `threads` threads.
fn round(q: &Quadruped, gaits: &[Gait], threads: usize) -> Round {
    let sims: Vec<Sim> = gaits.iter().map(|g| q.standing(g, 0.0)).collect();
    let mut batch = Batch::from_sims(sims, threads).unwrap();
    assert_eq!(batch.thread_count(), threads.min(gaits.len()));
    let starts: Vec<AtomicU64> = (0..gaits.len()).map(|_| AtomicU64::new(0)).collect();
    let (t, cpu) = (Instant::now(), cpu_seconds());
    let failed = batch.step_with(STEPS, |i, sim| {
        if sim.step_count() == 0 {
            starts[i].store(thread_cpu_seconds().to_bits(), Ordering::Relaxed);
        }
        let time = sim.time();
        q.control(sim, &gaits[i], time)
    });
    let end = thread_cpu_seconds();
    let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
    let starts: Vec<f64> = starts.iter().map(|s| f64::from_bits(s.load(Ordering::Relaxed))).chain([end]).collect();
    let per_sim = if threads == 1 { starts.windows(2).map(|w| w[1] - w[0]).collect() } else { Vec::new() };
    let mut states = vec![0.0; batch.len() * q.model.body_count() * 13];
    batch.body_states(&mut states).unwrap();
    let fallen = batch.sims().iter().filter(|s| s.body_state(q.trunk).unwrap()[2] < FALLEN).count();
    Round { wall, cpu, per_sim, states, failed, fallen }
}

/// The speed-up two threads would reach on two free cores with the static chunks (the
/// first half of the sims on one thread, the rest on the other), from one-thread CPU times.
fn balanced_speed_up(per_sim: &[f64]) -> f64 {
    let half = per_sim.len() / 2;
    let (a, b): (f64, f64) = (per_sim[..half].iter().sum(), per_sim[half..].iter().sum());
    (a + b) / a.max(b)
}

/// Wall time per `Batch::step(1)` call of 2 quadruped sims on 2 threads [s]: the median
/// of 5 runs of `calls` calls (the sims stand without control).
fn dispatch_seconds(q: &Quadruped, calls: usize) -> f64 {
    let mut runs: Vec<f64> = (0..5)
        .map(|_| {
            let sims = vec![q.standing(&LEARNED_SEED1, 0.0), q.standing(&LEARNED_SEED1, 0.0)];
            let mut batch = Batch::from_sims(sims, 2).unwrap();
            let t = Instant::now();
            for _ in 0..calls {
                batch.step(1);
            }
            t.elapsed().as_secs_f64() / calls as f64
        })
        .collect();
    median(&mut runs)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; the numbers are ours
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let rollouts = args.first().copied().unwrap_or(1000).max(1);
    let per_round = args.get(1).copied().unwrap_or(20).clamp(1, rollouts);
    let q = Quadruped::load();
    let gaits = perturbed_learned_gaits(rollouts, 1);
    println!(
        "Batch: {rollouts} quadruped rollouts of {} s (dt {DT}, learned trot ± 0.002·N(0,1)), rounds of {per_round}, 1 vs 2 threads",
        STEPS as f64 * DT
    );
    println!(
        "{:>6} {:>6} | {:>12} {:>12} | {:>8} | {:>14} {:>14}",
        "round", "sims", "1 thread /s", "2 threads /s", "speed-up", "CPU s/rollout 1", "CPU s/rollout 2"
    );
    let (mut rate1, mut rate2, mut ratio, mut cpu1, mut cpu2) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut balanced = Vec::new();
    let (mut failed, mut fallen) = (0, 0);
    let wall = Instant::now();
    for (r, chunk) in gaits.chunks(per_round).enumerate() {
        // alternate the order so that drifting machine load hits both equally
        let order = if r % 2 == 0 { [1, 2] } else { [2, 1] };
        let mut results = order.map(|threads| (threads, round(&q, chunk, threads)));
        results.sort_by_key(|(threads, _)| *threads);
        let [(_, one), (_, two)] = results;
        assert!(one.states == two.states, "round {r}: 1 and 2 threads differ");
        failed += one.failed;
        fallen += one.fallen;
        let n = chunk.len() as f64;
        rate1.push(n / one.wall);
        rate2.push(n / two.wall);
        ratio.push(one.wall / two.wall);
        cpu1.push(one.cpu / n);
        cpu2.push(two.cpu / n);
        if chunk.len() >= 2 {
            balanced.push(balanced_speed_up(&one.per_sim));
        }
        println!(
            "{r:>6} {:>6} | {:>12.2} {:>12.2} | {:>8.3} | {:>14.4} {:>14.4}",
            chunk.len(),
            n / one.wall,
            n / two.wall,
            one.wall / two.wall,
            one.cpu / n,
            two.cpu / n
        );
    }
    let (m1, m2, mr) = (median(&mut rate1), median(&mut rate2), median(&mut ratio));
    let (c1, c2) = (median(&mut cpu1), median(&mut cpu2));
    println!("medians over {} rounds ({:.0} s in all):", ratio.len(), wall.elapsed().as_secs_f64());
    println!("  1 thread : {m1:>8.2} rollouts/s {:>10.0} steps/s", m1 * STEPS as f64);
    println!("  2 threads: {m2:>8.2} rollouts/s {:>10.0} steps/s", m2 * STEPS as f64);
    println!("  speed-up : {mr:.3} (median of the rounds' ratios; {:.3} from the medians; bar ≥ 1.8)", m2 / m1);
    println!("  CPU time per rollout: 1 thread {c1:.4} s, 2 threads {c2:.4} s (ratio {:.3})", c2 / c1);
    if !balanced.is_empty() {
        let b = median(&mut balanced);
        println!(
            "  on two free cores: {b:.3} (the static chunks' balance, from one-thread CPU times per sim) / CPU ratio {:.3} = {:.3}",
            c2 / c1,
            b * c1 / c2
        );
    }
    println!("  rollouts that failed a step: {failed}, fell: {fallen}; 1 and 2 threads bit-identical");
    let per_call = dispatch_seconds(&q, 500);
    println!("dispatch: Batch::step(1) of 2 sims on 2 threads: {:.1} µs per call (median of 5 × 500 calls)", per_call * 1e6);
}
