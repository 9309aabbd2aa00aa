//! The assembled start. A step starts from poses that satisfy every joint: a body posed
//! away from its joint would be pulled back within one step, at (violation / dt) m/s.
//! `Sim::step` refuses such a start (after the caller set poses directly), and
//! `Sim::assemble` makes one: tree bodies are placed from their parents at the joint
//! coordinates and rates their poses give (what `set_joint_position` keeps), then
//! loop-closing joints are closed by a mass-weighted Gauss–Newton projection.

use super::Sim;
use crate::joints::constraint::{Pose, Side};
use crate::joints::tangent::{Placement, RotationMap};
use crate::math::{qmul, unit_quaternion, velocity_between, V4};
use crate::model::{Error, Model, Result};
use nalgebra::{DMatrix, DVector};

/// What `Sim::assemble` leaves: rounding of the joint rows' values.
const ASSEMBLED: f64 = 1e-12;
/// Gauss–Newton iterations of the loop closure (quadratic once near: a handful).
const CLOSURE_ITERATIONS: usize = 50;

impl Sim {
    /// The joint most violated at the current configuration and its largest constraint
    /// value (None and 0 when every joint holds exactly).
    pub fn joint_violation(&self) -> (Option<usize>, f64) {
        // read from the state in place: the step's check allocates nothing
        worst_joint(&self.model, |b| self.pose(b), false)
    }

    /// The defined start of a new sim: bodies placed by the joint tree at the coordinates
    /// and rates their poses give, when the model's poses or velocities do not satisfy
    /// the tree joints to rounding (a consistent model starts exactly as built). Loops are
    /// left to the caller (who sets their coordinates, or assembles); the first step
    /// checks them.
    pub(super) fn assemble_start(&mut self) {
        let model = self.model.clone();
        let tree = |z: &[Pose]| worst_joint(&model, at(z), true).1;
        if tree(&self.current_poses()) > ASSEMBLED || tree(&self.predicted_poses()) > ASSEMBLED {
            // poses far out (1e300 m) can overflow the placement: then they stay as built,
            // and the first step reports the violation
            let _ = self.change_or_undo(|s| {
                s.reposition(None);
                s.startable(|| Error::NonFiniteState("placement"))
            });
        }
        self.data.start_unchecked = true;
    }

    /// Refuses to step from a configuration that violates a joint by more than the
    /// options' `joint_tolerance` (checked once after the caller set poses).
    pub(super) fn check_start(&mut self) -> Result<()> {
        if !self.data.start_unchecked {
            return Ok(());
        }
        let tolerance = self.options.joint_tolerance;
        if let (Some(joint), violation) = self.joint_violation() {
            if violation > tolerance {
                return Err(Error::JointViolation { joint, violation, tolerance });
            }
        }
        self.data.start_unchecked = false;
        Ok(())
    }

    /// Moves the bodies so that every joint holds at z_k and at the configuration the
    /// next step predicts: tree bodies from their parents at the coordinates and rates
    /// their poses give, then loop-closing joints by the smallest mass-weighted motion
    /// (Gauss–Newton). Returns the violation that was removed. When a loop cannot close
    /// (e.g. link lengths that do not meet) nothing changes and the error says which joint.
    /// (Allocates: a setup call.)
    pub fn assemble(&mut self) -> Result<f64> {
        let before = self.joint_violation().1;
        if !before.is_finite() {
            return Err(Error::AssemblyFailed("the joints' violation overflows at these poses (bodies near the range of doubles)".into()));
        }
        self.change_or_undo(|sim| {
            sim.reposition(None);
            let model = sim.model.clone();
            let (mut z0, mut z1) = (sim.current_poses(), sim.predicted_poses());
            close(&model, &mut z0)?;
            close(&model, &mut z1)?;
            let dt = sim.data.dt;
            let s = &mut sim.data.state;
            for b in 0..model.body_count() {
                s.x[b] = z0[b].x;
                s.q[b] = z0[b].q;
                s.v[b] = (z1[b].x - z0[b].x) / dt;
                s.w[b] = velocity_between(&z0[b].q, &z1[b].q, dt);
            }
            sim.startable(|| Error::NonFiniteState("assembly")).map_err(|e| Error::AssemblyFailed(format!("the assembled state is not one a step can start from ({e})")))
        })?;
        self.follow_tracked();
        self.data.start_unchecked = false;
        Ok(before)
    }
}

/// The pose of a body (the world for None) in configuration `z`.
fn at(z: &[Pose]) -> impl Fn(Option<usize>) -> Pose + '_ {
    move |b| b.map_or(Pose::WORLD, |i| z[i])
}

/// The joint with the largest |constraint value| at configuration `z` (of the spanning
/// tree's joints only with `tree_only`).
fn worst_joint(model: &Model, pose: impl Fn(Option<usize>) -> Pose, tree_only: bool) -> (Option<usize>, f64) {
    let mut worst = (None, 0.0);
    let mut g = [0.0; 6];
    for (ji, j) in model.joints.iter().enumerate() {
        if tree_only && model.tree_parent[j.child] != Some(ji) {
            continue;
        }
        let nc = j.constraint_count();
        j.constraint(&pose(j.parent), &pose(Some(j.child)), &mut g[..nc]);
        for v in &g[..nc] {
            if v.abs() > worst.1 {
                worst = (Some(ji), v.abs());
            }
        }
    }
    worst
}

/// Closes every joint at configuration `z` by Gauss–Newton on g(z) = 0 with the smallest
/// motion in the kinetic metric: δz = −W⁻¹Gᵀ(G W⁻¹ Gᵀ + εI)⁻¹ g, W = diag(m I, J) per
/// body, G = ∂g/∂(x, δφ) (`joints::tangent`); ε keeps redundant loop rows (a planar four-bar
/// of revolute joints) solvable. Dense, over every body: a setup call, for mechanisms of
/// up to a few hundred bodies.
fn close(model: &Model, z: &mut [Pose]) -> Result<()> {
    let rows: Vec<usize> = model.joints.iter().scan(0, |r, j| {
        let at = *r;
        *r += j.constraint_count();
        Some(at)
    }).collect();
    let n_rows: usize = model.joints.iter().map(|j| j.constraint_count()).sum();
    let n = 6 * model.body_count();
    let inverse_inertia: Vec<_> = model.bodies.iter().map(|b| b.inertia.try_inverse().unwrap_or_else(crate::math::M3::zeros)).collect();
    for _ in 0..CLOSURE_ITERATIONS {
        let (worst, violation) = worst_joint(model, at(z), false);
        if violation <= ASSEMBLED {
            return Ok(());
        }
        let place: Vec<Placement> = z.iter().map(Placement::of).collect();
        let placed = |b: Option<usize>| b.map_or(&Placement::WORLD, |i| &place[i]);
        let mut g = DVector::zeros(n_rows);
        // W⁻¹Gᵀ, n × rows
        let mut wg = DMatrix::zeros(n, n_rows);
        let mut gm = DMatrix::zeros(n_rows, n);
        for (ji, j) in model.joints.iter().enumerate() {
            let (r0, nc) = (rows[ji], j.constraint_count());
            let (a, b) = (placed(j.parent), placed(Some(j.child)));
            let mut gj = [0.0; 6];
            j.constraint_at(a, b, &mut gj[..nc]);
            g.rows_mut(r0, nc).copy_from_slice(&gj[..nc]);
            let t = j.tangent_jacobian(a, b);
            for (side, body) in [(Side::Parent, j.parent), (Side::Child, Some(j.child))] {
                let Some(body) = body else { continue };
                let mut m = [0.0; 36];
                j.tangent_block(&t, side, 1.0, RotationMap::Scale(1.0), &mut m[..6 * nc]);
                for r in 0..nc {
                    for c in 0..6 {
                        gm[(r0 + r, 6 * body + c)] += m[6 * r + c];
                    }
                }
            }
        }
        for (i, body) in model.bodies.iter().enumerate() {
            for r in 0..n_rows {
                for k in 0..3 {
                    wg[(6 * i + k, r)] = gm[(r, 6 * i + k)] / body.mass;
                }
                let u = nalgebra::Vector3::new(gm[(r, 6 * i + 3)], gm[(r, 6 * i + 4)], gm[(r, 6 * i + 5)]);
                let ju = inverse_inertia[i] * u;
                for k in 0..3 {
                    wg[(6 * i + 3 + k, r)] = ju[k];
                }
            }
        }
        let mut a = &gm * &wg;
        let scale = (0..n_rows).map(|k| a[(k, k)]).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        for k in 0..n_rows {
            a[(k, k)] += 1e-12 * scale;
        }
        let Some(y) = a.cholesky().map(|c| c.solve(&g)) else {
            return Err(Error::AssemblyFailed(format!("the joint rows are singular near joint {}", worst.unwrap_or(0))));
        };
        let dz = -(&wg * y);
        for (i, p) in z.iter_mut().enumerate() {
            p.x += dz.fixed_rows::<3>(6 * i);
            let half = 0.5 * dz.fixed_rows::<3>(6 * i + 3);
            let turn = V4::new(1.0, half[0], half[1], half[2]);
            p.q = unit_quaternion(&qmul(&p.q, &turn)).unwrap_or(p.q);
        }
        if !z.iter().all(|p| p.x.iter().chain(p.q.iter()).all(|v| v.is_finite())) {
            break;
        }
    }
    let (worst, violation) = worst_joint(model, at(z), false);
    Err(Error::AssemblyFailed(format!("joint {} stays violated by {violation:e} after {CLOSURE_ITERATIONS} Gauss–Newton iterations: the loop cannot close at these poses", worst.unwrap_or(0))))
}
