//! Builder setters for force elements: joint springs and dampers, point-to-point
//! springs. Each validates every argument before changing anything.

use super::body::check_vec3;
use crate::error::{check_finite, check_len, check_non_negative, Error, Result};
use super::forces::{ForceElements, JointDamper, JointSpring, PointSpring};
use super::{BodyId, Builder, JointId, Parent};

impl Builder {
    /// The force elements added so far.
    pub fn forces(&self) -> &ForceElements {
        &self.forces
    }

    /// A joint's free directions (its dof); an error for a joint without any.
    fn free_directions(&self, joint: JointId) -> Result<usize> {
        let n = self.joint(joint)?.dof();
        if n == 0 {
            return Err(Error::InvalidArgument("joint", format!("joint {joint} has no free directions")));
        }
        Ok(n)
    }

    /// Spring on a joint's free directions (translations first): `stiffness` (≥ 0, N/m or
    /// N·m/rad) and `rest` position in minimal coordinates, each of length `dof`.
    /// Replaces an earlier spring on the same joint.
    pub fn set_joint_spring(&mut self, joint: JointId, stiffness: &[f64], rest: &[f64]) -> Result<()> {
        let n = self.free_directions(joint)?;
        check_len("stiffness", stiffness.len(), n)?;
        check_len("rest", rest.len(), n)?;
        check_finite("stiffness", stiffness)?;
        check_finite("rest", rest)?;
        check_non_negative("stiffness", stiffness)?;
        let mut s = JointSpring { joint, stiffness: [0.0; 6], rest: [0.0; 6] };
        s.stiffness[..n].copy_from_slice(stiffness);
        s.rest[..n].copy_from_slice(rest);
        self.forces.set_joint_spring(s);
        Ok(())
    }

    /// Damper on a joint's free directions: `damping` (≥ 0, N·s/m or N·m·s/rad) of
    /// length `dof`. Replaces an earlier damper on the same joint.
    pub fn set_joint_damper(&mut self, joint: JointId, damping: &[f64]) -> Result<()> {
        let n = self.free_directions(joint)?;
        check_len("damping", damping.len(), n)?;
        check_finite("damping", damping)?;
        check_non_negative("damping", damping)?;
        let mut d = JointDamper { joint, damping: [0.0; 6] };
        d.damping[..n].copy_from_slice(damping);
        self.forces.set_joint_damper(d);
        Ok(())
    }

    /// Point-to-point spring-damper between point `pa` of `body_a` (or the world point
    /// `pa` for [`Parent::World`]) and point `pb` of `body_b` (body frames), acting along
    /// the line between them. Returns the element's index.
    // many arguments: one argument per physical parameter, as `maxdyn_builder_add_spring` takes them
    #[allow(clippy::too_many_arguments)]
    pub fn add_spring(
        &mut self,
        body_a: impl Into<Parent>,
        pa: [f64; 3],
        body_b: BodyId,
        pb: [f64; 3],
        stiffness: f64,
        damping: f64,
        rest_length: f64,
    ) -> Result<usize> {
        let a = self.known_parent(body_a.into())?;
        self.body(body_b)?;
        if a == Some(body_b) {
            return Err(Error::InvalidArgument("body_b", "a spring cannot connect a body to itself".into()));
        }
        let pa = check_vec3("pa", &pa)?;
        let pb = check_vec3("pb", &pb)?;
        check_finite("stiffness", &[stiffness])?;
        check_finite("damping", &[damping])?;
        check_finite("rest_length", &[rest_length])?;
        check_non_negative("stiffness", &[stiffness])?;
        check_non_negative("damping", &[damping])?;
        check_non_negative("rest_length", &[rest_length])?;
        self.forces.point_springs.push(PointSpring { a, pa, b: body_b, pb, stiffness, damping, rest_length });
        Ok(self.forces.point_springs.len() - 1)
    }
}
