//! Kinematics (issue 13 part 1) against central differences of forward kinematics: the
//! minimal-velocity Jacobian of every named frame (merged URDF links included) and of a
//! point on every body, on the Franka panda (fixed base) and the A1 quadruped with a
//! fixed and with a floating base (a floating joint to the world), at a generic
//! configuration. Forward kinematics here is `Joint::child_pose` along the spanning tree
//! from the joint coordinates; a unit rate of a joint with three free rotations turns the
//! child about the parent-frame axis (the module's convention), so its perturbation is
//! exp(±ε c_k) ⊗ rel.

use maxdyn::joints::constraint::Pose;
use maxdyn::math::{conj, qmul, rotation, rotation_vector, V3};
use maxdyn::{Axes, Coords, Sim, Target};

#[path = "common/queries.rs"]
mod queries;
use queries::*;

/// Largest |J − J_fd| over the max |J| for every target of the model, both axes.
fn worst_relative_error(sim: &Sim) -> f64 {
    let model = sim.model().clone();
    let n = model.minimal_velocity_count();
    let c = coordinates(sim);
    let mut targets: Vec<Target> = (0..model.frames.len()).map(Target::Frame).collect();
    targets.extend((0..model.body_count()).map(|b| Target::Point { body: b, point: [0.05, -0.03, 0.02] }));
    let pose_at = |z: &[Pose], t: Target| -> Pose {
        let (body, off) = match t {
            Target::Frame(f) => (model.frames[f].body, Pose { x: model.frames[f].x, q: model.frames[f].q }),
            Target::Point { body, point } => (Some(body), Pose { x: V3::from(point), q: maxdyn::math::IDENTITY }),
            Target::Body(b) => (Some(b), Pose { x: V3::zeros(), q: maxdyn::math::IDENTITY }),
        };
        let p = body.map_or(Pose::WORLD, |b| z[b]);
        Pose { x: p.x + rotation(&p.q) * off.x, q: qmul(&p.q, &off.q) }
    };
    let tree: Vec<bool> = (0..model.joint_count()).map(|j| model.tree_parent[model.joints[j].child] == Some(j)).collect();
    let mut worst: f64 = 0.0;
    for &t in &targets {
        let (mut jw, mut jl) = (vec![0.0; 6 * n], vec![0.0; 6 * n]);
        sim.jacobian(t, Axes::World, Coords::Minimal, &mut jw).unwrap();
        sim.jacobian(t, Axes::Local, Coords::Minimal, &mut jl).unwrap();
        let scale = jw.iter().fold(1e-300_f64, |m, x| m.max(x.abs()));
        let p0 = sim.target_pose(t).unwrap();
        let r0 = rotation(&maxdyn::math::V4::new(p0[3], p0[4], p0[5], p0[6]));
        let mut col = 0;
        for ji in 0..model.joint_count() {
            for k in 0..model.joints[ji].dof() {
                let mut fd = [0.0; 6];
                if tree[ji] {
                    let (pp, pm) = (pose_at(&forward(&model, sim, &moved(&model, &c, ji, k, EPS)), t), pose_at(&forward(&model, sim, &moved(&model, &c, ji, k, -EPS)), t));
                    let v = (pp.x - pm.x) / (2.0 * EPS);
                    let w = rotation_vector(&qmul(&pp.q, &conj(&pm.q))) / (2.0 * EPS);
                    fd = [v.x, v.y, v.z, w.x, w.y, w.z];
                }
                for i in 0..6 {
                    worst = worst.max((jw[i * n + col] - fd[i]).abs() / scale);
                }
                let (vl, wl) = (r0.transpose() * V3::new(fd[0], fd[1], fd[2]), r0.transpose() * V3::new(fd[3], fd[4], fd[5]));
                for i in 0..3 {
                    worst = worst.max((jl[i * n + col] - vl[i]).abs() / scale).max((jl[(i + 3) * n + col] - wl[i]).abs() / scale);
                }
                col += 1;
            }
        }
    }
    worst
}

/// The bar is 1e-7; measured 8.8e-12 (fixed base), 1.6e-11 (floating base).
#[test]
fn a1_jacobians_match_central_differences_fixed_and_floating_base() {
    for floating in [false, true] {
        let model = a1(floating);
        assert_eq!(model.minimal_velocity_count(), if floating { 18 } else { 12 });
        let e = worst_relative_error(&posed(model));
        println!("A1 floating {floating}: worst relative error {e:.2e}");
        assert!(e < 2e-10, "{e}");
    }
}

/// The bar is 1e-7; measured 2.2e-11.
#[test]
fn panda_jacobians_match_central_differences() {
    let Some(model) = panda("panda_jacobians_match_central_differences") else { return };
    assert!(model.frames.iter().any(|f| f.name == "panda_hand"), "the hand is a merged link frame");
    let e = worst_relative_error(&posed(model));
    println!("panda: worst relative error {e:.2e}");
    assert!(e < 2e-10, "{e}");
}
