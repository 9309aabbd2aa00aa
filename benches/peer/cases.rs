//! The benchmark's cases, each built in both engines: the A1 quadruped (SCENARIOS C1) under
//! its PD gait controller and the B1 pendulum chains. Each side runs from the same
//! initial state with the same controller, computed from that engine's own joint angles
//! and velocities. Only the step calls count (see `ChunkClock`). Rollouts advance in chunks so that
//! the caller can interleave the two engines.

use crate::mujoco::{MjSim, Mujoco};
use maxdyn::urdf::Urdf;
use maxdyn::{ConeType, Model, Sim};
use maxdyn_scenes::mechanisms::pendulum_chain;
use maxdyn_scenes::quadruped::{self, Gait, Quadruped, DT, KD, KP, LEGS};
use std::path::Path;
use std::time::Instant;

/// CPU time of this thread [s]: on the shared machine, unlike wall time, it leaves out
/// the time the thread waits for a core. (A system call of ≈0.6 µs: read per chunk.)
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + 1e-9 * t.tv_nsec as f64
}

/// Times a chunk of steps: the step calls' share of the chunk's wall time (the
/// controller and readouts excluded) applied to the chunk's CPU time.
struct ChunkClock {
    cpu: f64,
    wall: Instant,
    steps_wall: f64,
}

impl ChunkClock {
    fn start() -> ChunkClock {
        ChunkClock { cpu: thread_cpu_seconds(), wall: Instant::now(), steps_wall: 0.0 }
    }
    #[inline]
    fn time<T>(&mut self, step: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = step();
        self.steps_wall += t.elapsed().as_secs_f64();
        r
    }
    /// CPU seconds of the step calls.
    fn stop(self) -> f64 {
        let (cpu, wall) = (thread_cpu_seconds() - self.cpu, self.wall.elapsed().as_secs_f64());
        if wall > 0.0 { cpu * self.steps_wall / wall } else { 0.0 }
    }
}

/// Radius of MuJoCo's foot spheres (make_models.py): MuJoCo starts this much higher.
const FOOT_RADIUS: f64 = 0.001;

/// What one rollout of one engine did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// CPU time of the step calls [s].
    pub step_seconds: f64,
    pub steps: usize,
    /// Solver iterations summed over the steps.
    pub iterations: usize,
    /// Deepest foot penetration [m] (quadruped only).
    pub penetration: Option<f64>,
    /// Trunk displacement along x [m] (quadruped only).
    pub distance: Option<f64>,
    pub failure: Option<String>,
}

impl Outcome {
    pub fn iterations_per_step(&self) -> f64 {
        self.iterations as f64 / self.steps.max(1) as f64
    }
}

/// How far the two engines' models and initial states are apart: largest difference of
/// body centres of mass [m], body orientations (quaternion entries), and masses and
/// inertias (relative).
pub struct Agreement {
    pub position: f64,
    pub orientation: f64,
    pub inertia: f64,
}

/// One case in both engines.
pub trait Pair {
    fn agreement(&self) -> Agreement;
    /// Both engines at the initial state, ready to step.
    fn rollouts(&mut self) -> (MaxdynRollout<'_>, MujocoRollout<'_>);
}

/// Compares maxdyn body `i` (state x, q; mass and inertia) with MuJoCo body `b`, MuJoCo
/// lifted by `lift` along z.
fn compare(a: &mut Agreement, model: &Model, sim: &Sim, i: usize, mj: &MjSim, b: usize, lift: f64) {
    let s = sim.body_state(i).unwrap();
    let (x, q) = (mj.xipos(b), mj.xquat(b));
    for k in 0..3 {
        a.position = a.position.max((s[k] + if k == 2 { lift } else { 0.0 } - x[k]).abs());
    }
    let same = (0..4).map(|k| (s[3 + k] - q[k]).abs()).fold(0.0, f64::max);
    let opposite = (0..4).map(|k| (s[3 + k] + q[k]).abs()).fold(0.0, f64::max);
    a.orientation = a.orientation.max(same.min(opposite));
    let body = &model.bodies[i];
    let m = mj.body_inertia(b);
    a.inertia = a.inertia.max((body.mass - m[0]).abs() / body.mass);
    let scale = (0..9).map(|k| body.inertia[(k / 3, k % 3)].abs()).fold(0.0, f64::max);
    for k in 0..9 {
        a.inertia = a.inertia.max((body.inertia[(k / 3, k % 3)] - m[1 + k]).abs() / scale);
    }
}

/// The A1 with the given friction cone, and its URDF (for the link names).
fn a1(cone: ConeType) -> (Quadruped, Urdf) {
    let urdf = Urdf::from_file(quadruped::model_path(), true).expect("load the A1 URDF");
    (Quadruped::load_with_cone(cone), urdf)
}

pub struct QuadrupedPair {
    q: Quadruped,
    urdf: Urdf,
    gait: Gait,
    mj: MjSim,
    /// MuJoCo's qpos of the standing pose.
    start: Vec<f64>,
    /// MuJoCo (qpos address, dof address, actuator) of each leg joint.
    mj_joints: [[(usize, usize, usize); 3]; 4],
    mj_trunk: usize,
}

impl QuadrupedPair {
    /// Both engines standing at the gait's t = 0 targets, feet on the ground; the
    /// elliptic (MuJoCo) and second-order (maxdyn) cones, or pyramidal and linear ones;
    /// MuJoCo's contacts with the given solref time constant, or its default.
    pub fn new(mujoco: &Mujoco, models: &Path, gait: Gait, elliptic: bool, mj_timeconst: Option<f64>) -> Result<QuadrupedPair, String> {
        let (q, urdf) = a1(if elliptic { ConeType::Nonlinear } else { ConeType::Linear });
        let mut mj = mujoco.load(&models.join("a1.xml"))?;
        mj.set_elliptic_cone(elliptic);
        if let Some(t) = mj_timeconst {
            mj.set_contact_timeconst(t);
        }
        if (mj.timestep() - DT).abs() > 1e-15 {
            return Err(format!("a1.xml has timestep {} (maxdyn {DT})", mj.timestep()));
        }
        let mut mj_joints = [[(0, 0, 0); 3]; 4];
        for (l, leg) in LEGS.iter().enumerate() {
            for (k, part) in ["hip", "thigh", "calf"].iter().enumerate() {
                let name = format!("{leg}_{part}_joint");
                mj_joints[l][k] = (mj.joint_qpos(&name), mj.joint_dof(&name), mj.actuator(&name));
            }
        }
        let mj_trunk = mj.body("trunk");
        // the same joint angles; the trunk turned alike, its centre of mass placed
        // where maxdyn's is (lifted by the foot radius: sphere bottoms on the ground)
        let sim = q.standing(&gait, 0.0);
        let s = sim.body_state(q.trunk).unwrap();
        let free = mj.joint_qpos("floating_base");
        let mut th = [0.0];
        for l in 0..4 {
            for k in 0..3 {
                sim.joint_position(q.joints[l][k], &mut th).unwrap();
                mj.qpos()[mj_joints[l][k].0] = th[0];
            }
        }
        mj.qpos()[free..free + 7].copy_from_slice(&[0.0, 0.0, 0.0, s[3], s[4], s[5], s[6]]);
        mj.forward();
        let com = mj.xipos(mj_trunk);
        let target = [s[0], s[1], s[2] + FOOT_RADIUS];
        for k in 0..3 {
            mj.qpos()[free + k] = target[k] - com[k];
        }
        mj.forward();
        let start = mj.qpos().to_vec();
        Ok(QuadrupedPair { q, urdf, gait, mj, start, mj_joints, mj_trunk })
    }
}

impl Pair for QuadrupedPair {
    fn agreement(&self) -> Agreement {
        let sim = self.q.standing(&self.gait, 0.0);
        let mut a = Agreement { position: 0.0, orientation: 0.0, inertia: 0.0 };
        for (name, &i) in &self.urdf.bodies {
            compare(&mut a, &self.q.model, &sim, i, &self.mj, self.mj.body(name), FOOT_RADIUS);
        }
        assert_eq!(self.urdf.bodies.len() + 1, self.mj.nbody(), "body count");
        a
    }

    fn rollouts(&mut self) -> (MaxdynRollout<'_>, MujocoRollout<'_>) {
        let sim = self.q.standing(&self.gait, 0.0);
        self.mj.reset();
        self.mj.qpos().copy_from_slice(&self.start);
        self.mj.forward();
        let a1 = MjA1 { joints: self.mj_joints, gait: self.gait, trunk: self.mj_trunk };
        (MaxdynRollout::new(sim, Some((&self.q, self.gait))), MujocoRollout::new(&mut self.mj, Some(a1)))
    }
}

/// SCENARIOS B1: `pendulum_chain(n, spherical, 0.01)` and its MuJoCo twin, no controller.
pub struct ChainPair {
    n: usize,
    spherical: bool,
    mj: MjSim,
}

pub const CHAIN_DT: f64 = 0.01;

impl ChainPair {
    pub fn new(mujoco: &Mujoco, models: &Path, n: usize, spherical: bool) -> Result<ChainPair, String> {
        let kind = if spherical { "spherical" } else { "revolute" };
        let mj = mujoco.load(&models.join(format!("chain_{kind}_{n}.xml")))?;
        if (mj.timestep() - CHAIN_DT).abs() > 1e-15 {
            return Err(format!("chain model has timestep {}", mj.timestep()));
        }
        Ok(ChainPair { n, spherical, mj })
    }
}

impl Pair for ChainPair {
    fn agreement(&self) -> Agreement {
        let sim = pendulum_chain(self.n, self.spherical, CHAIN_DT);
        let mut a = Agreement { position: 0.0, orientation: 0.0, inertia: 0.0 };
        for i in 0..self.n {
            compare(&mut a, sim.model(), &sim, i, &self.mj, self.mj.body(&format!("link{i}")), 0.0);
        }
        a
    }

    fn rollouts(&mut self) -> (MaxdynRollout<'_>, MujocoRollout<'_>) {
        self.mj.reset();
        (MaxdynRollout::new(pendulum_chain(self.n, self.spherical, CHAIN_DT), None), MujocoRollout::new(&mut self.mj, None))
    }
}

/// A maxdyn run in progress, under the quadruped's controller if given.
pub struct MaxdynRollout<'a> {
    sim: Sim,
    a1: Option<(&'a Quadruped, Gait)>,
    x0: f64,
    lowest: f64,
    out: Outcome,
}

impl<'a> MaxdynRollout<'a> {
    fn new(sim: Sim, a1: Option<(&'a Quadruped, Gait)>) -> MaxdynRollout<'a> {
        let (x0, lowest) = a1.map_or((0.0, 0.0), |(q, _)| (sim.body_state(q.trunk).unwrap()[0], q.lowest_foot(&sim)));
        MaxdynRollout { sim, a1, x0, lowest, out: Outcome::default() }
    }

    /// Up to `steps` more steps (none after a failure); returns their CPU seconds.
    pub fn advance(&mut self, steps: usize) -> f64 {
        let mut clock = ChunkClock::start();
        for _ in 0..steps {
            if self.out.failure.is_some() {
                break;
            }
            let k = self.out.steps;
            if let Some((q, gait)) = self.a1 {
                let t = self.sim.time();
                q.control(&mut self.sim, &gait, t);
            }
            let sim = &mut self.sim;
            let result = clock.time(|| sim.step());
            match result {
                Ok(st) => self.out.iterations += st.iterations,
                Err(e) => {
                    self.out.failure = Some(format!("maxdyn failed at step {k}: {e}"));
                    break;
                }
            }
            self.out.steps += 1;
            if let Some((q, _)) = self.a1 {
                self.lowest = self.lowest.min(q.lowest_foot(&self.sim));
            }
        }
        let seconds = clock.stop();
        self.out.step_seconds += seconds;
        seconds
    }

    pub fn outcome(&self) -> Outcome {
        let mut out = self.out.clone();
        if let Some((q, _)) = self.a1 {
            out.penetration = Some((-self.lowest).max(0.0));
            out.distance = Some(self.sim.body_state(q.trunk).unwrap()[0] - self.x0);
        }
        out
    }
}

/// The quadruped's controller in MuJoCo: (qpos address, dof address, actuator) of each
/// leg joint, the gait, the trunk body.
#[derive(Clone, Copy)]
pub struct MjA1 {
    joints: [[(usize, usize, usize); 3]; 4],
    gait: Gait,
    trunk: usize,
}

/// A MuJoCo run in progress (from the state the data holds), under the quadruped's
/// controller if given.
pub struct MujocoRollout<'a> {
    mj: &'a mut MjSim,
    a1: Option<MjA1>,
    x0: f64,
    lowest: f64,
    out: Outcome,
}

impl<'a> MujocoRollout<'a> {
    fn new(mj: &'a mut MjSim, a1: Option<MjA1>) -> MujocoRollout<'a> {
        let x0 = a1.map_or(0.0, |a| mj.xipos(a.trunk)[0]);
        let lowest = mj.min_contact_dist();
        MujocoRollout { mj, a1, x0, lowest, out: Outcome::default() }
    }

    /// `steps` more steps; returns their CPU seconds.
    pub fn advance(&mut self, steps: usize) -> f64 {
        let (mj, mut clock) = (&mut *self.mj, ChunkClock::start());
        for _ in 0..steps {
            if let Some(a1) = &self.a1 {
                let t = mj.time();
                for (l, leg) in a1.joints.iter().enumerate() {
                    let (thigh, calf) = a1.gait.targets(l, t);
                    for (p, target) in [0.0, thigh, calf].into_iter().enumerate() {
                        let (qa, da, act) = leg[p];
                        mj.set_ctrl(act, KP[p] * (target - mj.qpos_at(qa)) - KD[p] * mj.qvel_at(da));
                    }
                }
            }
            clock.time(|| mj.step());
            self.out.steps += 1;
            self.out.iterations += mj.solver_iterations();
            // the contacts of this step were found at its start configuration
            self.lowest = self.lowest.min(mj.min_contact_dist());
        }
        let seconds = clock.stop();
        self.out.step_seconds += seconds;
        seconds
    }

    /// The outcome (computes the final configuration's positions and contacts).
    pub fn outcome(&mut self) -> Outcome {
        let mut out = self.out.clone();
        if let Some(a1) = self.a1 {
            self.mj.forward();
            out.penetration = Some((-self.lowest.min(self.mj.min_contact_dist())).max(0.0));
            out.distance = Some(self.mj.xipos(a1.trunk)[0] - self.x0);
        }
        out
    }
}
