//! Shared by the issue-13 query tests: the robots (panda from the corpus, A1 fixed or with
//! a floating joint to the world), a generic pose, and forward kinematics from joint
//! coordinates with a perturbation along one minimal velocity.
#![allow(dead_code)]

use std::sync::Arc;

use maxdyn::joints::constraint::Pose;
use maxdyn::math::{from_rotation_vector, qmul, rotation_vector, V3};
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{JointType, Model, Parent, Sim};

#[path = "require.rs"]
mod require;

pub const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf");
pub const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/a1_unitree_ros.urdf");

/// Central-difference step: truncation ε² ≈ 1e-11, round-off 1e-16/ε ≈ 1e-11.
pub const EPS: f64 = 1e-5;

/// A sim of `model` with every tree joint at a generic coordinate (a fixed sequence).
pub fn posed(model: Arc<Model>) -> Sim {
    let mut sim = Sim::new(model.clone(), 1e-3).unwrap();
    let mut k: f64 = 0.0;
    for &j in &model.tree_order {
        let n = model.joints[j].dof();
        let c: Vec<f64> = (0..n)
            .map(|_| {
                k += 1.0;
                0.3 * (1.7 * k).sin()
            })
            .collect();
        sim.set_joint_position(j, &c).unwrap();
    }
    sim
}

/// Poses of every body from the tree joints' coordinates `c` (per joint); bodies no tree
/// joint places keep their poses in `sim`.
pub fn forward(model: &Model, sim: &Sim, c: &[Vec<f64>]) -> Vec<Pose> {
    let mut z: Vec<Pose> = (0..model.body_count())
        .map(|b| {
            let s = sim.body_state(b).unwrap();
            Pose { x: V3::new(s[0], s[1], s[2]), q: maxdyn::math::V4::new(s[3], s[4], s[5], s[6]) }
        })
        .collect();
    for &ji in &model.tree_order {
        let j = &model.joints[ji];
        let a = j.parent.map_or(Pose::WORLD, |p| z[p]);
        z[j.child] = j.child_pose(&a, &c[ji]);
    }
    z
}

/// Coordinates of joint `ji` moved by a rate `h` in its free direction `k`.
pub fn moved(model: &Model, c: &[Vec<f64>], ji: usize, k: usize, h: f64) -> Vec<Vec<f64>> {
    let mut c = c.to_vec();
    let j = &model.joints[ji];
    let nt = j.ct.len;
    if k < nt || j.cr.len == 1 {
        c[ji][k] += h;
    } else {
        assert_eq!(j.cr.len, 3, "the test perturbs one or three free rotations");
        let cr = j.cr.as_slice();
        let rv: V3 = (0..3).map(|i| cr[i] * c[ji][nt + i]).sum();
        let turned = rotation_vector(&qmul(&from_rotation_vector(&(cr[k - nt] * h)), &from_rotation_vector(&rv)));
        for i in 0..3 {
            c[ji][nt + i] = cr[i].dot(&turned);
        }
    }
    c
}

pub fn a1(floating: bool) -> Arc<Model> {
    let mut u = Urdf::from_file_with(A1, &UrdfOptions { floating, joint_limits: false, ..UrdfOptions::default() }).unwrap();
    if floating {
        let is_child = |b: usize| (0..u.builder.joint_count()).any(|j| u.builder.joint(j).unwrap().child == b);
        let root = (0..u.builder.body_count()).find(|&b| !is_child(b)).unwrap();
        u.builder.add_joint(JointType::Floating, Parent::World, root, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    }
    Arc::new(Model::new(&u.builder).unwrap())
}


/// The panda (fixed base, fixed links merged); None when `test` is skipped without the corpus.
pub fn panda(test: &str) -> Option<Arc<Model>> {
    if !require::corpus(test, PANDA) {
        return None;
    }
    Some(Arc::new(Model::new(&Urdf::from_file(PANDA, false).unwrap().builder).unwrap()))
}

/// Every joint's coordinates in `sim`.
pub fn coordinates(sim: &Sim) -> Vec<Vec<f64>> {
    let model = sim.model();
    (0..model.joint_count())
        .map(|j| {
            let mut v = vec![0.0; model.joints[j].dof()];
            sim.joint_position(j, &mut v).unwrap();
            v
        })
        .collect()
}
