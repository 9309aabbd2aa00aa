//! Contact geometry: narrow phase → contact points → gap, gap Jacobian and force maps.
//!
//! * [`pairs`]: one narrow-phase function per shape pair ([`ShapeKind`]s), in a table;
//!   each writes the [`ContactPoint`]s (normal, anchor and radius per side) within a margin
//!   at z_{k+1}, several where the geometry needs them (a box on a plane: 4).
//! * [`solid`]: a shape placed in the world at a configuration, and the writer of a pair's
//!   points (world side last, margin, lowest first).
//! * [`point`]: the gap of a point, φ = n·(c_a − c_b) − r_a − r_b, at a configuration and
//!   at z_{k+2}(v, ω) with its analytic velocity Jacobian (per Newton iterate).
//! * [`maps`]: the force and slip maps at the witness points at z_{k+1} ([`ContactFrame`]).
//!
//! Nothing past the narrow phase knows shapes. The normal is taken at z_{k+1} (where the
//! force acts) and kept for the step, so a point's gap is the signed distance along it.
//! Two spheres are the exception: their gap is the distance |c_a − c_b| at z_{k+2} less
//! the radii while c_a − c_b stays on the held normal's side, else the signed distance
//! along it, which stays negative when a fast sphere would pass through the other within
//! a step (the distance is positive again behind it; `tests/collision/curved.rs`). The
//! held normal alone would be the stricter constraint (n₁·d ≤ |d|), off by r θ²/2 for a
//! line of centres turning by θ in the step: a push at a distance that does work.
//!
//! Layering: this module reads the contact description and its shapes (`model::contact`,
//! `model::shape`, re-exported here), the
//! cone layout (for the friction directions), `math` and the pose prediction of
//! `integrator::joint_rows`; it never reaches into `sim`.

pub mod maps;
pub mod pairs;
pub mod point;
pub mod solid;

pub use maps::ContactFrame;
pub use pairs::{narrow_phase, MAX_POINTS_PER_PAIR, MAX_SLOTS_PER_PAIR};
pub use point::ContactPoint;
pub use crate::model::shape::{Geometry, Shape, ShapeKind, SHAPE_KINDS};

use super::Contact;
use crate::math::{V3, V4};

/// Contact points of contact description `c` at (x, q) into `out`; returns the count.
/// Every point is written, whatever its gap: a description's pair has one, which the step
/// culls by its own margin.
pub fn contact_points(c: &Contact, x: &[V3], q: &[V4], out: &mut [ContactPoint]) -> usize {
    let [a, b] = &c.shapes;
    narrow_phase(a, b, x, q, f64::INFINITY, out)
}

/// The single contact point of `c` at (x, q) (a description has one point).
fn single_point(c: &Contact, x: &[V3], q: &[V4]) -> ContactPoint {
    let mut p = [ContactPoint::default()];
    let count = contact_points(c, x, q, &mut p);
    debug_assert_eq!(count, 1, "contact descriptions have one point");
    p[0]
}

/// Gap at a configuration (x, q) (the state the user sees), normal taken there.
pub fn gap(c: &Contact, x: &[V3], q: &[V4]) -> f64 {
    single_point(c, x, q).gap(x, q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::ConeType;

    /// The step pairs a point's sides with the description's bodies (forces are reported on
    /// body a): the narrow phase keeps them, world last.
    #[test]
    fn points_keep_the_description_bodies() {
        let x = vec![V3::new(0.0, 0.0, 1.0), V3::new(0.1, 0.0, 0.0), V3::zeros()];
        let q = vec![V4::new(1.0, 0.0, 0.0, 0.0); 3];
        let contact = |shapes| Contact { shapes, friction: 0.5, cone: ConeType::Linear, directions: 4 };
        let sphere = |body, radius| Shape::Sphere { body, centre: V3::zeros(), radius };
        let plane = [Shape::Sphere { body: 1, centre: V3::x(), radius: 0.1 }, Shape::Plane { normal: V3::z(), offset: 0.0 }];
        // placed shapes: a half-space on body 1 against a world sphere above it, and a
        // placed sphere on body 0 against body 2's
        let id = V4::new(1.0, 0.0, 0.0, 0.0);
        let body_plane = Shape::Placed { body: Some(1), x: V3::zeros(), q: id, geometry: Geometry::HalfSpace };
        let world_ball = Shape::Placed { body: None, x: V3::new(0.0, 0.0, 2.0), q: id, geometry: Geometry::Sphere { radius: 0.5 } };
        let ball = Shape::Placed { body: Some(0), x: V3::x(), q: id, geometry: Geometry::Sphere { radius: 0.1 } };
        let placed = [contact([body_plane, world_ball]), contact([ball, sphere(2, 0.1)])];
        for c in [contact(plane), contact([sphere(2, 0.1), sphere(0, 0.2)])].into_iter().chain(placed) {
            let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
            assert_eq!(contact_points(&c, &x, &q, &mut out), 1);
            assert_eq!(out[0].bodies(), c.bodies());
        }
    }

    /// Placed shapes ride today's one-point contacts: a ball on a world half-space placed by
    /// a pose (tilted 0.3 rad) moves as on the same plane by normal and offset, to rounding
    /// (state within 1.1e-14 after 1 s); pairs with several points are refused until
    /// contacts have a slot per point.
    #[test]
    fn placed_shapes_in_todays_contacts() {
        use crate::{Builder, Error, Inertia, Model, Sim};
        use std::sync::Arc;
        let id = V4::new(1.0, 0.0, 0.0, 0.0);
        let tilt: f64 = 0.3;
        let normal = V3::new(0.0, -tilt.sin(), tilt.cos());
        let run = |placed: bool| {
            let mut b = Builder::new();
            let body = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
            b.set_body_pose(body, [0.0, 0.0, 0.3], [1.0, 0.0, 0.0, 0.0]).unwrap();
            let (ball, plane) = if placed {
                let plane_q = crate::math::from_rotation_vector(&V3::new(tilt, 0.0, 0.0));
                (
                    Shape::Placed { body: Some(body), x: V3::zeros(), q: id, geometry: Geometry::Sphere { radius: 0.1 } },
                    Shape::Placed { body: None, x: normal * 0.05, q: plane_q, geometry: Geometry::HalfSpace },
                )
            } else {
                (Shape::Sphere { body, centre: V3::zeros(), radius: 0.1 }, Shape::Plane { normal, offset: 0.05 })
            };
            b.add_contact(ball, plane, 0.5).unwrap();
            let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
            for _ in 0..100 {
                sim.step().unwrap();
            }
            (sim.body_state(body).unwrap(), sim.contact(0).unwrap().gap)
        };
        let ((by_normal, gap), (by_pose, placed_gap)) = (run(false), run(true));
        let diff = (0..13).map(|k| (by_normal[k] - by_pose[k]).abs()).fold(0.0, f64::max);
        assert!(diff < 1e-13, "placed and normal/offset planes differ by {diff:e}");
        // it has landed (gap 1.1e-10) and moved 0.95 m down the slope
        assert!(gap.abs() < 1e-9 && placed_gap.abs() < 1e-9, "gaps {gap:e} {placed_gap:e}");
        assert!(by_pose[1] < -0.9, "{}", by_pose[1]);
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
        let capsule = Shape::Placed { body: Some(body), x: V3::zeros(), q: id, geometry: Geometry::Capsule { radius: 0.1, half_length: 0.3 } };
        let refused = b.add_contact(capsule, Shape::Plane { normal: V3::z(), offset: 0.0 }, 0.5);
        assert!(matches!(refused, Err(Error::InvalidArgument("shape_b", m)) if m.contains("single-point narrow phase for a Capsule against a Plane")));
    }
}
