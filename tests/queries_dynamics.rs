//! Dynamics terms (issue 13 part 2) on the Franka panda (fixed base) and the A1 with a
//! fixed and a floating base, at a generic configuration: M q̈ + b = τ; M symmetric with
//! q̇ᵀ M q̇ = 2 T; gravity = ∂V/∂q and the Coriolis terms = Ṁ q̇ − ½ ∂(q̇ᵀ M q̇)/∂q by central
//! differences of the forward quantities; and the forward step, driven by τ(q, 0, q̈)
//! from rest, accelerates at q̈.

use std::sync::Arc;

use maxdyn::joints::constraint::Pose;
use maxdyn::{Model, Sim};

#[path = "common/queries.rs"]
mod queries;
use queries::*;

/// A fixed generic velocity or acceleration vector of length n.
fn generic(n: usize, seed: f64) -> Vec<f64> {
    (0..n).map(|i| (seed * (i as f64 + 1.0)).cos()).collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn mass_matrix(sim: &Sim) -> Vec<f64> {
    let n = sim.model().minimal_velocity_count();
    let mut m = vec![0.0; n * n];
    sim.mass_matrix(&mut m).unwrap();
    m
}

fn times(m: &[f64], x: &[f64]) -> Vec<f64> {
    let n = x.len();
    (0..n).map(|i| dot(&m[i * n..(i + 1) * n], x)).collect()
}

fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |m, x| m.max(x.abs()))
}

/// A sim with the tree joints at coordinates `c` (tree order).
fn at(model: &Arc<Model>, c: &[Vec<f64>]) -> Sim {
    let mut sim = Sim::new(model.clone(), 1e-3).unwrap();
    for &j in &model.tree_order {
        sim.set_joint_position(j, &c[j]).unwrap();
    }
    sim
}

/// Returns (M q̈ + b vs τ, symmetry, q̇ᵀMq̇ vs 2T), each relative.
fn identities(sim: &Sim) -> (f64, f64, f64) {
    let model = sim.model();
    let n = model.minimal_velocity_count();
    let (qd, qdd) = (generic(n, 0.7), generic(n, 1.9));
    let m = mass_matrix(sim);
    let (mut b, mut tau) = (vec![0.0; n], vec![0.0; n]);
    sim.bias_forces(&qd, &mut b).unwrap();
    sim.inverse_dynamics(&qd, &qdd, &mut tau).unwrap();
    let lhs: Vec<f64> = times(&m, &qdd).iter().zip(&b).map(|(x, y)| x + y).collect();
    let e_tau = lhs.iter().zip(&tau).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max) / max_abs(&tau);
    let e_sym = (0..n * n).map(|k| (m[k] - m[(k % n) * n + k / n]).abs()).fold(0.0, f64::max) / max_abs(&m);
    let mut v = vec![0.0; 6 * model.body_count()];
    sim.body_velocities_from_minimal(&qd, &mut v).unwrap();
    let two_t: f64 = (0..model.body_count())
        .map(|b| {
            let s = sim.body_state(b).unwrap();
            let r = maxdyn::math::rotation(&maxdyn::math::V4::new(s[3], s[4], s[5], s[6]));
            let w = r.transpose() * maxdyn::math::V3::new(v[6 * b + 3], v[6 * b + 4], v[6 * b + 5]);
            model.bodies[b].mass * dot(&v[6 * b..6 * b + 3], &v[6 * b..6 * b + 3]) + w.dot(&(model.bodies[b].inertia * w))
        })
        .sum();
    let e_t = (dot(&qd, &times(&m, &qd)) - two_t).abs() / two_t;
    (e_tau, e_sym, e_t)
}

/// Gravity b(q, 0) against central differences of V = −Σ m gᵀ x along each minimal
/// direction; relative to max |b|.
fn gravity_error(sim: &Sim) -> f64 {
    let model = sim.model().clone();
    let n = model.minimal_velocity_count();
    let c = coordinates(sim);
    let potential = |z: &[Pose]| -> f64 { -(0..model.body_count()).map(|b| model.bodies[b].mass * model.gravity.dot(&z[b].x)).sum::<f64>() };
    let mut g = vec![0.0; n];
    sim.bias_forces(&vec![0.0; n], &mut g).unwrap();
    let mut worst: f64 = 0.0;
    let mut col = 0;
    for ji in 0..model.joint_count() {
        for k in 0..model.joints[ji].dof() {
            let vp = potential(&forward(&model, sim, &moved(&model, &c, ji, k, EPS)));
            let vm = potential(&forward(&model, sim, &moved(&model, &c, ji, k, -EPS)));
            worst = worst.max((g[col] - (vp - vm) / (2.0 * EPS)).abs());
            col += 1;
        }
    }
    worst / max_abs(&g)
}

/// Coriolis and centrifugal terms b(q, q̇) − b(q, 0) against Ṁ q̇ − ½ ∂(q̇ᵀ M q̇)/∂q, with M
/// by central differences (fixed bases of one-coordinate joints, whose rate is the coordinate's).
fn coriolis_error(sim: &Sim) -> f64 {
    let model = sim.model().clone();
    let n = model.minimal_velocity_count();
    assert!(model.joints.iter().all(|j| j.dof() == 1), "one coordinate per joint");
    let qd = generic(n, 0.7);
    let c = coordinates(sim);
    let shifted = |dir: &[f64], h: f64| -> Vec<Vec<f64>> { c.iter().enumerate().map(|(j, v)| vec![v[0] + h * dir[j]]).collect() };
    let (mp, mm) = (mass_matrix(&at(&model, &shifted(&qd, EPS))), mass_matrix(&at(&model, &shifted(&qd, -EPS))));
    let mdot: Vec<f64> = mp.iter().zip(&mm).map(|(a, b)| (a - b) / (2.0 * EPS)).collect();
    let mut expected = times(&mdot, &qd);
    for k in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect();
        let (mp, mm) = (mass_matrix(&at(&model, &shifted(&e, EPS))), mass_matrix(&at(&model, &shifted(&e, -EPS))));
        expected[k] -= 0.5 * (dot(&qd, &times(&mp, &qd)) - dot(&qd, &times(&mm, &qd))) / (2.0 * EPS);
    }
    let (mut b, mut g) = (vec![0.0; n], vec![0.0; n]);
    sim.bias_forces(&qd, &mut b).unwrap();
    sim.bias_forces(&vec![0.0; n], &mut g).unwrap();
    let cor: Vec<f64> = b.iter().zip(&g).map(|(x, y)| x - y).collect();
    cor.iter().zip(&expected).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max) / max_abs(&cor)
}

/// From rest, joint inputs τ(q, 0, q̈) for a generic q̈: after one step of dt the minimal
/// velocities are q̈ dt to O(dt); returns |q̇₁/dt − q̈| / |q̈|.
fn step_error(model: &Arc<Model>, dt: f64) -> f64 {
    let posed_sim = posed(model.clone());
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    for b in 0..model.body_count() {
        sim.set_body_state(b, &posed_sim.body_state(b).unwrap()).unwrap();
    }
    let n = model.minimal_velocity_count();
    let qdd = generic(n, 1.9);
    let mut tau = vec![0.0; n];
    sim.inverse_dynamics(&vec![0.0; n], &qdd, &mut tau).unwrap();
    let mut at = 0;
    for j in 0..model.joint_count() {
        let d = model.joints[j].dof();
        sim.set_joint_input(j, &tau[at..at + d]).unwrap();
        at += d;
    }
    sim.step().unwrap();
    let mut qd = vec![0.0; n];
    sim.minimal_velocities(&mut qd).unwrap();
    qd.iter().zip(&qdd).map(|(v, a)| (v / dt - a).abs()).fold(0.0, f64::max) / max_abs(&qdd)
}

/// Relative, measured: M q̈ + b − τ 2.7e-16, M − Mᵀ 1e-17, q̇ᵀMq̇ − 2T 3e-16 on all three;
/// gravity vs central differences 1.2e-10 (panda), 4.7e-11 (A1 fixed), 3.9e-12 (A1
/// floating); Coriolis 2.4e-10 (panda), 2.1e-10 (A1 fixed). (Not with a floating base: its
/// rotational velocities are not coordinate rates, so Lagrange's form in q does not apply.)
#[test]
fn terms_are_consistent_and_match_central_differences() {
    let mut robots = vec![("A1 fixed", a1(false)), ("A1 floating", a1(true))];
    robots.extend(panda("terms_are_consistent_and_match_central_differences").map(|m| ("panda", m)));
    for (name, model) in robots {
        let sim = posed(model.clone());
        let (e_tau, e_sym, e_t) = identities(&sim);
        let e_g = gravity_error(&sim);
        let e_c = if name == "A1 floating" { f64::NAN } else { coriolis_error(&sim) };
        println!("{name}: M q̈ + b − τ {e_tau:.1e}, M − Mᵀ {e_sym:.1e}, q̇ᵀMq̇ − 2T {e_t:.1e}, gravity {e_g:.1e}, Coriolis {e_c:.1e}");
        assert!(e_tau < 1e-10 && e_sym < 1e-14 && e_t < 1e-12, "{name}");
        assert!(e_g < 1e-9 && (e_c.is_nan() || e_c < 1e-8), "{name}");
    }
}

/// The step's acceleration is τ's: q̇₁/dt − q̈ shrinks with dt (first order). Measured:
/// 5.0e-3 → 5.0e-4 (A1 fixed), 5.3e-3 → 5.3e-4 (A1 floating) from dt 1e-3 to 1e-4.
#[test]
fn the_step_driven_by_inverse_dynamics_accelerates_as_asked() {
    for (name, model) in [("A1 fixed", a1(false)), ("A1 floating", a1(true))] {
        let (e3, e4) = (step_error(&model, 1e-3), step_error(&model, 1e-4));
        println!("{name}: |q̇₁/dt − q̈|/|q̈| = {e3:.2e} (dt 1e-3), {e4:.2e} (dt 1e-4)");
        assert!(e4 < 0.2 * e3 && e4 < 1e-3, "{name}");
    }
}
