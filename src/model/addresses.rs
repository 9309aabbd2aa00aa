//! Where each node's unknowns sit in the step vector s, the unknown of the Newton system:
//!
//! ```text
//!   body i:     s[body(i) .. body(i) + 6]         = (v_{k+1} world, ω_{k+1} body frame)
//!   joint j:    s[joint(j) .. joint(j) + nc]      = λ (none for a joint without rows)
//!   contact c:  s[contact(c) .. contact(c) + nk]  = K: normal force γ first, then the
//!                                                  friction variables of its cone
//!   limit side l: s[contact(nc + l)]              = its force γ (nc contacts)
//!   mimic m:    s[mimic(m)]                       = its multiplier λ
//! ```
//!
//! Contacts and limit sides are the inequality nodes of the interior point, numbered
//! contacts first: inequality i sits at `contact(i)`.
//!
//! The blocks follow the graph LDU's elimination order (`Symbolic::offsets`), not the
//! declaration order, so every reader of s goes through these offsets.

use crate::math::V3;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Addresses {
    body: Vec<usize>,
    joint: Vec<Option<usize>>,
    contact: Vec<usize>,
    mimic: Vec<usize>,
}

impl Addresses {
    /// From the graph nodes of bodies, joints and inequalities (contacts, then limit
    /// sides) and each node's offset in the step vector (the solver's block layout,
    /// `Symbolic::offsets`).
    pub fn new(node_offsets: &[usize], body_node: &[usize], joint_node: &[Option<usize>], contact_node: &[usize]) -> Addresses {
        let at = |n: usize| node_offsets[n];
        Addresses {
            body: body_node.iter().map(|&n| at(n)).collect(),
            joint: joint_node.iter().map(|n| n.map(at)).collect(),
            contact: contact_node.iter().map(|&n| at(n)).collect(),
            mimic: Vec::new(),
        }
    }

    /// Sets the mimics' offsets from their graph nodes.
    pub fn set_mimics(&mut self, node_offsets: &[usize], mimic_node: &[usize]) {
        self.mimic = mimic_node.iter().map(|&n| node_offsets[n]).collect();
    }

    /// Offset of mimic `m`'s multiplier.
    #[inline]
    pub fn mimic(&self, m: usize) -> usize {
        self.mimic[m]
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

    /// Offset of inequality `c`'s kept variables (its normal force first): contact `c`, or
    /// limit side c − (number of contacts).
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
    #[inline(always)]
    pub fn velocities(&self, s: &[f64], i: usize) -> (V3, V3) {
        let o = self.body[i];
        (read_v3(s, o), read_v3(s, o + 3))
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

    #[test]
    fn offsets_follow_the_block_layout() {
        // nodes: body 0, body 1, joint (5 rows), contact (3 kept variables), eliminated in
        // the order joint, body 1, contact, body 0
        let node_offsets = [14, 5, 0, 11];
        let a = Addresses::new(&node_offsets, &[0, 1], &[Some(2), None], &[3]);
        assert_eq!((a.body(0), a.body(1), a.joint(0), a.joint(1), a.contact(0)), (14, 5, Some(0), None, 11));
        assert_eq!(a.bodies(), &[14, 5]);
        let mut s = vec![0.0; 20];
        a.set_velocities(&mut s, 1, &V3::new(1.0, 2.0, 3.0), &V3::new(4.0, 5.0, 6.0));
        assert_eq!(&s[5..11], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(a.velocities(&s, 1), (V3::new(1.0, 2.0, 3.0), V3::new(4.0, 5.0, 6.0)));
        assert_eq!((a.linear_velocity(&s, 0), a.angular_velocity(&s, 1)), (V3::zeros(), V3::new(4.0, 5.0, 6.0)));
    }
}
