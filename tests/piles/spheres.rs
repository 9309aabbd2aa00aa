//! Twelve frictional spheres (μ 0.5) dropped into a pile: several of them come to rest in
//! pockets of others, where the contact forces are statically indeterminate.

use maxdyn_scenes::piles::twelve_spheres;

/// Five arrangements of the 2 × 2 × 3 grid (spacing, layer shift, lift in m), 300 steps
/// at dt 0.01: every step converges and nothing sinks. Before the contact pivots were
/// regularized and the directions refined, the arrangements (0.25, 0.12, 0.02) and
/// (0.26, 0.12, 0.03) returned NOT_CONVERGED from steps 28 and 56 on, every step.
#[test]
fn twelve_sphere_piles_with_friction_step_every_step() {
    for (spacing, shift, lift) in [(0.25, 0.12, 0.02), (0.2, 0.02, 0.0), (0.22, 0.1, 0.05), (0.24, 0.11, 0.03), (0.26, 0.12, 0.03)] {
        let mut sim = twelve_spheres(0.5, spacing, shift, lift);
        let (mut iterations, mut worst_gap) = (0, f64::INFINITY);
        for k in 0..300 {
            let st = sim.step().unwrap_or_else(|e| panic!("arrangement ({spacing}, {shift}, {lift}), step {k}: {e}"));
            iterations += st.iterations;
            worst_gap = worst_gap.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
        }
        let (kinetic, _) = sim.energy();
        println!("({spacing}, {shift}, {lift}): {:.1} iterations/step, worst gap {worst_gap:e} m, kinetic energy at 3 s {kinetic:e} J", iterations as f64 / 300.0);
        assert!(worst_gap > -1e-9, "sank {worst_gap:e}");
    }
}
