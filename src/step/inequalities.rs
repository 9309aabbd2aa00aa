//! The inequalities of a step as the contact pipeline sees them: contacts first, then the
//! bounded sides of joint limits (`crate::limits`). Each has a gap at z_{k+2}(s) with its
//! velocity Jacobian, the bodies it acts on, and a force map at z_{k+1}; nothing else in
//! the interior point, the culling or the warm start tells them apart.

use super::problem::Equations;
use crate::contact::geometry::ContactPoint;
use crate::contact::node::ContactWork;
use crate::integrator::NextPoses;
use crate::limits;
use crate::math::V3;

impl Equations<'_> {
    /// Gap of inequality `i` at z_{k+2}(s), with `jac` its velocity Jacobian per side.
    /// (`points`: the contacts' points, `ContactWork::points`.)
    #[inline]
    pub fn gap(&self, points: &[ContactPoint], i: usize, s: &[f64], jac: Option<&mut [[f64; 6]; 2]>) -> f64 {
        let (f, at) = (self.frame, &self.model.addresses);
        let vel = |b: usize| -> (V3, V3) { at.velocities(s, b) };
        match i.checked_sub(points.len()) {
            None => points[i].gap_and_jacobian(&f.x1, &f.q1, self.dt, vel, jac),
            Some(l) => limits::gap_and_jacobian(self.model, l, self.tracked, &f.x1, &f.q1, self.dt, vel, jac),
        }
    }

    /// [`gap`](Self::gap) with the bodies' poses at z_{k+2}(s) read from `next`, which
    /// must have been updated at `s` (as `Equations::residual` and `jacobian` do): a
    /// contact's gap then costs no pose of its own (the same bits).
    #[inline]
    pub fn gap_at(&self, next: &NextPoses, points: &[ContactPoint], i: usize, s: &[f64], jac: Option<&mut [[f64; 6]; 2]>) -> f64 {
        let at = &self.model.addresses;
        match points.get(i) {
            Some(p) => p.gap_placed(&self.frame.q1, self.dt, |b| (*next.placement(Some(b)), at.angular_velocity(s, b)), jac),
            None => self.gap(points, i, s, jac),
        }
    }

    /// Bodies inequality `i` acts on (side 0, optional side 1).
    pub fn inequality_bodies(&self, points: &[ContactPoint], i: usize) -> (usize, Option<usize>) {
        match i.checked_sub(points.len()) {
            None => points[i].bodies(),
            Some(l) => limits::bodies(self.model, l),
        }
    }

    /// Fills inequality `i`'s force (and slip) maps at z_{k+1} into `cw.frames[i]`.
    pub fn fill_frame(&self, cw: &mut ContactWork, i: usize) {
        let f = self.frame;
        match i.checked_sub(cw.points.len()) {
            None => {
                let l = cw.nodes.layout(i);
                cw.frames[i].fill(&cw.points[i], &l, &f.q1);
            }
            Some(l) => limits::fill_frame(self.model, l, &f.x1, &f.q1, &mut cw.frames[i]),
        }
    }
}
