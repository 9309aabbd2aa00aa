//! Sphere against capsule.

use super::plane_sphere::sphere_radius;
use super::segment::closest_to_point;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// One point: the sphere's centre and the closest point of the capsule's segment (re-found
/// at each call: the point moves along the capsule), with their radii; the normal along
/// the line between them.
pub fn collide(sphere: &Shape, capsule: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (sphere, capsule) = (Solid::at(sphere, x, q), Solid::at(capsule, x, q));
    let rs = sphere_radius(&sphere);
    let Geometry::Capsule { radius, half_length } = capsule.geometry else { unreachable!("pair table: sphere_capsule gets a capsule") };
    let t = closest_to_point(&capsule.x, &capsule.axis(2), half_length, &sphere.x);
    let core = V3::new(0.0, 0.0, t);
    let d = sphere.x - capsule.world(&core);
    let nd = d.norm();
    // a centre on the segment has no direction; any normal across the axis keeps the node regular
    let n = if nd > 1e-12 { d / nd } else { capsule.axis(0) };
    let mut points = Points::new(out, max_gap);
    points.push(Candidate { gap: n.dot(&d) - rs - radius, one: sphere.origin_side(rs), two: capsule.side_of(&core, radius), n });
    points.count()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, lowest_point, placed, unit_q};
    use super::*;
    use crate::model::shape::ShapeKind;

    #[test]
    fn against_the_side_and_an_end_cap() {
        // capsule along world x (body 1 turned a quarter about y), half-length 0.5, radius 0.1
        let q = vec![unit_q(0.0, 0.0, 0.0), unit_q(0.0, std::f64::consts::FRAC_PI_2, 0.0)];
        let capsule = placed(Some(1), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Capsule, &[0.1, 0.5]);
        let sphere = Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.2 };
        // above the side at x = 0.3: gap 1 − 0.3; beyond the end cap at (0.8, 0, 0.4): 0.5 − 0.3
        for (centre, gap) in [(V3::new(0.3, 0.0, 1.0), 0.7), (V3::new(0.8, 0.0, 0.4), 0.2)] {
            let x = vec![centre, V3::zeros()];
            let p = check_points(&sphere, &capsule, &x, &q, 1.0, 1)[0];
            assert!((p.gap(&x, &q) - gap).abs() < 1e-15, "gap {}", p.gap(&x, &q));
            check_closest(&p, &sphere, &capsule, &x, &q);
            check_continuity(&sphere, &capsule, &x, &q, 0, 1.0);
        }
    }

    #[test]
    fn general_poses_and_world_capsule() {
        let x = vec![V3::new(0.1, 0.5, 0.3), V3::new(-0.2, 0.1, 0.0)];
        let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
        let sphere = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.0, 0.0), ShapeKind::Sphere, &[0.15]);
        for body in [Some(1), None] {
            let capsule = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Capsule, &[0.1, 0.4]);
            lowest_point(&sphere, &capsule, &x, &q);
        }
    }
}
