//! Inputs a controller sets every step with the second-order integrator (issue 31,
//! docs/INTEGRATOR.md "What stays first order"): the SCENARIOS A2 double pendulum under a
//! PD law u = Kp (θ* − θ) − Kd θ̇ evaluated from the state read before each step, 1 s,
//! against the same feedback in continuous time (RK4 at 1e-4 s in absolute angles). The
//! step solves the node z_{k+1} with the input set at t_k, so held inputs make the
//! trajectory first order; the input extrapolated to that node, 2 u_k − u_{k−1}, makes it
//! second order.

use maxdyn::{Integrator, Sim, SolverOptions};
use maxdyn_scenes::double_pendulum;

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
