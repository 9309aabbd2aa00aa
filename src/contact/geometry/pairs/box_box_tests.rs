//! Tests of box–box (their own file: the pair's is long).

use super::super::testing::{check_closest, check_continuity, check_points, checked_points, placed, separation, sides, unit_q, world_witness, EXACT};
use super::*;
use crate::model::shape::ShapeKind;
use std::f64::consts::{FRAC_PI_4, SQRT_2};

fn cuboid(body: usize, e: [f64; 3]) -> Shape {
    placed(Some(body), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Box, &e)
}

/// A plate (half extents 0.5, 0.5, 0.1) on body 1 at the origin, a box on body 0 above.
fn plate() -> Shape {
    cuboid(1, [0.5, 0.5, 0.1])
}

#[test]
fn resting_face_to_face_gives_four_points_at_gap_zero() {
    // a smaller box turned about z: its four bottom corners, all over the plate
    let small = cuboid(0, [0.2, 0.3, 0.1]);
    let x = vec![V3::new(0.05, -0.05, 0.2), V3::zeros()];
    let q = vec![unit_q(0.0, 0.0, 0.3), unit_q(0.0, 0.0, 0.0)];
    let points = check_points(&small, &plate(), &x, &q, 1e-6, 4);
    for p in &points {
        assert!(p.gap(&x, &q).abs() < 1e-15 && (p.normal - V3::z()).norm() < 1e-15);
        check_closest(p, &small, &plate(), &x, &q);
    }
    // a box as large as the plate shifted by (0.3, 0.2): the corners of the overlap
    let large = cuboid(0, [0.5, 0.5, 0.1]);
    let x = vec![V3::new(0.3, 0.2, 0.2), V3::zeros()];
    let q = vec![unit_q(0.0, 0.0, 0.0); 2];
    let points = check_points(&large, &plate(), &x, &q, 1e-6, 4);
    let mut corners: Vec<(f64, f64)> = points.iter().map(|p| world_witness(p, 0, &x, &q)).map(|w| (w.x, w.y)).collect();
    corners.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let expected = [(-0.2, -0.3), (-0.2, 0.5), (0.5, -0.3), (0.5, 0.5)];
    for (c, e) in corners.iter().zip(expected) {
        assert!((c.0 - e.0).abs() < 1e-15 && (c.1 - e.1).abs() < 1e-15, "{corners:?}");
    }
}

#[test]
fn a_box_turned_45_degrees_on_another_keeps_four_of_the_octagon() {
    let top = cuboid(0, [0.5, 0.5, 0.1]);
    let x = vec![V3::new(0.0, 0.0, 0.2), V3::zeros()];
    let q = vec![unit_q(0.0, 0.0, FRAC_PI_4), unit_q(0.0, 0.0, 0.0)];
    let points = check_points(&top, &plate(), &x, &q, 1e-6, 4);
    for p in &points {
        assert!(p.gap(&x, &q).abs() < 1e-15);
        // on the octagon: the boundary of both squares
        let w = world_witness(p, 0, &x, &q);
        assert!((w.x.abs().max(w.y.abs()) - 0.5).abs() < 1e-15 || (w.x.abs() + w.y.abs() - 0.5 * SQRT_2).abs() < 1e-15);
    }
}

#[test]
fn crossed_edges_touch_at_one_point() {
    // cube on body 1 turned 45° about x (top edge along x at height √2/2), cube on body 0
    // turned 45° about y above it (bottom edge along y), 0.01 apart: they cross at (0.1, 0)
    let (a, b) = (cuboid(0, [0.5; 3]), cuboid(1, [0.5; 3]));
    let x = vec![V3::new(0.1, -0.1, SQRT_2 + 0.01), V3::zeros()];
    let q = vec![unit_q(0.0, FRAC_PI_4, 0.0), unit_q(FRAC_PI_4, 0.0, 0.0)];
    let p = check_points(&a, &b, &x, &q, 0.1, 1)[0];
    assert!((p.gap(&x, &q) - 0.01).abs() < 1e-15 && (p.normal - V3::z()).norm() < 1e-15, "{p:?}");
    let w = world_witness(&p, 0, &x, &q);
    assert!((w - V3::new(0.1, 0.0, 0.5 * SQRT_2 + 0.01)).norm() < 1e-15, "{w:?}");
    check_closest(&p, &a, &b, &x, &q);
    check_continuity(&a, &b, &x, &q, 0, 2.0);
}

#[test]
fn a_tilted_box_on_a_face_gives_its_lowest_corner() {
    let top = cuboid(0, [0.2, 0.3, 0.1]);
    let q = vec![unit_q(0.3, -0.2, 0.1), unit_q(0.0, 0.0, 0.0)];
    let solid = Solid::at(&top, &[V3::zeros()], &q[..1]);
    let lowest = (0..8).map(|c| solid.world(&V3::new([-0.2, 0.2][c & 1], [-0.3, 0.3][(c >> 1) & 1], [-0.1, 0.1][c >> 2])).z).fold(f64::INFINITY, f64::min);
    let x = vec![V3::new(0.0, 0.1, 0.1 + 0.01 - lowest), V3::zeros()];
    let p = check_points(&top, &plate(), &x, &q, 0.02, 1)[0];
    assert!((p.gap(&x, &q) - 0.01).abs() < EXACT);
    check_closest(&p, &top, &plate(), &x, &q);
    check_continuity(&top, &plate(), &x, &q, 0, 2.0);
}

#[test]
fn apart_across_corners_gives_the_nearest_corner() {
    // a cube on body 0 turned about z, beyond the plate's corner (0.5, 0.5, 0.1) diagonally:
    // no face over the other's; the point is a corner against the plate's closest point
    let top = cuboid(0, [0.1; 3]);
    let x = vec![V3::new(0.7, 0.7, 0.25), V3::zeros()];
    let q = vec![unit_q(0.0, 0.0, 0.2), unit_q(0.0, 0.0, 0.0)];
    let p = check_points(&top, &plate(), &x, &q, 0.5, 1)[0];
    let (sa, sb) = sides(&p, &top, &plate(), &x, &q);
    let corner = world_witness(&p, 0, &x, &q);
    assert!((p.gap(&x, &q) - super::super::testing::signed_distance(&sb, &corner)).abs() < EXACT);
    assert!(super::super::testing::signed_distance(&sa, &corner).abs() < EXACT);
    assert!(p.gap(&x, &q) > 0.1);
}

/// General poses, one box on the world: every point's gap is at least the separation along
/// its normal (its witnesses are in the boxes), and the lowest is the separation along the
/// chosen axis when the boxes overlap a little.
#[test]
fn general_poses() {
    let x = vec![V3::new(0.1, 0.5, 0.45), V3::new(-0.1, 0.4, 0.0)];
    let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
    let a = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.7, 0.0), ShapeKind::Box, &[0.2, 0.15, 0.1]);
    for body in [Some(1), None] {
        let b = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Box, &[0.3, 0.2, 0.25]);
        let points = check_points(&a, &b, &x, &q, 1.0, points_expected(&a, &b, &x, &q));
        for p in &points {
            let (sa, sb) = sides(p, &a, &b, &x, &q);
            assert!(p.gap(&x, &q) >= separation(&sa, &sb, &p.normal) - EXACT);
        }
        check_continuity(&a, &b, &x, &q, 0, 5.0);
    }
}

fn points_expected(a: &Shape, b: &Shape, x: &[V3], q: &[V4]) -> usize {
    let mut out = [ContactPoint::default(); 8];
    let count = crate::contact::geometry::narrow_phase(a, b, x, q, 1.0, &mut out);
    assert!((1..=6).contains(&count));
    count
}

/// Crossed edges with a margin wide enough for the faces: the edge point first (the
/// boxes' distance), then the best face axis' points, each at least the boxes' separation
/// along its normal (so none stops them before they touch).
#[test]
fn an_edge_contact_keeps_the_face_points_within_the_margin() {
    let (a, b) = (cuboid(0, [0.5; 3]), cuboid(1, [0.5; 3]));
    let x = vec![V3::new(0.1, -0.1, SQRT_2 + 0.01), V3::zeros()];
    let q = vec![unit_q(0.0, FRAC_PI_4, 0.0), unit_q(FRAC_PI_4, 0.0, 0.0)];
    let points = checked_points(&a, &b, &x, &q, 1.0);
    assert!(points.len() > 1, "{points:?}");
    assert!((points[0].gap(&x, &q) - 0.01).abs() < 1e-15, "{:?}", points[0]);
    for p in &points {
        let (sa, sb) = sides(p, &a, &b, &x, &q);
        assert!(p.gap(&x, &q) >= separation(&sa, &sb, &p.normal) - EXACT);
    }
}
