//! The floating base with contacts: the A1 of example-robot-data loaded floating with its
//! collision shapes and the ground, settled on its four feet with its legs held by PD
//! joint inputs (set with the whole-state vectors), linearized in minimal coordinates
//! with the base (A 36 × 36, B 36 × 12) against central differences of whole steps.

use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Coords, Model, Sim};

#[path = "common/require.rs"]
mod require;

const A1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/a1_description/urdf/a1.urdf");

/// Steps solved to 1e-13, contacts to 1e-12. Measured: A 6.7e-10 relative at h = 1e-6
/// (1.1e-9 at 1e-5; from 1e-4 on the perturbed steps change which contacts hold); B 1.9e-8
/// at h = 1e-3 (2.1e-5, 2.0e-6, 1.8e-7 at 1e-6, 1e-5, 1e-4: the differences' noise,
/// tolerance / h). The base settles at 0.2928 m on 4 active contacts.
#[test]
fn a1_standing_linearizes_with_its_base() {
    if !require::corpus("a1_standing_linearizes_with_its_base", A1) {
        return;
    }
    let u = Urdf::from_file_with(A1, &UrdfOptions { floating: true, joint_limits: false, collision: true, ground_plane: true, ..UrdfOptions::default() }).unwrap();
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let (nq, nv, nu) = model.dimensions();
    let mut sim = Sim::new(model.clone(), 1e-3).unwrap();
    let names: Vec<String> = (0..model.joint_count()).map(|j| model.joints[j].name.clone()).collect();
    let target: Vec<f64> = names.iter().map(|n| if n.contains("hip") { 0.0 } else if n.contains("thigh") { 0.8 } else { -1.5 }).collect();
    let mut q = vec![0.0; nq];
    q[2] = 0.32;
    q[3] = 1.0;
    q[7..].copy_from_slice(&target);
    sim.set_configuration(&q).unwrap();
    let pd = |s: &mut Sim| {
        let (mut q, mut v) = (vec![0.0; nq], vec![0.0; nv]);
        s.configuration(&mut q).unwrap();
        s.generalized_velocity(&mut v).unwrap();
        let u: Vec<f64> = (0..nu).map(|k| 40.0 * (target[k] - q[7 + k]) - 1.0 * v[6 + k]).collect();
        s.set_joint_inputs(&u).unwrap();
    };
    for _ in 0..600 {
        pd(&mut sim);
        sim.step().unwrap();
    }
    pd(&mut sim);
    let mut qn = vec![0.0; nq];
    sim.configuration(&mut qn).unwrap();
    println!("base height after settling {:.4}, active contacts {}", qn[2], sim.stats().active_contacts);
    assert_eq!(sim.stats().active_contacts, 4);
    assert!((qn[2] - 0.2928).abs() < 1e-3, "{}", qn[2]);
    let o = sim.options();
    sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, contact_tolerance: 1e-12, ..o }).unwrap();
    let (nx, nu) = model.linearization_size(Coords::Minimal);
    let (mut a, mut b, mut fa, mut fb) = (vec![0.0; nx * nx], vec![0.0; nx * nu], vec![0.0; nx * nx], vec![0.0; nx * nu]);
    sim.linearize(Coords::Minimal, &mut a, &mut b).unwrap();
    sim.linearize_by_differences(Coords::Minimal, 1e-6, &mut fa, &mut fb).unwrap();
    let rel = |x: &[f64], y: &[f64]| x.iter().zip(y).fold(0.0f64, |m, (p, q)| m.max((p - q).abs())) / y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let ea = rel(&a, &fa);
    sim.linearize_by_differences(Coords::Minimal, 1e-3, &mut fa, &mut fb).unwrap();
    let eb = rel(&b, &fb);
    println!("A1 standing, minimal with the base: A {ea:.1e} (h 1e-6), B {eb:.1e} (h 1e-3)");
    assert!(ea < 3e-9 && eb < 1e-7, "A {ea:e}, B {eb:e}");
}
