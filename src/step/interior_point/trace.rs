//! Test support (feature `test-support`): a per-iteration trace of the interior point on
//! stderr, switched on by [`set_trace`]. What a jammed solve is made of: the barrier, the
//! step length and the variable that blocks it, the spread of the complementarity
//! products, and the rows that carry the equality residual.

use super::{IterationCap, LinearSolve, Phase, Start};
use crate::contact::cone::{Kind, MAX_E, MAX_Y};
use crate::data::{Scratch, StepStats};
use crate::step::problem::Equations;
use std::sync::atomic::{AtomicBool, Ordering};

static TRACE: AtomicBool = AtomicBool::new(false);

/// Switches the trace on or off (for every thread).
pub fn set_trace(on: bool) {
    TRACE.store(on, Ordering::Relaxed);
}

pub(super) fn on() -> bool {
    TRACE.load(Ordering::Relaxed)
}

pub(super) fn header(eqs: &Equations, start: Start, cap: IterationCap, linear: LinearSolve) {
    eprintln!("== solve {start:?} {cap:?} {linear:?} friction {:?} dt {:e}", eqs.friction, eqs.dt);
}

/// Row `i` of `it.r` named: a body's row, an inequality's row, or another (joints).
fn row_name(eqs: &Equations, sc: &Scratch, i: usize) -> String {
    let model = eqs.model;
    let at = &model.addresses;
    for b in 0..model.bodies.len() {
        let o = at.body(b);
        if (o..o + 6).contains(&i) {
            return format!("body {b} row {}", i - o);
        }
    }
    let cw = &sc.contacts;
    for c in 0..cw.count() {
        let o = at.contact(c);
        if (o..o + cw.nodes.layout(c).nk).contains(&i) {
            return if i == o { format!("ineq {c} gap") } else { format!("ineq {c} slip {}", i - o - 1) };
        }
    }
    format!("row {i}")
}

/// The complementarity products of the selected nodes: their spread, and the node with
/// the largest (its products and its normal pair γ, s_φ).
struct Products {
    min: f64,
    mean: f64,
    max: f64,
    worst: usize,
    worst_products: [f64; MAX_E],
    worst_pair: (f64, f64),
}

fn products(eqs: &Equations, sc: &Scratch) -> Products {
    let (w, cw) = (&sc.it, &sc.contacts);
    let mut out = Products { min: f64::INFINITY, mean: 0.0, max: 0.0, worst: 0, worst_products: [0.0; MAX_E], worst_pair: (0.0, 0.0) };
    let (mut sum, mut n) = (0.0, 0usize);
    for ci in cw.selection.iter() {
        let l = cw.nodes.layout(ci);
        let mut y = [0.0; MAX_Y];
        cw.nodes.gather(ci, &w.s[eqs.model.addresses.contact(ci)..], &cw.vars.e, &mut y);
        let nk = l.nk;
        let mut p = [0.0; MAX_E];
        p[0] = y[0] * y[nk];
        let mut m = 1;
        if l.kind == Kind::Linear {
            p[1] = y[nk + 1] * y[nk + 2];
            m = 2;
            for i in 0..l.nt {
                p[m] = y[1 + i] * y[nk + 3 + i];
                m += 1;
            }
        }
        for &v in &p[..m] {
            out.min = out.min.min(v);
            sum += v;
            n += 1;
            if v > out.max {
                (out.max, out.worst, out.worst_products, out.worst_pair) = (v, ci, p, (y[0], y[nk]));
            }
        }
    }
    out.mean = sum / n.max(1) as f64;
    out
}

pub(super) fn iterate(eqs: &Equations, sc: &Scratch, iteration: usize, phase: Phase, mu: f64, eq: f64, comp: f64) {
    let p = products(eqs, sc);
    let r = &sc.it.r;
    let mut rows: Vec<(usize, f64)> = r.iter().copied().enumerate().collect();
    rows.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
    let top: Vec<String> = rows.iter().take(3).map(|&(i, v)| format!("{}={v:.2e}", row_name(eqs, sc, i))).collect();
    let cw = &sc.contacts;
    let (mut cone_eq, mut cone_at) = (0.0f64, 0);
    for ci in cw.selection.iter() {
        let c = cw.nodes.layout(ci).cone_equality(&cw.vars.re[cw.nodes.e_range(ci)]);
        if c > cone_eq {
            (cone_eq, cone_at) = (c, ci);
        }
    }
    let worst: Vec<String> = p.worst_products.iter().filter(|v| **v != 0.0).map(|v| format!("{v:.1e}")).collect();
    eprintln!(
        "it {iteration:3} {phase:?} mu {mu:.2e} eq {eq:.2e} comp {comp:.2e} | products min {:.2e} mean {:.2e} max {:.2e} (ineq {}: {worst:?} gamma {:.2e} slack {:.2e}) | rows {} | cone eq {cone_eq:.2e} (ineq {cone_at})",
        p.min,
        p.mean,
        p.max,
        p.worst,
        p.worst_pair.0,
        p.worst_pair.1,
        top.join(" ")
    );
}

/// The step just taken along (it.ds, cw.de): its length, the fraction-to-boundary
/// limit and the variable that sets it.
pub(super) fn step(eqs: &Equations, sc: &Scratch, alpha: f64) {
    let (w, cw) = (&sc.it, &sc.contacts);
    let (mut am, mut at_c, mut at_v, mut yv, mut dv) = (f64::INFINITY, 0, 0, 0.0, 0.0);
    for ci in cw.selection.iter() {
        let on = eqs.model.addresses.contact(ci);
        let l = cw.nodes.layout(ci);
        let (y, dy) = cw.node_and_step(ci, &w.s[on..], &w.ds[on..]);
        for (k, (&yk, &dk)) in y[..l.ny()].iter().zip(&dy[..l.ny()]).enumerate() {
            if dk < 0.0 && -yk / dk < am {
                (am, at_c, at_v, yv, dv) = (-yk / dk, ci, k, yk, dk);
            }
        }
    }
    eprintln!("    alpha {alpha:.2e} boundary {am:.2e} set by ineq {at_c} y[{at_v}] = {yv:.2e} dy {dv:.2e}");
}

pub(super) fn end(converged: bool, stats: &StepStats, eq: f64, comp: f64) {
    eprintln!("== end: converged {converged} stalled {} eq {eq:.3e} comp {comp:.3e} after {} iterations", stats.stalled, stats.iterations);
}
