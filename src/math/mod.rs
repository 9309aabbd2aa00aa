//! Math helpers: the quaternion algebra of the paper's appendix A and small dense kernels.

pub mod quaternion;
pub mod block;
pub mod dense;
pub mod parry;

pub use quaternion::*;

/// nalgebra aliases used across the crate (all stack-allocated).
pub type V3 = nalgebra::Vector3<f64>;
pub type M3 = nalgebra::Matrix3<f64>;
pub type V4 = nalgebra::Vector4<f64>;
pub type M4 = nalgebra::Matrix4<f64>;
pub type M34 = nalgebra::Matrix3x4<f64>;
pub type M43 = nalgebra::Matrix4x3<f64>;
pub type V6 = nalgebra::Vector6<f64>;
pub type M6 = nalgebra::Matrix6<f64>;

/// Skew-symmetric matrix \[a\]× with \[a\]× b = a × b.
#[inline]
pub fn skew(a: &V3) -> M3 {
    M3::new(0.0, -a.z, a.y, a.z, 0.0, -a.x, -a.y, a.x, 0.0)
}

/// Orthonormal basis [v1 v2 v3] with v3 = axis/|axis| (paper appendix B, matrix V).
/// v1, v2 span the plane orthogonal to the axis; the choice is deterministic.
pub fn axis_frame(axis: &V3) -> (V3, V3, V3) {
    let a = axis.normalize();
    let t = if a.x.abs() < 0.9 { V3::x() } else { V3::y() };
    let v1 = a.cross(&t).normalize();
    let v2 = a.cross(&v1);
    (v1, v2, a)
}
