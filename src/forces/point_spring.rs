//! Point-to-point spring and damper between a point p_a of body a (or a fixed world
//! point) and a point p_b of body b, along the line between the points:
//!   V = ½ k (ℓ − ℓ₀)²,  ℓ = |x_b + Q_b p_b − x_a − Q_a p_a|,   damper force −c ℓ̇.
//! The spring acts through ∇V at z_{k+1} (conservative, no Newton blocks); the damper
//! takes ℓ̇ at the unknown velocities with the line direction at z_{k+1} (implicit,
//! linear in the velocities). When the points coincide the direction is undefined and
//! the element exerts no force.

use super::wrench_pair::{BodyRow, WrenchPair};
use crate::math::{rotation, V3, V4};
use crate::model::Model;
use crate::solver::BlockMatrix;

/// Below this length (m) the line direction is undefined and the element is inactive.
pub const MIN_LENGTH: f64 = 1e-12;

pub use crate::model::forces::PointSpring;

/// The known velocities (v, ω per body) and the weights of theirs and of the unknown ones
/// in a damper's rate (`StepFrame::damping_weights`).
pub type KnownVelocities<'a> = (&'a [V3], &'a [V3], (f64, f64));

impl PointSpring {
    /// Rows of the length ℓ (its exact gradient; also the rate rows of ℓ̇) and ℓ, at the
    /// configuration given by `pose(i) = (x_i, q_i)`.
    pub fn rows(&self, pose: impl Fn(usize) -> (V3, V4)) -> Option<(WrenchPair, f64)> {
        let (xb, qb) = pose(self.b);
        let rb = rotation(&qb);
        let wb = xb + rb * self.pb;
        let (wa, ra) = match self.a {
            Some(a) => {
                let (xa, qa) = pose(a);
                let ra = rotation(&qa);
                (xa + ra * self.pa, ra)
            }
            None => (self.pa, nalgebra::Matrix3::identity()),
        };
        let d = wb - wa;
        let len = d.norm();
        if len < MIN_LENGTH {
            return None;
        }
        let u = d / len;
        let rows = WrenchPair {
            a: self.a.map(|a| BodyRow { body: a, jv: -u, jw: -self.pa.cross(&(ra.transpose() * u)) }),
            b: BodyRow { body: self.b, jv: u, jw: self.pb.cross(&(rb.transpose() * u)) },
        };
        Some((rows, len))
    }

    /// `known`: the known velocities and the weights of theirs and the unknown ones in the
    /// damper's rate (the second- and fourth-order integrators, `StepFrame::damping_weights`).
    pub fn add_residual(&self, pose: impl Fn(usize) -> (V3, V4), model: &Model, s: &[f64], known: Option<KnownVelocities>, r: &mut [f64]) {
        let Some((rows, len)) = self.rows(pose) else { return };
        let mut f = -self.stiffness * (len - self.rest_length);
        if self.damping != 0.0 {
            let mut rate = rows.rate(|k| model.addresses.velocities(s, k));
            if let Some((v0, w0, (a, b))) = known {
                rate = b * rate + a * rows.rate(|k| (v0[k], w0[k]));
            }
            f -= self.damping * rate;
        }
        rows.apply(f, model, r);
    }

    /// `weight`: 1, or the unknown velocities' weight in the damper's rate.
    pub fn add_jacobian(&self, pose: impl Fn(usize) -> (V3, V4), model: &Model, weight: f64, m: &mut BlockMatrix) {
        if self.damping == 0.0 {
            return;
        }
        if let Some((rows, _)) = self.rows(pose) {
            rows.add_damping_jacobian(weight * self.damping, model, m);
        }
    }

    pub fn energy(&self, pose: impl Fn(usize) -> (V3, V4)) -> f64 {
        self.rows(pose).map_or(0.5 * self.stiffness * self.rest_length.powi(2), |(_, len)| {
            0.5 * self.stiffness * (len - self.rest_length).powi(2)
        })
    }
}
