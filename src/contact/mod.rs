//! Rigid contacts with friction (paper section 2 "Contacts and inequality constraints",
//! sections 3.3–3.4, appendices C–D).
//!
//! A contact is one inequality constraint φ(z_{k+2}) ≥ 0 ⊥ γ ≥ 0 with a friction model.
//! Each contact is one node of the mechanism graph; its slacks and cone variables are
//! condensed inside the node ([`node`]) so the graph LDU sees one block per contact
//! (paper section 4, first paragraph).
//!
//! * [`geometry`]: gap functions (point/sphere vs plane, sphere vs sphere), their velocity
//!   Jacobians at z_{k+2}, and the force/slip maps at the contact point at z_{k+1}.
//! * [`cone`]: friction cones (linearized with an even number of directions built from the
//!   normal, or the second-order cone) as local residual/Jacobian of the node's variables.
//! * [`node`]: the per-contact condensed Newton block and the interior-point helpers
//!   (fraction-to-boundary, complementarity).
//! * [`builder_api`]: the builder setters and the graph nodes of the compiled model.

pub mod builder_api;
pub mod cone;
pub mod geometry;
pub mod node;

use crate::math::V3;

/// Contact index.
pub type ContactId = usize;

/// Largest number of directions of a linearized friction cone.
pub const MAX_DIRECTIONS: usize = 16;

/// Friction cone type. Discriminants are the C ABI's (`MAXDYN_CONE_*`).
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConeType {
    /// Linearized (pyramidal) cone with an even number of directions (default 4).
    Linear = 0,
    /// Second-order (isotropic) cone |f_t| ≤ μ γ.
    Nonlinear = 1,
}

impl ConeType {
    pub fn from_i32(v: i32) -> Option<ConeType> {
        match v {
            0 => Some(ConeType::Linear),
            1 => Some(ConeType::Nonlinear),
            _ => None,
        }
    }
}

/// What touches what.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactShape {
    /// A sphere of `radius` (0: a point) centred at body point `p` (body frame) against the
    /// world half-space {x : normal·x ≥ offset} (`normal` unit length).
    Plane { body: usize, p: V3, radius: f64, normal: V3, offset: f64 },
    /// Sphere (centre `pa` in body_a's frame, radius `ra`) against sphere (`pb`, `rb`) on
    /// body_b. The normal points from b to a.
    Spheres { body_a: usize, pa: V3, ra: f64, body_b: usize, pb: V3, rb: f64 },
}

/// One contact: shape, friction coefficient, cone.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    pub shape: ContactShape,
    pub friction: f64,
    pub cone: ConeType,
    /// Directions of the linearized cone (even, ≥ 2); ignored by the second-order cone.
    pub directions: usize,
}

impl Contact {
    /// Bodies the contact acts on: (first, optional second).
    pub fn bodies(&self) -> (usize, Option<usize>) {
        match self.shape {
            ContactShape::Plane { body, .. } => (body, None),
            ContactShape::Spheres { body_a, body_b, .. } => (body_a, Some(body_b)),
        }
    }

    /// The cone layout this contact uses (frictionless when μ = 0).
    pub fn layout(&self) -> cone::Layout {
        cone::Layout::of(self)
    }
}
