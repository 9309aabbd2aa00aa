//! Mimic joints: the exact equality q_follower = multiplier · q_leader + offset between
//! two one-coordinate joints (URDF `<mimic>`). The physics — one constraint row coupling
//! the bodies of both joints — is in `crate::mimic`. `check` refuses sets of mimics that
//! define a coordinate twice or through itself.

use super::error::{Error, Result};
use super::JointId;
use crate::joints::Joint;

/// q_follower = multiplier · q_leader + offset (minimal coordinates, radians or metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mimic {
    pub follower: JointId,
    pub leader: JointId,
    pub multiplier: f64,
    pub offset: f64,
}

impl Mimic {
    /// The bodies the mimic acts on (those of both joints, each once), for the graph.
    pub fn bodies(&self, joints: &[Joint]) -> Vec<usize> {
        let mut out = Vec::with_capacity(4);
        for j in [&joints[self.follower], &joints[self.leader]] {
            for b in [j.parent, Some(j.child)].into_iter().flatten() {
                if !out.contains(&b) {
                    out.push(b);
                }
            }
        }
        out
    }
}

/// Joint `id` for messages: its name and index (`a` (1)), or the index alone if unnamed.
pub(crate) fn joint_label(joints: &[Joint], id: JointId) -> String {
    match joints.get(id).map(|j| j.name.as_str()) {
        Some(name) if !name.is_empty() => format!("`{name}` ({id})"),
        _ => format!("{id}"),
    }
}

/// Refuses (`Error::InvalidModel`, naming the joints) a joint that follows two leaders —
/// two equations for one coordinate — and any cycle of followers and leaders (a joint
/// mimicking itself, a → b → a, a → b → c → a): the coordinates on a cycle are defined
/// through themselves, so its rows are redundant or contradict each other and no step
/// can solve them. Chains without a cycle are fine.
pub fn check(mimics: &[Mimic], joints: &[Joint]) -> Result<()> {
    // joint → the mimic it follows; one per joint makes the graph a set of chains and
    // cycles, walked once each below
    let mut follows: Vec<Option<usize>> = vec![None; joints.len()];
    for (i, m) in mimics.iter().enumerate() {
        if let Some(k) = follows[m.follower] {
            let label = |j| joint_label(joints, j);
            return Err(Error::InvalidModel(format!(
                "joint {} follows two leaders, {} (mimic {k}) and {} (mimic {i}): a joint mimics at most one",
                label(m.follower),
                label(mimics[k].leader),
                label(m.leader)
            )));
        }
        follows[m.follower] = Some(i);
    }
    // 0 not reached, 1 on the walk under way, 2 seen by an earlier walk (no cycle there)
    let mut state = vec![0u8; joints.len()];
    let mut walk = Vec::new();
    for start in 0..joints.len() {
        let mut j = start;
        walk.clear();
        while state[j] == 0 {
            state[j] = 1;
            walk.push(j);
            match follows[j] {
                Some(i) => j = mimics[i].leader,
                None => break,
            }
        }
        // the walk came back to j (a follower): from j's first visit on it is a cycle
        if let (Some(_), Some(first)) = (follows[j], walk.iter().position(|&w| w == j)) {
            let path: Vec<String> = walk[first..].iter().chain([&j]).map(|&w| joint_label(joints, w)).collect();
            return Err(Error::InvalidModel(format!(
                "mimic cycle: joint {} (each follows the next): the coordinates are defined through themselves",
                path.join(" → ")
            )));
        }
        for &w in &walk {
            state[w] = 2;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::JointType;
    use crate::model::{Builder, Inertia, Parent};

    /// Four revolute joints on the world, named a, b, c and (joint 3) unnamed.
    fn joints() -> Vec<Joint> {
        let mut b = Builder::new();
        for k in 0..4 {
            let body = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.1).unwrap()).unwrap();
            b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0; 3], [1.0, 0.0, 0.0]).unwrap();
            if k < 3 {
                b.set_joint_name(k, ["a", "b", "c"][k]).unwrap();
            }
        }
        b.joints
    }

    fn mimics(pairs: &[(JointId, JointId)]) -> Vec<Mimic> {
        pairs.iter().map(|&(follower, leader)| Mimic { follower, leader, multiplier: 1.0, offset: 1.0 }).collect()
    }

    fn message(pairs: &[(JointId, JointId)]) -> String {
        match check(&mimics(pairs), &joints()) {
            Err(Error::InvalidModel(m)) => m,
            other => panic!("{pairs:?}: {other:?}"),
        }
    }

    #[test]
    fn chains_pass_and_cycles_and_double_followers_are_named() {
        let j = joints();
        assert_eq!(check(&mimics(&[(0, 1), (1, 2), (3, 1)]), &j), Ok(()), "a chain a → b → c, and a second follower of b");
        assert!(message(&[(0, 0)]).starts_with("mimic cycle: joint `a` (0) → `a` (0) "));
        assert!(message(&[(0, 1), (1, 0)]).starts_with("mimic cycle: joint `a` (0) → `b` (1) → `a` (0) "));
        assert!(message(&[(1, 2), (0, 1), (2, 0)]).starts_with("mimic cycle: joint `a` (0) → `b` (1) → `c` (2) → `a` (0) "));
        // a chain into a cycle: only the cycle is named; an unnamed joint by its index
        assert!(message(&[(0, 3), (3, 2), (2, 3)]).starts_with("mimic cycle: joint 3 → `c` (2) → 3 "));
        assert_eq!(message(&[(0, 1), (2, 3), (0, 2)]), "joint `a` (0) follows two leaders, `b` (1) (mimic 0) and `c` (2) (mimic 2): a joint mimics at most one");
    }
}
