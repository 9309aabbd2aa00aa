//! Lower bounds on links' masses and principal moments ([`UrdfOptions::bound_mass`],
//! [`UrdfOptions::bound_inertia`]), as MuJoCo's compiler offers `boundmass` and
//! `boundinertia` for models whose files carry defects: a principal moment of −3.5e-8
//! kg·m² (tiago's antennas), point masses that are bodies of their own (icub_reduced's
//! right hip). Off by default (0); when on, each link with an `<inertial>` whose mass or
//! principal moments lie below the bound is raised to it (the principal axes kept), with
//! one warning naming the link, what it had and the bound. Links without `<inertial>`
//! (massless frames) are left as they are: they are frames, composed or left out exactly.

use super::parse::Description;
use crate::math::{M3, V3};
use crate::model::{Error, Result};

/// Checks the two bounds (finite, ≥ 0; 0 is off), naming the option.
pub fn check(bound_mass: f64, bound_inertia: f64) -> Result<()> {
    for (name, v) in [("bound_mass", bound_mass), ("bound_inertia", bound_inertia)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(Error::InvalidArgument(name, format!("{v} must be finite and ≥ 0 (0: no bound)")));
        }
    }
    Ok(())
}

/// Raises the masses and principal moments of `d`'s links below the bounds (0: none);
/// returns one warning per link raised.
pub fn raise(d: &mut Description, bound_mass: f64, bound_inertia: f64) -> Vec<String> {
    let mut warnings = Vec::new();
    for link in &mut d.links {
        let Some(inertial) = link.inertial.as_mut() else { continue };
        let mut raised = Vec::new();
        if inertial.mass < bound_mass {
            raised.push(format!("mass {:e} kg raised to {bound_mass:e} (bound_mass)", inertial.mass));
            inertial.mass = bound_mass;
        }
        if bound_inertia > 0.0 {
            let eig = (0.5 * (inertial.inertia + inertial.inertia.transpose())).symmetric_eigen();
            let low: Vec<String> = eig.eigenvalues.iter().filter(|&&m| m < bound_inertia).map(|m| format!("{m:.3e}")).collect();
            if !low.is_empty() {
                let moments = V3::from_iterator(eig.eigenvalues.iter().map(|&m| m.max(bound_inertia)));
                let v = eig.eigenvectors;
                let j: M3 = v * M3::from_diagonal(&moments) * v.transpose();
                inertial.inertia = 0.5 * (j + j.transpose());
                raised.push(format!("principal moment(s) {} kg·m² raised to {bound_inertia:e} (bound_inertia)", low.join(", ")));
            }
        }
        if !raised.is_empty() {
            warnings.push(format!("link `{}`: {}", link.name, raised.join("; ")));
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::joints::constraint::Pose;
    use crate::math::IDENTITY;
    use crate::urdf::parse::{Inertial, Link};

    fn link(name: &str, mass: f64, inertia: M3) -> Link {
        Link { name: name.into(), inertial: Some(Inertial { frame: Pose { x: V3::zeros(), q: IDENTITY }, mass, inertia }) }
    }

    #[test]
    fn moments_below_the_bound_are_raised_about_their_axes() {
        // principal moments (−1e-8, 2e-6, 3e-6) about axes turned 0.4 rad about z
        let (c, s) = (0.4f64.cos(), 0.4f64.sin());
        let r = M3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
        let j = r * M3::from_diagonal(&V3::new(-1e-8, 2e-6, 3e-6)) * r.transpose();
        let mut d = Description { links: vec![link("tilted", 0.5, j), link("fine", 1.0, M3::identity()), Link { name: "frame".into(), inertial: None }], ..Default::default() };
        let w = raise(&mut d, 0.8, 2.5e-6);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].starts_with("link `tilted`: mass 5e-1 kg raised to 8e-1 (bound_mass); principal moment(s) ") && w[0].contains("-1.000e-8") && w[0].contains("2.000e-6"), "{}", w[0]);
        let got = d.links[0].inertial.as_ref().unwrap();
        let want = r * M3::from_diagonal(&V3::new(2.5e-6, 2.5e-6, 3e-6)) * r.transpose();
        assert_eq!(got.mass, 0.8);
        assert!((got.inertia - want).abs().max() < 1e-21, "{:?}", got.inertia);
        assert_eq!(d.links[1].inertial.as_ref().unwrap().inertia, M3::identity());
        assert!(d.links[2].inertial.is_none(), "a massless frame stays one");
    }

    #[test]
    fn off_changes_nothing_and_bad_bounds_are_refused() {
        let mut d = Description { links: vec![link("point", 1.0, M3::zeros())], ..Default::default() };
        assert!(raise(&mut d, 0.0, 0.0).is_empty());
        assert_eq!(d.links[0].inertial.as_ref().unwrap().inertia, M3::zeros());
        assert!(check(0.0, 0.0).is_ok());
        assert!(check(-1.0, 0.0).unwrap_err().to_string().contains("bound_mass"));
        assert!(check(0.0, f64::NAN).unwrap_err().to_string().contains("bound_inertia"));
    }
}
