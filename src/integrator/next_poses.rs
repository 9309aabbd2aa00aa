//! Each body's pose at z_{k+2}(s) = (x_{k+1} + v_{k+1} dt, q_{k+1} ⊗ ω̄(ω_{k+1}, dt)) with
//! its rotation matrix, and for the Newton matrix the map of its angular velocity unknown
//! to a body-frame rotation of that pose: computed once per body and evaluation into
//! buffers allocated with the step frame, then read by every joint on the body (and, in
//! the interior point's residual and Newton matrix, by every contact point on it:
//! `Equations::gap_at`).

use super::prediction::advance;
use super::StepFrame;
use crate::joints::tangent::Placement;
use crate::math::{skew, M3, V3};
use crate::model::Model;

/// The buffers (one entry per body).
#[derive(Debug, Clone, Default)]
pub struct NextPoses {
    place: Vec<Placement>,
    map: Vec<M3>,
}

impl NextPoses {
    pub fn new(nb: usize) -> NextPoses {
        NextPoses { place: vec![Placement::WORLD; nb], map: vec![M3::zeros(); nb] }
    }

    /// The placements at iterate `s` (and with `maps`, the rotation maps).
    pub fn update(&mut self, model: &Model, f: &StepFrame, dt: f64, s: &[f64], maps: bool) {
        let at = &model.addresses;
        for (i, p) in self.place.iter_mut().enumerate() {
            let (v, w) = at.velocities(s, i);
            *p = Placement::of(&advance(&f.x1[i], &f.q1[i], &v, &w, dt));
            if maps {
                self.map[i] = rotation_map(&w, dt);
            }
        }
    }

    /// Placement of a body (the world for None).
    #[inline]
    pub fn placement(&self, body: Option<usize>) -> &Placement {
        body.map_or(&Placement::WORLD, |i| &self.place[i])
    }

    /// Body `i`'s rotation map (after an update with maps).
    #[inline]
    pub fn map(&self, i: usize) -> &M3 {
        &self.map[i]
    }
}

/// The body-frame rotation δφ of q_{k+2} = q_{k+1} ⊗ ω̄(ω, dt) (paper sec. 3, eq.
/// `updateOr`) per change of ω: with q ⊗ ω̄(ω + δω) = q ⊗ ω̄ ⊗ (1, δφ/2),
/// δφ = 2 Vec(ω̄* ⊗ ∂ω̄/∂ω δω),
/// ```text
///   M(ω) = (dt²/2) (s I + ω ωᵀ/s − [ω]×),   s = √(4/dt² − ωᵀω)
/// ```
/// (dt·I at rest). The closed form of `joint_rows::velocity_map` in body coordinates.
#[inline]
pub fn rotation_map(w: &V3, dt: f64) -> M3 {
    let s = crate::math::step_scalar(w, dt);
    let h = 0.5 * dt * dt;
    (M3::from_diagonal_element(s) + w * (w.transpose() / s) - skew(w)) * h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrator::joint_rows::velocity_map;
    use crate::joints::constraint::{GeneralConstraint, Side};
    use crate::joints::tangent::tests::{random_joint, Rng};
    use crate::joints::tangent::RotationMap;
    use crate::joints::JointType;
    use crate::math::step_rotation;

    /// Largest difference relative to the block's largest entry seen here: 1.1e-15; the
    /// bound leaves room for other platforms' rounding.
    const TOLERANCE: f64 = 1e-13;

    /// The Newton-matrix blocks of every joint type through the rotation map equal the
    /// generic kernel's (quaternion derivatives through `velocity_map`).
    #[test]
    fn newton_blocks_equal_the_generic_kernel() {
        let mut rng = Rng(5);
        let mut worst: f64 = 0.0;
        for dt in [0.01, 0.001, 0.1] {
            for _ in 0..30 {
                for kind in JointType::ALL {
                    let j = random_joint(kind, &mut rng, Some(0));
                    let nc = j.constraint_count();
                    let (x1, q1) = ([rng.v3(1.0), rng.v3(1.0)], [rng.quat(), rng.quat()]);
                    // |ω| up to 0.9·2/dt
                    let w = [rng.v3(1.0 / dt), rng.v3(1.0 / dt)];
                    let v = [rng.v3(1.0), rng.v3(1.0)];
                    let pose = |k: usize| advance(&x1[k], &q1[k], &v[k], &w[k], dt);
                    let g = GeneralConstraint::eval(&j, &pose(0), &pose(1));
                    let (pa, pb) = (Placement::of(&pose(0)), Placement::of(&pose(1)));
                    let t = j.tangent_jacobian(&pa, &pb);
                    for (k, side) in [(0, Side::Parent), (1, Side::Child)] {
                        let (mut x, mut y) = ([0.0; 36], [0.0; 36]);
                        j.jacobian_block(&g, side, dt, &velocity_map(&q1[k], &w[k], dt), &mut x[..nc * 6]);
                        j.tangent_block(&t, side, dt, RotationMap::Matrix(&rotation_map(&w[k], dt)), &mut y[..nc * 6]);
                        let scale = x.iter().fold(0.0f64, |m, a| m.max(a.abs()));
                        worst = worst.max(x.iter().zip(&y).fold(0.0f64, |m, (a, b)| m.max((a - b).abs())) / scale);
                    }
                }
            }
        }
        assert!(worst < TOLERANCE, "largest difference {worst:e}");
    }

    #[test]
    fn the_rotation_map_is_the_body_frame_derivative_of_the_step_rotation() {
        let (dt, w) = (0.01, V3::new(40.0, -70.0, 55.0));
        let m = rotation_map(&w, dt);
        let q = step_rotation(&w, dt);
        let h = 1e-6;
        for k in 0..3 {
            let mut d = V3::zeros();
            d[k] = h;
            // body-frame rotation between ω̄(ω) and ω̄(ω ± δ): 2 Vec(ω̄* ⊗ ω̄(ω ± δ))
            let rel = |s: f64| 2.0 * crate::math::vec_part(&crate::math::qmul(&crate::math::conj(&q), &step_rotation(&(w + s * d), dt)));
            let fd = (rel(1.0) - rel(-1.0)) / (2.0 * h);
            let err = (m.column(k) - fd).norm() / m.norm();
            // central differences: 4e-9 seen (rounding over the step h)
            assert!(err < 1e-8, "column {k}: {err:e}");
        }
        assert!((rotation_map(&V3::zeros(), dt) - M3::identity() * dt).norm() < 1e-18);
    }
}
