//! State access: body states, minimal coordinates, energy, constraint violation.

use super::Sim;
use crate::joints::constraint::Pose;
use crate::joints::minimal::Twist;
use crate::math::{V3, V4};
use crate::model::{Error, Result};

/// Doubles per body in a state array: x(3) q(4: w,x,y,z) v(3) ω(3).
pub const BODY_STATE_LEN: usize = 13;

impl Sim {
    fn pose(&self, body: Option<usize>) -> Pose {
        body.map_or(Pose::WORLD, |i| Pose { x: self.x[i], q: self.q[i] })
    }

    fn twist(&self, body: Option<usize>) -> Twist {
        body.map_or(Twist::ZERO, |i| Twist { v: self.v[i], w: self.w[i] })
    }

    /// `x(3) q(4) v(3) ω(3)`: position and linear velocity in the world frame, angular
    /// velocity in the body frame.
    pub fn body_state(&self, body: usize) -> Result<[f64; 13]> {
        self.check_body(body)?;
        let mut s = [0.0; 13];
        s[0..3].copy_from_slice(self.x[body].as_slice());
        s[3..7].copy_from_slice(self.q[body].as_slice());
        s[7..10].copy_from_slice(self.v[body].as_slice());
        s[10..13].copy_from_slice(self.w[body].as_slice());
        Ok(s)
    }

    /// Sets one body's state directly (quaternion normalized). The escape hatch for free
    /// bodies and states computed elsewhere: joints are not enforced here.
    pub fn set_body_state(&mut self, body: usize, s: &[f64; 13]) -> Result<()> {
        self.check_body(body)?;
        crate::model::error::check_finite("state", s)?;
        let q = V4::new(s[3], s[4], s[5], s[6]);
        if q.norm() < 1e-12 {
            return Err(Error::ZeroAxis("q"));
        }
        let w = V3::new(s[10], s[11], s[12]);
        self.check_angular_speed(&w)?;
        self.x[body] = V3::new(s[0], s[1], s[2]);
        self.q[body] = q.normalize();
        self.v[body] = V3::new(s[7], s[8], s[9]);
        self.w[body] = w;
        Ok(())
    }

    fn check_joint(&self, joint: usize) -> Result<&crate::joints::Joint> {
        self.model.joints.get(joint).ok_or(Error::UnknownJoint(joint as i32))
    }

    fn check_len(name: &'static str, got: usize, expected: usize) -> Result<()> {
        if got == expected {
            Ok(())
        } else {
            Err(Error::WrongLength { name, got, expected })
        }
    }

    /// Number of minimal coordinates of a joint.
    pub fn joint_dof(&self, joint: usize) -> Result<usize> {
        Ok(self.check_joint(joint)?.dof())
    }

    pub fn joint_position(&self, joint: usize, out: &mut [f64]) -> Result<()> {
        let j = self.check_joint(joint)?;
        Self::check_len("values", out.len(), j.dof())?;
        j.minimal_position(&self.pose(j.parent), &self.pose(Some(j.child)), out);
        Ok(())
    }

    pub fn joint_velocity(&self, joint: usize, out: &mut [f64]) -> Result<()> {
        let j = self.check_joint(joint)?;
        Self::check_len("values", out.len(), j.dof())?;
        j.minimal_velocity(&self.pose(j.parent), &self.twist(j.parent), &self.pose(Some(j.child)), &self.twist(Some(j.child)), out);
        Ok(())
    }

    /// Sets a joint's minimal coordinates. The child's subtree moves rigidly: every other
    /// joint keeps its coordinates and rates; velocities are made consistent.
    pub fn set_joint_position(&mut self, joint: usize, values: &[f64]) -> Result<()> {
        let j = self.check_joint(joint)?;
        Self::check_len("values", values.len(), j.dof())?;
        crate::model::error::check_finite("values", values)?;
        self.reposition(Some((joint, values, true)));
        Ok(())
    }

    /// Sets a joint's minimal velocities; the subtree follows.
    pub fn set_joint_velocity(&mut self, joint: usize, values: &[f64]) -> Result<()> {
        let j = self.check_joint(joint)?;
        Self::check_len("values", values.len(), j.dof())?;
        crate::model::error::check_finite("values", values)?;
        self.reposition(Some((joint, values, false)));
        Ok(())
    }

    /// Re-places every tree body from its parent and its joint's (current or new)
    /// coordinates, walking the spanning tree from the world.
    fn reposition(&mut self, change: Option<(usize, &[f64], bool)>) {
        let model = self.model.clone();
        let mut pos = [0.0; 6];
        let mut vel = [0.0; 6];
        // coordinates of all tree joints before the change
        let coords: Vec<([f64; 6], [f64; 6])> = model
            .tree_order
            .iter()
            .map(|&ji| {
                let j = &model.joints[ji];
                let n = j.dof();
                self.joint_position(ji, &mut pos[..n]).ok();
                self.joint_velocity(ji, &mut vel[..n]).ok();
                (pos, vel)
            })
            .collect();
        for (k, &ji) in model.tree_order.iter().enumerate() {
            let j = &model.joints[ji];
            let n = j.dof();
            let (mut p, mut v) = coords[k];
            if let Some((cj, values, is_pos)) = change {
                if cj == ji {
                    if is_pos {
                        p[..n].copy_from_slice(values);
                    } else {
                        v[..n].copy_from_slice(values);
                    }
                }
            }
            let a = self.pose(j.parent);
            let ta = self.twist(j.parent);
            let b = j.child_pose(&a, &p[..n]);
            let tb = j.child_twist(&a, &ta, &b, &v[..n]);
            self.x[j.child] = b.x;
            self.q[j.child] = b.q;
            self.v[j.child] = tb.v;
            self.w[j.child] = tb.w;
        }
        if let Some((cj, values, _)) = change {
            if !model.tree_order.contains(&cj) {
                // a loop-closing joint: its child is placed by the tree; place it from
                // this joint instead (its subtree is not moved)
                let j = &model.joints[cj];
                let n = j.dof();
                let a = self.pose(j.parent);
                let ta = self.twist(j.parent);
                let mut p = [0.0; 6];
                let mut v = [0.0; 6];
                self.joint_position(cj, &mut p[..n]).ok();
                self.joint_velocity(cj, &mut v[..n]).ok();
                let _ = values;
                let b = j.child_pose(&a, &p[..n]);
                let tb = j.child_twist(&a, &ta, &b, &v[..n]);
                self.x[j.child] = b.x;
                self.q[j.child] = b.q;
                self.v[j.child] = tb.v;
                self.w[j.child] = tb.w;
            }
        }
    }

    /// Kinetic and potential energy (gravity and springs).
    pub fn energy(&self) -> (f64, f64) {
        let mut k = 0.0;
        let mut p = 0.0;
        for (i, b) in self.model.bodies.iter().enumerate() {
            k += 0.5 * b.mass * self.v[i].norm_squared() + 0.5 * self.w[i].dot(&(b.inertia * self.w[i]));
            p -= b.mass * self.model.gravity.dot(&self.x[i]);
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

    /// Largest joint velocity-constraint residual |G ż| at the current state.
    pub fn velocity_violation(&self) -> f64 {
        use crate::integrator::joint_rows::multiplier_jacobian;
        let mut m: f64 = 0.0;
        let mut ga = [0.0; 36];
        let mut gb = [0.0; 36];
        for j in &self.model.joints {
            let nc = j.constraint_count();
            multiplier_jacobian(j, &self.pose(j.parent), &self.pose(Some(j.child)), &mut ga[..nc * 6], &mut gb[..nc * 6]);
            for r in 0..nc {
                let mut s = 0.0;
                for (t, g) in [(self.twist(j.parent), &ga), (self.twist(Some(j.child)), &gb)] {
                    if std::ptr::eq(g, &ga) && j.parent.is_none() {
                        continue;
                    }
                    for c in 0..3 {
                        s += g[r * 6 + c] * t.v[c] + 0.5 * g[r * 6 + 3 + c] * t.w[c];
                    }
                }
                m = m.max(s.abs());
            }
        }
        m
    }
}
