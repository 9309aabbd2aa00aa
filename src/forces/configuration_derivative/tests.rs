//! The blocks against central differences of `forces::add_step_residual` over each body's
//! pose z_{k+1} (G and the placements recomputed), on a tree of every joint type that
//! carries force elements, each element kind alone (so that none hides under another's
//! scale) and all together.

use super::*;
use crate::forces::add_step_residual;
use crate::joints::tangent::tests::Rng;
use crate::joints::JointType;
use crate::math::{from_rotation_vector, qmul, V3};
use crate::model::{Builder, Inertia, Parent};

/// Which element kinds the test model carries.
#[derive(Clone, Copy)]
struct Kinds {
    springs: bool,
    dampers: bool,
    point_springs: bool,
    inputs: bool,
    wrenches: bool,
}

const ALL: Kinds = Kinds { springs: true, dampers: true, point_springs: true, inputs: true, wrenches: true };
const NONE: Kinds = Kinds { springs: false, dampers: false, point_springs: false, inputs: false, wrenches: false };

fn arr(v: V3) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// Joint types with their parent (None: the world), in body order.
const TREE: [(JointType, Option<usize>); 8] = [
    (JointType::Revolute, None),
    (JointType::Prismatic, Some(0)),
    (JointType::Cylindrical, Some(1)),
    (JointType::Spherical, Some(0)),
    (JointType::Floating, None),
    (JointType::Universal, Some(3)),
    (JointType::CylindricalFree, Some(4)),
    (JointType::PlanarAxis, Some(2)),
];

/// The model, its inputs, a step frame at random poses z_{k+1} (relative rotations
/// below 2.3 rad, inside the rotation-vector chart) and random step unknowns.
fn setup(kinds: Kinds, seed: u64) -> (Model, Inputs, StepFrame, Vec<f64>) {
    let mut rng = Rng(seed);
    let mut b = Builder::new();
    for (i, (kind, parent)) in TREE.into_iter().enumerate() {
        b.add_body(1.0 + i as f64, Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
        let parent = parent.map_or(Parent::World, Parent::Body);
        let (pp, pc, axis) = (arr(rng.v3(0.5)), arr(rng.v3(0.5)), rng.v3(1.0));
        let j = if kind == JointType::Universal {
            let second = axis.cross(&rng.v3(1.0));
            b.add_universal_joint(parent, i, pp, pc, arr(axis), arr(second)).unwrap()
        } else {
            b.add_joint(kind, parent, i, pp, pc, arr(axis)).unwrap()
        };
        let q = from_rotation_vector(&rng.v3(0.3));
        b.set_joint_offset(j, [q[0], q[1], q[2], q[3]]).unwrap();
        let n = b.joint(j).unwrap().dof();
        if kinds.springs {
            let k: Vec<f64> = (0..n).map(|_| 1.0 + rng.next()).collect();
            let rest: Vec<f64> = (0..n).map(|_| 0.4 * rng.next()).collect();
            b.set_joint_spring(j, &k, &rest).unwrap();
        }
        if kinds.dampers {
            let c: Vec<f64> = (0..n).map(|_| 1.0 + rng.next()).collect();
            b.set_joint_damper(j, &c).unwrap();
        }
    }
    if kinds.point_springs {
        // between bodies, from a world point, and one without damping
        b.add_spring(Parent::Body(1), arr(rng.v3(0.3)), 4, arr(rng.v3(0.3)), 2.0, 0.7, 0.5).unwrap();
        b.add_spring(Parent::World, arr(rng.v3(1.0)), 2, arr(rng.v3(0.3)), 1.5, 0.4, 0.2).unwrap();
        b.add_spring(Parent::Body(5), arr(rng.v3(0.3)), 0, arr(rng.v3(0.3)), 3.0, 0.0, 1.0).unwrap();
    }
    let model = Model::new(&b).unwrap();
    let nb = model.body_count();
    let mut inputs = Inputs::new(&model);
    if kinds.inputs {
        for (ji, u) in inputs.joint_input.iter_mut().enumerate() {
            for x in u.iter_mut().take(model.joints[ji].dof()) {
                *x = rng.next();
            }
        }
    }
    if kinds.springs || kinds.dampers {
        // servo targets away from the model's rest and at rate
        for (ji, t) in inputs.joint_target.iter_mut().enumerate() {
            for i in 0..model.joints[ji].dof() {
                t.position[i] += 0.2 * rng.next();
                t.velocity[i] = rng.next();
            }
        }
    }
    if kinds.wrenches {
        for i in 0..nb {
            (inputs.force[i], inputs.torque[i], inputs.force_point[i]) = (rng.v3(2.0), rng.v3(1.0), rng.v3(0.5));
        }
    }
    let mut frame = StepFrame::new(nb, 0.01);
    for i in 0..nb {
        (frame.x1[i], frame.q1[i]) = (rng.v3(1.0), from_rotation_vector(&rng.v3(0.5)));
        (frame.v0[i], frame.w0[i]) = (rng.v3(1.0), rng.v3(1.0));
    }
    let s = (0..model.system_size()).map(|_| rng.next()).collect();
    (model, inputs, frame, s)
}

/// The analytic blocks as a dense (6 nb)² matrix, body-major.
fn analytic(model: &Model, frame: &StepFrame, inputs: &Inputs, s: &[f64]) -> Vec<f64> {
    let n = 6 * model.body_count();
    let mut g = MultiplierJacobians::new(model);
    g.compute(model, frame);
    let mut out = vec![0.0; n * n];
    add_configuration_blocks(model, frame, &g, inputs, s, &mut |rb, cb, blk| {
        assert!(rb < model.body_count() && cb < model.body_count());
        for r in 0..6 {
            for c in 0..6 {
                out[(6 * rb + r) * n + 6 * cb + c] += blk[r * 6 + c];
            }
        }
    });
    out
}

/// Central differences of the body rows of `add_step_residual` over each pose tangent.
fn differences(model: &Model, frame: &StepFrame, inputs: &Inputs, s: &[f64], h: f64) -> Vec<f64> {
    let nb = model.body_count();
    let n = 6 * nb;
    let mut out = vec![0.0; n * n];
    let mut g = MultiplierJacobians::new(model);
    let residual = |f: &StepFrame, g: &mut MultiplierJacobians| {
        g.compute(model, f);
        let mut r = vec![0.0; s.len()];
        add_step_residual(model, f, g, inputs, s, &mut r);
        r
    };
    for cb in 0..nb {
        for c in 0..6 {
            let moved = |sign: f64| {
                let mut f = frame.clone();
                if c < 3 {
                    f.x1[cb][c] += sign * h;
                } else {
                    f.q1[cb] = qmul(&f.q1[cb], &from_rotation_vector(&V3::ith(c - 3, sign * h))).normalize();
                }
                f
            };
            let (rp, rm) = (residual(&moved(1.0), &mut g), residual(&moved(-1.0), &mut g));
            for rb in 0..nb {
                let o = model.addresses.body(rb);
                for r in 0..6 {
                    out[(6 * rb + r) * n + 6 * cb + c] = (rp[o + r] - rm[o + r]) / (2.0 * h);
                }
            }
        }
    }
    out
}

/// Largest |analytic − differences| relative to the largest entry of the differences.
fn relative_error(kinds: Kinds, seed: u64) -> f64 {
    let (model, inputs, frame, s) = setup(kinds, seed);
    let a = analytic(&model, &frame, &inputs, &s);
    let d = differences(&model, &frame, &inputs, &s, 1e-5);
    let scale = d.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    assert!(scale > 0.1, "the model's force elements depend on the configuration: {scale:e}");
    a.iter().zip(&d).fold(0.0f64, |m, (x, y)| m.max((x - y).abs())) / scale
}

/// Measured at h = 1e-5, seeds 1–3: joint springs ≤ 5.1e-11, joint dampers ≤ 6.7e-11,
/// point springs ≤ 2.6e-10, joint inputs ≤ 2.4e-11, body wrenches ≤ 3.5e-11, all ≤ 7.0e-11
/// (the differences' truncation and rounding).
const TOLERANCE: f64 = 1e-9;

#[test]
fn every_element_kind_matches_central_differences() {
    let alone = [
        ("joint springs", Kinds { springs: true, ..NONE }),
        ("joint dampers", Kinds { dampers: true, ..NONE }),
        ("point springs", Kinds { point_springs: true, ..NONE }),
        ("joint inputs", Kinds { inputs: true, ..NONE }),
        ("body wrenches", Kinds { wrenches: true, ..NONE }),
        ("all", ALL),
    ];
    for (name, kinds) in alone {
        for seed in 1..4 {
            let e = relative_error(kinds, seed);
            assert!(e < TOLERANCE, "{name}, seed {seed}: {e:e}");
        }
    }
}

#[test]
fn a_model_without_force_elements_adds_nothing() {
    let (model, mut inputs, frame, s) = setup(NONE, 9);
    // forces at the centres of mass and torques do not turn with the body
    for i in 0..model.body_count() {
        (inputs.force[i], inputs.torque[i]) = (V3::new(1.0, 2.0, 3.0), V3::new(-1.0, 0.5, 2.0));
    }
    let mut g = MultiplierJacobians::new(&model);
    g.compute(&model, &frame);
    let mut calls = 0;
    add_configuration_blocks(&model, &frame, &g, &inputs, &s, &mut |_, _, _| calls += 1);
    assert_eq!(calls, 0);
}
