//! The linearization x_{k+1} = f(x_k, u_k) by central differences of whole steps, each
//! from the sim's exact state with one state or input entry moved by ±h: the reference the
//! analytic derivatives are tested against, and the fallback for models the analytic path
//! does not derive. Costs 2 (nx + nu) steps.
//!
//! The state is perturbed through the same setters a user calls, so the columns are
//! derivatives of exactly what those setters and getters define: in maximal coordinates
//! `set_body_state` (which normalizes the quaternion, so a quaternion column is the
//! derivative along the tangent of q/|q|), in minimal coordinates `set_joint_position` /
//! `set_joint_velocity` (the child's subtree follows, every other joint keeps its
//! coordinates and rates).

use crate::joints::constraint::Pose;
use crate::kinematics::Coords;
use crate::math::{conj, from_rotation_vector, qmul, rotation, rotation_vector, V3};
use crate::model::floating_base::MinimalEntry;
use crate::model::{Error, Result};
use crate::sim::Sim;

/// The largest difference step: a unit quaternion's entries lie in [−1, 1], and a column
/// of central differences errs by O(h²): beyond 1 it is no derivative.
pub const MAX_DIFFERENCE_STEP: f64 = 1.0;

/// The smallest difference step relative to the largest state or input entry: x ± h must
/// move x by h (below ~1e-12 |x| it moves by a few ulps of x, not by h).
pub const MIN_RELATIVE_DIFFERENCE_STEP: f64 = 1e-12;

impl Sim {
    /// A = ∂f/∂x (nx × nx) and B = ∂f/∂u (nx × nu), row-major, by central differences
    /// with step `h` on every entry (the sim is not advanced). Each step must converge;
    /// set a tight solver tolerance for accurate columns (the Newton tolerance over h
    /// bounds their accuracy). `h` must lie in [`Sim::difference_step_range`].
    pub fn linearize_by_differences(&self, coords: Coords, h: f64, a: &mut [f64], b: &mut [f64]) -> Result<()> {
        let (nx, nu) = self.model().linearization_size(coords);
        crate::error::check_len("A", a.len(), nx * nx)?;
        crate::error::check_len("B", b.len(), nx * nu)?;
        crate::error::check_finite("h", &[h])?;
        if coords == Coords::Minimal {
            check_minimal_state(self)?;
        }
        let (lo, hi) = self.difference_step_range(coords)?;
        if !(lo..=hi).contains(&h) {
            return Err(Error::InvalidArgument(
                "h",
                format!(
                    "{h:e} is outside [{lo:e}, {hi:e}]: at least the solver tolerance (the steps' own error; columns err by about tolerance / h) and {MIN_RELATIVE_DIFFERENCE_STEP:e} × the largest state or input entry (x ± h must move x by h), at most {MAX_DIFFERENCE_STEP}"
                ),
            ));
        }
        let (mut plus, mut minus) = (vec![0.0; nx], vec![0.0; nx]);
        // floating bases' tangents are taken at the unperturbed step's end
        let mut nominal = self.clone();
        nominal.step()?;
        let nominal = &nominal;
        let mut work = Work::new(self)?;
        for c in 0..nx {
            stepped_state(&mut work, nominal, coords, c, h, &mut plus)?;
            stepped_state(&mut work, nominal, coords, c, -h, &mut minus)?;
            for r in 0..nx {
                a[r * nx + c] = (plus[r] - minus[r]) / (2.0 * h);
            }
        }
        for c in 0..nu {
            stepped_input(&mut work, nominal, coords, c, h, &mut plus)?;
            stepped_input(&mut work, nominal, coords, c, -h, &mut minus)?;
            for r in 0..nx {
                b[r * nu + c] = (plus[r] - minus[r]) / (2.0 * h);
            }
        }
        Ok(())
    }

    /// The difference steps `linearize_by_differences` takes in `coords`: from the larger of
    /// the solver tolerance (each perturbed step is solved to it, so a column errs by about
    /// tolerance / h: below it no digit is right) and [`MIN_RELATIVE_DIFFERENCE_STEP`] × the
    /// largest magnitude of a state or input entry (x ± h rounds to x moved by h), to
    /// [`MAX_DIFFERENCE_STEP`]. Empty (lower above upper) for states beyond 1e12.
    pub fn difference_step_range(&self, coords: Coords) -> Result<(f64, f64)> {
        let (nx, nu) = self.model().linearization_size(coords);
        let mut x = vec![0.0; nx];
        self.linearization_state(coords, &mut x)?;
        let mut largest = x.iter().fold(0.0, |m: f64, v| m.max(v.abs()));
        if coords == Coords::Minimal {
            // a floating base's tangent is 0, its position is not
            let mut q = vec![0.0; self.model().configuration_size()];
            self.configuration(&mut q)?;
            largest = q.iter().fold(largest, |m: f64, v| m.max(v.abs()));
        }
        for c in 0..nu {
            largest = largest.max(input_entry(self, coords, c)?.abs());
        }
        Ok((self.options().tolerance.max(MIN_RELATIVE_DIFFERENCE_STEP * largest), MAX_DIFFERENCE_STEP))
    }

    /// The state x in `coords` (length nx of `Model::linearization_size`). In minimal
    /// coordinates a floating base's 6 tangent entries are 0: the tangent is taken at the
    /// current configuration (its position and orientation are in `Sim::configuration`).
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
                // a floating base's tangent at the current configuration is 0
                let mut o = self.model().base_velocity_count();
                pos[..o].fill(0.0);
                for (ji, j) in self.model().joints.iter().enumerate() {
                    let n = j.dof();
                    self.joint_position(ji, &mut pos[o..o + n])?;
                    o += n;
                }
                self.generalized_velocity(vel)?;
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

/// One copy of the sim that every differenced step runs on, put back to the sim's exact
/// state (`Sim::set_state`: the next step is bit-identical) and options before each: a
/// clone per step spent 22 % of a double pendulum's linearization in allocating, copying
/// and freeing the sim's buffers.
struct Work {
    sim: Sim,
    state: Vec<f64>,
    options: crate::SolverOptions,
}

impl Work {
    fn new(sim: &Sim) -> Result<Work> {
        let mut state = vec![0.0; sim.state_size()];
        sim.get_state(&mut state)?;
        Ok(Work { sim: sim.clone(), state, options: sim.options() })
    }

    /// The sim as it was, with `options`.
    fn reset(&mut self, options: crate::SolverOptions) -> Result<&mut Sim> {
        self.sim.set_options(options)?;
        self.sim.set_state(&self.state)?;
        Ok(&mut self.sim)
    }
}

/// The state after one step from the sim with state entry `c` moved by `h`.
fn stepped_state(work: &mut Work, nominal: &Sim, coords: Coords, c: usize, h: f64, out: &mut [f64]) -> Result<()> {
    // a maximal state moved by h is off the joints by h: the step map is defined there
    let s = work.reset(crate::SolverOptions { joint_tolerance: f64::INFINITY, ..work.options })?;
    move_state(s, coords, c, h).map_err(|e| refused_move("state", c, h, e))?;
    s.step()?;
    state_from(s, nominal, coords, out)
}

/// `s`'s state with each floating base's tangent taken from `nominal`'s base frame:
/// (R_fᵀ (o − o_nominal), log(q_f,nominal* ⊗ q_f)), so that central differences of it
/// are derivatives along the tangent the analytic linearization uses.
fn state_from(s: &Sim, nominal: &Sim, coords: Coords, out: &mut [f64]) -> Result<()> {
    s.linearization_state(coords, out)?;
    if coords == Coords::Minimal {
        for k in 0..s.model().floating_bases.len() {
            let (f, f0) = (s.base_frame_pose(k), nominal.base_frame_pose(k));
            let dp = rotation(&f0.q).transpose() * (f.x - f0.x);
            let dr = rotation_vector(&qmul(&conj(&f0.q), &f.q));
            out[6 * k..6 * k + 3].copy_from_slice(dp.as_slice());
            out[6 * k + 3..6 * k + 6].copy_from_slice(dr.as_slice());
        }
    }
    Ok(())
}

/// A perturbed entry the setters refuse (a rate the step cannot represent): the step `h`
/// is at fault, not the setter's argument.
fn refused_move(what: &str, c: usize, h: f64, e: Error) -> Error {
    // the setter's argument names are not this function's: its reason without them
    let reason = match e {
        Error::InvalidArgument(_, m) => m,
        Error::NonFinite(_) => "not finite".into(),
        Error::ZeroAxis(_) => "a zero-length quaternion".into(),
        e => e.to_string(),
    };
    Error::InvalidArgument("h", format!("{what} entry {c} moved by {h:e} is refused ({reason}): take a smaller h"))
}

/// Moves state entry `c` of `s` by `h` through the setters.
fn move_state(s: &mut Sim, coords: Coords, c: usize, h: f64) -> Result<()> {
    match coords {
        Coords::Maximal => {
            let (b, k) = (c / 13, c % 13);
            let mut x = s.body_state(b)?;
            x[k] += h;
            s.set_body_state(b, &x)?;
        }
        Coords::Minimal => {
            let half = s.model().minimal_velocity_count();
            let (ji, i) = match s.model().minimal_entry(c % half) {
                MinimalEntry::Joint { joint, index } => (joint, index),
                MinimalEntry::Base { base, index } if c < half => return move_base(s, base, index, h),
                MinimalEntry::Base { .. } => {
                    let mut v = vec![0.0; half];
                    s.generalized_velocity(&mut v)?;
                    v[c - half] += h;
                    return s.set_generalized_velocity(&v);
                }
            };
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
    Ok(())
}

/// Moves floating base `k` along its tangent entry `i` by `h` through
/// `Sim::set_configuration`: along the base frame's axis i (i < 3) or turned about its
/// axis i − 3 (the frame's own axes).
fn move_base(s: &mut Sim, k: usize, i: usize, h: f64) -> Result<()> {
    let mut q = vec![0.0; s.model().configuration_size()];
    s.configuration(&mut q)?;
    let f = s.base_frame_pose(k);
    let mut e = V3::zeros();
    e[i % 3] = h;
    let moved = if i < 3 { Pose { x: f.x + rotation(&f.q) * e, q: f.q } } else { Pose { x: f.x, q: qmul(&f.q, &from_rotation_vector(&e)) } };
    q[7 * k..7 * k + 3].copy_from_slice(moved.x.as_slice());
    q[7 * k + 3..7 * k + 7].copy_from_slice(moved.q.as_slice());
    s.set_configuration(&q)
}

/// The state after one step from the sim with input `c` moved by `h`.
fn stepped_input(work: &mut Work, nominal: &Sim, coords: Coords, c: usize, h: f64, out: &mut [f64]) -> Result<()> {
    let s = work.reset(work.options)?;
    move_input(s, coords, c, h).map_err(|e| refused_move("input", c, h, e))?;
    s.step()?;
    state_from(s, nominal, coords, out)
}

/// Input entry `c` of `s` in `coords`.
fn input_entry(s: &Sim, coords: Coords, c: usize) -> Result<f64> {
    match coords {
        Coords::Maximal => {
            let (b, k) = (c / 6, c % 6);
            let (d, _) = s.data_and_options();
            Ok(if k < 3 { d.inputs.force[b][k] } else { d.inputs.torque[b][k - 3] })
        }
        Coords::Minimal => {
            let (ji, i) = joint_entry(s, c);
            let mut u = [0.0; 6];
            s.joint_input(ji, &mut u[..s.model().joints[ji].dof()])?;
            Ok(u[i])
        }
    }
}

/// Moves input entry `c` of `s` by `h` through the setters.
fn move_input(s: &mut Sim, coords: Coords, c: usize, h: f64) -> Result<()> {
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
            let (ji, i) = joint_entry(s, c);
            let n = s.model().joints[ji].dof();
            let mut u = [0.0; 6];
            s.joint_input(ji, &mut u[..n])?;
            u[i] += h;
            s.set_joint_input(ji, &u[..n])?;
        }
    }
    Ok(())
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
