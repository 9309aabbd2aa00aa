//! Kinematics on a sim's current state (issue 13 part 1): pose and velocity of a body
//! point or a named frame, and its geometric Jacobian with respect to the maximal
//! velocities (every body's v, ω) or the minimal joint velocities.
//!
//! A target's velocity is the twist [v; ω]: v the velocity of its origin, ω its angular
//! velocity, both in world axes ([`Axes::World`]) or both in the target's own axes
//! ([`Axes::Local`]).
//!
//! Minimal velocities start with 6 per floating base (a root body without a joint to the
//! world, `model::floating_base`): the base frame's linear and angular velocity in its own
//! axes. Then come `Joint::child_twist`'s, per joint in joint-id order: the rates
//! of the free translations (C_T, parent frame) then of the free rotations — for joints
//! with one free rotation and the universal joint the angle rates, for joints with two or
//! three free rotations (spherical, floating, …) the relative angular velocity of the child
//! in the parent frame projected on C_R (not the rotation vector's rate: the two agree at
//! zero rotation). A floating joint to the world thus takes the velocity of the child's
//! joint point (world axes) and the angular velocity in world axes. Columns of joints
//! that close a kinematic loop are zero: the spanning tree places every body.

#[cfg(test)]
mod tests;

use crate::joints::constraint::Pose;
use crate::joints::minimal::Twist;
use crate::math::{qmul, rotation, skew, M3, V3, IDENTITY};
use crate::model::{Error, Model, Result};
use crate::sim::Sim;

/// What to ask about: a body (its centre of mass, its axes), a point fixed to a body
/// (body frame, relative to the centre of mass; the body's axes), or a named frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Target {
    Body(usize),
    Point { body: usize, point: [f64; 3] },
    Frame(usize),
}

/// The axes a twist or Jacobian is expressed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axes {
    World,
    /// The target's own axes.
    Local,
}

/// The coordinates a Jacobian is taken with respect to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coords {
    /// The floating bases' twists, then every joint's minimal velocities, in joint-id order
    /// ([`Model::minimal_velocity_count`]).
    Minimal,
    /// Every body's (v world, ω body frame), 6 per body in body order.
    Maximal,
}

impl Model {
    /// Number of columns of a Jacobian in `coords`.
    pub fn velocity_count(&self, coords: Coords) -> usize {
        match coords {
            Coords::Minimal => self.minimal_velocity_count(),
            Coords::Maximal => 6 * self.body_count(),
        }
    }

    /// The body a target is fixed to (None: the world) and its pose in that body's frame.
    fn anchor(&self, target: Target) -> Result<(Option<usize>, Pose)> {
        let body = |b: usize| if b < self.body_count() { Ok(b) } else { Err(Error::UnknownBody(b as i32)) };
        Ok(match target {
            Target::Body(b) => (Some(body(b)?), Pose { x: V3::zeros(), q: IDENTITY }),
            Target::Point { body: b, point } => {
                crate::error::check_finite("point", &point)?;
                (Some(body(b)?), Pose { x: V3::from(point), q: IDENTITY })
            }
            Target::Frame(f) => {
                let fr = self.frames.get(f).ok_or_else(|| Error::InvalidArgument("frame", format!("unknown frame id {f}")))?;
                (fr.body, Pose { x: fr.x, q: fr.q })
            }
        })
    }
}

/// A body's pose and twist (v world, ω body frame) at the sim's state.
fn body(sim: &Sim, b: usize) -> (Pose, Twist) {
    let s = sim.body_state(b).expect("a body of the model");
    let pose = Pose { x: V3::new(s[0], s[1], s[2]), q: crate::math::V4::new(s[3], s[4], s[5], s[6]) };
    (pose, Twist { v: V3::new(s[7], s[8], s[9]), w: V3::new(s[10], s[11], s[12]) })
}

fn pose_of(sim: &Sim, b: Option<usize>) -> Pose {
    b.map_or(Pose::WORLD, |b| body(sim, b).0)
}

impl Sim {
    /// World pose of a target: position, then orientation (unit quaternion w, x, y, z).
    pub fn target_pose(&self, target: Target) -> Result<[f64; 7]> {
        target_pose(self, target)
    }

    /// Twist [v; ω] of a target in `axes` (v of its origin).
    pub fn target_velocity(&self, target: Target, axes: Axes) -> Result<[f64; 6]> {
        target_velocity(self, target, axes)
    }

    /// The 6 × n Jacobian (row-major into `out`, n = [`Model::velocity_count`]) that maps
    /// velocities in `coords` to the target's twist in `axes` (see the module docs).
    pub fn jacobian(&self, target: Target, axes: Axes, coords: Coords, out: &mut [f64]) -> Result<()> {
        jacobian(self, target, axes, coords, out)
    }
}

impl Sim {
    /// Every joint's minimal velocities (the convention above) from the current body
    /// velocities, in joint-id order, into `out` (length [`Model::minimal_velocity_count`]).
    /// These are the continuous rates at z_k; `Sim::joint_velocity` returns the step's
    /// discrete ones (coordinate differences over dt), which differ by O(dt).
    pub fn minimal_velocities(&self, out: &mut [f64]) -> Result<()> {
        let model = &**self.model();
        crate::error::check_len("out", out.len(), model.minimal_velocity_count())?;
        let twist = |b: Option<usize>| b.map_or((Pose::WORLD, Twist::ZERO), |b| body(self, b));
        for k in 0..model.floating_bases.len() {
            let (nu, w) = self.base_twist(k);
            out[6 * k..6 * k + 3].copy_from_slice(nu.as_slice());
            out[6 * k + 3..6 * k + 6].copy_from_slice(w.as_slice());
        }
        let mut at = model.base_velocity_count();
        for j in &model.joints {
            let ((pa, ta), (pb, tb)) = (twist(j.parent), twist(Some(j.child)));
            j.minimal_velocity(&pa, &ta, &pb, &tb, &mut out[at..at + j.dof()]);
            at += j.dof();
        }
        Ok(())
    }
}

fn target_pose(sim: &Sim, target: Target) -> Result<[f64; 7]> {
    let (b, off) = sim.model().anchor(target)?;
    let p = pose_of(sim, b);
    let x = p.x + rotation(&p.q) * off.x;
    let q = qmul(&p.q, &off.q);
    Ok([x.x, x.y, x.z, q[0], q[1], q[2], q[3]])
}

/// Rotation from the axes `axes` to world axes, for the target anchored at `b` with `off`.
fn axes_rotation(sim: &Sim, b: Option<usize>, off: &Pose, axes: Axes) -> M3 {
    match axes {
        Axes::World => M3::identity(),
        Axes::Local => rotation(&qmul(&pose_of(sim, b).q, &off.q)),
    }
}

/// Writes the twist [v; ω] (world axes) of the target point `p` when its body moves with
/// (`v_b`, world angular velocity `w`) about `x_b`, expressed in `axes` (rotation `r`), as
/// column `col` of a row-major 6 × `ncols` matrix.
fn put_column(out: &mut [f64], ncols: usize, col: usize, r: &M3, v: V3, w: V3) {
    let (v, w) = (r.transpose() * v, r.transpose() * w);
    for i in 0..3 {
        out[i * ncols + col] = v[i];
        out[(i + 3) * ncols + col] = w[i];
    }
}

fn target_velocity(sim: &Sim, target: Target, axes: Axes) -> Result<[f64; 6]> {
    let (b, off) = sim.model().anchor(target)?;
    let mut out = [0.0; 6];
    if let Some(b) = b {
        let (p, t) = body(sim, b);
        let rb = rotation(&p.q);
        let w = rb * t.w;
        put_column(&mut out, 1, 0, &axes_rotation(sim, Some(b), &off, axes), t.v + w.cross(&(rb * off.x)), w);
    }
    Ok(out)
}

fn jacobian(sim: &Sim, target: Target, axes: Axes, coords: Coords, out: &mut [f64]) -> Result<()> {
    let model = &**sim.model();
    let n = model.velocity_count(coords);
    crate::error::check_len("jacobian", out.len(), 6 * n)?;
    let (b, off) = model.anchor(target)?;
    out.fill(0.0);
    let Some(b) = b else { return Ok(()) };
    let r = axes_rotation(sim, Some(b), &off, axes);
    let pb = pose_of(sim, Some(b));
    let point = pb.x + rotation(&pb.q) * off.x;
    match coords {
        Coords::Maximal => maximal_columns(&pb, &point, &r, n, out, 6 * b),
        Coords::Minimal => minimal_columns(sim, model, b, &point, &r, n, out),
    }
    Ok(())
}

/// v_p = v_b + R_b (ω × r) = v_b − R_b [r]× ω, ω_world = R_b ω (ω in the body frame).
fn maximal_columns(pb: &Pose, point: &V3, r: &M3, n: usize, out: &mut [f64], col: usize) {
    let rb = rotation(&pb.q);
    let arm = -rb * skew(&(rb.transpose() * (point - pb.x)));
    for k in 0..3 {
        put_column(out, n, col + k, r, V3::ith(k, 1.0), V3::zeros());
        put_column(out, n, col + 3 + k, r, arm.column(k).into_owned(), rb.column(k).into_owned());
    }
}

/// Walks the spanning tree from the target's body to its root: a unit rate of a tree
/// joint on that path (every other rate zero) moves the joint's child, and with it the
/// target, rigidly with the child's twist from `Joint::child_twist` (parent at rest). A
/// root that is a floating base moves the whole tree: a unit linear rate translates it
/// along the base frame's axis, a unit angular rate turns it about the frame's origin.
fn minimal_columns(sim: &Sim, model: &Model, b: usize, point: &V3, r: &M3, n: usize, out: &mut [f64]) {
    let offset = model.joint_offsets();
    let mut at = b;
    while let Some(ji) = model.tree_parent[at] {
        let j = &model.joints[ji];
        let (a, c) = (pose_of(sim, j.parent), pose_of(sim, Some(j.child)));
        let rc = rotation(&c.q);
        for k in 0..j.dof() {
            let mut e = [0.0; 6];
            e[k] = 1.0;
            let t = j.child_twist(&a, &Twist::ZERO, &c, &e[..j.dof()]);
            let w = rc * t.w;
            put_column(out, n, offset[ji] + k, r, t.v + w.cross(&(point - c.x)), w);
        }
        match j.parent {
            Some(p) => at = p,
            None => return,
        }
    }
    if let Some(k) = model.floating_bases.iter().position(|f| f.body == at) {
        let frame = sim.base_frame_pose(k);
        let rf = rotation(&frame.q);
        for i in 0..3 {
            let axis = rf.column(i).into_owned();
            put_column(out, n, 6 * k + i, r, axis, V3::zeros());
            put_column(out, n, 6 * k + 3 + i, r, axis.cross(&(point - frame.x)), axis);
        }
    }
}
