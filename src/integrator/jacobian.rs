//! Body and joint blocks of the Newton matrix ∂f/∂s at an iterate (paper sec. 3.1–3.2 and
//! appendix D): each body's dynamics block, each joint's constraint Jacobian at z_{k+2}
//! through the velocity map, and the fixed coupling −G(z_{k+1})ᵀ. Force elements add
//! theirs (`forces`).

use super::joint_rows::velocity_map;
use super::multipliers::MultiplierJacobians;
use super::prediction::pose_next;
use super::{body_dynamics, StepFrame};
use crate::joints::constraint::{GeneralConstraint, Side};
use crate::model::Model;
use crate::solver::BlockMatrix;

/// Clears `matrix` and writes the body and joint blocks at iterate `s`.
pub fn assemble_jacobian(model: &Model, f: &StepFrame, g: &MultiplierJacobians, dt: f64, s: &[f64], matrix: &mut BlockMatrix) {
    let sym = &model.symbolic;
    let at = &model.addresses;
    matrix.reset(sym);
    for (i, b) in model.bodies.iter().enumerate() {
        let n = model.body_node[i];
        let w = at.angular_velocity(s, i);
        body_dynamics::add_jacobian(b.mass, &b.inertia, f.dt, dt, &w, matrix.block_mut(sym, n, n));
    }
    for (ji, j) in model.joints.iter().enumerate() {
        let Some(nj) = model.joint_node[ji] else { continue };
        let nc = j.constraint_count();
        let a = pose_next(f, model, dt, s, j.parent);
        let b = pose_next(f, model, dt, s, Some(j.child));
        let gc = GeneralConstraint::eval(j, &a, &b);
        for (side, body) in [(Side::Child, Some(j.child)), (Side::Parent, j.parent)] {
            let Some(body) = body else { continue };
            let nb = model.body_node[body];
            let w = at.angular_velocity(s, body);
            let map = velocity_map(&f.q1[body], &w, dt);
            j.jacobian_block(&gc, side, dt, &map, matrix.block_mut(sym, nj, nb));
            let gsrc = g.block(ji, nc, side == Side::Child);
            let blk = matrix.block_mut(sym, nb, nj);
            for r in 0..6 {
                for c in 0..nc {
                    blk[r * nc + c] = -gsrc[c * 6 + r];
                }
            }
        }
    }
}
