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
pub mod configuration_derivative;
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

use crate::integrator::{Inputs, MultiplierJacobians, StepFrame};
use crate::joints::constraint::Pose;
use joint_directions::rate_rows;
use wrench_pair::WrenchPair;
use crate::math::{V3, V4};
use crate::model::Model;
use crate::solver::BlockMatrix;

pub(crate) use crate::integrator::frame_pose;

/// Adds force-element terms to the step residual at iterate `s`.
pub fn add_residual(model: &Model, frame: &StepFrame, inputs: &Inputs, s: &[f64], r: &mut [f64]) {
    add_residual_with(model, frame, inputs, |ji, i| frame_rate_rows(model, frame, ji, i), s, r);
}

/// [`add_residual`] with the joints' rate rows from the placements at z_{k+1} the step
/// holds in `g` (rotation matrices computed once per body and step, not per evaluation).
pub fn add_step_residual(model: &Model, frame: &StepFrame, g: &MultiplierJacobians, inputs: &Inputs, s: &[f64], r: &mut [f64]) {
    add_residual_with(model, frame, inputs, |ji, i| step_rate_rows(g, &model.joints[ji], i), s, r);
}

/// Rate rows of joint `ji`'s free direction `i` at z_{k+1}.
fn frame_rate_rows(model: &Model, frame: &StepFrame, ji: usize, i: usize) -> WrenchPair {
    let j = &model.joints[ji];
    rate_rows(j, &frame_pose(frame, j.parent), &frame_pose(frame, Some(j.child)), i)
}

/// The residual terms, `rows(joint, i)` giving the rate rows of a joint's free direction.
fn add_residual_with(model: &Model, frame: &StepFrame, inputs: &Inputs, rows: impl Fn(usize, usize) -> WrenchPair, s: &[f64], r: &mut [f64]) {
    let f = &model.forces;
    for sp in &f.joint_springs {
        let j = &model.joints[sp.joint];
        sp.add_residual(j, &frame_pose(frame, j.parent), &frame_pose(frame, Some(j.child)), &inputs.joint_target[sp.joint].position, model, r);
    }
    for d in &f.joint_dampers {
        let j = &model.joints[d.joint];
        d.add_residual(j, |i| rows(d.joint, i), &inputs.joint_target[d.joint].velocity, model, frame, s, r);
    }
    let known = frame.second_order.then_some((&frame.v0[..], &frame.w0[..], frame.damping_weights));
    for sp in &f.point_springs {
        sp.add_residual(|k| (frame.x1[k], frame.q1[k]), model, s, known, r);
    }
    for (ji, j) in model.joints.iter().enumerate() {
        let u = &inputs.joint_input[ji];
        if u.iter().any(|&x| x != 0.0) {
            actuator::add_residual(j, u, |i| rows(ji, i), model, r);
        }
    }
    external_wrench::add_residual(model, frame, inputs, r);
}

/// Adds force-element Jacobian blocks to the Newton matrix at iterate `s` (only the
/// dampers have any: springs, inputs and wrenches are fixed during the step).
pub fn add_jacobian(model: &Model, frame: &StepFrame, _s: &[f64], m: &mut BlockMatrix) {
    add_jacobian_with(model, frame, |ji, i| frame_rate_rows(model, frame, ji, i), m);
}

/// [`add_jacobian`] with the joints' rate rows from the placements the step holds in `g`.
pub fn add_step_jacobian(model: &Model, frame: &StepFrame, g: &MultiplierJacobians, _s: &[f64], m: &mut BlockMatrix) {
    add_jacobian_with(model, frame, |ji, i| step_rate_rows(g, &model.joints[ji], i), m);
}

fn add_jacobian_with(model: &Model, frame: &StepFrame, rows: impl Fn(usize, usize) -> WrenchPair, m: &mut BlockMatrix) {
    let f = &model.forces;
    for d in &f.joint_dampers {
        d.add_jacobian(&model.joints[d.joint], |i| rows(d.joint, i), model, frame, m);
    }
    let weight = if frame.second_order { frame.damping_weights.1 } else { 1.0 };
    for sp in &f.point_springs {
        sp.add_jacobian(|k| (frame.x1[k], frame.q1[k]), model, weight, m);
    }
}

/// Potential energy of the springs at configuration (x, q) per body, the joint springs at
/// rest at the inputs' targets.
pub fn potential_energy(model: &Model, inputs: &Inputs, x: &[V3], q: &[V4]) -> f64 {
    let pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: x[i], q: q[i] });
    let mut e = 0.0;
    for sp in &model.forces.joint_springs {
        let j = &model.joints[sp.joint];
        e += sp.energy(j, &pose(j.parent), &pose(Some(j.child)), &inputs.joint_target[sp.joint].position);
    }
    for sp in &model.forces.point_springs {
        e += sp.energy(|k| (x[k], q[k]));
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::tangent::tests::Rng;
    use crate::joints::JointType;
    use crate::model::{Builder, Inertia, Parent};

    /// The step's hooks, with the rate rows from the step's placements, give exactly the
    /// residual and Jacobian of the hooks that compute them from the poses.
    #[test]
    fn rate_rows_from_the_step_placements_change_nothing() {
        let mut b = Builder::new();
        let kinds = [JointType::Revolute, JointType::Cylindrical, JointType::Spherical, JointType::Floating];
        let mut rng = Rng(17);
        for (i, kind) in kinds.into_iter().enumerate() {
            b.add_body(1.0 + i as f64, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
            let parent = if i == 0 { Parent::World } else { Parent::Body(i - 1) };
            let j = b.add_joint(kind, parent, i, rng.v3(0.5).into(), rng.v3(0.5).into(), rng.v3(1.0).into()).unwrap();
            let q = rng.quat();
            b.set_joint_offset(j, [q[0], q[1], q[2], q[3]]).unwrap();
            if i % 2 == 1 {
                let n = b.joint(j).unwrap().dof();
                b.set_joint_damper(j, &vec![0.5 + i as f64; n]).unwrap();
            }
        }
        let model = Model::new(&b).unwrap();
        let nb = model.body_count();
        let mut frame = StepFrame::new(nb, 0.01);
        let mut inputs = Inputs::new(&model);
        for i in 0..nb {
            (frame.x1[i], frame.q1[i]) = (rng.v3(1.0), rng.quat());
        }
        for (ji, u) in inputs.joint_input.iter_mut().enumerate() {
            for (i, x) in u.iter_mut().enumerate().take(model.joints[ji].dof()) {
                *x = rng.next();
                inputs.joint_target[ji].velocity[i] = rng.next();
            }
        }
        let mut g = MultiplierJacobians::new(&model);
        g.compute(&model, &frame);
        let s: Vec<f64> = (0..model.system_size()).map(|_| rng.next()).collect();
        let (mut r0, mut r1) = (vec![0.0; s.len()], vec![0.0; s.len()]);
        add_residual(&model, &frame, &inputs, &s, &mut r0);
        add_step_residual(&model, &frame, &g, &inputs, &s, &mut r1);
        assert_eq!(r0, r1);
        assert!(r0.iter().any(|&v| v != 0.0));
        let (mut m0, mut m1) = (BlockMatrix::new(&model.symbolic), BlockMatrix::new(&model.symbolic));
        add_jacobian(&model, &frame, &s, &mut m0);
        add_step_jacobian(&model, &frame, &g, &s, &mut m1);
        assert_eq!(m0.values, m1.values);
        assert!(m0.values.iter().any(|&v| v != 0.0));
    }
}

/// Rate rows of joint `j`'s free direction `i` at z_{k+1}, from the step's placements.
#[inline]
fn step_rate_rows(g: &MultiplierJacobians, j: &crate::joints::Joint, i: usize) -> wrench_pair::WrenchPair {
    joint_directions::rate_rows_at(j, g.placement(j.parent), g.placement(Some(j.child)), i)
}
