//! Per-simulation inputs (joint actuators, body wrenches) and the energy bookkeeping.
//!
//! Inputs hold until the caller changes them: set them, then step (a controller sets
//! them again before each step). They act as explicit forces over a step, with their
//! directions taken at z_{k+1} = (x_k + v_k dt, q_k ⊗ ω̄_k).

use super::Sim;
use crate::forces::EnergyAccount;
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
        if u.len() != n {
            return Err(Error::WrongLength { name: "u", got: u.len(), expected: n });
        }
        check_finite("u", u)?;
        let slot = &mut self.frame.joint_input[joint];
        *slot = [0.0; 6];
        slot[..n].copy_from_slice(u);
        Ok(())
    }

    /// The joint's current input (length `dof`).
    pub fn joint_input(&self, joint: usize, out: &mut [f64]) -> Result<()> {
        let n = self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))?.dof();
        if out.len() != n {
            return Err(Error::WrongLength { name: "out", got: out.len(), expected: n });
        }
        out.copy_from_slice(&self.frame.joint_input[joint][..n]);
        Ok(())
    }

    /// External wrench on a body: `force` (world frame) acting at the body-fixed `point`
    /// (body frame, relative to the centre of mass) and `torque` (body frame). Replaces
    /// the body's previous wrench; held until changed.
    pub fn set_body_wrench(&mut self, body: usize, force: [f64; 3], torque: [f64; 3], point: [f64; 3]) -> Result<()> {
        self.check_body(body)?;
        check_finite("force", &force)?;
        check_finite("torque", &torque)?;
        check_finite("point", &point)?;
        self.frame.force[body] = V3::from(force);
        self.frame.torque[body] = V3::from(torque);
        self.frame.force_point[body] = V3::from(point);
        Ok(())
    }

    /// Sets every joint input and body wrench to zero.
    pub fn clear_inputs(&mut self) {
        self.frame.joint_input.iter_mut().for_each(|u| *u = [0.0; 6]);
        for v in [&mut self.frame.force, &mut self.frame.torque, &mut self.frame.force_point] {
            v.iter_mut().for_each(|x| *x = V3::zeros());
        }
    }

    /// Potential energy stored in the springs (joint and point-to-point) at the current
    /// configuration; included in `energy()`.
    pub fn spring_energy(&self) -> f64 {
        crate::forces::potential_energy(&self.model, &self.x, &self.q)
    }

    /// Work done by inputs (joint actuators, body forces and torques) since the start or
    /// the last reset. See `forces::energy` for the discrete definition.
    pub fn input_work(&self) -> f64 {
        self.energy_account.input_work
    }

    /// Energy dissipated by dampers since the start or the last reset. With
    /// E = kinetic + potential, E(t) − E(0) − input_work + damper_dissipation stays at
    /// the integrator's bounded energy error.
    pub fn damper_dissipation(&self) -> f64 {
        self.energy_account.dissipation
    }

    pub fn energy_account(&self) -> EnergyAccount {
        self.energy_account
    }

    /// Zeroes the work and dissipation totals (e.g. after setting the state by hand).
    pub fn reset_energy_account(&mut self) {
        self.energy_account = EnergyAccount::default();
    }
}
