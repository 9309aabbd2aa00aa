//! What a recording draws of a model: its shapes, each on a body or the world at a pose in
//! that frame. [`drawn_shapes`] is the one list; a new kind of model geometry adds its
//! arm there.
//!
//! The shapes that touch are drawn as they are: those of the contact descriptions
//! (`model.contacts`) and the collision shapes (`model.collision`). Bodies are drawn as links besides: a capsule from the body's centre of mass to every point
//! where something attaches to it (a joint point, a contact sphere's centre). A body with
//! neither such a point nor a contact shape of some size (a free box resting on corner
//! points) is drawn as its inertia box: the uniform box of its mass and principal moments.

use crate::math::{V3, V4};
use crate::model::shape::{Geometry, Shape};
use crate::model::Model;

/// Why a shape is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A shape that takes part in contacts.
    Contact,
    /// A link drawing: centre of mass to an attachment point.
    Link,
    /// The body's inertia box (bodies without attachment points).
    Inertia,
}

impl Role {
    pub fn name(self) -> &'static str {
        match self {
            Role::Contact => "contact",
            Role::Link => "link",
            Role::Inertia => "inertia",
        }
    }
}

/// A geometry on `body` (None: the world) at position `x`, orientation `q` (w, x, y, z)
/// in the body frame (centre of mass origin).
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnShape {
    pub body: Option<usize>,
    pub x: V3,
    pub q: V4,
    pub geometry: Geometry,
    pub role: Role,
}

const IDENTITY: V4 = V4::new(1.0, 0.0, 0.0, 0.0);

/// Link capsules get a radius of this fraction of their length, within the bounds below.
const LINK_RADIUS_FRACTION: f64 = 0.08;
const LINK_RADIUS_MIN: f64 = 0.005;
const LINK_RADIUS_MAX: f64 = 0.04;
/// Attachment points closer than this to the centre of mass draw no capsule (m).
const SHORTEST_LINK: f64 = 1e-6;

/// Every shape a viewer should draw of `model`: contact shapes first (in contact order,
/// each shape once), then the collision shapes, then the link capsules and inertia boxes
/// body by body.
pub fn drawn_shapes(model: &Model) -> Vec<DrawnShape> {
    let mut out: Vec<DrawnShape> = Vec::new();
    for c in &model.contacts {
        for s in &c.shapes {
            let d = contact_shape(s);
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    for c in &model.collision.shapes {
        let d = DrawnShape { body: c.body, x: c.x, q: c.q, geometry: c.geometry.clone(), role: Role::Contact };
        if !out.contains(&d) {
            out.push(d);
        }
    }
    let points = attachment_points(model);
    for (body, pts) in points.iter().enumerate() {
        let mut drawn = out.iter().any(|s| s.body == Some(body) && has_volume(&s.geometry));
        for p in pts {
            if let Some(capsule) = link_capsule(body, p) {
                if !out.contains(&capsule) {
                    out.push(capsule);
                }
                drawn = true;
            }
        }
        if !drawn {
            out.push(inertia_box(model, body));
        }
    }
    out
}

/// Whether a body's shape shows the body (a contact point, a sphere of radius 0, does not).
fn has_volume(g: &Geometry) -> bool {
    match *g {
        Geometry::Sphere { radius } | Geometry::Capsule { radius, .. } => radius > 0.0,
        Geometry::HalfSpace | Geometry::Box { .. } | Geometry::Cylinder { .. } | Geometry::Hull(_) | Geometry::HeightField(_) | Geometry::TriMesh(_) => true,
    }
}

fn contact_shape(s: &Shape) -> DrawnShape {
    let (body, x, q, geometry) = match *s {
        // the half-space n·x ≤ offset: its boundary through n·offset, +z turned onto n
        Shape::Plane { normal, offset } => (None, normal * offset, z_onto(&normal), Geometry::HalfSpace),
        Shape::Sphere { body, centre, radius } => (Some(body), centre, IDENTITY, Geometry::Sphere { radius }),
        Shape::Placed { body, x, q, ref geometry } => (body, x, q, geometry.clone()),
    };
    DrawnShape { body, x, q, geometry, role: Role::Contact }
}

/// Per body, the points (body frame) where joints and contact spheres attach.
fn attachment_points(model: &Model) -> Vec<Vec<V3>> {
    let mut points = vec![Vec::new(); model.body_count()];
    for j in &model.joints {
        if let Some(p) = j.parent {
            points[p].push(j.p_parent);
        }
        points[j.child].push(j.p_child);
    }
    for c in &model.contacts {
        for s in &c.shapes {
            match *s {
                Shape::Sphere { body, centre, .. } => points[body].push(centre),
                Shape::Placed { body: Some(body), x, .. } => points[body].push(x),
                _ => {}
            }
        }
    }
    points
}

/// The capsule from the centre of mass (origin) to `p` in `body`'s frame.
fn link_capsule(body: usize, p: &V3) -> Option<DrawnShape> {
    let length = p.norm();
    if length < SHORTEST_LINK {
        return None;
    }
    let radius = (LINK_RADIUS_FRACTION * length).clamp(LINK_RADIUS_MIN, LINK_RADIUS_MAX);
    let geometry = Geometry::Capsule { radius, half_length: 0.5 * length };
    Some(DrawnShape { body: Some(body), x: p * 0.5, q: z_onto(p), geometry, role: Role::Link })
}

/// The uniform box with the body's mass and principal moments, along its principal axes.
fn inertia_box(model: &Model, body: usize) -> DrawnShape {
    let b = &model.bodies[body];
    let eig = b.inertia.symmetric_eigen();
    let i = eig.eigenvalues;
    // I_x = m/12 (b² + c²) and cyclic: a² = 6 (I_y + I_z − I_x) / m
    let edge = |a: f64, b2: f64, c: f64| (6.0 * (b2 + c - a) / b.mass).max(0.0).sqrt();
    let half = V3::new(edge(i.x, i.y, i.z), edge(i.y, i.z, i.x), edge(i.z, i.x, i.y)) * 0.5;
    let mut axes = eig.eigenvectors;
    if axes.determinant() < 0.0 {
        axes.column_mut(2).neg_mut();
    }
    let r = nalgebra::Rotation3::from_matrix_unchecked(axes);
    let uq = nalgebra::UnitQuaternion::from_rotation_matrix(&r);
    let q = V4::new(uq.w, uq.i, uq.j, uq.k);
    let half_extents = half.map(|h| h.max(LINK_RADIUS_MIN));
    DrawnShape { body: Some(body), x: V3::zeros(), q, geometry: Geometry::Box { half_extents }, role: Role::Inertia }
}

/// The unit quaternion (w, x, y, z) turning +z onto the direction of `d` (d ≠ 0).
fn z_onto(d: &V3) -> V4 {
    let d = d.normalize();
    let w = 1.0 + d.z;
    if w < 1e-12 {
        return V4::new(0.0, 1.0, 0.0, 0.0); // d = −z: half a turn about x
    }
    V4::new(w, -d.y, d.x, 0.0).normalize()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rotation;
    use crate::{Builder, Inertia, JointType, Parent};

    #[test]
    fn z_onto_turns_z_onto_the_direction() {
        for d in [V3::new(0.3, -0.2, 0.9), V3::x(), -V3::z(), V3::z(), V3::new(-1.0, 2.0, -3.0)] {
            let q = z_onto(&d);
            assert!((rotation(&q) * V3::z() - d.normalize()).norm() < 1e-15, "{d:?}");
        }
    }

    #[test]
    fn a_box_inertia_gives_back_its_box() {
        let mut b = Builder::new();
        let body = b.add_body(2.0, Inertia::cuboid(2.0, 0.2, 0.4, 0.6).unwrap()).unwrap();
        let model = Model::new(&b).unwrap();
        let shapes = drawn_shapes(&model);
        assert_eq!(shapes.len(), 1);
        let Geometry::Box { half_extents } = shapes[0].geometry else { panic!("inertia box") };
        // the box's half extents, in the order of its principal axes in the body frame
        let world = (rotation(&shapes[0].q) * half_extents).abs();
        assert!((world - V3::new(0.1, 0.2, 0.3)).norm() < 1e-12, "{world:?}");
        assert_eq!((shapes[0].body, shapes[0].role), (Some(body), Role::Inertia));
    }

    #[test]
    fn a_pendulum_link_runs_from_its_joint_to_its_centre_of_mass() {
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()).unwrap();
        b.add_joint(JointType::Revolute, Parent::World, body, [0.0, 0.0, 1.0], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        b.add_ground_contact(body, [0.0, 0.0, -0.5], 0.1, 0.5).unwrap();
        let model = Model::new(&b).unwrap();
        let shapes = drawn_shapes(&model);
        let roles: Vec<Role> = shapes.iter().map(|s| s.role).collect();
        assert_eq!(roles, [Role::Contact, Role::Contact, Role::Link, Role::Link]);
        assert_eq!(shapes[1].body, None);
        let Geometry::Capsule { half_length, .. } = shapes[2].geometry else { panic!("capsule") };
        assert_eq!(half_length, 0.25);
        // the capsule's +z end is the joint point
        let top = shapes[2].x + rotation(&shapes[2].q) * V3::new(0.0, 0.0, half_length);
        assert!((top - V3::new(0.0, 0.0, 0.5)).norm() < 1e-15);
    }
}
