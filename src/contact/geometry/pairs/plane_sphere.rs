//! Sphere (or point, radius 0) against a half-space.

use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Shape};
use crate::math::{V3, V4};

/// One point: the plane's normal, the sphere's centre with its radius, and the plane's
/// boundary (a world plane: anchor the origin, radius its offset), so that
/// φ = n·(x + Q(q) p) − r − offset. A world plane's normal does not depend on the
/// configuration.
pub fn collide(plane: &Shape, sphere: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (plane, sphere) = (Solid::at(plane, x, q), Solid::at(sphere, x, q));
    let radius = sphere_radius(&sphere);
    let mut points = Points::new(out, max_gap);
    points.push(Candidate {
        gap: plane.height(&sphere.x) - radius,
        one: sphere.origin_side(radius),
        two: plane.plane_side(&sphere.x),
        n: plane.axis(2),
    });
    points.count()
}

/// The radius of a sphere's solid.
pub(super) fn sphere_radius(s: &Solid) -> f64 {
    match s.geometry {
        crate::contact::geometry::Geometry::Sphere { radius } => radius,
        _ => unreachable!("pair table: a sphere's function gets a sphere"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::narrow_phase;
    use super::super::testing::{check_points, placed, unit_q};
    use super::*;
    use crate::math::{from_rotation_vector, rotation};
    use crate::model::shape::{Geometry, ShapeKind};

    #[test]
    fn point_and_gap_by_hand() {
        // body 1 at (1, 2, 3) turned a quarter about z: centre (0.5, 0, 0) is at (1, 2.5, 3)
        let x = vec![V3::zeros(), V3::new(1.0, 2.0, 3.0)];
        let q = vec![V4::new(1.0, 0.0, 0.0, 0.0), from_rotation_vector(&V3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2))];
        let n = V3::new(0.0, 0.6, 0.8);
        let sphere = Shape::Sphere { body: 1, centre: V3::new(0.5, 0.0, 0.0), radius: 0.2 };
        let plane = Shape::Plane { normal: n, offset: 1.0 };
        let mut out = [ContactPoint::default(); 2];
        // either order reaches the table's plane-first function
        assert_eq!(narrow_phase(&sphere, &plane, &x, &q, f64::INFINITY, &mut out), 1);
        let p = out[0];
        assert_eq!((p.body_a, p.body_b, p.normal), (1, None, n));
        assert_eq!((p.anchor, p.radius), ([V3::new(0.5, 0.0, 0.0), V3::zeros()], [0.2, 1.0]));
        let expected = 0.6 * 2.5 + 0.8 * 3.0 - 1.0 - 0.2;
        assert!((p.gap(&x, &q) - expected).abs() < 1e-14);
        // witness: the sphere's lowest point along −n, in the body frame
        let w = rotation(&q[1]) * p.witness(0, &rotation(&q[1]).transpose()) + x[1];
        assert!((w - (V3::new(1.0, 2.5, 3.0) - n * 0.2)).norm() < 1e-14);
        assert_eq!(narrow_phase(&plane, &sphere, &x, &q, f64::INFINITY, &mut []), 0);
        // the margin: this gap (2.7) is kept at 2.8 and dropped at 2.6
        assert_eq!(narrow_phase(&plane, &sphere, &x, &q, 2.8, &mut out), 1);
        assert_eq!(narrow_phase(&plane, &sphere, &x, &q, 2.6, &mut out), 0);
    }

    /// A tilted half-space on body 0 against a placed sphere on body 1, and against a world
    /// sphere (the plane's body becomes side a): the gap is the height of the centre above
    /// the plane less the radius, checked against the support functions.
    #[test]
    fn body_plane_against_body_and_world_spheres() {
        let x = vec![V3::new(0.1, -0.2, 0.3), V3::new(0.4, 0.5, 1.2)];
        let q = vec![unit_q(0.3, -0.2, 0.5), unit_q(-0.7, 0.1, 0.2)];
        let plane = placed(Some(0), V3::new(0.0, 0.0, -0.1), unit_q(0.2, 0.1, 0.0), ShapeKind::Plane, &[]);
        let sphere = placed(Some(1), V3::new(0.1, 0.0, 0.0), unit_q(0.0, 0.0, 0.0), ShapeKind::Sphere, &[0.25]);
        let world_sphere = placed(None, V3::new(0.3, 0.2, 1.5), unit_q(0.0, 0.0, 0.0), ShapeKind::Sphere, &[0.25]);
        for other in [sphere, world_sphere] {
            let p = check_points(&plane, &other, &x, &q, f64::INFINITY, 1)[0];
            assert_eq!(p.body_a, 0);
            let (s, pl) = (Solid::at(&other, &x, &q), Solid::at(&plane, &x, &q));
            assert!(matches!(s.geometry, Geometry::Sphere { radius } if radius == 0.25));
            let height = pl.axis(2).dot(&(s.x - pl.x));
            assert!((p.gap(&x, &q) - (height - 0.25)).abs() < 1e-14);
        }
    }
}
