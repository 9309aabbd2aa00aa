//! The linearization x_{k+1} = f(x_k, u_k) of one step from the sim's current state and
//! inputs: A = ∂f/∂x and B = ∂f/∂u (issue 13 part 3), in minimal or maximal coordinates
//! (`Model::linearization_size`), from the step's sensitivity (`step_sensitivity`) and
//! the maps between the state and the step's tangent quantities:
//!
//! * maximal, x = (x, q, v, ω) per body: the prediction z_{k+1} = (x + v h₀, q ⊗ ω̄(ω, h₀))
//!   moves by δx_{k+1} = δx + h₀ δv, δφ_{k+1} = Q(ω̄)ᵀ δφ + M(ω) δω (`rotation_map`), a
//!   quaternion entry by δφ = 2 Vec(q* ⊗ δq) (the state normalizes q); the new state is
//!   (z_{k+1}, ż_{k+1}) with δq_{k+1} = ½ q_{k+1} ⊗ (0, δφ_{k+1}).
//! * minimal, x = (θ, θ̇) per joint, the velocities discrete, θ̇ = (θ(z_{k+1}) − θ(z_k))/h:
//!   the state is the pair of configurations z_k = FK(θ), z_{k+1} = FK(θ + h θ̇) (as
//!   `Sim::set_joint_position` places them), so a coordinate moves both by the forward
//!   kinematics' Jacobian and ż_k follows from (δz_k, δz_{k+1}); after the step
//!   θ' = θ(z_{k+1}), θ̇' = (θ(z_{k+2}) − θ(z_{k+1}))/dt with z_{k+2} = z_{k+1} ⊕ ż_{k+1} dt.
//!   Every joint must be in the spanning tree; a free rotation's coordinates are its
//!   rotation vector r (moving the relative rotation by exp(J_r(r) δr)), the universal
//!   joint's its two angles.

use super::differences::check_minimal_state;
use super::second_order::SecondOrderStep;
use super::step_sensitivity::StepSensitivity;
use crate::integrator::next_poses::rotation_map;
use crate::integrator::prediction::advance;
use crate::joints::constraint::Pose;
use crate::forces::configuration_derivative::rows;
use crate::forces::rotation_log::inverse_right_jacobian;
use crate::joints::coordinate::CoordinateGradient;
use crate::joints::tangent::Placement;
use crate::joints::{Joint, RotationChart};
use crate::joints::minimal::Twist;
use crate::kinematics::Coords;
use crate::math::{conj, from_rotation_vector, qmul, rotation, step_rotation, vec_part, M3, V3, V4};
use crate::model::floating_base::{FloatingBase, MinimalEntry};
use crate::model::{Error, Model, Result};
use crate::sim::{Integrator, Sim};

impl Model {
    /// (nx, nu) of a linearization in `coords`: minimal, the floating bases' tangents and
    /// every joint's positions, then the generalized velocity (2 nv), and every joint's
    /// inputs; maximal, the
    /// 13 doubles of `Sim::body_state` per body and 6 wrench entries per body.
    pub fn linearization_size(&self, coords: Coords) -> (usize, usize) {
        match coords {
            Coords::Minimal => (2 * self.minimal_velocity_count(), self.joint_velocity_count()),
            Coords::Maximal => (13 * self.body_count(), 6 * self.body_count()),
        }
    }
}

impl Sim {
    /// A (nx × nx) and B (nx × nu), row-major, of one step from the current state and
    /// inputs; the sim is not advanced. Refused (INVALID_ARGUMENT): models with contacts
    /// other than `contact_sensitivity` derives, a step that had to be split, and in minimal coordinates kinematic loops and joints with several free
    /// rotations.
    pub fn linearize(&self, coords: Coords, a: &mut [f64], b: &mut [f64]) -> Result<()> {
        let (nx, nu) = self.model().linearization_size(coords);
        crate::error::check_len("A", a.len(), nx * nx)?;
        crate::error::check_len("B", b.len(), nx * nu)?;
        if let Some(step) = second_order(self, coords)? {
            step.matrices(Some(a), Some(b));
            return Ok(());
        }
        let lin = Linearization::new(self, coords)?;
        lin.state_matrix(a);
        lin.input_matrix(b);
        Ok(())
    }

    /// B = ∂x_{k+1}/∂u of one step (nx × nu row-major), as [`Sim::linearize`] gives it.
    pub fn input_derivative(&self, coords: Coords, out: &mut [f64]) -> Result<()> {
        let (nx, nu) = self.model().linearization_size(coords);
        crate::error::check_len("out", out.len(), nx * nu)?;
        if let Some(step) = second_order(self, coords)? {
            step.matrices(None, Some(out));
            return Ok(());
        }
        Linearization::new(self, coords)?.input_matrix(out);
        Ok(())
    }
}

/// The higher-order integrators' step map (maximal coordinates only), None for the
/// first-order integrator.
fn second_order(sim: &Sim, coords: Coords) -> Result<Option<SecondOrderStep>> {
    match sim.options().integrator {
        Integrator::FirstOrder => Ok(None),
        _ if coords == Coords::Maximal => SecondOrderStep::at(sim).map(Some),
        _ => Err(Error::InvalidArgument("sim", "with options.integrator second order (or fourth) the analytic linearization is derived in maximal coordinates only (joint rates are read across two intervals); use maximal coordinates, or the linearization by differences".into())),
    }
}

/// A perturbation of the step's known quantities: per body the prediction's tangent
/// δz_{k+1} and the known velocities' δż_k (None: zero).
struct Perturbation {
    dz1: Vec<Option<[f64; 6]>>,
    dzd0: Vec<Option<[f64; 6]>>,
}

/// Columns solved together (`Linearization::columns`): the factors' blocks applied to
/// this many at once.
const CHUNK: usize = 32;

struct Linearization<'a> {
    sim: &'a Sim,
    coords: Coords,
    step: StepSensitivity,
    /// Minimal coordinates: each coordinate's gradient at z_{k+1} and at z_{k+2} (joint
    /// order), each body's (Q(ω̄(ω_{k+1}, dt))ᵀ, M(ω_{k+1}, dt)) of z_{k+2}, and which
    /// bodies each joint's subtree holds.
    gradients: Vec<(CoordinateGradient, CoordinateGradient)>,
    maps1: Vec<(M3, M3)>,
    subtree: Vec<Vec<bool>>,
    /// Minimal coordinates with floating bases: which bodies ride on each base, and each
    /// base body's velocities (v, ω) after the step.
    base_tree: Vec<Vec<bool>>,
    base_v1: Vec<(V3, V3)>,
    /// z_k and the prediction z_{k+1} (the state after the step) per body.
    z0: Vec<Pose>,
    z1: Vec<Pose>,
    /// Per body: Q(ω̄(ω_k, h₀))ᵀ and M(ω_k, h₀) of the prediction, and M(ω_k, h₀)⁻¹.
    turn0: Vec<M3>,
    map0: Vec<M3>,
    map0_inv: Vec<M3>,
}

impl<'a> Linearization<'a> {
    fn new(sim: &'a Sim, coords: Coords) -> Result<Linearization<'a>> {
        let model = sim.model();
        if coords == Coords::Minimal {
            check_minimal_state(sim)?;
        }
        let step = StepSensitivity::at(sim)?;
        let nb = model.body_count();
        let z0: Vec<Pose> = (0..nb).map(|b| pose(&sim.body_state(b).expect("a body"))).collect();
        let after: Vec<[f64; 13]> = (0..nb).map(|b| step.next.body_state(b).expect("a body")).collect();
        let z1: Vec<Pose> = after.iter().map(pose).collect();
        let v1: Vec<(V3, V3)> = after.iter().map(|s| (V3::new(s[7], s[8], s[9]), V3::new(s[10], s[11], s[12]))).collect();
        let w0: Vec<V3> = (0..nb).map(|b| sim.body_state(b).map(|s| V3::new(s[10], s[11], s[12])).expect("a body")).collect();
        let h0 = step.h0;
        let turn0 = w0.iter().map(|w| rotation(&step_rotation(w, h0)).transpose()).collect();
        let map0: Vec<M3> = w0.iter().map(|w| rotation_map(w, h0)).collect();
        let map0_inv = map0.iter().map(|m| m.try_inverse().ok_or_else(|| Error::InvalidArgument("state", "a body's rotation over the step is singular (|ω| at 2/dt)".into()))).collect::<Result<Vec<M3>>>()?;
        let dt = step.dt;
        let maps1: Vec<(M3, M3)> = v1.iter().map(|(_, w)| (rotation(&step_rotation(w, dt)).transpose(), rotation_map(w, dt))).collect();
        let (mut gradients, mut subtree, mut base_tree, mut base_v1) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        if coords == Coords::Minimal {
            let z2: Vec<Pose> = z1.iter().zip(&v1).map(|(z, (v, w))| advance(&z.x, &z.q, v, w, dt)).collect();
            for j in &model.joints {
                for i in 0..j.dof() {
                    let pick = |z: &[Pose]| j.parent.map_or(Pose::WORLD, |p| z[p]);
                    gradients.push((minimal_gradient(j, &pick(&z1), &z1[j.child], i), minimal_gradient(j, &pick(&z2), &z2[j.child], i)));
                }
            }
            subtree = (0..model.joint_count()).map(|ji| (0..nb).map(|m| in_subtree(model, m, ji)).collect()).collect();
            base_tree = (0..model.floating_bases.len()).map(|k| (0..nb).map(|m| model.base_of(m) == Some(k)).collect()).collect();
            base_v1 = model.floating_bases.iter().map(|f| v1[f.body]).collect();
        }
        Ok(Linearization { sim, coords, step, gradients, maps1, subtree, base_tree, base_v1, z0, z1, turn0, map0, map0_inv })
    }

    fn model(&self) -> &Model {
        self.sim.model()
    }

    /// A into `a` (nx × nx): one column per state entry.
    fn state_matrix(&self, a: &mut [f64]) {
        let (nx, _) = self.model().linearization_size(self.coords);
        self.columns(nx, |c, p| {
            match self.coords {
                Coords::Maximal => self.maximal_column(c, p),
                Coords::Minimal => self.minimal_column(c, p),
            }
            None
        }, |c, col| {
            for (r, v) in col.iter().enumerate() {
                a[r * nx + c] = *v;
            }
        });
    }

    /// B into `b` (nx × nu): one column per input.
    fn input_matrix(&self, b: &mut [f64]) {
        let (_, nu) = self.model().linearization_size(self.coords);
        let coords = self.coords;
        self.columns(nu, |c, _| Some((coords, c)), |c, col| {
            for (r, v) in col.iter().enumerate() {
                b[r * nu + c] = *v;
            }
        });
    }

    /// The state's response to `count` perturbations, solved `CHUNK` at a time with the
    /// factors applied to all of them at once: `perturb(c, p)` sets column c's
    /// perturbation (and returns its input, for an input column), `write(c, x)` takes its
    /// response (nx).
    fn columns(&self, count: usize, perturb: impl Fn(usize, &mut Perturbation) -> Option<(Coords, usize)>, mut write: impl FnMut(usize, &[f64])) {
        let (nx, _) = self.model().linearization_size(self.coords);
        let (n, nb) = (self.step.system_size(), self.model().body_count());
        let at = &self.model().addresses;
        let mut p = Perturbation { dz1: vec![None; nb], dzd0: vec![None; nb] };
        let mut kept: Vec<Vec<Option<[f64; 6]>>> = vec![vec![None; nb]; CHUNK];
        let (mut batch, mut rhs) = (vec![0.0; n * CHUNK], vec![0.0; n]);
        let mut delta = vec![([0.0; 6], [0.0; 6]); nb];
        let mut out = vec![0.0; nx];
        for start in (0..count).step_by(CHUNK) {
            let m = CHUNK.min(count - start);
            for k in 0..m {
                p.dz1.iter_mut().chain(p.dzd0.iter_mut()).for_each(|d| *d = None);
                let input = perturb(start + k, &mut p);
                self.step.right_hand_side(&p.dz1, &p.dzd0, input, &mut rhs);
                for (i, v) in rhs.iter().enumerate() {
                    batch[i * m + k] = *v;
                }
                kept[k].copy_from_slice(&p.dz1);
            }
            self.step.solve_many(&mut batch[..n * m], m);
            for k in 0..m {
                // each body's δz_{k+1} and δż_{k+1} (6 + 6)
                for (b, d) in delta.iter_mut().enumerate() {
                    let o = at.body(b);
                    let mut dv = [0.0; 6];
                    for (r, v) in dv.iter_mut().enumerate() {
                        *v = batch[(o + r) * m + k];
                    }
                    *d = (kept[k][b].unwrap_or([0.0; 6]), dv);
                }
                self.state_rows(&delta, &mut out);
                write(start + k, &out);
            }
        }
    }

    /// The state after the step's change (`out`, nx) from each body's (δz_{k+1}, δż_{k+1}).
    fn state_rows(&self, delta: &[([f64; 6], [f64; 6])], out: &mut [f64]) {
        match self.coords {
            Coords::Maximal => {
                for (b, (dz, dv)) in delta.iter().enumerate() {
                    let row = &mut out[13 * b..13 * b + 13];
                    row[..3].copy_from_slice(&dz[..3]);
                    // δq = ½ q ⊗ (0, δφ)
                    let dq = 0.5 * qmul(&self.z1[b].q, &V4::new(0.0, dz[3], dz[4], dz[5]));
                    row[3..7].copy_from_slice(dq.as_slice());
                    row[7..13].copy_from_slice(dv);
                }
            }
            Coords::Minimal => self.minimal_rows(delta, out),
        }
    }

    /// The perturbation of maximal state entry `c` (13 per body).
    fn maximal_column(&self, c: usize, p: &mut Perturbation) {
        let (b, k) = (c / 13, c % 13);
        let (mut dx, mut dphi, mut dv, mut dw) = (V3::zeros(), V3::zeros(), V3::zeros(), V3::zeros());
        match k {
            0..=2 => dx[k] = 1.0,
            3..=6 => {
                let mut e = V4::zeros();
                e[k - 3] = 1.0;
                dphi = 2.0 * vec_part(&qmul(&conj(&self.z0[b].q), &e));
            }
            7..=9 => dv[k - 7] = 1.0,
            _ => dw[k - 10] = 1.0,
        }
        let dx1 = dx + self.step.h0 * dv;
        let dphi1 = self.turn0[b] * dphi + self.map0[b] * dw;
        p.dz1[b] = Some(six(&dx1, &dphi1));
        p.dzd0[b] = Some(six(&dv, &dw));
    }

    /// The perturbation of minimal state entry `c`: a coordinate moves z_k and z_{k+1}
    /// along the forward kinematics, a rate moves z_{k+1} by h₀ times that; ż_k follows.
    fn minimal_column(&self, c: usize, p: &mut Perturbation) {
        let model = self.model();
        let half = model.minimal_velocity_count();
        let position = c < half;
        let (ji, i) = match model.minimal_entry(c % half) {
            MinimalEntry::Base { base, index } => return self.base_column(base, index, position, p),
            MinimalEntry::Joint { joint, index } => (joint, index),
        };
        let h0 = self.step.h0;
        let t0 = self.unit_motion(&self.z0, ji, i);
        let t1 = self.unit_motion(&self.z1, ji, i);
        for (m, inside) in self.subtree[ji].iter().enumerate() {
            if !*inside {
                continue;
            }
            let a = if position { rigid_motion(&t0, &self.z0[m]) } else { [0.0; 6] };
            let scale = if position { 1.0 } else { h0 };
            let z = rigid_motion(&t1, &self.z1[m]).map(|x| x * scale);
            let v = (V3::new(z[0], z[1], z[2]) - V3::new(a[0], a[1], a[2])) / h0;
            let w = self.map0_inv[m] * (V3::new(z[3], z[4], z[5]) - self.turn0[m] * V3::new(a[3], a[4], a[5]));
            p.dz1[m] = Some(z);
            p.dzd0[m] = Some(six(&v, &w));
        }
    }

    /// The perturbation of floating base `k`'s tangent entry `i` (`position`) or velocity
    /// entry `i`: its whole tree moves rigidly. A tangent entry moves z_k and z_{k+1} alike
    /// (translation along, or rotation about the origin of, the base frame at z_k; the
    /// twist in the base frame and every joint are kept); a velocity entry changes the
    /// base body's (v, ω) and so only z_{k+1}, by (h₀ δv, M(ω, h₀) δω).
    fn base_column(&self, k: usize, i: usize, position: bool, p: &mut Perturbation) {
        let base = &self.model().floating_bases[k];
        let b = base.body;
        let frame = base.frame_pose(&self.z0[b]);
        let h0 = self.step.h0;
        let mut e = [V3::zeros(); 2];
        e[i / 3][i % 3] = 1.0;
        let rf = rotation(&frame.q);
        let (t0, t1) = if position {
            let t = (rf * e[0], rf * e[1], frame.x);
            (t, t)
        } else {
            let (dv, dw) = base.body_velocity(&self.z0[b], &e[0], &e[1]);
            let (dx1, dphi1) = (h0 * dv, self.map0[b] * dw);
            ((V3::zeros(), V3::zeros(), frame.x), (dx1, rotation(&self.z1[b].q) * dphi1, self.z1[b].x))
        };
        for (m, inside) in self.base_tree[k].iter().enumerate() {
            if !*inside {
                continue;
            }
            let a = rigid_motion(&t0, &self.z0[m]);
            let z = rigid_motion(&t1, &self.z1[m]);
            let v = (V3::new(z[0], z[1], z[2]) - V3::new(a[0], a[1], a[2])) / h0;
            let w = self.map0_inv[m] * (V3::new(z[3], z[4], z[5]) - self.turn0[m] * V3::new(a[3], a[4], a[5]));
            p.dz1[m] = Some(z);
            p.dzd0[m] = Some(six(&v, &w));
        }
    }

    /// The rigid motion of joint `ji`'s subtree per unit of its coordinate `i` at
    /// configuration `z`: the child's origin velocity and world angular velocity under a
    /// unit rate, the parent at rest (`Joint::child_twist`), with the child's origin.
    fn unit_motion(&self, z: &[Pose], ji: usize, i: usize) -> (V3, V3, V3) {
        let j = &self.model().joints[ji];
        let a = j.parent.map_or(Pose::WORLD, |p| z[p]);
        let c = z[j.child];
        let mut e = [0.0; 6];
        let nt = j.ct.len;
        if j.is_single_axis(i) || j.rotation_chart() == RotationChart::Angles {
            e[i] = 1.0;
        } else {
            // a rotation-vector coordinate r_k turns the relative rotation exp(r) by
            // exp(J_r(r) e_k): the rate of that turn in the parent frame, Q(exp(r)) J_r(r) e_k
            let mut pos = [0.0; 6];
            j.minimal_position(&a, &c, &mut pos[..j.dof()]);
            let r = V3::new(pos[nt], pos[nt + 1], pos[nt + 2]);
            // J_r⁻¹ is invertible for |r| < 2π, and rotation vectors are at most π
            let jr = inverse_right_jacobian(&r).try_inverse().unwrap_or_else(M3::zeros);
            let w = rotation(&from_rotation_vector(&r)) * jr.column(i - nt);
            e[nt..nt + 3].copy_from_slice(w.as_slice());
        }
        let t = j.child_twist(&a, &Twist::ZERO, &c, &e[..j.dof()]);
        (t.v, rotation(&c.q) * t.w, c.x)
    }

    /// Minimal rows from each body's (δz_{k+1}, δż_{k+1}).
    fn minimal_rows(&self, delta: &[([f64; 6], [f64; 6])], out: &mut [f64]) {
        let model = self.model();
        let dt = self.step.dt;
        let half = model.minimal_velocity_count();
        // δz_{k+2} = (δx + dt δv, Q(ω̄)ᵀ δφ + M(ω) δω)
        let dz2 = |b: usize| {
            let ((dz, dv), (turn, map)) = (&delta[b], &self.maps1[b]);
            let dx = V3::new(dz[0], dz[1], dz[2]) + dt * V3::new(dv[0], dv[1], dv[2]);
            let dphi = turn * V3::new(dz[3], dz[4], dz[5]) + map * V3::new(dv[3], dv[4], dv[5]);
            six(&dx, &dphi)
        };
        for (k, base) in model.floating_bases.iter().enumerate() {
            let (dz, dv) = &delta[base.body];
            let (tangent, twist) = base_rows(base, &self.z1[base.body], &self.base_v1[k], dz, dv);
            out[6 * k..6 * k + 6].copy_from_slice(&tangent);
            out[half + 6 * k..half + 6 * k + 6].copy_from_slice(&twist);
        }
        let mut row = model.base_velocity_count();
        for j in &model.joints {
            for _ in 0..j.dof() {
                let (g1, g2) = &self.gradients[row - model.base_velocity_count()];
                let d1 = coordinate_change(j, g1, |b| delta[b].0);
                let d2 = coordinate_change(j, g2, dz2);
                out[row] = d1;
                out[half + row] = (d2 - d1) / dt;
                row += 1;
            }
        }
    }
}

/// A floating base's rows from its body's change (δz = (δx, δφ body frame) of z_{k+1},
/// δż = (δv, δω) of its velocities (v, ω) after the step) at z_{k+1} = `body`: the tangent
/// (R_fᵀ δo, R_oᵀ δφ) with δo = δx + R (δφ × r) the frame origin's move, and the change of
/// the twist ν = R_fᵀ y, y = v + R (ω × r), ω_f = R_oᵀ ω (`FloatingBase::twist`):
/// δν = R_fᵀ δy + R_oᵀ ((Rᵀ y) × δφ), δy = δv + R (δφ × (ω × r) + δω × r).
fn base_rows(base: &FloatingBase, body: &Pose, vel: &(V3, V3), dz: &[f64; 6], dv: &[f64; 6]) -> ([f64; 6], [f64; 6]) {
    let (r, ro) = (rotation(&body.q), rotation(&base.frame.q));
    let rf = r * ro;
    let arm = base.frame.x;
    let (dx, dphi) = (V3::new(dz[0], dz[1], dz[2]), V3::new(dz[3], dz[4], dz[5]));
    let (dvl, dw) = (V3::new(dv[0], dv[1], dv[2]), V3::new(dv[3], dv[4], dv[5]));
    let (v, w) = vel;
    let y = v + r * w.cross(&arm);
    let dy = dvl + r * (dphi.cross(&w.cross(&arm)) + dw.cross(&arm));
    let dnu = rf.transpose() * dy + ro.transpose() * (r.transpose() * y).cross(&dphi);
    (six(&(rf.transpose() * (dx + r * dphi.cross(&arm))), &(ro.transpose() * dphi)), six(&dnu, &(ro.transpose() * dw)))
}

/// The change of joint `j`'s coordinate with gradient `g` for body tangents `dz(body)`.
fn coordinate_change(j: &Joint, g: &CoordinateGradient, dz: impl Fn(usize) -> [f64; 6]) -> f64 {
    let dot = |gx: &V3, gphi: &V3, d: &[f64; 6]| gx.dot(&V3::new(d[0], d[1], d[2])) + gphi.dot(&V3::new(d[3], d[4], d[5]));
    let mut v = dot(&g.child_x, &g.child_phi, &dz(j.child));
    if let Some(p) = j.parent {
        v += dot(&g.parent_x, &g.parent_phi, &dz(p));
    }
    v
}

/// A body's tangent (δx, δφ) under the rigid motion (v, ω, origin) of `unit_motion`.
fn rigid_motion(t: &(V3, V3, V3), z: &Pose) -> [f64; 6] {
    let (v, w, origin) = t;
    six(&(v + w.cross(&(z.x - origin))), &(rotation(&z.q).transpose() * w))
}

/// The gradient of joint `j`'s minimal coordinate `i` (as `Sim::joint_position` reads it)
/// at poses (a, b): a single-axis coordinate's from `coordinate`, a rotation vector's and
/// the universal joint's angles' from the force elements' rows (`rows::coordinate_gradient`).
fn minimal_gradient(j: &Joint, a: &Pose, b: &Pose, i: usize) -> CoordinateGradient {
    if j.is_single_axis(i) {
        return j.coordinate_and_gradient(a, b, i, true).1;
    }
    let (pa, pb) = (Placement::of(a), Placement::of(b));
    let g = rows::coordinate_gradient(j, &pa, &pb, i, &rows::gradient(j, &pa, &pb, i));
    let v = |k: usize, o: usize| V3::new(g[k][o], g[k][o + 1], g[k][o + 2]);
    CoordinateGradient { parent_x: v(0, 0), parent_phi: v(0, 3), child_x: v(1, 0), child_phi: v(1, 3) }
}

/// Whether body `m` lies in the subtree of tree joint `ji` (its child or a descendant).
fn in_subtree(model: &Model, mut m: usize, ji: usize) -> bool {
    while let Some(j) = model.tree_parent[m] {
        if j == ji {
            return true;
        }
        match model.joints[j].parent {
            Some(p) => m = p,
            None => return false,
        }
    }
    false
}

fn pose(s: &[f64; 13]) -> Pose {
    Pose { x: V3::new(s[0], s[1], s[2]), q: V4::new(s[3], s[4], s[5], s[6]) }
}

fn six(a: &V3, b: &V3) -> [f64; 6] {
    [a.x, a.y, a.z, b.x, b.y, b.z]
}
