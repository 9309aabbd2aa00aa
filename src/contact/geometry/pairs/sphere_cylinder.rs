//! Sphere against cylinder.

use super::plane_sphere::sphere_radius;
use crate::contact::geometry::solid::{Candidate, Points, Side, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// One point: the sphere's centre with its radius, and the cylinder's point closest to it
/// (on its side, a face or a rim), the normal from there to the centre; on the side, the
/// cylinder's side is its axis point with its radius (see [`cylinder_side`]).
pub fn collide(sphere: &Shape, cylinder: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (sphere, cylinder) = (Solid::at(sphere, x, q), Solid::at(cylinder, x, q));
    let rs = sphere_radius(&sphere);
    let Geometry::Cylinder { radius, half_length } = cylinder.geometry else { unreachable!("pair table: sphere_cylinder gets a cylinder") };
    let (foot, local_n, distance) = closest_on_cylinder(radius, half_length, &cylinder.to_shape(&sphere.x));
    let mut points = Points::new(out, max_gap);
    points.push(Candidate { gap: distance - rs, one: sphere.origin_side(rs), two: cylinder_side(&cylinder, radius, &foot, &local_n), n: cylinder.r * local_n });
    points.count()
}

/// The cylinder's side of a contact at surface point `foot` with outward normal `local_n`
/// (both in the cylinder's frame, from [`closest_on_cylinder`]). On the curved side (the
/// normal across the axis) it is the axis point level with the foot, with the radius r:
/// the same gap at this configuration, and it stays exact while the cylinder turns about
/// its axis during the step (a foot fixed in the body moves off the line of the contact,
/// and the other shape sinks by r(ω dt)²/2). On a face or a rim, the foot itself.
pub(super) fn cylinder_side<'s>(cylinder: &'s Solid, r: f64, foot: &V3, local_n: &V3) -> Side<'s> {
    if local_n.z == 0.0 {
        cylinder.side_of(&V3::new(0.0, 0.0, foot.z), r)
    } else {
        cylinder.side_of(foot, 0.0)
    }
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
    use super::super::testing::{check_points, check_sphere_cases, lowest_point, placed, unit_q};
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

    /// On the curved side the cylinder's side is its axis point with its radius: turning
    /// the cylinder about its axis leaves the gap exact; on a face or a rim, the foot.
    #[test]
    fn side_contacts_are_axis_points_with_the_radius() {
        let cylinder = placed(Some(1), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Cylinder, &[0.3, 0.2]);
        let sphere = Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.1 };
        let q = vec![unit_q(0.0, 0.0, 0.0); 2];
        for (centre, on_side) in [(V3::new(0.0, 0.7, 0.1), true), (V3::new(0.0, 0.25, 0.0), true), (V3::new(0.1, 0.1, 0.5), false), (V3::new(0.6, 0.0, 0.6), false)] {
            let x = vec![centre, V3::zeros()];
            let p = check_points(&sphere, &cylinder, &x, &q, 1.0, 1)[0];
            let (anchor, radius) = (p.anchor[1], p.radius[1]);
            if on_side {
                assert_eq!((anchor.x, anchor.y, anchor.z, radius), (0.0, 0.0, centre.z, 0.3), "{centre:?}");
                let turned = vec![q[0], unit_q(0.0, 0.0, 0.9)];
                assert!((p.gap(&x, &turned) - p.gap(&x, &q)).abs() < 1e-15);
            } else {
                assert_eq!(radius, 0.0, "{centre:?}");
            }
        }
    }
}
