//! The physical-accuracy figures (SCENARIOS A1, A4, A7, A8), computed with the scenes
//! crate's mechanisms and the public API.

use crate::plot::{Figure, Series};
use plotters::prelude::SeriesLabelPosition;
use crate::Report;
use maxdyn::{Builder, Inertia, Model, Sim};
use maxdyn_scenes::damped_pendulum;
use maxdyn_scenes::double_pendulum;
use maxdyn_scenes::loop_rk4::{closure, initial_state, rk4};
use maxdyn_scenes::mechanisms;
use std::sync::Arc;

const G: f64 = 9.81;

/// A1: the three-link loop's constraint violation, per second, beside RK4's loop-closure
/// error in minimal coordinates (acceleration-level constraint, no stabilization).
pub fn loop_drift(r: &mut Report) -> Result<(), String> {
    let (dt, seconds) = (0.01, if r.quick { 60.0 } else { 600.0 });
    let mut sim = mechanisms::three_link_loop(dt);
    let (mut th, mut om) = initial_state();
    let (mut vi, mut rk) = (Vec::new(), Vec::new());
    let per_second = (1.0 / dt).round() as usize;
    let mut worst = 0.0f64;
    for k in 1..=(seconds / dt).round() as usize {
        sim.step().map_err(|e| format!("A1: {e}"))?;
        rk4(&mut th, &mut om, dt);
        worst = worst.max(sim.constraint_violation());
        if k % per_second == 0 {
            let t = k as f64 * dt;
            vi.push((t, worst.max(1e-16)));
            rk.push((t, closure(&th).norm()));
            worst = 0.0;
        }
    }
    r.note(format!("A1: largest maxdyn violation {:.2e} m over {seconds} s; RK4 loop closure {:.3} m at the end", vi.iter().map(|p| p.1).fold(0.0, f64::max), rk.last().unwrap().1));
    r.figure(Figure {
        file: "a1_loop_drift",
        title: "A1 three-link loop, dt 0.01 s: constraint drift",
        x_label: "time [s]",
        y_label: "constraint error [m]",
        log_x: false,
        log_y: true,
        series: vec![Series::line("maxdyn: largest joint violation in each second", vi), Series::line("RK4, minimal coordinates: loop closure |Φ|", rk)],
        marks: vec![(1e-8, "SCENARIOS bar 1e-8 m".into())],
        labels: vec![],
        legend: SeriesLabelPosition::MiddleRight,
    })
}

/// A2: the double pendulum's largest energy error in each 10 s window over an hour,
/// beside Heun and RK4 in absolute angles at the same step.
pub fn double_pendulum_energy(r: &mut Report) -> Result<(), String> {
    let (dt, seconds): (f64, f64) = (0.01, if r.quick { 60.0 } else { 3600.0 });
    let window = (10.0 / dt).round() as usize;
    let mut sim = double_pendulum::sim(dt);
    let e0 = { let (k, p) = sim.energy(); k + p };
    let (mut heun, mut rk) = (double_pendulum::START, double_pendulum::START);
    let m0 = double_pendulum::energy(double_pendulum::START);
    let (mut vi, mut he, mut r4) = (Vec::new(), Vec::new(), Vec::new());
    let mut worst = [0.0f64; 3];
    for k in 1..=(seconds / dt).round() as usize {
        sim.step().map_err(|e| format!("A2: {e}"))?;
        heun = double_pendulum::heun(heun, dt);
        rk = double_pendulum::rk4(rk, dt);
        let (ke, pe) = sim.energy();
        let errors = [ke + pe - e0, double_pendulum::energy(heun) - m0, double_pendulum::energy(rk) - m0];
        for (w, e) in worst.iter_mut().zip(errors) {
            *w = w.max(e.abs());
        }
        if k % window == 0 {
            let t = k as f64 * dt;
            vi.push((t, worst[0]));
            he.push((t, worst[1]));
            r4.push((t, worst[2].max(1e-16)));
            worst = [0.0; 3];
        }
    }
    let (first, last) = (vi.iter().take(60).map(|p| p.1).fold(0.0, f64::max), vi.iter().rev().take(60).map(|p| p.1).fold(0.0, f64::max));
    r.note(format!("A2: maxdyn's largest |E − E0| {first:.4} J in the first and {last:.4} J in the last 10 min; at {seconds} s Heun is off by {:.3} J, RK4 by {:.2e} J", he.last().unwrap().1, r4.last().unwrap().1));
    r.figure(Figure {
        file: "a2_double_pendulum_energy",
        title: "A2 double pendulum, dt 0.01 s: energy error over an hour",
        x_label: "time [s]",
        y_label: "largest |E − E0| in each 10 s [J]",
        log_x: false,
        log_y: true,
        series: vec![Series::line("maxdyn (variational)", vi), Series::line("Heun (RK2), absolute angles", he), Series::line("RK4, absolute angles", r4)],
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::LowerRight,
    })
}

/// A3: the damped pendulum's angle over 10 s at dt 0.05 beside explicit Euler at the
/// same step and the RK4 reference at 1e-4.
pub fn damped_pendulum_angle(r: &mut Report) -> Result<(), String> {
    let (dt, steps) = (0.05, 200);
    let (mut sim, j) = damped_pendulum::sim(dt);
    let reference = damped_pendulum::rk4(1e-4, steps * 500, 500);
    let euler = damped_pendulum::euler(dt, steps);
    let t = |k: usize| k as f64 * dt;
    let mut ours = vec![(0.0, std::f64::consts::FRAC_PI_2)];
    let mut th = [0.0];
    for _ in 0..steps {
        sim.step().map_err(|e| format!("A3: {e}"))?;
        sim.joint_position(j, &mut th).unwrap();
        ours.push((sim.time(), th[0]));
    }
    let worst = |v: &[(f64, f64)]| v.iter().zip(&reference).map(|(a, b)| (a.1 - b.0).abs()).fold(0.0, f64::max);
    let euler: Vec<(f64, f64)> = euler.iter().enumerate().map(|(k, s)| (t(k), s.0)).collect();
    r.note(format!("A3: largest angle error against the reference over 10 s at dt 0.05: maxdyn {:.4} rad, explicit Euler {:.4} rad", worst(&ours), worst(&euler)));
    r.figure(Figure {
        file: "a3_damped_pendulum",
        title: "A3 damped pendulum (0.5 N·m·s/rad), dt 0.05 s",
        x_label: "time [s]",
        y_label: "angle θ [rad]",
        log_x: false,
        log_y: false,
        series: vec![
            Series::line("maxdyn, dt 0.05 s", ours),
            Series::line("explicit Euler, dt 0.05 s", euler),
            Series::line("reference: RK4, dt 1e-4 s", reference.iter().enumerate().map(|(k, s)| (t(k), s.0)).collect()),
        ],
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperRight,
    })
}

/// The A4 cube (0.5 m, 1 kg, 8 corner contacts, μ 0.3) with its bottom `h` above the
/// ground.
pub fn cube(h: f64, dt: f64) -> (Sim, Vec<usize>) {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.5, 0.5, 0.5).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, h + 0.25], [1.0, 0.0, 0.0, 0.0]).unwrap();
    let mut corners = Vec::new();
    for c in 0..8 {
        let s = |bit: usize| if c >> bit & 1 == 1 { 0.25 } else { -0.25 };
        corners.push(b.add_ground_contact(body, [s(0), s(1), s(2)], 0.0, 0.3).unwrap());
    }
    (Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap(), corners)
}

/// A4: deepest penetration and resting height after 1 s, against the drop height.
pub fn box_drop(r: &mut Report) -> Result<(), String> {
    let heights: Vec<f64> = if r.quick { vec![0.25, 0.75, 1.25] } else { (0..21).map(|i| 0.25 + 0.05 * i as f64).collect() };
    let (mut deepest, mut rest) = (Vec::new(), Vec::new());
    for &h in &heights {
        let (mut sim, corners) = cube(h, 0.01);
        let mut lowest = f64::INFINITY;
        for _ in 0..100 {
            sim.step().map_err(|e| format!("A4 from {h} m: {e}"))?;
            lowest = lowest.min(corners.iter().map(|&c| sim.contact(c).unwrap().gap).fold(f64::INFINITY, f64::min));
        }
        let end = corners.iter().map(|&c| sim.contact(c).unwrap().gap).fold(f64::INFINITY, f64::min);
        deepest.push((h, (-lowest).max(0.0)));
        rest.push((h, end));
    }
    let worst = deepest.iter().map(|p| p.1).fold(0.0, f64::max);
    r.note(format!("A4: deepest corner penetration over {} heights {worst:.1e} m (0: never below the ground); resting {:.1e}…{:.1e} m above it", heights.len(), rest.iter().map(|p| p.1).fold(f64::INFINITY, f64::min), rest.iter().map(|p| p.1).fold(0.0, f64::max)));
    // a log axis cannot show 0: penetrations of 0 are drawn at 1e-16 m and said so
    let floor = |v: Vec<(f64, f64)>| v.into_iter().map(|(x, y)| (x, y.max(1e-16))).collect();
    r.figure(Figure {
        file: "a4_box_drop",
        title: "A4 cube dropped on the ground, dt 0.01 s, 1 s",
        x_label: "drop height (bottom above ground) [m]",
        y_label: "distance [m]",
        log_x: false,
        log_y: true,
        series: vec![Series::points("maxdyn: deepest penetration (0 drawn at 1e-16)", floor(deepest)), Series::points("maxdyn: resting height of the lowest corner", floor(rest))],
        marks: vec![(1e-4, "SCENARIOS bar: penetration 1e-4 m".into()), (2.7e-2, "MuJoCo defaults sink 2.7 cm (paper)".into())],
        labels: vec![],
        legend: SeriesLabelPosition::Coordinate(420, 330),
    })
}

/// A7: a 0.2 m box (1 kg, 4 bottom corners, μ 0.5) sliding from 2 m/s: position over
/// time at dt 0.01 and 0.001 beside x(t) = v t − μ g t²/2 until v²/(2 μ g).
pub fn friction_stop(r: &mut Report) -> Result<(), String> {
    let (mu, v0) = (0.5, 2.0);
    let mut series = Vec::new();
    for dt in [0.01, 0.001] {
        let mut b = Builder::new();
        let body = b.add_body(1.0, Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap()).unwrap();
        b.set_body_pose(body, [0.0, 0.0, 0.1], [1.0, 0.0, 0.0, 0.0]).unwrap();
        for (sx, sy) in [(-0.1, -0.1), (0.1, -0.1), (-0.1, 0.1), (0.1, 0.1)] {
            b.add_ground_contact(body, [sx, sy, -0.1], 0.0, mu).unwrap();
        }
        let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
        let mut s = sim.body_state(body).unwrap();
        s[7] = v0;
        sim.set_body_state(body, &s).unwrap();
        let mut xs = vec![(0.0, 0.0)];
        let every = (0.01 / dt).round() as usize;
        for k in 1..=(0.6 / dt).round() as usize {
            sim.step().map_err(|e| format!("A7: {e}"))?;
            if k % every == 0 {
                xs.push((sim.time(), sim.body_state(body).unwrap()[0]));
            }
        }
        let stop = xs.last().unwrap().1;
        r.note(format!("A7: stop distance at dt {dt}: {stop:.4} m, {:+.2} % from v²/(2μg) = {:.4} m", 100.0 * (stop / (v0 * v0 / (2.0 * mu * G)) - 1.0), v0 * v0 / (2.0 * mu * G)));
        series.push(Series::line(&format!("maxdyn, dt {dt} s"), xs));
    }
    let t_stop = v0 / (mu * G);
    let exact = (0..=60).map(|i| {
        let t = 0.01 * i as f64;
        let tc = t.min(t_stop);
        (t, v0 * tc - 0.5 * mu * G * tc * tc)
    });
    series.push(Series::line("Coulomb friction: v t − μ g t²/2", exact.collect()));
    r.figure(Figure {
        file: "a7_friction_stop",
        title: "A7 box sliding from 2 m/s, μ 0.5: stops at v²/(2μg)",
        x_label: "time [s]",
        y_label: "distance slid [m]",
        log_x: false,
        log_y: false,
        series,
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::LowerRight,
    })
}

/// A8: the double four-bar through its singular poses, 10 s: energy error and
/// constraint violation at dt 0.01 and 0.001.
pub fn double_four_bar(r: &mut Report) -> Result<(), String> {
    let (mut energy, mut violation) = (Vec::new(), Vec::new());
    for dt in [0.01, 0.001] {
        let mut sim = mechanisms::double_four_bar(dt);
        let e0 = { let (k, p) = sim.energy(); k + p };
        let (mut e, mut v) = (Vec::new(), Vec::new());
        let every = (0.05 / dt).round() as usize;
        for k in 1..=(10.0 / dt).round() as usize {
            sim.step().map_err(|e| format!("A8 at dt {dt}: {e}"))?;
            if k % every == 0 {
                let (ke, pe) = sim.energy();
                e.push((sim.time(), ke + pe - e0));
                v.push((sim.time(), sim.constraint_violation().max(1e-16)));
            }
        }
        r.note(format!("A8 dt {dt}: largest |ΔE| {:.3} J, largest violation {:.1e} m", e.iter().map(|p: &(f64, f64)| p.1.abs()).fold(0.0, f64::max), v.iter().map(|p: &(f64, f64)| p.1).fold(0.0, f64::max)));
        energy.push(Series::line(&format!("dt {dt} s"), e));
        violation.push(Series::line(&format!("dt {dt} s"), v));
    }
    r.figure(Figure {
        file: "a8_four_bar_energy",
        title: "A8 double four-bar (IFToMM): energy error over 10 s",
        x_label: "time [s]",
        y_label: "E − E0 [J]",
        log_x: false,
        log_y: false,
        series: energy,
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperRight,
    })?;
    r.figure(Figure {
        file: "a8_four_bar_violation",
        title: "A8 double four-bar: joint constraint violation",
        x_label: "time [s]",
        y_label: "violation [m]",
        log_x: false,
        log_y: true,
        series: violation,
        marks: vec![(1e-8, "SCENARIOS bar 1e-8 m".into())],
        labels: vec![],
        legend: SeriesLabelPosition::LowerRight,
    })
}
