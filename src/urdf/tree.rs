//! The kinematic tree of a URDF description: names resolved, one root, every link
//! reached, a breadth-first order and each link's world pose at zero coordinates.

use std::collections::{HashMap, VecDeque};

use super::frames::compose;
use super::parse::Description;
use crate::joints::constraint::Pose;
use crate::model::{Error, Result};

fn err(msg: String) -> Error {
    Error::Urdf(msg)
}

pub struct Tree<'a> {
    pub link_index: HashMap<&'a str, usize>,
    /// The joint whose child each link is (None: the root).
    pub parent_joint: Vec<Option<usize>>,
    /// Joints whose parent each link is, in document order.
    pub children: Vec<Vec<usize>>,
    pub root: usize,
    /// Links breadth-first from the root (parents before children).
    pub order: Vec<usize>,
    /// Link frames in the root link frame at zero joint coordinates.
    pub world_pose: Vec<Pose>,
}

impl<'a> Tree<'a> {
    /// Checks names (unique links and joints, known links), one parent per link, one
    /// root, and that every link is reached from it.
    pub fn new(d: &'a Description) -> Result<Tree<'a>> {
        // --- names
        let mut link_index: HashMap<&str, usize> = HashMap::new();
        for (i, l) in d.links.iter().enumerate() {
            if link_index.insert(l.name.as_str(), i).is_some() {
                return Err(err(format!("link `{}` is defined twice", l.name)));
            }
        }
        if d.links.is_empty() {
            return Err(err("the robot has no <link>".into()));
        }
        let find = |name: &str, what: &str| -> Result<usize> {
            link_index.get(name).copied().ok_or_else(|| err(format!("{what}: unknown link `{name}`")))
        };
        let mut joint_names: HashMap<&str, ()> = HashMap::new();
        let mut parent_joint: Vec<Option<usize>> = vec![None; d.links.len()];
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); d.links.len()];
        for (ji, j) in d.joints.iter().enumerate() {
            let what = format!("joint `{}`", j.name);
            if joint_names.insert(j.name.as_str(), ()).is_some() {
                return Err(err(format!("{what} is defined twice")));
            }
            let p = find(&j.parent, &what)?;
            let c = find(&j.child, &what)?;
            if p == c {
                return Err(err(format!("{what}: parent and child are the same link `{}`", j.parent)));
            }
            if let Some(other) = parent_joint[c] {
                return Err(err(format!(
                    "{what}: link `{}` is already the child of joint `{}` (a kinematic loop: close it with <loop_joint>)",
                    j.child, d.joints[other].name
                )));
            }
            parent_joint[c] = Some(ji);
            children[p].push(ji);
        }
        for lj in &d.loop_joints {
            if joint_names.insert(lj.name.as_str(), ()).is_some() {
                return Err(err(format!("loop_joint `{}`: the name is already used by another joint", lj.name)));
            }
        }

        // --- the tree: one root, every link reached
        let roots: Vec<usize> = (0..d.links.len()).filter(|&i| parent_joint[i].is_none()).collect();
        let root = match roots.as_slice() {
            [r] => *r,
            [] => return Err(err("no root link: the joints form a cycle (close loops with <loop_joint>)".into())),
            many => {
                let names: Vec<&str> = many.iter().map(|&i| d.links[i].name.as_str()).collect();
                return Err(err(format!("several root links ({}): the links must form one tree", names.join(", "))));
            }
        };
        let mut world_pose: Vec<Option<Pose>> = vec![None; d.links.len()];
        let mut order = Vec::with_capacity(d.links.len());
        world_pose[root] = Some(Pose::WORLD);
        let mut queue = VecDeque::from([root]);
        while let Some(l) = queue.pop_front() {
            order.push(l);
            let lp = world_pose[l].unwrap_or(Pose::WORLD);
            for &ji in &children[l] {
                let c = find(&d.joints[ji].child, "joint")?;
                world_pose[c] = Some(compose(&lp, &d.joints[ji].origin));
                queue.push_back(c);
            }
        }
        if order.len() != d.links.len() {
            let lost: Vec<&str> = (0..d.links.len()).filter(|&i| world_pose[i].is_none()).map(|i| d.links[i].name.as_str()).collect();
            return Err(err(format!(
                "links {} are not reachable from the root `{}`: their joints form a cycle (close loops with <loop_joint>)",
                lost.join(", "),
                d.links[root].name
            )));
        }
        let world_pose: Vec<Pose> = world_pose.into_iter().map(|p| p.unwrap_or(Pose::WORLD)).collect();
        Ok(Tree { link_index, parent_joint, children, root, order, world_pose })
    }

    /// A link's index by name; `what` names the referring element in the error.
    pub fn find(&self, name: &str, what: &str) -> Result<usize> {
        self.link_index.get(name).copied().ok_or_else(|| err(format!("{what}: unknown link `{name}`")))
    }
}
