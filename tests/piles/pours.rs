use crate::scenes::{pour, Pour};

fn run(kind: Pour, mu: f64) {
    let mut sim = pour(kind, mu);
    let n = sim.model().body_count();
    let (mut fails, mut worst_gap, mut iters, mut rest_ke) = (0, f64::INFINITY, 0, 0.0f64);
    let t0 = std::time::Instant::now();
    let mut first = None;
    for k in 0..1000 {
        if k == 61 && std::env::var_os("TRACE61").is_some() { std::env::set_var("MAXDYN_TRACE", "1"); }
        if k == 62 && std::env::var_os("TRACE61").is_some() { return; }
        let ts = std::time::Instant::now();
        let res = sim.step();
        let el = ts.elapsed().as_secs_f64();
        if el > 0.2 { let st = sim.stats(); println!("  slow step {k}: {el:.2}s it {} sub {} res {:e} comp {:e} contacts {} ok {}", st.iterations, st.substeps, st.residual, st.complementarity, st.contacts, res.is_ok()); }
        match res {
            Ok(st) => iters += st.iterations,
            Err(e) => { fails += 1; if first.is_none() { first = Some((k, e.to_string())); } }
        }
        worst_gap = worst_gap.min(sim.shape_contacts().map(|c| c.gap).fold(f64::INFINITY, f64::min));
        if k % 100 == 0 { println!("  {k}: fails {fails} gap {worst_gap:e} it {iters} {:.1}s", t0.elapsed().as_secs_f64()); }
        if k >= 800 {
            rest_ke = rest_ke.max(sim.energy().0 / n as f64);
        }
    }
    println!("{kind:?} mu {mu}: fails {fails} first {first:?} worst gap {worst_gap:e} rest KE/body {rest_ke:e} iterations/step {:.1} {:.2} s", iters as f64 / 1000.0, t0.elapsed().as_secs_f64());
}

#[test]
#[ignore = "measurement: run with --ignored"]
fn pour_spheres() { run(Pour::Spheres, 0.5) }
#[test]
#[ignore = "measurement: run with --ignored"]
fn pour_boxes() { run(Pour::Boxes, 0.5) }
#[test]
#[ignore = "measurement: run with --ignored"]
fn pour_mixed() { run(Pour::Mixed, 0.5) }
#[test]
#[ignore = "measurement: run with --ignored"]
fn pour_spheres0() { run(Pour::Spheres, 0.0) }
#[test]
#[ignore = "measurement: run with --ignored"]
fn pour_boxes0() { run(Pour::Boxes, 0.0) }
#[test]
#[ignore = "measurement: run with --ignored"]
fn pour_mixed0() { run(Pour::Mixed, 0.0) }
