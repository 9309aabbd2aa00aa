//! Where each node's unknowns sit in the step vector s, the unknown of the Newton system:
//!
//! ```text
//!   body i:     s[body(i) .. body(i) + 6]         = (v_{k+1} world, ω_{k+1} body frame)
//!   joint j:    s[joint(j) .. joint(j) + nc]      = λ (none for a joint without rows)
//!   contact c:  s[contact(c) .. contact(c) + nk]  = K: normal force γ first, then the
//!                                                  friction variables of its cone
//! ```
//!
//! The blocks follow the graph LDU's elimination order (`Symbolic::offsets`), not the
//! declaration order, so every reader of s goes through these offsets.

use crate::math::V3;
use crate::solver::Symbolic;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Addresses {
    body: Vec<usize>,
    joint: Vec<Option<usize>>,
    contact: Vec<usize>,
}

impl Addresses {
    /// From the graph nodes of bodies, joints and contacts and the solver's block layout.
    pub fn new(symbolic: &Symbolic, body_node: &[usize], joint_node: &[Option<usize>], contact_node: &[usize]) -> Addresses {
        let at = |n: usize| symbolic.offsets[n];
        Addresses {
            body: body_node.iter().map(|&n| at(n)).collect(),
            joint: joint_node.iter().map(|n| n.map(at)).collect(),
            contact: contact_node.iter().map(|&n| at(n)).collect(),
        }
    }

    /// Offset of body `i`'s (v, ω).
    #[inline]
    pub fn body(&self, i: usize) -> usize {
        self.body[i]
    }

    /// Offset of joint `j`'s multipliers (None: the joint has no constraint rows).
    #[inline]
    pub fn joint(&self, j: usize) -> Option<usize> {
        self.joint[j]
    }

    /// Offset of contact `c`'s kept variables (its normal force first).
    #[inline]
    pub fn contact(&self, c: usize) -> usize {
        self.contact[c]
    }

    /// Offsets of all bodies, in body order.
    #[inline]
    pub fn bodies(&self) -> &[usize] {
        &self.body
    }

    /// Body `i`'s linear velocity (world frame) in the step vector `s`.
    #[inline]
    pub fn linear_velocity(&self, s: &[f64], i: usize) -> V3 {
        read_v3(s, self.body[i])
    }

    /// Body `i`'s angular velocity (body frame) in the step vector `s`.
    #[inline]
    pub fn angular_velocity(&self, s: &[f64], i: usize) -> V3 {
        read_v3(s, self.body[i] + 3)
    }

    /// Body `i`'s (v, ω) in the step vector `s`.
    #[inline]
    pub fn velocities(&self, s: &[f64], i: usize) -> (V3, V3) {
        (self.linear_velocity(s, i), self.angular_velocity(s, i))
    }

    /// Writes body `i`'s (v, ω) into the step vector `s`.
    #[inline]
    pub fn set_velocities(&self, s: &mut [f64], i: usize, v: &V3, w: &V3) {
        let o = self.body[i];
        s[o..o + 3].copy_from_slice(v.as_slice());
        s[o + 3..o + 6].copy_from_slice(w.as_slice());
    }
}

#[inline]
fn read_v3(s: &[f64], o: usize) -> V3 {
    V3::new(s[o], s[o + 1], s[o + 2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SparsityGraph;

    #[test]
    fn offsets_follow_the_block_layout() {
        let mut g = SparsityGraph::default();
        let b0 = g.add_node(6, false, false);
        let b1 = g.add_node(6, false, false);
        let j = g.add_node(5, true, true);
        g.add_edge(j, b0);
        g.add_edge(j, b1);
        let sym = Symbolic::new(&g);
        let a = Addresses::new(&sym, &[b0, b1], &[Some(j), None], &[]);
        assert_eq!((a.body(0), a.body(1), a.joint(0), a.joint(1)), (sym.offsets[b0], sym.offsets[b1], Some(sym.offsets[j]), None));
        let mut s = vec![0.0; sym.dim];
        a.set_velocities(&mut s, 1, &V3::new(1.0, 2.0, 3.0), &V3::new(4.0, 5.0, 6.0));
        assert_eq!(a.velocities(&s, 1), (V3::new(1.0, 2.0, 3.0), V3::new(4.0, 5.0, 6.0)));
        assert_eq!(a.linear_velocity(&s, 0), V3::zeros());
    }
}
