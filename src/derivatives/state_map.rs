//! The input derivative mapped to the state after the step, x_{k+1}, in maximal or
//! minimal coordinates: B = ∂x_{k+1}/∂u (nx × nu). The positions z_{k+1} are predicted
//! from ż_k, so their rows are zero; the velocity rows are ∂ż_{k+1}/∂u (maximal), or the
//! derivative of the minimal velocities `Sim::joint_velocity` reports after the step
//! (minimal): (c(z_{k+2}) − c(z_{k+1}))/dt with z_{k+2} = (x + v dt, q ⊗ ω̄(ω, dt)), so
//!   ∂q̇/∂u = Σ_bodies [∂c/∂x · dt ∂v/∂u + ∂c/∂δφ · M(ω) ∂ω/∂u] / dt,
//! ∂c from `Joint::coordinate_and_gradient` at z_{k+2} and M(ω) the rotation map of
//! `integrator::next_poses`.

use crate::integrator::next_poses::rotation_map;
use crate::integrator::prediction::advance;
use crate::joints::constraint::Pose;
use crate::kinematics::Coords;
use crate::math::V3;
use crate::model::{Error, Model, Result};
use crate::sim::Sim;

impl Model {
    /// (nx, nu) of a linearization in `coords`: minimal, every joint's positions then its
    /// velocities (2 × the minimal velocity count) and every joint's inputs; maximal, the
    /// 13 doubles of `Sim::body_state` per body and 6 wrench entries per body.
    pub fn linearization_size(&self, coords: Coords) -> (usize, usize) {
        match coords {
            Coords::Minimal => (2 * self.minimal_velocity_count(), self.minimal_velocity_count()),
            Coords::Maximal => (13 * self.body_count(), 6 * self.body_count()),
        }
    }
}

impl Sim {
    /// B = ∂x_{k+1}/∂u of one step from the current state and inputs (the sim is not
    /// advanced), nx × nu row-major (`Model::linearization_size`). In minimal coordinates
    /// every joint's coordinates must be single-axis (translations, and rotations of
    /// joints with one free rotation); other joints are refused.
    pub fn input_derivative(&self, coords: Coords, out: &mut [f64]) -> Result<()> {
        let model = self.model().clone();
        let (nx, nu) = model.linearization_size(coords);
        crate::error::check_len("out", out.len(), nx * nu)?;
        if coords == Coords::Minimal {
            if let Some(j) = model.joints.iter().find(|j| (0..j.dof()).any(|i| !j.is_single_axis(i))) {
                return Err(Error::InvalidArgument("model", format!("joint `{}` ({:?}) has several free rotations; minimal input derivatives need single-axis coordinates", j.name, j.kind)));
            }
        }
        let (next, dz) = self.velocity_derivatives(coords)?;
        out.fill(0.0);
        match coords {
            Coords::Maximal => {
                for b in 0..model.body_count() {
                    for r in 0..6 {
                        out[(13 * b + 7 + r) * nu..(13 * b + 8 + r) * nu].copy_from_slice(&dz[(6 * b + r) * nu..(6 * b + r + 1) * nu]);
                    }
                }
            }
            Coords::Minimal => minimal_rows(&next, &model, &dz, nu, out),
        }
        Ok(())
    }
}

/// The velocity rows of the minimal B from ∂ż_{k+1}/∂u (`dz`, 6 rows per body).
fn minimal_rows(next: &Sim, model: &Model, dz: &[f64], nu: usize, out: &mut [f64]) {
    let dt = next.dt();
    let nv = model.minimal_velocity_count();
    let state: Vec<[f64; 13]> = (0..model.body_count()).map(|b| next.body_state(b).expect("a body")).collect();
    let v3 = |s: &[f64]| V3::new(s[0], s[1], s[2]);
    let predicted = |b: Option<usize>| {
        b.map_or(Pose::WORLD, |b| {
            let s = &state[b];
            advance(&v3(&s[0..3]), &crate::math::V4::new(s[3], s[4], s[5], s[6]), &v3(&s[7..10]), &v3(&s[10..13]), dt)
        })
    };
    let mut row = nv;
    for j in &model.joints {
        let (a, b) = (predicted(j.parent), predicted(Some(j.child)));
        for i in 0..j.dof() {
            let (_, g) = j.coordinate_and_gradient(&a, &b, i, true);
            for (body, gx, gphi) in [(j.parent, g.parent_x, g.parent_phi), (Some(j.child), g.child_x, g.child_phi)] {
                let Some(body) = body else { continue };
                // ∂q̇/∂(v, ω) of this body: (gx dt, Mᵀ gphi) / dt
                let m = rotation_map(&v3(&state[body][10..13]), dt);
                let gw = m.transpose() * gphi / dt;
                for c in 0..nu {
                    let d = |k: usize| dz[(6 * body + k) * nu + c];
                    out[row * nu + c] += gx.dot(&V3::new(d(0), d(1), d(2))) + gw.dot(&V3::new(d(3), d(4), d(5)));
                }
            }
            row += 1;
        }
    }
}
