//! Shared builders for the integration tests.
#![allow(dead_code)]

use maxdyn::model::{box_inertia, cylinder_inertia};
use maxdyn::{Builder, JointType, Model, Sim, WORLD};
use std::sync::Arc;

pub fn flat(m: nalgebra::Matrix3<f64>) -> [f64; 9] {
    let mut a = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            a[r * 3 + c] = m[(r, c)];
        }
    }
    a
}

pub fn box_body(b: &mut Builder, m: f64, x: f64, y: f64, z: f64) -> i32 {
    b.add_body(m, flat(box_inertia(m, x, y, z))).unwrap() as i32
}

pub fn cylinder_body(b: &mut Builder, m: f64, r: f64, h: f64) -> i32 {
    b.add_body(m, flat(cylinder_inertia(m, r, h))).unwrap() as i32
}

pub fn sim(b: &Builder, dt: f64) -> Sim {
    Sim::new(Arc::new(Model::new(b).unwrap()), dt).unwrap()
}

/// SCENARIOS A2: two Box(0.1,0.1,0.1,1) at 1 m, revolute about x, both horizontal.
pub fn double_pendulum(dt: f64) -> Sim {
    let mut b = Builder::new();
    let b1 = box_body(&mut b, 1.0, 0.1, 0.1, 0.1);
    let b2 = box_body(&mut b, 1.0, 0.1, 0.1, 0.1);
    let x = [1.0, 0.0, 0.0];
    let j1 = b.add_joint(JointType::Revolute, WORLD, b1, [0.0; 3], [0.0, 0.0, 1.0], x).unwrap();
    b.add_joint(JointType::Revolute, b1, b2, [0.0; 3], [0.0, 0.0, 1.0], x).unwrap();
    let mut s = sim(&b, dt);
    s.set_joint_position(j1, &[std::f64::consts::FRAC_PI_2]).unwrap();
    s
}

/// SCENARIOS B1: n links Cylinder(0.05, 1, 1) hanging along −z, first link at π/4.
pub fn chain(n: usize, kind: JointType, dt: f64) -> Sim {
    let mut b = Builder::new();
    let mut parent = WORLD;
    for i in 0..n {
        let c = cylinder_body(&mut b, 1.0, 0.05, 1.0);
        let pp = if i == 0 { [0.0; 3] } else { [0.0, 0.0, -0.5] };
        b.add_joint(kind, parent, c, pp, [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
        parent = c;
    }
    let mut s = sim(&b, dt);
    let q0: Vec<f64> = match kind {
        JointType::Revolute => vec![std::f64::consts::FRAC_PI_4],
        _ => vec![std::f64::consts::FRAC_PI_4, 0.0, 0.0],
    };
    s.set_joint_position(0, &q0).unwrap();
    s
}
