//! Cylinder against a half-space.

use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// Least `across` (the plane normal's part in the face planes) at which the rim points
/// along w become spheres through their rim (see [`collide`]): the sphere's radius r/across
/// stays within twice the cylinder's, and a cylinder tilted further, nearly on a face,
/// keeps its rim points.
const ROUND_ACROSS: f64 = 0.5;

/// Rim points, each within the margin, lowest first. With w the direction in the face
/// planes most against the plane normal (re-found at each call, so the point moves over
/// the rim as the cylinder rolls): on the lower face the rim point along w and the three
/// a quarter turn apart, on the upper face the one along w. Lying on a face, the four of
/// that face touch; on its side, the two along w (one per face); tilted on its rim, one.
///
/// The points along w are exact curved contacts while the cylinder is not near a face:
/// each is the sphere centred on the axis that passes through its face's whole rim circle
/// and touches the plane where the rim does (radius r/across, centre r m_z/across beyond
/// the face centre along the axis; lying on the side, the face centre with radius r). The
/// sphere turns with the body about the axis without moving, so a rolling cylinder keeps
/// its gap exact during a step (a rim point fixed in the body rises off its lowest place
/// and the cylinder sinks r(ω dt)²/2 a step); tilting, the rim stays on the sphere, so the
/// gap never exceeds the rim's. The gap and the witness (the rim point) are those of the
/// rim point at the configuration.
pub fn collide(plane: &Shape, cylinder: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (plane, cylinder) = (Solid::at(plane, x, q), Solid::at(cylinder, x, q));
    let Geometry::Cylinder { radius, half_length } = cylinder.geometry else { unreachable!("pair table: plane_cylinder gets a cylinder") };
    let n = plane.axis(2);
    let m = cylinder.r.transpose() * n;
    let across = m.xy().norm();
    // lying flat, any rim direction does: the shape's x keeps the points fixed on the rim
    let (wx, wy) = if across > 1e-12 { (-m.x / across, -m.y / across) } else { (1.0, 0.0) };
    let lower = if m.z > 0.0 { -half_length } else { half_length };
    let rim = |cx: f64, cy: f64, z: f64| {
        let p = V3::new(radius * cx, radius * cy, z);
        let w = cylinder.world(&p);
        Candidate { gap: plane.height(&w), one: cylinder.side_of(&p, 0.0), two: plane.plane_side(&w), n }
    };
    let along_w = |z: f64| {
        if across < ROUND_ACROSS {
            return rim(wx, wy, z);
        }
        let rho = radius / across;
        let centre = V3::new(0.0, 0.0, z + rho * m.z);
        let touch = cylinder.world(&V3::new(radius * wx, radius * wy, z));
        Candidate { gap: plane.height(&cylinder.world(&centre)) - rho, one: cylinder.side_of(&centre, rho), two: plane.plane_side(&touch), n }
    };
    let mut candidates = [along_w(lower), rim(-wy, wx, lower), rim(-wx, -wy, lower), rim(wy, -wx, lower), along_w(-lower)];
    // a disc (length 0) has one face
    let count = if half_length > 0.0 { 5 } else { 4 };
    let mut points = Points::new(out, max_gap);
    points.push_lowest_first(&mut candidates[..count]);
    points.count()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, placed, unit_q, EXACT};
    use super::*;
    use crate::model::shape::ShapeKind;
    use std::f64::consts::FRAC_PI_2;

    fn ground() -> Shape {
        Shape::Plane { normal: V3::z(), offset: 0.0 }
    }

    /// Cylinder of radius 0.2 and half-length 0.3 on body 0.
    fn cylinder() -> Shape {
        placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Cylinder, &[0.2, 0.3])
    }

    #[test]
    fn standing_on_a_face_gives_four_rim_points() {
        for q in [unit_q(0.0, 0.0, 0.4), unit_q(std::f64::consts::PI, 0.0, 0.0)] {
            let (x, q) = (vec![V3::new(0.5, 0.5, 0.3)], vec![q]);
            let points = check_points(&cylinder(), &ground(), &x, &q, 1e-6, 4);
            for p in &points {
                assert!(p.gap(&x, &q).abs() < 1e-15);
                assert!((p.anchor[0].xy().norm() - 0.2).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn on_its_side_gives_one_rim_point_per_face() {
        // axis along y (a quarter about x), rolled by 0.7 about its axis: the points stay
        // straight under the axis
        let x = vec![V3::new(0.0, 0.0, 0.2)];
        let q = vec![crate::math::qmul(&unit_q(FRAC_PI_2, 0.0, 0.0), &unit_q(0.0, 0.0, 0.7))];
        let points = check_points(&cylinder(), &ground(), &x, &q, 1e-3, 2);
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15);
            let w = super::super::testing::world_witness(p, 0, &x, &q);
            assert!(w.x.abs() < 1e-15 && (w.y.abs() - 0.3).abs() < 1e-15);
        }
        check_continuity(&cylinder(), &ground(), &x, &q, 0, 2.0);
    }

    #[test]
    fn tilted_on_its_rim_gives_the_lowest_rim_point() {
        let q = vec![unit_q(0.4, 0.3, 0.0)];
        // lowest point: 0.3 cos θ + 0.2 sin θ below the centre, θ the axis' tilt from z
        let theta = Solid::at(&cylinder(), &[V3::zeros()], &q).axis(2).z.acos();
        let x = vec![V3::new(0.0, 0.0, 0.3 * theta.cos() + 0.2 * theta.sin() + 0.005)];
        let p = check_points(&cylinder(), &ground(), &x, &q, 0.01, 1)[0];
        assert!((p.gap(&x, &q) - 0.005).abs() < EXACT);
        check_closest(&p, &cylinder(), &ground(), &x, &q);
        check_continuity(&cylinder(), &ground(), &x, &q, 0, 2.0);
    }

    /// The points along w follow the body: turning the cylinder about its own axis leaves
    /// their gaps unchanged (exact for rolling), and tilting it leaves them at or below the
    /// rim's true lowest height (they never report a gap the rim does not have). Lying on
    /// its side they are the face centres with the radius; tilted, spheres through the rim.
    #[test]
    fn points_along_w_are_exact_under_rolling_and_never_above_the_rim() {
        let ground = ground();
        // the lowest height of the rim of the face at z = `face` (shape frame)
        let lowest_rim = |x: &[V3], q: &[V4], face: f64| {
            let s = Solid::at(&cylinder(), x, q);
            let a = s.axis(2);
            s.world(&V3::new(0.0, 0.0, face)).z - 0.2 * (1.0 - a.z * a.z).max(0.0).sqrt()
        };
        for tilt in [0.0, 0.3, 0.6] {
            // axis along y tipped by `tilt` towards z, just touching
            let q = vec![crate::math::qmul(&unit_q(FRAC_PI_2 - tilt, 0.0, 0.0), &unit_q(0.0, 0.0, 0.4))];
            let x0 = vec![V3::zeros()];
            let low_face = if Solid::at(&cylinder(), &x0, &q).axis(2).z > 0.0 { -0.3 } else { 0.3 };
            let x = vec![V3::new(0.0, 0.0, -lowest_rim(&x0, &q, low_face))];
            // lying on its side both faces touch
            let p = check_points(&cylinder(), &ground, &x, &q, 1e-9, if tilt == 0.0 { 2 } else { 1 })[0];
            assert!(p.gap(&x, &q).abs() < 1e-15, "tilt {tilt}: gap {}", p.gap(&x, &q));
            check_closest(&p, &cylinder(), &ground, &x, &q);
            // the face whose rim the point touches: its witness is on that rim
            let face = p.witness(0, &crate::math::rotation(&q[0]).transpose()).z.signum() * 0.3;
            let (across, rho) = (tilt.cos(), 0.2 / tilt.cos());
            assert!((p.radius[0] - rho).abs() < 1e-15 && p.anchor[0].xy().norm() < 1e-15, "tilt {tilt}: {p:?}");
            if tilt == 0.0 {
                assert!((p.anchor[0].z.abs() - 0.3).abs() < 1e-15 && across == 1.0, "{p:?}");
            }
            for turn in [0.05, 0.5, 2.0] {
                let rolled = vec![crate::math::qmul(&q[0], &unit_q(0.0, 0.0, turn))];
                assert!(p.gap(&x, &rolled).abs() < 1e-15, "tilt {tilt}, turned {turn}: gap {}", p.gap(&x, &rolled));
                for axis in [V3::x(), V3::y(), V3::new(0.3, -0.5, 0.8).normalize()] {
                    let tipped = vec![crate::math::qmul(&unit_q(axis.x * turn, axis.y * turn, axis.z * turn), &q[0])];
                    assert!(p.gap(&x, &tipped) <= lowest_rim(&x, &tipped, face) + 1e-15, "tilt {tilt}, tipped {turn} about {axis:?}");
                }
            }
        }
    }
}
