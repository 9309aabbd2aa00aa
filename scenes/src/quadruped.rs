//! SCENARIOS C1: the paper's walking quadruped (Unitree A1, sec. 5 "Application Examples"
//! and appendix "Application Details", algorithms "Leg Controller" and "Sampling-Based
//! Learning"). Model, initial pose, gait controller, rollout and random search; shared by
//! examples/quadruped.rs and the application tests.
//!
//! Parameter order. The appendix writes `b, a1, a2, d1, d2 = params` with the start
//! (0.1, 0, 1, 0, −1.5), which would start the thigh straight down (θ = 0) with a calf
//! swing of ±1 rad. The authors' code (ConstrainedDynamics.jl, MSD2023_experiments,
//! walker/control.jl and learning.jl) reads the same five numbers as
//! (b, a_thigh, d_thigh, a_calf, d_calf) — thigh at 1 rad, calf at −1.5 rad, both still:
//! a standing pose, from which the learning starts. We follow the code (`Gait`).
//! Likewise its samples are Gaussian (`randn`), where the appendix writes `rand`.

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{ConeType, Model, Sim, SolverOptions};
use std::f64::consts::PI;
use std::path::PathBuf;
use std::sync::Arc;

pub const DT: f64 = 0.001;
pub const FRICTION: f64 = 0.2;
/// Contact point in each calf body frame (centre of mass; the foot is 0.1 m below it).
pub const FOOT: [f64; 3] = [0.0, 0.0, -0.1];
/// PD gains (hip, thigh, calf).
pub const KP: [f64; 3] = [100.0, 80.0, 60.0];
pub const KD: [f64; 3] = [5.0, 4.0, 3.0];
/// Legs in the order of the authors' code; FR and RL share one phase, FL and RR the other.
pub const LEGS: [&str; 4] = ["FR", "FL", "RR", "RL"];
/// A trunk centre of mass below this has fallen (it stands at 0.28 m); the rollout stops.
pub const FALLEN: f64 = 0.1;
pub const START: Gait = Gait { b: 0.1, a_thigh: 0.0, d_thigh: 1.0, a_calf: 0.0, d_calf: -1.5 };
/// What `cargo run --release --example quadruped` (seed 1, 100 episodes of 2 s) learned,
/// rounded to 4 digits: a fast trot (b = 0.79: 7.9 Hz) that walks 19.2 m in 10 s.
pub const LEARNED_SEED1: Gait = Gait { b: 0.7927, a_thigh: -0.0452, d_thigh: 0.7746, a_calf: -0.6673, d_calf: -1.0429 };

pub fn model_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/a1_cd_paper_quadruped_simple.urdf")
}

/// The five gait parameters: frequency scale b (20π·b rad/s), thigh and calf amplitude
/// and offset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gait {
    pub b: f64,
    pub a_thigh: f64,
    pub d_thigh: f64,
    pub a_calf: f64,
    pub d_calf: f64,
}

impl Gait {
    pub fn to_array(self) -> [f64; 5] {
        [self.b, self.a_thigh, self.d_thigh, self.a_calf, self.d_calf]
    }
    pub fn from_array(p: [f64; 5]) -> Gait {
        Gait { b: p[0], a_thigh: p[1], d_thigh: p[2], a_calf: p[3], d_calf: p[4] }
    }

    /// Thigh and calf targets of a leg at time t: θ = a·cos(20π·b·t + phase) + d with
    /// phases (0, −π/2) for FR and RL, (π, π/2) for FL and RR (Leg Controller).
    pub fn targets(&self, leg: usize, t: f64) -> (f64, f64) {
        let w = 20.0 * PI * self.b * t;
        let (ph_thigh, ph_calf) = if leg == 0 || leg == 3 { (0.0, -PI / 2.0) } else { (PI, PI / 2.0) };
        (self.a_thigh * (w + ph_thigh).cos() + self.d_thigh, self.a_calf * (w + ph_calf).cos() + self.d_calf)
    }
}

/// The A1 with a free trunk and one point contact per calf.
pub struct Quadruped {
    pub model: Arc<Model>,
    pub trunk: usize,
    /// joints[leg] = (hip, thigh, calf)
    pub joints: [[usize; 3]; 4],
    pub feet: [usize; 4],
}

impl Quadruped {
    /// The A1 with the linearized friction cone (4 directions), as in the paper.
    pub fn load() -> Quadruped {
        Quadruped::load_with_cone(ConeType::Linear)
    }

    /// The A1 with the given friction cone on its feet.
    pub fn load_with_cone(cone: ConeType) -> Quadruped {
        // SCENARIOS C1 and its learned gaits are defined without the file's joint limits:
        // the learned trot drives knees and hips into them in 64 % of its steps (up to
        // 38 N·m), which makes it another experiment (and another benchmark)
        Quadruped::load_with(cone, false)
    }

    /// The A1 with the given friction cone on its feet, with or without the file's joint
    /// limits.
    pub fn load_with(cone: ConeType, joint_limits: bool) -> Quadruped {
        let options = UrdfOptions { floating: true, joint_limits, ..UrdfOptions::default() };
        let mut u = Urdf::from_file_with(model_path(), &options).expect("load the A1 URDF");
        let trunk = u.body("trunk").expect("trunk");
        let mut joints = [[0; 3]; 4];
        let mut feet = [0; 4];
        for (l, leg) in LEGS.iter().enumerate() {
            for (k, part) in ["hip", "thigh", "calf"].iter().enumerate() {
                joints[l][k] = u.joint(&format!("{leg}_{part}_joint")).expect("leg joint");
            }
            let calf = u.body(&format!("{leg}_calf")).expect("calf body");
            feet[l] = u.builder.add_ground_contact(calf, FOOT, 0.0, FRICTION).unwrap();
            if cone == ConeType::Nonlinear {
                u.builder.set_contact_cone(feet[l], cone, 2).unwrap();
            }
        }
        let model = Arc::new(Model::new(&u.builder).expect("compile the A1"));
        Quadruped { model, trunk, joints, feet }
    }

    /// Standing at the gait's t = 0 targets (hips 0), at rest, trunk level at the origin
    /// of x, y and lifted so the lowest foot is `clearance` above the ground.
    pub fn standing(&self, gait: &Gait, clearance: f64) -> Sim {
        let mut sim = Sim::new(self.model.clone(), DT).unwrap();
        for l in 0..4 {
            let (thigh, calf) = gait.targets(l, 0.0);
            sim.set_joint_position(self.joints[l][0], &[0.0]).unwrap();
            sim.set_joint_position(self.joints[l][1], &[thigh]).unwrap();
            sim.set_joint_position(self.joints[l][2], &[calf]).unwrap();
        }
        let lowest = self.feet.iter().map(|&c| sim.contact(c).unwrap().gap).fold(f64::INFINITY, f64::min);
        let x0 = sim.body_state(self.trunk).unwrap();
        for i in 0..self.model.body_count() {
            let mut s = sim.body_state(i).unwrap();
            s[0] -= x0[0];
            s[1] -= x0[1];
            s[2] += clearance - lowest;
            sim.set_body_state(i, &s).unwrap();
        }
        sim
    }

    /// Sets the 12 PD torques for time `t` (hip target 0).
    pub fn control(&self, sim: &mut Sim, gait: &Gait, t: f64) {
        let (mut th, mut om) = ([0.0], [0.0]);
        for l in 0..4 {
            let (thigh, calf) = gait.targets(l, t);
            for (k, target) in [0.0, thigh, calf].into_iter().enumerate() {
                let j = self.joints[l][k];
                sim.joint_position(j, &mut th).unwrap();
                sim.joint_velocity(j, &mut om).unwrap();
                sim.set_joint_input(j, &[KP[k] * (target - th[0]) - KD[k] * om[0]]).unwrap();
            }
        }
    }

    /// Lowest foot height (negative: penetration).
    pub fn lowest_foot(&self, sim: &Sim) -> f64 {
        self.feet.iter().map(|&c| sim.contact(c).unwrap().gap).fold(f64::INFINITY, f64::min)
    }
}

/// What one rollout did.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rollout {
    /// Trunk displacement along x (forward) [m].
    pub distance: f64,
    /// Steps completed.
    pub steps: usize,
    /// Deepest foot penetration over the rollout (max of −gap, ≥ 0) [m].
    pub max_penetration: f64,
    /// Highest any foot has been above the ground [m] (feet do lift off).
    pub max_foot_height: f64,
    /// Lowest and highest trunk height [m].
    pub min_trunk_z: f64,
    pub max_trunk_z: f64,
    /// Newton/interior-point iterations summed over the steps, and the most in one step.
    pub iterations: usize,
    pub max_iterations: usize,
    /// Newton matrices factored, summed over the steps (`StepStats::factorizations`).
    pub factorizations: usize,
    /// Why the rollout stopped early: the solver failed or the trunk fell below `FALLEN`.
    pub failure: Option<Failure>,
}

impl Rollout {
    /// One line: outcome, distance, trunk band, penetration, foot clearance, iterations.
    pub fn summary(&self) -> String {
        format!(
            "{} steps, {:?}, distance {:.4} m, trunk z {:.4}…{:.4}, max penetration {:.2e} m, highest foot {:.4} m, {:.2} iterations/step (max {}), {:.3} factorizations/step",
            self.steps,
            self.failure,
            self.distance,
            self.min_trunk_z,
            self.max_trunk_z,
            self.max_penetration,
            self.max_foot_height,
            self.iterations as f64 / self.steps.max(1) as f64,
            self.max_iterations,
            self.factorizations as f64 / self.steps.max(1) as f64
        )
    }
}

#[derive(Debug, Clone)]
pub struct FailureState {
    pub time: f64,
    /// Body states x, q, v, ω (13 each) before the failing step, and the joint inputs.
    pub bodies: Vec<[f64; 13]>,
    pub inputs: Vec<f64>,
}

#[derive(Debug, Clone, Copy)]
pub enum Failure {
    Solver { step: usize, residual: f64, iterations: usize, complementarity: f64 },
    Fell { step: usize },
}

/// Simulates `steps` steps of the gait from the standing pose; stops at a solver failure
/// (recording the state before the failing step in `dump` if given) or a fall.
pub fn rollout(q: &Quadruped, gait: &Gait, steps: usize, options: SolverOptions, mut dump: Option<&mut Option<FailureState>>) -> Rollout {
    let mut sim = q.standing(gait, 0.0);
    sim.set_options(options).unwrap();
    let x0 = sim.body_state(q.trunk).unwrap()[0];
    let z = sim.body_state(q.trunk).unwrap()[2];
    let mut r = Rollout { min_trunk_z: z, max_trunk_z: z, max_penetration: (-q.lowest_foot(&sim)).max(0.0), ..Default::default() };
    for k in 0..steps {
        let t = sim.time();
        q.control(&mut sim, gait, t);
        match sim.step() {
            Ok(st) => {
                r.iterations += st.iterations;
                r.max_iterations = r.max_iterations.max(st.iterations);
                r.factorizations += st.factorizations;
            }
            Err(_) => {
                let st = *sim.stats();
                r.failure = Some(Failure::Solver { step: k, residual: st.residual, iterations: st.iterations, complementarity: st.complementarity });
                // a failed step leaves the state untouched: this is the state it started from
                if let Some(d) = dump.as_mut() {
                    **d = Some(snapshot(q, &sim, t));
                }
                break;
            }
        }
        r.steps = k + 1;
        r.max_penetration = r.max_penetration.max(-q.lowest_foot(&sim));
        r.max_foot_height = q.feet.iter().map(|&c| sim.contact(c).unwrap().gap).fold(r.max_foot_height, f64::max);
        let z = sim.body_state(q.trunk).unwrap()[2];
        r.min_trunk_z = r.min_trunk_z.min(z);
        r.max_trunk_z = r.max_trunk_z.max(z);
        if z < FALLEN {
            r.failure = Some(Failure::Fell { step: k });
            break;
        }
    }
    r.distance = sim.body_state(q.trunk).unwrap()[0] - x0;
    r
}

fn snapshot(q: &Quadruped, sim: &Sim, time: f64) -> FailureState {
    let bodies = (0..q.model.body_count()).map(|i| sim.body_state(i).unwrap()).collect();
    let mut inputs = Vec::new();
    let mut u = [0.0];
    for leg in &q.joints {
        for &j in leg {
            sim.joint_input(j, &mut u).unwrap();
            inputs.push(u[0]);
        }
    }
    FailureState { time, bodies, inputs }
}

/// `n` gaits around the learned trot, each parameter moved by 0.002·N(0, 1) (the random
/// search's small steps): the rollouts of the batch tests and benchmark.
pub fn perturbed_learned_gaits(n: usize, seed: u64) -> Vec<Gait> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut p = LEARNED_SEED1.to_array();
            for x in &mut p {
                *x += 0.002 * rng.normal();
            }
            Gait::from_array(p)
        })
        .collect()
}

/// xorshift64* with Box–Muller normals: deterministic sampling without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn uniform(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        ((self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
    pub fn normal(&mut self) -> f64 {
        (-2.0 * self.uniform().ln()).sqrt() * (2.0 * PI * self.uniform()).cos()
    }
}

/// One episode of the random search.
#[derive(Debug, Clone, Copy)]
pub struct Episode {
    pub gait: Gait,
    pub result: Rollout,
    pub improved: bool,
    /// Best distance so far.
    pub best: f64,
    /// Wall time of the rollout [s].
    pub wall: f64,
}

/// Sampling-based learning (appendix algorithm; the authors' code): perturb the last
/// successful parameters by N(0, explore)·rand, or, right after a success, by
/// 0.002·randn + 0.01·normalize(last improvement); keep a sample that walks farther
/// (explore back to 0.1), else shrink explore by 0.9. Failed rollouts count as no progress.
/// `first_failure` receives the state before the first failing solver step, if any.
pub fn learn(
    q: &Quadruped,
    episodes: usize,
    steps: usize,
    seed: u64,
    options: SolverOptions,
    first_failure: &mut Option<(Gait, FailureState)>,
    mut report: impl FnMut(usize, &Episode),
) -> (Gait, f64, Vec<Episode>) {
    let mut rng = Rng::new(seed);
    let mut best = START.to_array();
    let mut best_distance = 0.0;
    let mut bias = [0.0; 5];
    let mut explore = 0.1;
    let mut log = Vec::with_capacity(episodes);
    for e in 0..episodes {
        let mut p = best;
        let bias_norm = bias.iter().map(|b| b * b).sum::<f64>().sqrt();
        for i in 0..5 {
            p[i] += if bias_norm == 0.0 { explore * rng.normal() } else { 0.002 * rng.normal() + 0.01 * bias[i] / bias_norm };
        }
        let gait = Gait::from_array(p);
        let t0 = std::time::Instant::now();
        let mut failed = None;
        let result = rollout(q, &gait, steps, options, if first_failure.is_none() { Some(&mut failed) } else { None });
        if let Some(f) = failed {
            *first_failure = Some((gait, f));
        }
        let wall = t0.elapsed().as_secs_f64();
        let improved = result.failure.is_none() && result.distance > best_distance;
        if improved {
            for i in 0..5 {
                bias[i] = p[i] - best[i];
            }
            best = p;
            best_distance = result.distance;
            explore = 0.1;
        } else {
            bias = [0.0; 5];
            explore *= 0.9;
        }
        let ep = Episode { gait, result, improved, best: best_distance, wall };
        report(e, &ep);
        log.push(ep);
    }
    (Gait::from_array(best), best_distance, log)
}
