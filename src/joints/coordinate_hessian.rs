//! Second derivatives of a single-axis coordinate (`coordinate`), for the step's state
//! derivative with joint limits, whose force map is the coordinate's gradient at z_{k+1}.
//!
//! A translation's gradient is the translational constraint rows' with μ = c
//! (`force_derivative`). The angle θ = 2 atan2(a, s) of q_rel = (s, v), a = cᵀv, n² = s² + a²,
//! has the body-frame gradients g_a = N_a/n², g_b = Q_offᵀ N_b/n² with
//! ```text
//!   N_a = −(s² c + s v × c + a v),   N_b = s² c + s c × v + a v,
//! ```
//! and q_rel moves by (δs, δv) = (Ds_k δφ_k, Dv_k δφ_k) (`force_derivative`), so
//! ```text
//!   ∂g/∂δφ_k = [(∂N/∂s − 2 s N/n²) Ds_k + (∂N/∂v − 2 a N cᵀ/n²) Dv_k] / n²
//!   ∂N_a/∂s = −(2 s c + v × c),  ∂N_a/∂v = s [c]× − v cᵀ − a I
//!   ∂N_b/∂s = 2 s c + c × v,     ∂N_b/∂v = s [c]× + v cᵀ + a I
//! ```

use super::force_derivative::{CHILD, PARENT};
use super::tangent::Placement;
use super::Joint;
use crate::math::{conj, qmul, rotation, skew, vec_part, M3, V3};

impl Joint {
    /// ∂(∂θ/∂δφ_r)/∂δφ_k of the joint's single free rotation angle θ (`coordinate`) at
    /// placements (a, b): `out[r][k]`, r, k ∈ {PARENT, CHILD}.
    pub fn angle_gradient_derivative(&self, a: &Placement, b: &Placement) -> [[M3; 2]; 2] {
        let c = self.cr.dirs[0];
        let rel = qmul(&qmul(&conj(&a.q), &b.q), &conj(&self.q_offset));
        let (s, v) = (rel[0], vec_part(&rel));
        let off = rotation(&self.q_offset);
        let ax = c.dot(&v);
        let n2 = s * s + ax * ax;
        let id = M3::identity();
        let sv = skew(&v);
        let ds = [0.5 * v.transpose(), -0.5 * v.transpose() * off];
        let dv = [-0.5 * (s * id - sv), 0.5 * (s * id + sv) * off];
        let na: V3 = -(s * s * c + s * v.cross(&c) + ax * v);
        let nb: V3 = s * s * c + s * c.cross(&v) + ax * v;
        let terms = [
            (na, -(2.0 * s * c + v.cross(&c)), s * skew(&c) - v * c.transpose() - ax * id, id),
            (nb, 2.0 * s * c + c.cross(&v), s * skew(&c) + v * c.transpose() + ax * id, off.transpose()),
        ];
        let mut out = [[M3::zeros(); 2]; 2];
        for (r, (n, dn_ds, dn_dv, left)) in terms.into_iter().enumerate() {
            for k in [PARENT, CHILD] {
                let d = (dn_ds - 2.0 * s * n / n2) * ds[k] + (dn_dv - 2.0 * ax * n * c.transpose() / n2) * dv[k];
                out[r][k] = left * d / n2;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::constraint::Pose;
    use crate::joints::tangent::tests::{random_joint, Rng};
    use crate::joints::JointType;
    use crate::math::V4;

    fn moved(p: &Pose, k: usize, h: f64) -> Pose {
        let mut phi = V3::zeros();
        phi[k] = 0.5 * h;
        Pose { x: p.x, q: qmul(&p.q, &V4::new((1.0 - phi.norm_squared()).sqrt(), phi.x, phi.y, phi.z)) }
    }

    /// Against central differences of `coordinate_and_gradient`'s angle gradients (h = 1e-6)
    /// at random configurations of joints with one free rotation: largest difference
    /// relative to the largest entry 5.1e-10 measured.
    #[test]
    fn angle_gradient_derivative_matches_central_differences() {
        let mut rng = Rng(23);
        let mut worst: f64 = 0.0;
        for _ in 0..40 {
            for kind in [JointType::Revolute, JointType::Cylindrical, JointType::PlanarAxis, JointType::FreeRevolute] {
                let j = random_joint(kind, &mut rng, Some(0));
                let i = j.dof() - 1;
                let (a, b) = (Pose { x: rng.v3(1.0), q: rng.quat() }, Pose { x: rng.v3(1.0), q: rng.quat() });
                let d = j.angle_gradient_derivative(&Placement::of(&a), &Placement::of(&b));
                let scale = d.iter().flatten().fold(1e-3f64, |m, x| m.max(x.abs().max()));
                let h = 1e-6;
                for k in [PARENT, CHILD] {
                    for col in 0..3 {
                        let at = |sg: f64| {
                            let (pa, pb) = if k == PARENT { (moved(&a, col, sg * h), b) } else { (a, moved(&b, col, sg * h)) };
                            let (_, g) = j.coordinate_and_gradient(&pa, &pb, i, true);
                            [g.parent_phi, g.child_phi]
                        };
                        let (p, m) = (at(1.0), at(-1.0));
                        for r in [PARENT, CHILD] {
                            let fd = (p[r] - m[r]) / (2.0 * h);
                            worst = worst.max((fd - d[r][k].column(col)).abs().max() / scale);
                        }
                    }
                }
            }
        }
        assert!(worst < 2e-9, "largest difference {worst:e}");
    }
}
