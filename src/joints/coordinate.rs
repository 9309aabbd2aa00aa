//! One single-axis coordinate of a joint, with its exact gradient: what a joint limit
//! (an inequality) and a mimic (an equality) constrain.
//!
//! * A translational coordinate i < n_T is c_iᵀ g_T, c_i its free direction (parent frame):
//!   the minimal coordinate of `minimal.rs`.
//! * The rotational coordinate of a joint with one free rotation c is the twist angle
//!   about c of q_rel = q_a* ⊗ q_b ⊗ q_off* = (s, v): θ = 2 atan2(cᵀv, s). Where the joint
//!   holds (q_rel about c) it equals the minimal coordinate cᵀ log(q_rel); unlike the
//!   rotation vector its gradient stays smooth through ±π (the log map's Jacobian is
//!   singular there), which a spinning joint crosses. θ is wrapped into (−π, π]; callers
//!   that need angles beyond ±π unwrap with [`unwrap_angle`].
//!
//! Gradients are with respect to each body's position x and a body-frame rotation δφ,
//! q ↦ q ⊗ (1, δφ/2) (as in `tangent.rs`). With a = cᵀv, n² = s² + a²:
//! ```text
//!   ∂θ/∂δφ_b = Q(q_off)ᵀ (s (s c + c × v) + a v) / n²
//!   ∂θ/∂δφ_a = −(s (s c + v × c) + a v) / n²
//! ```
//! (perturbing q_b right-multiplies q_rel by (1, Q(q_off) δφ_b / 2), perturbing q_a
//! left-multiplies it by (1, −δφ_a / 2)). For translations the gradient is that of
//! `forces::joint_directions`' translation rows.

use super::constraint::Pose;
use super::Joint;
use crate::math::{rotation, vec_part, V3};
use std::f64::consts::PI;

/// Derivatives of one coordinate: with respect to x and δφ of the parent (zero for the
/// world) and of the child.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoordinateGradient {
    pub parent_x: V3,
    pub parent_phi: V3,
    pub child_x: V3,
    pub child_phi: V3,
}

impl Joint {
    /// Whether coordinate `i` is the single rotation of a joint with one free rotational
    /// direction (an angle, wrapped into (−π, π]).
    pub fn is_single_angle(&self, i: usize) -> bool {
        i >= self.ct.len && self.cr.len == 1
    }

    /// Whether coordinate `i` can be limited or mimicked: a translation, or the rotation
    /// of a joint with one free rotation.
    pub fn is_single_axis(&self, i: usize) -> bool {
        i < self.ct.len || self.is_single_angle(i)
    }

    /// Coordinate `i` (single-axis, see the module doc) at poses (a, b) of parent and child.
    pub fn coordinate(&self, a: &Pose, b: &Pose, i: usize) -> f64 {
        self.coordinate_and_gradient(a, b, i, false).0
    }

    /// Coordinate `i` and, with `gradient`, its derivatives (zero otherwise).
    pub fn coordinate_and_gradient(&self, a: &Pose, b: &Pose, i: usize, gradient: bool) -> (f64, CoordinateGradient) {
        debug_assert!(self.is_single_axis(i), "coordinate {i} is not single-axis");
        let z = V3::zeros();
        let mut g = CoordinateGradient { parent_x: z, parent_phi: z, child_x: z, child_phi: z };
        if i < self.ct.len {
            let ra = rotation(&a.q);
            let c = self.ct.dirs[i];
            let u = ra.transpose() * (b.x + rotation(&b.q) * self.p_child - a.x); // g_T + p_a
            if gradient {
                let e = ra * c;
                let rb = rotation(&b.q);
                g = CoordinateGradient { parent_x: -e, parent_phi: c.cross(&u), child_x: e, child_phi: self.p_child.cross(&(rb.transpose() * e)) };
            }
            return (c.dot(&(u - self.p_parent)), g);
        }
        let c = self.cr.dirs[0];
        let rel = self.relative_rotation(a, b);
        let (s, v) = (rel[0], vec_part(&rel));
        let axial = c.dot(&v);
        if gradient {
            let n2 = s * s + axial * axial;
            let child = (s * (s * c + c.cross(&v)) + axial * v) / n2;
            g.child_phi = rotation(&self.q_offset).transpose() * child;
            g.parent_phi = -(s * (s * c + v.cross(&c)) + axial * v) / n2;
        }
        (wrap_angle(2.0 * axial.atan2(s)), g)
    }
}

/// An angle wrapped into (−π, π].
pub fn wrap_angle(a: f64) -> f64 {
    let w = (a + PI).rem_euclid(2.0 * PI) - PI;
    if w == -PI {
        PI
    } else {
        w
    }
}

/// The angle equal to `wrapped` modulo 2π nearest to `reference`: the unwrapped angle of a
/// joint that turned by less than π since it was at `reference`.
pub fn unwrap_angle(reference: f64, wrapped: f64) -> f64 {
    reference + wrap_angle(wrapped - reference)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::tangent::tests::{random_joint, Rng};
    use crate::joints::JointType;
    use crate::math::qmul;

    fn perturbed(p: &Pose, dx: &V3, dphi: &V3) -> Pose {
        let half = 0.5 * dphi;
        let dq = crate::math::V4::new(1.0, half.x, half.y, half.z);
        Pose { x: p.x + dx, q: qmul(&p.q, &dq).normalize() }
    }

    /// Central differences of the coordinate against the analytic gradient, for every
    /// single-axis coordinate of every joint type, at random configurations (joint not
    /// satisfied). Largest difference seen: 5.3e-10 relative (h = 1e-6, entries of order 1).
    #[test]
    fn gradient_matches_finite_differences() {
        let mut rng = Rng(7);
        let h = 1e-6;
        for kind in JointType::ALL {
            for _ in 0..6 {
                let j = random_joint(kind, &mut rng, Some(0));
                let (a, b) = (rng.pose(), rng.pose());
                for i in (0..j.dof()).filter(|&i| j.is_single_axis(i)) {
                    let (_, g) = j.coordinate_and_gradient(&a, &b, i, true);
                    for k in 0..3 {
                        let e = V3::ith(k, h);
                        let z = V3::zeros();
                        let fd = |pa: Pose, pb: Pose, qa: Pose, qb: Pose| wrap_angle(j.coordinate(&pa, &pb, i) - j.coordinate(&qa, &qb, i)) / (2.0 * h);
                        let cases = [
                            (fd(perturbed(&a, &e, &z), b, perturbed(&a, &-e, &z), b), g.parent_x[k]),
                            (fd(perturbed(&a, &z, &e), b, perturbed(&a, &z, &-e), b), g.parent_phi[k]),
                            (fd(a, perturbed(&b, &e, &z), a, perturbed(&b, &-e, &z)), g.child_x[k]),
                            (fd(a, perturbed(&b, &z, &e), a, perturbed(&b, &z, &-e)), g.child_phi[k]),
                        ];
                        for (n, (fd, an)) in cases.iter().enumerate() {
                            assert!((fd - an).abs() < 1e-8 * (1.0 + an.abs()), "{kind:?} coordinate {i} case {n} column {k}: fd {fd} analytic {an}");
                        }
                    }
                }
            }
        }
    }

    /// Where the joint holds, the coordinate is the minimal coordinate, also near ±π.
    #[test]
    fn equals_the_minimal_coordinate_where_the_joint_holds() {
        let mut rng = Rng(11);
        for kind in [JointType::Revolute, JointType::Prismatic, JointType::Cylindrical, JointType::PlanarAxis] {
            let j = random_joint(kind, &mut rng, Some(0));
            let a = rng.pose();
            // near ±π on purpose: the coordinates' wrap
            #[allow(clippy::approx_constant)]
            for t in [-3.1, -1.0, 0.0, 0.4, 2.0, 3.14] {
                let coords: Vec<f64> = (0..j.dof()).map(|k| t + 0.1 * k as f64).collect();
                let b = j.child_pose(&a, &coords);
                let mut minimal = [0.0; 6];
                j.minimal_position(&a, &b, &mut minimal[..j.dof()]);
                for i in (0..j.dof()).filter(|&i| j.is_single_axis(i)) {
                    assert!((j.coordinate(&a, &b, i) - minimal[i]).abs() < 1e-12, "{kind:?} {i} at {t}");
                }
            }
        }
    }

    #[test]
    fn unwrapping_follows_the_nearest_turn() {
        assert_eq!(wrap_angle(-PI), PI);
        assert!((unwrap_angle(6.0, 6.1 - 2.0 * PI) - 6.1).abs() < 1e-12);
        assert!((unwrap_angle(-3.0, 3.0) - (3.0 - 2.0 * PI)).abs() < 1e-12);
        assert!((unwrap_angle(0.5, 0.7) - 0.7).abs() < 1e-15);
    }
}
