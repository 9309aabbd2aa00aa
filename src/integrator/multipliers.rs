//! The multiplier Jacobians G(z_{k+1}) of every joint (the constraint forces −Gᵀλ on the
//! bodies, paper sec. 3.2): evaluated once per step at the prediction, fixed during the
//! Newton iterations. Storage for all joints is allocated once.

use super::joint_rows::multiplier_jacobian;
use super::prediction::frame_pose;
use super::StepFrame;
use crate::model::Model;

#[derive(Debug, Clone, Default)]
pub struct MultiplierJacobians {
    /// Per joint: nc × 6 blocks (row-major) for the parent and the child body.
    parent: Vec<f64>,
    child: Vec<f64>,
    /// Offset of each joint's blocks.
    offset: Vec<usize>,
}

impl MultiplierJacobians {
    pub fn new(model: &Model) -> MultiplierJacobians {
        let mut offset = Vec::with_capacity(model.joint_count());
        let mut o = 0;
        for j in &model.joints {
            offset.push(o);
            o += j.constraint_count() * 6;
        }
        MultiplierJacobians { parent: vec![0.0; o], child: vec![0.0; o], offset }
    }

    /// G(z_{k+1}) per joint at the prediction in `frame`.
    pub fn compute(&mut self, model: &Model, frame: &StepFrame) {
        for (ji, j) in model.joints.iter().enumerate() {
            let nc = j.constraint_count();
            if nc == 0 {
                continue;
            }
            let (a, b) = (frame_pose(frame, j.parent), frame_pose(frame, Some(j.child)));
            let o = self.offset[ji];
            multiplier_jacobian(j, &a, &b, &mut self.parent[o..o + nc * 6], &mut self.child[o..o + nc * 6]);
        }
    }

    /// Joint `ji`'s block (nc × 6) on its child (`child` true) or its parent.
    #[inline]
    pub fn block(&self, ji: usize, nc: usize, child: bool) -> &[f64] {
        let o = self.offset[ji];
        let g = if child { &self.child } else { &self.parent };
        &g[o..o + nc * 6]
    }
}
