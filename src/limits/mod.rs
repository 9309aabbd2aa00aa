//! Joint limits as inequality nodes of the interior point (paper sec. 3.3: gap ≥ 0,
//! force ≥ 0, complementarity), on the contact machinery: a bounded side of a limit is a
//! frictionless contact node whose point is a joint coordinate.
//!
//! What the contact pipeline asks of an inequality is a gap at z_{k+2}(v, ω) with its
//! velocity Jacobian, the bodies it acts on, and a force map fixed at z_{k+1}. For limit
//! side gap = sign · (θ − bound) (sign +1 below a lower bound, −1 above an upper one):
//!
//! * θ is the joint's single-axis coordinate (`joints::coordinate`) at z_{k+2}(v, ω),
//!   unwrapped for angles: the simulation keeps each tracked angle unwrapped
//!   ([`TrackedValues`]), advanced every step by the wrapped increment (far below π per
//!   step), so a limit of ±2π holds exactly;
//! * its Jacobian is the coordinate's gradient at z_{k+2} through the pose update:
//!   ∂θ/∂x dt for v and Mᵀ ∂θ/∂δφ for ω (M: `integrator::next_poses::rotation_map`);
//! * the force map is the gradient at z_{k+1}, [∂θ/∂x; 2 ∂θ/∂δφ] in the body residual's
//!   units (as G(z_{k+1}) for joints), so the force γ is the generalized force along the
//!   coordinate (N·m for an angle, N for a translation).

mod gap;
mod tracked;

pub use gap::{bodies, fill_frame, gap_and_jacobian, near, next_coordinate};
pub use tracked::TrackedValues;
