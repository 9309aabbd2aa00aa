//! Body and joint blocks of the Newton matrix ∂f/∂s at an iterate (paper sec. 3.1–3.2 and
//! appendix D): each body's dynamics block, each joint's constraint Jacobian at z_{k+2}
//! through the rotation maps of its bodies (`next_poses`), and the fixed coupling
//! −G(z_{k+1})ᵀ. Force elements add theirs (`forces`).
//!
//! Every entry of these blocks is written, the zeros too (the joints' diagonal blocks
//! are zero): only the blocks that force elements and contacts add to, and the
//! factorization's fill-in, depend on the matrix being cleared first.

use super::multipliers::MultiplierJacobians;
use super::next_poses::NextPoses;
use super::{body_dynamics, StepFrame};
use crate::joints::constraint::Side;
use crate::joints::tangent::RotationMap;
use crate::model::Model;
use crate::solver::BlockMatrix;

/// Resets `matrix` (`BlockMatrix::reset`: what this assembly does not assign) and writes
/// the body and joint blocks at iterate `s`, every entry of them; `next` holds the poses
/// z_{k+2}(s) and their rotation maps (`NextPoses::update` at `s` with maps).
pub fn assemble_jacobian(model: &Model, f: &StepFrame, g: &MultiplierJacobians, dt: f64, s: &[f64], next: &NextPoses, matrix: &mut BlockMatrix) {
    let sym = &model.symbolic;
    let at = &model.addresses;
    matrix.reset(sym);
    for (i, b) in model.bodies.iter().enumerate() {
        let n = model.body_node[i];
        let w = at.angular_velocity(s, i);
        body_dynamics::write_jacobian(b.mass, &b.inertia, f.impulse, dt, &w, matrix.block_mut(sym, n, n));
    }
    for (ji, j) in model.joints.iter().enumerate() {
        let Some(nj) = model.joint_node[ji] else { continue };
        let nc = j.constraint_count();
        matrix.block_mut(sym, nj, nj).fill(0.0);
        let t = j.tangent_jacobian(next.placement(j.parent), next.placement(Some(j.child)));
        for (side, body) in [(Side::Child, Some(j.child)), (Side::Parent, j.parent)] {
            let Some(body) = body else { continue };
            let nb = model.body_node[body];
            // ∂g(z_{k+2})/∂(v, ω): dx/dv = dt, δφ = M(ω) δω
            j.tangent_block(&t, side, dt, RotationMap::Matrix(next.map(body)), matrix.block_mut(sym, nj, nb));
            matrix.block_mut(sym, nb, nj).copy_from_slice(g.coupling(ji, nc, side == Side::Child));
        }
    }
}
