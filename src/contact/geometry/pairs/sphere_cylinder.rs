//! Sphere against cylinder.

use super::plane_sphere::sphere_radius;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// One point: the sphere's centre with its radius, and the cylinder's point closest to it
/// (on its side, a face or a rim), the normal from there to the centre.
pub fn collide(sphere: &Shape, cylinder: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (sphere, cylinder) = (Solid::at(sphere, x, q), Solid::at(cylinder, x, q));
    let rs = sphere_radius(&sphere);
    let Geometry::Cylinder { radius, half_length } = cylinder.geometry else { unreachable!("pair table: sphere_cylinder gets a cylinder") };
    let (foot, local_n, distance) = closest_on_cylinder(radius, half_length, &cylinder.to_shape(&sphere.x));
    let mut points = Points::new(out, max_gap);
    points.push(Candidate { gap: distance - rs, one: sphere.origin_side(rs), two: cylinder.side_of(&foot, 0.0), n: cylinder.r * local_n });
    points.count()
}

/// For a point p in the frame of a cylinder (radius r, half-length h): the cylinder's
/// surface point closest to it, the outward unit normal from there towards p, and p's
/// signed distance to the cylinder.
pub(super) fn closest_on_cylinder(r: f64, h: f64, p: &V3) -> (V3, V3, f64) {
    let rho = p.xy().norm();
    // the radial direction (any on the axis)
    let (ux, uy) = if rho > 0.0 { (p.x / rho, p.y / rho) } else { (1.0, 0.0) };
    let foot = V3::new(if rho > r { ux * r } else { p.x }, if rho > r { uy * r } else { p.y }, p.z.clamp(-h, h));
    let d = p - foot;
    let nd = d.norm();
    if nd > 0.0 {
        return (foot, d / nd, nd);
    }
    // inside: the side or the face of least depth
    let (side, face) = (r - rho, h - p.z.abs());
    if side < face {
        (V3::new(ux * r, uy * r, p.z), V3::new(ux, uy, 0.0), -side)
    } else {
        let s = if p.z >= 0.0 { 1.0 } else { -1.0 };
        (V3::new(p.x, p.y, s * h), V3::new(0.0, 0.0, s), -face)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_sphere_cases, lowest_point, placed, unit_q};
    use super::*;
    use crate::model::shape::ShapeKind;

    #[test]
    fn against_the_side_a_face_a_rim_and_inside() {
        // cylinder radius 0.3, half-length 0.2 on body 1 at the origin; sphere radius 0.1
        let cylinder = placed(Some(1), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Cylinder, &[0.3, 0.2]);
        let sphere = Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.1 };
        let cases = [
            (V3::new(0.0, 0.7, 0.1), 0.4 - 0.1, V3::y()),                      // side
            (V3::new(0.1, 0.1, 0.5), 0.3 - 0.1, V3::z()),                      // face
            (V3::new(0.6, 0.0, 0.6), 0.5 - 0.1, V3::new(0.6, 0.0, 0.8)),       // rim
            (V3::new(0.0, 0.25, 0.0), -0.05 - 0.1, V3::y()),                   // inside, by the side
            (V3::new(0.1, 0.0, -0.15), -0.05 - 0.1, -V3::z()),                 // inside, by a face
        ];
        check_sphere_cases(&sphere, &cylinder, &cases);
    }

    #[test]
    fn general_poses() {
        let x = vec![V3::new(0.1, 0.5, 0.6), V3::new(-0.2, 0.1, 0.0)];
        let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
        let sphere = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.0, 0.0), ShapeKind::Sphere, &[0.15]);
        for body in [Some(1), None] {
            let cylinder = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Cylinder, &[0.2, 0.3]);
            lowest_point(&sphere, &cylinder, &x, &q);
        }
    }
}
