//! Builder setters for collision shapes (`model::collision`). Each validates every
//! argument before changing anything.

use super::collision::{CollisionShape, ShapeId, DEFAULT_SHAPE_FRICTION, MAX_CONTACT_CAPACITY};
use super::contact::{ConeType, MAX_DIRECTIONS};
use super::error::{check_finite, Error, Result};
use std::sync::Arc;

use super::hull::Hull;
use super::shape::{Geometry, Shape, ShapeKind};
use super::terrain::{HeightField, TriangleMesh};
use super::{Builder, Parent};
use crate::math::V3;

impl Builder {
    /// A collision shape of `kind` with its C-order `params` (sphere {radius}, capsule
    /// {radius, half_length along z}, box {three half extents}, cylinder {radius,
    /// half_length along z}, plane {}: the half-space below the shape's x–y plane) on
    /// `parent` at position `x` and unit quaternion `q` (w, x, y, z; normalized) in its
    /// frame, whose origin is the body's centre of mass. Friction 1, group 1, mask all.
    pub fn add_shape(&mut self, parent: Parent, kind: ShapeKind, x: [f64; 3], q: [f64; 4], params: &[f64]) -> Result<ShapeId> {
        let body = parent.body();
        if let Some(b) = body {
            self.body(b)?;
        }
        let geometry = Geometry::new(kind, params).map_err(|e| as_shape_error("params", e))?;
        self.add_geometry(parent, x, q, geometry)
    }

    /// A collision shape that is the convex hull of `points` (in the shape frame, at `x`,
    /// `q` in `parent`'s frame as for [`Builder::add_shape`]): finite, at least 4 and not
    /// coplanar (hulled by parry; interior points are dropped).
    pub fn add_hull_shape(&mut self, parent: Parent, x: [f64; 3], q: [f64; 4], points: &[[f64; 3]]) -> Result<ShapeId> {
        let points: Vec<V3> = points.iter().map(|&p| V3::from(p)).collect();
        let hull = Hull::new(&points)?;
        self.add_geometry(parent, x, q, Geometry::Hull(Arc::new(hull)))
    }

    /// A height field in the world (terrain) at `x`, `q`: `heights` row-major, `rows` ×
    /// `cols` (each ≥ 2), on cells of `dx` × `dy` (> 0), centred on the shape frame's
    /// origin, z up (`model::terrain::HeightField`). Only the world may carry it.
    #[allow(clippy::too_many_arguments)]
    pub fn add_heightfield_shape(&mut self, parent: Parent, x: [f64; 3], q: [f64; 4], heights: &[f64], rows: usize, cols: usize, dx: f64, dy: f64) -> Result<ShapeId> {
        static_only(parent, "a height field")?;
        let field = HeightField::new(rows, cols, dx, dy, heights)?;
        self.add_geometry(parent, x, q, Geometry::HeightField(Arc::new(field)))
    }

    /// A triangle mesh in the world at `x`, `q`: `vertices` in the shape frame, each
    /// triangle three indices into them (`model::terrain::TriangleMesh`). Only the world
    /// may carry it.
    pub fn add_trimesh_shape(&mut self, parent: Parent, x: [f64; 3], q: [f64; 4], vertices: &[[f64; 3]], triangles: &[[u32; 3]]) -> Result<ShapeId> {
        static_only(parent, "a triangle mesh")?;
        let vertices: Vec<V3> = vertices.iter().map(|&p| V3::from(p)).collect();
        let mesh = TriangleMesh::new(&vertices, triangles)?;
        self.add_geometry(parent, x, q, Geometry::TriMesh(Arc::new(mesh)))
    }

    /// A collision shape of an already built geometry (a hull shared between shapes).
    pub fn add_geometry(&mut self, parent: Parent, x: [f64; 3], q: [f64; 4], geometry: Geometry) -> Result<ShapeId> {
        let body = parent.body();
        if let Some(b) = body {
            self.body(b)?;
        }
        if matches!(geometry, Geometry::HeightField(_) | Geometry::TriMesh(_)) {
            static_only(parent, "static world geometry")?;
        }
        geometry.validate("params").map_err(|e| as_shape_error("params", e))?;
        let placed = Shape::with_geometry(body, x, q, geometry).map_err(|e| as_shape_error("pose", e))?;
        let Shape::Placed { q, geometry, .. } = placed else { unreachable!("Shape::with_geometry places") };
        self.collision.shapes.push(CollisionShape { body, x: V3::from(x), q, geometry, friction: DEFAULT_SHAPE_FRICTION, group: 1, mask: u32::MAX });
        Ok(self.collision.shapes.len() - 1)
    }

    /// Sets the surface friction coefficient of `shape` (finite, ≥ 0). A pair's is the
    /// smaller of its two shapes'.
    pub fn set_shape_friction(&mut self, shape: ShapeId, friction: f64) -> Result<()> {
        self.shape(shape)?;
        check_finite("friction", &[friction])?;
        if friction < 0.0 {
            return Err(Error::InvalidArgument("friction", format!("{friction} must be ≥ 0")));
        }
        self.collision.shapes[shape].friction = friction;
        Ok(())
    }

    /// Sets the collision group bits of `shape` and the groups it collides with: two shapes
    /// collide when each one's group shares a bit with the other's mask.
    pub fn set_collision_filter(&mut self, shape: ShapeId, group: u32, mask: u32) -> Result<()> {
        self.shape(shape)?;
        let s = &mut self.collision.shapes[shape];
        (s.group, s.mask) = (group, mask);
        Ok(())
    }

    /// Shapes `a` and `b` never collide.
    pub fn exclude_shape_pair(&mut self, a: ShapeId, b: ShapeId) -> Result<()> {
        self.shape(a)?;
        self.shape(b)?;
        if a == b {
            return Err(Error::InvalidArgument("shape_b", format!("shape {a} cannot be excluded from itself")));
        }
        let pair = (a.min(b), a.max(b));
        if let Err(at) = self.collision.excluded.binary_search(&pair) {
            self.collision.excluded.insert(at, pair);
        }
        Ok(())
    }

    /// The friction cone of every contact between shapes (`directions`: even, 2–16, for
    /// the linear cone; ignored by the second-order cone). Linear with 4 by default.
    pub fn set_collision_cone(&mut self, cone: ConeType, directions: usize) -> Result<()> {
        if cone == ConeType::Linear && (directions < 2 || directions % 2 != 0 || directions > MAX_DIRECTIONS) {
            return Err(Error::InvalidArgument("directions", format!("{directions} must be even, between 2 and {MAX_DIRECTIONS}")));
        }
        self.collision.cone = cone;
        if cone == ConeType::Linear {
            self.collision.directions = directions;
        }
        Ok(())
    }

    /// Most contact slots (points between collision shapes) a step may hold at once
    /// (`collision::slot_capacity` gives the default). A step that needs more is refused
    /// with `Error::ContactCapacity`; a saved state holds this many slots, so its size
    /// depends on the model alone.
    pub fn set_contact_capacity(&mut self, slots: usize) -> Result<()> {
        if slots > MAX_CONTACT_CAPACITY {
            return Err(Error::InvalidArgument("slots", format!("{slots} is more than the most a model may hold, {MAX_CONTACT_CAPACITY}")));
        }
        self.collision.capacity = Some(slots);
        Ok(())
    }

    /// Whether the shapes of a joint's two bodies collide (off by default).
    pub fn set_jointed_bodies_collide(&mut self, collide: bool) {
        self.collision.jointed_bodies_collide = collide;
    }

    pub fn shape_count(&self) -> usize {
        self.collision.shapes.len()
    }

    pub fn shape(&self, id: ShapeId) -> Result<&CollisionShape> {
        self.collision.shapes.get(id).ok_or(Error::UnknownShape(id as i32))
    }
}

/// Height fields and triangle meshes are static world geometry: the narrow phase collides
/// them triangle by triangle with a body's convex shape, and two of them never meet.
fn static_only(parent: Parent, what: &str) -> Result<()> {
    match parent.body() {
        None => Ok(()),
        Some(b) => Err(Error::InvalidShape("body", format!("{what} is static world geometry: add it to the world, not to body {b}"))),
    }
}

/// A shape's bad parameter or pose as its own error (the C status INVALID_SHAPE); a
/// non-finite number stays NON_FINITE.
fn as_shape_error(name: &'static str, e: Error) -> Error {
    match e {
        Error::InvalidArgument(_, m) => Error::InvalidShape(name, m),
        Error::WrongLength { got, expected, .. } => Error::InvalidShape(name, format!("{got} parameters, the shape type takes {expected}")),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Inertia;

    #[test]
    fn shapes_are_checked_before_they_are_added() {
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::sphere(1.0, 0.1).unwrap()).unwrap();
        let id = [1.0, 0.0, 0.0, 0.0];
        let ball = b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], id, &[0.1]).unwrap();
        let ground = b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], id, &[]).unwrap();
        assert_eq!((ball, ground, b.shape_count()), (0, 1, 2));
        let e = b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], id, &[-0.1]).unwrap_err();
        assert!(matches!(&e, Error::InvalidShape("params", m) if m.contains("sphere radius -0.1 must be ≥ 0")), "{e}");
        let e = b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], id, &[0.1, 0.1]).unwrap_err();
        assert!(matches!(&e, Error::InvalidShape("params", m) if m.contains("2 parameters, the shape type takes 3")), "{e}");
        assert_eq!(b.add_shape(body.into(), ShapeKind::Sphere, [f64::NAN, 0.0, 0.0], id, &[0.1]), Err(Error::NonFinite("pose")));
        assert!(matches!(b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], [1.0, 0.2, 0.0, 0.0], &[0.1]), Err(Error::InvalidShape("pose", _))));
        assert_eq!(b.add_shape(Parent::Body(7), ShapeKind::Sphere, [0.0; 3], id, &[0.1]), Err(Error::UnknownBody(7)));
        assert_eq!(b.shape_count(), 2, "refused shapes change nothing");
        assert_eq!(b.set_shape_friction(5, 0.3), Err(Error::UnknownShape(5)));
        assert!(b.set_shape_friction(ball, -0.3).is_err());
        b.set_shape_friction(ball, 0.3).unwrap();
        b.set_collision_filter(ball, 2, 3).unwrap();
        b.exclude_shape_pair(ground, ball).unwrap();
        b.exclude_shape_pair(ball, ground).unwrap();
        assert!(b.exclude_shape_pair(ball, ball).is_err());
        let s = b.shape(ball).unwrap();
        assert_eq!((s.friction, s.group, s.mask), (0.3, 2, 3));
        assert_eq!(b.collision.excluded, vec![(0, 1)]);
        assert!(b.set_collision_cone(ConeType::Linear, 3).is_err());
        b.set_collision_cone(ConeType::Nonlinear, 0).unwrap();
        assert_eq!((b.collision.cone, b.collision.directions), (ConeType::Nonlinear, 4));
    }
}
