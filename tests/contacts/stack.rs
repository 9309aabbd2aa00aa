//! Three spheres stacked on the ground, and the B2 sphere chain (small sizes).
use crate::common::*;

/// Three spheres (r = 0.25, m = 1, μ = 0.5) resting on each other and on the ground for
/// 10 s at dt = 0.01: no contact penetrates at any step (measured: every gap ≥ 0; bound
/// 1e-12 m, round-off), nothing drifts (measured: centres within 1.9e-10 m; bound 1e-9 m),
/// the contact forces carry 3, 2, 1 weights.
#[test]
fn three_sphere_stack_rests_without_drift() {
    let (b, cs) = sphere_stack(0.5);
    let mut s = sim(&b, 0.01);
    let start: Vec<[f64; 13]> = (0..3).map(|i| s.body_state(i).unwrap()).collect();
    let mut worst_pen: f64 = 0.0;
    let mut worst_drift: f64 = 0.0;
    for _ in 0..1000 {
        let st = s.step().unwrap();
        assert_eq!(st.active_contacts, 3);
        worst_pen = worst_pen.max(-min_gap(&s, &cs));
        for (i, st0) in start.iter().enumerate() {
            let st = s.body_state(i).unwrap();
            for k in 0..3 {
                worst_drift = worst_drift.max((st[k] - st0[k]).abs());
            }
        }
    }
    println!("stack: worst penetration {worst_pen:e} m, worst drift {worst_drift:e} m");
    assert!(worst_pen <= 1e-12, "{worst_pen}");
    assert!(worst_drift <= 1e-9, "{worst_drift}");
    for (c, weights) in cs.iter().zip([3.0, 2.0, 1.0]) {
        let o = s.contact(*c).unwrap();
        assert!((o.normal_force - weights * 9.81).abs() < 1e-6, "contact {c}: {o:?}");
    }
}

/// SCENARIOS B2 at small n (the benchmark example runs n up to 128): every n runs 500 steps
/// at dt = 0.01 without failure and no sphere penetrates the ground (measured: every gap
/// ≥ 0; bound 1e-12 m, round-off). tests/long_horizon.rs sweeps n up to 128.
#[test]
fn small_sphere_chains_run_without_penetration() {
    for n in [1, 2, 5, 12] {
        let (b, cs) = sphere_chain(n);
        let mut s = sim(&b, 0.01);
        let mut worst_pen: f64 = 0.0;
        let mut iters = 0;
        for _ in 0..500 {
            iters += s.step().unwrap_or_else(|e| panic!("n = {n}: {e}")).iterations;
            worst_pen = worst_pen.max(-min_gap(&s, &cs));
        }
        println!("chain n = {n}: worst penetration {worst_pen:e} m, {:.1} iterations/step", iters as f64 / 500.0);
        assert!(worst_pen <= 1e-12, "n = {n}: {worst_pen}");
        // the joints hold: spherical joint violation stays at round-off
        assert!(s.constraint_violation() < 1e-9, "n = {n}: {}", s.constraint_violation());
    }
}
