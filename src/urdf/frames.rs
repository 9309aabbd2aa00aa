//! Rigid frames for the URDF loader: URDF `xyz`/`rpy` origins, composition, inverse.

use crate::joints::constraint::Pose;
use crate::math::{conj, qmul, rotation, V3, V4};

/// URDF's roll-pitch-yaw (fixed axes X, then Y, then Z): R = Rz(yaw) Ry(pitch) Rx(roll),
/// as a unit quaternion (w, x, y, z).
pub fn rpy_quaternion(rpy: &V3) -> V4 {
    let half = |a: f64| ((0.5 * a).cos(), (0.5 * a).sin());
    let (cr, sr) = half(rpy.x);
    let (cp, sp) = half(rpy.y);
    let (cy, sy) = half(rpy.z);
    let qx = V4::new(cr, sr, 0.0, 0.0);
    let qy = V4::new(cp, 0.0, sp, 0.0);
    let qz = V4::new(cy, 0.0, 0.0, sy);
    qmul(&qz, &qmul(&qy, &qx))
}

/// The frame `b` (given in frame `a`) expressed in `a`'s parent: a ∘ b.
pub fn compose(a: &Pose, b: &Pose) -> Pose {
    Pose { x: a.x + rotation(&a.q) * b.x, q: qmul(&a.q, &b.q).normalize() }
}

/// a⁻¹: the parent frame expressed in `a`.
pub fn inverse(a: &Pose) -> Pose {
    let qi = conj(&a.q);
    Pose { x: -(rotation(&qi) * a.x), q: qi }
}

/// A link frame's pose in its owner.
pub fn pose(f: &super::LinkFrame) -> Pose {
    Pose { x: f.x.into(), q: f.q.into() }
}

/// The pose given by an URDF origin.
pub fn origin(xyz: V3, rpy: V3) -> Pose {
    Pose { x: xyz, q: rpy_quaternion(&rpy) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rpy_matches_fixed_axis_convention() {
        // roll π/2 about X maps y → z; yaw π/2 about Z maps x → y; composed Rz·Rx
        let q = rpy_quaternion(&V3::new(std::f64::consts::FRAC_PI_2, 0.0, std::f64::consts::FRAC_PI_2));
        let r = rotation(&q);
        assert!((r * V3::y() - V3::z()).norm() < 1e-15); // Rx takes y→z, Rz leaves z
        assert!((r * V3::x() - V3::y()).norm() < 1e-15); // Rx leaves x, Rz takes x→y
    }

    #[test]
    fn inverse_composes_to_identity() {
        let a = origin(V3::new(0.3, -1.0, 2.0), V3::new(0.4, -0.2, 1.3));
        let e = compose(&a, &inverse(&a));
        assert!(e.x.norm() < 1e-14);
        assert!((e.q - V4::new(1.0, 0.0, 0.0, 0.0)).norm() < 1e-15);
    }
}
