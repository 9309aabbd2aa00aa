//! Builder setters for the constraints between joint coordinates: limits (inequalities)
//! and mimics (equalities). Each validates all of its input before it changes anything.

use super::builder::Builder;
use super::error::{Error, Result};
use super::joint_limits::JointLimit;
use super::mimic::Mimic;
use super::JointId;
use crate::error::check_len;

impl Builder {
    /// Limits of every minimal coordinate of `joint` (`lower`, `upper`: one entry per
    /// coordinate, translations first, as `Sim::joint_position` orders them). −∞ / +∞
    /// leave that side free; NaN and lower > upper are refused. Only single-axis
    /// coordinates can be bounded: every translational one, and the rotation of a joint
    /// with one rotational free direction (a spherical joint's rotation vector cannot).
    /// Replaces the joint's earlier limits.
    pub fn set_joint_limits(&mut self, joint: JointId, lower: &[f64], upper: &[f64]) -> Result<()> {
        let j = self.joint(joint)?;
        check_len("lower", lower.len(), j.dof())?;
        check_len("upper", upper.len(), j.dof())?;
        let nt = j.ct.len;
        let single_axis_rotation = j.cr.len == 1;
        for (i, (&lo, &hi)) in lower.iter().zip(upper).enumerate() {
            if lo.is_nan() {
                return Err(Error::NonFinite("lower"));
            }
            if hi.is_nan() {
                return Err(Error::NonFinite("upper"));
            }
            if lo > hi {
                return Err(Error::InvalidArgument("lower", format!("coordinate {i}: lower {lo} > upper {hi}")));
            }
            let limit = JointLimit { joint, coordinate: i, lower: lo, upper: hi };
            if i >= nt && !single_axis_rotation && limit.is_bounded() {
                return Err(Error::InvalidArgument(
                    "lower",
                    format!("coordinate {i} is one of {} rotational coordinates: only a single-axis rotation can be limited", j.cr.len),
                ));
            }
        }
        self.limits.retain(|l| l.joint != joint);
        for (i, (&lower, &upper)) in lower.iter().zip(upper).enumerate() {
            let limit = JointLimit { joint, coordinate: i, lower, upper };
            if limit.is_bounded() {
                self.limits.push(limit);
            }
        }
        Ok(())
    }

    /// The limits set so far (bounded coordinates only).
    pub fn joint_limits(&self) -> &[JointLimit] {
        &self.limits
    }

    /// Makes `follower` mimic `leader`: q_follower = multiplier · q_leader + offset. Both
    /// joints have one coordinate (revolute, prismatic); a joint follows at most one leader
    /// and cannot follow itself. Returns the mimic's index. Longer cycles (a follows b, b
    /// follows a) are refused by `Model::new`, when every mimic is known.
    pub fn add_mimic(&mut self, follower: JointId, leader: JointId, multiplier: f64, offset: f64) -> Result<usize> {
        crate::error::check_finite("multiplier", &[multiplier])?;
        crate::error::check_finite("offset", &[offset])?;
        for (name, id) in [("follower", follower), ("leader", leader)] {
            let dof = self.joint(id)?.dof();
            if dof != 1 {
                return Err(Error::InvalidArgument(name, format!("joint {id} has {dof} coordinates; a mimic joins one-coordinate joints")));
            }
        }
        if follower == leader {
            return Err(Error::InvalidArgument("leader", "a joint cannot mimic itself".into()));
        }
        if let Some(m) = self.mimics.iter().find(|m| m.follower == follower) {
            let label = |j| super::mimic::joint_label(&self.joints, j);
            return Err(Error::InvalidArgument("follower", format!("joint {} already mimics joint {}: a joint follows at most one leader", label(follower), label(m.leader))));
        }
        self.mimics.push(Mimic { follower, leader, multiplier, offset });
        Ok(self.mimics.len() - 1)
    }

    /// The mimics added so far.
    pub fn mimics(&self) -> &[Mimic] {
        &self.mimics
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::JointType;
    use crate::model::{Inertia, Parent};

    /// A revolute, a prismatic and a spherical joint in a chain.
    fn chain() -> Builder {
        let mut b = Builder::new();
        for _ in 0..3 {
            b.add_body(1.0, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        }
        let (x, z) = ([1.0, 0.0, 0.0], [0.0; 3]);
        b.add_joint(JointType::Revolute, Parent::World, 0, z, z, x).unwrap();
        b.add_joint(JointType::Prismatic, 0, 1, z, z, x).unwrap();
        b.add_joint(JointType::Spherical, 1, 2, z, z, x).unwrap();
        b
    }

    #[test]
    fn limits_are_checked_and_replace_the_joints_earlier_ones() {
        let mut b = chain();
        let inf = f64::INFINITY;
        assert_eq!(b.set_joint_limits(0, &[-1.0], &[1.0]), Ok(()));
        assert_eq!(b.set_joint_limits(0, &[-0.5], &[inf]), Ok(()));
        assert_eq!(b.joint_limits(), &[JointLimit { joint: 0, coordinate: 0, lower: -0.5, upper: inf }]);
        assert_eq!(b.set_joint_limits(1, &[-inf], &[inf]), Ok(()), "unbounded: stored as nothing");
        assert_eq!(b.joint_limits().len(), 1);
        assert_eq!(b.set_joint_limits(0, &[f64::NAN], &[1.0]), Err(Error::NonFinite("lower")));
        assert!(matches!(b.set_joint_limits(0, &[2.0], &[1.0]), Err(Error::InvalidArgument("lower", _))));
        assert_eq!(b.set_joint_limits(0, &[0.0, 1.0], &[1.0]), Err(Error::WrongLength { name: "lower", got: 2, expected: 1 }));
        assert!(matches!(b.set_joint_limits(2, &[-1.0; 3], &[1.0; 3]), Err(Error::InvalidArgument("lower", _))), "a spherical rotation vector");
        assert_eq!(b.set_joint_limits(2, &[-inf; 3], &[inf; 3]), Ok(()));
        assert_eq!(b.set_joint_limits(7, &[], &[]), Err(Error::UnknownJoint(7)));
        assert_eq!(b.joint_limits(), &[JointLimit { joint: 0, coordinate: 0, lower: -0.5, upper: inf }], "failed calls change nothing");
    }

    #[test]
    fn mimics_join_two_distinct_one_coordinate_joints_once() {
        let mut b = chain();
        assert_eq!(b.add_mimic(1, 0, 0.5, 0.1), Ok(0));
        assert!(matches!(b.add_mimic(1, 0, 1.0, 0.0), Err(Error::InvalidArgument("follower", _))));
        assert!(matches!(b.add_mimic(0, 0, 1.0, 0.0), Err(Error::InvalidArgument("leader", _))));
        assert!(matches!(b.add_mimic(2, 0, 1.0, 0.0), Err(Error::InvalidArgument("follower", _))));
        assert_eq!(b.add_mimic(0, 1, f64::NAN, 0.0), Err(Error::NonFinite("multiplier")));
        assert_eq!(b.add_mimic(0, 9, 1.0, 0.0), Err(Error::UnknownJoint(9)));
        assert_eq!(b.mimics(), &[Mimic { follower: 1, leader: 0, multiplier: 0.5, offset: 0.1 }]);
    }
}
