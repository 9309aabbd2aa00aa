//! The linearization x_{k+1} = f(x_k, u_k) of one step from the sim's current state and
//! inputs: A = ∂f/∂x and B = ∂f/∂u (issue 13 part 3), in minimal or maximal coordinates
//! (`Model::linearization_size`).

use crate::kinematics::Coords;
use crate::model::Result;
use crate::sim::Sim;

/// Central-difference step of the scaffold below.
const SCAFFOLD_STEP: f64 = 1e-6;

impl Sim {
    /// A (nx × nx) and B (nx × nu), row-major, of one step from the current state and
    /// inputs; the sim is not advanced.
    pub fn linearize(&self, coords: Coords, a: &mut [f64], b: &mut [f64]) -> Result<()> {
        // scaffold until the analytic state Jacobian lands (same session)
        self.linearize_by_differences(coords, SCAFFOLD_STEP, a, b)
    }
}
