//! Floating-base minimal coordinates and whole-state vectors (issue 26 items 2, 3) on the
//! A1 quadruped of example-robot-data loaded floating (its trunk a free body, no joint to
//! the world): nq 19, nv 18, nu 12; the configuration and the generalized velocity set and
//! read back in one call each; `linearize` in minimal coordinates (A 36 × 36, B 36 × 12)
//! against central differences of whole steps; a free body's Jacobian columns against
//! differences of its configuration.

use std::sync::Arc;

use maxdyn::math::{from_rotation_vector, qmul, rotation, V3, V4};
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Axes, Builder, Coords, Error, Inertia, Model, Sim, Target};

#[path = "common/require.rs"]
mod require;

const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/a1_description/urdf/a1.urdf");

fn a1(test: &str) -> Option<Arc<Model>> {
    if !require::corpus(test, A1) {
        return None;
    }
    let u = Urdf::from_file_with(A1, &UrdfOptions { floating: true, joint_limits: false, ..UrdfOptions::default() }).unwrap();
    Some(Arc::new(Model::new(&u.builder).unwrap()))
}

/// A generic configuration: the base lifted, turned about a skew axis, legs bent.
fn generic_q(nq: usize) -> Vec<f64> {
    let quat = from_rotation_vector(&V3::new(0.3, -0.5, 0.8));
    let mut q = vec![0.2, -0.1, 0.45, quat[0], quat[1], quat[2], quat[3]];
    q.extend((0..nq - 7).map(|k| 0.4 * (1.3 * k as f64 + 0.5).sin()));
    q
}

fn generic_v(nv: usize) -> Vec<f64> {
    (0..nv).map(|k| 0.7 * (0.9 * k as f64 + 0.2).cos()).collect()
}

fn model_inertia(sim: &Sim, body: usize) -> Vec<f64> {
    let j = sim.model().bodies[body].inertia;
    (0..9).map(|k| j[(k / 3, k % 3)]).collect()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

/// nq, nv, nu of the A1 and the minimal sizes that include the base.
#[test]
fn a1_floating_has_nq_19_nv_18_nu_12() {
    let Some(model) = a1("a1_floating_has_nq_19_nv_18_nu_12") else { return };
    assert_eq!(model.floating_bases.len(), 1);
    assert_eq!(model.dimensions(), (19, 18, 12));
    assert_eq!(model.velocity_count(Coords::Minimal), 18);
    assert_eq!(model.linearization_size(Coords::Minimal), (36, 12));
}

/// One call places the base and every leg: read back to 1e-12 (measured 1.7e-16), the base
/// frame where q says, the joints closed (violation 1.1e-16), the velocities kept (4.1e-13:
/// the joints' discrete rates are recomputed from the placed configurations).
#[test]
fn setting_the_configuration_moves_base_and_joints_in_one_call() {
    let Some(model) = a1("setting_the_configuration_moves_base_and_joints_in_one_call") else { return };
    let (nq, nv, _) = model.dimensions();
    let mut sim = Sim::new(model.clone(), 1e-3).unwrap();
    let v = generic_v(nv);
    sim.set_generalized_velocity(&v).unwrap();
    let q = generic_q(nq);
    sim.set_configuration(&q).unwrap();
    let mut back = vec![0.0; nq];
    sim.configuration(&mut back).unwrap();
    let e = max_diff(&q, &back);
    let mut v_back = vec![0.0; nv];
    sim.generalized_velocity(&mut v_back).unwrap();
    let ev = max_diff(&v, &v_back);
    println!("q read back {e:.1e}, v kept {ev:.1e}, joint violation {:.1e}", sim.constraint_violation());
    assert!(e < 1e-12, "{e}");
    assert!(ev < 1e-9, "{ev}");
    assert!(sim.constraint_violation() < 1e-12);
    // the trunk's link frame (`trunk`, the root link `base` coincides) is where q puts it
    let trunk = model.frames.iter().position(|f| f.name == "trunk").unwrap();
    let p = sim.target_pose(Target::Frame(trunk)).unwrap();
    assert!(max_diff(&p[..3], &q[..3]) < 1e-12 && max_diff(&p[3..], &q[3..7]) < 1e-12, "{p:?}");
    // a step moves from there without a joint violation
    sim.step().unwrap();
}

/// Wrong lengths, NaN, a non-unit quaternion, too fast a joint: refused by name, nothing changed.
#[test]
fn bad_whole_state_input_is_refused_and_changes_nothing() {
    let Some(model) = a1("bad_whole_state_input_is_refused_and_changes_nothing") else { return };
    let (nq, nv, nu) = model.dimensions();
    let mut sim = Sim::new(model, 1e-3).unwrap();
    sim.set_configuration(&generic_q(nq)).unwrap();
    let saved = |s: &Sim| {
        let mut x = vec![0.0; s.state_size()];
        s.get_state(&mut x).unwrap();
        x
    };
    let before = saved(&sim);
    let mut q = generic_q(nq);
    q[3] *= 1.01;
    assert!(matches!(sim.set_configuration(&q), Err(Error::InvalidArgument("q", m)) if m.contains("unit quaternion")));
    assert!(matches!(sim.set_configuration(&q[..nq - 1]), Err(Error::WrongLength { .. })));
    let mut q = generic_q(nq);
    q[9] = f64::NAN;
    assert!(matches!(sim.set_configuration(&q), Err(Error::NonFinite("q"))));
    let mut v = generic_v(nv);
    assert!(matches!(sim.set_generalized_velocity(&v[..nv - 1]), Err(Error::WrongLength { .. })));
    v[8] = 1e4; // a joint turning by 10 rad in a step
    assert!(matches!(sim.set_generalized_velocity(&v), Err(Error::InvalidArgument("v", _))));
    v[8] = 0.0;
    v[4] = 3e3; // the base spinning beyond 2/dt
    assert!(sim.set_generalized_velocity(&v).is_err());
    assert!(matches!(sim.set_joint_inputs(&vec![f64::INFINITY; nu]), Err(Error::NonFinite("u"))));
    assert!(matches!(sim.set_joint_inputs(&vec![0.0; nv]), Err(Error::WrongLength { .. })));
    assert_eq!(saved(&sim), before, "a refused call changed the state");
    let u: Vec<f64> = (0..nu).map(|k| k as f64 - 5.0).collect();
    sim.set_joint_inputs(&u).unwrap();
    let mut back = vec![0.0; nu];
    sim.joint_inputs(&mut back).unwrap();
    assert_eq!(back, u);
}

/// `linearize` in minimal coordinates with the floating base: A 36 × 36, B 36 × 12 against
/// central differences of whole steps (dt 1e-2, h = 1e-6, steps solved to 1e-13; the bar
/// is 1e-6 relative to the largest entry), the A1 falling and turning with its legs
/// swinging under joint inputs. Measured: A 1.1e-7 (the base's tangent rows 9.6e-11
/// absolute; at h = 1e-5 A is 8.8e-9: the differences' noise, tolerance / h, amplified by
/// 1/dt in the velocity rows, not the derivative), B 1.1e-8.
#[test]
fn a1_floating_linearization_matches_central_differences() {
    let Some(model) = a1("a1_floating_linearization_matches_central_differences") else { return };
    let (nq, nv, nu) = model.dimensions();
    let mut sim = Sim::new(model.clone(), 1e-2).unwrap();
    sim.set_configuration(&generic_q(nq)).unwrap();
    sim.set_generalized_velocity(&generic_v(nv)).unwrap();
    sim.set_joint_inputs(&(0..nu).map(|k| (k as f64 * 0.7).sin()).collect::<Vec<_>>()).unwrap();
    let o = sim.options();
    sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, ..o }).unwrap();
    let (nx, nu) = model.linearization_size(Coords::Minimal);
    assert_eq!((nx, nu), (36, 12));
    let (mut a, mut b, mut fa, mut fb) = (vec![0.0; nx * nx], vec![0.0; nx * nu], vec![0.0; nx * nx], vec![0.0; nx * nu]);
    sim.linearize(Coords::Minimal, &mut a, &mut b).unwrap();
    sim.linearize_by_differences(Coords::Minimal, 1e-6, &mut fa, &mut fb).unwrap();
    let rel = |x: &[f64], y: &[f64]| max_diff(x, y) / y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let (ea, eb) = (rel(&a, &fa), rel(&b, &fb));
    let base_rows = (0..6).flat_map(|r| (0..nx).map(move |c| (r, c))).fold(0.0f64, |m, (r, c)| m.max((a[r * nx + c] - fa[r * nx + c]).abs()));
    println!("A1 floating, minimal: A {ea:.1e} (base tangent rows {base_rows:.1e} absolute), B {eb:.1e}");
    assert!(ea < 3e-7 && eb < 5e-8 && base_rows < 5e-10, "A {ea:e}, B {eb:e}, base rows {base_rows:e}");
}

/// A free body (no joint) is a floating base with its body frame as reference: its minimal
/// Jacobian columns are the frame's local twist directions. A point's velocity from
/// J v equals the maximal twist's (1e-15), and the mass matrix is diag(m I, I_body).
#[test]
fn a_free_body_is_a_floating_base_with_local_twist_columns() {
    let mut b = Builder::new();
    let body = b.add_body(2.0, Inertia::cuboid(2.0, 0.3, 0.2, 0.1).unwrap()).unwrap();
    let model = Arc::new(Model::new(&b).unwrap());
    assert_eq!(model.dimensions(), (7, 6, 0));
    let mut sim = Sim::new(model, 1e-3).unwrap();
    let quat = from_rotation_vector(&V3::new(0.4, 0.1, -0.7));
    sim.set_configuration(&[1.0, 2.0, 3.0, quat[0], quat[1], quat[2], quat[3]]).unwrap();
    let v = [0.3, -0.2, 0.5, 1.1, -0.4, 0.9];
    sim.set_generalized_velocity(&v).unwrap();
    let s = sim.body_state(body).unwrap();
    let r = rotation(&V4::new(s[3], s[4], s[5], s[6]));
    // ν in the body frame, ω the body's
    assert!((r.transpose() * V3::new(s[7], s[8], s[9]) - V3::new(v[0], v[1], v[2])).norm() < 1e-15);
    assert!((V3::new(s[10], s[11], s[12]) - V3::new(v[3], v[4], v[5])).norm() < 1e-15);
    let point = Target::Point { body, point: [0.1, -0.3, 0.2] };
    let mut j = [0.0; 36];
    sim.jacobian(point, Axes::World, Coords::Minimal, &mut j).unwrap();
    let twist = sim.target_velocity(point, Axes::World).unwrap();
    for i in 0..6 {
        let jv: f64 = (0..6).map(|c| j[i * 6 + c] * v[c]).sum();
        assert!((jv - twist[i]).abs() < 1e-14, "row {i}: {jv} vs {}", twist[i]);
    }
    let mut m = [0.0; 36];
    sim.mass_matrix(&mut m).unwrap();
    let inertia = model_inertia(&sim, body);
    for r in 0..6 {
        for c in 0..6 {
            let expected = if r < 3 { if r == c { 2.0 } else { 0.0 } } else if c >= 3 { inertia[(r - 3) * 3 + c - 3] } else { 0.0 };
            assert!((m[r * 6 + c] - expected).abs() < 1e-14, "M[{r}][{c}] = {} vs {expected}", m[r * 6 + c]);
        }
    }
    // a quarter turn about the frame's x axis through the configuration setter
    let turned = qmul(&quat, &from_rotation_vector(&V3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0)));
    sim.set_configuration(&[1.0, 2.0, 3.0, turned[0], turned[1], turned[2], turned[3]]).unwrap();
    let mut back = [0.0; 6];
    sim.generalized_velocity(&mut back).unwrap();
    assert!(max_diff(&back, &v) < 1e-14, "the base twist is kept in its own axes: {back:?}");
}

/// Free fall needs no generalized force: at rest, with the base accelerating at gravity in
/// its own axes (ν̇ = R_fᵀ g, ω̇ = 0) and the joints not accelerating, every body falls with
/// g and inverse dynamics is 0 (measured 2.7e-14 against the robot's weight of 135 N);
/// M q̈ + b(q, v) = τ at a moving state (measured 1.1e-16 relative).
#[test]
fn a1_free_fall_needs_no_force_and_inverse_dynamics_is_m_qdd_plus_b() {
    let Some(model) = a1("a1_free_fall_needs_no_force_and_inverse_dynamics_is_m_qdd_plus_b") else { return };
    let (nq, nv, _) = model.dimensions();
    let mut sim = Sim::new(model.clone(), 1e-3).unwrap();
    let q = generic_q(nq);
    sim.set_configuration(&q).unwrap();
    let rf = rotation(&V4::new(q[3], q[4], q[5], q[6]));
    let mut qdd = vec![0.0; nv];
    qdd[..3].copy_from_slice((rf.transpose() * model.gravity).as_slice());
    let mut tau = vec![0.0; nv];
    sim.inverse_dynamics(&vec![0.0; nv], &qdd, &mut tau).unwrap();
    let worst = tau.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    let weight = model.bodies.iter().map(|b| b.mass).sum::<f64>() * 9.81;
    println!("free fall: largest generalized force {worst:.1e} (weight {weight:.0} N)");
    assert!(worst < 1e-13, "{tau:?}");
    let (v, a) = (generic_v(nv), (0..nv).map(|k| (0.3 * k as f64).sin()).collect::<Vec<_>>());
    let (mut m, mut b) = (vec![0.0; nv * nv], vec![0.0; nv]);
    sim.mass_matrix(&mut m).unwrap();
    sim.bias_forces(&v, &mut b).unwrap();
    sim.inverse_dynamics(&v, &a, &mut tau).unwrap();
    let lhs: Vec<f64> = (0..nv).map(|r| (0..nv).map(|c| m[r * nv + c] * a[c]).sum::<f64>() + b[r]).collect();
    let e = max_diff(&lhs, &tau) / tau.iter().fold(0.0f64, |m, t| m.max(t.abs()));
    println!("M qdd + b vs tau: {e:.1e}");
    assert!(e < 1e-14, "{e}");
}

/// Two free roots are two floating bases, in body order, each with 7 configuration and 6
/// velocity entries before the joints; one call places both trees.
#[test]
fn two_free_roots_are_two_bases_in_body_order() {
    let mut b = Builder::new();
    let j = Inertia::cuboid(1.0, 0.2, 0.2, 0.2).unwrap();
    let hanging = b.add_body(1.0, j).unwrap();
    let first = b.add_body(3.0, j).unwrap();
    let second = b.add_body(2.0, j).unwrap();
    b.add_joint(maxdyn::JointType::Revolute, second, hanging, [0.0, 0.0, -0.2], [0.0, 0.0, 0.2], [1.0, 0.0, 0.0]).unwrap();
    let model = Arc::new(Model::new(&b).unwrap());
    assert_eq!(model.floating_bases.iter().map(|f| f.body).collect::<Vec<_>>(), [first, second]);
    assert_eq!(model.dimensions(), (15, 13, 1));
    let mut sim = Sim::new(model, 1e-3).unwrap();
    let turn = from_rotation_vector(&V3::new(0.0, 0.0, 0.5));
    let q = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, turn[0], turn[1], turn[2], turn[3], 0.3];
    sim.set_configuration(&q).unwrap();
    let mut back = [0.0; 15];
    sim.configuration(&mut back).unwrap();
    assert!(max_diff(&q, &back) < 1e-15, "{back:?}");
    assert_eq!(sim.body_state(first).unwrap()[..3], [1.0, 0.0, 0.0]);
    assert!(sim.constraint_violation() < 1e-15);
    let mut jac = vec![0.0; 6 * 13];
    sim.jacobian(Target::Body(hanging), Axes::World, Coords::Minimal, &mut jac).unwrap();
    assert!((0..6).all(|r| (0..6).all(|c| jac[r * 13 + c] == 0.0)), "the first base does not move the hanging body");
}
