//! The discrete dynamics of one step (paper sections 3.1–3.2): the residual rows of
//! bodies and joints and their analytic Jacobian blocks, assembled into the graph block
//! matrix (force elements add theirs in `forces`).
//!
//! Unknowns s = [v_{k+1}, ω_{k+1} per body; λ per joint] (offsets: `model::addresses`).
//! With the prediction z_{k+1} = (x_k + v_k dt, q_k ⊗ ω̄_k) fixed during the step, and
//! z_{k+2}(s) = (x_{k+1} + v_{k+1} dt, q_{k+1} ⊗ ω̄_{k+1}):
//!   body:  d = [m (v_{k+1} − v_k)/dt − m g − F;  rotational residual] − G(z_{k+1})ᵀ λ
//!   joint: g(z_{k+2}(s)) = 0
//!
//! * [`prediction`]: the pose update z ↦ z one interval later, the step's prediction;
//! * [`body_dynamics`]: one body's rows and block; [`joint_rows`]: one joint's maps;
//! * [`multipliers`]: G(z_{k+1}) of every joint;
//! * [`next_poses`]: each body's z_{k+2}(s), shared by the rows of every joint on it;
//! * [`residual`], [`jacobian`]: the graph-wide assembly.

pub mod body_dynamics;
pub mod jacobian;
pub mod joint_rows;
pub mod multipliers;
pub mod next_poses;
pub mod prediction;
pub mod residual;

pub use jacobian::assemble_jacobian;
pub use multipliers::MultiplierJacobians;
pub use next_poses::NextPoses;
pub use prediction::{frame_pose, pose_next, predict};
pub use residual::{body_rows_into, joint_rows_into};

use crate::math::{V3, V4};
use crate::model::Model;

/// What a step holds fixed during its Newton iterations: the interval of the known
/// velocities, those velocities ż_k and the prediction z_{k+1} (`prediction::predict`).
/// (The poses z_{k+2}(s) at the iterate being evaluated are the solver's workspace,
/// `NextPoses` in `data::Scratch`.)
#[derive(Debug, Clone)]
pub struct StepFrame {
    /// Interval spanned by the known velocities.
    pub dt: f64,
    /// Previous velocities v_k, ω_k.
    pub v0: Vec<V3>,
    pub w0: Vec<V3>,
    /// Configuration z_{k+1}.
    pub x1: Vec<V3>,
    pub q1: Vec<V4>,
    /// The second- and fourth-order integrators: the dampers act on the mean of the known
    /// and the unknown velocities (the force at the node z_{k+1} between the two
    /// intervals) instead of the unknown ones alone, and the forces over `impulse`.
    pub second_order: bool,
    /// The time the forces at z_{k+1} act over: the known interval (the first-order step;
    /// equal intervals), or the mean of the two intervals about the node (a composition
    /// of steps of different lengths, the trapezoidal rule's share of each).
    pub impulse: f64,
    /// With `second_order`, the weights of the known and the unknown velocities in the
    /// dampers' rate: each interval's damping force shared half to each of its nodes,
    /// (h₀ ξ₀ + h₁ ξ₁)/(h₀ + h₁) (the mean for equal intervals; (0, 1) at the start, whose
    /// node has no interval before it).
    pub damping_weights: (f64, f64),
}

impl StepFrame {
    pub fn new(nb: usize, dt: f64) -> StepFrame {
        StepFrame { dt, v0: vec![V3::zeros(); nb], w0: vec![V3::zeros(); nb], x1: vec![V3::zeros(); nb], q1: vec![crate::math::IDENTITY; nb], second_order: false, impulse: dt, damping_weights: (0.5, 0.5) }
    }
}

/// The caller's inputs, held until changed; they act as explicit forces over each step
/// (directions at z_{k+1}, `forces`), but for the targets, which the joints' springs and
/// dampers pull toward.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// Applied force (world) and torque (body frame) per body.
    pub force: Vec<V3>,
    pub torque: Vec<V3>,
    /// Body-frame point where `force` acts (zero: the centre of mass).
    pub force_point: Vec<V3>,
    /// Actuator input per joint and free direction (translations first; unused entries 0).
    pub joint_input: Vec<[f64; 6]>,
    /// The servo targets per joint: its spring's rest and its damper's reference rate.
    pub joint_target: Vec<JointTarget>,
}

/// Where a joint's spring and damper pull: the generalized force on free direction i is
/// −kᵢ (θᵢ − positionᵢ) − cᵢ (θ̇ᵢ − velocityᵢ), a PD servo whose damping is implicit in the
/// step (stable for any c·dt) and whose targets the caller moves between steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointTarget {
    /// The spring's rest position, in minimal coordinates (unused entries 0).
    pub position: [f64; 6],
    /// The damper's reference rate (unused entries 0).
    pub velocity: [f64; 6],
}

impl Inputs {
    /// No forces; each joint's target at its spring's rest in the model, at rest.
    pub fn new(model: &Model) -> Inputs {
        let (nb, nj) = (model.body_count(), model.joint_count());
        let mut joint_target = vec![JointTarget { position: [0.0; 6], velocity: [0.0; 6] }; nj];
        for sp in &model.forces.joint_springs {
            joint_target[sp.joint].position = sp.rest;
        }
        Inputs { force: vec![V3::zeros(); nb], torque: vec![V3::zeros(); nb], force_point: vec![V3::zeros(); nb], joint_input: vec![[0.0; 6]; nj], joint_target }
    }
}
