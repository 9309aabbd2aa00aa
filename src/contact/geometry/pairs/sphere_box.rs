//! Sphere against box.

use super::plane_sphere::sphere_radius;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// One point: the sphere's centre with its radius, and the box's point closest to it
/// (outside: the centre clamped to the box; inside: its foot on the nearest face), the
/// normal from that point to the centre (inside: the face's normal).
pub fn collide(sphere: &Shape, cuboid: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (sphere, cuboid) = (Solid::at(sphere, x, q), Solid::at(cuboid, x, q));
    let rs = sphere_radius(&sphere);
    let Geometry::Box { half_extents: e } = cuboid.geometry else { unreachable!("pair table: sphere_box gets a box") };
    let (foot, local_n, distance) = closest_on_box(&e, &cuboid.to_shape(&sphere.x));
    let n = cuboid.r * local_n;
    let mut points = Points::new(out, max_gap);
    points.push(Candidate { gap: distance - rs, one: sphere.origin_side(rs), two: cuboid.side_of(&foot, 0.0), n });
    points.count()
}

/// For a point p in the box frame: the box's surface point closest to it, the outward unit
/// normal from there towards p, and p's signed distance to the box.
pub(super) fn closest_on_box(e: &V3, p: &V3) -> (V3, V3, f64) {
    let clamped = p.zip_map(e, |v, e| v.clamp(-e, e));
    let d = p - clamped;
    let nd = d.norm();
    if nd > 0.0 {
        return (clamped, d / nd, nd);
    }
    // inside: the face of least depth
    let depth = e - p.abs();
    let i = (1..3).fold(0, |best, k| if depth[k] < depth[best] { k } else { best });
    let sign = if p[i] >= 0.0 { 1.0 } else { -1.0 };
    let mut foot = *p;
    foot[i] = sign * e[i];
    let mut n = V3::zeros();
    n[i] = sign;
    (foot, n, -depth[i])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_sphere_cases, lowest_point, placed, unit_q};
    use super::*;
    use crate::model::shape::ShapeKind;

    #[test]
    fn against_a_face_an_edge_a_corner_and_inside() {
        // box of half extents (0.5, 0.4, 0.3) on body 1 at the origin; sphere radius 0.1
        let cuboid = placed(Some(1), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Box, &[0.5, 0.4, 0.3]);
        let sphere = Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.1 };
        let cases = [
            (V3::new(0.1, 0.2, 0.7), 0.4 - 0.1, V3::z()),                                  // face
            (V3::new(0.8, 0.0, 0.7), 0.5 - 0.1, V3::new(0.6, 0.0, 0.8)),                   // edge
            (V3::new(0.7, 0.6, 0.4), 0.3 - 0.1, V3::new(2.0, 2.0, 1.0) / 3.0),             // corner
            (V3::new(0.45, 0.0, 0.1), -0.05 - 0.1, V3::x()),                               // inside
        ];
        check_sphere_cases(&sphere, &cuboid, &cases);
    }

    #[test]
    fn general_poses() {
        let x = vec![V3::new(0.1, 0.5, 0.6), V3::new(-0.2, 0.1, 0.0)];
        let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
        let sphere = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.0, 0.0), ShapeKind::Sphere, &[0.15]);
        for body in [Some(1), None] {
            let cuboid = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Box, &[0.2, 0.1, 0.3]);
            lowest_point(&sphere, &cuboid, &x, &q);
        }
    }
}
