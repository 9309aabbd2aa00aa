//! Contact descriptions: what touches what, with which friction and cone. The physics of
//! a contact (gap, cone equations, condensed node) is in `crate::contact`.

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

    /// Size of the contact's graph node: the variables kept after condensing, the normal
    /// force and one friction variable per direction of the body coupling (frictionless
    /// 1, linear cone 1 + directions, second-order cone 1 + 2).
    pub fn node_size(&self) -> usize {
        if self.friction == 0.0 {
            return 1;
        }
        match self.cone {
            ConeType::Linear => 1 + self.directions,
            ConeType::Nonlinear => 3,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_size_counts_the_normal_force_and_the_coupled_friction_variables() {
        let shape = ContactShape::Plane { body: 0, p: V3::zeros(), radius: 0.0, normal: V3::z(), offset: 0.0 };
        let c = |friction, cone, directions| Contact { shape, friction, cone, directions }.node_size();
        assert_eq!(c(0.0, ConeType::Linear, 8), 1);
        assert_eq!(c(0.0, ConeType::Nonlinear, 4), 1);
        assert_eq!(c(0.5, ConeType::Linear, 8), 9);
        assert_eq!(c(0.5, ConeType::Nonlinear, 8), 3);
    }
}
