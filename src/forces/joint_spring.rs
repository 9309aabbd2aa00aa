//! Joint springs: V = ½ Σᵢ kᵢ (θᵢ − restᵢ)² on a joint's minimal coordinates θ
//! (translations C_Tᵀ g_T first, then the projected rotation vector), the rest being the
//! joint's target position (`integrator::JointTarget`: the model's rest until the caller
//! moves it). Conservative between target moves:
//! the gradient ∇V at z_{k+1} enters the step residual (paper section 3, ∇V(x₁) and
//! ∇ʳV(q₁) in d_{0,T}, d_{0,R}). Since z_{k+1} is fixed during the step, a spring adds
//! no Newton-matrix blocks.
//!
//! Rotational coordinates live in a rotation-vector chart of angle < π; a spring is meant
//! to act within it (the coordinate jumps at π).

use super::joint_directions::gradient_rows;
use crate::joints::constraint::Pose;
use crate::joints::Joint;
use crate::model::Model;

pub use crate::model::forces::JointSpring;

impl JointSpring {
    /// Adds ∇V at configuration (a, b) to the residual, the spring at rest at `rest`.
    pub fn add_residual(&self, j: &Joint, a: &Pose, b: &Pose, rest: &[f64; 6], model: &Model, r: &mut [f64]) {
        let mut theta = [0.0; 6];
        let n = j.dof();
        j.minimal_position(a, b, &mut theta[..n]);
        for i in 0..n {
            let k = self.stiffness[i];
            if k != 0.0 {
                // the spring's generalized force is −k(θ − rest) along ∇θ
                gradient_rows(j, a, b, i).apply(-k * (theta[i] - rest[i]), model, r);
            }
        }
    }

    /// V at configuration (a, b), the spring at rest at `rest`.
    pub fn energy(&self, j: &Joint, a: &Pose, b: &Pose, rest: &[f64; 6]) -> f64 {
        let mut theta = [0.0; 6];
        let n = j.dof();
        j.minimal_position(a, b, &mut theta[..n]);
        (0..n).map(|i| 0.5 * self.stiffness[i] * (theta[i] - rest[i]).powi(2)).sum()
    }
}
