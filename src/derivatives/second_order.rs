//! The linearization of the second-order integrator's step (docs/INTEGRATOR.md) in maximal
//! coordinates: the map from a state as the setters take it (z_k, node velocities ν_k) and
//! the inputs to the state read after one step (z_{k+1}, ν_{k+1}). Two solves make it:
//! ```text
//!   start:  f_s(ż_k; z_k, ν_k, u) = 0      (the consistent start: prediction z_k, h₀ = dt/2,
//!                                           known term the node momentum (2/h₀) J ω_k)
//!   step:   f(ż_{k+1}; z_{k+1}, ż_k, u) = 0,   z_{k+1} = z_k ⊕ dt ż_k
//!   read:   ν_{k+1} = (ż_k + ż_{k+1})/2
//! ```
//! so by the implicit function theorem on each, δż_k = −K_s⁻¹(∂f_s/∂z_k δz_k + ∂f_s/∂ν_k
//! δν_k + ∂f_s/∂u δu), δz_{k+1} = (δx + dt δv_k, Q(ω̄(ω_k, dt))ᵀ δφ + M(ω_k, dt) δω_k), then
//! δż_{k+1} from the step's sensitivity as in the first-order linearization. Both solves'
//! sensitivities are `StepSensitivity`'s (the start's with the node momentum).
//!
//! The linearization point is the sim's state as it reads, set back through the setters
//! (velocities at the node), which is what the difference reference perturbs; for a sim
//! stepped before, B is of its own next step (no start: the inputs change that step
//! alone), as the reference's input columns are. The dampers'
//! rate weighs the known velocities with the unknown ones: their terms through ż_k are
//! `StepSensitivity`'s. Refused: contacts, limits and collision shapes (the start's contact
//! sensitivity is not derived), and a step that had to be split.

use super::step_sensitivity::StepSensitivity;
use crate::integrator::next_poses::rotation_map;
use crate::kinematics::Coords;
use crate::math::{conj, qmul, rotation, step_rotation, vec_part, M3, V3, V4};
use crate::model::{Error, Result};
use crate::sim::Sim;

/// The two solves of one second-order step from a state set at the node.
pub(crate) struct SecondOrderStep {
    start: StepSensitivity,
    step: StepSensitivity,
    /// A sim stepped before (its velocities read as the two intervals' mean): its own
    /// step, without a start, which B follows (the inputs change that step alone).
    plain: Option<StepSensitivity>,
    /// Per body: z_k's orientation, and the prediction's maps Q(ω̄(ω_k, dt))ᵀ, M(ω_k, dt)
    /// with ω_k the start's solution.
    q0: Vec<V4>,
    turn: Vec<M3>,
    map: Vec<M3>,
    /// z_{k+1}'s orientations.
    q1: Vec<V4>,
}

fn refuse(why: &str) -> Error {
    Error::InvalidArgument("sim", format!("the analytic linearization of the second-order integrator does not derive {why}; use the linearization by differences"))
}

impl SecondOrderStep {
    pub fn at(sim: &Sim) -> Result<SecondOrderStep> {
        let model = sim.model();
        if model.inequality_count() > 0 || !model.collision.shapes.is_empty() {
            return Err(refuse("contacts, joint limits or collision shapes"));
        }
        // the state as it reads, set back: its velocities are those at the node
        let mut started = sim.clone();
        for b in 0..model.body_count() {
            started.set_body_state(b, &sim.body_state(b)?)?;
        }
        let q0 = (0..model.body_count()).map(|b| started.body_state(b).map(|s| V4::new(s[3], s[4], s[5], s[6]))).collect::<Result<Vec<V4>>>()?;
        started.consistent_start_only()?;
        let mut next = started.clone();
        let stats = next.step()?;
        if stats.substeps > 1 {
            return Err(Error::InvalidArgument("state", format!("the step from this state was split in {} substeps; its derivative is not one step's", stats.substeps)));
        }
        let plain = if sim.data_and_options().0.velocities_at_node {
            None
        } else {
            let mut next = sim.clone();
            let stats = next.step()?;
            if stats.substeps > 1 {
                return Err(Error::InvalidArgument("state", format!("the step from this state was split in {} substeps; its derivative is not one step's", stats.substeps)));
            }
            Some(StepSensitivity::solved(next, false)?)
        };
        let dt = sim.dt();
        // the start's solution, the velocities of [t_k, t_k + dt], and z_{k+1}
        let w: Vec<V3> = (0..model.body_count()).map(|b| started.body_state(b).map(|s| V3::new(s[10], s[11], s[12]))).collect::<Result<Vec<V3>>>()?;
        let turn = w.iter().map(|w| rotation(&step_rotation(w, dt)).transpose()).collect();
        let map = w.iter().map(|w| rotation_map(w, dt)).collect();
        let q1 = (0..model.body_count()).map(|b| next.body_state(b).map(|s| V4::new(s[3], s[4], s[5], s[6]))).collect::<Result<Vec<V4>>>()?;
        Ok(SecondOrderStep { start: StepSensitivity::solved(started, true)?, step: StepSensitivity::solved(next, false)?, plain, q0, turn, map, q1 })
    }

    /// The read state's change (13 per body: δx, δq, δv, δω) into `out` for a change of
    /// the state set (per body (δx, δφ) of z_k and (δv, δω) of ν_k; None: zero) and of
    /// input `input` (a unit change).
    fn response(&self, dz: &[Option<[f64; 6]>], dnu: &[Option<[f64; 6]>], input: Option<(Coords, usize)>, out: &mut [f64]) {
        let nb = self.q0.len();
        let n = self.start.system_size();
        let at = &self.start.next.model().addresses;
        let (mut rhs, mut r, mut ds0, mut ds1) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        // the start: the prediction is z_k itself, the known velocities ν_k
        self.start.right_hand_side(dz, dnu, input, &mut rhs);
        self.start.solve(&rhs, &mut r, &mut ds0);
        let mut dz1 = vec![None; nb];
        let mut dzd0 = vec![None; nb];
        for b in 0..nb {
            let o = at.body(b);
            let d = dz[b].unwrap_or([0.0; 6]);
            let (dv, dw) = (V3::new(ds0[o], ds0[o + 1], ds0[o + 2]), V3::new(ds0[o + 3], ds0[o + 4], ds0[o + 5]));
            let dx1 = V3::new(d[0], d[1], d[2]) + self.step.dt * dv;
            let dphi1 = self.turn[b] * V3::new(d[3], d[4], d[5]) + self.map[b] * dw;
            dz1[b] = Some([dx1.x, dx1.y, dx1.z, dphi1.x, dphi1.y, dphi1.z]);
            dzd0[b] = Some([dv.x, dv.y, dv.z, dw.x, dw.y, dw.z]);
        }
        // the input's column is written, not added (`input_column`): its own right-hand side
        self.step.right_hand_side(&dz1, &dzd0, None, &mut rhs);
        if input.is_some() {
            let none = vec![None; nb];
            self.step.right_hand_side(&none, &none, input, &mut r);
            rhs.iter_mut().zip(&r).for_each(|(a, b)| *a += b);
        }
        self.step.solve(&rhs, &mut r, &mut ds1);
        for b in 0..nb {
            let (o, z) = (at.body(b), dz1[b].expect("every body"));
            let row = &mut out[13 * b..13 * b + 13];
            row[..3].copy_from_slice(&z[..3]);
            // δq = ½ q ⊗ (0, δφ)
            let dq = 0.5 * qmul(&self.q1[b], &V4::new(0.0, z[3], z[4], z[5]));
            row[3..7].copy_from_slice(dq.as_slice());
            for k in 0..6 {
                row[7 + k] = 0.5 * (ds0[o + k] + ds1[o + k]);
            }
        }
    }

    /// A (13 nb × 13 nb) and B (13 nb × 6 nb), row-major, as `Sim::linearize` gives them in
    /// maximal coordinates.
    pub fn matrices(&self, a: Option<&mut [f64]>, b: Option<&mut [f64]>) {
        let nb = self.q0.len();
        let (nx, nu) = (13 * nb, 6 * nb);
        let mut col = vec![0.0; nx];
        if let Some(a) = a {
            for c in 0..nx {
                let (body, k) = (c / 13, c % 13);
                let (mut dz, mut dnu) = (vec![None; nb], vec![None; nb]);
                let mut e = [0.0; 6];
                match k {
                    0..=2 => e[k] = 1.0,
                    3..=6 => {
                        // a quaternion entry moves the orientation by δφ = 2 Vec(q* ⊗ δq)
                        let mut dq = V4::zeros();
                        dq[k - 3] = 1.0;
                        let dphi = 2.0 * vec_part(&qmul(&conj(&self.q0[body]), &dq));
                        e[3..].copy_from_slice(dphi.as_slice());
                    }
                    _ => {}
                }
                dz[body] = Some(e);
                let mut v = [0.0; 6];
                if k >= 7 {
                    v[k - 7] = 1.0;
                }
                dnu[body] = Some(v);
                self.response(&dz, &dnu, None, &mut col);
                for r in 0..nx {
                    a[r * nx + c] = col[r];
                }
            }
        }
        if let Some(b) = b {
            let none = vec![None; nb];
            for c in 0..nu {
                match &self.plain {
                    Some(plain) => plain_input_response(plain, c, &mut col),
                    None => self.response(&none, &none, Some((Coords::Maximal, c)), &mut col),
                }
                for r in 0..nx {
                    b[r * nu + c] = col[r];
                }
            }
        }
    }
}

/// The read state's change for a unit change of input `c` over the step `plain` of a sim
/// stepped before: the prediction z_{k+1} and the known interval's velocities stay, the
/// velocities read are the mean of the known and the new interval's.
fn plain_input_response(plain: &StepSensitivity, c: usize, out: &mut [f64]) {
    let n = plain.system_size();
    let at = &plain.next.model().addresses;
    let none = vec![None; out.len() / 13];
    let (mut rhs, mut r, mut ds) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    plain.right_hand_side(&none, &none, Some((Coords::Maximal, c)), &mut rhs);
    plain.solve(&rhs, &mut r, &mut ds);
    out.fill(0.0);
    for (b, row) in out.chunks_exact_mut(13).enumerate() {
        let o = at.body(b);
        for k in 0..6 {
            row[7 + k] = 0.5 * ds[o + k];
        }
    }
}
