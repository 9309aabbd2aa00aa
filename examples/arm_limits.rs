//! The step cost of joint limits far from their bounds: a 7-joint arm (revolute axes
//! alternating z and y, panda-like proportions) moving slowly without gravity, with its
//! 14 bounded sides (`limits`) or without limits (`free`). Far from a bound a limit side is
//! culled (one gap evaluation per step) and the step stays Newton's. Measure with
//! `valgrind --tool=callgrind ./target/release/examples/arm_limits limits|free`.

use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
use std::sync::Arc;

fn main() -> Result<(), maxdyn::Error> {
    let limited = std::env::args().nth(1).as_deref() != Some("free");
    let mut b = Builder::new();
    b.set_gravity([0.0; 3])?;
    let masses = [3.0, 2.5, 2.5, 2.0, 1.5, 1.0, 0.5];
    let mut joints = Vec::new();
    let mut parent = Parent::World;
    for (i, &m) in masses.iter().enumerate() {
        let len = if i % 2 == 0 { 0.3 } else { 0.2 };
        let body = b.add_body(m, Inertia::diagonal(0.02 * m, 0.02 * m, 0.005 * m)?)?;
        let axis = if i % 2 == 0 { [0.0, 0.0, 1.0] } else { [0.0, 1.0, 0.0] };
        let p_parent = if i == 0 { [0.0; 3] } else { [0.0, 0.0, if i % 2 == 1 { 0.15 } else { 0.1 }] };
        let j = b.add_joint(JointType::Revolute, parent, body, p_parent, [0.0, 0.0, -0.5 * len], axis)?;
        if limited {
            b.set_joint_limits(j, &[-2.8], &[2.8])?;
        }
        joints.push(j);
        parent = Parent::Body(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b)?), 1e-3)?;
    for (k, &j) in joints.iter().enumerate() {
        sim.set_joint_position(j, &[0.3 * (k as f64 - 3.0)])?;
        sim.set_joint_velocity(j, &[0.2])?;
    }
    let mut iterations = 0;
    for _ in 0..2000 {
        iterations += sim.step()?.iterations;
    }
    println!("{} limits, 2000 steps, {iterations} iterations, largest violation {:e}", sim.limit_count(), sim.limit_violation());
    Ok(())
}
