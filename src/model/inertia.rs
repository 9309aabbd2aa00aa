//! The rotational inertia of a rigid body: a 3×3 matrix about the centre of mass in the
//! body frame, symmetric positive definite. Every constructor checks that, so a
//! [`Builder`](super::Builder) never sees an invalid one.

use super::error::{check_finite, Error, Result};
use crate::math::{M3, V3};

/// Inertia about the centre of mass in the body frame (kg·m²), symmetric positive
/// definite by construction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inertia(M3);

impl Inertia {
    /// From a row-major 3×3 matrix.
    pub fn from_rows(rows: [f64; 9]) -> Result<Inertia> {
        Inertia::from_matrix(M3::from_row_slice(&rows))
    }

    /// From a matrix (symmetric to round-off, positive definite, its principal moments
    /// obeying the triangle inequality: no rigid body has diag(1, 1, 3)).
    pub fn from_matrix(j: M3) -> Result<Inertia> {
        let inertia = Inertia::from_matrix_lenient(j)?;
        if violates_triangle_inequality(&j) {
            return Err(Error::InvalidInertia("its principal moments violate the triangle inequality (the largest exceeds the sum of the other two: no rigid body has them)".into()));
        }
        Ok(inertia)
    }

    /// [`Inertia::from_matrix`] without the triangle inequality: for the URDF loader, whose
    /// files carry CAD inertias that break it by small amounts (it warns and keeps them; the
    /// equations of motion take any positive definite inertia).
    pub(crate) fn from_matrix_lenient(j: M3) -> Result<Inertia> {
        check_finite("inertia", j.as_slice())?;
        let scale = j.abs().max().max(f64::MIN_POSITIVE);
        if (j - j.transpose()).abs().max() > 1e-9 * scale {
            return Err(Error::InvalidInertia("not symmetric".into()));
        }
        if nalgebra::Cholesky::new(j).is_none() {
            return Err(Error::InvalidInertia("not positive definite".into()));
        }
        Ok(Inertia(j))
    }

    /// Principal moments about the body axes (each > 0).
    pub fn diagonal(ixx: f64, iyy: f64, izz: f64) -> Result<Inertia> {
        Inertia::from_matrix(M3::from_diagonal(&V3::new(ixx, iyy, izz)))
    }

    /// A solid sphere of radius r.
    pub fn sphere(mass: f64, r: f64) -> Result<Inertia> {
        Inertia::from_matrix(M3::identity() * (0.4 * mass * r * r))
    }

    /// A solid cuboid with edge lengths a, b, c (along body x, y, z).
    pub fn cuboid(mass: f64, a: f64, b: f64, c: f64) -> Result<Inertia> {
        Inertia::from_matrix(M3::from_diagonal(&V3::new(b * b + c * c, a * a + c * c, a * a + b * b)) * (mass / 12.0))
    }

    /// A solid cylinder of radius r and height h, axis along body z.
    pub fn cylinder(mass: f64, r: f64, h: f64) -> Result<Inertia> {
        let t = mass * (3.0 * r * r + h * h) / 12.0;
        Inertia::diagonal(t, t, 0.5 * mass * r * r)
    }

    /// A solid capsule (cylinder of radius r, length h between the cap centres, plus two
    /// hemispheres), axis along body z, uniform density.
    pub fn capsule(mass: f64, r: f64, h: f64) -> Result<Inertia> {
        let vc = std::f64::consts::PI * r * r * h;
        let vs = 4.0 / 3.0 * std::f64::consts::PI * r * r * r;
        let mc = mass * vc / (vc + vs);
        let ms = mass - mc; // both hemispheres
        let axial = 0.5 * mc * r * r + 0.4 * ms * r * r;
        // hemisphere centroid at 3r/8 from its flat face; parallel-axis theorem about the centre
        let trans = mc * (3.0 * r * r + h * h) / 12.0 + ms * (0.4 * r * r + 0.25 * h * h + 0.375 * h * r);
        Inertia::diagonal(trans, trans, axial)
    }

    /// The matrix.
    pub fn matrix(&self) -> &M3 {
        &self.0
    }

    /// Row-major copy (the C layout).
    pub fn rows(&self) -> [f64; 9] {
        let mut r = [0.0; 9];
        for (k, v) in r.iter_mut().enumerate() {
            *v = self.0[(k / 3, k % 3)];
        }
        r
    }
}

/// Whether the principal moments of `j` violate the triangle inequality: the largest
/// exceeds the sum of the other two by more than round-off (1e-6 relative; a thin disc,
/// where they are equal, is the limit).
pub fn violates_triangle_inequality(j: &M3) -> bool {
    let e = (0.5 * (j + j.transpose())).symmetric_eigenvalues();
    let mut m = [e[0], e[1], e[2]];
    m.sort_by(f64::total_cmp);
    m[2] > (m[0] + m[1]) * (1.0 + 1e-6) + 1e-12 * m[2].abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip_and_validation() {
        let rows = [0.3, 0.01, 0.0, 0.01, 0.2, 0.0, 0.0, 0.0, 0.15];
        assert_eq!(Inertia::from_rows(rows).unwrap().rows(), rows);
        let mut asym = rows;
        asym[1] = 0.02;
        assert_eq!(Inertia::from_rows(asym), Err(Error::InvalidInertia("not symmetric".into())));
        assert_eq!(Inertia::diagonal(1.0, -1.0, 1.0), Err(Error::InvalidInertia("not positive definite".into())));
        assert_eq!(Inertia::diagonal(1.0, f64::NAN, 1.0), Err(Error::NonFinite("inertia")));
        assert!(Inertia::sphere(1.0, 0.0).is_err());
        // no rigid body has diag(1, 1, 3); a thin disc, diag(1, 1, 2), is the limit
        assert!(matches!(Inertia::diagonal(1.0, 1.0, 3.0), Err(Error::InvalidInertia(m)) if m.contains("triangle")));
        assert!(Inertia::diagonal(1.0, 1.0, 2.0).is_ok());
    }

    #[test]
    fn shapes_have_their_textbook_moments() {
        // sphere 2/5 m r², cuboid m (b² + c²)/12, cylinder m r²/2 axially
        assert_eq!(Inertia::sphere(2.0, 0.5).unwrap().matrix()[(1, 1)], 0.2);
        assert!((Inertia::cuboid(12.0, 1.0, 2.0, 3.0).unwrap().matrix()[(0, 0)] - 13.0).abs() < 1e-15);
        assert_eq!(Inertia::cylinder(2.0, 1.0, 1.0).unwrap().matrix()[(2, 2)], 1.0);
        // a capsule with h = 0 is a sphere
        let c = Inertia::capsule(1.0, 0.3, 0.0).unwrap();
        assert!((c.matrix() - Inertia::sphere(1.0, 0.3).unwrap().matrix()).abs().max() < 1e-15);
    }
}
