//! The general constraints of appendix B and their derivatives in closed form, with
//! respect to each body's position x and a rotation δφ in its body frame,
//! q ↦ q ⊗ (1, δφ/2) (unit quaternions):
//!
//! ```text
//!   ∂g_T/∂x_a = −Q_aᵀ             ∂g_T/∂δφ_a = [g_T + p_a]×
//!   ∂g_T/∂x_b =  Q_aᵀ             ∂g_T/∂δφ_b = −Q_aᵀ Q_b [p_b]×
//!   ∂g_R/∂δφ_a = −½ (s I − [v]×)  ∂g_R/∂δφ_b = ½ (s I + [v]×) Q(q_off)
//! ```
//! with (s, v) = q_a* ⊗ q_b ⊗ q_off*: perturbing q_a puts (1, −δφ_a/2) on the left of the
//! relative rotation, perturbing q_b puts q_off ⊗ (1, δφ_b/2) ⊗ q_off* on its right. The
//! rotational gradient of appendix A, ∂f/∂ʳq = ∂f/∂q L(q)Vᵀ, is 2 ∂f/∂δφ, so G(z) of the
//! constrained dynamics (sec. 3, eq. `constrained_d`) is [∂g/∂x, 2 ∂g/∂δφ]. These equal
//! the quaternion derivatives of `constraint::GeneralConstraint` through a rotation map up
//! to rounding, at a fraction of the cost, and each joint evaluates only the rows its
//! selection keeps: D = I rows are copied and D = 0 rows skipped (the structural zeros of
//! fixed, revolute, prismatic and spherical joints), other selections projected.

use super::constraint::{Pose, Side};
use super::{Joint, Selection};
use crate::math::{conj, qmul, rotation, skew, vec_part, IDENTITY, M3, V3, V4};

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

/// The map from a body's angular velocity unknown to the rotation δφ of its pose.
#[derive(Debug, Clone, Copy)]
pub enum RotationMap<'a> {
    /// δφ = M δω (the Newton matrix at z_{k+2}, `integrator::next_poses`).
    Matrix(&'a M3),
    /// δφ = c δω (c = 2: the multiplier Jacobian's q ⊗ (0, δω), paper sec. 3.2).
    Scale(f64),
}

impl RotationMap<'_> {
    /// X·map for a block X of derivatives with respect to δφ.
    #[inline]
    fn right(&self, x: &M3) -> M3 {
        match self {
            RotationMap::Matrix(m) => x * *m,
            RotationMap::Scale(c) => x * *c,
        }
    }

    /// mapᵀ·u for a row uᵀ of derivatives with respect to δφ.
    #[inline]
    fn row(&self, u: &V3) -> V3 {
        match self {
            RotationMap::Matrix(m) => m.tr_mul(u),
            RotationMap::Scale(c) => u * *c,
        }
    }
}

/// A joint at one configuration (a, b), with what the blocks of both sides share; each
/// block is evaluated on demand (`Joint::tangent_block`).
#[derive(Debug, Clone, Copy)]
pub struct TangentJacobian<'a> {
    a: &'a Placement,
    b: &'a Placement,
    /// g_T + p_a = Q_aᵀ(x_b + Q_b p_b − x_a), when the joint has translational rows.
    arm: V3,
    /// ½ q_a* ⊗ q_b ⊗ q_off*, when the joint has rotational rows.
    half_rel: V4,
}

impl Joint {
    /// Constraint values [D_Tᵀ g_T; D_Rᵀ g_R] (appendix B) into `out` (length nc), from
    /// placements: equal to [`Joint::constraint`] on their poses.
    #[inline]
    pub fn constraint_at(&self, a: &Placement, b: &Placement, out: &mut [f64]) {
        let gt = a.r.transpose() * (b.x + b.r * self.p_child - a.x) - self.p_parent;
        self.select_values(&gt, &self.relative_rotation_of(&a.q, &b.q), out);
    }

    /// q_a* ⊗ q_b ⊗ q_off* (appendix B); without an offset (q_off = 1, the common case)
    /// the last product is skipped, which changes no value.
    #[inline]
    fn relative_rotation_of(&self, qa: &V4, qb: &V4) -> V4 {
        let p = qmul(&conj(qa), qb);
        if self.q_offset == IDENTITY {
            p
        } else {
            qmul(&p, &conj(&self.q_offset))
        }
    }

    /// Q(q_off), None without an offset.
    #[inline]
    fn offset_rotation(&self) -> Option<M3> {
        (self.q_offset != IDENTITY).then(|| rotation(&self.q_offset))
    }

    /// The joint's derivatives at placements (a, b).
    #[inline]
    pub fn tangent_jacobian<'a>(&self, a: &'a Placement, b: &'a Placement) -> TangentJacobian<'a> {
        let arm = if self.dt.len > 0 { a.r.tr_mul(&(b.x + b.r * self.p_child - a.x)) } else { V3::zeros() };
        let half_rel = if self.dr.len > 0 { 0.5 * self.relative_rotation_of(&a.q, &b.q) } else { V4::zeros() };
        TangentJacobian { a, b, arm, half_rel }
    }

    /// Jacobian block (nc × 6, row-major) of the constraint with respect to one body's
    /// velocity unknowns: translational columns scaled by `dx`, rotational columns mapped
    /// by `map`, i.e. [D ∂g/∂x · dx, D ∂g/∂δφ · map]. Every entry is written.
    pub fn tangent_block(&self, t: &TangentJacobian, side: Side, dx: f64, map: RotationMap, out: &mut [f64]) {
        let (ts, rs) = self.kind.selection();
        let nt = self.dt.len;
        let (trans, rot) = out[..6 * (nt + self.dr.len)].split_at_mut(6 * nt);
        let (a, b, p) = (t.a, t.b, &self.p_child);
        let sx = if side == Side::Parent { -dx } else { dx };
        match (ts, side) {
            (Selection::None, _) => {}
            // ±Q_aᵀ dx, [g_T + p_a]× M
            (Selection::Full, Side::Parent) => write_rows(&(a.r.transpose() * sx), &map.right(&skew(&t.arm)), trans),
            // −Q_aᵀ Q_b [p_b]× M: row r of A[p]× is (a_r × p)ᵀ
            (Selection::Full, Side::Child) => {
                let ab = a.r.tr_mul(&b.r);
                let mut abp = M3::zeros();
                for r in 0..3 {
                    abp.set_row(r, &(p.cross(&ab.row(r).transpose())).transpose());
                }
                write_rows(&(a.r.transpose() * sx), &map.right(&abp), trans);
            }
            // rows dᵀ: ±(Q_a d)ᵀ dx, (Mᵀ(d × (g_T + p_a)))ᵀ or (Mᵀ(p_b × Q_bᵀ Q_a d))ᵀ
            _ => {
                for (d, row) in self.dt.as_slice().iter().zip(trans.chunks_exact_mut(6)) {
                    let ad = a.r * d;
                    let u = match side {
                        Side::Parent => d.cross(&t.arm),
                        Side::Child => p.cross(&b.r.tr_mul(&ad)),
                    };
                    write_row(&(ad * sx), &map.row(&u), row);
                }
            }
        }
        let (s, v) = (t.half_rel[0], vec_part(&t.half_rel));
        match (rs, side) {
            (Selection::None, _) => {}
            // one row, ∂g_H/∂δφ M (`hooke`)
            (Selection::Hooke, _) => {
                let (ga, gb) = self.hooke_gradients(&(2.0 * t.half_rel));
                write_row(&V3::zeros(), &map.row(if side == Side::Parent { &ga } else { &gb }), rot);
            }
            // −½(s I − [v]×) M
            (Selection::Full, Side::Parent) => write_rows(&M3::zeros(), &map.right(&(skew(&v) - M3::from_diagonal_element(s))), rot),
            // ½(s I + [v]×) Q(q_off) M
            (Selection::Full, Side::Child) => {
                let off = self.offset_rotation();
                let mut so = M3::zeros();
                for c in 0..3 {
                    let col = off.map_or(V3::ith(c, 1.0), |off| off.column(c).into_owned());
                    so.set_column(c, &(s * col + v.cross(&col)));
                }
                write_rows(&M3::zeros(), &map.right(&so), rot);
            }
            // rows dᵀ: −(Mᵀ(s d + v × d))ᵀ
            (_, Side::Parent) => {
                for (d, row) in self.dr.as_slice().iter().zip(rot.chunks_exact_mut(6)) {
                    write_row(&V3::zeros(), &map.row(&-(s * d + v.cross(d))), row);
                }
            }
            // rows dᵀ: (Mᵀ Q(q_off)ᵀ (s d − v × d))ᵀ
            (_, Side::Child) => match self.offset_rotation() {
                None => {
                    for (d, row) in self.dr.as_slice().iter().zip(rot.chunks_exact_mut(6)) {
                        write_row(&V3::zeros(), &map.row(&(s * d - v.cross(d))), row);
                    }
                }
                Some(off) => {
                    for (d, row) in self.dr.as_slice().iter().zip(rot.chunks_exact_mut(6)) {
                        write_row(&V3::zeros(), &map.row(&off.tr_mul(&(s * d - v.cross(d)))), row);
                    }
                }
            },
        }
    }
}

/// Three rows [x_r, φ_r] from 3×3 blocks.
#[inline]
fn write_rows(x: &M3, phi: &M3, out: &mut [f64]) {
    let out: &mut [f64; 18] = (&mut out[..18]).try_into().expect("three rows");
    for r in 0..3 {
        for c in 0..3 {
            out[r * 6 + c] = x[(r, c)];
            out[r * 6 + 3 + c] = phi[(r, c)];
        }
    }
}

#[inline]
fn write_row(x: &V3, phi: &V3, row: &mut [f64]) {
    let row: &mut [f64; 6] = (&mut row[..6]).try_into().expect("one row");
    *row = [x.x, x.y, x.z, phi.x, phi.y, phi.z];
}

#[cfg(test)]
#[path = "tangent_tests.rs"]
pub(crate) mod tests;
