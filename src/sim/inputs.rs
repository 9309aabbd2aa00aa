//! Per-simulation inputs (joint actuators, body wrenches, servo targets) and the energy
//! bookkeeping.
//!
//! Inputs hold until the caller changes them: set them, then step (a controller sets
//! them again before each step). Actuators and wrenches act as explicit forces over a
//! step, with their directions taken at z_{k+1} = (x_k + v_k dt, q_k ⊗ ω̄_k). A joint's
//! target moves the rest of its spring and the reference rate of its damper: with both,
//! the joint is a PD servo whose damping is implicit in the step (`integrator::JointTarget`).

use super::Sim;
use crate::error::check_len;
use crate::forces::EnergyAccount;
use crate::integrator::{Inputs, JointTarget};
use crate::math::V3;
use crate::model::error::check_finite;
use crate::model::{Error, Result};

impl Sim {
    /// Actuator input of a joint, one value per free direction (translations first):
    /// a force (N) along a free translation, applied at the child's joint point with the
    /// reaction on the parent, or a torque (N·m) about a free rotation (parent-frame
    /// direction), +u on the child and −u on the parent. Held until changed.
    pub fn set_joint_input(&mut self, joint: usize, u: &[f64]) -> Result<()> {
        let n = self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))?.dof();
        check_len("u", u.len(), n)?;
        check_finite("u", u)?;
        let slot = &mut self.data.inputs.joint_input[joint];
        *slot = [0.0; 6];
        slot[..n].copy_from_slice(u);
        Ok(())
    }

    /// The joint's current input (length `dof`).
    pub fn joint_input(&self, joint: usize, out: &mut [f64]) -> Result<()> {
        let n = self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))?.dof();
        check_len("out", out.len(), n)?;
        out.copy_from_slice(&self.data.inputs.joint_input[joint][..n]);
        Ok(())
    }

    /// Moves a joint's servo target: its spring pulls toward `position` (minimal
    /// coordinates, as `joint_position` reads them) and its damper toward the rate
    /// `velocity`, each of length `dof`; the generalized force on free direction i is
    /// −kᵢ (θᵢ − positionᵢ) − cᵢ (θ̇ᵢ − velocityᵢ). Held until changed; the model's spring
    /// rest and a zero rate until then. Refused, changing nothing, for a joint with neither
    /// a spring nor a damper, and for a non-zero position (rate) on a joint without a
    /// spring (damper), which nothing would pull toward. The spring's potential changes at
    /// once: the energy account credits that change as input work.
    pub fn set_joint_target(&mut self, joint: usize, position: &[f64], velocity: &[f64]) -> Result<()> {
        let n = self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))?.dof();
        if !self.has_servo(joint) {
            return Err(Error::InvalidArgument("joint", format!("joint {joint} has neither a spring nor a damper for a target to move (set_joint_spring, set_joint_damper)")));
        }
        check_len("position", position.len(), n)?;
        check_len("velocity", velocity.len(), n)?;
        check_finite("position", position)?;
        check_finite("velocity", velocity)?;
        self.check_target_acts(joint, position, velocity)?;
        self.move_targets(|targets| {
            targets[joint].position[..n].copy_from_slice(position);
            targets[joint].velocity[..n].copy_from_slice(velocity);
        });
        Ok(())
    }

    /// Applies `change` to the targets, crediting the springs' change of potential (at the
    /// current configuration) as input work: moving a target is work done on the joint.
    pub(super) fn move_targets(&mut self, change: impl FnOnce(&mut [JointTarget])) {
        let before = self.spring_energy();
        change(&mut self.data.inputs.joint_target);
        self.data.energy.input_work += self.spring_energy() - before;
    }

    /// Whether a spring or a damper acts on the joint (a target moves something).
    pub(super) fn has_servo(&self, joint: usize) -> bool {
        self.has_spring(joint) || self.has_damper(joint)
    }

    fn has_spring(&self, joint: usize) -> bool {
        self.model.forces.joint_springs.iter().any(|s| s.joint == joint)
    }

    fn has_damper(&self, joint: usize) -> bool {
        self.model.forces.joint_dampers.iter().any(|d| d.joint == joint)
    }

    /// A target that nothing would act on is a mistake to report, not to ignore: a
    /// non-zero position without a spring on the joint, a non-zero rate without a damper.
    pub(super) fn check_target_acts(&self, joint: usize, position: &[f64], velocity: &[f64]) -> Result<()> {
        if !self.has_spring(joint) && position.iter().any(|&x| x != 0.0) {
            return Err(Error::InvalidArgument("position", format!("joint {joint} has no spring to pull toward a position target (set_joint_spring); its position target must be 0")));
        }
        if !self.has_damper(joint) && velocity.iter().any(|&x| x != 0.0) {
            return Err(Error::InvalidArgument("velocity", format!("joint {joint} has no damper to pull toward a rate target (set_joint_damper); its rate target must be 0")));
        }
        Ok(())
    }

    /// The joint's current servo target: `position` and `velocity`, each of length `dof`.
    pub fn joint_target(&self, joint: usize, position: &mut [f64], velocity: &mut [f64]) -> Result<()> {
        let n = self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))?.dof();
        check_len("position", position.len(), n)?;
        check_len("velocity", velocity.len(), n)?;
        let t = &self.data.inputs.joint_target[joint];
        position.copy_from_slice(&t.position[..n]);
        velocity.copy_from_slice(&t.velocity[..n]);
        Ok(())
    }

    /// Applied force (world frame, through the centre of mass) and torque (body frame)
    /// on a body; held until changed. Same as `set_body_wrench` with the point at the
    /// centre of mass.
    pub fn set_body_force(&mut self, body: usize, force: [f64; 3], torque: [f64; 3]) -> Result<()> {
        self.set_body_wrench(body, force, torque, [0.0; 3])
    }

    /// External wrench on a body: `force` (world frame) acting at the body-fixed `point`
    /// (body frame, relative to the centre of mass) and `torque` (body frame). Replaces
    /// the body's previous wrench; held until changed.
    pub fn set_body_wrench(&mut self, body: usize, force: [f64; 3], torque: [f64; 3], point: [f64; 3]) -> Result<()> {
        self.check_body(body)?;
        check_finite("force", &force)?;
        check_finite("torque", &torque)?;
        check_finite("point", &point)?;
        self.data.inputs.force[body] = V3::from(force);
        self.data.inputs.torque[body] = V3::from(torque);
        self.data.inputs.force_point[body] = V3::from(point);
        Ok(())
    }

    /// Sets every joint input and body wrench to zero and every servo target back to the
    /// model's (the spring's rest, a zero rate), crediting the springs' change of
    /// potential as input work.
    pub fn clear_inputs(&mut self) {
        let cleared = Inputs::new(&self.model);
        self.move_targets(|targets| targets.copy_from_slice(&cleared.joint_target));
        self.data.inputs = cleared;
    }

    /// Potential energy stored in the springs (joint and point-to-point) at the current
    /// configuration; included in `energy()`.
    pub fn spring_energy(&self) -> f64 {
        crate::forces::potential_energy(&self.model, &self.data.inputs, &self.data.state.x, &self.data.state.q)
    }

    /// Work done by inputs (joint actuators, body forces and torques) since the start or
    /// the last reset. See `forces::energy` for the discrete definition.
    pub fn input_work(&self) -> f64 {
        self.data.energy.input_work
    }

    /// Energy dissipated by dampers since the start or the last reset. With
    /// E = kinetic + potential, E(t) − E(0) − input_work + damper_dissipation stays at
    /// the integrator's bounded energy error.
    pub fn damper_dissipation(&self) -> f64 {
        self.data.energy.dissipation
    }

    pub fn energy_account(&self) -> EnergyAccount {
        self.data.energy
    }

    /// Zeroes the work and dissipation totals (e.g. after setting the state by hand).
    pub fn reset_energy_account(&mut self) {
        self.data.energy = EnergyAccount::default();
    }
}
