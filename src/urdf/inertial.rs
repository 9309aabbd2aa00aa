//! Mass properties of rigid groups of links: the exact sum of several links' masses,
//! centres of mass and inertias in one frame (parallel-axis theorem), and the checks a
//! body's inertia must pass.

use crate::joints::constraint::Pose;
use crate::math::{qmul, rotation, M3, V3};

use super::parse::Inertial;

/// One link's mass properties expressed in a common frame: mass, centre of mass, and
/// inertia about that centre with the common frame's axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassPart {
    pub mass: f64,
    pub com: V3,
    pub inertia: M3,
}

impl MassPart {
    /// `inertial` of a link whose frame is `link` in the common frame:
    /// c = x_link + R_link c_inertial, J = R J_inertial Rᵀ with R = R_link R_inertial.
    pub fn of(link: &Pose, inertial: &Inertial) -> MassPart {
        let r = rotation(&qmul(&link.q, &inertial.frame.q));
        let com = link.x + rotation(&link.q) * inertial.frame.x;
        MassPart { mass: inertial.mass, com, inertia: r * inertial.inertia * r.transpose() }
    }
}

/// The rigid union of `parts`: total mass, its centre of mass, and the inertia about it,
/// J = Σ J_i + m_i (|d_i|² I − d_i d_iᵀ), d_i = c_i − c (parallel-axis theorem). With a
/// total mass of zero (links that carry only rotational inertia) the centre is the mean
/// of the parts' centres; the parallel-axis terms vanish then.
pub fn combine(parts: &[MassPart]) -> MassPart {
    let mass: f64 = parts.iter().map(|p| p.mass).sum();
    let com = if mass > 0.0 {
        parts.iter().fold(V3::zeros(), |s, p| s + p.mass * p.com) / mass
    } else {
        parts.iter().fold(V3::zeros(), |s, p| s + p.com) / parts.len().max(1) as f64
    };
    let mut inertia = M3::zeros();
    for p in parts {
        let d = p.com - com;
        inertia += p.inertia + p.mass * (M3::identity() * d.norm_squared() - d * d.transpose());
    }
    MassPart { mass, com, inertia: 0.5 * (inertia + inertia.transpose()) }
}

/// Whether a link's principal moments violate the triangle inequality: no rigid body has
/// such an inertia, but the equations of motion take it, so the loader warns and keeps it.
pub use crate::model::inertia::violates_triangle_inequality;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::IDENTITY;

    #[test]
    fn two_point_masses_combine_by_the_parallel_axis_theorem() {
        // 1 kg at x = 0 and 3 kg at x = 2: centre at 1.5, inertia about it
        // Σ m d² = 1·1.5² + 3·0.5² = 3 about y and z, 0 about x
        let a = MassPart { mass: 1.0, com: V3::zeros(), inertia: M3::zeros() };
        let b = MassPart { mass: 3.0, com: V3::new(2.0, 0.0, 0.0), inertia: M3::zeros() };
        let c = combine(&[a, b]);
        assert_eq!(c.mass, 4.0);
        assert!((c.com - V3::new(1.5, 0.0, 0.0)).norm() < 1e-15);
        assert!((c.inertia - M3::from_diagonal(&V3::new(0.0, 3.0, 3.0))).norm() < 1e-15);
    }

    #[test]
    fn a_rotated_link_inertia_turns_with_its_frame() {
        // a rod along the link's z (I = diag(1, 1, 0)) on a link turned 90° about x: the rod
        // lies along −y of the common frame, so I = diag(1, 0, 1); its centre (0, 0, 1) in
        // the link frame is (0, −1, 0) there, shifted by the link origin (1, 0, 0)
        let inertial = Inertial { frame: Pose { x: V3::new(0.0, 0.0, 1.0), q: IDENTITY }, mass: 2.0, inertia: M3::from_diagonal(&V3::new(1.0, 1.0, 0.0)) };
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let link = Pose { x: V3::new(1.0, 0.0, 0.0), q: crate::math::V4::new(h, h, 0.0, 0.0) };
        let p = MassPart::of(&link, &inertial);
        assert!((p.com - V3::new(1.0, -1.0, 0.0)).norm() < 1e-15);
        assert!((p.inertia - M3::from_diagonal(&V3::new(1.0, 0.0, 1.0))).norm() < 1e-15);
    }

    #[test]
    fn massless_parts_keep_their_inertia() {
        let j = M3::from_diagonal(&V3::new(0.1, 0.2, 0.3));
        let a = MassPart { mass: 0.0, com: V3::new(5.0, 0.0, 0.0), inertia: j };
        let b = MassPart { mass: 1.0, com: V3::zeros(), inertia: M3::zeros() };
        let c = combine(&[a, b]);
        assert_eq!((c.mass, c.com), (1.0, V3::zeros()));
        assert_eq!(c.inertia, j);
    }

    #[test]
    fn triangle_inequality() {
        assert!(!violates_triangle_inequality(&M3::from_diagonal(&V3::new(1.0, 1.0, 2.0))), "a thin disc is the limit");
        assert!(violates_triangle_inequality(&M3::from_diagonal(&V3::new(1.0, 1.0, 2.1))));
        assert!(!violates_triangle_inequality(&M3::zeros()));
    }
}
