//! The mutable mechanism description and its body and joint setters (contacts:
//! `builder_contacts.rs`, force elements: `builder_forces.rs`). Every setter validates its
//! input completely before it changes anything, so a failed call leaves the builder as it
//! was.

use super::body::{check_quat, check_vec3, Body};
use super::collision::Collision;
use super::contact::Contact;
use super::error::{Error, Result};
use super::forces::ForceElements;
use super::frame::Frame;
use super::joint_limits::JointLimit;
use super::mimic::Mimic;
use super::{BodyId, Inertia, JointId, Parent};
use crate::joints::{Joint, JointType};
use crate::math::V3;

/// A mechanism under construction: bodies (ids 0, 1, … in order of addition), joints,
/// force elements, contacts, joint limits and mimics, and named frames.
///
/// ```
/// use maxdyn::{Builder, Inertia, JointType, Parent};
/// let mut b = Builder::new();
/// let rod = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 1.0)?)?;
/// let bob = b.add_body(0.5, Inertia::sphere(0.5, 0.05)?)?;
/// let x = [1.0, 0.0, 0.0];
/// b.add_joint(JointType::Revolute, Parent::World, rod, [0.0; 3], [0.0, 0.0, 0.5], x)?;
/// b.add_joint(JointType::Spherical, rod, bob, [0.0, 0.0, -0.5], [0.0; 3], x)?;
/// b.add_ground_contact(bob, [0.0; 3], 0.05, 0.5)?;
/// # Ok::<(), maxdyn::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    pub(crate) gravity: V3,
    pub(crate) bodies: Vec<Body>,
    pub(crate) joints: Vec<Joint>,
    pub(crate) forces: ForceElements,
    pub(crate) contacts: Vec<Contact>,
    pub(crate) limits: Vec<JointLimit>,
    pub(crate) mimics: Vec<Mimic>,
    pub(crate) frames: Vec<Frame>,
    pub(crate) collision: Collision,
    /// Reference frames of floating bases set by `set_base_frame` (body, frame in body).
    pub(crate) base_frames: Vec<(BodyId, crate::joints::constraint::Pose)>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// An empty mechanism with gravity (0, 0, −9.81).
    pub fn new() -> Builder {
        Builder { gravity: V3::new(0.0, 0.0, -9.81), bodies: Vec::new(), joints: Vec::new(), forces: ForceElements::default(), contacts: Vec::new(), limits: Vec::new(), mimics: Vec::new(), frames: Vec::new(), collision: Collision::default(), base_frames: Vec::new() }
    }

    pub fn set_gravity(&mut self, g: [f64; 3]) -> Result<()> {
        self.gravity = check_vec3("gravity", &g)?;
        Ok(())
    }

    pub fn gravity(&self) -> [f64; 3] {
        self.gravity.into()
    }

    /// Adds a body with `mass` (finite, > 0) and `inertia` (about its centre of mass, in
    /// its frame). Pose identity, at rest.
    pub fn add_body(&mut self, mass: f64, inertia: Inertia) -> Result<BodyId> {
        self.bodies.push(Body::new(mass, inertia)?);
        Ok(self.bodies.len() - 1)
    }

    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    pub fn body(&self, id: BodyId) -> Result<&Body> {
        self.bodies.get(id).ok_or_else(|| unknown_body(id))
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        self.bodies.get_mut(id).ok_or_else(|| unknown_body(id))
    }

    pub fn joint(&self, id: JointId) -> Result<&Joint> {
        self.joints.get(id).ok_or(Error::UnknownJoint(id as i32))
    }

    pub fn set_body_name(&mut self, body: BodyId, name: &str) -> Result<()> {
        self.body_mut(body)?.name = name.to_string();
        Ok(())
    }

    /// Initial position (world) and orientation (unit quaternion w, x, y, z; normalized).
    pub fn set_body_pose(&mut self, body: BodyId, x: [f64; 3], q: [f64; 4]) -> Result<()> {
        self.body(body)?;
        let x = check_vec3("x", &x)?;
        let q = check_quat("q", &q)?;
        let b = self.body_mut(body)?;
        b.x = x;
        b.q = q;
        Ok(())
    }

    /// Initial linear velocity (world frame) and angular velocity (body frame).
    pub fn set_body_velocity(&mut self, body: BodyId, v: [f64; 3], w: [f64; 3]) -> Result<()> {
        self.body(body)?;
        let v = check_vec3("v", &v)?;
        let w = check_vec3("omega", &w)?;
        let b = self.body_mut(body)?;
        b.v = v;
        b.w = w;
        Ok(())
    }

    /// Adds a joint of `kind` between `parent` (a body id or [`Parent::World`]) and
    /// `child`, with joint points in each body's frame (the world frame for the world) and
    /// an axis in the parent frame (ignored by joints that use no axis, but must still be
    /// finite and non-zero).
    pub fn add_joint(
        &mut self,
        kind: JointType,
        parent: impl Into<Parent>,
        child: BodyId,
        p_parent: [f64; 3],
        p_child: [f64; 3],
        axis: [f64; 3],
    ) -> Result<JointId> {
        let parent = self.known_parent(parent.into())?;
        self.body(child)?;
        if parent == Some(child) {
            return Err(Error::InvalidArgument("child", "a joint cannot connect a body to itself".into()));
        }
        let pp = check_vec3("p_parent", &p_parent)?;
        let pc = check_vec3("p_child", &p_child)?;
        let ax = check_vec3("axis", &axis)?;
        if ax.norm() < 1e-12 {
            return Err(Error::ZeroAxis("axis"));
        }
        self.joints.push(Joint::new(kind, parent, child, pp, pc, ax));
        Ok(self.joints.len() - 1)
    }

    /// The orientation offset q_off of a joint (child relative to parent at zero
    /// rotational coordinates).
    pub fn set_joint_offset(&mut self, joint: JointId, q: [f64; 4]) -> Result<()> {
        self.joint(joint)?;
        let q = check_quat("q_offset", &q)?;
        self.joints[joint].q_offset = q;
        Ok(())
    }

    pub fn set_joint_name(&mut self, joint: JointId, name: &str) -> Result<()> {
        self.joint(joint)?;
        self.joints[joint].name = name.to_string();
        Ok(())
    }

    /// Adds a named frame fixed to `body` (`Parent::World` for the world) at position `x`
    /// and orientation `q` (w, x, y, z; normalized) in that body's frame. Returns its id.
    pub fn add_frame(&mut self, name: &str, body: impl Into<Parent>, x: [f64; 3], q: [f64; 4]) -> Result<usize> {
        let body = self.known_parent(body.into())?;
        let x = check_vec3("x", &x)?;
        let q = check_quat("q", &q)?;
        self.frames.push(Frame { name: name.to_string(), body, x, q });
        Ok(self.frames.len() - 1)
    }

    /// The reference frame of `body` when it is a floating base (a body no joint places):
    /// position `x` and orientation `q` (w, x, y, z; normalized) in the body frame. Its
    /// configuration and velocities in minimal coordinates are those of this frame
    /// (default: the body frame, at the centre of mass). The URDF loader sets the root
    /// link's frame. Ignored for a body a joint places.
    pub fn set_base_frame(&mut self, body: BodyId, x: [f64; 3], q: [f64; 4]) -> Result<()> {
        self.body(body)?;
        let x = check_vec3("x", &x)?;
        let q = check_quat("q", &q)?;
        self.base_frames.push((body, crate::joints::constraint::Pose { x, q }));
        Ok(())
    }

    /// The frames added so far.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// The parent's body (`None` for the world), checked to exist.
    pub(crate) fn known_parent(&self, parent: Parent) -> Result<Option<BodyId>> {
        if let Parent::Body(b) = parent {
            self.body(b)?;
        }
        Ok(parent.body())
    }
}

/// `UnknownBody` carries the id as the C API spells it (an `int32_t`).
fn unknown_body(id: BodyId) -> Error {
    Error::UnknownBody(i32::try_from(id).unwrap_or(i32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_bodies() -> Builder {
        let mut b = Builder::new();
        for _ in 0..2 {
            b.add_body(1.0, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        }
        b
    }

    #[test]
    fn add_body_checks_the_mass() {
        let mut b = Builder::new();
        let j = Inertia::sphere(1.0, 0.1).unwrap();
        assert_eq!(b.add_body(f64::NAN, j), Err(Error::NonFinite("mass")));
        assert_eq!(b.add_body(0.0, j), Err(Error::InvalidMass(0.0)));
        assert_eq!(b.body_count(), 0);
        assert_eq!(b.add_body(2.0, j), Ok(0));
        assert_eq!(b.body(0).unwrap().inertia, *j.matrix());
    }

    #[test]
    fn add_joint_takes_the_world_or_a_known_body_as_parent() {
        let mut b = two_bodies();
        let (x, z) = ([1.0, 0.0, 0.0], [0.0; 3]);
        assert_eq!(b.add_joint(JointType::Revolute, Parent::World, 0, z, z, x), Ok(0));
        assert_eq!(b.add_joint(JointType::Revolute, 0, 1, z, z, x), Ok(1));
        assert_eq!(b.joints[0].parent, None);
        assert_eq!(b.joints[1].parent, Some(0));
        assert_eq!(b.add_joint(JointType::Revolute, 2, 1, z, z, x), Err(Error::UnknownBody(2)));
        assert_eq!(b.add_joint(JointType::Revolute, Parent::World, 5, z, z, x), Err(Error::UnknownBody(5)));
        assert_eq!(b.add_joint(JointType::Revolute, usize::MAX, 1, z, z, x), Err(Error::UnknownBody(i32::MAX)));
        assert!(matches!(b.add_joint(JointType::Revolute, 1, 1, z, z, x), Err(Error::InvalidArgument("child", _))));
        assert_eq!(b.add_joint(JointType::Revolute, 0, 1, z, z, z), Err(Error::ZeroAxis("axis")));
        assert_eq!(b.joint_count(), 2, "failed calls add nothing");
    }
}
