//! How high collision shapes are: the lowest world z of a shape at a sim's poses, from its
//! geometry's support along the world's down direction (exact for every kind), for
//! tests and benchmarks that place robots on the ground or measure how deep they went.

use maxdyn::math::{rotation, V3, V4};
use maxdyn::model::shape::Geometry;
use maxdyn::{Model, Sim};

/// Lowest world z of collision shape `i` of `model` with the bodies at `sim`'s poses (+∞
/// for a world shape).
pub fn lowest_point(model: &Model, sim: &Sim, i: usize) -> f64 {
    let s = &model.collision.shapes[i];
    let Some(body) = s.body else {
        return f64::INFINITY;
    };
    let st = sim.body_state(body).unwrap();
    let q = V4::new(st[3], st[4], st[5], st[6]);
    let centre = V3::new(st[0], st[1], st[2]) + rotation(&q) * s.x;
    // the world's up direction in the shape frame: the lowest point minimizes it
    let up = (rotation(&q) * rotation(&s.q)).transpose() * V3::z();
    let below = match &s.geometry {
        // static world geometry: never on a body
        Geometry::HalfSpace | Geometry::HeightField(_) | Geometry::TriMesh(_) => f64::INFINITY,
        Geometry::Sphere { radius } => -radius,
        Geometry::Capsule {
            radius,
            half_length,
        } => -half_length * up.z.abs() - radius,
        Geometry::Box { half_extents: e } => {
            -(e.x * up.x.abs() + e.y * up.y.abs() + e.z * up.z.abs())
        }
        Geometry::Cylinder {
            radius,
            half_length,
        } => -half_length * up.z.abs() - radius * up.x.hypot(up.y),
        Geometry::Hull(h) => h
            .points
            .iter()
            .map(|p| p.dot(&up))
            .fold(f64::INFINITY, f64::min),
    };
    centre.z + below
}

/// Lowest world z over every collision shape on a body.
pub fn lowest(model: &Model, sim: &Sim) -> f64 {
    (0..model.collision.shapes.len())
        .map(|i| lowest_point(model, sim, i))
        .fold(f64::INFINITY, f64::min)
}
