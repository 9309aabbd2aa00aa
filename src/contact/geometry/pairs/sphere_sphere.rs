//! Sphere on one body against a sphere on another.

use crate::contact::geometry::{ContactPoint, Shape};
use crate::math::{rotation, V3, V4};

/// One point: anchors the centres, radii the spheres', normal the unit vector between the
/// centres at (x, q), from b's to a's. Held fixed for a step, it makes the gap at z_{k+2}
/// the signed distance along it, which stays negative when a fast sphere would pass
/// through the other within a step.
pub fn collide(sphere_a: &Shape, sphere_b: &Shape, x: &[V3], q: &[V4], out: &mut [ContactPoint]) -> usize {
    let (&Shape::Sphere { body: body_a, centre: pa, radius: ra }, &Shape::Sphere { body: body_b, centre: pb, radius: rb }) = (sphere_a, sphere_b) else {
        unreachable!("pair table: sphere_sphere gets two spheres")
    };
    let Some(p) = out.first_mut() else { return 0 };
    let (qa, qb) = (rotation(&q[body_a]), rotation(&q[body_b]));
    let d = x[body_a] + qa * pa - (x[body_b] + qb * pb);
    let nd = d.norm();
    // coincident centres have no direction; any unit vector keeps the node regular
    let normal = if nd > 1e-12 { d / nd } else { V3::z() };
    *p = ContactPoint { body_a, body_b: Some(body_b), normal, anchor: [pa, pb], radius: [ra, rb] };
    1
}

#[cfg(test)]
mod tests {
    use super::super::narrow_phase;
    use super::*;
    use crate::math::from_rotation_vector;

    #[test]
    fn point_and_gap_by_hand() {
        // centres: body 0 at (0, 0, 2) + Q (0, 0.5, 0) with a quarter turn about x → (0, 0, 2.5);
        // body 1's at (0, 0, 0.5) + (0, 0, 0); distance 2, along +z from b to a
        let x = vec![V3::new(0.0, 0.0, 2.0), V3::new(0.0, 0.0, 0.5)];
        let q = vec![from_rotation_vector(&V3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0)), V4::new(1.0, 0.0, 0.0, 0.0)];
        let a = Shape::Sphere { body: 0, centre: V3::new(0.0, 0.5, 0.0), radius: 0.3 };
        let b = Shape::Sphere { body: 1, centre: V3::zeros(), radius: 0.4 };
        let mut out = [ContactPoint::default(); 1];
        assert_eq!(narrow_phase(&a, &b, &x, &q, &mut out), 1);
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
        // the normal is kept: moving a sideways changes the gap along it only
        let moved = vec![x[0] + V3::new(1.0, 0.0, -0.5), x[1]];
        assert!((p.gap(&moved, &q) - (1.5 - 0.7)).abs() < 1e-14);
    }

    #[test]
    fn coincident_centres_get_a_unit_normal() {
        let x = vec![V3::zeros(), V3::zeros()];
        let q = vec![V4::new(1.0, 0.0, 0.0, 0.0); 2];
        let s = |body| Shape::Sphere { body, centre: V3::zeros(), radius: 0.1 };
        let mut out = [ContactPoint::default(); 1];
        assert_eq!(narrow_phase(&s(0), &s(1), &x, &q, &mut out), 1);
        assert_eq!(out[0].normal, V3::z());
    }
}
