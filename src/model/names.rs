//! Queries of the compiled model by name: the ids of bodies, joints and frames, which
//! survive the builder (a URDF model names each body after its link, each joint after
//! its joint, each merged link's frame after that link). Names need not be unique: the
//! lowest id of that name wins, as in `Builder` lookups. The empty name (unnamed)
//! identifies nothing.

use super::frame::Frame;
use super::model::Model;
use super::{BodyId, JointId};

/// Index of a frame in `Model::frames`.
pub type FrameId = usize;

impl Model {
    /// The id of the first body named `name` (`None` if none is, or `name` is empty).
    pub fn find_body(&self, name: &str) -> Option<BodyId> {
        first_named(self.bodies.iter().map(|b| b.name.as_str()), name)
    }

    /// The id of the first joint named `name` (`None` if none is, or `name` is empty).
    pub fn find_joint(&self, name: &str) -> Option<JointId> {
        first_named(self.joints.iter().map(|j| j.name.as_str()), name)
    }

    /// The id of the first frame named `name` (`None` if none is, or `name` is empty).
    pub fn find_frame(&self, name: &str) -> Option<FrameId> {
        first_named(self.frames.iter().map(|f| f.name.as_str()), name)
    }

    /// The frame `id`, if there is one.
    pub fn frame(&self, id: FrameId) -> Option<&Frame> {
        self.frames.get(id)
    }

    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }
}

fn first_named<'a>(mut names: impl Iterator<Item = &'a str>, name: &str) -> Option<usize> {
    if name.is_empty() {
        return None;
    }
    names.position(|n| n == name)
}

#[cfg(test)]
mod tests {
    use crate::joints::JointType;
    use crate::model::{Builder, Inertia, Model, Parent};

    /// Two bodies "arm" and "arm" (a duplicate), one unnamed, joints "shoulder" and
    /// "elbow", frames "tool" and "base".
    fn model() -> Model {
        let mut b = Builder::new();
        for _ in 0..3 {
            b.add_body(1.0, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        }
        b.set_body_name(0, "arm").unwrap();
        b.set_body_name(2, "arm").unwrap();
        let (x, z) = ([1.0, 0.0, 0.0], [0.0; 3]);
        b.add_joint(JointType::Revolute, Parent::World, 0, z, z, x).unwrap();
        b.add_joint(JointType::Revolute, 0, 1, z, z, x).unwrap();
        b.add_joint(JointType::Revolute, 1, 2, z, z, x).unwrap();
        b.set_joint_name(0, "shoulder").unwrap();
        b.set_joint_name(1, "elbow").unwrap();
        b.add_frame("tool", 2, [0.0, 0.0, 0.5], [1.0, 0.0, 0.0, 0.0]).unwrap();
        b.add_frame("base", Parent::World, [0.0; 3], [0.0, 0.0, 0.0, 2.0]).unwrap();
        Model::new(&b).unwrap()
    }

    #[test]
    fn names_find_the_lowest_id_and_the_empty_name_finds_nothing() {
        let m = model();
        assert_eq!(m.find_body("arm"), Some(0), "a duplicate name gives the lowest id");
        assert_eq!(m.find_body(""), None, "body 1 is unnamed: the empty name is no name");
        assert_eq!(m.find_body("leg"), None);
        assert_eq!((m.find_joint("shoulder"), m.find_joint("elbow"), m.find_joint("")), (Some(0), Some(1), None));
        assert_eq!((m.find_frame("tool"), m.find_frame("base"), m.find_frame("arm")), (Some(0), Some(1), None));
    }

    #[test]
    fn frames_keep_their_body_and_normalized_pose() {
        let m = model();
        assert_eq!(m.frame_count(), 2);
        let tool = m.frame(0).unwrap();
        assert_eq!((tool.body, tool.x[2], tool.q[0]), (Some(2), 0.5, 1.0));
        let base = m.frame(1).unwrap();
        assert_eq!((base.body, base.q[3]), (None, 1.0), "the world frame's quaternion was normalized");
        assert!(m.frame(2).is_none());
    }
}
