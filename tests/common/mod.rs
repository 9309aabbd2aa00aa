//! Shared builders and scenes for the integration tests.
#![allow(dead_code)]

mod c_artifacts;
pub mod require;
#[allow(unused_imports)]
pub use c_artifacts::*;

use maxdyn::{BodyId, Builder, ConeType, Inertia, JointType, Model, Parent, Sim};
use std::sync::Arc;

pub fn box_body(b: &mut Builder, m: f64, x: f64, y: f64, z: f64) -> BodyId {
    b.add_body(m, Inertia::cuboid(m, x, y, z).unwrap()).unwrap()
}

pub fn cylinder_body(b: &mut Builder, m: f64, r: f64, h: f64) -> BodyId {
    b.add_body(m, Inertia::cylinder(m, r, h).unwrap()).unwrap()
}

pub fn sim(b: &Builder, dt: f64) -> Sim {
    Sim::new(Arc::new(Model::new(b).unwrap()), dt).unwrap()
}

/// A wheel (1 kg, vertical axis, no load about it) spinning at 10 rad/s toward its joint
/// limit at 2π + 1 rad, dt 1e-3: (sim, joint, limit).
pub fn spinning_wheel() -> (Sim, usize, f64) {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.2).unwrap()).unwrap();
    let j = b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    let top = 2.0 * std::f64::consts::PI + 1.0;
    b.set_joint_limits(j, &[f64::NEG_INFINITY], &[top]).unwrap();
    let mut s = sim(&b, 1e-3);
    s.set_joint_velocity(j, &[10.0]).unwrap();
    (s, j, top)
}

/// SCENARIOS A2: two Box(0.1,0.1,0.1,1) at 1 m, revolute about x, both horizontal.
pub fn double_pendulum(dt: f64) -> Sim {
    maxdyn_scenes::double_pendulum::sim(dt)
}

/// SCENARIOS B1: n links Cylinder(0.05, 1, 1) hanging along −z, first link at π/4.
pub fn chain(n: usize, kind: JointType, dt: f64) -> Sim {
    let mut b = Builder::new();
    let mut parent = Parent::World;
    for i in 0..n {
        let c = cylinder_body(&mut b, 1.0, 0.05, 1.0);
        let pp = if i == 0 { [0.0; 3] } else { [0.0, 0.0, -0.5] };
        b.add_joint(kind, parent, c, pp, [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        parent = Parent::Body(c);
    }
    let mut s = sim(&b, dt);
    let q0: Vec<f64> = match kind {
        JointType::Revolute => vec![std::f64::consts::FRAC_PI_4],
        _ => vec![std::f64::consts::FRAC_PI_4, 0.0, 0.0],
    };
    s.set_joint_position(0, &q0).unwrap();
    s
}

// ---- contact scenes

/// A cube of edge `a` and mass `m` with contacts at `corners` (body frame) against the plane
/// through the origin with normal `n`, placed resting on it (bottom face on the plane) and
/// then lifted by `lift` along the normal. Returns (builder, body, contacts).
pub fn box_on_plane(a: f64, m: f64, corners: &[[f64; 3]], n: [f64; 3], mu: f64, lift: f64) -> (Builder, usize, Vec<usize>) {
    let mut b = Builder::new();
    let body = b.add_body(m, Inertia::cuboid(m, a, a, a).unwrap()).unwrap();
    // rotate body z onto n (rotation about z × n)
    let nv = maxdyn::math::V3::from(n).normalize();
    let axis = maxdyn::math::V3::z().cross(&nv);
    let q = if axis.norm() < 1e-15 {
        [1.0, 0.0, 0.0, 0.0]
    } else {
        let q = maxdyn::math::from_rotation_vector(&(axis.normalize() * nv.z.acos()));
        [q[0], q[1], q[2], q[3]]
    };
    let x = nv * (0.5 * a + lift);
    b.set_body_pose(body, [x.x, x.y, x.z], q).unwrap();
    let cs = corners.iter().map(|p| b.add_plane_contact(body, *p, 0.0, n, 0.0, mu).unwrap()).collect();
    (b, body, cs)
}

pub fn all_corners(h: f64) -> Vec<[f64; 3]> {
    let mut v = Vec::new();
    for sx in [-h, h] {
        for sy in [-h, h] {
            for sz in [-h, h] {
                v.push([sx, sy, sz]);
            }
        }
    }
    v
}

pub fn bottom_corners(h: f64) -> Vec<[f64; 3]> {
    vec![[-h, -h, -h], [h, -h, -h], [-h, h, -h], [h, h, -h]]
}

pub fn set_cone(b: &mut Builder, contacts: &[usize], cone: ConeType, dirs: usize) {
    for &c in contacts {
        b.set_contact_cone(c, cone, dirs).unwrap();
    }
}


/// Smallest gap over the contacts at the current state.
pub fn min_gap(s: &Sim, contacts: &[usize]) -> f64 {
    contacts.iter().map(|&c| s.contact(c).unwrap().gap).fold(f64::INFINITY, f64::min)
}

/// SCENARIOS B2 with its friction 1 and the linear cone (see `maxdyn_scenes::mechanisms`).
pub fn sphere_chain(n: usize) -> (Builder, Vec<usize>) {
    maxdyn_scenes::mechanisms::sphere_chain(n, 1.0, ConeType::Linear)
}

/// Three spheres (r = 0.25, m = 1) stacked on the ground, each resting on the one below,
/// sphere–sphere contacts between neighbours and a ground contact under the bottom one.
pub fn sphere_stack(mu: f64) -> (Builder, Vec<usize>) {
    let r = 0.25;
    let mut b = Builder::new();
    let mut contacts = Vec::new();
    for i in 0..3 {
        let body = b.add_body(1.0, Inertia::sphere(1.0, r).unwrap()).unwrap();
        b.set_body_pose(body, [0.0, 0.0, r + 2.0 * r * i as f64], [1.0, 0.0, 0.0, 0.0]).unwrap();
        if i == 0 {
            contacts.push(b.add_ground_contact(0, [0.0; 3], r, mu).unwrap());
        } else {
            contacts.push(b.add_sphere_contact(i, [0.0; 3], r, i - 1, [0.0; 3], r, mu).unwrap());
        }
    }
    (b, contacts)
}
