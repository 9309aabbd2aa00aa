//! The multiplier Jacobians G(z_{k+1}) of every joint (the constraint forces −Gᵀλ on the
//! bodies, paper sec. 3.2, eq. `constrained_d`): evaluated once per step at the
//! prediction, fixed during the Newton iterations. Kept twice: as G for the residual's
//! −Gᵀλ and as the Newton matrix's body–joint blocks −Gᵀ, which the assembly copies as
//! they are. Beside them what else the step's rows read at z_{k+1}: each body's placement
//! (from which the rows of the joints' free directions, along which actuators and dampers
//! act, follow cheaply) and each body's term of the known velocities in its rotational
//! rows (`body_dynamics::known_momentum`). Storage is allocated once.

use super::body_dynamics::known_momentum;
use super::joint_rows::multiplier_blocks;
use super::StepFrame;
use crate::joints::constraint::Pose;
use crate::joints::tangent::Placement;
use crate::math::V3;
use crate::model::Model;

#[derive(Debug, Clone, Default)]
pub struct MultiplierJacobians {
    /// Per joint: G (nc × 6, row-major) for the parent and the child body.
    parent: Vec<f64>,
    child: Vec<f64>,
    /// The same as −Gᵀ (6 × nc, row-major).
    parent_t: Vec<f64>,
    child_t: Vec<f64>,
    /// Offset of each joint's blocks.
    offset: Vec<usize>,
    /// Each body's placement at z_{k+1}.
    place: Vec<Placement>,
    /// Each body's (s₀ I − [ω₀]×) J ω₀.
    momentum: Vec<V3>,
}

impl MultiplierJacobians {
    pub fn new(model: &Model) -> MultiplierJacobians {
        let mut offset = Vec::with_capacity(model.joint_count());
        let mut o = 0;
        for j in &model.joints {
            offset.push(o);
            o += j.constraint_count() * 6;
        }
        let nb = model.body_count();
        MultiplierJacobians {
            parent: vec![0.0; o],
            child: vec![0.0; o],
            parent_t: vec![0.0; o],
            child_t: vec![0.0; o],
            offset,
            place: vec![Placement::WORLD; nb],
            momentum: vec![V3::zeros(); nb],
        }
    }

    /// G(z_{k+1}) per joint at the prediction in `frame`.
    pub fn compute(&mut self, model: &Model, frame: &StepFrame) {
        for (i, p) in self.place.iter_mut().enumerate() {
            *p = Placement::of(&Pose { x: frame.x1[i], q: frame.q1[i] });
        }
        for (i, (p, b)) in self.momentum.iter_mut().zip(&model.bodies).enumerate() {
            *p = known_momentum(&b.inertia, frame.dt, &frame.w0[i]);
        }
        let place = |b: Option<usize>| b.map_or(&Placement::WORLD, |i| &self.place[i]);
        for (ji, j) in model.joints.iter().enumerate() {
            let nc = j.constraint_count();
            if nc == 0 {
                continue;
            }
            let r = self.offset[ji]..self.offset[ji] + nc * 6;
            let (ga, gb) = (&mut self.parent[r.clone()], &mut self.child[r.clone()]);
            multiplier_blocks(j, place(j.parent), place(Some(j.child)), ga, gb);
            negated_transpose(ga, nc, &mut self.parent_t[r.clone()]);
            negated_transpose(gb, nc, &mut self.child_t[r]);
        }
    }

    /// The known term of the rotational rows for velocities at the node z_{k+1} itself
    /// (the consistent start, `step::consistent_start`): the continuous momentum J ω₀ in
    /// the rows' units, (2/h₀) J ω₀, in place of [`known_momentum`]'s interval term.
    pub fn use_node_momentum(&mut self, model: &Model, frame: &StepFrame) {
        for (i, (p, b)) in self.momentum.iter_mut().zip(&model.bodies).enumerate() {
            *p = (2.0 / frame.dt) * (b.inertia * frame.w0[i]);
        }
    }

    /// Joint `ji`'s block G (nc × 6) on its child (`child` true) or its parent.
    #[inline]
    pub fn block(&self, ji: usize, nc: usize, child: bool) -> &[f64] {
        let o = self.offset[ji];
        let g = if child { &self.child } else { &self.parent };
        &g[o..o + nc * 6]
    }

    /// Joint `ji`'s −Gᵀ (6 × nc) on its child or its parent.
    #[inline]
    pub fn coupling(&self, ji: usize, nc: usize, child: bool) -> &[f64] {
        let o = self.offset[ji];
        let g = if child { &self.child_t } else { &self.parent_t };
        &g[o..o + nc * 6]
    }

    /// A body's placement at z_{k+1} (the world for None).
    #[inline]
    pub fn placement(&self, body: Option<usize>) -> &Placement {
        body.map_or(&Placement::WORLD, |i| &self.place[i])
    }

    /// Body `i`'s term of the known velocities in its rotational rows.
    #[inline]
    pub fn known_momentum(&self, i: usize) -> &V3 {
        &self.momentum[i]
    }
}

/// −Gᵀ (6 × nc) from G (nc × 6), both row-major.
fn negated_transpose(g: &[f64], nc: usize, out: &mut [f64]) {
    for (c, row) in g.chunks_exact(6).enumerate() {
        for (r, v) in row.iter().enumerate() {
            out[r * nc + c] = -v;
        }
    }
}
