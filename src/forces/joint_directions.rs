//! Rows (see `wrench_pair`) of a joint's free directions, translations first, matching
//! the minimal coordinates of `joints::minimal`:
//!
//! * rate rows: ξ_i is the i-th minimal velocity (`Joint::minimal_velocity`), and a
//!   generalized force along them is the actuator's equal-and-opposite wrench pair:
//!   a force R_a c along a free translation at the child's joint point, or a torque c
//!   (parent frame) about a free rotation (paper section 2, actuators).
//! * gradient rows: the exact derivative of the i-th minimal coordinate θ_i with respect
//!   to each body's position and body-frame rotation (for springs: ∇V = k(θ−rest)∇θ).
//!   For translations they equal the rate rows. For rotations θ_i = c_iᵀ log(q_rel),
//!   q_rel = q_a* ⊗ q_b ⊗ q_off*: perturbing q_b ⊗ exp(δφ_b) right-multiplies q_rel by
//!   exp(Q(q_off) δφ_b), perturbing q_a ⊗ exp(δφ_a) left-multiplies it by exp(−δφ_a), so
//!   δr = J_r⁻¹ Q(q_off) δφ_b − J_r⁻¹ᵀ δφ_a.

use super::rotation_log::inverse_right_jacobian;
use super::wrench_pair::{BodyRow, WrenchPair};
use crate::joints::constraint::Pose;
use crate::joints::tangent::Placement;
use crate::joints::Joint;
use crate::math::{rotation, rotation_vector, V3};

/// Rows of translational free direction c (parent frame): the point p_b of the child
/// moving relative to the parent along R_a c.
fn translation_rows(j: &Joint, a: &Placement, b: &Placement, c: &V3) -> WrenchPair {
    let (ra, rb) = (&a.r, &b.r);
    let e = ra * c; // world frame
    let u = ra.transpose() * (b.x + rb * j.p_child - a.x); // child point seen from a, a frame
    WrenchPair {
        a: j.parent.map(|p| BodyRow { body: p, jv: -e, jw: c.cross(&u) }),
        b: BodyRow { body: j.child, jv: e, jw: j.p_child.cross(&(rb.transpose() * e)) },
    }
}

/// Rate rows of free direction `i`.
pub fn rate_rows(j: &Joint, a: &Pose, b: &Pose, i: usize) -> WrenchPair {
    rate_rows_at(j, &Placement::of(a), &Placement::of(b), i)
}

/// [`rate_rows`] at placements (rotation matrices computed once per body).
pub fn rate_rows_at(j: &Joint, a: &Placement, b: &Placement, i: usize) -> WrenchPair {
    let nt = j.ct.len;
    if i < nt {
        return translation_rows(j, a, b, &j.ct.dirs[i]);
    }
    let c = j.rotational_free_direction(&a.q, &b.q, i - nt);
    // ξ = cᵀ(Q_aᵀQ_b ω_b − ω_a)
    let child_axis = b.r.transpose() * (a.r * c);
    WrenchPair {
        a: j.parent.map(|p| BodyRow { body: p, jv: V3::zeros(), jw: -c }),
        b: BodyRow { body: j.child, jv: V3::zeros(), jw: child_axis },
    }
}

/// Gradient rows of minimal coordinate `i`.
pub fn gradient_rows(j: &Joint, a: &Pose, b: &Pose, i: usize) -> WrenchPair {
    let nt = j.ct.len;
    if i < nt {
        return translation_rows(j, &Placement::of(a), &Placement::of(b), &j.ct.dirs[i]);
    }
    if j.rotation_chart() == crate::joints::RotationChart::Angles {
        // angles' gradients are their rates' rows (`joints::hooke`)
        return rate_rows(j, a, b, i);
    }
    let c = j.cr.dirs[i - nt];
    let jinv = inverse_right_jacobian(&rotation_vector(&j.relative_rotation(a, b)));
    let child = rotation(&j.q_offset).transpose() * (jinv.transpose() * c);
    WrenchPair {
        a: j.parent.map(|p| BodyRow { body: p, jv: V3::zeros(), jw: -(jinv * c) }),
        b: BodyRow { body: j.child, jv: V3::zeros(), jw: child },
    }
}
