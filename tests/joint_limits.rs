//! Joint limits as inequalities of the interior point (`maxdyn::limits`): a coordinate
//! stops at its bound to the solver's tolerance, no energy is gained at the stop, a model
//! far from its limits pays little for them, and angles beyond ±π are limited exactly.

use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
use std::sync::Arc;

/// A rod pendulum (1 kg, COM 0.5 m below a hinge about y at the origin), limits on the
/// hinge when given.
fn pendulum(limits: Option<(f64, f64)>, dt: f64, start: f64) -> Sim {
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::diagonal(0.02, 0.02, 0.001).unwrap()).unwrap();
    let j = b.add_joint(JointType::Revolute, Parent::World, body, [0.0; 3], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0]).unwrap();
    if let Some((lo, hi)) = limits {
        b.set_joint_limits(j, &[lo], &[hi]).unwrap();
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j, &[start]).unwrap();
    sim
}

fn total_energy(sim: &Sim) -> f64 {
    let (k, p) = sim.energy();
    k + p
}

fn angle(sim: &Sim, joint: usize) -> f64 {
    let mut q = [0.0];
    sim.joint_position(joint, &mut q).unwrap();
    q[0]
}

#[test]
fn explore_pendulum() {
    for lim in [None, Some((-0.3, 2.0))] {
        let mut sim = pendulum(lim, 1e-3, 1.5);
        let e0 = total_energy(&sim);
        let (mut worst_gain, mut worst_step_gain, mut worst_viol, mut min_q) = (f64::NEG_INFINITY, f64::NEG_INFINITY, 0.0f64, f64::INFINITY);
        let mut e_prev = e0;
        for k in 0..2000 {
            let e_before = total_energy(&sim);
            let st = sim.step().unwrap();
            let e = total_energy(&sim);
            worst_gain = worst_gain.max(e - e0);
            worst_step_gain = worst_step_gain.max(e - e_prev);
            e_prev = e;
            let q = angle(&sim, 0);
            min_q = min_q.min(q);
            if lim.is_some() {
                worst_viol = worst_viol.max(sim.limit_violation());
                let f = sim.limit(0).unwrap().force;
                if f != 0.0 { println!("k {k} q {q:.12} it {} force {f:e} de {:e}", st.iterations, e - e_before); }
            }
        }
        println!("{lim:?}: gain {worst_gain:e} step gain {worst_step_gain:e} viol {worst_viol:e} min q {min_q} final q {} e_end-e0 {}", angle(&sim, 0), total_energy(&sim) - e0);
    }
}
