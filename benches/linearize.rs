//! Issue 13: the cost of step derivatives on the 32-link revolute chain (dt 0.01, moving
//! after 20 steps): the analytic input Jacobian ∂ż_{k+1}/∂u (implicit function theorem,
//! one copy of the sim, one step, one assembly and factorization, a refined solve per
//! input) beside one step and beside central differences (2 steps per input, each on a
//! copy). Medians of 5 runs of 20 evaluations; wall-clock on a shared machine is noisy,
//! so quote instruction counts (callgrind): the 32-input Jacobian costs 2.08M instructions
//! where one step of this chain costs 384k (5.4 steps; central differences: 64 steps and
//! 64 copies). (The state Jacobian A is not implemented yet; the goal for it is ≤ 3
//! steps' cost.)
//!
//! Run: cargo bench --bench linearize

use maxdyn::{Coords, Sim};
use maxdyn_scenes::mechanisms::pendulum_chain;
use maxdyn_scenes::timing;

const REPS: usize = 20;

fn central_differences(sim: &Sim, coords: Coords, out: &mut [f64]) {
    let (nb, nu) = (sim.model().body_count(), sim.model().velocity_count(coords));
    let h = 1e-2;
    for c in 0..nu {
        let mut ends = [vec![], vec![]];
        for (k, sign) in [1.0, -1.0].into_iter().enumerate() {
            let mut s = sim.clone();
            match coords {
                Coords::Minimal => s.set_joint_input(c, &[sign * h]).unwrap(),
                Coords::Maximal => {
                    let mut w = [0.0; 6];
                    w[c % 6] = sign * h;
                    s.set_body_force(c / 6, [w[0], w[1], w[2]], [w[3], w[4], w[5]]).unwrap();
                }
            }
            s.step().unwrap();
            ends[k] = (0..nb).flat_map(|b| s.body_state(b).unwrap()[7..13].to_vec()).collect();
        }
        for r in 0..6 * nb {
            out[r * nu + c] = (ends[0][r] - ends[1][r]) / (2.0 * h);
        }
    }
}

fn main() {
    let mut sim = pendulum_chain(32, false, 0.01);
    for _ in 0..20 {
        sim.step().unwrap();
    }
    let (t_step, _) = timing::median(5, || {
        for _ in 0..REPS {
            let mut s = sim.clone();
            s.step().unwrap();
        }
    });
    let (t_copy, _) = timing::median(5, || {
        for _ in 0..REPS {
            std::hint::black_box(sim.clone());
        }
    });
    println!("32-link chain, dt 0.01: one step (on a copy) {:.1} µs, of which the copy {:.1} µs", t_step / REPS as f64 * 1e6, t_copy / REPS as f64 * 1e6);
    println!("{:>26} | {:>7} | {:>12} {:>8} | {:>12} {:>8}", "input Jacobian", "inputs", "analytic µs", "steps", "central µs", "steps");
    for (name, coords) in [("joint inputs (minimal)", Coords::Minimal), ("body wrenches (maximal)", Coords::Maximal)] {
        let nu = sim.model().velocity_count(coords);
        let mut b = vec![0.0; 6 * 32 * nu];
        let (t_a, _) = timing::median(5, || {
            for _ in 0..REPS {
                sim.input_jacobian(coords, &mut b).unwrap();
            }
        });
        let (t_fd, _) = timing::median(3, || central_differences(&sim, coords, &mut b));
        let (a, fd) = (t_a / REPS as f64, t_fd);
        println!("{name:>26} | {nu:>7} | {:>12.1} {:>8.2} | {:>12.1} {:>8.2}", a * 1e6, a * REPS as f64 / t_step, fd * 1e6, fd * REPS as f64 / t_step);
    }
}
