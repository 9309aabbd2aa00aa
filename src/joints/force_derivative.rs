//! How a joint's constraint forces G(z)ᵀλ change with the configuration z at fixed
//! multipliers λ: the second derivatives of the constraints of appendix B that the step's
//! state derivative needs (the step applies −G(z_{k+1})ᵀλ, paper sec. 3.2).
//!
//! With μ_T = D_T λ_T and μ_R = D_R λ_R, G = [∂g/∂x, 2 ∂g/∂δφ] (`tangent`) gives
//! ```text
//!   child:  force Q_a μ_T,   torque rows 2 p_b × (Q_bᵀ Q_a μ_T) + Q_offᵀ (s μ_R − v × μ_R)
//!   parent: force −Q_a μ_T,  torque rows 2 μ_T × arm − (s μ_R + v × μ_R)
//! ```
//! with arm = g_T + p_a = Q_aᵀ(x_b + Q_b p_b − x_a) and (s, v) = q_a* ⊗ q_b ⊗ q_off*.
//! Perturbations are those of `tangent`: δx, and q ↦ q ⊗ (1, δφ/2), under which
//! δQ = Q [δφ]×, δarm = Q_aᵀ(δx_b − δx_a) − Q_aᵀ Q_b [p_b]× δφ_b + [arm]× δφ_a, and the
//! relative rotation moves by
//! ```text
//!   δs = ½ vᵀ δφ_a − ½ vᵀ Q_off δφ_b,   δv = −½ (s I − [v]×) δφ_a + ½ (s I + [v]×) Q_off δφ_b.
//! ```
//! The universal joint's row g_H = aᵀ Q(q_rel) b' has torque rows 2λ a × u (parent) and
//! 2λ Q_offᵀ (b' × w) (child), u = Q(q_rel) b', w = Q(q_rel)ᵀ a (`hooke`), with
//! δu = [u]× δφ_a − Q(q_rel) [b']× Q_off δφ_b and δw = −Q(q_rel)ᵀ [a]× δφ_a + [w]× Q_off δφ_b.

use super::tangent::Placement;
use super::{Joint, Selection};
use crate::math::{qmul, conj, rotation, skew, vec_part, M3, M6, V3};

/// Index of the parent and the child in [`Joint::constraint_force_derivative`]'s blocks.
pub const PARENT: usize = 0;
pub const CHILD: usize = 1;

impl Joint {
    /// ∂(G(z)ᵀλ)/∂z at placements (a, b): `blocks[r][c]` is the 6×6 derivative of body
    /// r's rows (force, then twice the torque, as the step's body rows) with respect to
    /// body c's tangent (δx world, δφ body frame); r, c ∈ {[`PARENT`], [`CHILD`]}. Blocks
    /// of the world (a parent of None) are computed but meaningless.
    pub fn constraint_force_derivative(&self, a: &Placement, b: &Placement, lambda: &[f64]) -> [[M6; 2]; 2] {
        let mut out = [[M6::zeros(); 2]; 2];
        let nt = self.dt.len;
        if nt > 0 {
            let mu: V3 = self.dt.as_slice().iter().zip(&lambda[..nt]).map(|(d, l)| d * *l).sum();
            self.add_translation_force_derivative(a, b, &mu, &mut out);
        }
        let (_, rs) = self.kind.selection();
        let off = rotation(&self.q_offset);
        let rel = qmul(&qmul(&conj(&a.q), &b.q), &conj(&self.q_offset));
        match rs {
            Selection::None => {}
            Selection::Hooke => {
                let l2 = 2.0 * lambda[nt];
                let r = rotation(&rel);
                let (ax, bp) = (&self.axis, &self.second_axis);
                let (u, w) = (r * bp, r.tr_mul(ax));
                let (sa, sb) = (skew(ax), skew(bp));
                add(&mut out[PARENT][PARENT], 3, 3, &(l2 * sa * skew(&u)));
                add(&mut out[PARENT][CHILD], 3, 3, &(-l2 * sa * r * sb * off));
                add(&mut out[CHILD][PARENT], 3, 3, &(-l2 * off.transpose() * sb * r.transpose() * sa));
                add(&mut out[CHILD][CHILD], 3, 3, &(l2 * off.transpose() * sb * skew(&w) * off));
            }
            _ => {
                let mu: V3 = self.dr.as_slice().iter().zip(&lambda[nt..]).map(|(d, l)| d * *l).sum();
                let (s, v) = (rel[0], vec_part(&rel));
                let sv = skew(&v);
                let id = M3::identity();
                // (δs row, δv block) per body tangent δφ
                let ds_a = 0.5 * v.transpose();
                let dv_a = -0.5 * (s * id - sv);
                let ds_b = -0.5 * v.transpose() * off;
                let dv_b = 0.5 * (s * id + sv) * off;
                let smu = skew(&mu);
                for (c, ds, dv) in [(PARENT, ds_a, dv_a), (CHILD, ds_b, dv_b)] {
                    let mds = mu * ds;
                    add(&mut out[CHILD][c], 3, 3, &(off.transpose() * (mds + smu * dv)));
                    add(&mut out[PARENT][c], 3, 3, &(-mds + smu * dv));
                }
            }
        }
        out
    }
}

impl Joint {
    /// Adds the translational rows' part of [`Joint::constraint_force_derivative`] for the
    /// parent-frame force μ (the forces ±Q_a μ at the joint points): also the derivative of
    /// a translational coordinate's force map, μ its direction times its force.
    pub fn add_translation_force_derivative(&self, a: &Placement, b: &Placement, mu: &V3, out: &mut [[M6; 2]; 2]) {
        let w = a.r * mu;
        let arm = a.r.tr_mul(&(b.x + b.r * self.p_child - a.x));
        let qa_mu = a.r * skew(mu);
        let pb = skew(&self.p_child);
        // forces ±Q_a μ turn with the parent
        add(&mut out[CHILD][PARENT], 0, 3, &-qa_mu);
        add(&mut out[PARENT][PARENT], 0, 3, &qa_mu);
        // child torque rows 2 [p_b]× Q_bᵀ w
        add(&mut out[CHILD][PARENT], 3, 3, &(-2.0 * pb * b.r.transpose() * qa_mu));
        add(&mut out[CHILD][CHILD], 3, 3, &(2.0 * pb * skew(&b.r.tr_mul(&w))));
        // parent torque rows 2 [μ]× arm
        let m2 = 2.0 * skew(mu);
        let m2_qat = m2 * a.r.transpose();
        add(&mut out[PARENT][CHILD], 3, 0, &m2_qat);
        add(&mut out[PARENT][PARENT], 3, 0, &-m2_qat);
        add(&mut out[PARENT][CHILD], 3, 3, &(-m2_qat * b.r * pb));
        add(&mut out[PARENT][PARENT], 3, 3, &(m2 * skew(&arm)));
    }
}

/// Adds a 3×3 block at (row, col) of a 6×6.
#[inline]
pub(crate) fn add(m: &mut M6, row: usize, col: usize, b: &M3) {
    let mut v = m.fixed_view_mut::<3, 3>(row, col);
    v += b;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrator::joint_rows::multiplier_blocks;
    use crate::joints::constraint::Pose;
    use crate::joints::tangent::tests::{random_joint, Rng};
    use crate::joints::JointType;
    use crate::math::{qmul, V4};

    /// Pose moved along tangent k (0..3 x, 3..6 body-frame rotation) by h.
    fn moved(p: &Pose, k: usize, h: f64) -> Pose {
        let mut d = [0.0; 6];
        d[k] = h;
        let phi = V3::new(d[3], d[4], d[5]);
        let half = 0.5 * phi;
        let e = V4::new((1.0 - half.norm_squared()).sqrt(), half.x, half.y, half.z);
        Pose { x: p.x + V3::new(d[0], d[1], d[2]), q: qmul(&p.q, &e) }
    }

    /// G(a, b)ᵀλ of both bodies (12 entries: parent then child).
    fn forces(j: &Joint, a: &Pose, b: &Pose, lambda: &[f64]) -> [f64; 12] {
        let nc = j.constraint_count();
        let (mut ga, mut gb) = ([0.0; 36], [0.0; 36]);
        multiplier_blocks(j, &Placement::of(a), &Placement::of(b), &mut ga[..6 * nc], &mut gb[..6 * nc]);
        let mut f = [0.0; 12];
        for r in 0..nc {
            for k in 0..6 {
                f[k] += ga[r * 6 + k] * lambda[r];
                f[6 + k] += gb[r * 6 + k] * lambda[r];
            }
        }
        f
    }

    /// Every joint type, random poses, offsets and multipliers, against central differences
    /// of G(z)ᵀλ (h = 1e-6): largest difference relative to the largest entry 5.1e-10
    /// measured (the differences' rounding, ~1e-16/h); the bound leaves a factor 4.
    #[test]
    fn constraint_force_derivative_matches_central_differences() {
        let mut rng = Rng(11);
        let mut worst: f64 = 0.0;
        for _ in 0..20 {
            for kind in JointType::ALL {
                let j = random_joint(kind, &mut rng, Some(0));
                let nc = j.constraint_count();
                let lambda: Vec<f64> = (0..nc).map(|_| 3.0 * rng.next()).collect();
                let (a, b) = (Pose { x: rng.v3(1.0), q: rng.quat() }, Pose { x: rng.v3(1.0), q: rng.quat() });
                let d = j.constraint_force_derivative(&Placement::of(&a), &Placement::of(&b), &lambda);
                let h = 1e-6;
                for c in [PARENT, CHILD] {
                    for k in 0..6 {
                        let at = |s: f64| if c == PARENT { forces(&j, &moved(&a, k, s * h), &b, &lambda) } else { forces(&j, &a, &moved(&b, k, s * h), &lambda) };
                        let (p, m) = (at(1.0), at(-1.0));
                        let scale = d.iter().flatten().fold(1e-3f64, |s, blk| s.max(blk.abs().max()));
                        for r in [PARENT, CHILD] {
                            for row in 0..6 {
                                let fd = (p[6 * r + row] - m[6 * r + row]) / (2.0 * h);
                                worst = worst.max((fd - d[r][c][(row, k)]).abs() / scale);
                            }
                        }
                    }
                }
            }
        }
        assert!(worst < 2e-9, "largest difference {worst:e}");
    }
}
