//! Step derivatives with respect to the inputs (issue 13 part 3, B so far): the implicit
//! function theorem's ∂ż_{k+1}/∂u against central differences of the step, on the double
//! pendulum, the 32-link chain and the crank-rocker four-bar (a kinematic loop), for
//! joint inputs and body wrenches; refused with contacts.

use maxdyn::{Coords, Error, Sim};
use maxdyn_scenes::mechanisms::{crank_rocker, pendulum_chain};
use maxdyn_scenes::quadruped::{Quadruped, START};

/// Velocities after one step with input `c` moved by `h` (the body wrenches start at 0).
fn stepped(sim: &Sim, coords: Coords, c: usize, h: f64) -> Vec<f64> {
    let mut s = sim.clone();
    match coords {
        Coords::Minimal => {
            let (mut ji, mut i) = (0, c);
            while i >= s.joint_dof(ji).unwrap() {
                i -= s.joint_dof(ji).unwrap();
                ji += 1;
            }
            let mut u = vec![0.0; s.joint_dof(ji).unwrap()];
            s.joint_input(ji, &mut u).unwrap();
            u[i] += h;
            s.set_joint_input(ji, &u).unwrap();
        }
        Coords::Maximal => {
            let mut w = [0.0; 6];
            w[c % 6] = h;
            s.set_body_force(c / 6, [w[0], w[1], w[2]], [w[3], w[4], w[5]]).unwrap();
        }
    }
    s.step().unwrap();
    (0..s.model().body_count()).flat_map(|b| s.body_state(b).unwrap()[7..13].to_vec()).collect()
}

/// Largest |B − B_fd| over max |B|.
fn worst(sim: &Sim, coords: Coords) -> f64 {
    let nb = sim.model().body_count();
    let nu = sim.model().velocity_count(coords);
    let mut b = vec![0.0; 6 * nb * nu];
    sim.input_jacobian(coords, &mut b).unwrap();
    let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let h = 1e-2;
    let mut e: f64 = 0.0;
    for c in 0..nu {
        let (p, m) = (stepped(sim, coords, c, h), stepped(sim, coords, c, -h));
        for r in 0..6 * nb {
            e = e.max((b[r * nu + c] - (p[r] - m[r]) / (2.0 * h)).abs() / scale);
        }
    }
    e
}

/// `sim` after `steps` steps, solving its steps to 1e-13 from then on (the central
/// differences' accuracy is the steps' tolerance over h).
fn moving(mut sim: Sim, steps: usize) -> Sim {
    let o = sim.options();
    sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, ..o }).unwrap();
    for _ in 0..steps {
        sim.step().unwrap();
    }
    sim
}

/// The bar is 1e-6 relative; measured (joint inputs / body wrenches, h = 1e-2,
/// steps solved to 1e-13): double pendulum 2.3e-11 / 1.5e-11, 32-link chain 4.8e-10 /
/// 7.6e-10, crank-rocker 4.3e-10 / 4.3e-10 (1.6e-7 without the iterative refinement
/// against the loop joints' pivot regularization).
#[test]
fn input_derivatives_match_central_differences_of_the_step() {
    for (name, sim) in [("double pendulum", moving(pendulum_chain(2, false, 1e-2), 20)), ("32-link chain", moving(pendulum_chain(32, false, 1e-2), 20)), ("crank-rocker", moving(crank_rocker(1e-2), 20))] {
        let (em, ex) = (worst(&sim, Coords::Minimal), worst(&sim, Coords::Maximal));
        println!("{name}: joint inputs {em:.1e}, body wrenches {ex:.1e}");
        assert!(em < 5e-9 && ex < 5e-9, "{name}");
    }
}

#[test]
fn contacts_are_refused_for_now() {
    let q = Quadruped::load();
    let sim = q.standing(&START, 0.0);
    let mut b = vec![0.0; 6 * q.model.body_count() * 12];
    assert!(matches!(sim.input_jacobian(Coords::Minimal, &mut b), Err(Error::InvalidArgument("model", _))));
}
