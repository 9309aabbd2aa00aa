//! Dynamics in minimal coordinates (issue 13 part 2) at the sim's current configuration:
//! the joint-space mass matrix M(q), the bias b(q, q̇) (gravity, Coriolis and centrifugal
//! terms) and inverse dynamics τ(q, q̇, q̈) = M q̈ + b, for trees. Minimal velocities follow
//! the convention of `kinematics` (joint-id order; relative angular velocity in the parent
//! frame for joints with three free rotations), so τ is the generalized force dual to them:
//! a joint input (`Sim::set_joint_input`) for every joint type supported here.
//!
//! M = Σ_b J_bᵀ diag(m_b I, I_b,world) J_b over the bodies, with J_b the Jacobian of body b's
//! centre-of-mass twist (world axes). τ is recursive Newton–Euler: body velocities and
//! accelerations from the root outwards (below), then the bodies' wrenches
//! [m_b (a_b − g); I ω̇ + ω × I ω] mapped back by J_bᵀ.
//!
//! Floating bases (root bodies without a joint to the world) come first, 6 velocities each
//! (the base frame's linear and angular velocity in its own axes), as in Pinocchio's
//! free-flyer; their τ is the wrench on the base (force, then moment about the frame's
//! origin, in the frame's axes).
//!
//! Supported: trees (no loop-closing joint) of joints with 0, 1 or 3 free rotations (every
//! type but the universal joint and the planar-rotation types, whose free angular
//! velocities depend on the configuration).

#[cfg(test)]
mod tests;

use crate::joints::constraint::Pose;
use crate::kinematics::{Axes, Coords, Target};
use crate::math::{rotation, M3, V3};
use crate::model::{Error, Model, Result};
use crate::sim::Sim;

/// A body's motion in world axes: centre-of-mass velocity, angular velocity, and their rates.
#[derive(Debug, Clone, Copy, Default)]
struct Motion {
    v: V3,
    w: V3,
    a: V3,
    dw: V3,
}

fn check_supported(model: &Model) -> Result<()> {
    if model.loop_count > 0 {
        return Err(Error::InvalidArgument("model", "dynamics terms are defined for trees; this model has kinematic loops".into()));
    }
    if let Some(j) = model.joints.iter().find(|j| j.cr.len == 2) {
        return Err(Error::InvalidArgument("model", format!("joint `{}` ({:?}) has two free rotations; dynamics terms support 0, 1 or 3", j.name, j.kind)));
    }
    Ok(())
}

fn pose(sim: &Sim, b: Option<usize>) -> Pose {
    b.map_or(Pose::WORLD, |b| {
        let s = sim.body_state(b).expect("a body of the model");
        Pose { x: V3::new(s[0], s[1], s[2]), q: crate::math::V4::new(s[3], s[4], s[5], s[6]) }
    })
}

/// World inertia R I Rᵀ of body `b` at `p`.
fn world_inertia(model: &Model, b: usize, p: &Pose) -> M3 {
    let r = rotation(&p.q);
    r * model.bodies[b].inertia * r.transpose()
}

/// Velocities and accelerations of every body from q̇ and q̈ along the tree. With x_c =
/// x_a + R_a(p_a + d) − R_c p_c, d = C_T q_T and ω_c = ω_a + R_a w_rel, w_rel = C_R q̇_R (all
/// directions constant in the parent frame), with r = R_a(p_a + d) and ρ = R_c p_c:
///   v_c = v_a + ω_a × r + R_a ḋ − ω_c × ρ
///   ω̇_c = ω̇_a + ω_a × R_a w_rel + R_a ẇ_rel
///   a_c = a_a + ω̇_a × r + ω_a × (ω_a × r) + 2 ω_a × R_a ḋ + R_a d̈ − ω̇_c × ρ − ω_c × (ω_c × ρ)
///
/// A floating base's body moves with its frame: with (ν, ω) and their rates (ν̇, ω̇) in the
/// frame's axes R_f and r = x_b − o from the frame's origin, ω_b = R_f ω, ω̇_b = R_f ω̇, the
/// origin's velocity R_f ν and acceleration R_f (ν̇ + ω × ν) (ν̇ being the rate of the
/// frame-axes components: Pinocchio's spatial acceleration), then the rigid-body transport.
fn motions(sim: &Sim, model: &Model, qd: &[f64], qdd: &[f64]) -> Vec<Motion> {
    let off = model.joint_offsets();
    let mut m = vec![Motion::default(); model.body_count()];
    let three = |x: &[f64], o: usize| V3::new(x[o], x[o + 1], x[o + 2]);
    for (k, base) in model.floating_bases.iter().enumerate() {
        let frame = sim.base_frame_pose(k);
        let rf = rotation(&frame.q);
        let (nu, wl, dnu, dwl) = (three(qd, 6 * k), three(qd, 6 * k + 3), three(qdd, 6 * k), three(qdd, 6 * k + 3));
        let (w, dw) = (rf * wl, rf * dwl);
        let r = pose(sim, Some(base.body)).x - frame.x;
        let v = rf * nu + w.cross(&r);
        let a = rf * (dnu + wl.cross(&nu)) + dw.cross(&r) + w.cross(&w.cross(&r));
        m[base.body] = Motion { v, w, a, dw };
    }
    for &ji in &model.tree_order {
        let j = &model.joints[ji];
        let (pa, pc) = (pose(sim, j.parent), pose(sim, Some(j.child)));
        let ma = j.parent.map_or(Motion::default(), |p| m[p]);
        let ra = rotation(&pa.q);
        let nt = j.ct.len;
        let (o, n) = (off[ji], j.dof());
        let comb = |dirs: &[V3], x: &[f64]| dirs.iter().zip(x).fold(V3::zeros(), |s, (c, v)| s + c * *v);
        let (dd, ddd) = (comb(j.ct.as_slice(), &qd[o..o + nt]), comb(j.ct.as_slice(), &qdd[o..o + nt]));
        let (wr, dwr) = (ra * comb(j.cr.as_slice(), &qd[o + nt..o + n]), ra * comb(j.cr.as_slice(), &qdd[o + nt..o + n]));
        let r = ra * (j.p_parent + j.displacement(&pa, &pc));
        let rho = rotation(&pc.q) * j.p_child;
        let w = ma.w + wr;
        let dw = ma.dw + ma.w.cross(&wr) + dwr;
        let v = ma.v + ma.w.cross(&r) + ra * dd - w.cross(&rho);
        let a = ma.a + ma.dw.cross(&r) + ma.w.cross(&ma.w.cross(&r)) + 2.0 * ma.w.cross(&(ra * dd)) + ra * ddd - dw.cross(&rho) - w.cross(&w.cross(&rho));
        m[j.child] = Motion { v, w, a, dw };
    }
    m
}

/// Jacobian of body `b`'s centre-of-mass twist (world axes), 6 × n row-major.
fn body_jacobian(sim: &Sim, b: usize, n: usize) -> Vec<f64> {
    let mut jb = vec![0.0; 6 * n];
    sim.jacobian(Target::Body(b), Axes::World, Coords::Minimal, &mut jb).expect("a body and a sized buffer");
    jb
}

impl Sim {
    /// The joint-space mass matrix M(q) at the current configuration, n × n row-major
    /// (n = `Model::minimal_velocity_count`). Symmetric, positive definite on trees
    /// whose bodies all have joints.
    pub fn mass_matrix(&self, out: &mut [f64]) -> Result<()> {
        let model = &**self.model();
        check_supported(model)?;
        let n = model.minimal_velocity_count();
        crate::error::check_len("mass_matrix", out.len(), n * n)?;
        out.fill(0.0);
        for b in 0..model.body_count() {
            let jb = body_jacobian(self, b, n);
            let (m, iw) = (model.bodies[b].mass, world_inertia(model, b, &pose(self, Some(b))));
            // M_b J_b, then J_bᵀ (M_b J_b)
            let mut mj = vec![0.0; 6 * n];
            for k in 0..n {
                let w = V3::new(jb[3 * n + k], jb[4 * n + k], jb[5 * n + k]);
                let iw_w = iw * w;
                for i in 0..3 {
                    mj[i * n + k] = m * jb[i * n + k];
                    mj[(i + 3) * n + k] = iw_w[i];
                }
            }
            for r in 0..n {
                for c in 0..n {
                    out[r * n + c] += (0..6).map(|i| jb[i * n + r] * mj[i * n + c]).sum::<f64>();
                }
            }
        }
        Ok(())
    }

    /// Inverse dynamics: the joint forces τ = M(q) q̈ + b(q, q̇) that give the minimal
    /// accelerations `qdd` at velocities `qd` (both of length n), with gravity, into `out`.
    pub fn inverse_dynamics(&self, qd: &[f64], qdd: &[f64], out: &mut [f64]) -> Result<()> {
        let model = &**self.model();
        check_supported(model)?;
        let n = model.minimal_velocity_count();
        for (name, v) in [("qd", qd), ("qdd", qdd)] {
            crate::error::check_len(name, v.len(), n)?;
            crate::error::check_finite(name, v)?;
        }
        crate::error::check_len("out", out.len(), n)?;
        let motion = motions(self, model, qd, qdd);
        out.fill(0.0);
        for (b, mo) in motion.iter().enumerate() {
            let (m, iw) = (model.bodies[b].mass, world_inertia(model, b, &pose(self, Some(b))));
            let f = m * (mo.a - model.gravity);
            let t = iw * mo.dw + mo.w.cross(&(iw * mo.w));
            let jb = body_jacobian(self, b, n);
            for (k, o) in out.iter_mut().enumerate() {
                *o += (0..3).map(|i| jb[i * n + k] * f[i] + jb[(i + 3) * n + k] * t[i]).sum::<f64>();
            }
        }
        Ok(())
    }

    /// The bias b(q, q̇) = τ(q, q̇, 0): gravity, Coriolis and centrifugal forces, into `out`.
    pub fn bias_forces(&self, qd: &[f64], out: &mut [f64]) -> Result<()> {
        let n = self.model().minimal_velocity_count();
        self.inverse_dynamics(qd, &vec![0.0; n], out)
    }

    /// Each body's world centre-of-mass velocity and angular velocity from minimal
    /// velocities `qd` (joint-space forward velocity kinematics), 6 per body: v, ω.
    pub fn body_velocities_from_minimal(&self, qd: &[f64], out: &mut [f64]) -> Result<()> {
        let model = &**self.model();
        check_supported(model)?;
        let n = model.minimal_velocity_count();
        crate::error::check_len("qd", qd.len(), n)?;
        crate::error::check_len("out", out.len(), 6 * model.body_count())?;
        for (b, mo) in motions(self, model, qd, &vec![0.0; n]).iter().enumerate() {
            out[6 * b..6 * b + 3].copy_from_slice(mo.v.as_slice());
            out[6 * b + 3..6 * b + 6].copy_from_slice(mo.w.as_slice());
        }
        Ok(())
    }
}
