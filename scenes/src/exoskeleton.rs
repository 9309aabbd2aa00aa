//! SCENARIOS C2, the paper's exoskeleton application (section 5 "Application Examples",
//! appendix "Application Details", algorithm "Exoskeleton Tracking Controller").
//! Used by `examples/exoskeleton.rs` and the application tests.
//!
//! The mechanism: `tests/fixtures/exoskeleton_cd_paper_model.urdf` (human arm: ball
//! shoulder, revolute elbow; exoskeleton: sFE and eFE revolute, sAA and sIE fixed) plus
//! two cuffs, as the paper's script (ConstrainedDynamics.jl, MSD2023_experiments,
//! `paper_experiments/applications/exo/dynamics.jl`) adds them after parsing:
//! `PlanarAxis` joints (two translations and one rotation free) with a spring of 100 on
//! every free direction, between sIE_Unit and upper_arm (axis y of sIE_Unit) and between
//! eFE_Unit and lower_arm (axis z of eFE_Unit). They close two kinematic loops.
//!
//! Controller (paper algorithm): τ = scale·K(θ_d − θ) + scale·K/10·(θ̇_d − θ̇) with
//! K = 100 (sFE) and 50 (eFE), θ_s,d = π/4 + π/4 sin t, θ_e,d = −π/4 + π/4 sin t. The
//! script differs in one detail: its derivative term is (0 − θ̇); both are available.
//! Spastic patient: u = 10(−π/4 − θ) + 2(0 − ω) on the human elbow; healthy: u = 0.

use maxdyn::math::{from_rotation_vector, qmul, rotation_vector, V3, V4};
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{JointType, Model, Sim};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};
use std::sync::Arc;

pub const DT: f64 = 0.001;
/// The paper's comfortable elbow-torque limit (N·m).
pub const TORQUE_LIMIT: f64 = 5.0;
/// Cuff spring on each free direction (N/m for the translations, N·m/rad for the
/// rotation), as in the script.
pub const CUFF_STIFFNESS: f64 = 100.0;
/// Proportional gains of the tracking controller at scale 1 (sFE, eFE); D = K/10.
pub const K_SHOULDER: f64 = 100.0;
pub const K_ELBOW: f64 = 50.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Patient {
    /// Passive arm.
    Healthy,
    /// Elbow torque 10(−π/4 − θ) + 2(0 − ω) holding the elbow at −π/4.
    Spastic,
}

impl Patient {
    pub fn name(self) -> &'static str {
        match self {
            Patient::Healthy => "healthy",
            Patient::Spastic => "spastic",
        }
    }
}

/// Which velocity the derivative term tracks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Derivative {
    /// The paper's algorithm: scale·D·(θ̇_d − θ̇).
    TrackRate,
    /// The paper's script: scale·D·(0 − θ̇).
    DampToZero,
}

/// Where the lower cuff attaches on eFE_Unit (relative to its centre of mass).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowerCuff {
    /// The script's point (0, −0.0693, 0.0803): it lies 0.1386 m from the forearm's
    /// centre of mass along the forearm (a free direction), so the cuff spring starts
    /// pre-stretched by 13.86 N along the forearm.
    Script,
    /// (0, +0.0693, 0.0803): coincides with the forearm's centre of mass at the initial
    /// pose, so the spring starts relaxed.
    Coincident,
}

/// The assembled exoskeleton: a simulation and the joint indices the controller uses.
pub struct Exoskeleton {
    pub sim: Sim,
    pub shoulder: usize,
    pub elbow: usize,
    pub s_fe: usize,
    pub e_fe: usize,
    pub upper_cuff: usize,
    pub lower_cuff: usize,
}

/// Builds the mechanism and poses it as the script does: shoulder at the rotation vector
/// of RotX(π/2)·RotZ(−π/4), elbow −π/4, sFE π/4, eFE −π/4 (both cuffs then close with
/// zero error).
pub fn build(lower: LowerCuff) -> Exoskeleton {
    build_with_step(lower, DT)
}

/// [`build`] with another time step.
pub fn build_with_step(lower: LowerCuff, dt: f64) -> Exoskeleton {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/exoskeleton_cd_paper_model.urdf");
    // the cuffs' fixed joints stay welds: the scene addresses those bodies by name
    let mut u = Urdf::from_file_with(path, &UrdfOptions { floating: false, merge_fixed: false }).expect("exoskeleton URDF");
    let body = |n: &str| u.body(n).unwrap_or_else(|| panic!("no link {n}"));
    let (s_ie, e_fe_body, upper, lower_arm) = (body("sIE_Unit"), body("eFE_Unit"), body("upper_arm"), body("lower_arm"));
    // joint points relative to the centres of mass (maxdyn and ConstrainedDynamics both
    // put the body frame at the COM with the link's orientation); axes in the exo frame
    let lower_y = match lower {
        LowerCuff::Script => -0.0693,
        LowerCuff::Coincident => 0.0693,
    };
    let b = &mut u.builder;
    let upper_cuff = b
        .add_joint(JointType::PlanarAxis, s_ie, upper, [0.0006, -0.1079, -0.1237], [0.0; 3], [0.0, 1.0, 0.0])
        .expect("upper cuff");
    let lower_cuff = b
        .add_joint(JointType::PlanarAxis, e_fe_body, lower_arm, [0.0, lower_y, 0.0803], [0.0; 3], [0.0, 0.0, 1.0])
        .expect("lower cuff");
    for (j, name) in [(upper_cuff, "upper_cuff"), (lower_cuff, "lower_cuff")] {
        b.set_joint_name(j, name).unwrap();
        b.set_joint_spring(j, &[CUFF_STIFFNESS; 3], &[0.0; 3]).unwrap();
    }
    let joint = |n: &str| u.joint(n).unwrap_or_else(|| panic!("no joint {n}"));
    let (shoulder, elbow, s_fe, e_fe) = (joint("shoulder"), joint("elbow"), joint("sFE"), joint("eFE"));
    let model = Arc::new(Model::new(&u.builder).expect("valid exoskeleton model"));
    let mut sim = Sim::new(model, dt).expect("valid sim");
    let rv = rotation_vector(&qmul(&from_rotation_vector(&V3::new(FRAC_PI_2, 0.0, 0.0)), &from_rotation_vector(&V3::new(0.0, 0.0, -FRAC_PI_4))));
    sim.set_joint_position(shoulder, &[rv.x, rv.y, rv.z]).unwrap();
    sim.set_joint_position(elbow, &[-FRAC_PI_4]).unwrap();
    sim.set_joint_position(s_fe, &[FRAC_PI_4]).unwrap();
    sim.set_joint_position(e_fe, &[-FRAC_PI_4]).unwrap();
    Exoskeleton { sim, shoulder, elbow, s_fe, e_fe, upper_cuff, lower_cuff }
}

/// Desired (sFE, eFE) angles and rates at time t (paper algorithm).
pub fn reference(t: f64) -> ([f64; 2], [f64; 2]) {
    let (s, c) = t.sin_cos();
    ([FRAC_PI_4 + FRAC_PI_4 * s, -FRAC_PI_4 + FRAC_PI_4 * s], [FRAC_PI_4 * c, FRAC_PI_4 * c])
}

/// What one rollout measured.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rollout {
    /// Largest |τ| commanded to the exoskeleton elbow (eFE) and shoulder (sFE), N·m.
    pub max_elbow_torque: f64,
    pub max_shoulder_torque: f64,
    /// When |τ_eFE| peaked (s), and when it first exceeded [`TORQUE_LIMIT`] (if it did).
    pub t_max_elbow_torque: f64,
    pub t_first_over_limit: Option<f64>,
    /// RMS and largest tracking error of (sFE, eFE) over the run, rad.
    pub rms_tracking_error: [f64; 2],
    pub max_tracking_error: [f64; 2],
    /// Largest joint-constraint violation (all joints, cuffs included) after any step.
    pub max_violation: f64,
    /// Largest violation of the two cuff constraints alone.
    pub max_cuff_violation: f64,
    pub steps: usize,
    pub newton_iterations: usize,
    pub stalled_steps: usize,
    /// Largest change of a cuff's minimal coordinates from the initial pose (m or rad):
    /// how far the cuffs deflect.
    pub max_cuff_deflection: f64,
    /// Largest |E(t) − E(0) − W_inputs(t)| (E kinetic + gravity + cuff springs; no
    /// dampers here): the integrator's energy error with the actuators' work accounted.
    pub max_energy_balance_error: f64,
    /// Largest |W_inputs| over the run, for scale.
    pub max_input_work: f64,
}

fn one(sim: &Sim, joint: usize) -> (f64, f64) {
    let (mut q, mut w) = ([0.0], [0.0]);
    sim.joint_position(joint, &mut q).unwrap();
    sim.joint_velocity(joint, &mut w).unwrap();
    (q[0], w[0])
}

/// Simulates `seconds` with the tracking controller at `scale`. Controls are computed
/// before each step k = 1, 2, … at t = k·dt, as the script does.
pub fn simulate(patient: Patient, scale: f64, derivative: Derivative, lower: LowerCuff, seconds: f64) -> Result<Rollout, String> {
    let mut exo = build(lower);
    let steps = (seconds / DT).round() as usize;
    let mut r = Rollout { steps, ..Rollout::default() };
    let mut sq = [0.0; 2];
    let mut cuff = [0.0; 3];
    let mut cuff0 = [[0.0; 3]; 2];
    for (i, j) in [exo.upper_cuff, exo.lower_cuff].into_iter().enumerate() {
        exo.sim.joint_position(j, &mut cuff0[i]).unwrap();
    }
    let e0 = total_energy(&exo.sim);
    for k in 1..=steps {
        let sim = &mut exo.sim;
        let t = k as f64 * DT;
        let (des, rate) = reference(t);
        let rate = match derivative {
            Derivative::TrackRate => rate,
            Derivative::DampToZero => [0.0; 2],
        };
        let mut tau = [0.0; 2];
        for (i, (joint, k_p)) in [(exo.s_fe, K_SHOULDER), (exo.e_fe, K_ELBOW)].into_iter().enumerate() {
            let (q, w) = one(sim, joint);
            let e = des[i] - q;
            sq[i] += e * e;
            r.max_tracking_error[i] = r.max_tracking_error[i].max(e.abs());
            tau[i] = scale * k_p * e + scale * k_p / 10.0 * (rate[i] - w);
            sim.set_joint_input(joint, &[tau[i]]).unwrap();
        }
        r.max_shoulder_torque = r.max_shoulder_torque.max(tau[0].abs());
        if tau[1].abs() > r.max_elbow_torque {
            r.max_elbow_torque = tau[1].abs();
            r.t_max_elbow_torque = t;
        }
        if tau[1].abs() > TORQUE_LIMIT && r.t_first_over_limit.is_none() {
            r.t_first_over_limit = Some(t);
        }
        let u_elbow = match patient {
            Patient::Healthy => 0.0,
            Patient::Spastic => {
                let (q, w) = one(sim, exo.elbow);
                10.0 * (-FRAC_PI_4 - q) + 2.0 * (0.0 - w)
            }
        };
        sim.set_joint_input(exo.elbow, &[u_elbow]).unwrap();
        let st = sim.step().map_err(|e| format!("{} scale {scale}: step {k} (t = {t:.3} s) failed: {e}", patient.name()))?;
        r.newton_iterations += st.iterations;
        r.stalled_steps += st.stalled as usize;
        r.max_violation = r.max_violation.max(sim.constraint_violation());
        r.max_cuff_violation = r.max_cuff_violation.max(cuff_violation(sim, exo.upper_cuff).max(cuff_violation(sim, exo.lower_cuff)));
        for (i, j) in [exo.upper_cuff, exo.lower_cuff].into_iter().enumerate() {
            sim.joint_position(j, &mut cuff).unwrap();
            r.max_cuff_deflection = (0..3).fold(r.max_cuff_deflection, |m, d| m.max((cuff[d] - cuff0[i][d]).abs()));
        }
        let w = sim.input_work();
        r.max_input_work = r.max_input_work.max(w.abs());
        r.max_energy_balance_error = r.max_energy_balance_error.max((total_energy(sim) - e0 - w + sim.damper_dissipation()).abs());
    }
    r.rms_tracking_error = sq.map(|s| (s / steps as f64).sqrt());
    Ok(r)
}

fn total_energy(sim: &Sim) -> f64 {
    let (k, p) = sim.energy();
    k + p
}

/// Largest |g| of one joint's constraint rows at the current configuration.
pub fn cuff_violation(sim: &Sim, joint: usize) -> f64 {
    let m = sim.model();
    let j = &m.joints[joint];
    let pose = |b: Option<usize>| {
        b.map_or(maxdyn::joints::constraint::Pose::WORLD, |i| {
            let s = sim.body_state(i).unwrap();
            maxdyn::joints::constraint::Pose { x: V3::new(s[0], s[1], s[2]), q: V4::new(s[3], s[4], s[5], s[6]) }
        })
    };
    let mut g = [0.0; 6];
    let nc = j.constraint_count();
    j.constraint(&pose(j.parent), &pose(Some(j.child)), &mut g[..nc]);
    g[..nc].iter().fold(0.0f64, |m, x| m.max(x.abs()))
}
