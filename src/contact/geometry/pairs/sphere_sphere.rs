//! Sphere against sphere.

use super::plane_sphere::sphere_radius;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Shape};
use crate::math::{V3, V4};

/// One point: anchors the centres, radii the spheres', normal the unit vector between the
/// centres at (x, q), from b's to a's. Its gap at z_{k+2} is the distance of the centres
/// (less the radii) while they stay on the normal's side, else the signed distance along
/// the normal, which stays negative when a fast sphere would pass through the other within
/// a step (`ContactPoint::follows_centres`).
pub fn collide(sphere_a: &Shape, sphere_b: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (a, b) = (Solid::at(sphere_a, x, q), Solid::at(sphere_b, x, q));
    let (ra, rb) = (sphere_radius(&a), sphere_radius(&b));
    let d = a.x - b.x;
    let nd = d.norm();
    // coincident centres have no direction; any unit vector keeps the node regular. x: the
    // projection out of penetration then pushes coincident spheres apart sideways under the
    // usual gravity along −z (along z it stacked five coincident balls 4 m high)
    let normal = if nd > 1e-12 { d / nd } else { V3::x() };
    let mut points = Points::new(out, max_gap);
    points.push(Candidate {
        gap: normal.dot(&d) - ra - rb,
        one: a.origin_side(ra),
        two: b.origin_side(rb),
        n: normal,
    });
    let count = points.count();
    for p in &mut out[..count] {
        p.follows_centres = true;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::super::narrow_phase;
    use super::super::testing::{check_points, placed, unit_q};
    use super::*;
    use crate::math::{from_rotation_vector, rotation};
    use crate::model::shape::ShapeKind;

    #[test]
    fn point_and_gap_by_hand() {
        // centres: body 0 at (0, 0, 2) + Q (0, 0.5, 0) with a quarter turn about x → (0, 0, 2.5);
        // body 1's at (0, 0, 0.5) + (0, 0, 0); distance 2, along +z from b to a
        let x = vec![V3::new(0.0, 0.0, 2.0), V3::new(0.0, 0.0, 0.5)];
        let q = vec![from_rotation_vector(&V3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0)), V4::new(1.0, 0.0, 0.0, 0.0)];
        let a = Shape::Sphere { body: 0, centre: V3::new(0.0, 0.5, 0.0), radius: 0.3 };
        let b = Shape::Sphere { body: 1, centre: V3::zeros(), radius: 0.4 };
        let mut out = [ContactPoint::default(); 1];
        assert_eq!(narrow_phase(&a, &b, &x, &q, f64::INFINITY, &mut out), 1);
        let p = out[0];
        assert_eq!((p.body_a, p.body_b), (0, Some(1)));
        assert!((p.normal - V3::z()).norm() < 1e-15);
        assert_eq!((p.anchor, p.radius), ([V3::new(0.0, 0.5, 0.0), V3::zeros()], [0.3, 0.4]));
        assert!((p.gap(&x, &q) - (2.0 - 0.3 - 0.4)).abs() < 1e-14);
        // witnesses (world): a's lowest point and b's highest
        let wa = x[0] + rotation(&q[0]) * p.witness(0, &rotation(&q[0]).transpose());
        let wb = x[1] + p.witness(1, &rotation(&q[1]).transpose());
        assert!((wa - V3::new(0.0, 0.0, 2.2)).norm() < 1e-14);
        assert!((wb - V3::new(0.0, 0.0, 0.9)).norm() < 1e-14);
        // the gap follows the centres: a moved sideways is their distance (1, 0, 1.5) apart
        assert!(p.follows_centres);
        let moved = vec![x[0] + V3::new(1.0, 0.0, -0.5), x[1]];
        assert!((p.gap(&moved, &q) - (3.25f64.sqrt() - 0.7)).abs() < 1e-14);
        // past b's centre along the held normal (a passed through b): the signed distance
        // along it, negative however far apart the centres are
        let through = vec![x[0] + V3::new(0.5, 0.0, -2.5), x[1]];
        assert!((p.gap(&through, &q) - (-0.5 - 0.7)).abs() < 1e-14);
        // beyond the margin: no point
        assert_eq!(narrow_phase(&a, &b, &x, &q, 1.0, &mut out), 0);
    }

    /// Coincident centres: a unit normal across, x (the projection out of penetration pushes
    /// coincident spheres apart sideways under gravity along −z).
    #[test]
    fn coincident_centres_get_a_unit_normal() {
        let x = vec![V3::zeros(), V3::zeros()];
        let q = vec![V4::new(1.0, 0.0, 0.0, 0.0); 2];
        let s = |body| Shape::Sphere { body, centre: V3::zeros(), radius: 0.1 };
        let mut out = [ContactPoint::default(); 1];
        assert_eq!(narrow_phase(&s(0), &s(1), &x, &q, f64::INFINITY, &mut out), 1);
        assert_eq!(out[0].normal, V3::x());
    }

    /// Placed spheres (one on the world): the gap is the distance of the centres less
    /// the radii, and swapping the shapes swaps the sides.
    #[test]
    fn placed_and_world_spheres() {
        let x = vec![V3::new(0.1, -0.2, 0.3), V3::new(0.4, 0.5, 1.2)];
        let q = vec![unit_q(0.3, -0.2, 0.5), unit_q(-0.7, 0.1, 0.2)];
        let a = placed(Some(0), V3::new(0.1, 0.2, 0.0), unit_q(0.4, 0.0, 0.0), ShapeKind::Sphere, &[0.3]);
        let b = placed(Some(1), V3::new(0.0, -0.1, 0.2), unit_q(0.0, 0.0, 0.0), ShapeKind::Sphere, &[0.2]);
        let w = placed(None, V3::new(1.0, 1.0, 1.0), unit_q(0.0, 0.0, 0.0), ShapeKind::Sphere, &[0.2]);
        for other in [b, w] {
            let p = check_points(&a, &other, &x, &q, f64::INFINITY, 1)[0];
            let (sa, sb) = (Solid::at(&a, &x, &q), Solid::at(&other, &x, &q));
            assert!((p.gap(&x, &q) - ((sa.x - sb.x).norm() - 0.5)).abs() < 1e-14);
        }
    }
}
