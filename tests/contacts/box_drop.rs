//! SCENARIOS A4: rigid box drop.
use crate::common::*;

/// Box(0.5, 0.5, 0.5, 1) with 8 corner contacts (μ = 0.3) dropped from rest with its bottom
/// 0.25…1.25 m above the ground (21 heights), dt = 0.01, 1 s: the lowest corner never goes
/// below the ground (the scenario's bar is 1e-4 m; measured 2.8e-17 m, asserted at the
/// round-off of positions near 1 m, 1e-15 m) and the box ends at rest with its bottom
/// within 3e-14 m of it (bar 1e-3 m; measured 3.2e-15 m: the polish closes the gap).
#[test]
fn box_drop_all_heights_stays_on_the_ground() {
    let mut worst_pen: f64 = 0.0;
    let mut worst_rest: f64 = 0.0;
    for k in 0..21 {
        let h = 0.25 + 0.05 * k as f64;
        let (b, body, cs) = box_on_plane(0.5, 1.0, &all_corners(0.25), [0.0, 0.0, 1.0], 0.3, h);
        let mut s = sim(&b, 0.01);
        for _ in 0..100 {
            let st = s.step().unwrap_or_else(|e| panic!("h = {h}: {e}"));
            assert_eq!(st.contacts, 8);
            worst_pen = worst_pen.max(-min_gap(&s, &cs));
        }
        let g = min_gap(&s, &cs);
        worst_rest = worst_rest.max(g.abs());
        let st = s.body_state(body).unwrap();
        let speed = (st[7] * st[7] + st[8] * st[8] + st[9] * st[9]).sqrt();
        assert!(speed < 1e-6, "h = {h}: still moving at {speed} m/s");
        assert_eq!(s.stats().active_contacts, 4, "h = {h}: resting on the 4 bottom corners");
        // the supporting corners carry the weight: Σγ = m g
        let total: f64 = cs.iter().map(|&c| s.contact(c).unwrap().normal_force).sum();
        assert!((total - 9.81).abs() < 1e-6, "h = {h}: Σγ = {total}");
    }
    println!("worst penetration {worst_pen:e} m, worst rest height {worst_rest:e} m");
    assert!(worst_pen <= 1e-15, "penetration {worst_pen:e} (round-off bound)");
    assert!(worst_rest <= 3e-14, "rest height {worst_rest:e}");
}
