//! Minimal coordinates of a joint: C_Tᵀ g_T (translations first) and the rotation in the
//! free rotational directions C_R (appendix B, "Composite constraints and minimal
//! coordinates"). Rotational coordinates are the rotation vector of q_a* ⊗ q_b ⊗ q_off*
//! projected on C_R; velocities are the relative twist in the parent frame projected on
//! C_T and C_R. The universal joint's two angles are `hooke`'s (α about a, then β about
//! b').

use super::constraint::Pose;
use super::{Joint, RotationChart};
use crate::math::{from_rotation_vector, qmul, rotation, rotation_vector, V3};

/// Body velocity: linear (world) and angular (body frame).
#[derive(Debug, Clone, Copy)]
pub struct Twist {
    pub v: V3,
    pub w: V3,
}

impl Twist {
    pub const ZERO: Twist = Twist { v: V3::new(0.0, 0.0, 0.0), w: V3::new(0.0, 0.0, 0.0) };
}

impl Joint {
    /// Whether the rotational coordinates are angles about their axes (`hooke`), not a
    /// rotation vector's components.
    #[inline]
    fn has_angles(&self) -> bool {
        self.rotation_chart() == RotationChart::Angles
    }

    /// Whether minimal coordinate `k` is an angle that wraps at ±π: the rotation of a
    /// joint with one free rotation, and every angle of the angles' chart.
    pub fn is_wrapping_angle(&self, k: usize) -> bool {
        let n = self.dof();
        (self.cr.len == 1 && k == n - 1) || (self.has_angles() && k >= self.ct.len && k < n)
    }

    /// Minimal coordinates into `out` (length `dof()`).
    pub fn minimal_position(&self, a: &Pose, b: &Pose, out: &mut [f64]) {
        let d = self.displacement(a, b);
        let nt = self.ct.len;
        for (i, c) in self.ct.as_slice().iter().enumerate() {
            out[i] = c.dot(&d);
        }
        if self.has_angles() {
            (out[nt], out[nt + 1]) = self.hooke_angles(&self.relative_rotation(a, b));
            return;
        }
        let rv = rotation_vector(&self.relative_rotation(a, b));
        for (i, c) in self.cr.as_slice().iter().enumerate() {
            out[nt + i] = c.dot(&rv);
        }
    }

    /// Minimal velocities into `out`.
    pub fn minimal_velocity(&self, a: &Pose, ta: &Twist, b: &Pose, tb: &Twist, out: &mut [f64]) {
        let ra = rotation(&a.q);
        let rb = rotation(&b.q);
        let d = self.displacement(a, b);
        let w_rel = ra.transpose() * rb * tb.w - ta.w; // parent frame
        let ddot = ra.transpose() * (tb.v + rb * tb.w.cross(&self.p_child) - ta.v) - ta.w.cross(&(d + self.p_parent));
        let nt = self.ct.len;
        for (i, c) in self.ct.as_slice().iter().enumerate() {
            out[i] = c.dot(&ddot);
        }
        if self.has_angles() {
            (out[nt], out[nt + 1]) = self.hooke_rates(&self.relative_rotation(a, b), &w_rel);
            return;
        }
        for (i, c) in self.cr.as_slice().iter().enumerate() {
            out[nt + i] = c.dot(&w_rel);
        }
    }

    /// Child pose that satisfies the joint exactly with the given minimal coordinates.
    pub fn child_pose(&self, a: &Pose, coords: &[f64]) -> Pose {
        let nt = self.ct.len;
        let mut d = V3::zeros();
        for (i, c) in self.ct.as_slice().iter().enumerate() {
            d += c * coords[i];
        }
        let rel = if self.has_angles() {
            self.hooke_rotation(coords[nt], coords[nt + 1])
        } else {
            let mut rv = V3::zeros();
            for (i, c) in self.cr.as_slice().iter().enumerate() {
                rv += c * coords[nt + i];
            }
            from_rotation_vector(&rv)
        };
        let q = qmul(&qmul(&a.q, &rel), &self.q_offset);
        let x = a.x + rotation(&a.q) * (self.p_parent + d) - rotation(&q) * self.p_child;
        Pose { x, q: q.normalize() }
    }

    /// Child twist that satisfies the joint's velocity constraint exactly with the given
    /// minimal velocities (child pose already placed).
    pub fn child_twist(&self, a: &Pose, ta: &Twist, b: &Pose, rates: &[f64]) -> Twist {
        let ra = rotation(&a.q);
        let rb = rotation(&b.q);
        let nt = self.ct.len;
        let mut ddot = V3::zeros();
        for (i, c) in self.ct.as_slice().iter().enumerate() {
            ddot += c * rates[i];
        }
        let mut w_rel = V3::zeros();
        if self.has_angles() {
            w_rel = self.hooke_angular_velocity(&self.relative_rotation(a, b), &rates[nt..]);
        } else {
            for (i, c) in self.cr.as_slice().iter().enumerate() {
                w_rel += c * rates[nt + i];
            }
        }
        let w = rb.transpose() * ra * (ta.w + w_rel);
        let d = self.displacement(a, b);
        let v = ta.v + ra * (ddot + ta.w.cross(&(d + self.p_parent))) - rb * w.cross(&self.p_child);
        Twist { v, w }
    }
}
