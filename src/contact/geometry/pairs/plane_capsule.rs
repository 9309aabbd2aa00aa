//! Capsule against a half-space.

use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// The centres of the two end caps with the capsule's radius, each within the margin,
/// lowest first: lying flat both touch (a line contact held by its ends), tilted the lower
/// one does (and the upper one when it is within the margin, as when the capsule falls
/// flat). The anchors are fixed in the capsule, so rolling moves no point.
pub fn collide(plane: &Shape, capsule: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (plane, capsule) = (Solid::at(plane, x, q), Solid::at(capsule, x, q));
    let Geometry::Capsule { radius, half_length } = capsule.geometry else { unreachable!("pair table: plane_capsule gets a capsule") };
    let end = |z: f64| {
        let p = V3::new(0.0, 0.0, z);
        let w = capsule.world(&p);
        Candidate { gap: plane.height(&w) - radius, one: capsule.side_of(&p, radius), two: plane.plane_side(&w), n: plane.axis(2) }
    };
    let mut candidates = [end(-half_length), end(half_length)];
    // a capsule of length 0 is a sphere: one point
    let ends = if half_length > 0.0 { 2 } else { 1 };
    let mut points = Points::new(out, max_gap);
    points.push_lowest_first(&mut candidates[..ends]);
    points.count()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, placed, unit_q};
    use super::*;
    use crate::model::shape::ShapeKind;
    use std::f64::consts::FRAC_PI_2;

    fn ground() -> Shape {
        Shape::Plane { normal: V3::z(), offset: 0.0 }
    }

    /// Capsule of radius 0.1 and half-length 0.5 on body 0, its axis along the body's z.
    fn capsule() -> Shape {
        placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Capsule, &[0.1, 0.5])
    }

    #[test]
    fn lying_flat_gives_both_end_caps_at_gap_zero() {
        // axis turned to x, centre at the radius's height: both caps touch
        let x = vec![V3::new(0.3, 0.2, 0.1)];
        let q = vec![unit_q(0.0, FRAC_PI_2, 0.0)];
        let points = check_points(&capsule(), &ground(), &x, &q, 1e-3, 2);
        let mut ends: Vec<f64> = points.iter().map(|p| p.anchor[0].z).collect();
        ends.sort_by(f64::total_cmp);
        assert_eq!(ends, vec![-0.5, 0.5]);
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15);
            assert_eq!((p.normal, p.radius), (V3::z(), [0.1, 0.0]));
        }
    }

    #[test]
    fn tilted_gives_the_lower_cap_unless_the_margin_reaches_the_upper() {
        // tilted 0.3 rad from the horizontal: the upper cap is 2·0.5·sin 0.3 = 0.2955 higher
        let x = vec![V3::new(0.0, 0.0, 0.1 + 0.5 * 0.3f64.sin() + 0.02)];
        let q = vec![unit_q(0.0, FRAC_PI_2 - 0.3, 0.0)];
        let low = check_points(&capsule(), &ground(), &x, &q, 0.1, 1)[0];
        assert!((low.gap(&x, &q) - 0.02).abs() < 1e-15);
        check_closest(&low, &capsule(), &ground(), &x, &q);
        let both = check_points(&capsule(), &ground(), &x, &q, 0.4, 2);
        assert!((both[1].gap(&x, &q) - (0.02 + 0.3f64.sin())).abs() < 1e-15);
        check_continuity(&capsule(), &ground(), &x, &q, 0, 2.0);
    }

    /// A half-space on a tilted body and a capsule on another: the lower cap's gap is the
    /// separation along the plane normal, and the plane's witness is the cap's foot.
    #[test]
    fn body_plane() {
        let x = vec![V3::new(0.1, 0.0, 1.0), V3::new(0.0, 0.2, 0.3)];
        let q = vec![unit_q(0.4, -0.3, 0.2), unit_q(0.1, 0.2, 0.0)];
        let plane = placed(Some(1), V3::new(0.0, 0.0, 0.1), unit_q(0.1, 0.0, 0.0), ShapeKind::Plane, &[]);
        let points = check_points(&plane, &capsule(), &x, &q, 0.3, 1);
        assert_eq!((points[0].body_a, points[0].body_b), (1, Some(0)));
        check_closest(&points[0], &plane, &capsule(), &x, &q);
    }
}
