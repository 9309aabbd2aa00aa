//! Poses one step ahead: the prediction z_{k+1} = (x_k + v_k h, q_k ⊗ ω̄(ω_k, h)) from the
//! known velocities, and z_{k+2}(s) from z_{k+1} and the step's unknown velocities — the
//! same map (paper eq. for the position update), applied to different velocities.

use super::StepFrame;
use crate::joints::constraint::Pose;
use crate::math::{qmul, step_rotation, V3, V4};
use crate::model::Model;

/// Pose one interval `h` after (x, q) at velocities (v, ω): (x + v h, q ⊗ ω̄(ω, h)).
#[inline]
pub fn advance(x: &V3, q: &V4, v: &V3, w: &V3, h: f64) -> Pose {
    Pose { x: x + v * h, q: qmul(q, &step_rotation(w, h)) }
}

/// The step's prediction z_{k+1} (into `frame.x1`, `frame.q1`) from z_k and the known
/// velocities ż_k, which span the interval `h0`; also keeps ż_k in `frame.v0`, `frame.w0`.
/// The quaternion is unit by construction; normalizing removes only the round-off that
/// would otherwise accumulate over the steps. (State queries between steps use
/// [`advance`] alone: they read the prediction without changing what a step commits.)
pub fn predict(x: &[V3], q: &[V4], v: &[V3], w: &[V3], h0: f64, frame: &mut StepFrame) {
    frame.dt = h0;
    for i in 0..x.len() {
        frame.v0[i] = v[i];
        frame.w0[i] = w[i];
        let z1 = advance(&x[i], &q[i], &v[i], &w[i], h0);
        frame.x1[i] = z1.x;
        frame.q1[i] = z1.q.normalize();
    }
}

/// Pose at z_{k+2} of a body (the world for None) at the step iterate `s`.
#[inline]
pub fn pose_next(frame: &StepFrame, model: &Model, dt: f64, s: &[f64], body: Option<usize>) -> Pose {
    match body {
        None => Pose::WORLD,
        Some(i) => {
            let (v, w) = model.addresses.velocities(s, i);
            advance(&frame.x1[i], &frame.q1[i], &v, &w, dt)
        }
    }
}

/// Pose at z_{k+1} of a body (the world for None).
#[inline]
pub fn frame_pose(frame: &StepFrame, body: Option<usize>) -> Pose {
    body.map_or(Pose::WORLD, |i| Pose { x: frame.x1[i], q: frame.q1[i] })
}
