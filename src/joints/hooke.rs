//! The rotational row of the universal (Hooke) joint and its minimal coordinates.
//!
//! The parent's axis a (parent frame) stays perpendicular to the child's axis b:
//!
//! ```text
//!   g_H = (Q_a a)ᵀ(Q_b b) = aᵀ Q(q_rel) b',   q_rel = q_a* ⊗ q_b ⊗ q_off*,  b' = Q(q_off) b
//! ```
//! b' (`Joint::second_axis`) is the child's axis as it lies in the parent frame at zero
//! coordinates, perpendicular to a. This is not a selection of g_R (appendix B): it is the
//! one rotational row of a 2-DoF rotation, the two free rotations being about a (fixed in
//! the parent) and about b (fixed in the child). The relative rotation is
//! q_rel = exp(α a) ⊗ exp(β b'), α, β the minimal coordinates: with u = Q(q_rel) b' =
//! Q(α a) b', aᵀu = aᵀb' = 0 for every α, β. The parent-frame relative angular velocity is
//! α̇ a + β̇ u, and a, u, a × u are orthonormal, so α̇ = aᵀω_rel, β̇ = uᵀω_rel.
//!
//! Derivatives with respect to body-frame rotations δφ (`joints::tangent`):
//! perturbing q_a left-multiplies q_rel by exp(−δφ_a), perturbing q_b right-multiplies it
//! by exp(Q(q_off) δφ_b), so
//!
//! ```text
//!   ∂g_H/∂δφ_a = a × u,   ∂g_H/∂δφ_b = Q(q_off)ᵀ (b' × w),   w = Q(q_rel)ᵀ a.
//! ```

use super::constraint::{Pose, Side};
use super::{Joint, RotationChart};
use crate::math::{conj, d_rotate, from_rotation_vector, qmul, rotation, vec_part, IDENTITY, V3, V4};
use std::f64::consts::PI;

/// Angle wrapped to (−π, π].
fn wrap(x: f64) -> f64 {
    let y = (x + PI).rem_euclid(2.0 * PI) - PI;
    if y == -PI {
        PI
    } else {
        y
    }
}

impl Joint {
    /// g_H at the relative rotation q_rel.
    #[inline]
    pub(super) fn hooke_value(&self, q_rel: &V4) -> f64 {
        self.axis.dot(&(rotation(q_rel) * self.second_axis))
    }

    /// [∂g_H/∂δφ_a, ∂g_H/∂δφ_b] at the relative rotation q_rel (see the module comment).
    #[inline]
    pub(super) fn hooke_gradients(&self, q_rel: &V4) -> (V3, V3) {
        let r = rotation(q_rel);
        let u = r * self.second_axis;
        let w = r.tr_mul(&self.axis);
        let child = self.second_axis.cross(&w);
        let child = if self.q_offset == IDENTITY { child } else { rotation(&self.q_offset).tr_mul(&child) };
        (self.axis.cross(&u), child)
    }

    /// ∂g_H/∂q of one body (the generic kernel's quaternion derivative, independent of
    /// [`Joint::hooke_gradients`]): g_H = (Q(q_a) a)ᵀ(Q(q_b) b) with b = Q(q_off)ᵀ b'.
    pub(super) fn hooke_quaternion_gradient(&self, a: &Pose, b: &Pose, side: Side) -> V4 {
        let b_child = rotation(&self.q_offset).tr_mul(&self.second_axis);
        match side {
            Side::Parent => d_rotate(&a.q, &self.axis).tr_mul(&(rotation(&b.q) * b_child)),
            Side::Child => d_rotate(&b.q, &b_child).tr_mul(&(rotation(&a.q) * self.axis)),
        }
    }

    /// The child's axis in the parent frame, u = Q(q_rel) b': the second free rotation's
    /// direction at this configuration.
    pub fn hooke_child_axis(&self, q_rel: &V4) -> V3 {
        rotation(q_rel) * self.second_axis
    }

    /// (α, β) with q_rel = exp(α a) ⊗ exp(β b'), each in (−π, π]. α is the angle about a
    /// from b' to u = Q(q_rel) b'; β the angle left about b'.
    pub(super) fn hooke_angles(&self, q_rel: &V4) -> (f64, f64) {
        let (a, b) = (&self.axis, &self.second_axis);
        let u = rotation(q_rel) * b;
        let alpha = a.cross(b).dot(&u).atan2(b.dot(&u));
        let rest = qmul(&from_rotation_vector(&(-alpha * a)), q_rel);
        let beta = 2.0 * b.dot(&vec_part(&rest)).atan2(rest[0]);
        (alpha, wrap(beta))
    }

    /// exp(α a) ⊗ exp(β b').
    pub(super) fn hooke_rotation(&self, alpha: f64, beta: f64) -> V4 {
        qmul(&from_rotation_vector(&(alpha * self.axis)), &from_rotation_vector(&(beta * self.second_axis)))
    }

    /// (α̇, β̇) from the parent-frame relative angular velocity.
    pub(super) fn hooke_rates(&self, q_rel: &V4, w_rel: &V3) -> (f64, f64) {
        (self.axis.dot(w_rel), self.hooke_child_axis(q_rel).dot(w_rel))
    }

    /// The parent-frame relative angular velocity of rates (α̇, β̇).
    pub(super) fn hooke_angular_velocity(&self, q_rel: &V4, rates: &[f64]) -> V3 {
        self.axis * rates[0] + self.hooke_child_axis(q_rel) * rates[1]
    }

    /// Sets b' (parent frame at zero coordinates; made exactly perpendicular to the axis)
    /// and the constrained and free rotational directions that follow from it.
    pub fn set_second_axis(&mut self, b: &V3) {
        let a = self.axis;
        let b = (b - a * a.dot(b)).normalize();
        self.second_axis = b;
        self.dr.dirs[0] = a.cross(&b);
        self.cr.dirs[0] = a;
        self.cr.dirs[1] = b;
    }
}

impl Joint {
    /// Rotational free direction `k` (parent frame) at the relative rotation of body
    /// orientations q_a, q_b: `cr[k]`, except an axis fixed in the child
    /// ([`Joint::child_fixed_axis`]: the universal joint's second, u), which turns with α.
    pub fn rotational_free_direction(&self, qa: &V4, qb: &V4, k: usize) -> V3 {
        if self.is_child_fixed(k) {
            let q_rel = qmul(&qmul(&crate::math::conj(qa), qb), &crate::math::conj(&self.q_offset));
            self.hooke_child_axis(&q_rel)
        } else {
            self.cr.dirs[k]
        }
    }

    /// Whether rotational free direction `k` turns with the child: the second axis of the
    /// angles' chart.
    #[inline]
    fn is_child_fixed(&self, k: usize) -> bool {
        self.rotation_chart() == RotationChart::Angles && k == 1
    }

    /// Rotational free direction `k` in the child frame if it is fixed in the child (the
    /// angles' second axis b = Q(q_off)ᵀ b'); None for a direction fixed in the parent.
    pub fn child_fixed_axis(&self, k: usize) -> Option<V3> {
        self.is_child_fixed(k).then(|| rotation(&self.q_offset).tr_mul(&self.second_axis))
    }

    /// Gradients of the angles (α, β) with respect to a left perturbation exp(δψ) ⊗ q_rel
    /// of the relative rotation (parent frame), at body orientations q_a, q_b where the
    /// constraint need not hold. With u = Q(q_rel) b', α = atan2(y, x), y = (a × b')ᵀu,
    /// x = b'ᵀu, and δu = δψ × u:
    ///   ∇α = (x u × (a × b') − y u × b') / (x² + y²).
    /// β = 2 atan2(b'ᵀv, w) of (w, v) = exp(−α a) ⊗ q_rel, which moves by the left
    /// perturbation η = Q(−α a)(δψ − a δα):
    ///   ∇_η β = (w (w b' + v × b') + (b'ᵀv) v) / (w² + (b'ᵀv)²),  ∇β = Q(α a) ∇_η β − (aᵀ∇_η β) ∇α.
    /// Both reduce to a and u where the constraint aᵀu = 0 holds.
    pub fn angle_gradients(&self, qa: &V4, qb: &V4) -> (V3, V3) {
        let (a, bp) = (&self.axis, &self.second_axis);
        let q_rel = qmul(&qmul(&conj(qa), qb), &conj(&self.q_offset));
        let u = rotation(&q_rel) * bp;
        let axb = a.cross(bp);
        let (x, y) = (bp.dot(&u), axb.dot(&u));
        let alpha = y.atan2(x);
        let g_alpha = (u.cross(&axb) * x - u.cross(bp) * y) / (x * x + y * y);
        let spin = from_rotation_vector(&(alpha * a));
        let rest = qmul(&conj(&spin), &q_rel);
        let (w, v) = (rest[0], vec_part(&rest));
        let yb = bp.dot(&v);
        let g_eta = (w * (w * bp + v.cross(bp)) + yb * v) / (w * w + yb * yb);
        (g_alpha, rotation(&spin) * g_eta - g_alpha * a.dot(&g_eta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::tangent::tests::{random_joint, Rng};
    use crate::joints::JointType;

    #[test]
    fn angles_round_trip() {
        let mut rng = Rng(17);
        let mut worst: f64 = 0.0;
        for _ in 0..200 {
            let j = random_joint(JointType::Universal, &mut rng, Some(0));
            let (alpha, beta) = (rng.next() * 3.1, rng.next() * 3.1);
            let q = j.hooke_rotation(alpha, beta);
            assert!(j.hooke_value(&q).abs() < 1e-15, "{}", j.hooke_value(&q));
            let (a2, b2) = j.hooke_angles(&q);
            worst = worst.max((a2 - alpha).abs()).max((b2 - beta).abs());
        }
        // 8.9e-16 measured
        assert!(worst < 1e-14, "{worst:e}");
    }

    #[test]
    fn gradients_match_finite_differences() {
        let mut rng = Rng(23);
        let mut worst: f64 = 0.0;
        for _ in 0..50 {
            let j = random_joint(JointType::Universal, &mut rng, Some(0));
            let (a, b) = (rng.pose(), rng.pose());
            let (ga, gb) = j.hooke_gradients(&j.relative_rotation(&a, &b));
            let h = 1e-6;
            for k in 0..3 {
                let d = V3::ith(k, h);
                let turn = |p: &Pose, s: f64| Pose { x: p.x, q: qmul(&p.q, &from_rotation_vector(&(s * d))) };
                let g = |a: &Pose, b: &Pose| j.hooke_value(&j.relative_rotation(a, b));
                let fa = (g(&turn(&a, 1.0), &b) - g(&turn(&a, -1.0), &b)) / (2.0 * h);
                let fb = (g(&a, &turn(&b, 1.0)) - g(&a, &turn(&b, -1.0))) / (2.0 * h);
                worst = worst.max((fa - ga[k]).abs()).max((fb - gb[k]).abs());
            }
        }
        // central differences, h = 1e-6: 3.3e-10 measured (the truncation and rounding of
        // the difference, gradients of order 1)
        assert!(worst < 1e-9, "{worst:e}");
    }
}
