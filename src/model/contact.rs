//! Contact descriptions: what touches what, with which friction and cone. The physics of
//! a contact (gap, cone equations, condensed node) is in `crate::contact`.

use super::shape::Shape;

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

/// One contact: the two shapes that touch, friction coefficient, cone.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// Side a (a body's shape) and side b (a body's or the world's); the normal points
    /// from b to a and the contact's reported forces act on a.
    pub shapes: [Shape; 2],
    pub friction: f64,
    pub cone: ConeType,
    /// Directions of the linearized cone (even, ≥ 2); ignored by the second-order cone.
    pub directions: usize,
}

impl Contact {
    /// Bodies the contact acts on: (first, optional second).
    pub fn bodies(&self) -> (usize, Option<usize>) {
        let [a, b] = [self.shapes[0].body(), self.shapes[1].body()];
        (a.expect("side a of a contact is a body's shape (Builder::add_contact)"), b)
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
    use crate::math::V3;

    #[test]
    fn bodies_are_side_a_and_side_b() {
        let sphere = |body| Shape::Sphere { body, centre: V3::zeros(), radius: 0.1 };
        let contact = |shapes| Contact { shapes, friction: 0.0, cone: ConeType::Linear, directions: 4 };
        assert_eq!(contact([sphere(2), Shape::Plane { normal: V3::z(), offset: 0.0 }]).bodies(), (2, None));
        assert_eq!(contact([sphere(2), sphere(0)]).bodies(), (2, Some(0)));
    }

    #[test]
    fn node_size_counts_the_normal_force_and_the_coupled_friction_variables() {
        let shapes = [Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.0 }, Shape::Plane { normal: V3::z(), offset: 0.0 }];
        let c = |friction, cone, directions| Contact { shapes: shapes.clone(), friction, cone, directions }.node_size();
        assert_eq!(c(0.0, ConeType::Linear, 8), 1);
        assert_eq!(c(0.0, ConeType::Nonlinear, 4), 1);
        assert_eq!(c(0.5, ConeType::Linear, 8), 9);
        assert_eq!(c(0.5, ConeType::Nonlinear, 8), 3);
    }
}
