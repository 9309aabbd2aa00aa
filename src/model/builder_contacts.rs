//! Builder setters for contacts. Each validates every argument before changing anything.

use super::body::check_vec3;
use super::contact::{ConeType, Contact, ContactId, ContactShape, MAX_DIRECTIONS};
use super::error::{check_finite, Error, Result};
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
    fn push_contact(&mut self, shape: ContactShape, friction: f64) -> ContactId {
        self.contacts.push(Contact { shape, friction, cone: ConeType::Linear, directions: 4 });
        self.contacts.len() - 1
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
        Ok(self.push_contact(ContactShape::Plane { body, p, radius, normal: n.normalize(), offset }, friction))
    }

    /// The same against the ground z ≥ 0.
    pub fn add_ground_contact(&mut self, body: BodyId, p: [f64; 3], radius: f64, friction: f64) -> Result<ContactId> {
        self.add_plane_contact(body, p, radius, [0.0, 0.0, 1.0], 0.0, friction)
    }

    /// Sphere (centre `pa` in body_a's frame, radius `ra`) against sphere (`pb`, `rb`) on
    /// another body.
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
        Ok(self.push_contact(ContactShape::Spheres { body_a, pa, ra, body_b, pb, rb }, friction))
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
