//! SCENARIOS B2 at the sizes where the direct interior point used to jam (n = 16 failed
//! at step 212): 300 steps without failure, no penetration beyond 1e-4 m. Prints the
//! iterations per step and how often the Tresca fallback ran.

mod common;

fn run(n: usize, steps: usize) {
    let (b, cs) = common::sphere_chain(n);
    let mut s = common::sim(&b, 0.01);
    let (mut iters, mut max_it, mut fallbacks, mut stalled, mut pen) = (0, 0, 0, 0, 0.0f64);
    for k in 0..steps {
        let st = s.step().unwrap_or_else(|e| panic!("n = {n}: step {k} failed: {e}"));
        iters += st.iterations;
        max_it = max_it.max(st.iterations);
        fallbacks += st.fallback as usize;
        stalled += st.stalled as usize;
        pen = pen.max(-common::min_gap(&s, &cs));
    }
    println!("n = {n}: {:.1} iterations/step (max {max_it}), {fallbacks} fallback steps, {stalled} stalled, penetration {pen:.2e} m", iters as f64 / steps as f64);
    assert!(pen < 1e-4, "n = {n}: penetration {pen} m");
}

#[test]
fn sphere_chain_16_runs() {
    run(16, 300);
}

#[test]
fn sphere_chain_24_runs() {
    run(24, 300);
}
