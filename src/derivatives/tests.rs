use super::*;
use crate::model::{Builder, Inertia, Model, Parent};
use crate::JointType;
use std::sync::Arc;

/// The double pendulum swinging (θ = 0.3, −0.7; rates 0.5, 1.5), its second joint driven
/// by 0.2 N·m, a wrench (1, −2, 0.5) N at point (0.1, 0, −0.2) on the first link.
fn driven_pendulum() -> Sim {
    pendulum(false)
}

/// [`driven_pendulum`] with a servo on its first joint (spring 5 N·m/rad, damper 0.3
/// N·m·s/rad, target 0.4 rad at 0.8 rad/s) and a damped point spring (20 N/m, 0.5 N·s/m)
/// from a world point to the second link.
fn damped_driven_pendulum() -> Sim {
    pendulum(true)
}

/// The driven double pendulum, `damped` or not.
fn pendulum(damped: bool) -> Sim {
    let mut b = Builder::new();
    let l1 = b.add_body(1.0, Inertia::diagonal(0.1, 0.1, 0.01).unwrap()).unwrap();
    let l2 = b.add_body(2.0, Inertia::diagonal(0.2, 0.2, 0.02).unwrap()).unwrap();
    let j0 = b.add_joint(JointType::Revolute, Parent::World, l1, [0.0; 3], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    b.add_joint(JointType::Revolute, l1, l2, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], [1.0, 0.0, 0.0]).unwrap();
    if damped {
        b.set_joint_spring(j0, &[5.0], &[0.1]).unwrap();
        b.set_joint_damper(j0, &[0.3]).unwrap();
        b.add_spring(Parent::World, [0.0, 0.5, -1.0], l2, [0.0, 0.0, -0.5], 20.0, 0.5, 0.3).unwrap();
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-2).unwrap();
    sim.set_joint_position(0, &[0.3]).unwrap();
    sim.set_joint_position(1, &[-0.7]).unwrap();
    sim.set_joint_velocity(0, &[0.5]).unwrap();
    sim.set_joint_velocity(1, &[1.5]).unwrap();
    sim.set_joint_input(1, &[0.2]).unwrap();
    sim.set_body_wrench(0, [1.0, -2.0, 0.5], [0.0; 3], [0.1, 0.0, -0.2]).unwrap();
    if damped {
        sim.set_joint_target(0, &[0.4], &[0.8]).unwrap();
    }
    sim
}

/// Velocities after one step of `sim` with input `c` of `coords` moved by `h`.
fn stepped(sim: &Sim, coords: Coords, c: usize, h: f64) -> Vec<f64> {
    let mut s = sim.clone();
    match coords {
        Coords::Minimal => {
            let mut u = [0.0];
            s.joint_input(c, &mut u).unwrap();
            s.set_joint_input(c, &[u[0] + h]).unwrap();
        }
        Coords::Maximal => {
            let (b, k) = (c / 6, c % 6);
            let (d, _) = s.data_and_options();
            let (mut f, mut t, p) = (d.inputs.force[b], d.inputs.torque[b], d.inputs.force_point[b]);
            if k < 3 {
                f[k] += h;
            } else {
                t[k - 3] += h;
            }
            s.set_body_wrench(b, f.into(), t.into(), p.into()).unwrap();
        }
    }
    s.step().unwrap();
    (0..s.model().body_count()).flat_map(|b| s.body_state(b).unwrap()[7..13].to_vec()).collect()
}

/// Against central differences of the step (h = 1e-3; the steps' Newton tolerance 1e-10
/// over h bounds their accuracy). Measured: 4.4e-10 (joint inputs), 3.7e-10 (body
/// wrenches), relative to the largest entry.
#[test]
fn input_jacobian_matches_central_differences_of_the_step() {
    let sim = driven_pendulum();
    for coords in [Coords::Minimal, Coords::Maximal] {
        let nu = sim.model().velocity_count(coords);
        let mut b = vec![0.0; 12 * nu];
        sim.input_jacobian(coords, &mut b).unwrap();
        let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let h = 1e-3;
        let mut worst: f64 = 0.0;
        for c in 0..nu {
            let (p, m) = (stepped(&sim, coords, c, h), stepped(&sim, coords, c, -h));
            for r in 0..12 {
                worst = worst.max((b[r * nu + c] - (p[r] - m[r]) / (2.0 * h)).abs() / scale);
            }
        }
        println!("{coords:?}: worst relative error {worst:.1e}");
        assert!(worst < 2e-9, "{coords:?}: {worst}");
    }
    // the sim itself is not advanced
    assert_eq!(sim.step_count(), 0);
}

/// The minimal B's velocity rows against central differences of `joint_velocity` after
/// the step, the maximal B's against those of the body states; position rows zero.
/// Measured: 7.8e-10 (minimal), 3.7e-10 (maximal).
#[test]
fn input_derivative_maps_to_the_state_after_the_step() {
    let sim = driven_pendulum();
    for coords in [Coords::Minimal, Coords::Maximal] {
        let (nx, nu) = sim.model().linearization_size(coords);
        let mut b = vec![0.0; nx * nu];
        sim.input_derivative(coords, &mut b).unwrap();
        let state = |s: &Sim| -> Vec<f64> {
            match coords {
                Coords::Minimal => {
                    let mut x = vec![0.0; 4];
                    for j in 0..2 {
                        s.joint_position(j, &mut x[j..j + 1]).unwrap();
                        s.joint_velocity(j, &mut x[2 + j..3 + j]).unwrap();
                    }
                    x
                }
                Coords::Maximal => (0..2).flat_map(|b| s.body_state(b).unwrap().to_vec()).collect(),
            }
        };
        let h = 1e-3;
        let scale = b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let mut worst: f64 = 0.0;
        for c in 0..nu {
            let at = |h: f64| {
                let mut s = sim.clone();
                match coords {
                    Coords::Minimal => {
                        let mut u = [0.0];
                        s.joint_input(c, &mut u).unwrap();
                        s.set_joint_input(c, &[u[0] + h]).unwrap();
                    }
                    Coords::Maximal => {
                        let (d, _) = s.data_and_options();
                        let (mut f, mut t, p) = (d.inputs.force[c / 6], d.inputs.torque[c / 6], d.inputs.force_point[c / 6]);
                        if c % 6 < 3 {
                            f[c % 6] += h;
                        } else {
                            t[c % 6 - 3] += h;
                        }
                        s.set_body_wrench(c / 6, f.into(), t.into(), p.into()).unwrap();
                    }
                }
                s.step().unwrap();
                state(&s)
            };
            let (p, m) = (at(h), at(-h));
            for r in 0..nx {
                worst = worst.max((b[r * nu + c] - (p[r] - m[r]) / (2.0 * h)).abs() / scale);
            }
        }
        println!("{coords:?}: B vs central differences {worst:.1e}");
        assert!(worst < 2e-9, "{coords:?}: {worst}");
    }
}

/// The largest |X − Y| over max |Y| (entries of matrices of one size).
fn relative_difference(x: &[f64], y: &[f64]) -> f64 {
    let scale = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    x.iter().zip(y).fold(0.0f64, |m, (a, b)| m.max((a - b).abs())) / scale
}

/// A and B of the driven, swinging double pendulum (a joint input, a wrench at a body
/// point), and of the same with a servo pulling toward a moving target, against central
/// differences of whole steps (h = 1e-5, steps solved to 1e-13). Measured: A 4.5e-9
/// (minimal) / 2.0e-10 (maximal), with the servo 7.9e-9 / 2.1e-10; B 6.4e-8 / 1.0e-7, with
/// the servo 4.4e-8 / 7.6e-8 (differences of an affine map, so this is their rounding: the
/// test above checks B at h = 1e-3).
#[test]
fn linearization_matches_central_differences_of_the_step() {
    for (name, mut sim) in [("undamped", driven_pendulum()), ("servo", damped_driven_pendulum())] {
        let o = sim.options();
        sim.set_options(crate::SolverOptions { tolerance: 1e-13, ..o }).unwrap();
        for coords in [Coords::Maximal, Coords::Minimal] {
            let (nx, nu) = sim.model().linearization_size(coords);
            let (mut a, mut b, mut fa, mut fb) = (vec![0.0; nx * nx], vec![0.0; nx * nu], vec![0.0; nx * nx], vec![0.0; nx * nu]);
            sim.linearize(coords, &mut a, &mut b).unwrap();
            sim.linearize_by_differences(coords, 1e-5, &mut fa, &mut fb).unwrap();
            let (ea, eb) = (relative_difference(&a, &fa), relative_difference(&b, &fb));
            println!("{name}, {coords:?}: A {ea:.1e}, B {eb:.1e}");
            assert!(ea < 2e-8 && eb < 5e-7, "{name}, {coords:?}: A {ea:e}, B {eb:e}");
        }
    }
}

/// The higher-order integrators' A and B in maximal coordinates (the map from the state
/// set at the node to the state read after the step: the consistent start, the step or
/// the fourth order's five parts, the mean of the last two intervals' velocities) against
/// central differences of whole steps (steps solved to 1e-14), on the driven double
/// pendulum without and with a joint damper and a damped point spring (their rate weighs
/// the known velocities), and after 5 steps (velocities read as the two intervals' mean:
/// A is of the state set back, B of the sim's own next step). Measured, second order
/// (h = 1e-5): A 4.4e-10, 4.3e-10, 5.1e-10, B 2.9e-8, 5.7e-8, 4.3e-8; fourth order (A at
/// h = 3e-6, B at 1e-3): A 7.8e-9, 4.8e-9, 4.3e-9, B 7.0e-10, 1.3e-9, 1.0e-9 (the
/// differences' rounding and truncation); without the dampers' terms through the known
/// velocities the damped second-order A was 1.0e-3 off.
#[test]
fn second_order_linearization_matches_central_differences_of_the_step() {
    let stepped = |mut s: Sim| {
        s.set_options(crate::SolverOptions { integrator: crate::Integrator::SecondOrder, ..s.options() }).unwrap();
        for _ in 0..5 {
            s.step().unwrap();
        }
        s
    };
    // the fourth order's map curves more: its differences' truncation at h = 1e-5 is
    // 6.5e-8 (h²) and their rounding at 1e-6 about 1e-8, so A is taken at 3e-6 and B at 1e-3
    for (integrator, ha, hb) in [(crate::Integrator::SecondOrder, 1e-5, 1e-5), (crate::Integrator::FourthOrder, 3e-6, 1e-3)] {
        for (name, mut sim) in [("undamped", driven_pendulum()), ("damped", damped_driven_pendulum()), ("damped, after 5 steps", stepped(damped_driven_pendulum()))] {
            let o = sim.options();
            sim.set_options(crate::SolverOptions { tolerance: 1e-14, integrator, ..o }).unwrap();
            let (nx, nu) = sim.model().linearization_size(Coords::Maximal);
            let (mut a, mut b, mut fa, mut fb) = (vec![0.0; nx * nx], vec![0.0; nx * nu], vec![0.0; nx * nx], vec![0.0; nx * nu]);
            sim.linearize(Coords::Maximal, &mut a, &mut b).unwrap();
            sim.linearize_by_differences(Coords::Maximal, ha, &mut fa, &mut fb).unwrap();
            let ea = relative_difference(&a, &fa);
            sim.linearize_by_differences(Coords::Maximal, hb, &mut fa, &mut fb).unwrap();
            let eb = relative_difference(&b, &fb);
            println!("{integrator:?}, maximal, {name}: A {ea:.1e}, B {eb:.1e}");
            assert!(ea < 2e-8 && eb < 5e-7, "{integrator:?}, {name}: A {ea:e}, B {eb:e}");
        }
    }
    let mut sim = driven_pendulum();
    sim.set_options(crate::SolverOptions { integrator: crate::Integrator::SecondOrder, ..sim.options() }).unwrap();
    let (nx, nu) = sim.model().linearization_size(Coords::Maximal);
    let (mut a, mut b, mut fb) = (vec![0.0; nx * nx], vec![0.0; nx * nu], vec![0.0; nx * nu]);
    sim.linearize(Coords::Maximal, &mut a, &mut b).unwrap();
    // B alone is the same, and the sim is not advanced
    let mut b2 = vec![0.0; nx * nu];
    sim.input_derivative(Coords::Maximal, &mut b2).unwrap();
    assert_eq!(b, b2);
    assert_eq!(sim.step_count(), 0);
    // it is not the first-order map
    let mut first = sim.clone();
    first.set_options(crate::SolverOptions { integrator: crate::Integrator::FirstOrder, ..first.options() }).unwrap();
    let mut a1 = vec![0.0; nx * nx];
    first.linearize(Coords::Maximal, &mut a1, &mut fb).unwrap();
    println!("second order against first order: A differs by {:.1e}", relative_difference(&a1, &a));
    assert!(relative_difference(&a1, &a) > 1e-3);
}

/// What the second-order analytic linearization does not derive is refused, naming the
/// sim, and writes nothing: minimal coordinates (second and fourth order).
#[test]
fn second_order_linearization_refuses_what_it_does_not_derive() {
    let refused = |sim: &Sim, coords: Coords, what: &str| {
        let (nx, nu) = sim.model().linearization_size(coords);
        let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
        let e = sim.linearize(coords, &mut a, &mut b).unwrap_err();
        assert!(matches!(e, crate::model::Error::InvalidArgument("sim", _)) && e.to_string().contains(what), "{e}");
        assert!(a.iter().chain(&b).all(|&x| x == 0.0));
    };
    let mut sim = driven_pendulum();
    sim.set_options(crate::SolverOptions { integrator: crate::Integrator::SecondOrder, ..sim.options() }).unwrap();
    refused(&sim, Coords::Minimal, "maximal coordinates only");
    let mut fourth = sim.clone();
    fourth.set_options(crate::SolverOptions { integrator: crate::Integrator::FourthOrder, ..sim.options() }).unwrap();
    refused(&fourth, Coords::Minimal, "maximal coordinates only");
}

