//! C1: the A1 trot (gait LEARNED_SEED1): distance and lowest foot over time, recorded
//! for the viewer (a page with the recording inside, when node and viewer/node_modules
//! are there).

use crate::plot::{Figure, Series};
use plotters::prelude::SeriesLabelPosition;
use crate::Report;
use maxdyn::record::Recorder;
use maxdyn_scenes::quadruped::{Quadruped, LEARNED_SEED1};
use std::process::Command;

pub fn quadruped(r: &mut Report) -> Result<(), String> {
    let seconds = if r.quick { 2.0 } else { 10.0 };
    let q = Quadruped::load();
    let mut sim = q.standing(&LEARNED_SEED1, 0.0);
    let recording = r.dir.join("quadruped.json");
    let mut rec = Recorder::create(&recording, &sim).map_err(|e| e.to_string())?;
    rec.add_frame(&sim).map_err(|e| e.to_string())?;
    let x0 = sim.body_state(q.trunk).unwrap()[0];
    let (mut distance, mut foot) = (Vec::new(), Vec::new());
    let mut lowest = f64::INFINITY;
    for k in 1..=(seconds / 1e-3f64).round() as usize {
        let t = sim.time();
        q.control(&mut sim, &LEARNED_SEED1, t);
        sim.step().map_err(|e| format!("C1: {e}"))?;
        lowest = lowest.min(q.lowest_foot(&sim));
        if k % 20 == 0 {
            rec.add_frame(&sim).map_err(|e| e.to_string())?;
            distance.push((sim.time(), sim.body_state(q.trunk).unwrap()[0] - x0));
            foot.push((sim.time(), 1e3 * q.lowest_foot(&sim)));
        }
    }
    rec.finish().map_err(|e| e.to_string())?;
    let walked = distance.last().unwrap().1;
    r.note(format!("C1: the learned trot walks {walked:.2} m in {seconds} s ({:.2} m/s); deepest foot {:.1e} m below the ground", walked / seconds, (-lowest).max(0.0)));
    r.figure(Figure {
        file: "c1_quadruped_distance",
        title: "C1 A1 quadruped, learned trot, dt 1 ms: distance walked",
        x_label: "time [s]",
        y_label: "trunk x − x0 [m]",
        log_x: false,
        log_y: false,
        series: vec![Series::line("maxdyn", distance)],
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::LowerRight,
    })?;
    r.figure(Figure {
        file: "c1_quadruped_feet",
        title: "C1 A1 quadruped: height of the lowest foot",
        x_label: "time [s]",
        y_label: "lowest foot above ground [mm]",
        log_x: false,
        log_y: false,
        series: vec![Series::line("maxdyn (every 20th step)", foot)],
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperRight,
    })?;
    let viewer = r.repo.join("viewer");
    if viewer.join("node_modules/three").is_dir() {
        let page = r.dir.join("quadruped.html");
        let out = Command::new("node").arg(viewer.join("build.mjs")).arg("--embed").arg(&recording).arg("--out").arg(&page).output();
        match out {
            Ok(o) if o.status.success() => r.viewer = Some("quadruped.html".into()),
            _ => r.note("viewer page not built (node viewer/build.mjs failed)".into()),
        }
    } else {
        r.note("viewer page not built: run npm ci in viewer/ (tests/setup.sh)".into());
    }
    Ok(())
}
