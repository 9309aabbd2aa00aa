//! Sphere (or point, radius 0) on a body against a world half-space.

use crate::contact::geometry::{ContactPoint, Shape};
use crate::math::{V3, V4};

/// One point: the plane's normal, anchor a the sphere's centre, and the world side at the
/// origin with the plane offset as its radius, so φ = n·(x + Q(q) p) − r − offset. The
/// normal does not depend on the configuration.
pub fn collide(plane: &Shape, sphere: &Shape, _x: &[V3], _q: &[V4], out: &mut [ContactPoint]) -> usize {
    let (&Shape::Plane { normal, offset }, &Shape::Sphere { body, centre, radius }) = (plane, sphere) else {
        unreachable!("pair table: plane_sphere gets a plane and a sphere")
    };
    let Some(p) = out.first_mut() else { return 0 };
    *p = ContactPoint { body_a: body, body_b: None, normal, anchor: [centre, V3::zeros()], radius: [radius, offset] };
    1
}

#[cfg(test)]
mod tests {
    use super::super::narrow_phase;
    use super::*;
    use crate::math::{from_rotation_vector, rotation};

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
        assert_eq!(narrow_phase(&sphere, &plane, &x, &q, &mut out), 1);
        let p = out[0];
        assert_eq!((p.body_a, p.body_b, p.normal), (1, None, n));
        assert_eq!((p.anchor, p.radius), ([V3::new(0.5, 0.0, 0.0), V3::zeros()], [0.2, 1.0]));
        let expected = 0.6 * 2.5 + 0.8 * 3.0 - 1.0 - 0.2;
        assert!((p.gap(&x, &q) - expected).abs() < 1e-14);
        // witness: the sphere's lowest point along −n, in the body frame
        let w = rotation(&q[1]) * p.witness(0, &rotation(&q[1]).transpose()) + x[1];
        assert!((w - (V3::new(1.0, 2.5, 3.0) - n * 0.2)).norm() < 1e-14);
        assert_eq!(narrow_phase(&plane, &sphere, &x, &q, &mut []), 0);
    }
}
