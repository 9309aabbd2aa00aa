#[path = "common/mechanisms.rs"]
mod mechanisms;
fn main() {
    let mut sim = mechanisms::pendulum_chain(64, false, 0.01);
    let t = std::time::Instant::now();
    let mut it = 0;
    let n: usize = std::env::args().nth(1).map_or(3000, |a| a.parse().unwrap());
    for _ in 0..n { it += sim.step().unwrap().iterations; }
    println!("{:?} per step, {} iters/step", t.elapsed() / n as u32, it as f64 / n as f64);
}
