//! The benchmark's cases, each built in both engines: the A1 quadruped (SCENARIOS C1) under
//! its PD gait controller and the B1 pendulum chains. Each side runs from the same
//! initial state with the same controller, computed from that engine's own joint angles
//! and velocities; only the step calls are timed.

use crate::mujoco::{MjSim, Mujoco};
use maxdyn::urdf::Urdf;
use maxdyn::{ConeType, Model, Sim};
use maxdyn_scenes::mechanisms::pendulum_chain;
use maxdyn_scenes::quadruped::{self, Gait, Quadruped, DT, FOOT, FRICTION, KD, KP, LEGS};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Radius of MuJoCo's foot spheres (make_models.py): MuJoCo starts this much higher.
const FOOT_RADIUS: f64 = 0.001;

/// What one rollout of one engine did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// Wall time of the step calls [s].
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
    pub fn micros_per_step(&self) -> f64 {
        1e6 * self.step_seconds / self.steps.max(1) as f64
    }
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
    fn run_maxdyn(&self, steps: usize) -> Outcome;
    fn run_mujoco(&mut self, steps: usize) -> Outcome;
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

/// The A1 as `Quadruped::load` builds it, with the given friction cone.
fn a1(cone: ConeType) -> (Quadruped, Urdf) {
    let mut u = Urdf::from_file(quadruped::model_path(), true).expect("load the A1 URDF");
    let trunk = u.body("trunk").unwrap();
    let (mut joints, mut feet) = ([[0; 3]; 4], [0; 4]);
    for (l, leg) in LEGS.iter().enumerate() {
        for (k, part) in ["hip", "thigh", "calf"].iter().enumerate() {
            joints[l][k] = u.joint(&format!("{leg}_{part}_joint")).unwrap();
        }
        let calf = u.body(&format!("{leg}_calf")).unwrap();
        feet[l] = u.builder.add_ground_contact(calf, FOOT, 0.0, FRICTION).unwrap();
        if cone == ConeType::Nonlinear {
            u.builder.set_contact_cone(feet[l], cone, 2).unwrap();
        }
    }
    let model = Arc::new(Model::new(&u.builder).unwrap());
    (Quadruped { model, trunk, joints, feet }, u)
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

    fn run_maxdyn(&self, steps: usize) -> Outcome {
        let (q, gait) = (&self.q, &self.gait);
        let mut sim = q.standing(gait, 0.0);
        let x0 = sim.body_state(q.trunk).unwrap()[0];
        let mut lowest = q.lowest_foot(&sim);
        let mut out = Outcome::default();
        for k in 0..steps {
            q.control(&mut sim, gait, k as f64 * DT);
            let t = Instant::now();
            let result = sim.step();
            out.step_seconds += t.elapsed().as_secs_f64();
            match result {
                Ok(st) => out.iterations += st.iterations,
                Err(e) => {
                    out.failure = Some(format!("maxdyn failed at step {k}: {e}"));
                    break;
                }
            }
            out.steps += 1;
            lowest = lowest.min(q.lowest_foot(&sim));
        }
        out.penetration = Some((-lowest).max(0.0));
        out.distance = Some(sim.body_state(q.trunk).unwrap()[0] - x0);
        out
    }

    fn run_mujoco(&mut self, steps: usize) -> Outcome {
        let mj = &mut self.mj;
        mj.reset();
        mj.qpos().copy_from_slice(&self.start);
        mj.forward();
        let x0 = mj.xipos(self.mj_trunk)[0];
        let mut lowest = mj.min_contact_dist();
        let mut out = Outcome::default();
        for k in 0..steps {
            let t = k as f64 * DT;
            for (l, leg) in self.mj_joints.iter().enumerate() {
                let (thigh, calf) = self.gait.targets(l, t);
                for (p, target) in [0.0, thigh, calf].into_iter().enumerate() {
                    let (qa, da, act) = leg[p];
                    let u = KP[p] * (target - mj.qpos_at(qa)) - KD[p] * mj.qvel_at(da);
                    mj.set_ctrl(act, u);
                }
            }
            let t = Instant::now();
            mj.step();
            out.step_seconds += t.elapsed().as_secs_f64();
            out.steps += 1;
            out.iterations += mj.solver_iterations();
            // the contacts of this step were found at its start configuration
            lowest = lowest.min(mj.min_contact_dist());
        }
        mj.forward();
        lowest = lowest.min(mj.min_contact_dist());
        out.penetration = Some((-lowest).max(0.0));
        out.distance = Some(mj.xipos(self.mj_trunk)[0] - x0);
        out
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

    fn run_maxdyn(&self, steps: usize) -> Outcome {
        let mut sim = pendulum_chain(self.n, self.spherical, CHAIN_DT);
        let mut out = Outcome::default();
        for k in 0..steps {
            let t = Instant::now();
            let result = sim.step();
            out.step_seconds += t.elapsed().as_secs_f64();
            match result {
                Ok(st) => out.iterations += st.iterations,
                Err(e) => {
                    out.failure = Some(format!("maxdyn failed at step {k}: {e}"));
                    break;
                }
            }
            out.steps += 1;
        }
        out
    }

    fn run_mujoco(&mut self, steps: usize) -> Outcome {
        let mj = &mut self.mj;
        mj.reset();
        let mut out = Outcome::default();
        for _ in 0..steps {
            let t = Instant::now();
            mj.step();
            out.step_seconds += t.elapsed().as_secs_f64();
            out.steps += 1;
            out.iterations += mj.solver_iterations();
        }
        out
    }
}
