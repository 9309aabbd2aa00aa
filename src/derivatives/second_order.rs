//! The linearization of the higher-order integrators' step (docs/INTEGRATOR.md) in maximal
//! coordinates: the map from a state as the setters take it (z_k, node velocities ν_k) and
//! the inputs to the state read after one step (z', ν'). A chain of solves makes it:
//! ```text
//!   start:   f₀(ż⁰; z_k, ν_k, u) = 0        (the consistent start onto the interval H₀:
//!                                           prediction z_k, h₀ = H₀/2, known term the
//!                                           node momentum (2/h₀) J ω_k)
//!   part i:  fᵢ(żⁱ; zⁱ, żⁱ⁻¹, u) = 0,   zⁱ = zⁱ⁻¹ ⊕ Hᵢ₋₁ żⁱ⁻¹   (i = 1…n, z⁰ = z_k)
//!   read:    z' = zⁿ,  ν' = (żⁿ⁻¹ + żⁿ)/2
//! ```
//! with one part of dt for the second order and five after a start onto the first for
//! the fourth (`options::fourth_order_solves`). By the implicit function theorem on
//! each, δżⁱ = −Kᵢ⁻¹(∂fᵢ/∂zⁱ δzⁱ + ∂fᵢ/∂żⁱ⁻¹ δżⁱ⁻¹ + ∂fᵢ/∂u δu), δzⁱ = (δx + Hᵢ₋₁ δv,
//! Q(ω̄(ωⁱ⁻¹, Hᵢ₋₁))ᵀ δφ + M(ωⁱ⁻¹, Hᵢ₋₁) δω), each Kᵢ the solve's own Newton matrix
//! (`StepSensitivity`; the start's with the node momentum). The dampers' rate weighs the
//! known velocities with the unknown ones: their terms through żⁱ⁻¹ are
//! `StepSensitivity`'s.
//!
//! The linearization point is the sim's state as it reads, set back through the setters
//! (velocities at the node), which is what the difference reference perturbs; for a sim
//! stepped before, B is of its own next step (its parts without a start: the inputs change
//! that step alone), as the reference's input columns are.
//!
//! Contacts and limits (second order; the fourth order refuses them in the step itself):
//! each solve's K and blocks are `StepSensitivity`'s at the interior point's solution,
//! the start's included (its prediction is z_k, so its contact rows move with δz_k as a
//! step's move with δz_{k+1}); each solve's contact layout is its own, so the chain
//! carries only the bodies' changes from one solve to the next. Refused: the contacts
//! `contact_sensitivity` refuses, and a step that had to be split.

use super::step_sensitivity::StepSensitivity;
use crate::integrator::next_poses::rotation_map;
use crate::kinematics::Coords;
use crate::math::{conj, qmul, rotation, step_rotation, vec_part, M3, V3, V4};
use crate::model::Result;
use crate::sim::{Integrator, Sim};
use crate::step::options::fourth_order_solves;

/// One solve of the chain and the prediction map onto its configuration from the
/// previous solve's velocities: Q(ω̄(ω, H))ᵀ and M(ω, H) per body, and H.
struct Part {
    sens: StepSensitivity,
    turn: Vec<M3>,
    map: Vec<M3>,
    known_interval: f64,
}

impl Part {
    /// The solve just taken in `sim` (its frame holds the known velocities and their
    /// interval) over `interval`.
    fn of(sim: Sim, node_momentum: bool, interval: f64) -> Result<Part> {
        let (d, _) = sim.data_and_options();
        let h = d.frame.dt;
        let turn = d.frame.w0.iter().map(|w| rotation(&step_rotation(w, h)).transpose()).collect();
        let map = d.frame.w0.iter().map(|w| rotation_map(w, h)).collect();
        Ok(Part { sens: StepSensitivity::solved(sim, node_momentum, interval)?, turn, map, known_interval: h })
    }
}

/// The solves of one step from a state set at the node.
pub(crate) struct SecondOrderStep {
    /// The start, then the parts.
    chain: Vec<Part>,
    /// A sim stepped before (its velocities read as the two intervals' mean): its own
    /// parts, without a start, which B follows.
    plain: Option<Vec<Part>>,
    /// Per body: z_k's orientation and that after the step.
    q0: Vec<V4>,
    q1: Vec<V4>,
}

/// The intervals of the parts of one step of `dt`, and the start's.
fn intervals(integrator: Integrator, dt: f64) -> (f64, Vec<f64>) {
    match integrator {
        Integrator::FourthOrder => {
            let (start, solves) = fourth_order_solves();
            (start * dt, solves.iter().map(|w| w * dt).collect())
        }
        _ => (dt, vec![dt]),
    }
}

/// The parts of one step taken from `sim` as it is, each solve's sensitivity.
fn parts(mut sim: Sim, intervals: &[f64]) -> Result<Vec<Part>> {
    let mut out = Vec::with_capacity(intervals.len());
    for &h in intervals {
        sim.part_only(h)?;
        out.push(Part::of(sim.clone(), false, h)?);
    }
    Ok(out)
}

impl SecondOrderStep {
    pub fn at(sim: &Sim) -> Result<SecondOrderStep> {
        let model = sim.model();
        let (start_interval, part_intervals) = intervals(sim.options().integrator, sim.dt());
        let plain = if sim.data_and_options().0.velocities_at_node {
            None
        } else {
            let mut own = sim.clone();
            own.collide_only()?;
            Some(parts(own, &part_intervals)?)
        };
        // the state as it reads, set back: its velocities are those at the node
        let mut started = sim.clone();
        for b in 0..model.body_count() {
            started.set_body_state(b, &sim.body_state(b)?)?;
        }
        let orientation = |s: &Sim, b: usize| s.body_state(b).map(|x| V4::new(x[3], x[4], x[5], x[6]));
        let q0 = (0..model.body_count()).map(|b| orientation(&started, b)).collect::<Result<Vec<V4>>>()?;
        started.collide_only()?;
        started.consistent_start_only(start_interval)?;
        let mut chain = vec![Part::of(started.clone(), true, start_interval)?];
        chain.extend(parts(started, &part_intervals)?);
        let last = &chain.last().expect("a part").sens.next;
        let q1 = (0..model.body_count()).map(|b| orientation(last, b)).collect::<Result<Vec<V4>>>()?;
        Ok(SecondOrderStep { chain, plain, q0, q1 })
    }

    /// The read state's change (13 per body: δx, δq, δv, δω) into `out` through the solves
    /// `chain`, the first with the prediction's change `dz` and the known velocities'
    /// `dv` (per body; None: zero), every one with input `input`'s (a unit change).
    fn response(&self, chain: &[Part], dz: &[Option<[f64; 6]>], dv: &[Option<[f64; 6]>], input: Option<(Coords, usize)>, out: &mut [f64]) {
        let nb = self.q0.len();
        let none = vec![None; nb];
        let (mut z, mut known) = (dz.to_vec(), dv.to_vec());
        // each solve's bodies' velocity changes (its system's size and addresses are its
        // own contact layout's): before the last solve, and the last
        let mut previous = vec![[0.0; 6]; nb];
        let mut last = vec![[0.0; 6]; nb];
        for (i, part) in chain.iter().enumerate() {
            if i > 0 {
                // the prediction moves with the last solve's velocities, which are known now
                for b in 0..nb {
                    let d = z[b].unwrap_or([0.0; 6]);
                    let (v, w) = (V3::new(last[b][0], last[b][1], last[b][2]), V3::new(last[b][3], last[b][4], last[b][5]));
                    let x = V3::new(d[0], d[1], d[2]) + part.known_interval * v;
                    let phi = part.turn[b] * V3::new(d[3], d[4], d[5]) + part.map[b] * w;
                    z[b] = Some([x.x, x.y, x.z, phi.x, phi.y, phi.z]);
                    known[b] = Some(last[b]);
                }
            }
            let n = part.sens.system_size();
            let (mut rhs, mut r, mut ds) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            // the input's column is written, not added (`input_column`): its own right-hand side
            part.sens.right_hand_side(&z, &known, None, &mut rhs);
            if input.is_some() {
                part.sens.right_hand_side(&none, &none, input, &mut r);
                rhs.iter_mut().zip(&r).for_each(|(a, b)| *a += b);
            }
            part.sens.solve(&rhs, &mut r, &mut ds);
            let at = &part.sens.model().addresses;
            previous.copy_from_slice(&last);
            for (b, l) in last.iter_mut().enumerate() {
                l.copy_from_slice(&ds[at.body(b)..at.body(b) + 6]);
            }
        }
        if chain.len() == 1 {
            // a single part: the velocities before it are the known ones
            for (p, k) in previous.iter_mut().zip(&known) {
                *p = k.unwrap_or([0.0; 6]);
            }
        }
        for b in 0..nb {
            let d = z[b].unwrap_or([0.0; 6]);
            let row = &mut out[13 * b..13 * b + 13];
            row[..3].copy_from_slice(&d[..3]);
            // δq = ½ q ⊗ (0, δφ)
            let dq = 0.5 * qmul(&self.q1[b], &V4::new(0.0, d[3], d[4], d[5]));
            row[3..7].copy_from_slice(dq.as_slice());
            for k in 0..6 {
                row[7 + k] = 0.5 * (previous[b][k] + last[b][k]);
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
                self.response(&self.chain, &dz, &dnu, None, &mut col);
                for r in 0..nx {
                    a[r * nx + c] = col[r];
                }
            }
        }
        if let Some(b) = b {
            let none = vec![None; nb];
            let chain = self.plain.as_deref().unwrap_or(&self.chain);
            for c in 0..nu {
                self.response(chain, &none, &none, Some((Coords::Maximal, c)), &mut col);
                for r in 0..nx {
                    b[r * nu + c] = col[r];
                }
            }
        }
    }
}
