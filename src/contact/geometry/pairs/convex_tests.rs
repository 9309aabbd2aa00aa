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
                    // the line is the lowest: its points straight below the axis
                    let w = x[0] + crate::math::rotation(&q) * p.anchor[0];
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
