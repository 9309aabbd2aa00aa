//! Second-order accuracy (issue 31) on real arms: the panda and the UR5 of
//! example-robot-data (fixed base, gravity, no inputs, a seeded random start inside the
//! joint limits, 1 s) against Pinocchio 4.1's ABA integrated by RK4 at 1e-4 s
//! (tests/common/arm_reference.rs; RK4 at 1e-5 s differs from it by 5.3e-10 rad on the
//! panda, 2e-13 on the UR5). The first-order step converges at first order; the
//! second-order integrator (`SolverOptions::integrator`) at second, through the public
//! setters alone: the velocities set are those at t = 0.

use std::f64::consts::PI;
use std::path::Path;
use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Integrator, Model, Sim, SolverOptions};

#[path = "common/require.rs"]
mod require;
#[path = "common/arm_reference.rs"]
mod arm_reference;
#[path = "common/rng.rs"]
mod rng;

impl rng::Rng {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The arm's model (limits not read: the reference has none), its joint names in joint-id order.
fn arm(urdf: &Path) -> (Arc<Model>, Vec<String>) {
    let u = Urdf::from_file_with(urdf, &UrdfOptions { joint_limits: false, ..UrdfOptions::default() }).unwrap();
    let mut names = vec![String::new(); u.joints.len()];
    for (n, &j) in &u.joints {
        names[j] = n.clone();
    }
    (Arc::new(Model::new(&u.builder).unwrap()), names)
}

/// Largest |q − q_ref| over the joints at every millisecond of 1 s, maxdyn at `dt` with
/// `integrator`, from (q0, v0) set through the whole-state setters.
fn error(model: &Arc<Model>, reference: &[Vec<f64>], q0: &[f64], v0: &[f64], dt: f64, integrator: Integrator) -> f64 {
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    sim.set_options(SolverOptions { integrator, ..SolverOptions::default() }).unwrap();
    sim.set_configuration(q0).unwrap();
    sim.set_generalized_velocity(v0).unwrap();
    let every = ((1e-3 / dt).round() as usize).max(1);
    let mut q = vec![0.0; q0.len()];
    let mut worst: f64 = 0.0;
    for k in 1..=(1.0 / dt).round() as usize {
        sim.step().unwrap();
        if k % every == 0 {
            sim.configuration(&mut q).unwrap();
            let r = &reference[(k as f64 * dt * 1e3).round() as usize];
            // maxdyn reads angles in (−π, π]: differences are taken modulo 2π
            let wrapped = |d: f64| (d + PI).rem_euclid(2.0 * PI) - PI;
            worst = worst.max(q.iter().zip(r).map(|(a, b)| wrapped(a - b).abs()).fold(0.0, f64::max));
        }
    }
    worst
}

/// Each joint's (lower, upper) from the file's limits, in joint-id order.
fn ranges(urdf: &Path, names: &[String]) -> Vec<(f64, f64)> {
    let u = Urdf::from_file(urdf, false).unwrap();
    names
        .iter()
        .map(|n| {
            let j = u.joints[n];
            let l = u.builder.joint_limits().iter().find(|l| l.joint == j).expect("the arms' joints are limited");
            (l.lower, l.upper)
        })
        .collect()
}

/// (first order at dt 1e-3, second order at dt 1e-3, second order at dt 1e-4) for the arm
/// in `file` from the seeded start: q uniform in the inner 80 % of each joint's range
/// (clipped to ±3 rad), q̇ uniform in ±1 rad/s.
fn errors(test: &str, file: &str) -> Option<(f64, f64, f64)> {
    let urdf = arm_reference::welded_urdf(test, file)?;
    let (model, names) = arm(&urdf);
    let mut rng = rng::Rng(0x9E37_79B9_7F4A_7C15 ^ 1);
    let q0: Vec<f64> = ranges(&urdf, &names)
        .iter()
        .map(|&(lo, hi)| {
            let (lo, hi) = (lo.max(-3.0), hi.min(3.0));
            rng.uniform(lo + 0.1 * (hi - lo), hi - 0.1 * (hi - lo))
        })
        .collect();
    let v0: Vec<f64> = (0..names.len()).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let reference = arm_reference::rk4(test, &urdf, &names, &q0, &v0, 1e-4, 10, 1.0)?;
    let first = error(&model, &reference, &q0, &v0, 1e-3, Integrator::FirstOrder);
    let (e3, e4) = (error(&model, &reference, &q0, &v0, 1e-3, Integrator::SecondOrder), error(&model, &reference, &q0, &v0, 1e-4, Integrator::SecondOrder));
    println!("{file}: first order {first:.2e} at dt 1e-3; second order {e3:.2e} at dt 1e-3, {e4:.2e} at dt 1e-4 (ratio {:.0})", e3 / e4);
    for dt in [1e-2, 3e-3, 1e-3, 1e-4] {
        println!("{file}: fourth order at dt {dt:e}: {:.2e}", error(&model, &reference, &q0, &v0, dt, Integrator::FourthOrder));
    }
    Some((first, e3, e4))
}

/// Measured (rad): panda first order 2.53e-2, second order 2.83e-3 (dt 1e-3) and 2.83e-5
/// (dt 1e-4); UR5 2.73e-2, 2.68e-4 and 2.68e-6: a hundredfold per decade of dt. The
/// issue's 1e-4 rad at dt 1e-3 is not reached: the second-order error constant of these
/// starts is 2.8e3 rad/s² on the panda and 2.7e2 on the UR5 (1e-4 rad takes dt 1.9e-4
/// and 6.1e-4 s; the first-order step takes 4e-6 s).
#[test]
fn arms_converge_at_second_order_against_pinocchio() {
    let test = "arms_converge_at_second_order_against_pinocchio";
    for (file, first, e3, e4) in [("panda_description/urdf/panda.urdf", 2.53e-2, 2.83e-3, 2.83e-5), ("ur_description/urdf/ur5_robot.urdf", 2.73e-2, 2.68e-4, 2.68e-6)] {
        let Some((f, s3, s4)) = errors(test, file) else { return };
        assert!((f / first - 1.0).abs() < 0.05, "{file}: first order {f:e}");
        assert!(s3 < 1.1 * e3 && s4 < 1.1 * e4, "{file}: second order {s3:e}, {s4:e}");
        assert!(s3 / s4 > 90.0, "{file}: ratio per decade {}", s3 / s4);
    }
}
