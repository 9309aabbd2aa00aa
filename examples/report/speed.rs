//! The cost figures: B1 chains beside MuJoCo, B2 sphere chains, and accuracy against
//! cost on the A1 trot (MuJoCo's contact stiffness swept). MuJoCo runs through the peer
//! benchmark's shim and cases (benches/peer, docs/PEERS.md); without the shim the
//! figures show maxdyn alone and say so.

use crate::cases::{ChainPair, Pair, QuadrupedPair};
use crate::mujoco::Mujoco;
use crate::plot::{Figure, Series};
use plotters::prelude::SeriesLabelPosition;
use crate::Report;
use maxdyn::{ConeType, Model, Sim};
use maxdyn_scenes::mechanisms::{pendulum_chain, sphere_chain};
use maxdyn_scenes::quadruped::LEARNED_SEED1;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

/// CPU time of this thread (s): the machine is shared, so wall time would count waits.
pub fn cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and a writable timespec
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + 1e-9 * ts.tv_nsec as f64
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// µs per step of `steps` steps of `sim`, median of `reps` fresh runs.
fn maxdyn_us_per_step(reps: usize, steps: usize, make: impl Fn() -> Sim) -> Result<f64, String> {
    let mut times = Vec::new();
    for _ in 0..reps {
        let mut sim = make();
        let t = cpu_seconds();
        for _ in 0..steps {
            sim.step().map_err(|e| e.to_string())?;
        }
        times.push(1e6 * (cpu_seconds() - t) / steps as f64);
    }
    Ok(median(times))
}

/// B1: µs per step against n for revolute and spherical chains, MuJoCo beside.
pub fn chains(r: &mut Report, mj: Option<(&Mujoco, &Path)>) -> Result<(), String> {
    let (ns, steps, reps): (Vec<usize>, usize, usize) = if r.quick { (vec![1, 4, 16], 200, 1) } else { ((0..8).map(|k| 1 << k).collect(), 1000, 3) };
    let mj_ns: Vec<usize> = if r.quick { vec![8] } else { vec![8, 32, 128] };
    let mut series = Vec::new();
    for spherical in [false, true] {
        let kind = if spherical { "spherical" } else { "revolute" };
        let mut pts = Vec::new();
        for &n in &ns {
            pts.push((n as f64, maxdyn_us_per_step(reps, steps, || pendulum_chain(n, spherical, 0.01)).map_err(|e| format!("B1 n = {n}: {e}"))?));
        }
        r.note(format!("B1 {kind}: maxdyn {} µs/step at n = {}", pts.iter().map(|p| format!("{:.1}", p.1)).collect::<Vec<_>>().join(", "), ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")));
        series.push(Series::line(&format!("maxdyn, {kind}"), pts));
        if let Some((mj, models)) = mj {
            let mut pts = Vec::new();
            for &n in &mj_ns {
                let mut pair = ChainPair::new(mj, models, n, spherical)?;
                let mut times = Vec::new();
                for _ in 0..reps {
                    let (_, mut b) = pair.rollouts();
                    times.push(1e6 * b.advance(steps) / steps as f64);
                }
                pts.push((n as f64, median(times)));
            }
            r.note(format!("B1 {kind}: MuJoCo {} µs/step at n = {:?}", pts.iter().map(|p| format!("{:.1}", p.1)).collect::<Vec<_>>().join(", "), mj_ns));
            series.push(Series::points(&format!("MuJoCo {}, {kind}", mj.version()), pts));
        }
    }
    r.figure(Figure {
        file: "b1_chains",
        title: "B1 n-link pendulum, dt 0.01 s: CPU time per step",
        x_label: "links n",
        y_label: "time per step [µs]",
        log_x: true,
        log_y: true,
        series,
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperLeft,
    })
}

/// B2: the sphere chain on the ground: µs per step and deepest penetration against n.
pub fn sphere_chains(r: &mut Report) -> Result<(), String> {
    let ns: Vec<usize> = if r.quick { vec![1, 4, 8] } else { (0..8).map(|k| 1 << k).collect() };
    let steps = if r.quick { 100 } else { 500 };
    let (mut time, mut depth) = (Vec::new(), Vec::new());
    for &n in &ns {
        let (b, contacts) = sphere_chain(n, 1.0, ConeType::Linear);
        let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap();
        let mut lowest = f64::INFINITY;
        let mut cpu = 0.0;
        for _ in 0..steps {
            let t = cpu_seconds();
            sim.step().map_err(|e| format!("B2 n = {n}: {e}"))?;
            cpu += cpu_seconds() - t;
            lowest = contacts.iter().map(|&c| sim.contact(c).unwrap().gap).fold(lowest, f64::min);
        }
        time.push((n as f64, 1e6 * cpu / steps as f64));
        depth.push((n as f64, (-lowest).max(0.0)));
    }
    r.note(format!("B2: deepest penetration over n = {:?}: {:.1e} m (0: none)", ns, depth.iter().map(|p| p.1).fold(0.0, f64::max)));
    let mut time_series = vec![Series::line("maxdyn", time)];
    let mut depth_series = vec![Series::points("maxdyn", depth.into_iter().map(|(n, d)| (n, d.max(1e-16))).collect())];
    if let Some((name, mj_time, mj_depth)) = mujoco_sphere_chains(r)? {
        time_series.push(Series::points(&name, mj_time));
        depth_series.push(Series::points(&name, mj_depth));
    }
    r.figure(Figure {
        file: "b2_sphere_chain",
        title: "B2 sphere chain on the ground (μ 1), dt 0.01 s: time per step",
        x_label: "spheres n",
        y_label: "time per step [µs]",
        log_x: true,
        log_y: true,
        series: time_series,
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperLeft,
    })?;
    r.figure(Figure {
        file: "b2_sphere_chain_penetration",
        title: "B2 sphere chain: deepest penetration (maxdyn's 0 drawn at 1e-16)",
        x_label: "spheres n",
        y_label: "penetration [m]",
        log_x: true,
        log_y: true,
        series: depth_series,
        marks: vec![(1e-4, "SCENARIOS bar 1e-4 m".into())],
        labels: vec![],
        legend: SeriesLabelPosition::MiddleRight,
    })
}

/// MuJoCo on the same chains (scripts/report_mujoco_chain.py in the peer venv): its
/// series name, µs per step and deepest penetration of the runs it kept stable.
fn mujoco_sphere_chains(r: &mut Report) -> Result<Option<(String, Vec<(f64, f64)>, Vec<(f64, f64)>)>, String> {
    let python = r.repo.join("target/peer-venv/bin/python");
    if !python.exists() {
        r.note("B2: MuJoCo not set up (bash benches/peer/setup.sh), maxdyn alone".into());
        return Ok(None);
    }
    let mut cmd = Command::new(&python);
    cmd.arg(r.repo.join("scripts/report_mujoco_chain.py"));
    if r.quick {
        cmd.arg("--quick");
    }
    let out = cmd.output().map_err(|e| format!("{}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!("report_mujoco_chain.py: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let (mut time, mut depth, mut unstable, mut version) = (Vec::new(), Vec::new(), Vec::new(), String::new());
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("{line}: {e}"))?;
        let n = v["n"].as_f64().unwrap();
        version = v["version"].as_str().unwrap_or("?").to_string();
        if v["unstable"].as_bool() == Some(true) {
            unstable.push(n as usize);
            continue;
        }
        time.push((n, v["us_per_step"].as_f64().unwrap()));
        depth.push((n, v["penetration"].as_f64().unwrap().max(1e-16)));
    }
    r.note(format!("B2: MuJoCo {version} (default contacts) sinks {} m at n = {}; unstable (reset by MuJoCo) at n = {unstable:?}", depth.iter().map(|p| format!("{:.1e}", p.1)).collect::<Vec<_>>().join(", "), time.iter().map(|p| p.0.to_string()).collect::<Vec<_>>().join(", ")));
    Ok(Some((format!("MuJoCo {version}, default contacts (stable runs)"), time, depth)))
}

/// Accuracy against cost on the A1 trot (1000 steps of 1 ms): foot penetration against
/// µs per step, MuJoCo at contact time constants from its default 0.02 s down to 2 dt
/// (the stiffest its documentation advises).
pub fn accuracy_vs_cost(r: &mut Report, mj: Option<(&Mujoco, &Path)>) -> Result<(), String> {
    let Some((mj, models)) = mj else {
        r.note("accuracy vs cost: skipped, no MuJoCo shim (bash benches/peer/setup.sh)".into());
        return Ok(());
    };
    let steps = if r.quick { 200 } else { 1000 };
    let constants: Vec<Option<f64>> = if r.quick { vec![None, Some(0.002)] } else { vec![None, Some(0.01), Some(0.005), Some(0.003), Some(0.002)] };
    let (mut mj_pts, mut md_pts, mut labels) = (Vec::new(), Vec::new(), Vec::new());
    for tc in constants {
        let mut pair = QuadrupedPair::new(mj, models, LEARNED_SEED1, false, tc)?;
        let (mut a, mut b) = pair.rollouts();
        let (ta, tb) = (a.advance(steps), b.advance(steps));
        let (oa, ob) = (a.outcome(), b.outcome());
        if let Some(f) = oa.failure.or(ob.failure) {
            return Err(f);
        }
        let (pa, pb) = (oa.penetration.unwrap_or(0.0), ob.penetration.unwrap_or(0.0));
        r.note(format!("trot, MuJoCo time constant {}: MuJoCo {:.1} µs/step, feet {pb:.1e} m deep; maxdyn {:.1} µs/step, {pa:.1e} m", tc.map_or("0.02 (default)".into(), |t| t.to_string()), 1e6 * tb / steps as f64, 1e6 * ta / steps as f64));
        mj_pts.push((1e6 * tb / steps as f64, pb.max(1e-18)));
        if tc.map_or(true, |t| t <= 0.002) {
            labels.push((*mj_pts.last().unwrap(), format!("{} s", tc.unwrap_or(0.02))));
        }
        md_pts.push((1e6 * ta / steps as f64, pa.max(1e-18)));
    }
    r.figure(Figure {
        file: "accuracy_vs_cost",
        title: "A1 trot, dt 1 ms: foot penetration against cost",
        x_label: "CPU time per step [µs]",
        y_label: "deepest foot penetration [m]",
        log_x: true,
        log_y: true,
        series: vec![
            Series::points(&format!("MuJoCo {}: contact time constant 0.02 (default) … 0.002 s", mj.version()), mj_pts),
            Series::points("maxdyn (rigid contact; penetration < 1e-16 drawn at its value)", md_pts),
        ],
        marks: vec![(1e-4, "target: 1e-4 m".into())],
        labels,
        legend: SeriesLabelPosition::MiddleMiddle,
    })
}
