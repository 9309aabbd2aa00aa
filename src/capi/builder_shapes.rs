//! Shape types of the C API: `maxdyn_shape_type`, the C numbers of the contact shapes
//! (`ShapeKind`), and their conversion. The shapes themselves are described in
//! `model::shape`; a function that takes a shape type from C converts it here.

use crate::model::ShapeKind;

/// Contact shape types (values are `ShapeKind` discriminants, the order of the narrow
/// phase's pair table; checked by a test). A new shape takes the next number.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum maxdyn_shape_type {
    /// A plane's solid half-space (today fixed in the world, keeping bodies on the side
    /// `normal · x ≥ offset`).
    MAXDYN_SHAPE_PLANE = 0,
    /// A sphere (radius 0: a point) on a body.
    MAXDYN_SHAPE_SPHERE = 1,
    /// A capsule {radius, half_length along the shape's z}.
    MAXDYN_SHAPE_CAPSULE = 2,
    /// A box {three half extents}.
    MAXDYN_SHAPE_BOX = 3,
    /// A cylinder {radius, half_length along the shape's z}.
    MAXDYN_SHAPE_CYLINDER = 4,
    /// The convex hull of points (`maxdyn_builder_add_hull_shape`; a URDF `<mesh>`).
    MAXDYN_SHAPE_HULL = 5,
    /// A grid of heights, static world terrain (`maxdyn_builder_add_heightfield_shape`).
    MAXDYN_SHAPE_HEIGHTFIELD = 6,
    /// A triangle mesh, static world geometry (`maxdyn_builder_add_trimesh_shape`).
    MAXDYN_SHAPE_TRIMESH = 7,
}

impl From<ShapeKind> for maxdyn_shape_type {
    fn from(kind: ShapeKind) -> maxdyn_shape_type {
        match kind {
            ShapeKind::Plane => maxdyn_shape_type::MAXDYN_SHAPE_PLANE,
            ShapeKind::Sphere => maxdyn_shape_type::MAXDYN_SHAPE_SPHERE,
            ShapeKind::Capsule => maxdyn_shape_type::MAXDYN_SHAPE_CAPSULE,
            ShapeKind::Box => maxdyn_shape_type::MAXDYN_SHAPE_BOX,
            ShapeKind::Cylinder => maxdyn_shape_type::MAXDYN_SHAPE_CYLINDER,
            ShapeKind::Hull => maxdyn_shape_type::MAXDYN_SHAPE_HULL,
            ShapeKind::HeightField => maxdyn_shape_type::MAXDYN_SHAPE_HEIGHTFIELD,
            ShapeKind::TriMesh => maxdyn_shape_type::MAXDYN_SHAPE_TRIMESH,
        }
    }
}

impl From<maxdyn_shape_type> for ShapeKind {
    fn from(t: maxdyn_shape_type) -> ShapeKind {
        match t {
            maxdyn_shape_type::MAXDYN_SHAPE_PLANE => ShapeKind::Plane,
            maxdyn_shape_type::MAXDYN_SHAPE_SPHERE => ShapeKind::Sphere,
            maxdyn_shape_type::MAXDYN_SHAPE_CAPSULE => ShapeKind::Capsule,
            maxdyn_shape_type::MAXDYN_SHAPE_BOX => ShapeKind::Box,
            maxdyn_shape_type::MAXDYN_SHAPE_CYLINDER => ShapeKind::Cylinder,
            maxdyn_shape_type::MAXDYN_SHAPE_HULL => ShapeKind::Hull,
            maxdyn_shape_type::MAXDYN_SHAPE_HEIGHTFIELD => ShapeKind::HeightField,
            maxdyn_shape_type::MAXDYN_SHAPE_TRIMESH => ShapeKind::TriMesh,
        }
    }
}

impl maxdyn_shape_type {
    /// The shape type with C number `v` (an `int32_t` argument); None: no such type (a
    /// caller answers `Failure::invalid_enum`, `MAXDYN_STATUS_INVALID_ENUM`).
    pub fn from_i32(v: i32) -> Option<maxdyn_shape_type> {
        ShapeKind::from_i32(v).map(maxdyn_shape_type::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_types_are_the_shape_kind_discriminants() {
        for kind in ShapeKind::ALL {
            let t = maxdyn_shape_type::from(kind);
            assert_eq!(t as i32, kind as i32);
            assert_eq!(ShapeKind::from(t), kind);
            assert_eq!(maxdyn_shape_type::from_i32(kind as i32), Some(t));
        }
        assert_eq!(maxdyn_shape_type::MAXDYN_SHAPE_PLANE as i32, 0);
        assert_eq!(maxdyn_shape_type::MAXDYN_SHAPE_SPHERE as i32, 1);
        assert_eq!(maxdyn_shape_type::MAXDYN_SHAPE_CYLINDER as i32, 4);
        assert_eq!(maxdyn_shape_type::MAXDYN_SHAPE_HULL as i32, 5);
        assert_eq!(maxdyn_shape_type::MAXDYN_SHAPE_TRIMESH as i32, 7);
        assert_eq!(maxdyn_shape_type::from_i32(8), None);
        assert_eq!(maxdyn_shape_type::from_i32(-1), None);
    }
}
