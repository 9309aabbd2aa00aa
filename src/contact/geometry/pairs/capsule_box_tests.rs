//! Tests of capsule–box.

use super::super::testing::{check_closest, check_continuity, check_points, lowest_point, placed, signed_distance, unit_q, world_witness, EXACT};
use super::*;
use crate::model::shape::ShapeKind;
use std::f64::consts::FRAC_PI_2;

/// Capsule (radius 0.1, half-length 0.5) on body 0; box (0.4, 0.3, 0.2) on body 1 at the origin.
fn shapes() -> (Shape, Shape) {
    let capsule = placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Capsule, &[0.1, 0.5]);
    let cuboid = placed(Some(1), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Box, &[0.4, 0.3, 0.2]);
    (capsule, cuboid)
}

#[test]
fn lying_on_the_top_face() {
    let (capsule, cuboid) = shapes();
    let q = vec![unit_q(0.0, FRAC_PI_2, 0.0), unit_q(0.0, 0.0, 0.0)];
    // overhanging both sides (the capsule is longer than the box): the face's edges under
    // it; shifted by 0.2: its end cap at x = −0.3 and the edge at x = 0.4
    for (cx, ends) in [(0.0, [-0.4, 0.4]), (0.2, [-0.3, 0.4])] {
        let x = vec![V3::new(cx, 0.1, 0.3), V3::zeros()];
        let points = check_points(&capsule, &cuboid, &x, &q, 1e-6, 2);
        let mut xs: Vec<f64> = points.iter().map(|p| world_witness(p, 1, &x, &q).x).collect();
        xs.sort_by(f64::total_cmp);
        assert!((xs[0] - ends[0]).abs() < 1e-15 && (xs[1] - ends[1]).abs() < 1e-15, "{xs:?}");
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15 && (p.normal - V3::z()).norm() < 1e-15);
            check_closest(p, &capsule, &cuboid, &x, &q);
        }
    }
}

#[test]
fn standing_on_a_face_and_across_an_edge() {
    let (capsule, cuboid) = shapes();
    // upright over the top face, 0.01 above: the lower end only
    let x = vec![V3::new(0.1, 0.0, 0.2 + 0.5 + 0.1 + 0.01), V3::zeros()];
    let q = vec![unit_q(0.0, 0.0, 0.0); 2];
    let p = check_points(&capsule, &cuboid, &x, &q, 0.1, 1)[0];
    assert!((p.gap(&x, &q) - 0.01).abs() < 1e-15);
    check_continuity(&capsule, &cuboid, &x, &q, 0, 2.0);
    // along y, across the box's top edge at x = 0.4, z = 0.2, 0.02 away diagonally
    let c = V3::new(0.4, 0.0, 0.2) + V3::new(1.0, 0.0, 1.0).normalize() * 0.12;
    let x = vec![c, V3::zeros()];
    let q = vec![unit_q(FRAC_PI_2, 0.0, 0.0), unit_q(0.0, 0.0, 0.0)];
    let p = check_points(&capsule, &cuboid, &x, &q, 0.1, 1)[0];
    assert!((p.gap(&x, &q) - 0.02).abs() < 1e-15, "{}", p.gap(&x, &q));
    check_closest(&p, &capsule, &cuboid, &x, &q);
    check_continuity(&capsule, &cuboid, &x, &q, 0, 2.0);
}

/// The closest parameter against a brute-force scan of the signed distance along the
/// segment, over general poses inside, touching and outside the box.
#[test]
fn closest_param_matches_a_scan() {
    let e = V3::new(0.4, 0.3, 0.2);
    for k in 0..200 {
        let f = k as f64;
        let a = V3::new((0.37 * f).sin() * 0.8, (0.51 * f).cos() * 0.6, (0.23 * f).sin() * 0.5);
        let d = V3::new((0.7 * f).cos(), (1.3 * f).sin(), 0.4 + (0.9 * f).cos()).normalize();
        let h = 0.2 + 0.3 * (0.17 * f).sin().abs();
        let sd = |t: f64| closest_on_box(&e, &(a + d * t)).2;
        let best = closest_param(&a, &d, h, &e);
        let scan = (0..=20000).map(|i| sd(-h + 2.0 * h * i as f64 / 20000.0)).fold(f64::INFINITY, f64::min);
        assert!(sd(best) <= scan + 1e-15, "case {k}: {} > scan {scan}", sd(best));
    }
}

#[test]
fn general_poses_and_a_world_box() {
    let x = vec![V3::new(0.1, 0.5, 0.3), V3::new(-0.2, 0.1, 0.0)];
    let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
    let capsule = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.7, 0.0), ShapeKind::Capsule, &[0.1, 0.3]);
    for body in [Some(1), None] {
        let cuboid = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Box, &[0.2, 0.1, 0.3]);
        let p = lowest_point(&capsule, &cuboid, &x, &q);
        let (sc, sb) = (Solid::at(&capsule, &x, &q), Solid::at(&cuboid, &x, &q));
        assert!(signed_distance(&sb, &world_witness(&p, 1, &x, &q)).abs() < EXACT && sc.body == Some(0));
    }
}
