//! The general convex pair at rest: a lying cylinder on a box keeps its line of 2 points
//! with the face's normal at every small penetration and turn.

use super::testing::{placed, unit_q};
use super::narrow_phase;
use crate::contact::geometry::ContactPoint;
use crate::math::V3;
use crate::model::shape::ShapeKind;

#[test]
fn a_lying_cylinder_on_a_box_keeps_two_points_along_its_line() {
    let table = placed(None, V3::new(0.0, 0.0, -0.1), unit_q(0.0, 0.0, 0.0), ShapeKind::Box, &[0.5, 0.5, 0.1]);
    let cylinder = placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Cylinder, &[0.1, 0.15]);
    let mut worst: (f64, usize) = (0.0, 2);
    for depth in [-1e-6, -1e-9, -1e-12, -1e-14, 0.0, 1e-14, 1e-12, 1e-9, 1e-6] {
        for yaw in [0.0, 1e-8, 1e-6, 1e-3, 0.3] {
            for roll in [0.0, 1e-7, 1e-4] {
                let q = crate::math::qmul(&unit_q(0.0, 0.0, yaw), &crate::math::qmul(&unit_q(std::f64::consts::FRAC_PI_2, 0.0, 0.0), &unit_q(0.0, 0.0, roll)));
                let x = [V3::new(0.01, -0.02, 0.1 - depth)];
                let mut out = [ContactPoint::default(); 8];
                let n = narrow_phase(&cylinder, &table, &x, &[q], 1e-3, &mut out);
                for p in &out[..n] {
                    worst.0 = worst.0.max((p.normal - V3::z()).norm());
                    // the line is the lowest: its points (witnesses: the side's are its
                    // axis points with the radius) straight below the axis
                    let w = x[0] + crate::math::rotation(&q) * p.anchor[0] - p.normal * p.radius[0];
                    let axis = crate::math::rotation(&q) * V3::z();
                    let below = (w - x[0]) - axis * axis.dot(&(w - x[0]));
                    worst.0 = worst.0.max((below - V3::new(0.0, 0.0, -0.1)).norm());
                }
                if n != 2 {
                    println!("depth {depth:e} yaw {yaw} roll {roll}: {n} points {:?}", &out[..n]);
                }
                worst.1 = worst.1.min(n);
            }
        }
    }
    assert!(worst.0 < 1e-12 && worst.1 == 2, "{worst:?}");
}

/// A 32-gon prism hull flat on a hull box, sliding (the pose of a slide at dt 1e-3 in
/// `tests/collision/sliding.rs`): GJK's normal at these touching shapes is 1.2e-2 rad off
/// (the box's far corner its support); the face at the support vertex gives the face's
/// normal, and the points lie on it at the prism's height.
#[test]
fn a_prism_hull_flat_on_a_hull_box_keeps_the_face_normal() {
    use super::testing::hull;
    let prism: Vec<V3> = (0..64).map(|i| {
        let a = 2.0 * std::f64::consts::PI * (i / 2) as f64 / 32.0;
        V3::new(0.1 * a.cos(), 0.1 * a.sin(), if i % 2 == 0 { -0.05 } else { 0.05 })
    }).collect();
    let corners: Vec<V3> = (0..8).map(|i| V3::new(if i & 1 == 0 { -1.0 } else { 1.0 }, if i & 2 == 0 { -1.0 } else { 1.0 }, if i & 4 == 0 { -0.1 } else { 0.1 })).collect();
    let lower = hull(None, V3::new(0.2, 0.0, -0.1), unit_q(0.0, 0.0, 0.0), &corners);
    let upper = hull(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), &prism);
    // a state of that slide, moved on by one step of its velocity
    let (dt, v) = (1e-3, V3::new(0.9323110004087732, 2.1674561353514986e-16, 2.3134791898576104e-13));
    let x = [V3::new(0.022255421004281788, 1.40811378618716e-17, 0.05000000000001913) + v * dt];
    let q = [crate::math::V4::new(1.0, 1.1682254155008873e-15, 3.785228305188558e-14, -2.7204817504314657e-13)];
    let mut out = [ContactPoint::default(); 8];
    let n = narrow_phase(&upper, &lower, &x, &q, 1e-3, &mut out);
    let tilt = out[..n].iter().map(|p| (p.normal - V3::z()).norm()).fold(0.0, f64::max);
    // the lower's anchors are world points: on its top face
    let off_top = out[..n].iter().map(|p| p.anchor[1].z.abs()).fold(0.0, f64::max);
    println!("{n} points, normal off z by {tilt:e}, lower anchors off its top by {off_top:e}");
    // measured: 4 points, the normal off by 7.6e-14, anchors on the top (without the
    // support's face among the candidates: one point at the box's far corner (−0.8, 1, 0),
    // the normal 1.2e-2 rad off)
    assert!(n == 4 && tilt < 1e-12 && off_top < 1e-15, "{:?}", &out[..n]);
}

/// A 32-gon prism hull set flat on a wider one, exactly touching (the start of a slide in
/// `tests/collision/sliding.rs`): GJK's normal there is their sides' (0, 1, 0), at a right
/// angle to the faces in contact; the faces through its witness points give the face's
/// normal, with the prism's bottom face's points.
#[test]
fn a_prism_hull_set_flat_on_a_prism_hull_gets_the_face_normal() {
    use super::testing::hull;
    let prism = |r: f64, h: f64| -> Vec<V3> {
        (0..64).map(|i| {
            let a = 2.0 * std::f64::consts::PI * (i / 2) as f64 / 32.0;
            V3::new(r * a.cos(), r * a.sin(), if i % 2 == 0 { -h } else { h })
        }).collect()
    };
    let lower = hull(None, V3::new(0.2, 0.0, -0.1), unit_q(0.0, 0.0, 0.0), &prism(1.0, 0.1));
    let upper = hull(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), &prism(0.1, 0.05));
    for x in [V3::new(0.0, 0.0, 0.05), V3::new(0.001, 0.0, 0.05), V3::new(0.001, 0.0, 0.05 - 1e-9)] {
        let mut out = [ContactPoint::default(); 8];
        let n = narrow_phase(&upper, &lower, &[x], &[unit_q(0.0, 0.0, 0.0)], 1e-3, &mut out);
        let tilt = out[..n].iter().map(|p| (p.normal - V3::z()).norm()).fold(0.0, f64::max);
        let off_bottom = out[..n].iter().map(|p| (p.anchor[0].z + 0.05).abs()).fold(0.0, f64::max);
        println!("at {x:?}: {n} points, normal off z by {tilt:e}, anchors off the bottom by {off_bottom:e}");
        // measured: 4 points, normal exact, on the bottom face (without the faces through
        // the witnesses: 1 point, normal (0, −1, 0))
        assert!(n == 4 && tilt < 1e-15 && off_bottom < 1e-15, "{:?}", &out[..n]);
    }
}
