//! The 100-body pours of `cargo bench --bench piles pours` that meet the bars.
use maxdyn_scenes::piles::{pour, Pour};

/// 100 frictionless spheres poured into a box: 10 s at dt 0.01 with every step OK, no
/// shape inside another (the deepest reported gap measured −5.6e-17 m; bound 1e-12 m) and
/// at rest over the last 2 s (kinetic energy per body measured ≤ 1.1e-9 J; bound 1e-8 J,
/// the bar 1e-6 J).
#[test]
fn a_frictionless_sphere_pour_settles_in_10_s_with_every_step_ok() {
    let mut sim = pour(Pour::Spheres, 0.0);
    let n = sim.model().body_count() as f64;
    let (mut deepest, mut rest) = (f64::INFINITY, 0.0f64);
    for k in 0..1000 {
        sim.step().unwrap_or_else(|e| panic!("step {k}: {e}"));
        deepest = deepest.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
        if k >= 800 {
            rest = rest.max(sim.energy().0 / n);
        }
    }
    println!("deepest gap {deepest:.2e} m, kinetic energy per body over the last 2 s ≤ {rest:.2e} J");
    assert!(deepest > -1e-12, "{deepest}");
    assert!(rest < 1e-8, "{rest}");
}
