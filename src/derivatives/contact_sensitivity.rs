//! The contacts' part of the step's sensitivity: the interior point's condensed Newton
//! matrix at its solution, and the contact terms of ∂f/∂z_{k+1}.
//!
//! At the interior point's solution the complementarity rows read γ s_φ = μ (and the
//! cones' equivalents) at the final barrier μ_end = contact_tolerance / 10, so the
//! derivative is that of the step smoothed by that barrier: exact for contacts strictly
//! pressed or strictly apart, a steep but smooth blend within ~μ_end/γ of the switch. A
//! larger `contact_tolerance` smooths it more. The E rows (slacks and cone variables) do
//! not depend on the state, so condensing them out (`contact::node`) leaves the K rows'
//! explicit derivatives as the right-hand side.
//!
//! Explicit derivatives, for a point of body a against the world (normal n and anchors
//! fixed by the narrow phase; pairs of two bodies, or shapes whose points slide with the
//! configuration, are refused): witness p = anchor − r Q_aᵀ n, force F = γ n + Σ β_i d_i,
//! * body rows −[F; 2 p × Q_aᵀ F]: the torque rows move with δφ by
//!   2 (r [Q_aᵀF]× [Q_aᵀn]× + [p]× [Q_aᵀF]×);
//! * K row 0, (s_φ − φ(z_{k+2}))/dt: φ moves by nᵀ δx and (Q(ω̄) (anchor × Q_{k+2}ᵀ n))ᵀ δφ;
//! * K rows 1.., slip d_iᵀ v + (p × Q_aᵀ d_i)ᵀ ω: by ωᵀ (r [Q_aᵀd_i]× [Q_aᵀn]× + [p]× [Q_aᵀd_i]×) δφ.

use super::block::{Block, MAX_BLOCK_ROWS};
use crate::contact::geometry::{Geometry, Shape};
use crate::contact::node::ContactWork;
use crate::integrator::prediction::advance;
use crate::integrator::NextPoses;
use crate::math::{rotation, skew, step_rotation, M3};
use crate::model::{Error, Model, Result};
use crate::solver::BlockMatrix;
use crate::step::interior_point::contact_rows;
use crate::step::problem::Equations;


/// Refuses contacts whose derivative this module does not give: points not of a body
/// against a world plane (see the module doc).
pub(super) fn check(model: &Model) -> Result<()> {
    for (ci, c) in model.contacts.iter().enumerate() {
        let [a, b] = &c.shapes;
        let world_plane = matches!(b, Shape::Plane { .. } | Shape::Placed { body: None, geometry: Geometry::HalfSpace, .. });
        let fixed_points = matches!(a, Shape::Sphere { .. } | Shape::Placed { body: Some(_), geometry: Geometry::Sphere { .. } | Geometry::Box { .. } | Geometry::Capsule { .. }, .. });
        if !(world_plane && fixed_points) {
            return Err(Error::InvalidArgument("model", format!("contact {ci}: step derivatives are implemented for spheres, boxes and capsules on bodies against a world plane")));
        }
    }
    Ok(())
}

/// Adds the contacts' blocks to the Newton matrix `k` (already holding the equality
/// rows' blocks) at the interior point's solution `s` with its contact work `cw` (`next`:
/// the poses at `s`, placed by `Equations::jacobian`).
pub(super) fn assemble(eqs: &Equations, s: &[f64], next: &NextPoses, cw: &ContactWork, k: &mut BlockMatrix) -> Result<()> {
    let mut cw = cw.clone();
    let mut rhs = vec![0.0; s.len()];
    if !contact_rows::assemble(eqs, s, next, &mut cw, k, &mut rhs) {
        return Err(Error::InvalidArgument("state", "the step's contact condensation is singular at its solution".into()));
    }
    Ok(())
}

/// The contacts' blocks of ∂f/∂z_{k+1} at the solution `s`.
pub(super) fn configuration_blocks(eqs: &Equations, s: &[f64], cw: &ContactWork, out: &mut Vec<Block>) {
    let model = eqs.model;
    let at = &model.addresses;
    for ci in cw.selection.iter().filter(|&ci| ci < model.contacts.len()) {
        let p = &cw.points[ci];
        let fr = &cw.frames[ci];
        let l = cw.nodes.layout(ci);
        let on = at.contact(ci);
        let b = p.body_a;
        let ob = at.body(b);
        let rt = rotation(&eqs.frame.q1[b]).transpose();
        let (n, r) = (p.normal, p.radius[0]);
        let nb = rt * n;
        let pc = p.witness(0, &rt);
        // body rows: −(2 r [QᵀF]× [Qᵀn]× + 2 [p]× [QᵀF]×)
        let mut f = n * s[on];
        for i in 0..l.nt {
            f += fr.dirs[i] * s[on + 1 + i];
        }
        let fb = rt * f;
        let torque = -2.0 * (r * skew(&fb) * skew(&nb) + skew(&pc) * skew(&fb));
        let mut m = [0.0; 36];
        put(&mut m, 3, 3, &torque);
        out.push(Block::new(ob, 6, b, &m));
        // K rows
        let (v, w) = at.velocities(s, b);
        let z2 = advance(&eqs.frame.x1[b], &eqs.frame.q1[b], &v, &w, eqs.dt);
        let g2 = p.anchor[0].cross(&(rotation(&z2.q).transpose() * n));
        let dphi = rotation(&step_rotation(&w, eqs.dt)) * g2;
        let mut m = [0.0; 6 * MAX_BLOCK_ROWS];
        for k in 0..3 {
            m[k] = -n[k] / eqs.dt;
            m[3 + k] = -dphi[k] / eqs.dt;
        }
        for i in 0..l.nt {
            let db = rt * fr.dirs[i];
            let row = w.transpose() * (r * skew(&db) * skew(&nb) + skew(&pc) * skew(&db));
            for k in 0..3 {
                m[(1 + i) * 6 + 3 + k] = row[k];
            }
        }
        out.push(Block::new(on, l.nk, b, &m));
    }
}

/// Writes a 3×3 block at (row, col) of a row-major 6-column block.
fn put(m: &mut [f64; 36], row: usize, col: usize, b: &M3) {
    for r in 0..3 {
        for c in 0..3 {
            m[(row + r) * 6 + col + c] = b[(r, c)];
        }
    }
}
