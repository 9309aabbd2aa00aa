//! Issue 31: the cost of the second-order integrator beside the first-order step.
//!
//! Table 1, per step (median of 5 runs of 1000 steps, each from a state just set, so the
//! consistent start is included once): the 32-link revolute chain (dt 0.01), the panda
//! (example-robot-data, fingers welded, dt 1e-3) and the A1 trot (dt 1e-3, PD control
//! every step; the fourth order refuses contacts).
//!
//! Table 2, the panda at equal accuracy, 1e-4 rad over 1 s against Pinocchio's RK4: the
//! errors of `tests/second_order.rs` at dt 1e-3 (first order 2.53e-2 rad, first order in
//! dt; second order 2.83e-3, second order; fourth order 2.03e-7, fourth order) give the
//! step each needs (3.95e-6 s, 1.88e-4 s, 4.71e-3 s); the cost per simulated second is the
//! time per step at that step size (1000 steps timed) over the step.
//!
//! Run: cargo bench --bench second_order   (needs the corpus of tests/setup.sh for the panda)

use std::path::Path;
use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Integrator, Model, Sim, SolverOptions};
use maxdyn_scenes::mechanisms::pendulum_chain;
use maxdyn_scenes::quadruped::{Gait, Quadruped};
use maxdyn_scenes::timing::median;

const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf");
const INTEGRATORS: [Integrator; 3] = [Integrator::FirstOrder, Integrator::SecondOrder, Integrator::FourthOrder];

/// The panda with its fingers welded (as the accuracy test has it), or None without the corpus.
fn panda() -> Option<Arc<Model>> {
    let text = std::fs::read_to_string(PANDA).ok()?;
    let welded = text.replace(r#"name="panda_finger_joint1" type="prismatic""#, r#"name="panda_finger_joint1" type="fixed""#).replace(r#"name="panda_finger_joint2" type="prismatic""#, r#"name="panda_finger_joint2" type="fixed""#);
    let dir = Path::new(PANDA).parent()?;
    let u = Urdf::from_str_with(&welded, &UrdfOptions { joint_limits: false, mesh_roots: vec![dir.to_path_buf()], ..UrdfOptions::default() }).ok()?;
    Some(Arc::new(Model::new(&u.builder).ok()?))
}

fn options(integrator: Integrator) -> SolverOptions {
    SolverOptions { integrator, ..SolverOptions::default() }
}

/// Seconds per step of `steps` steps from `start` (cloned, its velocities set again so
/// the second-order integrator starts), `control` before each step.
fn per_step(start: &Sim, integrator: Integrator, steps: usize, control: &dyn Fn(&mut Sim)) -> f64 {
    let (t, _) = median(5, || {
        let mut sim = start.clone();
        sim.set_options(options(integrator)).unwrap();
        let mut v = vec![0.0; sim.model().minimal_velocity_count()];
        if sim.generalized_velocity(&mut v).is_ok() {
            sim.set_generalized_velocity(&v).unwrap();
        }
        for _ in 0..steps {
            control(&mut sim);
            sim.step().unwrap();
        }
    });
    t / steps as f64
}

/// The panda at a generic pose and rate, step `dt`.
fn panda_sim(model: &Arc<Model>, dt: f64) -> Sim {
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    let n = model.minimal_velocity_count();
    let q: Vec<f64> = (0..n).map(|i| 0.3 * (1.7 * i as f64 + 1.0).sin()).collect();
    let v: Vec<f64> = (0..n).map(|i| 0.8 * (0.9 * i as f64 + 0.5).cos()).collect();
    sim.set_configuration(&q).unwrap();
    sim.set_generalized_velocity(&v).unwrap();
    sim
}

fn main() {
    let none = |_: &mut Sim| {};
    println!("per step, median of 5 runs of 1000 steps (µs)");
    println!("{:<12} {:>12} {:>12} {:>7} {:>12} {:>7}", "scene", "first order", "second order", "ratio", "fourth order", "ratio");
    let mut scenes: Vec<(&str, Sim, Box<dyn Fn(&mut Sim)>)> = vec![("chain32", pendulum_chain(32, false, 0.01), Box::new(none))];
    let panda_model = panda();
    match &panda_model {
        Some(m) => scenes.push(("panda", panda_sim(m, 1e-3), Box::new(none))),
        None => println!("(no panda: run `bash tests/setup.sh` for the corpus)"),
    }
    let q = Quadruped::load();
    let gait = Gait { b: 0.1, a_thigh: -0.2, d_thigh: 1.0, a_calf: 0.2, d_calf: -1.5 };
    let standing = q.standing(&gait, 0.0);
    let trot = move |sim: &mut Sim| {
        let t = sim.time();
        q.control(sim, &gait, t);
    };
    scenes.push(("A1 trot", standing, Box::new(trot)));
    for (name, sim, control) in &scenes {
        let [a, b] = [INTEGRATORS[0], INTEGRATORS[1]].map(|i| per_step(sim, i, 1000, control.as_ref()));
        let c = if *name == "A1 trot" { f64::NAN } else { per_step(sim, Integrator::FourthOrder, 1000, control.as_ref()) };
        println!("{name:<12} {:>12.1} {:>12.1} {:>7.2} {:>12.1} {:>7.2}", a * 1e6, b * 1e6, b / a, c * 1e6, c / a);
    }
    let Some(model) = panda_model else { return };
    println!();
    println!("panda at 1e-4 rad over 1 s (errors of tests/second_order.rs)");
    println!("{:<13} {:>10} {:>14} {:>16}", "integrator", "dt (s)", "µs per step", "s per sim. s");
    let (first, second, fourth) = (2.53e-2, 2.83e-3, 2.03e-7);
    let dts = [1e-3 * 1e-4 / first, 1e-3 * (1e-4f64 / second).sqrt(), 1e-3 * (1e-4f64 / fourth).powf(0.25)];
    let mut costs = [0.0; 3];
    for (k, (integrator, dt)) in INTEGRATORS.into_iter().zip(dts).enumerate() {
        let t = per_step(&panda_sim(&model, dt), integrator, 1000, &none);
        costs[k] = t / dt;
        println!("{:<13} {:>10.2e} {:>14.1} {:>16.3}", format!("{integrator:?}"), dt, t * 1e6, costs[k]);
    }
    println!("at equal accuracy, per simulated second: second order {:.0}×, fourth order {:.0}× cheaper than first order", costs[0] / costs[1], costs[0] / costs[2]);
}
