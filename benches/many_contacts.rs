//! Many contacts on one body (issue 16 case 6): a plate resting on n point contacts
//! (`scenes::mechanisms::plate_on_points`, friction 0.5, linear cone). A star of contacts
//! on one body is a tree; its elimination must add no fill, so building the model and a
//! step cost linear time in n. Prints model-build and step medians, the factor's fill
//! blocks, and each time per contact relative to n = 100.
//!
//! Run: cargo bench --bench many_contacts [-- n1 n2 …]

use std::sync::Arc;

use maxdyn::{Model, Sim};
use maxdyn_scenes::mechanisms::plate_on_points;
use maxdyn_scenes::timing;

fn main() {
    println!("{:>5} | {:>13} {:>12} {:>6} | {:>13} {:>12} | {:>6}", "n", "model_new ms", "per contact", "fill", "step ms", "per contact", "it");
    let mut base: Option<(f64, f64)> = None;
    // sizes from the command line (numbers among the arguments), else the default sweep
    let mut sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![25, 100, 250, 500, 1000];
    }
    for n in sizes {
        let b = plate_on_points(n, 0.5);
        let (t_model, model) = timing::median(3, || Model::new(&b).expect("model"));
        let fill = model.symbolic.fill_blocks;
        let mut sim = Sim::new(Arc::new(model), 0.01).expect("sim");
        for _ in 0..5 {
            sim.step().expect("warm-up step");
        }
        let (t_step, st) = timing::median(11, || sim.step().expect("step"));
        let (m1, s1) = *base.get_or_insert((t_model / n as f64, t_step / n as f64));
        println!(
            "{n:>5} | {:>13.3} {:>11.2}x {fill:>6} | {:>13.3} {:>11.2}x | {:>6}",
            t_model * 1e3,
            t_model / n as f64 / m1,
            t_step * 1e3,
            t_step / n as f64 / s1,
            st.iterations
        );
    }
    println!("per contact: time / n relative to n = 25 (linear cost: about 1x at every n).");
}
