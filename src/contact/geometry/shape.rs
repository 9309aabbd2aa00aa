//! The shapes a narrow phase reads: primitives on a body or fixed in the world.

use crate::contact::ContactShape;
use crate::math::V3;

/// Shape kinds, in the order of the pair table (a pair function takes the lower kind
/// first). Discriminants are the C ABI's shape numbers: a new kind takes the next one.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ShapeKind {
    Plane = 0,
    Sphere = 1,
}

/// Number of shape kinds (the pair table's size).
pub const SHAPE_KINDS: usize = 2;

/// A primitive shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// The world half-space {x : normal·x ≥ offset} (`normal` unit length).
    Plane { normal: V3, offset: f64 },
    /// A sphere of `radius` (0: a point) centred at `centre` in the frame of `body`.
    Sphere { body: usize, centre: V3, radius: f64 },
}

impl Shape {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Plane { .. } => ShapeKind::Plane,
            Shape::Sphere { .. } => ShapeKind::Sphere,
        }
    }

    /// The two shapes of a contact description, side a (a body's shape) first.
    pub fn pair_of(c: &ContactShape) -> [Shape; 2] {
        match *c {
            ContactShape::Plane { body, p, radius, normal, offset } => {
                [Shape::Sphere { body, centre: p, radius }, Shape::Plane { normal, offset }]
            }
            ContactShape::Spheres { body_a, pa, ra, body_b, pb, rb } => {
                [Shape::Sphere { body: body_a, centre: pa, radius: ra }, Shape::Sphere { body: body_b, centre: pb, radius: rb }]
            }
        }
    }
}
