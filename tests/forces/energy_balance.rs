//! Energy balance with inputs and dampers: E(t) − E(0) − W_in(t) + D(t) (kinetic +
//! gravity + spring energy, work of the inputs, damper dissipation) stays at the
//! integrator's own bounded energy error, with no trend.

use maxdyn::*;
use std::sync::Arc;

fn rod() -> Inertia {
    Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap()
}

/// Least-squares slope of y over equally spaced samples (per sample).
fn slope(y: &[f64]) -> f64 {
    let n = y.len() as f64;
    let mx = (n - 1.0) / 2.0;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for (i, v) in y.iter().enumerate() {
        sxy += (i as f64 - mx) * (v - my);
        sxx += (i as f64 - mx).powi(2);
    }
    sxy / sxx
}

struct Balance {
    input_work: f64,
    dissipation: f64,
    max_residual: f64,
    trend: f64,
}

/// Steps `steps` times calling `control(sim, t)` before each step; records the residual.
fn balance(sim: &mut Sim, steps: usize, mut control: impl FnMut(&mut Sim, f64)) -> Balance {
    let (k, p) = sim.energy();
    let e0 = k + p;
    let mut res = Vec::with_capacity(steps);
    for _ in 0..steps {
        let t = sim.time();
        control(sim, t);
        sim.step().unwrap();
        let (k, p) = sim.energy();
        res.push(k + p - e0 - sim.input_work() + sim.damper_dissipation());
    }
    Balance {
        input_work: sim.input_work(),
        dissipation: sim.damper_dissipation(),
        max_residual: res.iter().fold(0.0f64, |m, x| m.max(x.abs())),
        trend: slope(&res) * steps as f64,
    }
}

fn report(name: &str, b: &Balance) {
    println!(
        "{name}: W_in = {:.4} J, D = {:.4} J, max |E − E0 − W + D| = {:.3e} J ({:.3} % of W), fitted trend over the run {:.2e} J",
        b.input_work,
        b.dissipation,
        b.max_residual,
        100.0 * b.max_residual / b.input_work,
        b.trend
    );
}

fn double_pendulum(dt: f64, secs: f64) -> Balance {
    let mut b = Builder::new();
    b.add_body(1.0, rod()).unwrap();
    b.add_body(1.0, rod()).unwrap();
    let j1 = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, 0, 1, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.set_joint_damper(j1, &[0.2]).unwrap();
    b.set_joint_damper(j2, &[0.1]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j1, &[0.3]).unwrap();
    balance(&mut sim, (secs / dt).round() as usize, |s, t| {
        s.set_joint_input(j1, &[3.0 * (2.5 * t).sin()]).unwrap();
        s.set_joint_input(j2, &[1.0 * (4.0 * t + 0.5).sin()]).unwrap();
    })
}

#[test]
fn driven_damped_double_pendulum_balances_energy() {
    let r = double_pendulum(1e-3, 10.0);
    report("double pendulum, dt 1e-3, 10 s", &r);
    let fine = double_pendulum(5e-4, 10.0);
    report("double pendulum, dt 5e-4, 10 s", &fine);
    let ratio = r.max_residual / fine.max_residual;
    println!("  residual ratio dt 1e-3 / 5e-4: {ratio:.2}");
    assert!(r.input_work > 5.0 && r.dissipation > 1.0, "the test must drive and damp");
    assert!(r.max_residual < 0.01 * r.input_work);
    assert!(r.trend.abs() < 5e-4 * r.input_work, "trend {:e}", r.trend);
    // the residual is the integrator's first-order energy error, not a bookkeeping leak
    assert!((1.6..2.4).contains(&ratio), "ratio {ratio}");
}

#[test]
fn damped_parallelogram_loop_with_point_spring_and_wrench_balances_energy() {
    // a hanging parallelogram (a kinematic loop: two cranks from the world, a coupler
    // closing the loop), dampers on all four joints (their body–body couplings lie on the
    // cycle), a damped point spring from the world to the coupler, a driven crank and a
    // force at a point of the coupler
    let th: f64 = 0.4;
    let (s, c) = (th.sin(), th.cos());
    let q = [(th / 2.0).cos(), (th / 2.0).sin(), 0.0, 0.0];
    let mut b = Builder::new();
    let c1 = b.add_body(1.0, rod()).unwrap();
    let c2 = b.add_body(1.0, rod()).unwrap();
    let cp = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 1.0, 0.1).unwrap()).unwrap();
    b.set_body_pose(c1, [0.0, 0.5 * s, -0.5 * c], q).unwrap();
    b.set_body_pose(c2, [0.0, 1.0 + 0.5 * s, -0.5 * c], q).unwrap();
    b.set_body_pose(cp, [0.0, 0.5 + s, -c], [1.0, 0.0, 0.0, 0.0]).unwrap();
    let x = [1.0, 0.0, 0.0];
    let j1 = b.add_joint(JointType::Revolute, Parent::World, c1, [0.0; 3], [0.0, 0.0, 0.5], x).unwrap();
    let j2 = b.add_joint(JointType::Revolute, Parent::World, c2, [0.0, 1.0, 0.0], [0.0, 0.0, 0.5], x).unwrap();
    let j3 = b.add_joint(JointType::Revolute, c1, cp, [0.0, 0.0, -0.5], [0.0, -0.5, 0.0], x).unwrap();
    let j4 = b.add_joint(JointType::Revolute, c2, cp, [0.0, 0.0, -0.5], [0.0, 0.5, 0.0], x).unwrap();
    for (j, d) in [(j1, 0.1), (j2, 0.2), (j3, 0.15), (j4, 0.05)] {
        b.set_joint_damper(j, &[d]).unwrap();
    }
    b.add_spring(Parent::World, [0.0, 2.0, -1.0], cp, [0.0, 0.4, 0.0], 5.0, 0.3, 0.8).unwrap();
    let model = Arc::new(Model::new(&b).unwrap());
    assert_eq!(model.loop_count, 1);
    let mut sim = Sim::new(model, 1e-3).unwrap();
    assert!(sim.constraint_violation() < 1e-12);
    let mut max_iter = 0;
    let mut max_viol: f64 = 0.0;
    let r = balance(&mut sim, 5_000, |s, t| {
        s.set_joint_input(j1, &[2.0 * (3.0 * t).sin()]).unwrap();
        s.set_body_wrench(cp, [0.0, 0.5 * (2.0 * t).cos(), 0.3], [0.0; 3], [0.0, 0.3, 0.05]).unwrap();
        max_iter = max_iter.max(s.stats().iterations);
        max_viol = max_viol.max(s.constraint_violation());
    });
    report("damped parallelogram loop, dt 1e-3, 5 s", &r);
    println!("  max Newton iterations {max_iter}, max constraint violation {max_viol:.2e}");
    assert!(r.input_work > 1.0 && r.dissipation > 0.5, "the test must drive and damp");
    assert!(r.max_residual < 0.01 * r.input_work);
    assert!(max_viol < 1e-8);
    assert!(max_iter <= 6, "exact damper Jacobian: Newton converges in a few iterations");
}
