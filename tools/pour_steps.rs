//! The first steps of one 100-body pour (`scenes::piles::pour`, the scene of `cargo bench
//! --bench piles pours`), step by step: where it first fails, how many steps fail, how
//! many are accepted stalled or relaxed, the deepest penetration from the poses (each new
//! deepest above 1e-9 m as it comes: after which step, the pair's shapes and whether the
//! solve that put the bodies there converged, stalled or was relaxed: the state after step
//! k is where step k − 1's solve put them), and the most mechanical energy (kinetic +
//! potential) a step of each kind gained (a rigid, frictional pile should only lose it).
//! Stops when five steps in a row fail (the pile is stuck).
//!
//! Run: cargo run --release --example pour_steps -- boxes|mixed|spheres MU STEPS

use maxdyn_scenes::piles::{midpoint_energy, pour, Pour};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = match args.first().map(String::as_str) {
        Some("boxes") => Pour::Boxes,
        Some("mixed") => Pour::Mixed,
        Some("spheres") => Pour::Spheres,
        _ => panic!("usage: pour_steps boxes|mixed|spheres MU STEPS"),
    };
    let mu: f64 = args.get(1).and_then(|s| s.parse().ok()).expect("MU");
    let steps: usize = args.get(2).and_then(|s| s.parse().ok()).expect("STEPS");
    let mut sim = pour(kind, mu);
    let t0 = std::time::Instant::now();
    let (mut deepest, mut failed, mut first_failure, mut stalled, mut relaxed, mut in_a_row, mut taken) = (0.0f64, 0, None, 0, 0, 0, 0);
    // the largest gain of one step: converged, accepted stalled, relaxed (and its step)
    let mut gained = [(f64::NEG_INFINITY, 0usize); 3];
    // the kind of the last step's solve (which made the configuration the next one reports)
    let mut previous = "none";
    for k in 0..steps {
        let before = midpoint_energy(&sim);
        let result = sim.step();
        if let Ok(st) = &result {
            let kind = if st.relaxed { 2 } else { st.stalled as usize };
            let gain = midpoint_energy(&sim) - before;
            if gain > gained[kind].0 {
                gained[kind] = (gain, k);
            }
        }
        taken = k + 1;
        // a new deepest point: the state after step k is z_{k+1}, where step k − 1's solve
        // put the bodies; its depth from the poses (a fresh search, as the bar is
        // measured), and the pair from the contact reports when this step was not split
        // (a split step's reports are its first half's points, found where it began)
        let depth = sim.deepest_penetration();
        if depth > deepest.max(1e-9) {
            deepest = depth;
            let split = result.as_ref().is_ok_and(|st| st.substeps > 1);
            let pair = sim.shape_contacts().filter(|_| !split).min_by(|a, b| a.gap.total_cmp(&b.gap)).map_or("(pair not reported: a split step)".to_string(), |c| {
                let shapes = c.shapes.map(|i| format!("{:?}", sim.model().collision.shapes[i].geometry.kind()));
                format!("{} on {} (shapes {:?})", shapes[0], shapes[1], c.shapes)
            });
            println!("after step {k}: deepest {depth:.2e} m from the poses, {pair}, made by step {}'s solve ({previous})", k.saturating_sub(1));
        }
        previous = result.as_ref().map_or("failed", |st| if st.relaxed { "relaxed" } else if st.stalled { "stalled" } else { "converged" });
        match result {
            Ok(st) => {
                in_a_row = 0;
                stalled += st.stalled as usize;
                relaxed += st.relaxed as usize;
            }
            Err(e) => {
                println!("step {k}: {e}");
                failed += 1;
                in_a_row += 1;
                first_failure.get_or_insert(k);
                if in_a_row == 5 {
                    println!("stuck from step {}", k - 4);
                    break;
                }
            }
        }
        if k % 10 == 9 {
            println!("step {k}: {:.1} s", t0.elapsed().as_secs_f64());
        }
    }
    let first = first_failure.map_or("none".to_string(), |k: usize| k.to_string());
    println!("{kind:?} μ {mu}: {taken} steps, {failed} failed (first: {first}), {stalled} stalled, {relaxed} relaxed, deepest penetration from the poses {deepest:.2e} m, {:.1} s", t0.elapsed().as_secs_f64());
    for (name, (gain, k)) in ["converged", "stalled", "relaxed"].iter().zip(gained) {
        if gain.is_finite() {
            println!("most energy gained in a step, {name}: {gain:.2e} J (step {k})");
        }
    }
}
