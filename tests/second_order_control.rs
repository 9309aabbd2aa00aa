//! Inputs a controller sets every step with the second-order integrator (issue 31,
//! docs/INTEGRATOR.md "What stays first order"): the SCENARIOS A2 double pendulum and the
//! panda (example-robot-data, fingers welded) under a PD law u = Kp (θ* − θ) − Kd θ̇
//! evaluated from the state read before each step, 1 s, against the same feedback in
//! continuous time (RK4 at 1e-4 s: the pendulum in absolute angles, the panda on maxdyn's
//! own M(q) and bias forces, `Sim::mass_matrix`, `Sim::bias_forces`). The step solves the
//! node z_{k+1} with the input set at t_k, so held inputs make the trajectory first order;
//! the input extrapolated to that node, 2 u_k − u_{k−1}, makes it second order.

use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Integrator, Model, Sim, SolverOptions};
use maxdyn_scenes::double_pendulum;

#[path = "common/require.rs"]
mod require;
#[path = "common/arm_reference.rs"]
mod arm_reference;

const KP: f64 = 20.0;
const KD: f64 = 2.0;
const TARGET: [f64; 2] = [0.3, 0.2];

// the scene's pendulum: two 1 kg boxes of 0.1 m, 1 m apart, about x (scenes/src/double_pendulum.rs)
const M: f64 = 1.0;
const L: f64 = 1.0;
const G: f64 = 9.81;
const I: f64 = 1.0 * 0.02 / 12.0;

/// The joint torques of the PD law at joint angles θ (θ₂ relative) and rates.
fn pd(th: [f64; 2], rates: [f64; 2]) -> [f64; 2] {
    std::array::from_fn(|i| KP * (TARGET[i] - th[i]) - KD * rates[i])
}

/// d/dt of (φ₁, φ₂, ω₁, ω₂), absolute angles, under the PD torques (joint 1 acts on φ₁,
/// joint 2 on φ₂ − φ₁: generalized forces τ₁ − τ₂ and τ₂).
fn rate(s: [f64; 4]) -> [f64; 4] {
    let (p1, p2, w1, w2) = (s[0], s[1], s[2], s[3]);
    let tau = pd([p1, p2 - p1], [w1, w2 - w1]);
    let d = p1 - p2;
    let (a, b, e) = (2.0 * M * L * L + I, M * L * L * d.cos(), M * L * L + I);
    let r1 = -M * L * L * d.sin() * w2 * w2 - 2.0 * M * G * L * p1.sin() + tau[0] - tau[1];
    let r2 = M * L * L * d.sin() * w1 * w1 - M * G * L * p2.sin() + tau[1];
    let det = a * e - b * b;
    [w1, w2, (e * r1 - b * r2) / det, (a * r2 - b * r1) / det]
}

/// The joint angles every 10 ms of 1 s by RK4 at 1e-4 s.
fn reference() -> Vec<[f64; 2]> {
    let h = 1e-4;
    let mut s = double_pendulum::START;
    let mut out = vec![[s[0], s[1] - s[0]]];
    for k in 1..=10_000 {
        let at = |k: &[f64; 4], f: f64| -> [f64; 4] { std::array::from_fn(|i| s[i] + f * k[i]) };
        let k1 = rate(s);
        let k2 = rate(at(&k1, 0.5 * h));
        let k3 = rate(at(&k2, 0.5 * h));
        let k4 = rate(at(&k3, h));
        s = std::array::from_fn(|i| s[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]));
        if k % 100 == 0 {
            out.push([s[0], s[1] - s[0]]);
        }
    }
    out
}

/// Largest joint-angle error against `reference` every 10 ms of 1 s at `dt`, the PD input
/// set before every step (`extrapolate`: 2 u_k − u_{k−1} instead of u_k).
fn error(reference: &[[f64; 2]], dt: f64, integrator: Integrator, extrapolate: bool) -> f64 {
    let mut sim: Sim = double_pendulum::sim(dt);
    sim.set_options(SolverOptions { integrator, ..SolverOptions::default() }).unwrap();
    let every = (1e-2 / dt).round() as usize;
    let (mut th, mut rates) = ([0.0; 2], [0.0; 2]);
    let mut previous: Option<[f64; 2]> = None;
    let mut worst: f64 = 0.0;
    for k in 1..=(1.0 / dt).round() as usize {
        for j in 0..2 {
            sim.joint_position(j, &mut th[j..j + 1]).unwrap();
            sim.joint_velocity(j, &mut rates[j..j + 1]).unwrap();
        }
        let u = pd(th, rates);
        let applied = match (extrapolate, previous) {
            (true, Some(p)) => [2.0 * u[0] - p[0], 2.0 * u[1] - p[1]],
            _ => u,
        };
        previous = Some(u);
        for j in 0..2 {
            sim.set_joint_input(j, &applied[j..j + 1]).unwrap();
        }
        sim.step().unwrap();
        if k % every == 0 {
            for j in 0..2 {
                sim.joint_position(j, &mut th[j..j + 1]).unwrap();
            }
            let r = reference[k / every];
            worst = worst.max((th[0] - r[0]).abs().max((th[1] - r[1]).abs()));
        }
    }
    worst
}

/// Measured (rad), dt 1e-2 → 1e-3 → 1e-4: first order 3.16e-2, 2.96e-3, 2.94e-4; second
/// order with the input held 4.23e-2, 3.89e-3, 3.86e-4 (both 10× per decade: first
/// order); second order with the input extrapolated to the node 4.63e-3, 4.58e-5, 4.58e-7
/// (101× and 100× per decade: second order).
#[test]
fn pd_control_is_second_order_with_the_input_extrapolated_to_the_node() {
    let reference = reference();
    let dts = [1e-2, 1e-3, 1e-4];
    let run = |integrator, extrapolate| -> Vec<f64> { dts.iter().map(|&dt| error(&reference, dt, integrator, extrapolate)).collect() };
    let first = run(Integrator::FirstOrder, false);
    let held = run(Integrator::SecondOrder, false);
    let extrapolated = run(Integrator::SecondOrder, true);
    for (name, e) in [("first order", &first), ("second order, input held", &held), ("second order, input extrapolated", &extrapolated)] {
        println!("{name}: {:.2e} {:.2e} {:.2e} rad; per decade {:.0}×, {:.0}×", e[0], e[1], e[2], e[0] / e[1], e[1] / e[2]);
    }
    assert!((first[1] / 2.96e-3 - 1.0).abs() < 0.05 && first[1] / first[2] < 11.0, "{first:?}");
    assert!((held[1] / 3.89e-3 - 1.0).abs() < 0.05 && held[1] / held[2] < 11.0, "{held:?}");
    assert!(extrapolated[1] < 1.05 * 4.58e-5 && extrapolated[2] < 1.05 * 4.58e-7, "{extrapolated:?}");
    assert!(extrapolated[0] / extrapolated[1] > 95.0 && extrapolated[1] / extrapolated[2] > 95.0, "{extrapolated:?}");
}

/// The panda's PD gains (N·m/rad, N·m·s/rad) and joint damping (its URDF's).
const ARM_KP: f64 = 20.0;
const ARM_KD: f64 = 1.0;
const ARM_DAMPING: f64 = 0.003;

/// x = A⁻¹ b by Gaussian elimination with partial pivoting (n × n row-major).
fn solve(mut a: Vec<f64>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i * n + c].abs().total_cmp(&a[j * n + c].abs())).unwrap();
        for k in 0..n {
            a.swap(c * n + k, p * n + k);
        }
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r * n + c] / a[c * n + c];
            for k in c..n {
                a[r * n + k] -= f * a[c * n + k];
            }
            b[r] -= f * b[c];
        }
    }
    for r in (0..n).rev() {
        b[r] = (b[r] - (r + 1..n).map(|k| a[r * n + k] * b[k]).sum::<f64>()) / a[r * n + r];
    }
    b
}

/// The arm's PD torques toward `target`.
fn arm_pd(target: &[f64], q: &[f64], v: &[f64]) -> Vec<f64> {
    (0..q.len()).map(|i| ARM_KP * (target[i] - q[i]) - ARM_KD * v[i]).collect()
}

/// The panda's joint angles every 10 ms of 1 s under the PD law in continuous time: RK4 at
/// 1e-4 s on q̈ = M(q)⁻¹ (u − b(q, q̇) − c q̇), M and b from `scratch` set to each q.
fn arm_reference(scratch: &mut Sim, q0: &[f64], v0: &[f64], target: &[f64]) -> Vec<Vec<f64>> {
    let n = q0.len();
    let mut acc = |q: &[f64], v: &[f64]| -> Vec<f64> {
        scratch.set_configuration(q).unwrap();
        let (mut m, mut b) = (vec![0.0; n * n], vec![0.0; n]);
        scratch.mass_matrix(&mut m).unwrap();
        scratch.bias_forces(v, &mut b).unwrap();
        let u = arm_pd(target, q, v);
        solve(m, (0..n).map(|i| u[i] - b[i] - ARM_DAMPING * v[i]).collect())
    };
    let h = 1e-4;
    let (mut q, mut v) = (q0.to_vec(), v0.to_vec());
    let mut out = vec![q.clone()];
    let step = |x: &[f64], d: &[f64], f: f64| -> Vec<f64> { x.iter().zip(d).map(|(a, b)| a + f * b).collect() };
    for k in 1..=10_000 {
        let a1 = acc(&q, &v);
        let (q2, v2) = (step(&q, &v, 0.5 * h), step(&v, &a1, 0.5 * h));
        let a2 = acc(&q2, &v2);
        let (q3, v3) = (step(&q, &v2, 0.5 * h), step(&v, &a2, 0.5 * h));
        let a3 = acc(&q3, &v3);
        let (q4, v4) = (step(&q, &v3, h), step(&v, &a3, h));
        let a4 = acc(&q4, &v4);
        for i in 0..n {
            q[i] += h / 6.0 * (v[i] + 2.0 * v2[i] + 2.0 * v3[i] + v4[i]);
            v[i] += h / 6.0 * (a1[i] + 2.0 * a2[i] + 2.0 * a3[i] + a4[i]);
        }
        if k % 100 == 0 {
            out.push(q.clone());
        }
    }
    out
}

/// Largest joint error of the PD-controlled panda at `dt` against `reference`.
fn arm_error(model: &Arc<Model>, reference: &[Vec<f64>], q0: &[f64], v0: &[f64], target: &[f64], dt: f64, extrapolate: bool) -> f64 {
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    sim.set_options(SolverOptions { integrator: Integrator::SecondOrder, ..SolverOptions::default() }).unwrap();
    sim.set_configuration(q0).unwrap();
    sim.set_generalized_velocity(v0).unwrap();
    let n = q0.len();
    let (mut q, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut previous: Option<Vec<f64>> = None;
    let every = (1e-2 / dt).round() as usize;
    let mut worst: f64 = 0.0;
    for k in 1..=(1.0 / dt).round() as usize {
        sim.configuration(&mut q).unwrap();
        sim.generalized_velocity(&mut v).unwrap();
        let u = arm_pd(target, &q, &v);
        let applied: Vec<f64> = match (&previous, extrapolate) {
            (Some(p), true) => u.iter().zip(p).map(|(a, b)| 2.0 * a - b).collect(),
            _ => u.clone(),
        };
        previous = Some(u);
        sim.set_joint_inputs(&applied).unwrap();
        sim.step().unwrap();
        if k % every == 0 {
            sim.configuration(&mut q).unwrap();
            let r = &reference[k / every];
            worst = worst.max(q.iter().zip(r).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max));
        }
    }
    worst
}

/// The panda held by PD control at its start (Kp 20, Kd 1, its joint damping kept), from
/// a swinging start. Measured (rad), dt 1e-3 → 1e-4: input held 4.50e-3, 4.45e-4 (10× per
/// decade: first order); extrapolated to the node 5.98e-5, 5.70e-7 (105×: second order).
#[test]
fn pd_controlled_panda_is_second_order_with_the_input_extrapolated_to_the_node() {
    let test = "pd_controlled_panda_is_second_order_with_the_input_extrapolated_to_the_node";
    let Some(urdf) = arm_reference::welded_urdf(test, "panda_description/urdf/panda.urdf") else { return };
    let u = Urdf::from_file_with(&urdf, &UrdfOptions { joint_limits: false, ..UrdfOptions::default() }).unwrap();
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let n = model.minimal_velocity_count();
    let q0: Vec<f64> = (0..n).map(|i| 0.3 * (1.7 * i as f64 + 1.0).sin()).collect();
    let v0: Vec<f64> = (0..n).map(|i| 0.8 * (0.9 * i as f64 + 0.5).cos()).collect();
    let mut scratch = Sim::new(model.clone(), 1e-3).unwrap();
    let reference = arm_reference(&mut scratch, &q0, &v0, &q0);
    let run = |dt: f64, extrapolate: bool| arm_error(&model, &reference, &q0, &v0, &q0, dt, extrapolate);
    let held = [run(1e-3, false), run(1e-4, false)];
    let extrapolated = [run(1e-3, true), run(1e-4, true)];
    println!("panda, input held: {:.2e} {:.2e} rad ({:.0}× per decade)", held[0], held[1], held[0] / held[1]);
    println!("panda, input extrapolated: {:.2e} {:.2e} rad ({:.0}× per decade)", extrapolated[0], extrapolated[1], extrapolated[0] / extrapolated[1]);
    assert!((held[0] / 4.50e-3 - 1.0).abs() < 0.05 && held[0] / held[1] < 11.0, "{held:?}");
    assert!(extrapolated[0] < 1.05 * 5.98e-5 && extrapolated[1] < 1.05 * 5.70e-7 && extrapolated[0] / extrapolated[1] > 95.0, "{extrapolated:?}");
}
