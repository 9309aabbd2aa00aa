//! Cylinder against a half-space.

use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// Rim points, each within the margin, lowest first. With w the direction in the face
/// planes most against the plane normal (re-found at each call, so the point moves over
/// the rim as the cylinder rolls): on the lower face the rim point along w and the three
/// a quarter turn apart, on the upper face the one along w. Lying on a face, the four of
/// that face touch; on its side, the two along w (one per face); tilted on its rim, one.
pub fn collide(plane: &Shape, cylinder: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (plane, cylinder) = (Solid::at(plane, x, q), Solid::at(cylinder, x, q));
    let Geometry::Cylinder { radius, half_length } = cylinder.geometry else { unreachable!("pair table: plane_cylinder gets a cylinder") };
    let n = plane.axis(2);
    let m = cylinder.r.transpose() * n;
    let across = m.xy().norm();
    // lying flat, any rim direction does: the shape's x keeps the points fixed on the rim
    let (wx, wy) = if across > 1e-12 { (-m.x / across, -m.y / across) } else { (1.0, 0.0) };
    let lower = if m.z > 0.0 { -half_length } else { half_length };
    let rim = |cx: f64, cy: f64, z: f64| {
        let p = V3::new(radius * cx, radius * cy, z);
        let w = cylinder.world(&p);
        Candidate { gap: plane.height(&w), one: cylinder.side_of(&p, 0.0), two: plane.plane_side(&w), n }
    };
    let mut candidates = [rim(wx, wy, lower), rim(-wy, wx, lower), rim(-wx, -wy, lower), rim(wy, -wx, lower), rim(wx, wy, -lower)];
    // a disc (length 0) has one face
    let count = if half_length > 0.0 { 5 } else { 4 };
    let mut points = Points::new(out, max_gap);
    points.push_lowest_first(&mut candidates[..count]);
    points.count()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, placed, unit_q, EXACT};
    use super::*;
    use crate::model::shape::ShapeKind;
    use std::f64::consts::FRAC_PI_2;

    fn ground() -> Shape {
        Shape::Plane { normal: V3::z(), offset: 0.0 }
    }

    /// Cylinder of radius 0.2 and half-length 0.3 on body 0.
    fn cylinder() -> Shape {
        placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Cylinder, &[0.2, 0.3])
    }

    #[test]
    fn standing_on_a_face_gives_four_rim_points() {
        for q in [unit_q(0.0, 0.0, 0.4), unit_q(std::f64::consts::PI, 0.0, 0.0)] {
            let (x, q) = (vec![V3::new(0.5, 0.5, 0.3)], vec![q]);
            let points = check_points(&cylinder(), &ground(), &x, &q, 1e-6, 4);
            for p in &points {
                assert!(p.gap(&x, &q).abs() < 1e-15);
                assert!((p.anchor[0].xy().norm() - 0.2).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn on_its_side_gives_one_rim_point_per_face() {
        // axis along y (a quarter about x), rolled by 0.7 about its axis: the points stay
        // straight under the axis
        let x = vec![V3::new(0.0, 0.0, 0.2)];
        let q = vec![crate::math::qmul(&unit_q(FRAC_PI_2, 0.0, 0.0), &unit_q(0.0, 0.0, 0.7))];
        let points = check_points(&cylinder(), &ground(), &x, &q, 1e-3, 2);
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15);
            let w = super::super::testing::world_witness(p, 0, &x, &q);
            assert!(w.x.abs() < 1e-15 && (w.y.abs() - 0.3).abs() < 1e-15);
        }
        check_continuity(&cylinder(), &ground(), &x, &q, 0, 2.0);
    }

    #[test]
    fn tilted_on_its_rim_gives_the_lowest_rim_point() {
        let q = vec![unit_q(0.4, 0.3, 0.0)];
        // lowest point: 0.3 cos θ + 0.2 sin θ below the centre, θ the axis' tilt from z
        let theta = Solid::at(&cylinder(), &[V3::zeros()], &q).axis(2).z.acos();
        let x = vec![V3::new(0.0, 0.0, 0.3 * theta.cos() + 0.2 * theta.sin() + 0.005)];
        let p = check_points(&cylinder(), &ground(), &x, &q, 0.01, 1)[0];
        assert!((p.gap(&x, &q) - 0.005).abs() < EXACT);
        check_closest(&p, &cylinder(), &ground(), &x, &q);
        check_continuity(&cylinder(), &ground(), &x, &q, 0, 2.0);
    }
}
