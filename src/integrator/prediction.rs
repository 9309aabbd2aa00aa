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
/// would otherwise accumulate over the steps. The state queries between steps
/// (`Sim::joint_velocity`, `velocity_violation`, setting minimal coordinates) use
/// [`advance`] alone: they differ only by that round-off, but controllers feed them back
/// into the inputs, so normalizing them too would move closed-loop trajectories (the
/// exoskeleton scenario) beyond rounding, for no gain in accuracy.
pub fn predict(x: &[V3], q: &[V4], v: &[V3], w: &[V3], h0: f64, frame: &mut StepFrame) {
    frame.dt = h0;
    frame.impulse = h0;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_step_prediction_is_the_pose_update_with_a_unit_quaternion() {
        let h = 0.01;
        let (x, q) = (V3::new(0.1, -0.2, 0.3), V4::new(0.9, 0.1, -0.3, 0.2).normalize());
        let (v, w) = (V3::new(1.0, 2.0, -3.0), V3::new(4.0, -5.0, 6.0));
        let mut frame = StepFrame::new(1, 0.5);
        predict(&[x], &[q], &[v], &[w], h, &mut frame);
        let z1 = advance(&x, &q, &v, &w, h);
        assert_eq!((frame.dt, frame.v0[0], frame.w0[0], frame.x1[0]), (h, v, w, x + v * h));
        assert_eq!(frame.q1[0], z1.q.normalize());
        assert!((frame.q1[0] - z1.q).norm() < 1e-15 && (frame.q1[0].norm() - 1.0).abs() < 1e-15);
        assert_eq!(frame_pose(&frame, Some(0)).x, frame.x1[0]);
        let world = frame_pose(&frame, None);
        assert_eq!((world.x, world.q), (Pose::WORLD.x, Pose::WORLD.q));
    }
}
