//! Contact shapes: the primitives a contact description names, each on a body or fixed in
//! the world. Descriptions only: the narrow phase that reads them is
//! `contact::geometry::pairs`.
//!
//! The general form is [`Shape::Placed`]: a [`Geometry`] (sphere, capsule, box, cylinder,
//! half-space) on a body or the world at a pose (position, unit quaternion) in that body's
//! frame, whose origin is the centre of mass: what `maxdyn_builder_add_shape` takes.
//! [`Shape::Plane`] (a world half-space by normal and offset) and [`Shape::Sphere`] (a
//! sphere on a body by its centre) are the short forms today's contact setters use.

use std::sync::Arc;

use super::hull::Hull;
use super::terrain::{HeightField, TriangleMesh};
use super::BodyId;
use crate::error::{check_finite, check_len, Error, Result};
use crate::math::{V3, V4};

/// Tolerance of a plane's unit normal, on |n|² − 1 (a normalized vector is within ulps).
const UNIT_NORMAL_TOLERANCE: f64 = 1e-12;

/// Tolerance of a pose's unit quaternion, on |q|² − 1: 9-digit constants pass (the
/// quaternion is then normalized), a quaternion that is not meant to be unit does not.
const UNIT_QUATERNION_TOLERANCE: f64 = 1e-9;

/// Shape kinds, in the order of the narrow phase's pair table (a pair function takes the
/// lower kind first). Discriminants are the C ABI's shape numbers (`MAXDYN_SHAPE_*`): a
/// new kind takes the next one.
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ShapeKind {
    Plane = 0,
    Sphere = 1,
    Capsule = 2,
    Box = 3,
    Cylinder = 4,
    /// A convex hull of points (`Builder::add_hull_shape`; a URDF `<mesh>`).
    Hull = 5,
    /// A grid of heights, static world terrain (`Builder::add_heightfield_shape`).
    HeightField = 6,
    /// A triangle mesh, static world geometry (`Builder::add_trimesh_shape`).
    TriMesh = 7,
}

/// Number of shape kinds (the pair table's size).
pub const SHAPE_KINDS: usize = 8;

impl ShapeKind {
    /// Every kind, in discriminant order.
    pub const ALL: [ShapeKind; SHAPE_KINDS] =
        [ShapeKind::Plane, ShapeKind::Sphere, ShapeKind::Capsule, ShapeKind::Box, ShapeKind::Cylinder, ShapeKind::Hull, ShapeKind::HeightField, ShapeKind::TriMesh];

    /// The kind with C shape number `v`.
    pub fn from_i32(v: i32) -> Option<ShapeKind> {
        ShapeKind::ALL.into_iter().find(|&k| k as i32 == v)
    }

    /// Number of parameters of the kind (C `params`, in [`Geometry`]'s field order; a hull
    /// takes points instead, a height field heights, a triangle mesh vertices).
    pub fn parameter_count(self) -> usize {
        match self {
            ShapeKind::Plane | ShapeKind::Hull | ShapeKind::HeightField | ShapeKind::TriMesh => 0,
            ShapeKind::Sphere => 1,
            ShapeKind::Capsule | ShapeKind::Cylinder => 2,
            ShapeKind::Box => 3,
        }
    }
}

/// Shape pairs with a narrow-phase function, [lower kind][higher kind]. The geometry
/// checks its table against this one when it compiles (`contact::geometry::pairs`), so
/// the two cannot disagree.
pub const PAIRS: [[bool; SHAPE_KINDS]; SHAPE_KINDS] = [
    // Plane:    plane (two half-spaces), sphere, capsule, box, cylinder, hull; static world
    //           geometry never meets static world geometry
    [false, true, true, true, true, true, false, false],
    // Sphere:   sphere, capsule, box, cylinder, hull, height field, triangle mesh
    [false, true, true, true, true, true, true, true],
    // Capsule:  capsule, box, cylinder, hull, height field, triangle mesh
    [false, false, true, true, true, true, true, true],
    // Box:      box, cylinder, hull, height field, triangle mesh
    [false, false, false, true, true, true, true, true],
    // Cylinder: cylinder, hull, height field, triangle mesh
    [false, false, false, false, true, true, true, true],
    // Hull:     hull, height field, triangle mesh
    [false, false, false, false, false, true, true, true],
    // Height field: height field, triangle mesh
    [false, false, false, false, false, false, false, false],
    // Triangle mesh: triangle mesh
    [false, false, false, false, false, false, false, false],
];

/// Whether shapes of kinds `a` and `b` (either order) have a narrow-phase function.
pub fn has_narrow_phase(a: ShapeKind, b: ShapeKind) -> bool {
    PAIRS[a.min(b) as usize][a.max(b) as usize]
}

/// Whether a contact description (`Builder::add_contact`) takes kinds `a` and `b`: the
/// pairs that always write exactly one point, as a description has one point slot
/// (`step::narrow_phase`). Pairs with several points wait for multi-point contacts.
pub fn pair_supported(a: ShapeKind, b: ShapeKind) -> bool {
    use ShapeKind::{Plane, Sphere};
    matches!((a.min(b), a.max(b)), (Plane, Sphere) | (Sphere, Sphere))
}

/// A shape's geometry in its own frame (the frame its pose places).
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    /// The half-space below the x–y plane (z ≤ 0); its boundary's outward normal is +z.
    HalfSpace,
    /// The ball of `radius` (0: a point) about the origin.
    Sphere { radius: f64 },
    /// The points within `radius` of the segment from z = −half_length to +half_length.
    Capsule { radius: f64, half_length: f64 },
    /// |x| ≤ half_extents.x, |y| ≤ half_extents.y, |z| ≤ half_extents.z.
    Box { half_extents: V3 },
    /// x² + y² ≤ radius², |z| ≤ half_length.
    Cylinder { radius: f64, half_length: f64 },
    /// The convex hull of points (shared: cloning a model shares it).
    Hull(Arc<Hull>),
    /// A grid of heights (terrain), in the world only (shared).
    HeightField(Arc<HeightField>),
    /// A triangle mesh, in the world only (shared).
    TriMesh(Arc<TriangleMesh>),
}

impl Geometry {
    pub fn kind(&self) -> ShapeKind {
        match self {
            Geometry::HalfSpace => ShapeKind::Plane,
            Geometry::Sphere { .. } => ShapeKind::Sphere,
            Geometry::Capsule { .. } => ShapeKind::Capsule,
            Geometry::Box { .. } => ShapeKind::Box,
            Geometry::Cylinder { .. } => ShapeKind::Cylinder,
            Geometry::Hull(_) => ShapeKind::Hull,
            Geometry::HeightField(_) => ShapeKind::HeightField,
            Geometry::TriMesh(_) => ShapeKind::TriMesh,
        }
    }

    /// Radius of the smallest ball about the shape's origin that holds it (infinite for a
    /// half-space): how far a point of the shape is from its origin at most.
    pub fn bounding_radius(&self) -> f64 {
        match *self {
            Geometry::HalfSpace => f64::INFINITY,
            Geometry::Sphere { radius } => radius,
            Geometry::Capsule { radius, half_length } => radius + half_length,
            Geometry::Box { half_extents } => half_extents.norm(),
            Geometry::Cylinder { radius, half_length } => radius.hypot(half_length),
            Geometry::Hull(ref h) => h.bounding_radius(),
            Geometry::HeightField(ref h) => h.bounding_radius(),
            Geometry::TriMesh(ref m) => m.bounding_radius(),
        }
    }

    /// The geometry of `kind` from its parameters in C order (radius; radius and
    /// half-length; three half extents; none for a plane), checked by [`Geometry::validate`].
    pub fn new(kind: ShapeKind, params: &[f64]) -> Result<Geometry> {
        check_len("params", params.len(), kind.parameter_count())?;
        let g = match kind {
            ShapeKind::Plane => Geometry::HalfSpace,
            ShapeKind::Sphere => Geometry::Sphere { radius: params[0] },
            ShapeKind::Capsule => Geometry::Capsule { radius: params[0], half_length: params[1] },
            ShapeKind::Box => Geometry::Box { half_extents: V3::new(params[0], params[1], params[2]) },
            ShapeKind::Cylinder => Geometry::Cylinder { radius: params[0], half_length: params[1] },
            ShapeKind::Hull => return Err(Error::InvalidArgument("kind", "a hull is made from points (add_hull_shape), not parameters".into())),
            ShapeKind::HeightField => return Err(Error::InvalidArgument("kind", "a height field is made from heights (add_heightfield_shape), not parameters".into())),
            ShapeKind::TriMesh => return Err(Error::InvalidArgument("kind", "a triangle mesh is made from vertices and triangles (add_trimesh_shape), not parameters".into())),
        };
        g.validate("params")?;
        g.check_size("params")?;
        Ok(g)
    }

    /// Finite parameters; radii and half-lengths ≥ 0 (a capsule of radius 0 is a segment);
    /// a box's half extents and a cylinder's radius > 0 (their faces need an area).
    pub fn validate(&self, side: &'static str) -> Result<()> {
        let bad = |what: &str, v: f64, rule: &str| Err(Error::InvalidArgument(side, format!("{what} {v} must be {rule}")));
        match *self {
            Geometry::HalfSpace => {}
            Geometry::Sphere { radius } => {
                check_finite(side, &[radius])?;
                if radius < 0.0 {
                    return bad("sphere radius", radius, "≥ 0");
                }
            }
            Geometry::Capsule { radius, half_length } => {
                check_finite(side, &[radius, half_length])?;
                if radius < 0.0 {
                    return bad("capsule radius", radius, "≥ 0");
                }
                if half_length < 0.0 {
                    return bad("capsule half_length", half_length, "≥ 0");
                }
            }
            Geometry::Box { half_extents: e } => {
                check_finite(side, &[e.x, e.y, e.z])?;
                if let Some(&v) = e.iter().find(|&&v| v <= 0.0) {
                    return bad("box half extent", v, "> 0");
                }
            }
            Geometry::Cylinder { radius, half_length } => {
                check_finite(side, &[radius, half_length])?;
                if radius <= 0.0 {
                    return bad("cylinder radius", radius, "> 0");
                }
                if half_length < 0.0 {
                    return bad("cylinder half_length", half_length, "≥ 0");
                }
            }
            // checked when they were built (Hull::new, HeightField::new, TriangleMesh::new)
            Geometry::Hull(_) | Geometry::HeightField(_) | Geometry::TriMesh(_) => {}
        }
        Ok(())
    }

    /// No size (radius, half-length, half extent) beyond [`MAX_SHAPE_SIZE`]: a collision
    /// shape's bound (contact descriptions, `Shape::Sphere` and `Shape::Plane`, are not
    /// searched and keep their own checks).
    pub fn check_size(&self, side: &'static str) -> Result<()> {
        let hull_radius;
        let sizes: &[f64] = match self {
            Geometry::HalfSpace => &[],
            Geometry::Sphere { radius } => &[*radius],
            Geometry::Capsule { radius, half_length } | Geometry::Cylinder { radius, half_length } => &[*radius, *half_length],
            Geometry::Box { half_extents } => half_extents.as_slice(),
            // a hull's size: its farthest point from its frame's origin
            Geometry::Hull(h) => {
                hull_radius = [h.bounding_radius()];
                &hull_radius
            }
            // sizes checked when built; the distance of a point from the frame's origin
            // is the pose's bound's business
            Geometry::HeightField(_) | Geometry::TriMesh(_) => &[],
        };
        if let Some(&v) = sizes.iter().find(|v| v.abs() > MAX_SHAPE_SIZE) {
            return Err(beyond_the_bound(side, &format!("{:?} size", self.kind()).to_lowercase(), v));
        }
        Ok(())
    }
}

pub use super::size_bound::MAX_SHAPE_SIZE;

/// |x| without overflow (the norm of components near 1e300 squares to infinity).
fn distance(x: &V3) -> f64 {
    let m = x.amax();
    if m == 0.0 { 0.0 } else { m * (x / m).norm() }
}

/// The refusal of a size or distance `v` beyond [`MAX_SHAPE_SIZE`], naming both.
fn beyond_the_bound(side: &'static str, what: &str, v: f64) -> Error {
    Error::InvalidArgument(side, format!("{what} {v:e} is beyond {MAX_SHAPE_SIZE:e} m, the largest whose contacts doubles resolve (MAX_SHAPE_SIZE)"))
}

/// A primitive shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// The world half-space {x : normal·x ≤ offset} (`normal` unit length), which keeps
    /// bodies on the side normal·x ≥ offset.
    Plane { normal: V3, offset: f64 },
    /// A sphere of `radius` (0: a point) centred at `centre` in the frame of `body`.
    Sphere { body: BodyId, centre: V3, radius: f64 },
    /// `geometry` on `body` (None: the world) at position `x` and orientation `q` (unit,
    /// w, x, y, z) in that body's frame.
    Placed { body: Option<BodyId>, x: V3, q: V4, geometry: Geometry },
}

impl Shape {
    /// A shape of `kind` with C-order `params` on `body` (None: the world) at pose
    /// (`x`, `q`) in the body frame; `q` must be unit to 1e-9 on |q|² and is normalized.
    pub fn placed(body: Option<BodyId>, x: [f64; 3], q: [f64; 4], kind: ShapeKind, params: &[f64]) -> Result<Shape> {
        Shape::with_geometry(body, x, q, Geometry::new(kind, params)?)
    }

    /// [`Shape::placed`] for a geometry already built and checked (a hull).
    pub fn with_geometry(body: Option<BodyId>, x: [f64; 3], q: [f64; 4], geometry: Geometry) -> Result<Shape> {
        let shape = Shape::Placed { body, x: V3::from(x), q: V4::from(q), geometry };
        shape.validate("pose")?;
        let Shape::Placed { geometry, .. } = shape else { unreachable!() };
        Ok(Shape::Placed { body, x: V3::from(x), q: V4::from(q).normalize(), geometry })
    }

    pub fn kind(&self) -> ShapeKind {
        match self {
            Shape::Plane { .. } => ShapeKind::Plane,
            Shape::Sphere { .. } => ShapeKind::Sphere,
            Shape::Placed { geometry, .. } => geometry.kind(),
        }
    }

    /// The body carrying the shape; None: the world.
    pub fn body(&self) -> Option<BodyId> {
        match *self {
            Shape::Plane { .. } => None,
            Shape::Sphere { body, .. } => Some(body),
            Shape::Placed { body, .. } => body,
        }
    }

    /// Checks the shape's own parameters (not its body, which the builder knows): finite
    /// numbers, radii ≥ 0, unit normals and quaternions. Errors name the argument `side`.
    pub fn validate(&self, side: &'static str) -> Result<()> {
        match *self {
            Shape::Plane { normal, offset } => {
                check_finite(side, &[normal.x, normal.y, normal.z, offset])?;
                if (normal.norm_squared() - 1.0).abs() > UNIT_NORMAL_TOLERANCE {
                    return Err(Error::InvalidArgument(side, format!("plane normal {normal:?} must have unit length")));
                }
            }
            Shape::Sphere { centre, radius, .. } => {
                check_finite(side, &[centre.x, centre.y, centre.z])?;
                Geometry::Sphere { radius }.validate(side)?;
            }
            Shape::Placed { x, q, ref geometry, .. } => {
                check_finite(side, &[x.x, x.y, x.z, q[0], q[1], q[2], q[3]])?;
                if (q.norm_squared() - 1.0).abs() > UNIT_QUATERNION_TOLERANCE {
                    return Err(Error::InvalidArgument(side, format!("pose quaternion {:?} must have unit length", q.as_slice())));
                }
                if distance(&x) > MAX_SHAPE_SIZE {
                    return Err(beyond_the_bound(side, "distance of the shape from its body's origin", distance(&x)));
                }
                geometry.validate(side)?;
                geometry.check_size(side)?;
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
        assert_eq!((ShapeKind::Plane as i32, ShapeKind::Sphere as i32, ShapeKind::Capsule as i32), (0, 1, 2));
        assert_eq!((ShapeKind::Box as i32, ShapeKind::Cylinder as i32, ShapeKind::Hull as i32), (3, 4, 5));
        assert_eq!((ShapeKind::HeightField as i32, ShapeKind::TriMesh as i32), (6, 7));
        assert_eq!(ShapeKind::from_i32(SHAPE_KINDS as i32), None);
        assert_eq!(ShapeKind::from_i32(-1), None);
    }

    #[test]
    fn pair_support_is_symmetric() {
        use ShapeKind::*;
        assert!(pair_supported(Sphere, Plane) && pair_supported(Plane, Sphere));
        assert!(pair_supported(Sphere, Sphere));
        assert!(!pair_supported(Plane, Plane));
        // several-point pairs have a narrow phase but no description slot yet
        assert!(has_narrow_phase(Box, Plane) && has_narrow_phase(Plane, Box) && !pair_supported(Box, Plane));
        assert!(has_narrow_phase(Capsule, Box) && has_narrow_phase(Cylinder, Box) && has_narrow_phase(Hull, Cylinder));
        for a in ShapeKind::ALL {
            for b in ShapeKind::ALL {
                assert_eq!(has_narrow_phase(a, b), has_narrow_phase(b, a));
                assert!(!pair_supported(a, b) || has_narrow_phase(a, b));
            }
        }
    }

    #[test]
    fn placed_shapes_from_c_parameters() {
        let q = [0.5f64.sqrt(), 0.5f64.sqrt(), 0.0, 0.0];
        let s = Shape::placed(Some(2), [0.1, 0.0, 0.0], q, ShapeKind::Capsule, &[0.05, 0.3]).unwrap();
        assert_eq!((s.kind(), s.body()), (ShapeKind::Capsule, Some(2)));
        let Shape::Placed { q: stored, geometry, .. } = s else { panic!("placed") };
        assert!((stored.norm() - 1.0).abs() < 1e-15);
        assert_eq!(geometry, Geometry::Capsule { radius: 0.05, half_length: 0.3 });
        let ground = Shape::placed(None, [0.0; 3], [1.0, 0.0, 0.0, 0.0], ShapeKind::Plane, &[]).unwrap();
        assert_eq!((ground.kind(), ground.body()), (ShapeKind::Plane, None));
        let b = Shape::placed(Some(0), [0.0; 3], [1.0, 0.0, 0.0, 0.0], ShapeKind::Box, &[0.1, 0.2, 0.3]).unwrap();
        assert_eq!(b.kind(), ShapeKind::Box);
    }

    #[test]
    fn bad_parameters_get_specific_errors() {
        let id = [1.0, 0.0, 0.0, 0.0];
        let err = |kind, params: &[f64]| Shape::placed(Some(0), [0.0; 3], id, kind, params).unwrap_err();
        let says = |e: Error, text: &str| matches!(&e, Error::InvalidArgument("params", m) if m.contains(text));
        assert!(says(err(ShapeKind::Sphere, &[-0.1]), "sphere radius -0.1 must be ≥ 0"));
        assert!(says(err(ShapeKind::Capsule, &[0.1, -1.0]), "capsule half_length -1 must be ≥ 0"));
        assert!(says(err(ShapeKind::Box, &[0.1, 0.0, 0.2]), "box half extent 0 must be > 0"));
        assert!(says(err(ShapeKind::Cylinder, &[0.0, 0.2]), "cylinder radius 0 must be > 0"));
        assert_eq!(err(ShapeKind::Capsule, &[f64::NAN, 0.2]), Error::NonFinite("params"));
        assert_eq!(err(ShapeKind::Box, &[0.1, 0.2]), Error::WrongLength { name: "params", got: 2, expected: 3 });
        let pose = |x: [f64; 3], q: [f64; 4]| Shape::placed(None, x, q, ShapeKind::Sphere, &[0.1]).unwrap_err();
        assert_eq!(pose([0.0, f64::NAN, 0.0], id), Error::NonFinite("pose"));
        assert_eq!(pose([0.0; 3], [1.0, 0.0, f64::INFINITY, 0.0]), Error::NonFinite("pose"));
        assert!(matches!(pose([0.0; 3], [1.0, 0.1, 0.0, 0.0]), Error::InvalidArgument("pose", m) if m.contains("quaternion")));
        // a 9-digit quaternion is unit enough, and is stored normalized (not 1/√2 exactly, on purpose)
        #[allow(clippy::approx_constant)]
        let nine_digits = [0.707106781, 0.707106781, 0.0, 0.0];
        assert!(Shape::placed(None, [0.0; 3], nine_digits, ShapeKind::Sphere, &[0.1]).is_ok());
    }

    /// Why the bound sits below 1e15 m: a sphere of radius 1e15 resting on the ground and
    /// moving down at 1 m/s (added past the builder's check) finds no contact and steps OK
    /// through the ground, silently; at 1e14 the step still sees the contact, but its
    /// positions' spacing (1.6e-2 m) defeats the solver's tolerance: the first step ends
    /// in a split whose stalled half is accepted with the sphere thrown up at 40 m/s (it
    /// failed with a status while the plain solve's failures were retried refined, which
    /// spent the split's budget).
    #[test]
    fn the_bound_is_below_where_contacts_are_lost() {
        use crate::model::collision::CollisionShape;
        use crate::model::{Builder, Inertia, Model, Parent};
        use crate::sim::Sim;
        let fall = |s: f64| {
            let mut b = Builder::new();
            let body = b.add_body(1.0, Inertia::diagonal(1.0, 1.0, 1.0).unwrap()).unwrap();
            b.set_body_pose(body, [0.0, 0.0, s], [1.0, 0.0, 0.0, 0.0]).unwrap();
            b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], [1.0, 0.0, 0.0, 0.0], &[]).unwrap();
            let sphere = CollisionShape { body: Some(body), x: V3::zeros(), q: V4::new(1.0, 0.0, 0.0, 0.0), geometry: Geometry::Sphere { radius: s }, friction: 1.0, group: 1, mask: u32::MAX };
            b.collision.shapes.push(sphere);
            let mut sim = Sim::new(std::sync::Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
            let mut st = sim.body_state(body).unwrap();
            st[9] = -1.0;
            sim.set_body_state(body, &st).unwrap();
            let mut contacts = 0;
            for _ in 0..10 {
                sim.step().map_err(|e| e.to_string())?;
                contacts += sim.shape_contact_count();
            }
            Ok::<usize, String>(contacts)
        };
        assert_eq!(fall(1e15), Ok(0), "beyond the bound the contact is lost and the steps say OK");
        let seen = fall(1e14);
        assert!(matches!(&seen, Err(e) if e.contains("did not converge")) || matches!(seen, Ok(n) if n >= 1), "{seen:?}");
        assert!(MAX_SHAPE_SIZE < 1e14);
    }
}
