//! The collision search at scale (issue 12): n spheres resting on the floor in a square
//! grid, in two arrangements:
//!
//! * `apart`: neighbours 6 cm apart, beyond the 5 cm contact margin. Their boxes (grown by
//!   the margin twice) overlap, so the broad phase hands the narrow phase about 4n pairs
//!   each step, which find no point: the step is the search plus n floor contacts. The
//!   search is a sort and sweep, not a loop over all n² pairs: doubling n should about
//!   double the time.
//! * `touching`: neighbours 1 mm apart, inside the margin: about 4n sphere–sphere contacts
//!   besides the n floor contacts, a two-dimensional mesh of contacts between bodies. Its
//!   factorization fills in like any sparse direct solve of a planar mesh (nested
//!   dissection: n^1.5), so this one grows faster than n.
//!
//! Prints the median step, its cost per sphere relative to the first size and the ratio
//! of each size to the one before.
//!
//! Run: cargo bench --bench resting_spheres [-- [apart|touching] n1 n2 …]

use std::sync::Arc;

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use maxdyn_scenes::timing;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

fn resting_spheres(n: usize, gap: f64) -> Sim {
    let r = 0.05;
    let side = (n as f64).sqrt().ceil() as usize;
    let mut b = Builder::new();
    b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    for i in 0..n {
        let body = b.add_body(0.1, Inertia::sphere(0.1, r).unwrap()).unwrap();
        let (gx, gy) = ((i % side) as f64, (i / side) as f64);
        b.set_body_pose(body, [gx * (2.0 * r + gap), gy * (2.0 * r + gap), r], ID).unwrap();
        let s = b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], ID, &[r]).unwrap();
        b.set_shape_friction(s, 0.5).unwrap();
    }
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

fn main() {
    let mut sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![125, 250, 500, 1000];
    }
    // `apart` or `touching` among the arguments picks one arrangement
    let only: Vec<String> = std::env::args().skip(1).filter(|a| a == "apart" || a == "touching").collect();
    for (name, gap) in [("apart", 0.06), ("touching", 0.001)] {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        println!("{name}:");
        table(&sizes, gap);
    }
    println!("per sphere: step time / n relative to the first size; vs n/2: time ratio / size ratio to the size before (linear: 2.00x/2.0).");
}

fn table(sizes: &[usize], gap: f64) {
    println!("{:>5} | {:>9} {:>9} | {:>10} {:>12} {:>10} | {:>4}", "n", "points", "rebuilds", "step ms", "per sphere", "vs n/2", "it");
    let (mut base, mut previous): (Option<f64>, Option<(usize, f64)>) = (None, None);
    for &n in sizes {
        let mut sim = resting_spheres(n, gap);
        for _ in 0..10 {
            sim.step().expect("warm-up step");
        }
        let rebuilds = sim.layout_rebuilds();
        let (t, st) = timing::median(11, || sim.step().expect("step"));
        let per = *base.get_or_insert(t / n as f64);
        let growth = previous.map_or("".to_string(), |(m, tp)| format!("{:.2}x/{:.1}", t / tp, n as f64 / m as f64));
        println!("{n:>5} | {:>9} {:>9} | {:>10.3} {:>11.2}x {growth:>10} | {:>4}", sim.shape_contact_count(), sim.layout_rebuilds() - rebuilds, t * 1e3, t / n as f64 / per, st.iterations);
        previous = Some((n, t));
    }
}
