//! Second-order accuracy (issue 31) on real arms: the panda and the UR5 of
//! example-robot-data (fixed base, gravity, no inputs, a seeded random start, 1 s) against
//! Pinocchio 4.1's ABA integrated by RK4 (tests/common/arm_reference.rs).

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

/// Solves the dense n×n system a x = b (Gaussian elimination with partial pivoting).
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
        let s: f64 = (r + 1..n).map(|k| a[r * n + k] * b[k]).sum();
        b[r] = (b[r] - s) / a[r * n + r];
    }
    b
}

/// Largest |q − q_ref| over the joints at every millisecond of 1 s, maxdyn at `dt` from
/// (q0, v0); `consistent`: the first interval velocity is v0 + q̈0 dt/2 (q̈0 = M⁻¹(−b)).
fn error(model: &Arc<Model>, reference: &[Vec<f64>], q0: &[f64], v0: &[f64], dt: f64, consistent: bool) -> f64 {
    error_with(model, reference, q0, v0, dt, consistent, Integrator::FirstOrder)
}

fn error_with(model: &Arc<Model>, reference: &[Vec<f64>], q0: &[f64], v0: &[f64], dt: f64, consistent: bool, integrator: Integrator) -> f64 {
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    sim.set_options(SolverOptions { integrator, ..SolverOptions::default() }).unwrap();
    sim.set_configuration(q0).unwrap();
    let n = v0.len();
    let mut start = v0.to_vec();
    if consistent {
        let (mut m, mut b) = (vec![0.0; n * n], vec![0.0; n]);
        sim.mass_matrix(&mut m).unwrap();
        sim.bias_forces(v0, &mut b).unwrap();
        let qdd = solve(m, b.iter().map(|x| -x).collect());
        start = (0..n).map(|i| v0[i] + 0.5 * dt * qdd[i]).collect();
    }
    sim.set_generalized_velocity(&start).unwrap();
    let every = ((1e-3 / dt).round() as usize).max(1);
    let mut q = vec![0.0; n];
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
    names.iter().map(|n| { let j = u.joints[n]; u.builder.joint_limits().iter().find(|l| l.joint == j).map_or((-1.0, 1.0), |l| (l.lower, l.upper)) }).collect()
}

#[test]
fn probe() {
    for (file, damping) in [("panda_description/urdf/panda.urdf", true), ("panda_description/urdf/panda.urdf", false), ("ur_description/urdf/ur5_robot.urdf", true)] {
        let Some(urdf) = arm_reference::welded_urdf("probe", file) else { return };
        if !damping {
            let t = std::fs::read_to_string(&urdf).unwrap().replace("damping=\"0.003\"", "damping=\"0.0\"");
            std::fs::write(&urdf, t).unwrap();
        }
        let (model, names) = arm(&urdf);
        let lim = ranges(&urdf, &names);
        let n = names.len();
        for (seed, vscale) in [(1u64, 1.0), (3, 0.5)] {
            let mut rng = rng::Rng(0x9E37_79B9_7F4A_7C15 ^ seed);
            let q0: Vec<f64> = lim.iter().map(|&(lo, hi)| { let (lo, hi) = (lo.max(-3.0), hi.min(3.0)); rng.uniform(lo + 0.1 * (hi - lo), hi - 0.1 * (hi - lo)) }).collect();
            let v0: Vec<f64> = (0..n).map(|_| rng.uniform(-vscale, vscale)).collect();
            let reference = arm_reference::rk4("probe", &urdf, &names, &q0, &v0, 1e-5, 100, 1.0).unwrap();
            let mut line = format!("{file} damping {damping} seed {seed} v {vscale}:");
            for dt in [1e-2, 1e-3, 1e-4] {
                let (e1, e2) = (error(&model, &reference, &q0, &v0, dt, false), error(&model, &reference, &q0, &v0, dt, true));
                let e3 = error_with(&model, &reference, &q0, &v0, dt, false, Integrator::SecondOrder);
                line += &format!(" | dt {dt:e} {e1:.2e} {e2:.2e} {e3:.2e}");
            }
            println!("{line}");
        }
    }
}
