//! The mutable mechanism description and its body and joint setters (contacts:
//! `builder_contacts.rs`, force elements: `builder_forces.rs`). Every setter validates its
//! input completely before it changes anything, so a failed call leaves the builder as it
//! was.

use super::body::{check_quat, check_vec3, validate_inertia, validate_mass, Body};
use super::contact::Contact;
use super::error::{check_finite, Error, Result};
use super::forces::ForceElements;
use super::{BodyId, JointId, WORLD};
use crate::joints::{Joint, JointType};
use crate::math::{M3, V3};

#[derive(Debug, Clone)]
pub struct Builder {
    pub(crate) gravity: V3,
    pub(crate) bodies: Vec<Body>,
    pub(crate) joints: Vec<Joint>,
    pub(crate) forces: ForceElements,
    pub(crate) contacts: Vec<Contact>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// An empty mechanism with gravity (0, 0, −9.81).
    pub fn new() -> Builder {
        Builder { gravity: V3::new(0.0, 0.0, -9.81), bodies: Vec::new(), joints: Vec::new(), forces: ForceElements::default(), contacts: Vec::new() }
    }

    pub fn set_gravity(&mut self, g: [f64; 3]) -> Result<()> {
        self.gravity = check_vec3("gravity", &g)?;
        Ok(())
    }

    pub fn gravity(&self) -> [f64; 3] {
        self.gravity.into()
    }

    /// Adds a body with mass and inertia (row-major 3×3 about the centre of mass, body
    /// frame; symmetric positive definite). Pose identity, at rest.
    pub fn add_body(&mut self, mass: f64, inertia: [f64; 9]) -> Result<BodyId> {
        check_finite("mass", &[mass])?;
        validate_mass(mass)?;
        let j = M3::from_row_slice(&inertia);
        validate_inertia(&j)?;
        self.bodies.push(Body::new(mass, j)?);
        Ok(self.bodies.len() - 1)
    }

    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    pub fn body(&self, id: BodyId) -> Result<&Body> {
        self.bodies.get(id).ok_or(Error::UnknownBody(id as i32))
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body> {
        self.bodies.get_mut(id).ok_or(Error::UnknownBody(id as i32))
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

    /// Adds a joint of `kind` between `parent` (a body id or [`WORLD`]) and `child`, with
    /// joint points in each body's frame (the world frame for the world) and an axis in
    /// the parent frame (ignored by joints that use no axis, but must still be finite).
    pub fn add_joint(
        &mut self,
        kind: JointType,
        parent: i32,
        child: i32,
        p_parent: [f64; 3],
        p_child: [f64; 3],
        axis: [f64; 3],
    ) -> Result<JointId> {
        let parent = self.parent_id(parent)?;
        let child = self.body_id(child)?;
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

    pub(crate) fn body_id(&self, id: i32) -> Result<BodyId> {
        if id >= 0 && (id as usize) < self.bodies.len() {
            Ok(id as usize)
        } else {
            Err(Error::UnknownBody(id))
        }
    }

    pub(crate) fn parent_id(&self, id: i32) -> Result<Option<BodyId>> {
        if id == WORLD {
            Ok(None)
        } else {
            self.body_id(id).map(Some)
        }
    }
}
