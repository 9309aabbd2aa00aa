//! Box against a half-space.

use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// The corners of the box face turned most against the plane, each within the margin,
/// lowest first: four at rest on a face, the lowest corner (and those the margin reaches)
/// when tilted. The lowest corner of a box is a corner of that face, so the deepest point
/// is always among them; which face switches only at 45°, where the other corners are
/// far above the margin.
pub fn collide(plane: &Shape, cuboid: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (plane, cuboid) = (Solid::at(plane, x, q), Solid::at(cuboid, x, q));
    let Geometry::Box { half_extents: e } = cuboid.geometry else { unreachable!("pair table: plane_box gets a box") };
    let n = plane.axis(2);
    let along = cuboid.r.transpose() * n;
    let i = (1..3).fold(0, |best, k| if along[k].abs() > along[best].abs() { k } else { best });
    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
    let face = if along[i] > 0.0 { -e[i] } else { e[i] };
    let corner = |sj: f64, sk: f64| {
        let mut p = V3::zeros();
        (p[i], p[j], p[k]) = (face, sj * e[j], sk * e[k]);
        let w = cuboid.world(&p);
        Candidate { gap: plane.height(&w), one: cuboid.side_of(&p, 0.0), two: plane.plane_side(&w), n }
    };
    let mut candidates = [corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)];
    let mut points = Points::new(out, max_gap);
    points.push_lowest_first(&mut candidates);
    points.count()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, lowest_point, placed, unit_q, EXACT};
    use super::*;
    use crate::model::shape::ShapeKind;

    fn ground() -> Shape {
        Shape::Plane { normal: V3::z(), offset: 0.0 }
    }

    /// Box of half extents (0.2, 0.3, 0.1) on body 0, placed at its centre.
    fn cuboid() -> Shape {
        placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Box, &[0.2, 0.3, 0.1])
    }

    #[test]
    fn resting_on_a_face_gives_four_corners_at_gap_zero() {
        // any face: resting on ±z, then turned to rest on ±x (a quarter about y)
        for (q, h) in [(unit_q(0.0, 0.0, 0.7), 0.1), (unit_q(std::f64::consts::PI, 0.0, 0.0), 0.1), (unit_q(0.0, std::f64::consts::FRAC_PI_2, 0.0), 0.2)] {
            let (x, q) = (vec![V3::new(1.0, -2.0, h)], vec![q]);
            let points = check_points(&cuboid(), &ground(), &x, &q, 1e-6, 4);
            for p in &points {
                assert!(p.gap(&x, &q).abs() < 1e-15, "gap {}", p.gap(&x, &q));
                assert_eq!(p.radius, [0.0, 0.0]);
            }
            // four distinct corners
            for (a, b) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
                assert!((points[a].anchor[0] - points[b].anchor[0]).norm() > 0.1);
            }
        }
    }

    #[test]
    fn tilted_gives_its_lowest_corner() {
        // tilted about x and y: one corner lowest, at gap 0.01
        let q = vec![unit_q(0.3, -0.2, 0.1)];
        let solid = Solid::at(&cuboid(), &[V3::zeros()], &q);
        let lowest = (0..8)
            .map(|c| solid.world(&V3::new([-0.2, 0.2][c & 1], [-0.3, 0.3][(c >> 1) & 1], [-0.1, 0.1][c >> 2])).z)
            .fold(f64::INFINITY, f64::min);
        let x = vec![V3::new(0.0, 0.0, 0.01 - lowest)];
        let p = check_points(&cuboid(), &ground(), &x, &q, 0.02, 1)[0];
        assert!((p.gap(&x, &q) - 0.01).abs() < EXACT);
        check_closest(&p, &cuboid(), &ground(), &x, &q);
        // the whole face within a wide margin, lowest first
        let face = check_points(&cuboid(), &ground(), &x, &q, 1.0, 4);
        assert_eq!(face[0], p);
        check_continuity(&cuboid(), &ground(), &x, &q, 0, 2.0);
    }

    /// A box against a tilted half-space on another body, both ways round.
    #[test]
    fn body_plane() {
        let x = vec![V3::new(0.0, 0.0, 0.5), V3::new(0.1, 0.1, 0.0)];
        let q = vec![unit_q(0.2, 0.1, 0.3), unit_q(-0.1, 0.05, 0.0)];
        let plane = placed(Some(1), V3::new(0.0, 0.0, 0.2), unit_q(0.0, 0.1, 0.0), ShapeKind::Plane, &[]);
        lowest_point(&plane, &cuboid(), &x, &q);
    }
}
