//! The mechanism graph (paper section 4): one node per body, per joint with constraint
//! rows, per contact and per bounded side of a joint limit, coupled where two of them
//! share a Newton-matrix block. Built once by `Model::new`, before the elimination order
//! is computed.

use super::contact::Contact;
use super::forces::ForceElements;
use crate::joints::Joint;
use crate::solver::{NodeKind, SparsityGraph};

/// Relative regularization of the pivots of loop-joint multiplier nodes (the paper's
/// implementation keeps redundant loops factorizable with a tiny regularization on the
/// constraint blocks). It is applied by the graph LDU to the pivot block when the node
/// is eliminated, as a fraction of that block's size (`SparsityGraph::set_regularization`):
/// the joint pivot G D⁻¹ Gᵀ scales like dt³/m, so an absolute shift of 1e-10 would be a
/// 10 % perturbation at dt = 1e-3 and slow Newton to linear convergence near singular
/// poses. It perturbs only the Newton direction, never the residual, so the converged
/// step is exact.
pub const LOOP_PIVOT_REGULARIZATION: f64 = 1e-10;

/// A node of the mechanism graph: one block row/column of the Newton matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    Body(usize),
    Joint(usize),
    Contact(usize),
    /// A mimic's multiplier (`Model::mimics`): a joint-like equality node.
    Mimic(usize),
    /// A bounded side of a joint limit (`Model::limit_sides`): a frictionless inequality
    /// node like a contact's.
    LimitSide(usize),
}

/// The graph and where each element of the mechanism sits in it.
pub(super) struct MechanismGraph {
    pub graph: SparsityGraph,
    pub nodes: Vec<Node>,
    pub body_node: Vec<usize>,
    /// Joint → node (None for joints without constraint rows, e.g. floating).
    pub joint_node: Vec<Option<usize>>,
    pub contact_node: Vec<usize>,
    /// Limit side → node.
    pub limit_node: Vec<usize>,
    /// Mimic → node.
    pub mimic_node: Vec<usize>,
}

impl MechanismGraph {
    /// The graph of `body_count` bodies, `joints` (with `in_loop` marking the joints on a
    /// kinematic loop, whose pivots are regularized), `forces` and `contacts`.
    pub fn new(body_count: usize, joints: &[Joint], in_loop: &[bool], forces: &ForceElements, contacts: &[Contact]) -> MechanismGraph {
        let mut g = MechanismGraph { graph: SparsityGraph::default(), nodes: Vec::new(), body_node: Vec::with_capacity(body_count), joint_node: Vec::with_capacity(joints.len()), contact_node: Vec::with_capacity(contacts.len()), limit_node: Vec::new(), mimic_node: Vec::new() };
        for i in 0..body_count {
            g.body_node.push(g.graph.add_node(6, NodeKind::Body));
            g.nodes.push(Node::Body(i));
        }
        for (ji, j) in joints.iter().enumerate() {
            let node = g.add_joint(ji, j);
            if let (Some(n), true) = (node, in_loop[ji]) {
                g.graph.set_regularization(n, LOOP_PIVOT_REGULARIZATION);
            }
            g.joint_node.push(node);
        }
        g.add_damper_edges(forces, joints);
        for (ci, c) in contacts.iter().enumerate() {
            let n = g.add_contact(ci, c);
            g.contact_node.push(n);
        }
        g
    }

    /// A joint's multiplier node, coupled to its bodies; a joint to the world is a DFS
    /// root (the world itself has no unknowns). None for a joint without constraint rows.
    fn add_joint(&mut self, index: usize, j: &Joint) -> Option<usize> {
        let nc = j.constraint_count();
        if nc == 0 {
            return None;
        }
        let n = self.graph.add_node(nc, NodeKind::Joint { to_world: j.parent.is_none() });
        self.nodes.push(Node::Joint(index));
        self.graph.add_edge(n, self.body_node[j.child]);
        if let Some(p) = j.parent {
            self.graph.add_edge(n, self.body_node[p]);
        }
        Some(n)
    }

    /// A damper couples its two bodies directly (its Jacobian has a body–body block).
    fn add_damper_edges(&mut self, forces: &ForceElements, joints: &[Joint]) {
        for d in &forces.joint_dampers {
            let j = &joints[d.joint];
            if let (true, Some(p)) = (d.is_active(), j.parent) {
                self.graph.add_edge(self.body_node[p], self.body_node[j.child]);
            }
        }
        for sp in &forces.point_springs {
            if let (true, Some(a)) = (sp.damping != 0.0, sp.a) {
                self.graph.add_edge(self.body_node[a], self.body_node[sp.b]);
            }
        }
    }

    /// A contact's node, coupled to its body (an environment contact: a leaf) or its two
    /// bodies (may close a cycle). Its condensed block can be nearly singular when the
    /// contact is active or sticks, so it is eliminated after one of its bodies
    /// ([`NodeKind::Contact`]).
    fn add_contact(&mut self, index: usize, c: &Contact) -> usize {
        let n = self.graph.add_node(c.node_size(), NodeKind::Contact);
        self.nodes.push(Node::Contact(index));
        let (a, b) = c.bodies();
        self.graph.add_edge(n, self.body_node[a]);
        if let Some(b) = b {
            self.graph.add_edge(n, self.body_node[b]);
        }
        n
    }

    /// A limit side's node on the joint `j` it bounds: one multiplier (frictionless), coupled
    /// to the joint's bodies like a contact's (eliminated after one of them).
    pub fn add_limit_side(&mut self, index: usize, j: &Joint) {
        let n = self.graph.add_node(1, NodeKind::Contact);
        self.nodes.push(Node::LimitSide(index));
        self.graph.add_edge(n, self.body_node[j.child]);
        if let Some(p) = j.parent {
            self.graph.add_edge(n, self.body_node[p]);
        }
        self.limit_node.push(n);
    }

    /// A mimic's multiplier node, coupled to the `bodies` of its two joints like a joint's
    /// node (it closes a cycle through them: its pivot is regularized like a loop joint's).
    pub fn add_mimic(&mut self, index: usize, bodies: &[usize]) {
        let n = self.graph.add_node(1, NodeKind::Joint { to_world: false });
        self.nodes.push(Node::Mimic(index));
        for &b in bodies {
            self.graph.add_edge(n, self.body_node[b]);
        }
        self.graph.set_regularization(n, LOOP_PIVOT_REGULARIZATION);
        self.mimic_node.push(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::JointType;
    use crate::model::{Builder, Inertia, Parent};

    #[test]
    fn bodies_joints_dampers_and_contacts_become_nodes_and_edges() {
        let mut b = Builder::new();
        let inertia = Inertia::diagonal(1.0, 1.0, 1.0).unwrap();
        let (b0, b1) = (b.add_body(1.0, inertia).unwrap(), b.add_body(1.0, inertia).unwrap());
        let z = [0.0, 0.0, 1.0];
        b.add_joint(JointType::Floating, Parent::World, b0, [0.0; 3], [0.0; 3], z).unwrap();
        let hinge = b.add_joint(JointType::Revolute, b0, b1, [0.0; 3], [0.0; 3], z).unwrap();
        b.set_joint_damper(hinge, &[0.5]).unwrap();
        let c = b.add_ground_contact(b1, [0.0; 3], 0.0, 0.5).unwrap();
        b.set_contact_cone(c, crate::model::contact::ConeType::Linear, 6).unwrap();
        let m = MechanismGraph::new(2, &b.joints, &[false, false], &b.forces, &b.contacts);
        assert_eq!(m.nodes, [Node::Body(0), Node::Body(1), Node::Joint(1), Node::Contact(0)]);
        assert_eq!(m.joint_node, [None, Some(2)], "a floating joint has no constraint rows");
        assert_eq!(m.graph.sizes, [6, 6, 5, 7]);
        assert_eq!(m.graph.kinds[2], NodeKind::Joint { to_world: false });
        assert_eq!(m.graph.kinds[3], NodeKind::Contact);
        // hinge to both bodies, the damper's body–body coupling, the contact to its body
        assert_eq!(m.graph.edges, [(1, 2), (0, 2), (0, 1), (1, 3)]);
    }
}
