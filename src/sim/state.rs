//! State access: body states, minimal coordinates, energy, constraint violation.

use super::Sim;
use crate::error::check_len;
use crate::joints::constraint::Pose;
use crate::joints::Joint;
use crate::integrator::prediction::advance;
use crate::math::{velocity_between, V3, V4};
use crate::model::error::check_finite;
use crate::model::{Error, Model, Result};
use std::f64::consts::PI;


impl Sim {
    pub(super) fn pose(&self, body: Option<usize>) -> Pose {
        self.data.state.pose(body)
    }

    /// `x(3) q(4) v(3) ω(3)`: position and linear velocity in the world frame, angular
    /// velocity in the body frame.
    pub fn body_state(&self, body: usize) -> Result<[f64; 13]> {
        self.check_body(body)?;
        let mut s = [0.0; 13];
        s[0..3].copy_from_slice(self.data.state.x[body].as_slice());
        s[3..7].copy_from_slice(self.data.state.q[body].as_slice());
        let (v, w) = self.read_velocities(body);
        s[7..10].copy_from_slice(v.as_slice());
        s[10..13].copy_from_slice(w.as_slice());
        Ok(s)
    }

    /// Sets one body's state directly (quaternion normalized). The escape hatch for free
    /// bodies and states computed elsewhere: joints are not enforced here.
    pub fn set_body_state(&mut self, body: usize, s: &[f64; 13]) -> Result<()> {
        self.check_body(body)?;
        check_finite("state", s)?;
        let q = crate::math::unit_quaternion(&V4::new(s[3], s[4], s[5], s[6])).ok_or(Error::ZeroAxis("q"))?;
        let w = V3::new(s[10], s[11], s[12]);
        self.check_angular_speed(&w)?;
        if self.second_order() && !self.data.velocities_at_node {
            // every other body's velocities become those at the node as they read (the
            // mean of two intervals), not its interval's
            for i in 0..self.model.body_count() {
                (self.data.state.v[i], self.data.state.w[i]) = self.read_velocities(i);
            }
        }
        self.data.state.x[body] = V3::new(s[0], s[1], s[2]);
        self.data.state.q[body] = q;
        self.data.state.v[body] = V3::new(s[7], s[8], s[9]);
        self.data.state.w[body] = w;
        self.data.dt_prev = self.data.dt;
        self.data.velocities_at_node = true;
        self.data.start_unchecked = true;
        self.follow_tracked();
        Ok(())
    }

    /// The tracked joint coordinates (limits, mimics) follow a state the caller set.
    pub(super) fn follow_tracked(&mut self) {
        let s = &self.data.state;
        self.data.tracked.follow_state(&self.model, &s.x, &s.q);
    }

    fn check_joint(&self, joint: usize) -> Result<&crate::joints::Joint> {
        self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))
    }

    /// Minimal coordinates can be set only on spanning-tree joints: a loop-closing joint's
    /// child is already placed by the tree.
    fn check_tree_joint(&self, joint: usize) -> Result<&crate::joints::Joint> {
        let j = self.check_joint(joint)?;
        if self.model.tree_parent[j.child] != Some(joint) {
            return Err(Error::InvalidArgument("joint", format!("joint {joint} closes a kinematic loop; set the tree joints instead")));
        }
        Ok(j)
    }

    /// Number of minimal coordinates of a joint.
    pub fn joint_dof(&self, joint: usize) -> Result<usize> {
        Ok(self.check_joint(joint)?.dof())
    }

    /// Poses z_{k+1} that the next step will predict from the current velocities.
    pub(super) fn predicted_poses(&self) -> Vec<Pose> {
        (0..self.model.body_count()).map(|i| self.predicted_pose(Some(i))).collect()
    }

    pub(super) fn current_poses(&self) -> Vec<Pose> {
        (0..self.model.body_count()).map(|i| self.pose(Some(i))).collect()
    }

    fn coords(j: &Joint, z: &[Pose], out: &mut [f64]) {
        let a = j.parent.map_or(Pose::WORLD, |p| z[p]);
        j.minimal_position(&a, &z[j.child], out);
    }

    /// Joint rates from the joint's two bodies in two configurations one step apart
    /// (a0, b0 → a1, b1); angles are unwrapped across ±π (`Joint::is_wrapping_angle`).
    fn rates(j: &Joint, a0: &Pose, b0: &Pose, a1: &Pose, b1: &Pose, dt: f64, out: &mut [f64]) {
        let n = j.dof();
        let mut c0 = [0.0; 6];
        j.minimal_position(a0, b0, &mut c0[..n]);
        j.minimal_position(a1, b1, &mut out[..n]);
        for k in 0..n {
            let mut d = out[k] - c0[k];
            if j.is_wrapping_angle(k) {
                d = (d + PI).rem_euclid(2.0 * PI) - PI;
            }
            out[k] = d / dt;
        }
    }

    /// z_{k+1} as the next step predicts it, without the step's normalization of the
    /// quaternion (see `integrator::predict`).
    fn predicted_pose(&self, body: Option<usize>) -> Pose {
        let s = &self.data.state;
        body.map_or(Pose::WORLD, |i| advance(&s.x[i], &s.q[i], &s.v[i], &s.w[i], self.data.dt_prev))
    }

    /// Whether the second- or fourth-order integrator is chosen: the velocities the caller
    /// sets are those at z_k (`SolverOptions::integrator`).
    pub(super) fn second_order(&self) -> bool {
        self.options.integrator != crate::sim::Integrator::FirstOrder
    }

    /// A body's pose a `fraction` of the nominal step from z_k at its velocities,
    /// backwards for a negative one (the rotation map's inverse is its conjugate).
    fn shifted_pose(&self, i: usize, fraction: f64) -> Pose {
        let (s, h) = (&self.data.state, fraction.abs() * self.data.dt);
        let sign = fraction.signum();
        advance(&s.x[i], &s.q[i], &(s.v[i] * sign), &(s.w[i] * sign), h)
    }

    /// Every body's [`Sim::shifted_pose`].
    fn shifted_poses(&self, fraction: f64) -> Vec<Pose> {
        (0..self.model.body_count()).map(|i| self.shifted_pose(i, fraction)).collect()
    }

    /// The two poses of `body` the current velocities are read between (the world's for
    /// None), and the time between them ([`Sim::velocity_span`]): z_k and z_{k+1}, or, for
    /// velocities at z_k (the second-order integrator's before its first step), half a step
    /// either side of z_k. With the second-order integrator after a step of the nominal
    /// interval, z_{k−1} (z_k moved back by the previous interval's velocities) and z_{k+1}:
    /// the rates read are then the mean of the two intervals', those at z_k to second order.
    /// Per body, so that a joint's query allocates nothing (controllers read them every step).
    fn velocity_end(&self, body: Option<usize>) -> (Pose, Pose) {
        let Some(i) = body else { return (Pose::WORLD, Pose::WORLD) };
        let d = &self.data;
        if self.second_order() && d.velocities_at_node {
            return (self.shifted_pose(i, -0.5), self.shifted_pose(i, 0.5));
        }
        if self.has_previous_interval() {
            let (v, w) = d.layout(&self.model).addresses.velocities(&d.warm.previous, i);
            let s = &d.state;
            return (advance(&s.x[i], &s.q[i], &-v, &-w, d.dt_prev), self.predicted_pose(Some(i)));
        }
        (self.pose(Some(i)), self.predicted_pose(Some(i)))
    }

    /// The time between the two poses of [`Sim::velocity_end`].
    fn velocity_span(&self) -> f64 {
        let d = &self.data;
        if self.second_order() && d.velocities_at_node {
            d.dt
        } else if self.has_previous_interval() {
            2.0 * d.dt_prev
        } else {
            d.dt_prev
        }
    }

    /// [`Sim::velocity_end`] of every body, and the time between.
    fn velocity_ends(&self) -> (Vec<Pose>, Vec<Pose>, f64) {
        let (z0, z1) = (0..self.model.body_count()).map(|i| self.velocity_end(Some(i))).unzip();
        (z0, z1, self.velocity_span())
    }

    /// Whether the velocities read are the mean of the last interval's and the current
    /// one's (`velocity_ends`): the second- or fourth-order integrator, after two intervals
    /// of one length that the caller did not disturb.
    fn has_previous_interval(&self) -> bool {
        let d = &self.data;
        self.second_order() && !d.velocities_at_node && d.warm.pair_interval == d.dt_prev
    }

    /// Body `i`'s velocities (v, ω) as they are read: the state's, or with the second-order
    /// integrator after a step the mean of the two intervals' about z_k (ω about its own
    /// axis is the same in both bodies' frames).
    pub(super) fn read_velocities(&self, i: usize) -> (V3, V3) {
        let (d, s) = (&self.data, &self.data.state);
        if !self.has_previous_interval() {
            return (s.v[i], s.w[i]);
        }
        let (v, w) = d.layout(&self.model).addresses.velocities(&d.warm.previous, i);
        ((v + s.v[i]) * 0.5, (w + s.w[i]) * 0.5)
    }

    pub fn joint_position(&self, joint: usize, out: &mut [f64]) -> Result<()> {
        let j = self.check_joint(joint)?;
        check_len("values", out.len(), j.dof())?;
        j.minimal_position(&self.pose(j.parent), &self.pose(Some(j.child)), out);
        Ok(())
    }

    /// Minimal velocities. Like the body velocities of this integrator they are discrete:
    /// (coordinates at z_{k+1} − coordinates at z_k)/dt, z_{k+1} being the configuration the
    /// next step predicts. For a free rotation that is the relative rotation vector's rate.
    pub fn joint_velocity(&self, joint: usize, out: &mut [f64]) -> Result<()> {
        let j = self.check_joint(joint)?;
        check_len("values", out.len(), j.dof())?;
        let ((a0, a1), (b0, b1)) = (self.velocity_end(j.parent), self.velocity_end(Some(j.child)));
        Self::rates(j, &a0, &b0, &a1, &b1, self.velocity_span(), out);
        Ok(())
    }

    /// Sets a joint's minimal coordinates. The child's subtree moves rigidly: every other
    /// joint keeps its coordinates and rates, and the velocities stay consistent.
    pub fn set_joint_position(&mut self, joint: usize, values: &[f64]) -> Result<()> {
        let j = self.check_tree_joint(joint)?;
        check_len("values", values.len(), j.dof())?;
        check_finite("values", values)?;
        self.reposition_checked(joint, values, true)?;
        // a loop-closing joint may be open now
        self.data.start_unchecked = true;
        // a tracked angle is what was set, also beyond ±π
        for (i, &v) in values.iter().enumerate() {
            if let Some(t) = crate::model::coordinates::tracked_index(&self.model.tracked, joint, i) {
                self.data.tracked.state[t] = v;
            }
        }
        Ok(())
    }

    /// Sets a joint's minimal velocities (discrete, see [`Sim::joint_velocity`]); the
    /// subtree follows. The next configuration then satisfies every tree joint exactly.
    /// A rotation of π or more per step cannot be represented (it would read back as
    /// another rate), nor can a body spin of |ω| ≥ 2/dt: both are refused and change nothing.
    pub fn set_joint_velocity(&mut self, joint: usize, values: &[f64]) -> Result<()> {
        let j = self.check_tree_joint(joint)?;
        check_len("values", values.len(), j.dof())?;
        check_finite("values", values)?;
        let turn = values[j.ct.len..].iter().map(|r| r * r).sum::<f64>().sqrt() * self.data.dt;
        if turn >= PI {
            return Err(Error::InvalidArgument(
                "values",
                format!("the rotation rate turns the joint by {turn} rad in one step; the step represents less than π (|rate| < π/dt = {})", PI / self.data.dt),
            ));
        }
        self.reposition_checked(joint, values, false)
    }

    /// [`Sim::reposition`], undone when the new state is not one a step can start from.
    fn reposition_checked(&mut self, joint: usize, values: &[f64], is_position: bool) -> Result<()> {
        self.change_or_undo(|s| {
            s.reposition(Some((joint, values, is_position)));
            s.startable(|| Error::InvalidArgument("values", "the state these coordinates give is not finite".into()))
        })
    }

    /// Runs `change` on the state and undoes it (state, tracked coordinates, the
    /// velocities' interval) when it fails.
    pub(super) fn change_or_undo(&mut self, change: impl FnOnce(&mut Sim) -> Result<()>) -> Result<()> {
        let saved = (self.data.state.clone(), self.data.tracked.clone(), self.data.dt_prev);
        let result = change(self);
        if result.is_err() {
            (self.data.state, self.data.tracked, self.data.dt_prev) = saved;
        }
        result
    }

    /// Whether a step can start from the state: every component finite (else
    /// `not_finite()`; far-out poses whose differences overflow) and every body spinning
    /// below 2/dt.
    pub(super) fn startable(&self, not_finite: impl FnOnce() -> Error) -> Result<()> {
        if !self.data.state.is_finite() {
            return Err(not_finite());
        }
        self.data.state.w.iter().try_for_each(|w| self.check_angular_speed(w))
    }

    /// Re-places every tree body at z_k and z_{k+1} from its parent and its joint's
    /// coordinates (`change`: one joint's positions or rates set), walking the spanning
    /// tree from the world; body velocities are then the discrete velocities between the
    /// two configurations. (Allocates: a setup call, never part of a step.)
    pub(super) fn reposition(&mut self, change: Option<(usize, &[f64], bool)>) {
        let mut plan = self.tree_plan();
        if let Some((ji, values, is_position)) = change {
            let (c, r) = &mut plan[ji];
            let target = if is_position { c } else { r };
            target[..values.len()].copy_from_slice(values);
        }
        self.place(&plan);
    }

    /// Every joint's coordinates at z_k and discrete rates (z_k → z_{k+1}), by joint id:
    /// what `place` keeps while something else changes.
    pub(super) fn tree_plan(&self) -> Vec<([f64; 6], [f64; 6])> {
        let model = &*self.model;
        let (z0, z1, h) = self.velocity_ends();
        let pick = |z: &[Pose], b: Option<usize>| b.map_or(Pose::WORLD, |p| z[p]);
        model
            .joints
            .iter()
            .map(|j| {
                let n = j.dof();
                let (mut c, mut r) = ([0.0; 6], [0.0; 6]);
                Self::coords(j, &z0, &mut c[..n]);
                Self::rates(j, &pick(&z0, j.parent), &z0[j.child], &pick(&z1, j.parent), &z1[j.child], h, &mut r[..n]);
                (c, r)
            })
            .collect()
    }

    /// Places every tree body at z_k and z_{k+1} from its parent with its joint's
    /// coordinates and rates in `plan` (by joint id), from the roots as they are; the
    /// velocities then span the nominal step dt.
    pub(super) fn place(&mut self, plan: &[([f64; 6], [f64; 6])]) {
        if self.second_order() {
            return self.place_at_node(plan);
        }
        let model = &*self.model;
        let dt = self.data.dt;
        // from here on every velocity spans the nominal step
        self.data.dt_prev = dt;
        self.data.velocities_at_node = true;
        let z0 = tree_at(model, plan, self.current_poses(), 0.0);
        let z1 = tree_at(model, plan, self.predicted_poses(), dt);
        for &ji in &model.tree_order {
            let b = model.joints[ji].child;
            self.data.state.x[b] = z0[b].x;
            self.data.state.q[b] = z0[b].q;
            self.data.state.v[b] = (z1[b].x - z0[b].x) / dt;
            self.data.state.w[b] = velocity_between(&z0[b].q, &z1[b].q, dt);
        }
        self.follow_tracked();
    }

    /// [`Sim::place`] for velocities at z_k (the second- and fourth-order integrators):
    /// each tree body's velocities are the tangent of its motion, from the poses a
    /// quarter and half a step either side by Richardson's extrapolation of the central
    /// differences, (4 D(dt/2) − D(dt))/3: exact to O(dt⁴), which the fourth order needs
    /// (the central difference alone left an O(dt²) start on the panda).
    fn place_at_node(&mut self, plan: &[([f64; 6], [f64; 6])]) {
        let model = self.model.clone();
        let dt = self.data.dt;
        if !self.data.velocities_at_node {
            // the roots' velocities become those at z_k too (the tree bodies' follow)
            for i in (0..model.body_count()).filter(|&i| model.tree_parent[i].is_none()) {
                (self.data.state.v[i], self.data.state.w[i]) = self.read_velocities(i);
            }
        }
        self.data.dt_prev = dt;
        self.data.velocities_at_node = true;
        // the tree at the coordinates and rates of `plan`, a fraction f of dt from z_k
        let at = |f: f64| tree_at(&model, plan, if f == 0.0 { self.current_poses() } else { self.shifted_poses(f) }, f * dt);
        let (z0, half, quarter) = (at(0.0), [at(-0.5), at(0.5)], [at(-0.25), at(0.25)]);
        for &ji in &model.tree_order {
            let b = model.joints[ji].child;
            let v = |z: &[Vec<Pose>; 2], h: f64| (z[1][b].x - z[0][b].x) / h;
            let w = |z: &[Vec<Pose>; 2], h: f64| velocity_between(&z[0][b].q, &z[1][b].q, h);
            self.data.state.x[b] = z0[b].x;
            self.data.state.q[b] = z0[b].q;
            self.data.state.v[b] = (4.0 * v(&quarter, 0.5 * dt) - v(&half, dt)) / 3.0;
            self.data.state.w[b] = (4.0 * w(&quarter, 0.5 * dt) - w(&half, dt)) / 3.0;
        }
        self.follow_tracked();
    }

    /// Kinetic and potential energy (gravity and springs).
    pub fn energy(&self) -> (f64, f64) {
        let mut k = 0.0;
        let mut p = 0.0;
        for (i, b) in self.model.bodies.iter().enumerate() {
            let (v, w) = self.read_velocities(i);
            k += 0.5 * b.mass * v.norm_squared() + 0.5 * w.dot(&(b.inertia * w));
            p -= b.mass * self.model.gravity.dot(&self.data.state.x[i]);
        }
        (k, p + self.spring_energy())
    }

    /// Largest absolute joint constraint value at the current configuration.
    pub fn constraint_violation(&self) -> f64 {
        let mut m: f64 = 0.0;
        let mut g = [0.0; 6];
        for j in &self.model.joints {
            let nc = j.constraint_count();
            j.constraint(&self.pose(j.parent), &self.pose(Some(j.child)), &mut g[..nc]);
            for v in &g[..nc] {
                m = m.max(v.abs());
            }
        }
        m
    }

    /// Discrete velocity-constraint residual: max |g(z_{k+1})|/dt over the joints, where
    /// z_{k+1} is the configuration the next step predicts from the current velocities
    /// (g(z_k) = 0 and the velocities are (z_{k+1} − z_k)/dt).
    pub fn velocity_violation(&self) -> f64 {
        let z1 = self.predicted_poses();
        let mut m: f64 = 0.0;
        let mut g = [0.0; 6];
        for j in &self.model.joints {
            let nc = j.constraint_count();
            j.constraint(&j.parent.map_or(Pose::WORLD, |p| z1[p]), &z1[j.child], &mut g[..nc]);
            for v in &g[..nc] {
                m = m.max(v.abs() / self.data.dt_prev);
            }
        }
        m
    }
}

/// The tree's bodies placed from the roots in `z` (by joint order, each from its parent)
/// at the coordinates of `plan` (by joint id) moved on by their rates over `h`.
fn tree_at(model: &Model, plan: &[([f64; 6], [f64; 6])], mut z: Vec<Pose>, h: f64) -> Vec<Pose> {
    for &ji in &model.tree_order {
        let j = &model.joints[ji];
        let n = j.dof();
        let (c, r) = plan[ji];
        // h = 0: the coordinates exactly as planned
        let mut moved = c;
        if h != 0.0 {
            for i in 0..n {
                moved[i] += r[i] * h;
            }
        }
        let a = j.parent.map_or(Pose::WORLD, |p| z[p]);
        z[j.child] = j.child_pose(&a, &moved[..n]);
    }
    z
}
