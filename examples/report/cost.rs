//! Accuracy against cost on the A4 cube drop (0.4 m, 1 s): deepest penetration against
//! CPU time per simulated second, maxdyn at several time steps beside MuJoCo at time
//! steps down to 5e-5 s with its default, its stiffest advised (2 dt) and a stiffer
//! impedance (scripts/report_mujoco_box.py, run with the peer venv's Python).

use crate::accuracy::cube;
use crate::plot::{Figure, Series};
use crate::speed::cpu_seconds;
use crate::Report;
use plotters::prelude::SeriesLabelPosition;
use std::process::Command;

const DROP: f64 = 0.4;

pub fn box_drop(r: &mut Report) -> Result<(), String> {
    let dts: Vec<f64> = if r.quick { vec![1e-2, 1e-3] } else { vec![1e-2, 5e-3, 2e-3, 1e-3] };
    let mut maxdyn = Vec::new();
    for &dt in &dts {
        let (mut sim, corners) = cube(DROP, dt);
        let mut lowest = f64::INFINITY;
        let mut cpu = 0.0;
        for _ in 0..(1.0 / dt).round() as usize {
            let t = cpu_seconds();
            sim.step().map_err(|e| format!("cube at dt {dt}: {e}"))?;
            cpu += cpu_seconds() - t;
            lowest = corners.iter().map(|&c| sim.contact(c).unwrap().gap).fold(lowest, f64::min);
        }
        r.note(format!("cube drop, maxdyn dt {dt}: deepest penetration {:.1e} m, {:.2} ms CPU per simulated second", (-lowest).max(0.0), 1e3 * cpu));
        maxdyn.push((cpu, (-lowest).max(1e-16)));
    }
    let mut series = vec![];
    let mut labels = vec![];
    let python = r.repo.join("target/peer-venv/bin/python");
    if python.exists() {
        let mut cmd = Command::new(&python);
        cmd.arg(r.repo.join("scripts/report_mujoco_box.py"));
        if r.quick {
            cmd.arg("--quick");
        }
        let out = cmd.output().map_err(|e| format!("{}: {e}", python.display()))?;
        if !out.status.success() {
            return Err(format!("report_mujoco_box.py: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let mut groups: [(String, Vec<(f64, f64)>); 3] = Default::default();
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("{line}: {e}"))?;
            let (dt, tc, solimp) = (v["dt"].as_f64().unwrap(), v["timeconst"].as_f64().unwrap(), v["solimp"].as_str().unwrap());
            let (deep, rest, cpu) = (v["penetration"].as_f64().unwrap(), v["resting"].as_f64().unwrap(), v["cpu_per_second"].as_f64().unwrap());
            let g = if tc == 0.02 { 0 } else if solimp.starts_with("0.9 ") { 1 } else { 2 };
            groups[g].0 = ["MuJoCo default contact (time constant 0.02 s)", "MuJoCo time constant 2 dt", "MuJoCo 2 dt, solimp 0.99 0.9999"][g].to_string() + &format!(" ({})", v["version"].as_str().unwrap_or("?"));
            groups[g].1.push((cpu, deep.max(1e-16)));
            if g == 1 {
                labels.push(((cpu, deep), format!("dt {dt}")));
            }
            r.note(format!("cube drop, MuJoCo dt {dt}, time constant {tc}, solimp {solimp}: deepest {deep:.1e} m, resting {rest:.1e} m, {:.2} ms CPU per simulated second", 1e3 * cpu));
        }
        series.extend(groups.into_iter().map(|(name, pts)| Series::points(&name, pts)));
    } else {
        r.note("cube drop: MuJoCo not set up (bash benches/peer/setup.sh), maxdyn alone".into());
    }
    for (dt, p) in dts.iter().zip(&maxdyn) {
        labels.push((*p, format!("dt {dt}")));
    }
    series.push(Series::points("maxdyn (0 penetration drawn at 1e-16)", maxdyn));
    r.figure(Figure {
        file: "accuracy_vs_cost_box",
        title: "A4 cube dropped 0.4 m: deepest penetration against cost",
        x_label: "CPU time per simulated second [s]",
        y_label: "deepest penetration [m]",
        log_x: true,
        log_y: true,
        series,
        marks: vec![(1e-4, "target: 1e-4 m".into())],
        labels,
        legend: SeriesLabelPosition::MiddleRight,
    })
}
