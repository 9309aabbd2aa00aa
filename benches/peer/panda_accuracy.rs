//! Accuracy against cost on the panda (issue 31), maxdyn's integrators beside MuJoCo's RK4
//! and Euler in one process: the case of tests/second_order.rs (example-robot-data's
//! panda, fingers welded, joint damping 0.003 kept, fixed base, gravity, no contacts, no
//! limits, the same seeded random start), the error the largest joint error over the
//! millisecond nodes of 1 s against Pinocchio's ABA integrated by RK4 at 1e-4 s, the cost
//! the CPU time of the step calls per simulated second. MuJoCo loads the URDF that
//! benches/peer/make_robot_models.py writes (`target/peer/robots/panda.urdf`).
//! Shared by benches/integrator_peer.rs and the report (examples/report/integrators.rs);
//! the including crate declares `require`, `arm_reference` and `rng` (tests/common/).

use std::f64::consts::PI;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::arm_reference;
use crate::mujoco::MjSim;
use crate::rng::Rng;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Integrator, Model, Sim, SolverOptions};

const PANDA: &str = "panda_description/urdf/panda.urdf";

/// An engine and integrator of the comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Engine {
    Maxdyn(Integrator),
    MujocoRk4,
    MujocoEuler,
}

impl Engine {
    pub fn label(self) -> &'static str {
        match self {
            Engine::Maxdyn(Integrator::FirstOrder) => "maxdyn first order",
            Engine::Maxdyn(Integrator::SecondOrder) => "maxdyn second order",
            Engine::Maxdyn(Integrator::FourthOrder) => "maxdyn fourth order",
            Engine::MujocoRk4 => "MuJoCo RK4",
            Engine::MujocoEuler => "MuJoCo Euler",
        }
    }
}

/// One rollout of 1 s: the error (rad) and the median CPU time of the step calls (s).
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub engine: Engine,
    pub dt: f64,
    pub error: f64,
    pub cpu: f64,
}

/// The panda, its start and the reference trajectory (one row per millisecond).
pub struct PandaCase {
    model: Arc<Model>,
    names: Vec<String>,
    q0: Vec<f64>,
    v0: Vec<f64>,
    reference: Vec<Vec<f64>>,
}

/// CPU time of this thread (s): the machine is shared, so wall time would count waits.
fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a writable timespec
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + 1e-9 * ts.tv_nsec as f64
}

fn uniform(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * (rng.next() >> 11) as f64 / (1u64 << 53) as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

impl PandaCase {
    /// The case, or why not (the corpus or Pinocchio's venv of tests/setup.sh missing).
    /// `tag` names the welded URDF written under target/second_order/.
    pub fn new(tag: &str) -> Result<PandaCase, String> {
        let source = Path::new(arm_reference::ROBOTS).join(PANDA);
        let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/python-venv/bin/python");
        if !source.exists() || !venv.exists() {
            return Err(format!("no {} or no {} (run `bash tests/setup.sh`)", source.display(), venv.display()));
        }
        let urdf = arm_reference::welded_urdf(tag, PANDA).ok_or("no corpus")?;
        let u = Urdf::from_file_with(&urdf, &UrdfOptions { joint_limits: false, ..UrdfOptions::default() }).map_err(|e| e.to_string())?;
        let mut names = vec![String::new(); u.joints.len()];
        for (n, &j) in &u.joints {
            names[j] = n.clone();
        }
        let model = Arc::new(Model::new(&u.builder).map_err(|e| e.to_string())?);
        // the start of tests/second_order.rs: q uniform in the inner 80 % of each range
        // (clipped to ±3 rad), q̇ uniform in ±1 rad/s, the same seed and order of draws
        let limited = Urdf::from_file(&urdf, false).map_err(|e| e.to_string())?;
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ 1);
        let mut q0 = Vec::new();
        for n in &names {
            let j = limited.joints[n];
            let l = limited.builder.joint_limits().iter().find(|l| l.joint == j).ok_or("the panda's joints are limited")?;
            let (lo, hi) = (l.lower.max(-3.0), l.upper.min(3.0));
            q0.push(uniform(&mut rng, lo + 0.1 * (hi - lo), hi - 0.1 * (hi - lo)));
        }
        let v0: Vec<f64> = (0..names.len()).map(|_| uniform(&mut rng, -1.0, 1.0)).collect();
        let reference = arm_reference::rk4(tag, &urdf, &names, &q0, &v0, 1e-4, 10, 1.0).ok_or("no venv")?;
        Ok(PandaCase { model, names, q0, v0, reference })
    }

    /// Largest joint error of the configuration `q` (joint-id order) at step k of `dt`.
    fn error_at(&self, q: &[f64], k: usize, dt: f64) -> f64 {
        let r = &self.reference[(k as f64 * dt * 1e3).round() as usize];
        // angles compared modulo 2π (maxdyn reads them in (−π, π])
        let wrapped = |d: f64| (d + PI).rem_euclid(2.0 * PI) - PI;
        q.iter().zip(r).map(|(a, b)| wrapped(a - b).abs()).fold(0.0, f64::max)
    }

    /// 1 s of steps of `dt`, `step` timed between the millisecond readouts by `read`.
    fn rollout(&self, dt: f64, mut step: impl FnMut() -> Result<(), String>, mut read: impl FnMut(&mut [f64])) -> Result<(f64, f64), String> {
        let every = ((1e-3 / dt).round() as usize).max(1);
        let steps = (1.0 / dt).round() as usize;
        let mut q = vec![0.0; self.names.len()];
        let (mut worst, mut cpu) = (0.0f64, 0.0);
        let mut k = 0;
        while k < steps {
            let n = every.min(steps - k);
            let t = cpu_seconds();
            for _ in 0..n {
                step()?;
            }
            cpu += cpu_seconds() - t;
            k += n;
            read(&mut q);
            worst = worst.max(self.error_at(&q, k, dt));
        }
        Ok((worst, cpu))
    }

    /// maxdyn with `integrator` at `dt` from the start set through the whole-state
    /// setters (the velocities set are those at t = 0), `reps` timed rollouts.
    pub fn maxdyn(&self, integrator: Integrator, dt: f64, reps: usize) -> Result<Run, String> {
        self.maxdyn_with(SolverOptions { integrator, ..SolverOptions::default() }, dt, reps)
    }

    /// [`PandaCase::maxdyn`] with any solver options (a looser tolerance, say).
    pub fn maxdyn_with(&self, options: SolverOptions, dt: f64, reps: usize) -> Result<Run, String> {
        let integrator = options.integrator;
        let (mut error, mut times) = (0.0, Vec::new());
        for _ in 0..reps.max(1) {
            let mut sim = Sim::new(self.model.clone(), dt).map_err(|e| e.to_string())?;
            sim.set_options(options).map_err(|e| e.to_string())?;
            sim.set_configuration(&self.q0).map_err(|e| e.to_string())?;
            sim.set_generalized_velocity(&self.v0).map_err(|e| e.to_string())?;
            let sim = std::cell::RefCell::new(sim);
            let (e, t) = self.rollout(dt, || sim.borrow_mut().step().map(|_| ()).map_err(|e| format!("maxdyn {integrator:?} at dt {dt:e}: {e}")), |q| sim.borrow().configuration(q).unwrap())?;
            error = e;
            times.push(t);
        }
        Ok(Run { engine: Engine::Maxdyn(integrator), dt, error, cpu: median(times) })
    }

    /// MuJoCo's `sim` (the panda.urdf model) with RK4 or Euler at `dt` from the same
    /// start (joints matched by name), `reps` timed rollouts.
    pub fn mujoco(&self, sim: &mut MjSim, rk4: bool, dt: f64, reps: usize) -> Result<Run, String> {
        let qadr: Vec<usize> = self.names.iter().map(|n| sim.joint_qpos(n)).collect();
        let vadr: Vec<usize> = self.names.iter().map(|n| sim.joint_dof(n)).collect();
        if sim.qpos().len() != self.names.len() {
            return Err(format!("MuJoCo's panda has {} coordinates, maxdyn's {}", sim.qpos().len(), self.names.len()));
        }
        sim.set_integrator(rk4);
        sim.set_timestep(dt);
        let (mut error, mut times) = (0.0, Vec::new());
        for _ in 0..reps.max(1) {
            sim.reset();
            for (i, (&qa, &va)) in qadr.iter().zip(&vadr).enumerate() {
                sim.qpos()[qa] = self.q0[i];
                sim.qvel()[va] = self.v0[i];
            }
            sim.forward();
            let sim = std::cell::RefCell::new(&mut *sim);
            let (e, t) = self.rollout(
                dt,
                || {
                    sim.borrow_mut().step();
                    Ok(())
                },
                |q| {
                    let s = sim.borrow();
                    for (qi, &a) in q.iter_mut().zip(&qadr) {
                        *qi = s.qpos_at(a);
                    }
                },
            )?;
            if !e.is_finite() {
                return Err(format!("MuJoCo {} at dt {dt:e} diverged", if rk4 { "RK4" } else { "Euler" }));
            }
            error = e;
            times.push(t);
        }
        Ok(Run { engine: if rk4 { Engine::MujocoRk4 } else { Engine::MujocoEuler }, dt, error, cpu: median(times) })
    }
}

/// The (dt, CPU per simulated second) at which `runs` (one engine's, any order) reach
/// `target` rad: log-log interpolation between the two runs about it, or extrapolation
/// along the two most accurate (least accurate) runs' slope past the end; None with fewer
/// than two runs.
pub fn at_accuracy(runs: &[Run], target: f64) -> Option<(f64, f64)> {
    let mut r: Vec<&Run> = runs.iter().collect();
    r.sort_by(|a, b| b.error.partial_cmp(&a.error).unwrap());
    if r.len() < 2 {
        return None;
    }
    let i = (0..r.len() - 1).find(|&i| r[i + 1].error <= target).unwrap_or(r.len() - 2);
    let (a, b) = (r[i], r[i + 1]);
    let s = (target.ln() - a.error.ln()) / (b.error.ln() - a.error.ln());
    let lerp = |x: f64, y: f64| (x.ln() + s * (y.ln() - x.ln())).exp();
    Some((lerp(a.dt, b.dt), lerp(a.cpu, b.cpu)))
}
