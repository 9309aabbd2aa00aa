//! Coincident boxes (issue 24 part 3): n 1 kg, 1 m boxes centred at the same point on the
//! ground, the first step projecting them apart (`src/step/penetration.rs`). Prints the
//! median time of the first step (a fresh sim each repetition; building it not counted),
//! the projection's rounds and the kinetic energy after the step. On main, 50 boxes took
//! 41 s for the first step and three were launched at ±100 m/s.
//!
//! Run: cargo bench --bench overlap [-- n1 n2 …]

use std::sync::Arc;
use std::time::Instant;

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

fn coincident(n: usize) -> Arc<Model> {
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).expect("ground");
    for _ in 0..n {
        let body = b.add_body(1.0, Inertia::cuboid(1.0, 1.0, 1.0, 1.0).expect("inertia")).expect("body");
        b.set_body_pose(body, [0.0, 0.0, 0.5], ID).expect("pose");
        b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &[0.5, 0.5, 0.5]).expect("box");
    }
    Arc::new(Model::new(&b).expect("model"))
}

fn main() {
    let mut sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![3, 5, 20, 50];
    }
    println!("{:>4} | {:>15} {:>10} | {:>6} {:>12} | {:>13}", "n", "first step ms", "(min..max)", "rounds", "kinetic J", "next step ms");
    for n in sizes {
        let model = coincident(n);
        let reps = if n >= 50 { 5 } else { 11 };
        let mut times = Vec::with_capacity(reps);
        let mut next = Vec::with_capacity(reps);
        let (mut rounds, mut kinetic) = (0, 0.0);
        for _ in 0..reps {
            let mut sim = Sim::new(model.clone(), 0.01).expect("sim");
            let t = Instant::now();
            sim.step().expect("first step");
            times.push(t.elapsed().as_secs_f64());
            (rounds, kinetic) = (sim.projection_rounds(), sim.energy().0);
            let t = Instant::now();
            sim.step().expect("second step");
            next.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        next.sort_by(f64::total_cmp);
        let median = times[reps / 2];
        println!(
            "{n:>4} | {:>15.2} {:>10} | {rounds:>6} {kinetic:>12.2e} | {:>13.3}",
            median * 1e3,
            format!("{:.0}..{:.0}", times[0] * 1e3, times[reps - 1] * 1e3),
            next[reps / 2] * 1e3
        );
    }
}
