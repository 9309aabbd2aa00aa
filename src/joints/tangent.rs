//! The general constraints of appendix B and their derivatives in closed form, with
//! respect to each body's position x and a rotation δφ in its body frame,
//! q ↦ q ⊗ (1, δφ/2) (unit quaternions):
//!
//! ```text
//!   ∂g_T/∂x_a = −Q_aᵀ            ∂g_T/∂δφ_a = [g_T + p_a]×
//!   ∂g_T/∂x_b =  Q_aᵀ            ∂g_T/∂δφ_b = −Q_aᵀ Q_b [p_b]×
//!   ∂g_R/∂δφ_a = −½ (s I − [v]×)  ∂g_R/∂δφ_b = ½ (s I + [v]×) Q(q_off),
//! ```
//! (s, v) = q_a* ⊗ q_b ⊗ q_off*. Perturbing q_a right-multiplies q_a* by (1, −δφ_a/2) on
//! the left of the relative rotation, perturbing q_b inserts q_off ⊗ (1, δφ_b/2) ⊗ q_off*
//! on its right. These equal the quaternion derivatives of `constraint::GeneralConstraint`
//! times a rotation map (`L(q) Vᵀ` is 2·δφ, paper sec. 3.2) up to rounding, at a fraction
//! of the cost, and each joint evaluates only the rows its selection keeps: D = I rows are
//! copied, D = 0 rows skipped (the structural zeros of fixed, revolute, prismatic and
//! spherical joints), other selections projected.

use super::constraint::{Pose, Side};
use super::{Joint, Selection};
use crate::math::{conj, qmul, rotation, skew, vec_part, M3, V3, V4};

/// A pose with its rotation matrix Q(q), computed once and shared by every joint on the
/// body.
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    pub x: V3,
    pub q: V4,
    pub r: M3,
}

impl Placement {
    pub const WORLD: Placement = Placement { x: Pose::WORLD.x, q: Pose::WORLD.q, r: M3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0) };

    #[inline]
    pub fn of(p: &Pose) -> Placement {
        Placement { x: p.x, q: p.q, r: rotation(&p.q) }
    }
}

/// The derivatives above at one configuration of a joint (blocks its selection drops are
/// left zero).
#[derive(Debug, Clone, Copy)]
pub struct TangentJacobian {
    /// Q_aᵀ = ∂g_T/∂x_b = −∂g_T/∂x_a.
    rat: M3,
    /// ∂g_T/∂δφ for the parent (a) and the child (b).
    gt_a: M3,
    gt_b: M3,
    /// ∂g_R/∂δφ for the parent and the child.
    gr_a: M3,
    gr_b: M3,
}

impl Joint {
    /// Constraint values [D_Tᵀ g_T; D_Rᵀ g_R] (appendix B) into `out` (length nc), from
    /// placements: equal to [`Joint::constraint`] on their poses.
    #[inline]
    pub fn constraint_at(&self, a: &Placement, b: &Placement, out: &mut [f64]) {
        let gt = a.r.transpose() * (b.x + b.r * self.p_child - a.x) - self.p_parent;
        let gr = vec_part(&qmul(&qmul(&conj(&a.q), &b.q), &conj(&self.q_offset)));
        self.select_values(&gt, &gr, out);
    }

    /// The closed-form derivatives of g_T and g_R at placements (a, b).
    pub fn tangent_jacobian(&self, a: &Placement, b: &Placement) -> TangentJacobian {
        let rat = a.r.transpose();
        let (mut gt_a, mut gt_b, mut gr_a, mut gr_b) = (M3::zeros(), M3::zeros(), M3::zeros(), M3::zeros());
        if self.dt.len > 0 {
            let rb_p = b.r * self.p_child;
            gt_a = skew(&(rat * (b.x + rb_p - a.x)));
            gt_b = -(rat * b.r * skew(&self.p_child));
        }
        if self.dr.len > 0 {
            let rel = qmul(&qmul(&conj(&a.q), &b.q), &conj(&self.q_offset));
            let (s, v) = (0.5 * rel[0], 0.5 * vec_part(&rel));
            let sv = skew(&v);
            gr_a = sv - M3::from_diagonal_element(s);
            gr_b = (M3::from_diagonal_element(s) + sv) * rotation(&self.q_offset);
        }
        TangentJacobian { rat, gt_a, gt_b, gr_a, gr_b }
    }

    /// Jacobian block (nc × 6, row-major) of the constraint with respect to one body's
    /// velocity unknowns: translational columns scaled by `dx`, rotational columns mapped
    /// by `map` (δφ = map·δω), i.e. [D ∂g/∂x · dx, D ∂g/∂δφ · map]. Every entry is written.
    pub fn tangent_block(&self, t: &TangentJacobian, side: Side, dx: f64, map: &M3, out: &mut [f64]) {
        let (sx, gt, gr) = match side {
            Side::Parent => (-dx, &t.gt_a, &t.gr_a),
            Side::Child => (dx, &t.gt_b, &t.gr_b),
        };
        let (ts, rs) = self.kind.selection();
        let nt = self.dt.len;
        let (trans, rot) = out[..6 * (nt + self.dr.len)].split_at_mut(6 * nt);
        match ts {
            Selection::None => {}
            Selection::Full => write_rows(&(t.rat * sx), &(gt * map), trans),
            _ => project_rows(self.dt.as_slice(), Some((&t.rat, sx)), gt, map, trans),
        }
        match rs {
            Selection::None => {}
            Selection::Full => write_rows(&M3::zeros(), &(gr * map), rot),
            _ => project_rows(self.dr.as_slice(), None, gr, map, rot),
        }
    }
}

/// Three rows [x_r, φ_r] from 3×3 blocks.
#[inline]
fn write_rows(x: &M3, phi: &M3, out: &mut [f64]) {
    for (r, row) in out.chunks_exact_mut(6).take(3).enumerate() {
        for c in 0..3 {
            row[c] = x[(r, c)];
            row[3 + c] = phi[(r, c)];
        }
    }
}

/// Rows [dᵀ X s, dᵀ Φ map] for each direction d (X, s: the translational block and its
/// scale; none: zero columns).
#[inline]
fn project_rows(dirs: &[V3], x: Option<(&M3, f64)>, phi: &M3, map: &M3, out: &mut [f64]) {
    for (d, row) in dirs.iter().zip(out.chunks_exact_mut(6)) {
        let tx = x.map_or(V3::zeros(), |(m, s)| m.tr_mul(d) * s);
        let tq = map.tr_mul(&phi.tr_mul(d));
        for c in 0..3 {
            row[c] = tx[c];
            row[3 + c] = tq[c];
        }
    }
}

#[cfg(test)]
#[path = "tangent_tests.rs"]
pub(crate) mod tests;
