use super::*;
use crate::model::{Builder, Inertia, Parent};
use crate::JointType;
use std::sync::Arc;

/// Two rods hanging from the world, revolute about x: joints 1 m apart, centres of mass
/// 0.5 m below each joint, m = 1 and 2 kg, I_x = 0.1 and 0.2; at θ = (0.3, −0.7).
fn double_pendulum() -> Sim {
    let mut b = Builder::new();
    let l1 = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.01).unwrap()).unwrap();
    let l2 = b.add_body(2.0, Inertia::diagonal(0.2, 0.2, 0.02).unwrap()).unwrap();
    b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_position(0, &[0.3]).unwrap();
    sim.set_joint_position(1, &[-0.7]).unwrap();
    sim
}

/// The textbook two-link arm (Spong): M, Coriolis with h = m2 l1 lc2 sin θ2, gravity.
/// Measured: 1.8e-15 (M), 5.3e-15 (τ).
#[test]
fn double_pendulum_terms_are_the_textbook_ones() {
    let sim = double_pendulum();
    let (m1, m2, i1, i2, l1, lc1, lc2, g) = (1.0, 2.0, 0.1, 0.2, 1.0, 0.5, 0.5, 9.81);
    let (t1, t2) = (0.3_f64, -0.7_f64);
    let m11 = m1 * lc1 * lc1 + i1 + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * t2.cos()) + i2;
    let m12 = m2 * (lc2 * lc2 + l1 * lc2 * t2.cos()) + i2;
    let m22 = m2 * lc2 * lc2 + i2;
    let mut m = [0.0; 4];
    sim.mass_matrix(&mut m).unwrap();
    let em = m.iter().zip([m11, m12, m12, m22]).map(|(a, e)| (a - e).abs()).fold(0.0, f64::max);
    let (qd, qdd) = ([0.8, -1.3], [0.4, 2.1]);
    let h = m2 * l1 * lc2 * t2.sin();
    let g1 = m1 * g * lc1 * t1.sin() + m2 * g * (l1 * t1.sin() + lc2 * (t1 + t2).sin());
    let g2 = m2 * g * lc2 * (t1 + t2).sin();
    let tau1 = m11 * qdd[0] + m12 * qdd[1] - h * (2.0 * qd[0] * qd[1] + qd[1] * qd[1]) + g1;
    let tau2 = m12 * qdd[0] + m22 * qdd[1] + h * qd[0] * qd[0] + g2;
    let mut tau = [0.0; 2];
    sim.inverse_dynamics(&qd, &qdd, &mut tau).unwrap();
    let et = (tau[0] - tau1).abs().max((tau[1] - tau2).abs());
    println!("textbook: M {em:.1e}, τ {et:.1e}");
    assert!(em < 1e-13 && et < 1e-12, "M {m:?} vs {:?}; τ {tau:?} vs {:?}", [m11, m12, m12, m22], [tau1, tau2]);
}

#[test]
fn loops_and_bad_lengths_are_refused() {
    let sim = double_pendulum();
    let mut tau = [0.0; 2];
    assert!(matches!(sim.inverse_dynamics(&[0.0; 3], &[0.0; 2], &mut tau), Err(Error::WrongLength { name: "qd", .. })));
    assert_eq!(sim.inverse_dynamics(&[f64::NAN, 0.0], &[0.0; 2], &mut tau), Err(Error::NonFinite("qd")));
    let mut b = Builder::new();
    let (x, y) = (b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.1).unwrap()).unwrap(), b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.1).unwrap()).unwrap());
    b.add_joint(JointType::Revolute, Parent::World, x, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, x, y, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Spherical, Parent::World, y, [0.0, 0.0, -1.5], [0.0, 0.0, -0.5], [1.0, 0.0, 0.0]).unwrap();
    let sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    let mut m = vec![0.0; 25];
    assert!(matches!(sim.mass_matrix(&mut m), Err(Error::InvalidArgument("model", _))));
}
