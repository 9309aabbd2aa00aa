//! Finite-difference checks of the force elements: damper Jacobian blocks (diagonal and
//! body–body coupling) against the residual hook, spring gradients against the spring
//! potential, the log-map derivative, and the actuator/damper rows against the joint's
//! minimal velocities. Random configurations that do not satisfy the joints, so the
//! formulas are checked away from the constraint manifold too.

use maxdyn::forces::joint_directions::{gradient_rows, rate_rows};
use maxdyn::forces::rotation_log::inverse_right_jacobian;
use maxdyn::forces::{add_jacobian, add_residual, potential_energy};
use maxdyn::integrator::{Inputs, StepFrame};
use maxdyn::joints::constraint::Pose;
use maxdyn::joints::minimal::Twist;
use maxdyn::math::{from_rotation_vector, qmul, rotation_vector, V3, V4};
use maxdyn::solver::BlockMatrix;
use maxdyn::*;
use std::sync::Arc;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0 // [-1, 1)
    }
    fn v3(&mut self, s: f64) -> V3 {
        V3::new(self.next() * s, self.next() * s, self.next() * s)
    }
    fn a3(&mut self, s: f64) -> [f64; 3] {
        self.v3(s).into()
    }
    fn quat(&mut self, angle: f64) -> V4 {
        let axis = self.v3(1.0).normalize();
        from_rotation_vector(&(axis * (angle * self.next().abs())))
    }
}

const KINDS: [JointType; 11] = [
    JointType::Prismatic,
    JointType::Planar,
    JointType::Revolute,
    JointType::Cylindrical,
    JointType::Spherical,
    JointType::FreeRevolute,
    JointType::PlanarFree,
    JointType::CylindricalFree,
    JointType::PlanarAxis,
    JointType::FixedOrientation,
    JointType::Floating,
];

/// A chain with one joint of every type that has free directions, a loop-closing
/// revolute, springs and dampers on every free direction and two damped point springs
/// (one to the world).
fn mechanism(rng: &mut Rng) -> Arc<Model> {
    let mut b = Builder::new();
    let nb = KINDS.len();
    for _ in 0..nb {
        b.add_body(1.0 + rng.next().abs(), Inertia::diagonal(0.1, 0.2, 0.3).unwrap()).unwrap();
    }
    for (i, &k) in KINDS.iter().enumerate() {
        let parent = if i == 0 { Parent::World } else { Parent::Body(i - 1) };
        let j = b.add_joint(k, parent, i, rng.a3(0.5), rng.a3(0.5), rng.a3(1.0)).unwrap();
        let q = rng.quat(0.5);
        b.set_joint_offset(j, [q[0], q[1], q[2], q[3]]).unwrap();
        let n = b.joint(j).unwrap().dof();
        let stiff: Vec<f64> = (0..n).map(|_| 1.0 + 10.0 * rng.next().abs()).collect();
        let rest: Vec<f64> = (0..n).map(|_| 0.3 * rng.next()).collect();
        let damp: Vec<f64> = (0..n).map(|_| 0.5 + rng.next().abs()).collect();
        b.set_joint_spring(j, &stiff, &rest).unwrap();
        b.set_joint_damper(j, &damp).unwrap();
    }
    let lj = b.add_joint(JointType::Revolute, nb - 1, 2, rng.a3(0.5), rng.a3(0.5), rng.a3(1.0)).unwrap();
    b.set_joint_damper(lj, &[0.7]).unwrap();
    b.add_spring(Parent::World, rng.a3(1.0), 3, rng.a3(0.3), 20.0, 1.5, 0.4).unwrap();
    b.add_spring(1, rng.a3(0.3), 7, rng.a3(0.3), 15.0, 2.5, 0.2).unwrap();
    Arc::new(Model::new(&b).unwrap())
}

fn random_frame(model: &Model, rng: &mut Rng, dt: f64, inputs: bool) -> (StepFrame, Inputs) {
    let nb = model.body_count();
    let mut f = StepFrame::new(nb, dt);
    let mut u = Inputs::new(model);
    for i in 0..nb {
        f.x1[i] = rng.v3(1.0);
        f.q1[i] = rng.quat(1.0);
        f.v0[i] = rng.v3(1.0);
        f.w0[i] = rng.v3(1.0);
        if inputs {
            u.force[i] = rng.v3(2.0);
            u.torque[i] = rng.v3(2.0);
            u.force_point[i] = rng.v3(0.5);
        }
    }
    if inputs {
        for ji in u.joint_input.iter_mut() {
            for x in ji.iter_mut() {
                *x = rng.next();
            }
        }
        // the servo targets: a damper pulls toward its target rate
        for t in u.joint_target.iter_mut() {
            for x in t.velocity.iter_mut() {
                *x = rng.next();
            }
        }
    }
    (f, u)
}

fn hook_residual(model: &Model, f: &StepFrame, u: &Inputs, s: &[f64]) -> Vec<f64> {
    let mut r = vec![0.0; s.len()];
    add_residual(model, f, u, s, &mut r);
    r
}

#[test]
fn damper_jacobian_blocks_match_finite_differences() {
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let model = mechanism(&mut rng);
    let sym = &model.symbolic;
    let (f, u) = random_frame(&model, &mut rng, 0.01, true);
    let mut s = vec![0.0; model.system_size()];
    for x in s.iter_mut() {
        *x = rng.next();
    }
    let mut m = BlockMatrix::new(sym);
    add_jacobian(&model, &f, &s, &mut m);
    let h = 1e-6;
    let mut worst: f64 = 0.0;
    let mut coupling_checked = 0;
    let mut largest: f64 = 0.0;
    for y in 0..model.body_count() {
        let ny = model.body_node[y];
        for col in 0..6 {
            let mut sp = s.clone();
            let mut sm = s.clone();
            sp[sym.offsets[ny] + col] += h;
            sm[sym.offsets[ny] + col] -= h;
            let (rp, rm) = (hook_residual(&model, &f, &u, &sp), hook_residual(&model, &f, &u, &sm));
            for x in 0..model.body_count() {
                let nx = model.body_node[x];
                let blk = sym.block_offset(nx, ny).map(|_| m.block(sym, nx, ny));
                if blk.is_some() && x != y && blk.unwrap().iter().any(|&v| v != 0.0) {
                    coupling_checked += 1;
                }
                for row in 0..6 {
                    let fd = (rp[sym.offsets[nx] + row] - rm[sym.offsets[nx] + row]) / (2.0 * h);
                    let an = blk.map_or(0.0, |b| b[row * 6 + col]);
                    worst = worst.max((fd - an).abs());
                    largest = largest.max(an.abs());
                }
            }
            // joint multiplier rows get nothing from force elements
            for (ji, nj) in model.joint_node.iter().enumerate() {
                if let Some(nj) = nj {
                    for k in 0..model.joints[ji].constraint_count() {
                        assert_eq!(rp[sym.offsets[*nj] + k], 0.0);
                    }
                }
            }
        }
    }
    println!("damper Jacobian: max |analytic − FD| = {worst:e} (largest entry {largest:.3}), {coupling_checked} coupling columns");
    assert!(largest > 1.0, "the test must exercise non-trivial blocks");
    assert!(coupling_checked >= 6 * 10, "coupling blocks must be exercised ({coupling_checked})");
    assert!(worst < 3e-8, "worst {worst:e} (measured 3.7e-9)");
}

#[test]
fn spring_residual_is_the_gradient_of_the_spring_potential() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let model = mechanism(&mut rng);
    let sym = &model.symbolic;
    let (f, mut u) = random_frame(&model, &mut rng, 0.01, false);
    // springs at rest at targets the caller moved from the model's rest
    for t in u.joint_target.iter_mut() {
        for x in t.position.iter_mut() {
            *x += 0.3 * rng.next();
        }
    }
    let s = vec![0.0; model.system_size()]; // dampers exert nothing at rest
    let r = hook_residual(&model, &f, &u, &s);
    let (x, q) = (f.x1.clone(), f.q1.clone());
    let h = 1e-6;
    let mut worst: f64 = 0.0;
    let mut largest: f64 = 0.0;
    for i in 0..model.body_count() {
        let o = sym.offsets[model.body_node[i]];
        for k in 0..3 {
            let e = V3::ith(k, h);
            let (mut xp, mut xm) = (x.clone(), x.clone());
            xp[i] += e;
            xm[i] -= e;
            let fd = (potential_energy(&model, &u, &xp, &q) - potential_energy(&model, &u, &xm, &q)) / (2.0 * h);
            worst = worst.max((fd - r[o + k]).abs());
            let (mut qp, mut qm) = (q.clone(), q.clone());
            qp[i] = qmul(&q[i], &from_rotation_vector(&e));
            qm[i] = qmul(&q[i], &from_rotation_vector(&-e));
            // rotational rows are twice the body-frame gradient (paper's ∇ʳ)
            let fd = 2.0 * (potential_energy(&model, &u, &x, &qp) - potential_energy(&model, &u, &x, &qm)) / (2.0 * h);
            worst = worst.max((fd - r[o + 3 + k]).abs());
            largest = largest.max(r[o + k].abs()).max(r[o + 3 + k].abs());
        }
    }
    println!("spring gradient: max |residual − FD ∇V| = {worst:e} (largest entry {largest:.3})");
    assert!(largest > 1.0);
    assert!(worst < 5e-9 * largest, "worst {worst:e} (measured 3.1e-8 = 6.4e-10 of the largest entry)");
}

#[test]
fn gradient_rows_of_every_joint_type_match_finite_differences_of_the_coordinates() {
    let mut rng = Rng(42);
    let model = mechanism(&mut rng);
    let h = 1e-6;
    let mut worst: f64 = 0.0;
    for j in &model.joints {
        let n = j.dof();
        let a = Pose { x: rng.v3(1.0), q: rng.quat(1.0) };
        let b = Pose { x: rng.v3(1.0), q: rng.quat(1.0) };
        let coords = |a: &Pose, b: &Pose| {
            let mut out = [0.0; 6];
            j.minimal_position(a, b, &mut out[..n]);
            out
        };
        for i in 0..n {
            let rows = gradient_rows(j, &a, &b, i);
            for k in 0..3 {
                let e = V3::ith(k, h);
                let perturb = |p: &Pose, lin: bool, sign: f64| {
                    if lin {
                        Pose { x: p.x + sign * e, q: p.q }
                    } else {
                        Pose { x: p.x, q: qmul(&p.q, &from_rotation_vector(&(sign * e))) }
                    }
                };
                for lin in [true, false] {
                    let fd_b = (coords(&a, &perturb(&b, lin, 1.0))[i] - coords(&a, &perturb(&b, lin, -1.0))[i]) / (2.0 * h);
                    let an_b = if lin { rows.b.jv[k] } else { rows.b.jw[k] };
                    worst = worst.max((fd_b - an_b).abs());
                    if let Some(ra) = rows.a {
                        let fd_a = (coords(&perturb(&a, lin, 1.0), &b)[i] - coords(&perturb(&a, lin, -1.0), &b)[i]) / (2.0 * h);
                        let an_a = if lin { ra.jv[k] } else { ra.jw[k] };
                        worst = worst.max((fd_a - an_a).abs());
                    }
                }
            }
        }
    }
    println!("∂θ/∂(x, φ) rows: max error {worst:e}");
    assert!(worst < 4e-9, "worst {worst:e} (measured 4.1e-10)");
}

#[test]
fn log_map_derivative_matches_finite_differences() {
    let mut rng = Rng(7);
    let h = 1e-7;
    let mut worst: f64 = 0.0;
    for angle in [1e-6, 1e-3, 0.1, 1.0, 2.0, 3.0] {
        let axis = rng.v3(1.0).normalize();
        let q = from_rotation_vector(&(axis * angle));
        let jinv = inverse_right_jacobian(&rotation_vector(&q));
        for k in 0..3 {
            let e = V3::ith(k, h);
            let fd = (rotation_vector(&qmul(&q, &from_rotation_vector(&e))) - rotation_vector(&qmul(&q, &from_rotation_vector(&-e)))) / (2.0 * h);
            let err = (fd - jinv.column(k)).norm();
            worst = worst.max(err);
            // left perturbation: J_l⁻¹ = J_r⁻¹ᵀ
            let fd = (rotation_vector(&qmul(&from_rotation_vector(&e), &q)) - rotation_vector(&qmul(&from_rotation_vector(&-e), &q))) / (2.0 * h);
            worst = worst.max((fd - jinv.transpose().column(k)).norm());
        }
    }
    println!("log-map Jacobian: max error {worst:e}");
    assert!(worst < 2e-8, "worst {worst:e} (measured 2.4e-9)");
}

#[test]
fn actuator_and_damper_rows_give_the_joint_minimal_velocity() {
    let mut rng = Rng(99);
    let model = mechanism(&mut rng);
    let mut worst: f64 = 0.0;
    for j in &model.joints {
        let n = j.dof();
        let a = Pose { x: rng.v3(1.0), q: rng.quat(1.0) };
        let b = Pose { x: rng.v3(1.0), q: rng.quat(1.0) };
        let ta = if j.parent.is_some() { Twist { v: rng.v3(1.0), w: rng.v3(1.0) } } else { Twist::ZERO };
        let tb = Twist { v: rng.v3(1.0), w: rng.v3(1.0) };
        let mut mv = [0.0; 6];
        j.minimal_velocity(&a, &ta, &b, &tb, &mut mv[..n]);
        for i in 0..n {
            let rows = rate_rows(j, &a, &b, i);
            let xi = rows.rate(|k| if k == j.child { (tb.v, tb.w) } else { (ta.v, ta.w) });
            worst = worst.max((xi - mv[i]).abs());
        }
    }
    println!("rate rows vs minimal velocity: max error {worst:e}");
    assert!(worst < 1e-12, "worst {worst:e}");
}

#[test]
fn inputs_and_springs_add_no_jacobian_blocks() {
    // a model with springs, inputs and wrenches but no dampers: the residual hook does
    // not depend on the velocities, so the Jacobian hook must add nothing
    let mut b = Builder::new();
    let ja = Inertia::diagonal(0.1, 0.2, 0.3).unwrap();
    b.add_body(1.0, ja).unwrap();
    b.add_body(1.0, ja).unwrap();
    let j0 = b.add_joint(JointType::Spherical, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let j1 = b.add_joint(JointType::Cylindrical, 0, 1, [0.0; 3], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    b.set_joint_spring(j0, &[1.0, 2.0, 3.0], &[0.1, 0.2, 0.3]).unwrap();
    b.set_joint_spring(j1, &[4.0, 5.0], &[0.0, 0.5]).unwrap();
    b.add_spring(0, [0.1, 0.0, 0.0], 1, [0.0, 0.1, 0.0], 10.0, 0.0, 0.3).unwrap();
    let model = Model::new(&b).unwrap();
    let mut rng = Rng(5);
    let (f, u) = random_frame(&model, &mut rng, 0.01, true);
    let s: Vec<f64> = (0..model.system_size()).map(|_| rng.next()).collect();
    let mut m = BlockMatrix::new(&model.symbolic);
    add_jacobian(&model, &f, &s, &mut m);
    assert!(m.values.iter().all(|&v| v == 0.0));
    let r0 = hook_residual(&model, &f, &u, &s);
    let r1 = hook_residual(&model, &f, &u, &vec![0.0; s.len()]);
    assert_eq!(r0, r1);
    assert!(r0.iter().map(|x| x.abs()).sum::<f64>() > 1.0);
}
