//! Builder setters for contacts. Each validates every argument before changing anything.

use super::body::check_vec3;
use super::contact::{ConeType, Contact, ContactId, MAX_DIRECTIONS};
use super::error::{check_finite, Error, Result};
use super::shape::{pair_supported, Shape};
use super::{BodyId, Builder};

fn check_radius(name: &'static str, r: f64) -> Result<f64> {
    check_finite(name, &[r])?;
    if r < 0.0 {
        return Err(Error::InvalidArgument(name, format!("{r} must be ≥ 0")));
    }
    Ok(r)
}

fn check_friction(mu: f64) -> Result<f64> {
    check_finite("friction", &[mu])?;
    if mu < 0.0 {
        return Err(Error::InvalidArgument("friction", format!("{mu} must be ≥ 0")));
    }
    Ok(mu)
}

impl Builder {
    /// Checks one side's shape: its body (if any) exists and its parameters are valid.
    fn check_shape(&self, side: &'static str, shape: &Shape) -> Result<()> {
        if let Some(body) = shape.body() {
            self.body(body)?;
        }
        shape.validate(side)
    }

    /// A contact between two shapes with friction coefficient `friction` (0:
    /// frictionless); linear cone with 4 directions by default. At least one shape is on a
    /// body, the two are not on the same body, and the pair is one the narrow phase has a
    /// function for. Side a (where the contact's forces are reported) is `shape_a`, or
    /// `shape_b` if only that one is on a body; the normal points from side b to side a.
    pub fn add_contact(&mut self, shape_a: Shape, shape_b: Shape, friction: f64) -> Result<ContactId> {
        self.check_shape("shape_a", &shape_a)?;
        self.check_shape("shape_b", &shape_b)?;
        let (ka, kb) = (shape_a.kind(), shape_b.kind());
        let shapes = match (shape_a.body(), shape_b.body()) {
            (None, None) => return Err(Error::InvalidArgument("shape_b", "a contact needs a shape on a body; both are on the world".into())),
            (Some(a), Some(b)) if a == b => return Err(Error::InvalidArgument("shape_b", "a contact cannot connect a body to itself".into())),
            (None, Some(_)) => [shape_b, shape_a],
            _ => [shape_a, shape_b],
        };
        if !pair_supported(ka, kb) {
            return Err(Error::InvalidArgument("shape_b", format!("no single-point narrow phase for a {ka:?} against a {kb:?}")));
        }
        let friction = check_friction(friction)?;
        self.contacts.push(Contact { shapes, friction, cone: ConeType::Linear, directions: 4 });
        Ok(self.contacts.len() - 1)
    }

    /// A sphere of `radius` (0: a point) centred at body point `p` (body frame) against the
    /// world half-space normal·x ≥ offset (`normal` is normalized), with friction
    /// coefficient `friction` (0: frictionless). Linear cone with 4 directions by default.
    pub fn add_plane_contact(&mut self, body: BodyId, p: [f64; 3], radius: f64, normal: [f64; 3], offset: f64, friction: f64) -> Result<ContactId> {
        self.body(body)?;
        let p = check_vec3("p", &p)?;
        let radius = check_radius("radius", radius)?;
        let n = check_vec3("normal", &normal)?;
        if n.norm() < 1e-12 {
            return Err(Error::ZeroAxis("normal"));
        }
        check_finite("offset", &[offset])?;
        let friction = check_friction(friction)?;
        self.add_contact(Shape::Sphere { body, centre: p, radius }, Shape::Plane { normal: n.normalize(), offset }, friction)
    }

    /// The same against the ground z ≥ 0.
    pub fn add_ground_contact(&mut self, body: BodyId, p: [f64; 3], radius: f64, friction: f64) -> Result<ContactId> {
        self.add_plane_contact(body, p, radius, [0.0, 0.0, 1.0], 0.0, friction)
    }

    /// Sphere (centre `pa` in body_a's frame, radius `ra`) against sphere (`pb`, `rb`) on
    /// another body.
    // many arguments: one argument per physical parameter, as `maxdyn_builder_add_sphere_contact` takes them
    #[allow(clippy::too_many_arguments)]
    pub fn add_sphere_contact(&mut self, body_a: BodyId, pa: [f64; 3], ra: f64, body_b: BodyId, pb: [f64; 3], rb: f64, friction: f64) -> Result<ContactId> {
        self.body(body_a)?;
        self.body(body_b)?;
        if body_a == body_b {
            return Err(Error::InvalidArgument("body_b", "a contact cannot connect a body to itself".into()));
        }
        let pa = check_vec3("pa", &pa)?;
        let ra = check_radius("ra", ra)?;
        let pb = check_vec3("pb", &pb)?;
        let rb = check_radius("rb", rb)?;
        let friction = check_friction(friction)?;
        self.add_contact(Shape::Sphere { body: body_a, centre: pa, radius: ra }, Shape::Sphere { body: body_b, centre: pb, radius: rb }, friction)
    }

    /// Friction cone of a contact: `Linear` with an even number of `directions` (2…16,
    /// built from the contact normal), or `Nonlinear` (second-order cone; `directions`
    /// ignored).
    pub fn set_contact_cone(&mut self, contact: ContactId, cone: ConeType, directions: usize) -> Result<()> {
        self.contact(contact)?;
        if cone == ConeType::Linear && (directions < 2 || directions % 2 != 0 || directions > MAX_DIRECTIONS) {
            return Err(Error::InvalidArgument("directions", format!("{directions} must be even, between 2 and {MAX_DIRECTIONS}")));
        }
        let c = &mut self.contacts[contact];
        c.cone = cone;
        if cone == ConeType::Linear {
            c.directions = directions;
        }
        Ok(())
    }

    pub fn contact_count(&self) -> usize {
        self.contacts.len()
    }

    pub fn contact(&self, id: ContactId) -> Result<&Contact> {
        self.contacts.get(id).ok_or(Error::UnknownContact(id as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::V3;
    use crate::model::Inertia;

    /// Bodies 0 and 1 (balls of 1 and 2 kg).
    fn two_balls() -> Builder {
        let mut b = Builder::new();
        let ball = |m| Inertia::sphere(m, 0.1).unwrap();
        assert_eq!((b.add_body(1.0, ball(1.0)), b.add_body(2.0, ball(2.0))), (Ok(0), Ok(1)));
        b
    }

    fn sphere(body: BodyId, radius: f64) -> Shape {
        Shape::Sphere { body, centre: V3::new(0.1, 0.0, 0.0), radius }
    }

    fn ground() -> Shape {
        Shape::Plane { normal: V3::z(), offset: 0.0 }
    }

    fn invalid(r: Result<ContactId>) -> (&'static str, String) {
        match r {
            Err(Error::InvalidArgument(name, why)) => (name, why),
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
    }

    #[test]
    fn add_contact_rejects_each_bad_shape_and_adds_nothing() {
        let mut b = two_balls();
        let nan = V3::new(f64::NAN, 0.0, 0.0);
        assert_eq!(b.add_contact(sphere(2, 0.1), ground(), 0.5), Err(Error::UnknownBody(2)));
        assert_eq!(b.add_contact(sphere(0, 0.1), sphere(7, 0.1), 0.5), Err(Error::UnknownBody(7)));
        let off_centre = Shape::Sphere { body: 0, centre: nan, radius: 0.1 };
        assert_eq!(b.add_contact(off_centre, ground(), 0.5), Err(Error::NonFinite("shape_a")));
        assert_eq!(b.add_contact(sphere(0, f64::INFINITY), ground(), 0.5), Err(Error::NonFinite("shape_a")));
        assert_eq!(b.add_contact(sphere(0, 0.1), Shape::Plane { normal: V3::z(), offset: f64::NAN }, 0.5), Err(Error::NonFinite("shape_b")));
        let (name, why) = invalid(b.add_contact(sphere(0, -0.1), ground(), 0.5));
        assert_eq!((name, why.as_str()), ("shape_a", "sphere radius -0.1 must be ≥ 0"));
        let long = Shape::Plane { normal: V3::new(0.0, 0.0, 2.0), offset: 0.0 };
        let (name, why) = invalid(b.add_contact(sphere(0, 0.1), long, 0.5));
        assert!(name == "shape_b" && why.contains("unit length"), "{why}");
        let (name, why) = invalid(b.add_contact(sphere(1, 0.1), sphere(1, 0.2), 0.5));
        assert_eq!((name, why.as_str()), ("shape_b", "a contact cannot connect a body to itself"));
        // two world planes: no body to act on (also a pair without a narrow phase)
        let (name, why) = invalid(b.add_contact(ground(), ground(), 0.5));
        assert!(name == "shape_b" && why.contains("both are on the world"), "{why}");
        let (name, why) = invalid(b.add_contact(sphere(0, 0.1), ground(), -1.0));
        assert_eq!((name, why.as_str()), ("friction", "-1 must be ≥ 0"));
        assert_eq!(b.contact_count(), 0, "failed calls add nothing");
    }

    #[test]
    fn add_contact_puts_the_body_shape_on_side_a() {
        let mut b = two_balls();
        assert_eq!(b.add_contact(ground(), sphere(1, 0.1), 0.5), Ok(0));
        assert_eq!(b.contact(0).unwrap().shapes, [sphere(1, 0.1), ground()]);
        assert_eq!(b.contact(0).unwrap().bodies(), (1, None));
        assert_eq!(b.add_contact(sphere(1, 0.1), sphere(0, 0.2), 0.0), Ok(1));
        assert_eq!(b.contact(1).unwrap().bodies(), (1, Some(0)));
        let c = b.contact(1).unwrap();
        assert_eq!((c.friction, c.cone, c.directions), (0.0, ConeType::Linear, 4));
    }

    #[test]
    fn setters_build_the_shapes_and_keep_their_argument_names() {
        let mut b = two_balls();
        assert_eq!(b.add_plane_contact(0, [0.1, 0.0, 0.0], 0.1, [0.0, 0.0, 2.0], 0.5, 0.3), Ok(0));
        let plane = Shape::Plane { normal: V3::z(), offset: 0.5 };
        assert_eq!(b.contact(0).unwrap().shapes, [sphere(0, 0.1), plane]);
        assert_eq!(b.add_sphere_contact(1, [0.1, 0.0, 0.0], 0.1, 0, [0.1, 0.0, 0.0], 0.2, 0.3), Ok(1));
        assert_eq!(b.contact(1).unwrap().shapes, [sphere(1, 0.1), sphere(0, 0.2)]);
        assert_eq!(b.add_ground_contact(0, [0.0; 3], f64::NAN, 0.3), Err(Error::NonFinite("radius")));
        assert_eq!(b.add_plane_contact(0, [0.0; 3], 0.1, [0.0; 3], 0.0, 0.3), Err(Error::ZeroAxis("normal")));
        assert_eq!(b.add_sphere_contact(0, [0.0; 3], -1.0, 1, [0.0; 3], 0.1, 0.3).map_err(|e| e.to_string()), Err("invalid argument `ra`: -1 must be ≥ 0".into()));
        assert!(matches!(b.add_sphere_contact(1, [0.0; 3], 0.1, 1, [0.0; 3], 0.1, 0.3), Err(Error::InvalidArgument("body_b", _))));
        assert_eq!(b.contact_count(), 2);
    }
}
