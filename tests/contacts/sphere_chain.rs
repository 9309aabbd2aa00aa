//! SCENARIOS B2 at the sizes where the direct interior point used to jam (n = 16 failed
//! at step 212) and where Newton finds no solution of a full step (n = 64 at step 239:
//! the step is split): no failure, no penetration (measured: every gap ≥ 0; bound 1e-12 m,
//! round-off), joints exact. Prints the
//! iterations per step, how often the Tresca fallback ran and how many steps were split.

use crate::common;

/// Returns the number of split steps.
fn run(n: usize, steps: usize) -> usize {
    let (b, cs) = common::sphere_chain(n);
    let mut s = common::sim(&b, 0.01);
    let (mut iters, mut max_it, mut fallbacks, mut stalled, mut pen, mut split, mut viol) = (0, 0, 0, 0, 0.0f64, 0, 0.0f64);
    for k in 0..steps {
        let st = s.step().unwrap_or_else(|e| panic!("n = {n}: step {k} failed: {e}"));
        iters += st.iterations;
        max_it = max_it.max(st.iterations);
        fallbacks += st.fallback as usize;
        stalled += st.stalled as usize;
        pen = pen.max(-common::min_gap(&s, &cs));
        split += (st.substeps > 1) as usize;
        viol = viol.max(s.constraint_violation());
    }
    println!("n = {n}: {:.1} iterations/step (max {max_it}), {fallbacks} fallback steps, {split} split steps, {stalled} stalled, penetration {pen:.2e} m, joint violation {viol:.1e} m", iters as f64 / steps as f64);
    assert!(pen <= 1e-12, "n = {n}: penetration {pen} m");
    assert!(viol < 1e-9, "n = {n}: joint violation {viol} m");
    assert!((s.time() - steps as f64 * 0.01).abs() < 1e-9 && s.step_count() == steps as u64);
    split
}

#[test]
fn sphere_chain_of_16_runs_without_penetration() {
    run(16, 300);
}

#[test]
fn sphere_chain_of_24_runs_without_penetration() {
    run(24, 300);
}

/// n = 64 has no solution of the full step at step 239 (without splitting it failed
/// there); split steps carry it through.
#[test]
fn sphere_chain_64_runs_through_split_steps() {
    let split = run(64, 260);
    assert!(split >= 1, "no step was split: this test no longer covers splitting");
}

/// n = 84 and 121 met degenerate friction (a link at the cone's edge without slip) late in
/// the run: at 84 the barrier stalled at products of 1.4e-6 N·m at every split level
/// (now accepted as stalled below 100 × the contact tolerance), at 121 a crawl at
/// μ ≈ 4e-6 ran to the iteration limit at every level (now stopped after 20 iterations
/// without halving the merit, and the step split). Both run the full 500 steps.
#[test]
fn sphere_chains_84_and_121_run_through_degenerate_friction() {
    run(84, 500);
    run(121, 500);
}
