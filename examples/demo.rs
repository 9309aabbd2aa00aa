//! The main demo: the paper's claims in one run (release build, a few seconds).
//! Double pendulum energy and joint drift (SCENARIOS A2, 10 min of simulated time), a
//! closed three-link loop (A1, 60 s), a box dropped on rigid contacts (A4) and a 32-link
//! chain. Run: `cargo run --release --example demo`.

use maxdyn_scenes::mechanisms;

use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
use std::sync::Arc;
use std::time::Instant;

fn main() -> Result<(), maxdyn::Error> {
    // SCENARIOS A2: two 1 kg boxes on 1 m links, released horizontally.
    let mut b = Builder::new();
    let l1 = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 0.1)?)?;
    let l2 = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 0.1)?)?;
    let j1 = b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0])?;
    b.add_joint(JointType::Revolute, l1, l2, [0.0; 3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0])?;
    let mut sim = Sim::new(Arc::new(Model::new(&b)?), 0.01)?;
    sim.set_joint_position(j1, &[std::f64::consts::FRAC_PI_2])?;
    let (k0, p0) = sim.energy();
    println!("double pendulum, dt = 0.01 s");
    println!("{:>8} {:>14} {:>14} {:>6}", "t [s]", "E − E0 [J]", "violation [m]", "iters");
    let start = Instant::now();
    let (mut worst_e, mut worst_g) = (0.0f64, 0.0f64);
    for k in 1..=60_000 {
        let st = sim.step()?;
        let (kk, pp) = sim.energy();
        worst_e = worst_e.max((kk + pp - k0 - p0).abs());
        worst_g = worst_g.max(sim.constraint_violation());
        if k % 6000 == 0 {
            println!("{:>8.0} {:>14.3e} {:>14.3e} {:>6}", sim.time(), kk + pp - k0 - p0, sim.constraint_violation(), st.iterations);
        }
    }
    println!("max |E − E0| = {worst_e:.3e} J, max violation = {worst_g:.3e} m, 60000 steps in {:.3} s\n", start.elapsed().as_secs_f64());

    // SCENARIOS A1: a closed loop of three links (redundant constraints in 3-D)
    let mut sim = mechanisms::three_link_loop(0.01);
    let rank = sim.constraint_rank();
    let mut worst_g = 0.0f64;
    for _ in 0..6000 {
        sim.step()?;
        worst_g = worst_g.max(sim.constraint_violation());
    }
    println!(
        "three-link loop, 60 s: max violation {worst_g:.2e} m ({} constraint rows, {} redundant, {} dof)\n",
        rank.rows, rank.redundant, rank.dof
    );

    // SCENARIOS A4: a 0.5 m, 1 kg cube with 8 corner contacts (μ 0.3) dropped from 1 m
    let mut b = Builder::new();
    let cube = b.add_body(1.0, Inertia::cuboid(1.0, 0.5, 0.5, 0.5)?)?;
    b.set_body_pose(cube, [0.0, 0.0, 1.25], [1.0, 0.0, 0.0, 0.0])?;
    let mut corners = Vec::new();
    for k in 0..8 {
        let c = |bit: usize| if k & bit == 0 { -0.25 } else { 0.25 };
        corners.push(b.add_ground_contact(cube, [c(1), c(2), c(4)], 0.0, 0.3)?);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b)?), 0.01)?;
    let mut lowest = f64::INFINITY;
    for _ in 0..200 {
        sim.step()?;
        for &c in &corners {
            lowest = lowest.min(sim.contact(c)?.gap);
        }
    }
    let rest = corners.iter().map(|&c| sim.contact(c).map(|o| o.gap)).collect::<Result<Vec<_>, _>>()?;
    println!(
        "box drop from 1 m: lowest corner ever {lowest:.2e} m (never below the ground), at rest {:.2e} m above it\n",
        rest.iter().cloned().fold(f64::INFINITY, f64::min)
    );

    // a 32-link pendulum chain
    let mut b = Builder::new();
    let mut parent = Parent::World;
    for i in 0..32 {
        let c = b.add_body(1.0, Inertia::cylinder(1.0, 0.05, 1.0)?)?;
        let pp = if i == 0 { [0.0; 3] } else { [0.0, 0.0, -0.5] };
        b.add_joint(JointType::Revolute, parent, c, pp, [0.0, 0.0, 0.5], [1.0, 0.0, 0.0])?;
        parent = Parent::Body(c);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b)?), 0.01)?;
    sim.set_joint_position(0, &[std::f64::consts::FRAC_PI_4])?;
    let start = Instant::now();
    let (mut iters, mut worst_g) = (0usize, 0.0f64);
    for _ in 0..1000 {
        iters += sim.step()?.iterations;
        worst_g = worst_g.max(sim.constraint_violation());
    }
    println!(
        "32-link chain: 1000 steps in {:.3} s, {:.2} Newton iterations per step, max violation {:.2e} m",
        start.elapsed().as_secs_f64(),
        iters as f64 / 1000.0,
        worst_g
    );
    Ok(())
}
