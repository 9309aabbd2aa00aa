//! Floating bases: every root of the spanning tree (a body no tree joint places, i.e. a
//! free body with no joint to the world) carries 6 minimal velocities and 7 configuration
//! entries in front of the joints' coordinates, in the Pinocchio free-flyer convention
//! (docs/QUERIES.md, "Floating bases"). Each base has a reference frame fixed to its body:
//! the body frame (centre of mass) unless `Builder::set_base_frame` names another (the
//! URDF loader names the root link's frame, as Pinocchio does).

use super::{BodyId, Model};
use crate::joints::constraint::Pose;
use crate::math::{conj, qmul, rotation, V3};

/// A floating base: the root body and its reference frame in that body's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloatingBase {
    pub body: BodyId,
    pub frame: Pose,
}

impl FloatingBase {
    /// World pose of the base frame when its body is at `body`: origin x + R r, orientation
    /// q ⊗ q_frame.
    pub fn frame_pose(&self, body: &Pose) -> Pose {
        Pose { x: body.x + rotation(&body.q) * self.frame.x, q: qmul(&body.q, &self.frame.q) }
    }

    /// The body pose that puts the base frame at `frame` (the inverse of `frame_pose`).
    pub fn body_pose(&self, frame: &Pose) -> Pose {
        let q = qmul(&frame.q, &conj(&self.frame.q));
        Pose { x: frame.x - rotation(&q) * self.frame.x, q }
    }

    /// The base frame's twist in its own axes, (ν, ω): ν the velocity of its origin, from
    /// the body's velocities (v world at the centre of mass, ω body frame).
    pub fn twist(&self, body: &Pose, v: &V3, w: &V3) -> (V3, V3) {
        let (r, ro) = (rotation(&body.q), rotation(&self.frame.q));
        let nu = ro.transpose() * (r.transpose() * v + w.cross(&self.frame.x));
        (nu, ro.transpose() * w)
    }

    /// The body's velocities (v world, ω body frame) that give the base frame the twist
    /// (ν, ω) in its own axes (the inverse of `twist`).
    pub fn body_velocity(&self, body: &Pose, nu: &V3, w: &V3) -> (V3, V3) {
        let (r, ro) = (rotation(&body.q), rotation(&self.frame.q));
        let wb = ro * w;
        (r * (ro * nu - wb.cross(&self.frame.x)), wb)
    }
}

/// Minimal velocities per floating base: linear then angular, both in the base frame.
pub const BASE_VELOCITIES: usize = 6;
/// Configuration entries per floating base: position (world) then quaternion (w, x, y, z).
pub const BASE_CONFIGURATION: usize = 7;

/// The floating bases in body order: the bodies without a tree joint, each with the frame
/// `frames` gives it (last one set wins) or its body frame.
pub fn compile(tree_parent: &[Option<usize>], frames: &[(BodyId, Pose)]) -> Vec<FloatingBase> {
    (0..tree_parent.len())
        .filter(|&b| tree_parent[b].is_none())
        .map(|body| {
            let frame = frames.iter().rev().find(|(fb, _)| *fb == body).map_or(Pose::WORLD, |f| f.1);
            FloatingBase { body, frame }
        })
        .collect()
}

/// What entry of the minimal velocities (or of the joint part of the configuration) is:
/// direction `index` of floating base `base` (0..6) or of joint `joint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinimalEntry {
    Base { base: usize, index: usize },
    Joint { joint: usize, index: usize },
}

impl Model {
    /// Minimal velocities of the floating bases: 6 per base.
    pub fn base_velocity_count(&self) -> usize {
        BASE_VELOCITIES * self.floating_bases.len()
    }

    /// Minimal velocities of the joints: every joint's free directions summed; also the
    /// number of joint inputs (nu).
    pub fn joint_velocity_count(&self) -> usize {
        self.joints.iter().map(|j| j.dof()).sum()
    }

    /// nv: the floating bases' velocities, then the joints'.
    pub fn minimal_velocity_count(&self) -> usize {
        self.base_velocity_count() + self.joint_velocity_count()
    }

    /// nq: 7 per floating base (position, quaternion w x y z), then every joint's
    /// coordinates.
    pub fn configuration_size(&self) -> usize {
        BASE_CONFIGURATION * self.floating_bases.len() + self.joint_velocity_count()
    }

    /// (nq, nv, nu): configuration entries, minimal velocities, joint inputs.
    pub fn dimensions(&self) -> (usize, usize, usize) {
        (self.configuration_size(), self.minimal_velocity_count(), self.joint_velocity_count())
    }

    /// Each joint's first column in the minimal velocities (after the bases').
    pub fn joint_offsets(&self) -> Vec<usize> {
        let mut o = Vec::with_capacity(self.joints.len());
        let mut at = self.base_velocity_count();
        for j in &self.joints {
            o.push(at);
            at += j.dof();
        }
        o
    }

    /// Which base or joint direction minimal velocity `c` (< nv) is.
    pub fn minimal_entry(&self, c: usize) -> MinimalEntry {
        let nb = self.base_velocity_count();
        if c < nb {
            return MinimalEntry::Base { base: c / BASE_VELOCITIES, index: c % BASE_VELOCITIES };
        }
        let (mut joint, mut index) = (0, c - nb);
        while index >= self.joints[joint].dof() {
            index -= self.joints[joint].dof();
            joint += 1;
        }
        MinimalEntry::Joint { joint, index }
    }

    /// The root of body `b`'s tree: the floating base it rides on (index into
    /// `floating_bases`), None when its tree hangs from the world.
    pub fn base_of(&self, mut b: BodyId) -> Option<usize> {
        loop {
            match self.tree_parent[b] {
                None => return self.floating_bases.iter().position(|f| f.body == b),
                Some(j) => match self.joints[j].parent {
                    Some(p) => b = p,
                    None => return None,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{V3, V4};

    #[test]
    fn roots_become_bases_in_body_order_with_their_named_frames() {
        let f = Pose { x: V3::new(0.1, 0.0, 0.0), q: V4::new(0.0, 1.0, 0.0, 0.0) };
        let bases = compile(&[Some(0), None, Some(1), None], &[(3, f)]);
        assert_eq!(bases.len(), 2);
        assert_eq!(bases[0].body, 1);
        assert_eq!(bases[0].frame.x, V3::zeros());
        assert_eq!((bases[1].body, bases[1].frame), (3, f));
    }

    /// `body_pose` and `body_velocity` invert `frame_pose` and `twist`; ν is the velocity
    /// of the frame's origin (v + ω × r in world axes) and ω the body's, in the frame's axes.
    #[test]
    fn base_frame_pose_and_twist_invert_and_follow_the_body() {
        let unit = |q: V4| q / q.norm();
        let base = FloatingBase { body: 0, frame: Pose { x: V3::new(0.1, -0.2, 0.3), q: unit(V4::new(0.9, 0.1, -0.3, 0.2)) } };
        let body = Pose { x: V3::new(1.0, 2.0, -0.5), q: unit(V4::new(0.3, -0.5, 0.1, 0.8)) };
        let (v, w) = (V3::new(0.4, -1.0, 0.7), V3::new(-0.2, 0.9, 1.3));
        let f = base.frame_pose(&body);
        let back = base.body_pose(&f);
        assert!((back.x - body.x).norm() < 1e-15 && (back.q - body.q).norm() < 1e-15);
        let (nu, wl) = base.twist(&body, &v, &w);
        let rf = rotation(&f.q);
        let r = rotation(&body.q);
        let origin_velocity = v + (r * w).cross(&(r * base.frame.x));
        assert!((rf * nu - origin_velocity).norm() < 1e-15);
        assert!((rf * wl - r * w).norm() < 1e-15);
        let (v2, w2) = base.body_velocity(&body, &nu, &wl);
        assert!((v2 - v).norm() < 1e-15 && (w2 - w).norm() < 1e-15);
    }
}
