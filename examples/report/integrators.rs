//! Accuracy against cost of the integrators on the panda (issue 31): the error after 1 s
//! against Pinocchio's RK4 over CPU time per simulated second, maxdyn's first-, second-
//! and fourth-order integrators beside MuJoCo's RK4 and Euler (the case of
//! benches/integrator_peer.rs, benches/peer/panda_accuracy.rs). Without the corpus or
//! Pinocchio's venv (tests/setup.sh) the figure is skipped; without the peer set-up the
//! MuJoCo series are left out.

use crate::mujoco::Mujoco;
use crate::panda_accuracy::{at_accuracy, Engine, PandaCase, Run};
use crate::plot::{Figure, Series};
use crate::Report;
use maxdyn::Integrator;
use plotters::prelude::SeriesLabelPosition;
use std::path::Path;

const TARGET: f64 = 1e-4;

pub fn panda(r: &mut Report, mj: Option<(&Mujoco, &Path)>) -> Result<(), String> {
    let case = match PandaCase::new("report_integrators") {
        Ok(c) => c,
        Err(e) => {
            r.note(format!("integrators on the panda: skipped, {e}"));
            return Ok(());
        }
    };
    let reps = if r.quick { 1 } else { 3 };
    let maxdyn: Vec<(Integrator, Vec<f64>)> = if r.quick {
        vec![(Integrator::FirstOrder, vec![1e-3, 1e-4]), (Integrator::SecondOrder, vec![1e-3, 2e-4]), (Integrator::FourthOrder, vec![2e-3, 1e-3])]
    } else {
        vec![(Integrator::FirstOrder, vec![1e-3, 1e-4, 1e-5]), (Integrator::SecondOrder, vec![1e-3, 5e-4, 2e-4, 1e-4]), (Integrator::FourthOrder, vec![5e-3, 4e-3, 2e-3, 1e-3, 5e-4])]
    };
    let mut runs: Vec<Run> = Vec::new();
    for (integrator, dts) in maxdyn {
        for dt in dts {
            runs.push(case.maxdyn(integrator, dt, reps)?);
        }
    }
    // the URDF that make_robot_models.py writes beside the peer models
    let robot = mj.map(|(_, models)| models.with_file_name("robots").join("panda.urdf"));
    match (mj, robot) {
        (Some((mj, _)), Some(urdf)) if urdf.exists() => {
            let mut sim = mj.load(&urdf)?;
            let (rk4, euler) = if r.quick { (vec![4e-3, 1e-3], vec![1e-3, 1e-4]) } else { (vec![8e-3, 5e-3, 4e-3, 2e-3, 1e-3], vec![1e-3, 1e-4, 1e-5]) };
            for dt in rk4 {
                runs.push(case.mujoco(&mut sim, true, dt, reps)?);
            }
            for dt in euler {
                runs.push(case.mujoco(&mut sim, false, dt, reps)?);
            }
        }
        _ => r.note("integrators on the panda: MuJoCo not set up (bash benches/peer/setup.sh), maxdyn alone".into()),
    }
    let engines = [Engine::Maxdyn(Integrator::FirstOrder), Engine::Maxdyn(Integrator::SecondOrder), Engine::Maxdyn(Integrator::FourthOrder), Engine::MujocoRk4, Engine::MujocoEuler];
    let (mut series, mut labels) = (Vec::new(), Vec::new());
    for e in engines {
        let mine: Vec<Run> = runs.iter().filter(|run| run.engine == e).copied().collect();
        if mine.is_empty() {
            continue;
        }
        for run in &mine {
            r.note(format!("integrators on the panda, {} dt {:.0e}: error {:.2e} rad, {:.2} ms CPU per simulated second", e.label(), run.dt, run.error, 1e3 * run.cpu));
            labels.push(((run.cpu, run.error), format!("{:.0e}", run.dt)));
        }
        if let Some((dt, cost)) = at_accuracy(&mine, TARGET) {
            r.note(format!("integrators on the panda, {} at {TARGET:.0e} rad: dt {dt:.2e} s, {:.2} ms CPU per simulated second", e.label(), 1e3 * cost));
        }
        series.push(Series::line(e.label(), mine.iter().map(|run| (run.cpu, run.error)).collect()));
    }
    r.figure(Figure {
        file: "accuracy_vs_cost_integrators",
        title: "Panda, 1 s: joint error against cost, per integrator (labels: dt in s)",
        x_label: "CPU time per simulated second [s]",
        y_label: "largest joint error against Pinocchio's RK4 [rad]",
        log_x: true,
        log_y: true,
        series,
        marks: vec![(TARGET, "1e-4 rad".into())],
        labels,
        legend: SeriesLabelPosition::UpperRight,
    })
}
