//! The linearization x_{k+1} = f(x_k, u_k) by central differences of whole steps, each
//! from a copy of the sim with one state or input entry moved by ±h: the reference the
//! analytic derivatives are tested against, and the fallback for models the analytic path
//! does not derive. Costs 2 (nx + nu) steps.
//!
//! The state is perturbed through the same setters a user calls, so the columns are
//! derivatives of exactly what those setters and getters define: in maximal coordinates
//! `set_body_state` (which normalizes the quaternion, so a quaternion column is the
//! derivative along the tangent of q/|q|), in minimal coordinates `set_joint_position` /
//! `set_joint_velocity` (the child's subtree follows, every other joint keeps its
//! coordinates and rates).

use crate::kinematics::Coords;
use crate::model::{Error, Result};
use crate::sim::Sim;

impl Sim {
    /// A = ∂f/∂x (nx × nx) and B = ∂f/∂u (nx × nu), row-major, by central differences
    /// with step `h` on every entry (the sim is not advanced). Each step must converge;
    /// set a tight solver tolerance for accurate columns (the Newton tolerance over h
    /// bounds their accuracy).
    pub fn linearize_by_differences(&self, coords: Coords, h: f64, a: &mut [f64], b: &mut [f64]) -> Result<()> {
        let (nx, nu) = self.model().linearization_size(coords);
        crate::error::check_len("A", a.len(), nx * nx)?;
        crate::error::check_len("B", b.len(), nx * nu)?;
        if !(h.is_finite() && h > 0.0) {
            return Err(Error::InvalidArgument("h", format!("{h} must be finite and > 0")));
        }
        if coords == Coords::Minimal {
            check_minimal_state(self)?;
        }
        let (mut plus, mut minus) = (vec![0.0; nx], vec![0.0; nx]);
        for c in 0..nx {
            stepped_state(self, coords, c, h, &mut plus)?;
            stepped_state(self, coords, c, -h, &mut minus)?;
            for r in 0..nx {
                a[r * nx + c] = (plus[r] - minus[r]) / (2.0 * h);
            }
        }
        for c in 0..nu {
            stepped_input(self, coords, c, h, &mut plus)?;
            stepped_input(self, coords, c, -h, &mut minus)?;
            for r in 0..nx {
                b[r * nu + c] = (plus[r] - minus[r]) / (2.0 * h);
            }
        }
        Ok(())
    }

    /// The state x in `coords` (length nx of `Model::linearization_size`).
    pub fn linearization_state(&self, coords: Coords, out: &mut [f64]) -> Result<()> {
        let (nx, _) = self.model().linearization_size(coords);
        crate::error::check_len("out", out.len(), nx)?;
        match coords {
            Coords::Maximal => {
                for (b, chunk) in out.chunks_exact_mut(13).enumerate() {
                    chunk.copy_from_slice(&self.body_state(b)?);
                }
            }
            Coords::Minimal => {
                let (pos, vel) = out.split_at_mut(nx / 2);
                let mut o = 0;
                for (ji, j) in self.model().joints.iter().enumerate() {
                    let n = j.dof();
                    self.joint_position(ji, &mut pos[o..o + n])?;
                    self.joint_velocity(ji, &mut vel[o..o + n])?;
                    o += n;
                }
            }
        }
        Ok(())
    }
}

/// Minimal coordinates are a state only when every joint is in the spanning tree: a
/// loop-closing joint's coordinates follow from the others.
pub(crate) fn check_minimal_state(sim: &Sim) -> Result<()> {
    let m = sim.model();
    match m.joints.iter().enumerate().find(|(ji, j)| m.tree_parent[j.child] != Some(*ji)) {
        Some((ji, _)) => Err(Error::InvalidArgument("coords", format!("joint {ji} closes a kinematic loop: minimal coordinates are not a state of this model; use maximal coordinates"))),
        None => Ok(()),
    }
}

/// The state after one step from `sim` with state entry `c` moved by `h`.
fn stepped_state(sim: &Sim, coords: Coords, c: usize, h: f64, out: &mut [f64]) -> Result<()> {
    let mut s = sim.clone();
    // a maximal state moved by h is off the joints by h: the step map is defined there
    s.set_options(crate::SolverOptions { joint_tolerance: f64::INFINITY, ..s.options() })?;
    match coords {
        Coords::Maximal => {
            let (b, k) = (c / 13, c % 13);
            let mut x = s.body_state(b)?;
            x[k] += h;
            s.set_body_state(b, &x)?;
        }
        Coords::Minimal => {
            let half = s.model().minimal_velocity_count();
            let (ji, i) = joint_entry(&s, c % half);
            let mut v = [0.0; 6];
            let n = s.model().joints[ji].dof();
            if c < half {
                s.joint_position(ji, &mut v[..n])?;
                v[i] += h;
                s.set_joint_position(ji, &v[..n])?;
            } else {
                s.joint_velocity(ji, &mut v[..n])?;
                v[i] += h;
                s.set_joint_velocity(ji, &v[..n])?;
            }
        }
    }
    s.step()?;
    s.linearization_state(coords, out)
}

/// The state after one step from `sim` with input `c` moved by `h`.
fn stepped_input(sim: &Sim, coords: Coords, c: usize, h: f64, out: &mut [f64]) -> Result<()> {
    let mut s = sim.clone();
    match coords {
        Coords::Maximal => {
            let (b, k) = (c / 6, c % 6);
            let (d, _) = s.data_and_options();
            let (mut f, mut t, p) = (d.inputs.force[b], d.inputs.torque[b], d.inputs.force_point[b]);
            if k < 3 {
                f[k] += h;
            } else {
                t[k - 3] += h;
            }
            s.set_body_wrench(b, f.into(), t.into(), p.into())?;
        }
        Coords::Minimal => {
            let (ji, i) = joint_entry(&s, c);
            let n = s.model().joints[ji].dof();
            let mut u = [0.0; 6];
            s.joint_input(ji, &mut u[..n])?;
            u[i] += h;
            s.set_joint_input(ji, &u[..n])?;
        }
    }
    s.step()?;
    s.linearization_state(coords, out)
}

/// (joint, direction) of minimal entry `c` (joint-id order, each joint's directions).
pub(crate) fn joint_entry(sim: &Sim, mut c: usize) -> (usize, usize) {
    let mut ji = 0;
    while c >= sim.model().joints[ji].dof() {
        c -= sim.model().joints[ji].dof();
        ji += 1;
    }
    (ji, c)
}
