//! SCENARIOS C2: personalizing exoskeleton gains in simulation (paper section 5,
//! "Application Examples", and appendix algorithm "Exoskeleton Tracking Controller").
//!
//! A 2-DoF arm exoskeleton (sFE, eFE) is strapped to a human arm (ball shoulder,
//! revolute elbow) by two spring cuffs, closing two kinematic loops. It tracks
//! θ_s,d = π/4 + π/4 sin t, θ_e,d = −π/4 + π/4 sin t for 10 s with PD gains
//! K = (100, 50)·scale, D = K/10. The elbow torque must stay ≤ 5 N·m for a healthy
//! (passive) and a spastic patient (elbow torque 10(−π/4 − θ) + 2(0 − ω)). At scale 1 it
//! does not for the spastic patient; a bisection on the scale finds the largest one that
//! does (the paper tuned it by hand to 1/4.75).
//!
//! Run: cargo run --release --example exoskeleton [-- --variants]
//! `--variants` also runs the script's derivative term (0 − θ̇) and a relaxed lower
//! cuff (see `scenes/src/exoskeleton.rs`).


use maxdyn_scenes::exoskeleton::*;
use std::time::Instant;

const SECONDS: f64 = 10.0;

fn run(p: Patient, scale: f64, d: Derivative, c: LowerCuff) -> (Rollout, f64) {
    let t0 = Instant::now();
    let r = simulate(p, scale, d, c, SECONDS).unwrap_or_else(|e| panic!("{e}"));
    (r, t0.elapsed().as_secs_f64())
}

/// Largest elbow torque over both patients at `scale`.
fn worst_elbow_torque(scale: f64, d: Derivative, c: LowerCuff) -> f64 {
    [Patient::Healthy, Patient::Spastic].iter().map(|&p| run(p, scale, d, c).0.max_elbow_torque).fold(0.0, f64::max)
}

/// Largest scale in [lo, hi] whose worst elbow torque is ≤ the limit, by bisection
/// (the torque grows with the scale: checked by the sweep in the report).
fn tune(d: Derivative, c: LowerCuff, verbose: bool) -> f64 {
    let (mut lo, mut hi) = (1.0 / 8.0, 1.0);
    assert!(worst_elbow_torque(lo, d, c) <= TORQUE_LIMIT, "even scale {lo} exceeds the limit");
    while (hi - lo) / lo > 2e-3 {
        let mid = 0.5 * (lo + hi);
        let tau = worst_elbow_torque(mid, d, c);
        if verbose {
            println!("  scale {mid:.5} (1/{:.3}): max |τ_eFE| = {tau:.4} N·m", 1.0 / mid);
        }
        if tau <= TORQUE_LIMIT {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

fn table(d: Derivative, c: LowerCuff, scales: &[(f64, &str)]) {
    println!(
        "{:>8} {:>16} | {:>9} {:>9} | {:>14} {:>14} | {:>9} {:>9} {:>6} {:>6} | {:>7}",
        "patient", "scale", "max|τ_e|", "max|τ_s|", "rms err sFE/eFE", "max err sFE/eFE", "max viol", "cuff viol", "stalls", "it/st", "wall s*"
    );
    for &(scale, label) in scales {
        for p in [Patient::Healthy, Patient::Spastic] {
            // wall time: median of three identical rollouts
            let mut runs: Vec<(Rollout, f64)> = (0..3).map(|_| run(p, scale, d, c)).collect();
            runs.sort_by(|a, b| a.1.total_cmp(&b.1));
            let (r, wall) = runs[1];
            let flag = if r.max_elbow_torque > TORQUE_LIMIT { "!" } else { " " };
            println!(
                "{:>8} {:>16} | {:>8.3}{flag} {:>9.3} | {:>6.3}/{:<7.3} {:>6.3}/{:<7.3} | {:>9.1e} {:>9.1e} {:>6} {:>6.2} | {:>7.3}",
                p.name(),
                label,
                r.max_elbow_torque,
                r.max_shoulder_torque,
                r.rms_tracking_error[0],
                r.rms_tracking_error[1],
                r.max_tracking_error[0],
                r.max_tracking_error[1],
                r.max_violation,
                r.max_cuff_violation,
                r.stalled_steps,
                r.newton_iterations as f64 / r.steps as f64,
                wall
            );
        }
    }
}

fn main() {
    let variants = std::env::args().any(|a| a == "--variants");
    let exo = build(LowerCuff::Script);
    let rank = exo.sim.constraint_rank();
    println!("exoskeleton + human arm: {} bodies, {} joints (2 cuffs close 2 loops)", exo.sim.model().body_count(), exo.sim.model().joint_count());
    println!(
        "constraint rows {}, rank {}, redundant {}, degrees of freedom {}; initial violation {:.1e}",
        rank.rows,
        rank.rank,
        rank.redundant,
        rank.dof,
        exo.sim.constraint_violation()
    );
    println!("dt = {DT} s, {SECONDS} s per rollout, elbow torque limit {TORQUE_LIMIT} N·m ('!' marks a violation)\n");

    let (d, c) = (Derivative::TrackRate, LowerCuff::Script);
    println!("sweep (paper's controller): max |τ_eFE| healthy / spastic");
    for inv in [1.0, 2.0, 3.0, 4.0, 4.75, 5.0, 6.0, 8.0] {
        let h = run(Patient::Healthy, 1.0 / inv, d, c).0.max_elbow_torque;
        let s = run(Patient::Spastic, 1.0 / inv, d, c).0.max_elbow_torque;
        println!("  scale 1/{inv:<5} {h:>7.3} / {s:.3}");
    }
    println!("\nbisection for the largest scale with max |τ_eFE| ≤ {TORQUE_LIMIT} N·m for both patients:");
    let tuned = tune(d, c, true);
    println!("  → scale {tuned:.5} = 1/{:.3} (paper, by hand: 1/4.75)\n", 1.0 / tuned);
    let tuned_label = format!("1/{:.3} (tuned)", 1.0 / tuned);
    table(d, c, &[(1.0, "1"), (1.0 / 4.75, "1/4.75 (paper)"), (tuned, tuned_label.as_str())]);

    println!("* median of 3 rollouts of {SECONDS} s ({} steps)", (SECONDS / DT).round());

    if variants {
        println!("\nvariants: threshold scale and max |τ_eFE| (healthy / spastic) at scales 1 and 1/4.75");
        for (d, c, what) in [
            (Derivative::TrackRate, LowerCuff::Script, "paper's D term, script's cuffs"),
            (Derivative::DampToZero, LowerCuff::Script, "script's D term (0 − θ̇)"),
            (Derivative::TrackRate, LowerCuff::Coincident, "relaxed lower cuff"),
            (Derivative::DampToZero, LowerCuff::Coincident, "script's D term, relaxed cuff"),
        ] {
            let at = |s: f64| (run(Patient::Healthy, s, d, c).0.max_elbow_torque, run(Patient::Spastic, s, d, c).0.max_elbow_torque);
            let (h1, s1) = at(1.0);
            let (h4, s4) = at(1.0 / 4.75);
            let t = tune(d, c, false);
            println!("  {what:<32} threshold 1/{:.3}; scale 1: {h1:.3} / {s1:.3}; 1/4.75: {h4:.3} / {s4:.3}", 1.0 / t);
        }
    }
}
