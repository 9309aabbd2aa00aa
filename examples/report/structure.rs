//! B3 (chains of four-link loops), B4 (the graph solver against dense LU) and C2 (the
//! exoskeleton's elbow torque against the controller's gain scale).

use crate::plot::{Figure, Series};
use crate::speed::cpu_seconds;
use crate::Report;
use maxdyn::solver::dense_reference::dense_solve;
use maxdyn::solver::Symbolic;
use maxdyn_scenes::exoskeleton::{simulate, Derivative, LowerCuff, Patient, TORQUE_LIMIT};
use maxdyn_scenes::graphs::{crystal_edges, ladder_edges, net_edges, random_values, rel_diff, uniform_graph, Rng};
use maxdyn_scenes::mechanisms::loop_segment_chain;
use plotters::prelude::SeriesLabelPosition;

/// B3: CPU µs per step of N = 1…10 loop segments (dt 0.01).
pub fn loop_chains(r: &mut Report) -> Result<(), String> {
    let (segments, steps): (Vec<usize>, usize) = if r.quick { (vec![1, 2, 4], 100) } else { ((1..=10).collect(), 1000) };
    let mut pts = Vec::new();
    for &n in &segments {
        let mut sim = loop_segment_chain(n, 0.01);
        let t = cpu_seconds();
        for _ in 0..steps {
            sim.step().map_err(|e| format!("B3 N = {n}: {e}"))?;
        }
        pts.push((n as f64, 1e6 * (cpu_seconds() - t) / steps as f64));
    }
    r.note(format!("B3: {} µs/step at N = {:?} loop segments", pts.iter().map(|p| format!("{:.0}", p.1)).collect::<Vec<_>>().join(", "), segments));
    r.figure(Figure {
        file: "b3_loop_chains",
        title: "B3 chains of four-link loops, dt 0.01 s: time per step",
        x_label: "loop segments N",
        y_label: "time per step [µs]",
        log_x: false,
        log_y: false,
        series: vec![Series::line("maxdyn", pts)],
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperLeft,
    })
}

/// B4: factor + solve time of the graph LDU and of dense LU on ladders, nets and
/// crystals (block size 6), against the unknowns; the two agree to 1e-10.
pub fn sparse_dense(r: &mut Report) -> Result<(), String> {
    let cases: Vec<(&str, Vec<(usize, usize, Vec<(usize, usize)>)>)> = vec![
        ("ladder", ladder_sizes(r.quick).into_iter().map(|l| (l, 2 * l, ladder_edges(l))).collect()),
        ("net", net_sizes(r.quick).into_iter().map(|l| (l, l * l, net_edges(l))).collect()),
        ("crystal", crystal_sizes(r.quick).into_iter().map(|l| (l, l * l * l, crystal_edges(l))).collect()),
    ];
    let mut series = Vec::new();
    for (name, sizes) in cases {
        let (mut sparse, mut dense) = (Vec::new(), Vec::new());
        for (l, nodes, edges) in sizes {
            let g = uniform_graph(nodes, 6, &edges);
            let sym = Symbolic::new(&g);
            let mut rng = Rng(42 + nodes as u64);
            let a = random_values(&g, &sym, &mut rng, 1.0);
            let b: Vec<f64> = (0..sym.dim).map(|_| rng.uniform()).collect();
            let mut work = a.clone();
            let t = cpu_seconds();
            work.factor(&sym).map_err(|e| format!("B4 {name} {l}: {e:?}"))?;
            let mut x = b.clone();
            work.solve(&sym, &mut x);
            let t_sparse = cpu_seconds() - t;
            let dense_a = a.to_dense(&sym);
            let t = cpu_seconds();
            let xd = dense_solve(&dense_a, &b).ok_or(format!("B4 {name} {l}: dense LU failed"))?;
            let t_dense = cpu_seconds() - t;
            let diff = rel_diff(&x, &xd);
            if diff > 1e-10 {
                return Err(format!("B4 {name} L = {l}: sparse and dense differ by {diff:e}"));
            }
            sparse.push((sym.dim as f64, 1e3 * t_sparse));
            dense.push((sym.dim as f64, 1e3 * t_dense));
        }
        let (s, d) = (sparse.last().unwrap(), dense.last().unwrap());
        r.note(format!("B4 {name}: at {} unknowns the graph LDU takes {:.3} ms, dense LU {:.1} ms ({:.0}×)", s.0, s.1, d.1, d.1 / s.1));
        series.push(Series::line(&format!("graph LDU, {name}"), sparse));
        series.push(Series::points(&format!("dense LU, {name}"), dense));
    }
    r.figure(Figure {
        file: "b4_sparse_dense",
        title: "B4 linear solve, block size 6: graph LDU against dense LU",
        x_label: "unknowns",
        y_label: "factor + solve [ms]",
        log_x: true,
        log_y: true,
        series,
        marks: vec![],
        labels: vec![],
        legend: SeriesLabelPosition::UpperLeft,
    })
}

fn ladder_sizes(quick: bool) -> Vec<usize> {
    if quick { vec![5, 20] } else { vec![5, 10, 20, 40, 80, 151] }
}

fn net_sizes(quick: bool) -> Vec<usize> {
    if quick { vec![3, 6] } else { vec![3, 6, 9, 12, 15, 18] }
}

fn crystal_sizes(quick: bool) -> Vec<usize> {
    if quick { vec![2, 3] } else { vec![2, 3, 4, 5, 6] }
}

/// C2: the largest elbow torque over 10 s against the controller's gain scale, for the
/// healthy and the spastic patient.
pub fn exoskeleton(r: &mut Report) -> Result<(), String> {
    let (scales, seconds): (Vec<f64>, f64) = if r.quick { (vec![0.25, 1.0], 1.0) } else { (vec![1.0 / 8.0, 1.0 / 6.0, 1.0 / 4.75, 0.25, 1.0 / 3.0, 0.5, 0.75, 1.0], 10.0) };
    let mut series = Vec::new();
    for patient in [Patient::Healthy, Patient::Spastic] {
        let mut pts = Vec::new();
        for &s in &scales {
            let run = simulate(patient, s, Derivative::TrackRate, LowerCuff::Script, seconds)?;
            pts.push((s, run.max_elbow_torque));
            if (s - 1.0 / 4.75).abs() < 1e-12 {
                r.note(format!("C2 {} patient at the paper's scale 1/4.75: largest elbow torque {:.2} N·m, cuff violation {:.1e} m", patient.name(), run.max_elbow_torque, run.max_cuff_violation));
            }
        }
        series.push(Series::line(&format!("{} patient", patient.name()), pts));
    }
    r.figure(Figure {
        file: "c2_exoskeleton",
        title: &format!("C2 exoskeleton, {seconds} s: largest elbow torque against gain scale"),
        x_label: "gain scale (K = (100, 50)·scale, D = K/10)",
        y_label: "largest |elbow torque| [N·m]",
        log_x: false,
        log_y: false,
        series,
        marks: vec![(TORQUE_LIMIT, "comfort limit 5 N·m".into())],
        labels: vec![],
        legend: SeriesLabelPosition::UpperLeft,
    })
}
