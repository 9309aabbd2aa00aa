//! Rigid body parameters and inertia helpers.

use super::error::{check_finite, Error, Result};
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
    pub fn new(mass: f64, inertia: M3) -> Result<Body> {
        validate_mass(mass)?;
        validate_inertia(&inertia)?;
        Ok(Body { name: String::new(), mass, inertia, x: V3::zeros(), q: crate::math::IDENTITY, v: V3::zeros(), w: V3::zeros() })
    }
}

pub fn validate_mass(mass: f64) -> Result<()> {
    if mass.is_finite() && mass > 0.0 {
        Ok(())
    } else {
        Err(Error::InvalidMass(mass))
    }
}

/// Symmetric (to round-off) and positive definite.
pub fn validate_inertia(j: &M3) -> Result<()> {
    check_finite("inertia", j.as_slice())?;
    let scale = j.abs().max().max(f64::MIN_POSITIVE);
    if (j - j.transpose()).abs().max() > 1e-9 * scale {
        return Err(Error::InvalidInertia("not symmetric".into()));
    }
    if nalgebra::Cholesky::new(*j).is_none() {
        return Err(Error::InvalidInertia("not positive definite".into()));
    }
    Ok(())
}

/// Inertia of a solid cuboid with edge lengths a, b, c (along body x, y, z).
pub fn box_inertia(mass: f64, a: f64, b: f64, c: f64) -> M3 {
    M3::from_diagonal(&V3::new(b * b + c * c, a * a + c * c, a * a + b * b)) * (mass / 12.0)
}

/// Inertia of a solid cylinder of radius r and height h, axis along body z.
pub fn cylinder_inertia(mass: f64, r: f64, h: f64) -> M3 {
    let t = mass * (3.0 * r * r + h * h) / 12.0;
    M3::from_diagonal(&V3::new(t, t, 0.5 * mass * r * r))
}

/// Inertia of a solid sphere of radius r.
pub fn sphere_inertia(mass: f64, r: f64) -> M3 {
    M3::identity() * (0.4 * mass * r * r)
}

/// Inertia of a solid capsule (cylinder of radius r, length h between the cap centres,
/// plus two hemispheres), axis along body z, uniform density.
pub fn capsule_inertia(mass: f64, r: f64, h: f64) -> M3 {
    let vc = std::f64::consts::PI * r * r * h;
    let vs = 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
    let mc = mass * vc / (vc + vs);
    let ms = mass - mc; // both hemispheres
    let axial = 0.5 * mc * r * r + 0.4 * ms * r * r;
    // hemisphere centroid at 3r/8 from its flat face; parallel-axis theorem about the centre
    let trans = mc * (3.0 * r * r + h * h) / 12.0
        + ms * (0.4 * r * r + 0.25 * h * h + 0.375 * h * r);
    M3::from_diagonal(&V3::new(trans, trans, axial))
}

pub(crate) fn check_vec3(name: &'static str, v: &[f64; 3]) -> Result<V3> {
    check_finite(name, v)?;
    Ok(V3::new(v[0], v[1], v[2]))
}

pub(crate) fn check_quat(name: &'static str, q: &[f64; 4]) -> Result<V4> {
    check_finite(name, q)?;
    let v = V4::new(q[0], q[1], q[2], q[3]);
    let n = v.norm();
    if n < 1e-12 {
        return Err(Error::ZeroAxis(name));
    }
    Ok(v / n)
}
