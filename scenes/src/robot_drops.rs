//! The floating robots of the example-robot-data corpus dropped limp onto the ground: each
//! with its collision shapes, a ground plane and its joint limits, its joints at zero (or
//! mid-range where the limits exclude zero, mimics on their rule), lifted so that its
//! lowest shape starts 0.2 m above the ground. A robot that falls over and lies on the
//! floor is a pile of links: statically indeterminate contacts, limits and impacts at once.

use crate::heights::lowest;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};
use std::sync::Arc;

/// The corpus's legged and humanoid robots, under `robots/` of the installed package.
pub const FLOATING_ROBOTS: &[&str] = &[
    "a1_description/urdf/a1.urdf",
    "anymal_b_simple_description/robots/anymal.urdf",
    "anymal_c_simple_description/urdf/anymal.urdf",
    "b1_description/urdf/b1.urdf",
    "bolt_description/robots/bolt.urdf",
    "centauro_description/urdf/centauro.urdf",
    "g1_description/urdf/g1_29dof_rev_1_0.urdf",
    "go1_description/urdf/go1.urdf",
    "go2_description/urdf/go2.urdf",
    "hyq_description/robots/hyq_no_sensors.urdf",
    "laikago_description/urdf/laikago.urdf",
    "romeo_description/urdf/romeo_small.urdf",
    "simple_humanoid_description/urdf/simple_humanoid.urdf",
    "solo_description/robots/solo.urdf",
    "solo_description/robots/solo12.urdf",
    "talos_data/robots/talos_full_v2.urdf",
    "talos_data/robots/talos_reduced.urdf",
];

/// The robot of `urdf` ready to drop at `dt` (see the module docs).
pub fn limp_drop(urdf: &str, dt: f64) -> Result<Sim, maxdyn::Error> {
    limp_drop_colliding(urdf, None, dt)
}

/// [`limp_drop`], and with `srdf` the robot's links also collide with each other except
/// for the pairs the SRDF's `<disable_collisions>` exclude.
pub fn limp_drop_colliding(urdf: &str, srdf: Option<&str>, dt: f64) -> Result<Sim, maxdyn::Error> {
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, self_collision: srdf.is_some(), ..UrdfOptions::default() };
    let mut u = Urdf::from_file_with(urdf, &options)?;
    if let Some(srdf) = srdf {
        u.apply_srdf_file(srdf)?;
    }
    let model = Arc::new(Model::new(&u.builder)?);
    let mut sim = Sim::new(model.clone(), dt)?;
    for l in u.builder.joint_limits() {
        if !(l.lower <= 0.0 && 0.0 <= l.upper) {
            let q = match (l.lower.is_finite(), l.upper.is_finite()) {
                (true, true) => 0.5 * (l.lower + l.upper),
                (true, false) => l.lower + 0.1,
                _ => l.upper - 0.1,
            };
            sim.set_joint_position(l.joint, &[q])?;
        }
    }
    for m in u.builder.mimics() {
        let mut q = [0.0];
        sim.joint_position(m.leader, &mut q)?;
        sim.set_joint_position(m.follower, &[m.multiplier * q[0] + m.offset])?;
    }
    let lift = 0.2 - lowest(&model, &sim);
    for b in 0..model.body_count() {
        let mut s = sim.body_state(b)?;
        s[2] += lift;
        sim.set_body_state(b, &s)?;
    }
    Ok(sim)
}

/// Steps `seconds` with no input; the first failed step, if any.
pub fn limp_rollout(sim: &mut Sim, seconds: f64) -> Option<usize> {
    (0..(seconds / sim.dt()).round() as usize).find(|_| sim.step().is_err())
}
