//! Joint dampers: a generalized force −cᵢ (ξᵢ − ξ*ᵢ) on each free direction, with ξ the
//! minimal velocity at the unknown step velocities (v_{k+1}, ω_{k+1}), ξ* the joint's target
//! rate (`integrator::JointTarget`, zero unless the caller sets it) and the direction rows at
//! z_{k+1} (implicit in the velocities, so stable for any c·dt). On a revolute joint
//! this is the torque −c θ̇ about the axis on the child and +c θ̇ on the parent; on a
//! translation, the force −c ḋ along R_a c at the child's joint point and its reaction
//! on the parent. The residual is linear in the velocities; the Jacobian has blocks on
//! both bodies' diagonals and the body–body coupling (an extra graph edge).

use super::wrench_pair::WrenchPair;
use crate::integrator::StepFrame;
use crate::joints::Joint;
use crate::model::Model;
use crate::solver::BlockMatrix;

pub use crate::model::forces::JointDamper;

/// Both hooks take `rows(i)`, the rate rows of the joint's free direction i at z_{k+1}
/// (`joint_directions`).
impl JointDamper {
    /// `frame.second_order`: the rate is the known and the unknown velocities' weighted by
    /// `frame.damping_weights` (the second- and fourth-order integrators); `target` is ξ*.
    // one argument per quantity the force reads
    #[allow(clippy::too_many_arguments)]
    pub fn add_residual(&self, j: &Joint, rows: impl Fn(usize) -> WrenchPair, target: &[f64; 6], model: &Model, frame: &StepFrame, s: &[f64], r: &mut [f64]) {
        for i in 0..j.dof() {
            let c = self.damping[i];
            if c != 0.0 {
                let rows = rows(i);
                let mut xi = rows.rate(|k| model.addresses.velocities(s, k));
                if frame.second_order {
                    let (w0, w1) = frame.damping_weights;
                    xi = w1 * xi + w0 * rows.rate(|k| (frame.v0[k], frame.w0[k]));
                }
                rows.apply(-c * (xi - target[i]), model, r);
            }
        }
    }

    pub fn add_jacobian(&self, j: &Joint, rows: impl Fn(usize) -> WrenchPair, model: &Model, frame: &StepFrame, m: &mut BlockMatrix) {
        let weight = if frame.second_order { frame.damping_weights.1 } else { 1.0 };
        for i in 0..j.dof() {
            let c = self.damping[i];
            if c != 0.0 {
                rows(i).add_damping_jacobian(weight * c, model, m);
            }
        }
    }
}
