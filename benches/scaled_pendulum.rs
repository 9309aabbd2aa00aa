//! SCENARIOS B6: the scaled pendulum. Scale s ∈ {1, 0.5, 0.1}: mass s, length s², a
//! rod (inertia m l²/3 about the pivot), released horizontally (θ = π/2) at rest, step
//! sizes s·{1e-1, 1e-2, 1e-3, 1e-4}, simulated for half the exact period
//! T = 4·√(2l/(3g))·K(sin(θ0/2)). Every run must succeed; for dt ≤ s·1e-2 the final
//! angle must be within 1e-2 of −π/2.
//!
//! Run: cargo bench --bench scaled_pendulum

use maxdyn_scenes::mechanisms;

use maxdyn::{Builder, Inertia, JointType, Parent};
use std::f64::consts::{FRAC_PI_2, PI};

/// Complete elliptic integral of the first kind K(k) by the arithmetic–geometric mean.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..40 {
        let (an, bn) = (0.5 * (a + b), (a * b).sqrt());
        a = an;
        b = bn;
    }
    PI / (2.0 * a)
}

fn main() {
    let g = 9.81;
    println!("{:>5} {:>8} | {:>9} {:>8} | {:>12} {:>10} {:>7} {:>7} {:>6}", "s", "dt", "T/2 [s]", "steps", "final θ", "|θ+π/2|", "iters", "stalls", "pass");
    for s in [1.0f64, 0.5, 0.1] {
        let (m, l) = (s, s * s);
        let half = 0.5 * 4.0 * (2.0 * l / (3.0 * g)).sqrt() * elliptic_k((FRAC_PI_2 / 2.0).sin());
        for e in 1..=4 {
            let dt = s * 10f64.powi(-e);
            let mut b = Builder::new();
            // thin rod along body z: m l²/12 about its centre (m l²/3 about the pivot)
            let j = Inertia::diagonal(m * l * l / 12.0, m * l * l / 12.0, m * l * l / 1200.0).unwrap();
            b.add_body(m, j).unwrap();
            b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, l / 2.0], mechanisms::X).unwrap();
            let mut sim = mechanisms::sim(&b, dt);
            sim.set_joint_position(0, &[FRAC_PI_2]).unwrap();
            let steps = (half / dt).round() as usize;
            let (mut iters, mut stalls, mut ok) = (0, 0, true);
            for _ in 0..steps {
                match sim.step() {
                    Ok(st) => {
                        iters += st.iterations;
                        stalls += st.stalled as usize;
                    }
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            let mut q = [0.0];
            sim.joint_position(0, &mut q).unwrap();
            let err = (q[0] + FRAC_PI_2).abs();
            let pass = ok && (e < 2 || err < 1e-2);
            println!(
                "{s:>5} {dt:>8.0e} | {half:>9.5} {steps:>8} | {:>12.6} {err:>10.2e} {:>7.2} {stalls:>7} {:>6}",
                q[0],
                iters as f64 / steps.max(1) as f64,
                if pass { "yes" } else { "NO" }
            );
        }
    }
}
