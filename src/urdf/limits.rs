//! `<limit>` and `<mimic>` → the builder's joint limits and mimics.
//!
//! A revolute or prismatic joint's `lower`/`upper` bound its coordinate; `continuous`
//! joints have none. `lower == upper == 0` is how many files say "no limit" (the URDF
//! defaults), so it is read as no limit with a warning, as other loaders do. A `<mimic>`
//! on a joint makes it follow its leader once every joint exists; a mimic whose joint
//! is not in the model (a fixed joint, or one dropped with a massless subtree) is left
//! out with a warning.

use super::parse::Description;
use super::Urdf;
use crate::model::{Error, Result};

fn err(msg: String) -> Error {
    Error::Urdf(msg)
}

/// Sets the limits and mimics of `d`'s joints on `u.builder`.
pub fn apply(u: &mut Urdf, d: &Description) -> Result<()> {
    for j in &d.joints {
        let (Some(limit), Some(id)) = (j.limit, u.joints.get(&j.name).copied()) else { continue };
        if limit.lower == 0.0 && limit.upper == 0.0 {
            u.warnings.push(format!("joint `{}`: <limit lower=\"0\" upper=\"0\"> is read as no limit", j.name));
            continue;
        }
        u.builder.set_joint_limits(id, &[limit.lower], &[limit.upper]).map_err(|e| err(format!("joint `{}` <limit>: {e}", j.name)))?;
    }
    for j in &d.joints {
        let Some(m) = &j.mimic else { continue };
        let what = format!("joint `{}` <mimic joint=\"{}\">", j.name, m.leader);
        if !d.joints.iter().any(|k| k.name == m.leader) {
            u.warnings.push(format!("{what}: not applied, the file has no joint `{}`", m.leader));
            continue;
        }
        let (Some(follower), Some(leader)) = (u.joints.get(&j.name).copied(), u.joints.get(&m.leader).copied()) else {
            u.warnings.push(format!("{what}: not applied, one of the two joints is not a joint of the model (fixed, or dropped as massless)"));
            continue;
        };
        let dof = |id| u.builder.joint(id).map(|j| j.dof()).unwrap_or(0);
        if dof(follower) != 1 || dof(leader) != 1 {
            u.warnings.push(format!("{what}: not applied, a mimic joins two one-coordinate joints (revolute, continuous, prismatic)"));
            continue;
        }
        u.builder.add_mimic(follower, leader, m.multiplier, m.offset).map_err(|e| err(format!("{what}: {e}")))?;
    }
    Ok(())
}
