//! Builder entry for the universal (Hooke) joint, whose second axis the generic
//! `Builder::add_joint` has no argument for (`joints::hooke`).

use super::body::check_vec3;
use super::builder::Builder;
use super::error::{Error, Result};
use super::{BodyId, JointId, Parent};
use crate::joints::JointType;

/// Largest |cos| between the two axes accepted as perpendicular; the second axis is then
/// made exactly perpendicular (a file's axes written to 6 digits pass).
const PERPENDICULAR: f64 = 1e-6;

impl Builder {
    /// Adds a universal (Hooke) joint: the child's point `p_child` (child frame) held at
    /// the parent's point `p_parent` (parent frame), and the parent's axis `axis_parent`
    /// (parent frame) kept perpendicular to the child's axis `axis_child`. Two rotational
    /// DoF, read as (α, β): α about `axis_parent`, then β about `axis_child`.
    /// `axis_child` is given as it lies at zero coordinates in the parent frame, which is
    /// the child frame while the orientation offset is the identity (the default); the
    /// axes must be perpendicular (|cos| ≤ 1e-6). `add_joint(JointType::Universal, ..)`
    /// takes the first direction of the axis's frame (`math::axis_frame`) as the child's.
    pub fn add_universal_joint(
        &mut self,
        parent: impl Into<Parent>,
        child: BodyId,
        p_parent: [f64; 3],
        p_child: [f64; 3],
        axis_parent: [f64; 3],
        axis_child: [f64; 3],
    ) -> Result<JointId> {
        let a = check_vec3("axis_parent", &axis_parent)?;
        let b = check_vec3("axis_child", &axis_child)?;
        if a.norm() < 1e-12 {
            return Err(Error::ZeroAxis("axis_parent"));
        }
        if b.norm() < 1e-12 {
            return Err(Error::ZeroAxis("axis_child"));
        }
        let cos = a.normalize().dot(&b.normalize());
        if cos.abs() > PERPENDICULAR {
            return Err(Error::InvalidArgument("axis_child", format!("the axes of a universal joint must be perpendicular; their cosine is {cos}")));
        }
        let id = self.add_joint(JointType::Universal, parent, child, p_parent, p_child, axis_parent)?;
        self.joints[id].set_second_axis(&b);
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::V3;

    #[test]
    fn axes_are_checked_and_kept() {
        let mut b = Builder::new();
        b.add_body(1.0, crate::model::Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        let (z, x, y) = ([0.0; 3], [2.0, 0.0, 0.0], [0.0, 0.0, 3.0]);
        assert_eq!(b.add_universal_joint(Parent::World, 0, z, z, x, z), Err(Error::ZeroAxis("axis_child")));
        assert_eq!(b.add_universal_joint(Parent::World, 0, z, z, z, x), Err(Error::ZeroAxis("axis_parent")));
        assert!(matches!(b.add_universal_joint(Parent::World, 0, z, z, x, [1.0, 1.0, 0.0]), Err(Error::InvalidArgument("axis_child", _))));
        assert!(matches!(b.add_universal_joint(Parent::World, 0, z, z, x, [f64::NAN, 1.0, 0.0]), Err(Error::NonFinite("axis_child"))));
        assert_eq!(b.add_universal_joint(Parent::World, 0, z, z, x, y), Ok(0));
        let j = b.joint(0).unwrap();
        assert_eq!((j.kind, j.dof(), j.constraint_count()), (JointType::Universal, 2, 4));
        assert_eq!((j.axis, j.second_axis), (V3::x(), V3::z()));
        assert_eq!(j.cr.as_slice(), &[V3::x(), V3::z()]);
        assert_eq!(j.dr.as_slice(), &[-V3::y()]);
    }
}
