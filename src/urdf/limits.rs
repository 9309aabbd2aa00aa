//! `<limit>` and `<mimic>` → the builder's joint limits and mimics.
//!
//! A revolute or prismatic joint's `lower`/`upper` bound its coordinate; `continuous`
//! joints have none. `lower == upper == 0` is how many files say "no limit" (the URDF
//! defaults), so it is read as no limit with a warning, as other loaders do. A `<mimic>`
//! on a joint makes it follow its leader once every joint exists; a mimic whose joint
//! is not in the model (a fixed joint, or one dropped with a massless subtree) is left
//! out with a warning. A follower's limits become its leader's (see
//! [`fold_follower_limits`]).

use super::parse::Description;
use super::{refused_by_builder, Urdf};
use crate::model::Result;

/// Sets the limits (when `with_limits`) and mimics of `d`'s joints on `u.builder`.
pub fn apply(u: &mut Urdf, d: &Description, with_limits: bool) -> Result<()> {
    for j in d.joints.iter().filter(|_| with_limits) {
        let (Some(limit), Some(id)) = (j.limit, u.joints.get(&j.name).copied()) else { continue };
        if limit.lower == 0.0 && limit.upper == 0.0 {
            u.warnings.push(format!("joint `{}`: <limit lower=\"0\" upper=\"0\"> is read as no limit", j.name));
            continue;
        }
        u.builder.set_joint_limits(id, &[limit.lower], &[limit.upper]).map_err(|e| refused_by_builder(&format!("joint `{}` <limit>", j.name), e))?;
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
        u.builder.add_mimic(follower, leader, m.multiplier, m.offset).map_err(|e| refused_by_builder(&what, e))?;
        fold_follower_limits(u, follower, leader, m.multiplier, m.offset, &what)?;
    }
    Ok(())
}

/// A mimic follower's coordinate is its leader's, mapped: its own limits bound the
/// leader, q_l ∈ ([lower, upper] − offset) / multiplier. They move onto the leader,
/// intersected with the leader's limits, and leave the follower (one inequality per
/// bound, never two copies of one). Files do not always agree with themselves: PR2's
/// gripper has a follower with multiplier −1 and limits [0, 0.548] on a leader limited to
/// [0, 0.548], which pins the leader at 0 — two inequalities with no room between them,
/// which no interior point can start from. Such a follower's limits are dropped with a
/// warning and the leader keeps its own.
fn fold_follower_limits(u: &mut Urdf, follower: usize, leader: usize, multiplier: f64, offset: f64, what: &str) -> Result<()> {
    let bounds = |u: &Urdf, joint: usize| u.builder.joint_limits().iter().find(|l| l.joint == joint).map(|l| (l.lower, l.upper));
    let Some((lo_f, hi_f)) = bounds(u, follower) else { return Ok(()) };
    let (inf, neg) = (f64::INFINITY, f64::NEG_INFINITY);
    let free = |u: &mut Urdf, joint: usize| u.builder.set_joint_limits(joint, &[neg], &[inf]);
    free(u, follower).map_err(|e| refused_by_builder(what, e))?;
    if multiplier == 0.0 {
        return Ok(());
    }
    let (a, b) = ((lo_f - offset) / multiplier, (hi_f - offset) / multiplier);
    let (lo_l, hi_l) = bounds(u, leader).unwrap_or((neg, inf));
    let (lo, hi) = (lo_l.max(a.min(b)), hi_l.min(a.max(b)));
    let width = (hi - lo) / (1.0 + lo.abs().max(hi.abs()).min(1e300));
    if !(width > 1e-9) {
        u.warnings.push(format!("{what}: the follower's limits [{lo_f}, {hi_f}] leave its leader no room within [{lo_l}, {hi_l}]; only the leader's limits are kept"));
        return Ok(());
    }
    u.builder.set_joint_limits(leader, &[lo], &[hi]).map_err(|e| refused_by_builder(what, e))
}
