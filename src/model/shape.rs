//! Contact shapes: the primitives a contact description names, each on a body or fixed in
//! the world. Descriptions only: the narrow phase that reads them is
//! `contact::geometry::pairs`.

use super::BodyId;
use crate::error::{check_finite, Error, Result};
use crate::math::V3;

/// Tolerance of a plane's unit normal, on |n|² − 1 (a normalized vector is within ulps).
const UNIT_NORMAL_TOLERANCE: f64 = 1e-12;

/// Shape kinds, in the order of the narrow phase's pair table (a pair function takes the
/// lower kind first). Discriminants are the C ABI's shape numbers (`MAXDYN_SHAPE_*`): a
/// new kind takes the next one.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ShapeKind {
    Plane = 0,
    Sphere = 1,
}

/// Number of shape kinds (the pair table's size).
pub const SHAPE_KINDS: usize = 2;

impl ShapeKind {
    /// Every kind, in discriminant order.
    pub const ALL: [ShapeKind; SHAPE_KINDS] = [ShapeKind::Plane, ShapeKind::Sphere];

    /// The kind with C shape number `v`.
    pub fn from_i32(v: i32) -> Option<ShapeKind> {
        ShapeKind::ALL.into_iter().find(|&k| k as i32 == v)
    }
}

/// Shape pairs that can touch, [lower kind][higher kind]: those the narrow phase's pair
/// table has a function for. The geometry checks its table against this one when it
/// compiles (`contact::geometry::pairs`), so the two cannot disagree.
pub const PAIRS: [[bool; SHAPE_KINDS]; SHAPE_KINDS] = [
    // Plane:  plane (two world half-spaces), sphere
    [false, true],
    // Sphere: (plane: lower kind first), sphere
    [false, true],
];

/// Whether shapes of kinds `a` and `b` (either order) have a narrow-phase function.
pub fn pair_supported(a: ShapeKind, b: ShapeKind) -> bool {
    PAIRS[a.min(b) as usize][a.max(b) as usize]
}

/// A primitive shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape {
    /// The world half-space {x : normal·x ≥ offset} (`normal` unit length).
    Plane { normal: V3, offset: f64 },
    /// A sphere of `radius` (0: a point) centred at `centre` in the frame of `body`.
    Sphere { body: BodyId, centre: V3, radius: f64 },
}

impl Shape {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Plane { .. } => ShapeKind::Plane,
            Shape::Sphere { .. } => ShapeKind::Sphere,
        }
    }

    /// The body carrying the shape; None: the world.
    pub fn body(&self) -> Option<BodyId> {
        match *self {
            Shape::Plane { .. } => None,
            Shape::Sphere { body, .. } => Some(body),
        }
    }

    /// Checks the shape's own parameters (not its body, which the builder knows): finite
    /// numbers, a radius ≥ 0, a plane's unit normal. Errors name the argument `side`.
    pub fn validate(&self, side: &'static str) -> Result<()> {
        match *self {
            Shape::Plane { normal, offset } => {
                check_finite(side, &[normal.x, normal.y, normal.z, offset])?;
                if (normal.norm_squared() - 1.0).abs() > UNIT_NORMAL_TOLERANCE {
                    return Err(Error::InvalidArgument(side, format!("plane normal {normal:?} must have unit length")));
                }
            }
            Shape::Sphere { centre, radius, .. } => {
                check_finite(side, &[centre.x, centre.y, centre.z, radius])?;
                if radius < 0.0 {
                    return Err(Error::InvalidArgument(side, format!("sphere radius {radius} must be ≥ 0")));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_through_their_numbers() {
        for (i, k) in ShapeKind::ALL.into_iter().enumerate() {
            assert_eq!(k as usize, i);
            assert_eq!(ShapeKind::from_i32(i as i32), Some(k));
        }
        assert_eq!(ShapeKind::from_i32(SHAPE_KINDS as i32), None);
        assert_eq!(ShapeKind::from_i32(-1), None);
    }

    #[test]
    fn pair_support_is_symmetric() {
        use ShapeKind::*;
        assert!(pair_supported(Sphere, Plane) && pair_supported(Plane, Sphere));
        assert!(pair_supported(Sphere, Sphere));
        assert!(!pair_supported(Plane, Plane));
    }
}
