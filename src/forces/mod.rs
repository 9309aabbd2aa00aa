//! Force elements (paper section 2): joint springs and dampers, point-to-point springs
//! and dampers, joint actuators, external wrenches. Each contributes to the body
//! residuals and to the Newton matrix through the hooks below, called by the step's
//! equations (`step::problem::Equations`).
//!
//! Timing within a step (z_{k+1} is fixed during the Newton iterations):
//! * springs (conservative): ∇V at z_{k+1}, no Newton-matrix blocks;
//! * inputs and external wrenches: explicit, directions at z_{k+1}, no blocks;
//! * dampers: implicit in the unknown velocities v_{k+1}, ω_{k+1} with directions at
//!   z_{k+1}; blocks on both bodies' diagonals and their coupling.
//!
//! The hooks allocate nothing.

pub mod actuator;
pub mod energy;
pub mod external_wrench;
pub mod joint_damper;
pub mod joint_directions;
pub mod joint_spring;
pub mod point_spring;
pub mod rotation_log;
pub mod wrench_pair;

pub use crate::model::forces::ForceElements;
pub use energy::{account_step, EnergyAccount};
pub use joint_damper::JointDamper;
pub use joint_spring::JointSpring;
pub use point_spring::PointSpring;

use crate::integrator::{Inputs, StepFrame};
use crate::joints::constraint::Pose;
use crate::math::{V3, V4};
use crate::model::Model;
use crate::solver::BlockMatrix;

pub(crate) use crate::integrator::frame_pose;

/// Adds force-element terms to the step residual at iterate `s`.
pub fn add_residual(model: &Model, frame: &StepFrame, inputs: &Inputs, s: &[f64], r: &mut [f64]) {
    let f = &model.forces;
    for sp in &f.joint_springs {
        let j = &model.joints[sp.joint];
        sp.add_residual(j, &frame_pose(frame, j.parent), &frame_pose(frame, Some(j.child)), model, r);
    }
    for d in &f.joint_dampers {
        let j = &model.joints[d.joint];
        d.add_residual(j, &frame_pose(frame, j.parent), &frame_pose(frame, Some(j.child)), model, s, r);
    }
    for sp in &f.point_springs {
        sp.add_residual(|k| (frame.x1[k], frame.q1[k]), model, s, r);
    }
    for (ji, j) in model.joints.iter().enumerate() {
        let u = &inputs.joint_input[ji];
        if u.iter().any(|&x| x != 0.0) {
            actuator::add_residual(j, u, &frame_pose(frame, j.parent), &frame_pose(frame, Some(j.child)), model, r);
        }
    }
    external_wrench::add_residual(model, frame, inputs, r);
}

/// Adds force-element Jacobian blocks to the Newton matrix at iterate `s` (only the
/// dampers have any: springs, inputs and wrenches are fixed during the step).
pub fn add_jacobian(model: &Model, frame: &StepFrame, _s: &[f64], m: &mut BlockMatrix) {
    let f = &model.forces;
    for d in &f.joint_dampers {
        let j = &model.joints[d.joint];
        d.add_jacobian(j, &frame_pose(frame, j.parent), &frame_pose(frame, Some(j.child)), model, m);
    }
    for sp in &f.point_springs {
        sp.add_jacobian(|k| (frame.x1[k], frame.q1[k]), model, m);
    }
}

/// Potential energy of the springs at configuration (x, q) per body.
pub fn potential_energy(model: &Model, x: &[V3], q: &[V4]) -> f64 {
    let pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: x[i], q: q[i] });
    let mut e = 0.0;
    for sp in &model.forces.joint_springs {
        let j = &model.joints[sp.joint];
        e += sp.energy(j, &pose(j.parent), &pose(Some(j.child)));
    }
    for sp in &model.forces.point_springs {
        e += sp.energy(|k| (x[k], q[k]));
    }
    e
}
