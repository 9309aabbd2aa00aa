//! The general constraints of appendix B and their analytic derivatives.
//!
//!   g_T = Q(q_a)ᵀ((x_b + Q(q_b) p_b) − (x_a + Q(q_a) p_a))        (translational)
//!   g_R = Vec(q_a* ⊗ q_b ⊗ q_off*)                                (rotational)
//!
//! A joint's constraint is [D_Tᵀ g_T; D_Rᵀ g_R]. Derivatives are taken with respect to
//! x and the 4 components of q; the solver maps them to body velocities with
//! `L(q) Vᵀ` (multiplier Jacobian G, at z_{k+1}) or `L(q_{k+1}) ∂ω̄/∂ω` (Newton matrix,
//! at z_{k+2}).

use super::{Joint, Selection};
use crate::math::{conj, d_rotate, d_rotate_transpose, lmat, qmul, rmat, rotation, tmat, vec_part, M3, M34, M43, V3, V4};

/// A body pose; the world is the identity pose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    pub x: V3,
    pub q: V4,
}

impl Pose {
    pub const WORLD: Pose = Pose { x: V3::new(0.0, 0.0, 0.0), q: V4::new(1.0, 0.0, 0.0, 0.0) };
}

/// Values and derivatives of g_T and g_R at one configuration.
#[derive(Debug, Clone, Copy)]
pub struct GeneralConstraint {
    pub gt: V3,
    pub gr: V3,
    pub dgt_dxa: M3,
    pub dgt_dqa: M34,
    pub dgt_dxb: M3,
    pub dgt_dqb: M34,
    pub dgr_dqa: M34,
    pub dgr_dqb: M34,
    /// q_rel = q_a* ⊗ q_b ⊗ q_off*, whose vector part is g_R.
    pub rel: V4,
    /// ∂g_H/∂q_a, ∂g_H/∂q_b of a universal joint's row (`hooke`); zero for other types.
    pub dgh_dqa: V4,
    pub dgh_dqb: V4,
}

impl GeneralConstraint {
    pub fn eval(j: &Joint, a: &Pose, b: &Pose) -> GeneralConstraint {
        let ra = rotation(&a.q);
        let rb = rotation(&b.q);
        let d = b.x + rb * j.p_child - a.x; // world-frame vector from a's origin to b's point
        let gt = ra.transpose() * d - j.p_parent;
        let dgt_dxb = ra.transpose();
        let dgt_dxa = -ra.transpose();
        let dgt_dqb = ra.transpose() * d_rotate(&b.q, &j.p_child);
        let dgt_dqa = d_rotate_transpose(&a.q, &d);
        let qoc = conj(&j.q_offset);
        let rel = j.relative_rotation(a, b);
        let gr = vec_part(&rel);
        let hooke = j.kind.selection().1 == Selection::Hooke;
        let hooke_gradient = |side| if hooke { j.hooke_quaternion_gradient(a, b, side) } else { V4::zeros() };
        // ∂/∂q_b: L(q_a*) R(q_off*) ; ∂/∂q_a: R(q_b ⊗ q_off*) T   (rows 1..3)
        let dqb = lmat(&conj(&a.q)) * rmat(&qoc);
        let dqa = rmat(&qmul(&b.q, &qoc)) * tmat();
        GeneralConstraint {
            gt,
            gr,
            dgt_dxa,
            dgt_dqa,
            dgt_dxb,
            dgt_dqb,
            dgr_dqa: dqa.fixed_view::<3, 4>(1, 0).into_owned(),
            dgr_dqb: dqb.fixed_view::<3, 4>(1, 0).into_owned(),
            rel,
            dgh_dqa: hooke_gradient(Side::Parent),
            dgh_dqb: hooke_gradient(Side::Child),
        }
    }
}

/// Which body of a joint a Jacobian block belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Parent,
    Child,
}

impl Joint {
    /// g_T: the child's joint point seen from the parent's frame, relative to the
    /// parent's joint point, Q(q_a)ᵀ(x_b + Q(q_b) p_b − x_a) − p_a (appendix B); it is
    /// also the translational joint displacement the minimal coordinates read.
    #[inline]
    pub fn displacement(&self, a: &Pose, b: &Pose) -> V3 {
        rotation(&a.q).transpose() * (b.x + rotation(&b.q) * self.p_child - a.x) - self.p_parent
    }

    /// The relative rotation q_a* ⊗ q_b ⊗ q_off* (appendix B); g_R is its vector part and
    /// the rotational minimal coordinates its rotation vector.
    #[inline]
    pub fn relative_rotation(&self, a: &Pose, b: &Pose) -> V4 {
        qmul(&qmul(&conj(&a.q), &b.q), &conj(&self.q_offset))
    }

    /// Constraint values [D_Tᵀ g_T; D_Rᵀ g_R] written into `out` (length nc).
    /// (Values only: the residual needs no derivatives.)
    pub fn constraint(&self, a: &Pose, b: &Pose, out: &mut [f64]) {
        let gt = self.displacement(a, b);
        self.select_values(&gt, &self.relative_rotation(a, b), out);
    }

    pub fn select(&self, g: &GeneralConstraint, out: &mut [f64]) {
        self.select_values(&g.gt, &g.rel, out);
    }

    /// Rows from g_T and the relative rotation q_rel (g_R = Vec(q_rel), or the universal
    /// joint's g_H).
    pub(super) fn select_values(&self, gt: &V3, q_rel: &V4, out: &mut [f64]) {
        let (ts, rs) = self.kind.selection();
        let nt = self.dt.len;
        // D = I: the rows are the values themselves
        if ts == Selection::Full {
            out[..3].copy_from_slice(gt.as_slice());
        } else {
            for (r, d) in self.dt.as_slice().iter().enumerate() {
                out[r] = d.dot(gt);
            }
        }
        let gr = vec_part(q_rel);
        if rs == Selection::Full {
            out[nt..nt + 3].copy_from_slice(gr.as_slice());
        } else if rs == Selection::Hooke {
            out[nt] = self.hooke_value(q_rel);
        } else {
            for (r, d) in self.dr.as_slice().iter().enumerate() {
                out[nt + r] = d.dot(&gr);
            }
        }
    }

    /// Jacobian block (nc × 6, row-major) of the constraint with respect to one body's
    /// generalized velocity: translational columns scaled by `dx`, rotational columns
    /// mapped by `dq` (4×3), i.e. G = [D ∂g/∂x · dx, D ∂g/∂q · dq].
    pub fn jacobian_block(&self, g: &GeneralConstraint, side: Side, dx: f64, dq: &M43, out: &mut [f64]) {
        let (gx, gtq, grq, ghq) = match side {
            Side::Parent => (g.dgt_dxa, g.dgt_dqa * dq, g.dgr_dqa * dq, dq.tr_mul(&g.dgh_dqa)),
            Side::Child => (g.dgt_dxb, g.dgt_dqb * dq, g.dgr_dqb * dq, dq.tr_mul(&g.dgh_dqb)),
        };
        let nt = self.dt.len;
        for (r, d) in self.dt.as_slice().iter().enumerate() {
            let tx = gx.transpose() * d;
            let tq = gtq.transpose() * d;
            let row = &mut out[r * 6..r * 6 + 6];
            for c in 0..3 {
                row[c] = tx[c] * dx;
                row[3 + c] = tq[c];
            }
        }
        let hooke = self.kind.selection().1 == Selection::Hooke;
        for (r, d) in self.dr.as_slice().iter().enumerate() {
            let rq = if hooke { ghq } else { grq.transpose() * d };
            let row = &mut out[(nt + r) * 6..(nt + r) * 6 + 6];
            for c in 0..3 {
                row[c] = 0.0;
                row[3 + c] = rq[c];
            }
        }
    }
}
