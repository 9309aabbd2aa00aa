//! Whole-state access in minimal coordinates, one call each: the configuration q (nq),
//! the generalized velocity v (nv) and the joint inputs u (nu) (`Model::dimensions`).
//!
//! q = [per floating base: its frame's position (world) and orientation (unit quaternion
//! w, x, y, z); every joint's coordinates in joint-id order (`Sim::joint_position`)].
//! v = [per floating base: its frame's linear velocity (of the origin) and angular
//! velocity, both in the base frame's own axes (Pinocchio's LOCAL); every joint's rates
//! (`Sim::joint_velocity`: discrete)]. A base's twist comes from its body's velocities
//! (v, ω), which are the integrator's discrete ones (the centre of mass moves by v dt).
//! Setting q moves the whole robot at once and keeps v; setting v keeps q. Bodies follow
//! their joints as `Sim::set_joint_position` and `set_joint_velocity` place them. Angles
//! that a limit or a mimic tracks read unwrapped (5 rad, not −1.28), as they were set.

use super::Sim;
use crate::error::{check_finite, check_len};
use crate::joints::constraint::Pose;
use crate::math::{V3, V4};
use crate::model::floating_base::{BASE_CONFIGURATION, BASE_VELOCITIES};
use crate::model::{Error, Result};
use std::f64::consts::PI;

/// How far from 1 the norm of a base quaternion given to `set_configuration` may be (it
/// is then normalized); beyond, the quaternion is refused.
pub const UNIT_QUATERNION_TOLERANCE: f64 = 1e-6;

impl Sim {
    /// World pose of floating base `k`'s frame.
    pub(crate) fn base_frame_pose(&self, k: usize) -> Pose {
        let base = &self.model.floating_bases[k];
        base.frame_pose(&self.pose(Some(base.body)))
    }

    /// Floating base `k`'s twist (ν, ω) in its frame's axes.
    pub(crate) fn base_twist(&self, k: usize) -> (V3, V3) {
        let base = &self.model.floating_bases[k];
        let (v, w) = self.read_velocities(base.body);
        base.twist(&self.pose(Some(base.body)), &v, &w)
    }

    /// The configuration q (length nq, see the module docs) into `out`.
    pub fn configuration(&self, out: &mut [f64]) -> Result<()> {
        check_len("q", out.len(), self.model.configuration_size())?;
        let nbase = self.model.floating_bases.len();
        for k in 0..nbase {
            let p = self.base_frame_pose(k);
            out[7 * k..7 * k + 3].copy_from_slice(p.x.as_slice());
            out[7 * k + 3..7 * k + 7].copy_from_slice(p.q.as_slice());
        }
        let joints = &mut out[BASE_CONFIGURATION * nbase..];
        let mut at = 0;
        for (ji, j) in self.model.joints.iter().enumerate() {
            self.joint_position(ji, &mut joints[at..at + j.dof()])?;
            at += j.dof();
        }
        // an angle a limit or mimic tracks reads unwrapped, so that setting q back keeps it
        let first = self.joint_first_entries();
        for (t, c) in self.model.tracked.iter().enumerate() {
            joints[first[c.joint] + c.index] = self.data.tracked.state[t];
        }
        Ok(())
    }

    /// Each joint's first entry in the joints' part of q (or of v).
    fn joint_first_entries(&self) -> Vec<usize> {
        let nb = self.model.base_velocity_count();
        self.model.joint_offsets().iter().map(|o| o - nb).collect()
    }

    /// The generalized velocity v (length nv, see the module docs) into `out`.
    pub fn generalized_velocity(&self, out: &mut [f64]) -> Result<()> {
        check_len("v", out.len(), self.model.minimal_velocity_count())?;
        let nbase = self.model.floating_bases.len();
        for k in 0..nbase {
            let (nu, w) = self.base_twist(k);
            out[6 * k..6 * k + 3].copy_from_slice(nu.as_slice());
            out[6 * k + 3..6 * k + 6].copy_from_slice(w.as_slice());
        }
        let mut at = BASE_VELOCITIES * nbase;
        for (ji, j) in self.model.joints.iter().enumerate() {
            self.joint_velocity(ji, &mut out[at..at + j.dof()])?;
            at += j.dof();
        }
        Ok(())
    }

    /// Sets the whole configuration q (length nq): every floating base and every joint
    /// at once; the generalized velocity is kept. A base quaternion must be unit within
    /// [`UNIT_QUATERNION_TOLERANCE`] (it is normalized). Angles are stored as given (a
    /// limit beyond ±π sees them unwrapped). Refused, changing nothing: a model with
    /// kinematic loops, a wrong length, a non-finite entry, a non-unit quaternion.
    pub fn set_configuration(&mut self, q: &[f64]) -> Result<()> {
        check_len("q", q.len(), self.model.configuration_size())?;
        check_finite("q", q)?;
        self.check_tree_state("q")?;
        let nbase = self.model.floating_bases.len();
        let mut frames = Vec::with_capacity(nbase);
        for k in 0..nbase {
            let quat = V4::new(q[7 * k + 3], q[7 * k + 4], q[7 * k + 5], q[7 * k + 6]);
            let norm = quat.norm();
            if (norm - 1.0).abs() > UNIT_QUATERNION_TOLERANCE {
                return Err(Error::InvalidArgument(
                    "q",
                    format!("floating base {k}'s quaternion (entries {}..{}) has norm {norm}; a unit quaternion (w, x, y, z) is needed (within {UNIT_QUATERNION_TOLERANCE:e})", 7 * k + 3, 7 * k + 7),
                ));
            }
            frames.push(Pose { x: V3::new(q[7 * k], q[7 * k + 1], q[7 * k + 2]), q: quat / norm });
        }
        let joints = &q[BASE_CONFIGURATION * nbase..];
        self.change_or_undo(|s| {
            let mut plan = s.tree_plan();
            let twists: Vec<(V3, V3)> = (0..nbase).map(|k| s.base_twist(k)).collect();
            for (k, frame) in frames.iter().enumerate() {
                let base = s.model.floating_bases[k];
                let body = base.body_pose(frame);
                let (v, w) = base.body_velocity(&body, &twists[k].0, &twists[k].1);
                let st = &mut s.data.state;
                (st.x[base.body], st.q[base.body], st.v[base.body], st.w[base.body]) = (body.x, body.q, v, w);
            }
            let mut at = 0;
            for (ji, j) in s.model.joints.iter().enumerate() {
                plan[ji].0[..j.dof()].copy_from_slice(&joints[at..at + j.dof()]);
                at += j.dof();
            }
            s.place(&plan);
            s.startable(|| Error::InvalidArgument("q", "the state this configuration gives is not finite".into()))
        })?;
        self.data.start_unchecked = true;
        // a tracked angle is what was set, also beyond ±π
        let first = self.joint_first_entries();
        for (t, c) in self.model.tracked.iter().enumerate() {
            self.data.tracked.state[t] = joints[first[c.joint] + c.index];
        }
        Ok(())
    }

    /// Sets the whole generalized velocity v (length nv): every floating base's twist and
    /// every joint's rates (discrete, as `Sim::set_joint_velocity`); the configuration is
    /// kept. Refused, changing nothing: a model with kinematic loops, a wrong length, a
    /// non-finite entry, a joint turning by π or more in one step, a body spinning at
    /// |ω| ≥ 2/dt.
    pub fn set_generalized_velocity(&mut self, v: &[f64]) -> Result<()> {
        check_len("v", v.len(), self.model.minimal_velocity_count())?;
        check_finite("v", v)?;
        self.check_tree_state("v")?;
        let offsets = self.model.joint_offsets();
        for (ji, j) in self.model.joints.iter().enumerate() {
            let o = offsets[ji];
            let turn = v[o + j.ct.len..o + j.dof()].iter().map(|r| r * r).sum::<f64>().sqrt() * self.data.dt;
            if turn >= PI {
                return Err(Error::InvalidArgument("v", format!("joint {ji}'s rotation rate turns it by {turn} rad in one step; the step represents less than π (|rate| < π/dt = {})", PI / self.data.dt)));
            }
        }
        self.change_or_undo(|s| {
            let mut plan = s.tree_plan();
            for k in 0..s.model.floating_bases.len() {
                let base = s.model.floating_bases[k];
                let body = s.pose(Some(base.body));
                let (nu, w) = (V3::new(v[6 * k], v[6 * k + 1], v[6 * k + 2]), V3::new(v[6 * k + 3], v[6 * k + 4], v[6 * k + 5]));
                (s.data.state.v[base.body], s.data.state.w[base.body]) = base.body_velocity(&body, &nu, &w);
            }
            for (ji, j) in s.model.joints.iter().enumerate() {
                plan[ji].1[..j.dof()].copy_from_slice(&v[offsets[ji]..offsets[ji] + j.dof()]);
            }
            s.place(&plan);
            s.startable(|| Error::InvalidArgument("v", "the state these velocities give is not finite".into()))
        })
    }

    /// Every joint's input in joint-id order (length nu) into `out`.
    pub fn joint_inputs(&self, out: &mut [f64]) -> Result<()> {
        check_len("u", out.len(), self.model.joint_velocity_count())?;
        let mut at = 0;
        for (ji, j) in self.model.joints.iter().enumerate() {
            self.joint_input(ji, &mut out[at..at + j.dof()])?;
            at += j.dof();
        }
        Ok(())
    }

    /// Sets every joint's input at once (length nu, joint-id order, as
    /// `Sim::set_joint_input` takes each); held until changed. Refused, changing nothing:
    /// a wrong length, a non-finite entry.
    pub fn set_joint_inputs(&mut self, u: &[f64]) -> Result<()> {
        check_len("u", u.len(), self.model.joint_velocity_count())?;
        check_finite("u", u)?;
        let mut at = 0;
        for ji in 0..self.model.joint_count() {
            let n = self.model.joints[ji].dof();
            self.set_joint_input(ji, &u[at..at + n])?;
            at += n;
        }
        Ok(())
    }

    /// Every joint's servo target in joint-id order (each of length nu, as
    /// `Sim::joint_target` gives each) into `position` and `velocity`.
    pub fn joint_targets(&self, position: &mut [f64], velocity: &mut [f64]) -> Result<()> {
        let nu = self.model.joint_velocity_count();
        check_len("position", position.len(), nu)?;
        check_len("velocity", velocity.len(), nu)?;
        let mut at = 0;
        for (ji, j) in self.model.joints.iter().enumerate() {
            let n = j.dof();
            self.joint_target(ji, &mut position[at..at + n], &mut velocity[at..at + n])?;
            at += n;
        }
        Ok(())
    }

    /// Sets every joint's servo target at once (each of length nu, joint-id order, as
    /// `Sim::set_joint_target` takes each): the action of a policy that commands PD
    /// targets. Refused, changing nothing: a wrong length, a non-finite entry, a non-zero
    /// position (rate) of a joint without a spring (damper), named. A joint with neither
    /// takes zeros. The springs' change of potential is input work.
    pub fn set_joint_targets(&mut self, position: &[f64], velocity: &[f64]) -> Result<()> {
        let nu = self.model.joint_velocity_count();
        check_len("position", position.len(), nu)?;
        check_len("velocity", velocity.len(), nu)?;
        check_finite("position", position)?;
        check_finite("velocity", velocity)?;
        let mut at = 0;
        for (ji, j) in self.model.joints.iter().enumerate() {
            let n = j.dof();
            self.check_target_acts(ji, &position[at..at + n], &velocity[at..at + n])?;
            at += n;
        }
        let model = self.model.clone();
        self.move_targets(|targets| {
            let mut at = 0;
            for (t, j) in targets.iter_mut().zip(&model.joints) {
                let n = j.dof();
                t.position[..n].copy_from_slice(&position[at..at + n]);
                t.velocity[..n].copy_from_slice(&velocity[at..at + n]);
                at += n;
            }
        });
        Ok(())
    }

    /// Whole minimal states are set on trees: a loop-closing joint's coordinates follow
    /// from the others.
    fn check_tree_state(&self, what: &'static str) -> Result<()> {
        match self.model.joints.iter().enumerate().find(|(ji, j)| self.model.tree_parent[j.child] != Some(*ji)) {
            Some((ji, _)) => Err(Error::InvalidArgument(what, format!("joint {ji} closes a kinematic loop: a whole minimal state is set on trees only; set the tree joints one by one"))),
            None => Ok(()),
        }
    }
}
