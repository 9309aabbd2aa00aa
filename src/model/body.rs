//! Rigid body parameters and the checks of the builder's vector arguments.

use super::error::{check_finite, Error, Result};
use super::Inertia;
use crate::math::{M3, V3, V4};

/// A rigid body: mass, inertia about the centre of mass in the body frame, initial state.
#[derive(Debug, Clone)]
pub struct Body {
    pub name: String,
    pub mass: f64,
    pub inertia: M3,
    pub x: V3,
    pub q: V4,
    pub v: V3,
    /// Angular velocity in the body frame.
    pub w: V3,
}

impl Body {
    /// A body at the origin, identity orientation, at rest; `mass` finite and > 0.
    pub fn new(mass: f64, inertia: Inertia) -> Result<Body> {
        check_mass(mass)?;
        Ok(Body { name: String::new(), mass, inertia: *inertia.matrix(), x: V3::zeros(), q: crate::math::IDENTITY, v: V3::zeros(), w: V3::zeros() })
    }
}

/// Finite (else `NonFinite`) and > 0 (else `InvalidMass`).
pub fn check_mass(mass: f64) -> Result<()> {
    check_finite("mass", &[mass])?;
    if mass.is_finite() && mass > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidMass(mass))
    }
}

pub(crate) fn check_vec3(name: &'static str, v: &[f64; 3]) -> Result<V3> {
    check_finite(name, v)?;
    Ok(V3::new(v[0], v[1], v[2]))
}

pub(crate) fn check_quat(name: &'static str, q: &[f64; 4]) -> Result<V4> {
    check_finite(name, q)?;
    crate::math::unit_quaternion(&V4::new(q[0], q[1], q[2], q[3])).ok_or(Error::ZeroAxis(name))
}
