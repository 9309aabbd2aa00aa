//! Step derivatives (issue 13 part 3) by the implicit function theorem against central
//! differences of the step: B = ∂x_{k+1}/∂u and A = ∂x_{k+1}/∂x_k on the double pendulum,
//! the 32-link chain, the crank-rocker four-bar (a kinematic loop) and the quadruped
//! standing on its feet (contacts).

use maxdyn::{Coords, Sim};
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

/// `sim` after `steps` steps of dt 1e-3 held at `START` by the quadruped's PD control.
fn held_standing(q: &Quadruped, mut sim: Sim, steps: usize) -> Sim {
    for k in 0..steps {
        q.control(&mut sim, &START, k as f64 * 1e-3);
        sim.step().unwrap();
    }
    sim
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
    let cases = [
        ("double pendulum", moving(pendulum_chain(2, false, 1e-2), 20), 2e-10),
        ("32-link chain", moving(pendulum_chain(32, false, 1e-2), 20), 5e-9),
        ("crank-rocker", moving(crank_rocker(1e-2), 20), 4e-9),
    ];
    for (name, sim, bound) in cases {
        let (em, ex) = (worst(&sim, Coords::Minimal), worst(&sim, Coords::Maximal));
        println!("{name}: joint inputs {em:.1e}, body wrenches {ex:.1e}");
        assert!(em < bound && ex < bound, "{name}: {em:e} {ex:e}");
    }
}

/// Largest |A − A_fd| and |B − B_fd| over max |A_fd|, max |B_fd|: `linearize` against
/// central differences of whole steps (`linearize_by_differences`, step `h`).
fn linearization_error(sim: &Sim, coords: Coords, h: f64) -> (f64, f64) {
    let (nx, nu) = sim.model().linearization_size(coords);
    let (mut a, mut b, mut fa, mut fb) = (vec![0.0; nx * nx], vec![0.0; nx * nu], vec![0.0; nx * nx], vec![0.0; nx * nu]);
    sim.linearize(coords, &mut a, &mut b).unwrap();
    sim.linearize_by_differences(coords, h, &mut fa, &mut fb).unwrap();
    let rel = |x: &[f64], y: &[f64]| {
        let scale = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        x.iter().zip(y).fold(0.0f64, |m, (p, q)| m.max((p - q).abs())) / scale
    };
    (rel(&a, &fa), rel(&b, &fb))
}

/// A = ∂x_{k+1}/∂x_k (and B) of `linearize` against central differences of whole steps
/// (h = 1e-6, steps solved to 1e-13; the bar is 1e-6 relative). Measured, A:
/// double pendulum 3.7e-8 (minimal) / 7.8e-11 (maximal), 32-link chain 1.1e-7 / 3.7e-9,
/// crank-rocker (a loop: maximal only) 7.6e-10. B here is differenced with the same small
/// h, so it only checks its assembly (its accuracy: the test above): measured 1.3e-7 /
/// 1.6e-7, 2.3e-6 / 7.5e-6, 1.7e-6 (the differences' round-off, ε/h ≈ 2e-10 over entries
/// of the step's scale).
#[test]
fn state_derivatives_match_central_differences_of_the_step() {
    let cases: Vec<(&str, Sim, Coords, f64, f64)> = vec![
        ("double pendulum", moving(pendulum_chain(2, false, 1e-2), 20), Coords::Minimal, 1.5e-7, 1e-6),
        ("double pendulum", moving(pendulum_chain(2, false, 1e-2), 20), Coords::Maximal, 3e-10, 1e-6),
        ("32-link chain", moving(pendulum_chain(32, false, 1e-2), 20), Coords::Minimal, 4e-7, 2e-5),
        ("32-link chain", moving(pendulum_chain(32, false, 1e-2), 20), Coords::Maximal, 1.5e-8, 5e-5),
        ("crank-rocker", moving(crank_rocker(1e-2), 20), Coords::Maximal, 3e-9, 1e-5),
    ];
    for (name, sim, coords, bound_a, bound_b) in cases {
        let (ea, eb) = linearization_error(&sim, coords, 1e-6);
        println!("{name} {coords:?}: A {ea:.1e}, B {eb:.1e}");
        assert!(ea < bound_a && eb < bound_b, "{name} {coords:?}: A {ea:e}, B {eb:e}");
    }
}

/// The quadruped standing on its four feet (friction cones, contacts condensed at the
/// interior point's solution): A against central differences, the steps' contacts solved
/// to 1e-12 (the differences need it: at the default 1e-8 they are accurate to ~4e-6 only).
/// Its leg joints driven by the PD controller's torques. Measured at h = 1e-6: 2.1e-9
/// (maximal), 1.3e-9 (minimal: the floating base's position and rotation vector, then the
/// twelve leg angles).
#[test]
fn state_derivatives_with_contacts_match_central_differences() {
    let q = Quadruped::load();
    let mut sim = held_standing(&q, q.standing(&START, 0.0), 200);
    q.control(&mut sim, &START, 0.2);
    let o = sim.options();
    sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, contact_tolerance: 1e-12, ..o }).unwrap();
    let (ea, _) = linearization_error(&sim, Coords::Maximal, 1e-6);
    println!("quadruped standing: A {ea:.1e}");
    assert!(ea < 2e-8, "A {ea:e}");
    let (em, _) = linearization_error(&sim, Coords::Minimal, 1e-6);
    println!("quadruped standing, minimal: A {em:.1e}");
    assert!(em < 1.5e-8, "minimal A {em:e}");
}

/// Every force element on every kind of joint: a floating base carrying a revolute,
/// prismatic, spherical and universal joint in a chain, with joint springs (off their
/// rest) and dampers on each, a point spring-damper to the world, joint inputs and a body
/// wrench at a point, moving. A against central differences. Measured 1.3e-10 (maximal),
/// 1.2e-8 (minimal: rotation vectors for the floating and spherical joints, the universal
/// joint's two angles).
#[test]
fn state_derivatives_with_force_elements_match_central_differences() {
    use maxdyn::{Builder, Inertia, JointType, Model, Parent};
    use std::sync::Arc;
    let mut b = Builder::new();
    let kinds = [JointType::Floating, JointType::Revolute, JointType::Prismatic, JointType::Spherical, JointType::Universal];
    for (i, kind) in kinds.into_iter().enumerate() {
        let body = b.add_body(1.0 + 0.3 * i as f64, Inertia::diagonal(0.02, 0.03, 0.04).unwrap()).unwrap();
        let parent = if i == 0 { Parent::World } else { Parent::Body(i - 1) };
        let axis = [0.3, -0.5 + 0.2 * i as f64, 0.8];
        let j = b.add_joint(kind, parent, body, [0.05, 0.0, -0.2], [0.0, 0.02, 0.2], axis).unwrap();
        let n = b.joint(j).unwrap().dof();
        if i > 0 {
            b.set_joint_spring(j, &vec![3.0 + i as f64; n], &vec![0.1; n]).unwrap();
        }
        b.set_joint_damper(j, &vec![0.2 + 0.1 * i as f64; n]).unwrap();
    }
    b.add_spring(Parent::World, [0.3, 0.2, 0.5], 4, [0.05, 0.0, 0.1], 20.0, 0.5, 0.3).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-2).unwrap();
    sim.set_joint_velocity(1, &[1.5]).unwrap();
    sim.set_joint_velocity(3, &[0.4, -0.6, 0.9]).unwrap();
    sim.set_joint_input(1, &[-0.4]).unwrap();
    sim.set_joint_input(2, &[0.7]).unwrap();
    sim.set_joint_input(3, &[0.3, 0.1, -0.2]).unwrap();
    sim.set_joint_input(4, &[0.2, -0.3]).unwrap();
    sim.set_body_wrench(3, [1.0, -2.0, 0.5], [0.1, 0.0, -0.2], [0.05, 0.1, 0.0]).unwrap();
    let sim = moving(sim, 20);
    let (ea, eb) = linearization_error(&sim, Coords::Maximal, 1e-6);
    println!("force elements: A {ea:.1e}, B {eb:.1e}");
    let (em, _) = linearization_error(&sim, Coords::Minimal, 1e-6);
    println!("force elements, minimal: A {em:.1e}");
    assert!(em < 5e-8, "minimal A {em:e}");
    assert!(ea < 6e-10, "A {ea:e}");
}

/// An arm pushed against its joint limits: four revolute joints and a prismatic one, each
/// limited, driven into their bounds (the limits carry load). A against central
/// differences in both coordinates, the limits solved to 1e-12. Measured (3 limits loaded):
/// 4.8e-10 (minimal), 9.5e-11 (maximal).
#[test]
fn state_derivatives_with_joint_limits_match_central_differences() {
    let mut sim = arm_on_its_limits(maxdyn::Integrator::FirstOrder);
    let loaded = (0..5).filter(|&l| sim.limit(l).unwrap().force > 0.1).count();
    let o = sim.options();
    sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, contact_tolerance: 1e-12, ..o }).unwrap();
    for coords in [Coords::Minimal, Coords::Maximal] {
        let (ea, _) = linearization_error(&sim, coords, 1e-6);
        println!("arm on {loaded} limits, {coords:?}: A {ea:.1e}");
        let bound = if coords == Coords::Minimal { 3e-9 } else { 1e-9 };
        assert!(ea < bound, "{coords:?}: A {ea:e}");
    }
    assert!(loaded >= 3, "{loaded} limits carry load");
}

/// Mimic joints (URDF `<mimic>`): a hand on a slider carrying two fingers, the second
/// finger mimicking the first (−1, 0.1 rad) and a prismatic finger slide mimicking the
/// wrist's angle (0.02 m/rad), driven and moving. A against central differences (maximal:
/// the followers' coordinates are not free, so the minimal state does not describe it).
/// Measured 8.3e-11 (without the mimics' terms: 9.9e-1).
#[test]
fn state_derivatives_with_mimic_joints_match_central_differences() {
    use maxdyn::{Builder, Inertia, JointType, Model, Parent};
    use std::sync::Arc;
    let mut b = Builder::new();
    let inertia = || Inertia::diagonal(0.01, 0.012, 0.008).unwrap();
    let hand = b.add_body(1.0, inertia()).unwrap();
    let f1 = b.add_body(0.2, inertia()).unwrap();
    let f2 = b.add_body(0.2, inertia()).unwrap();
    let slide = b.add_body(0.1, inertia()).unwrap();
    let wrist = b.add_joint(JointType::Revolute, Parent::World, hand, [0.0; 3], [0.0, 0.0, 0.1], [1.0, 0.2, 0.0]).unwrap();
    let j1 = b.add_joint(JointType::Revolute, hand, f1, [0.05, 0.0, -0.1], [0.0, 0.0, 0.05], [0.0, 1.0, 0.0]).unwrap();
    let j2 = b.add_joint(JointType::Revolute, hand, f2, [-0.05, 0.0, -0.1], [0.0, 0.0, 0.05], [0.0, 1.0, 0.0]).unwrap();
    let j3 = b.add_joint(JointType::Prismatic, hand, slide, [0.0, 0.03, -0.1], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    b.add_mimic(j2, j1, -1.0, 0.1).unwrap();
    b.add_mimic(j3, wrist, 0.02, 0.0).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_joint_velocity(wrist, &[1.2]).unwrap();
    sim.set_joint_input(j1, &[0.05]).unwrap();
    let sim = moving(sim, 50);
    let (ea, _) = linearization_error(&sim, Coords::Maximal, 1e-6);
    println!("mimics: A {ea:.1e}");
    assert!(ea < 4e-10, "A {ea:e}");
}

/// Collision shapes (found contacts): a box resting on its face on a world plane (four
/// corner points, friction 0.8), pushed sideways by 2 N at a point above its centre,
/// sticking. A against central differences (maximal), contacts solved to 1e-12. Measured
/// 1.4e-8.
#[test]
fn state_derivatives_with_collision_shapes_match_central_differences() {
    let mut sim = box_pushed_on_its_face(maxdyn::Integrator::FirstOrder);
    let o = sim.options();
    sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, contact_tolerance: 1e-12, ..o }).unwrap();
    assert_eq!(sim.shape_contact_count(), 4);
    let (ea, _) = linearization_error(&sim, Coords::Maximal, 1e-6);
    println!("box on its face: A {ea:.1e}");
    assert!(ea < 6e-8, "A {ea:e}");
}

/// The arm of `state_derivatives_with_joint_limits_match_central_differences`: five limited
/// joints driven into their bounds for 300 steps of 1 ms under `integrator`.
fn arm_on_its_limits(integrator: maxdyn::Integrator) -> Sim {
    use maxdyn::{Builder, Inertia, JointType, Model, Parent};
    use std::sync::Arc;
    let mut b = Builder::new();
    let mut parent = Parent::World;
    for i in 0..5 {
        let body = b.add_body(1.0, Inertia::diagonal(0.02, 0.02, 0.005).unwrap()).unwrap();
        let p = if i == 0 { [0.0; 3] } else { [0.0, 0.0, 0.15] };
        let (kind, axis, lo, hi) = if i == 4 { (JointType::Prismatic, [0.0, 0.6, 0.8], -0.05, 0.04) } else { (JointType::Revolute, [0.0, 1.0, 0.2 * i as f64], -0.4, 0.3) };
        let j = b.add_joint(kind, parent, body, p, [0.0, 0.0, -0.15], axis).unwrap();
        b.set_joint_limits(j, &[lo], &[hi]).unwrap();
        parent = Parent::Body(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    sim.set_options(maxdyn::SolverOptions { integrator, ..sim.options() }).unwrap();
    for j in 0..5 {
        sim.set_joint_input(j, &[if j % 2 == 0 { 3.0 } else { -3.0 }]).unwrap();
    }
    for _ in 0..300 {
        sim.step().unwrap();
    }
    sim
}

/// The box of `state_derivatives_with_collision_shapes_match_central_differences`: resting
/// on its face (collision shapes, friction 0.8), pushed sideways by 2 N above its centre,
/// sticking, after 50 steps of 10 ms under `integrator`.
fn box_pushed_on_its_face(integrator: maxdyn::Integrator) -> Sim {
    use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind};
    use std::sync::Arc;
    const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];
    let mut b = Builder::new();
    let h = [0.2, 0.15, 0.1];
    let body = b.add_body(2.0, Inertia::cuboid(2.0, 0.4, 0.3, 0.2).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, 0.1], ID).unwrap();
    let s = b.add_shape(body.into(), ShapeKind::Box, [0.0; 3], ID, &h).unwrap();
    let floor = b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    b.set_shape_friction(s, 0.8).unwrap();
    b.set_shape_friction(floor, 0.8).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-2).unwrap();
    sim.set_options(maxdyn::SolverOptions { integrator, ..sim.options() }).unwrap();
    sim.set_body_wrench(body, [2.0, 1.0, 0.0], [0.0; 3], [0.0, 0.0, 0.05]).unwrap();
    for _ in 0..50 {
        sim.step().unwrap();
    }
    sim
}

/// The second-order integrator's analytic linearization (maximal coordinates: its
/// consistent start and its step, each solve's contacts and limits condensed at the
/// interior point's solution) against central differences of whole steps, steps solved to
/// 1e-13 and contacts to 1e-12, each case stepped under the second-order integrator (A of
/// the state set back at the node, B of the sim's own next step): the arm on its limits,
/// the box pushed on its face (also from a state just set: A through the start), the
/// quadruped standing on its feet under PD. B is checked where it moves the state (the
/// sticking box's B is ~0, its differences noise); it is differenced at h = 1e-4 (at
/// 1e-6: rounding, 4.7e-5 on the arm). The quadruped's A is differenced at h = 1e-7: at
/// 1e-6 one column (a calf lifted by h) crosses a switch of the step (the solve takes 13
/// iterations instead of 10 and the difference jumps by 34 %, smooth up to 9e-7 on that
/// side and on the other). Measured: arm A 9.2e-11, B 5.0e-7 (the first order from the
/// same state: 8.3e-11, 5.0e-7); box A 1.3e-8 (stepped and just set; first order 1.4e-8);
/// quadruped A 1.1e-8, B 1.7e-7 (first order at h = 1e-6: 2.5e-9, 1.7e-7).
#[test]
fn second_order_derivatives_with_limits_and_contacts_match_central_differences() {
    let second = maxdyn::Integrator::SecondOrder;
    let quadruped = {
        let q = Quadruped::load();
        let mut sim = q.standing(&START, 0.0);
        sim.set_options(maxdyn::SolverOptions { integrator: second, ..sim.options() }).unwrap();
        let mut sim = held_standing(&q, sim, 200);
        q.control(&mut sim, &START, 0.2);
        sim
    };
    let mut fresh = box_pushed_on_its_face(second);
    let state = (0..fresh.model().body_count()).map(|b| fresh.body_state(b).unwrap()).collect::<Vec<_>>();
    for (b, x) in state.iter().enumerate() {
        fresh.set_body_state(b, x).unwrap();
    }
    // (name, sim, h for A, bound on A, bound on B: None where B is not checked)
    let cases: Vec<(&str, Sim, f64, f64, Option<f64>)> = vec![
        ("arm on its limits", arm_on_its_limits(second), 1e-6, 2e-10, Some(1e-6)),
        ("box on its face", box_pushed_on_its_face(second), 1e-6, 3e-8, None),
        ("box on its face, state just set", fresh, 1e-6, 3e-8, None),
        ("quadruped standing", quadruped, 1e-7, 3e-8, Some(4e-7)),
    ];
    for (name, mut sim, h, bound_a, bound_b) in cases {
        let o = sim.options();
        sim.set_options(maxdyn::SolverOptions { tolerance: 1e-13, contact_tolerance: 1e-12, ..o }).unwrap();
        let (ea, _) = linearization_error(&sim, Coords::Maximal, h);
        let (_, eb) = linearization_error(&sim, Coords::Maximal, 1e-4);
        println!("second order, {name}: A {ea:.1e}, B {eb:.1e}");
        assert!(ea < bound_a && bound_b.is_none_or(|bound| eb < bound), "{name}: A {ea:e}, B {eb:e}");
    }
}

/// `linearize_by_differences` steps every column on one copy of the sim put back to its
/// exact state: its columns are bit for bit those of a fresh clone per step (state moved
/// through `set_body_state` with the joint check off, input through `set_body_force`),
/// here on the quadruped standing on its feet (contacts, maximal coordinates, the first
/// 13 state columns and the first 6 input columns, both signs).
#[test]
fn differences_on_one_copy_equal_a_clone_per_step_bit_for_bit() {
    let q = Quadruped::load();
    let sim = held_standing(&q, q.standing(&START, 0.0), 100);
    let h = 1e-6;
    let (nx, nu) = sim.model().linearization_size(Coords::Maximal);
    let (mut a, mut b) = (vec![0.0; nx * nx], vec![0.0; nx * nu]);
    sim.linearize_by_differences(Coords::Maximal, h, &mut a, &mut b).unwrap();
    let after = |s: &mut Sim| {
        s.step().unwrap();
        let mut x = vec![0.0; nx];
        s.linearization_state(Coords::Maximal, &mut x).unwrap();
        x
    };
    let column = |moved: &dyn Fn(&mut Sim, f64)| {
        let [p, m] = [h, -h].map(|d| {
            let mut s = sim.clone();
            moved(&mut s, d);
            after(&mut s)
        });
        (0..nx).map(|r| (p[r] - m[r]) / (2.0 * h)).collect::<Vec<f64>>()
    };
    for c in 0..13 {
        let col = column(&|s: &mut Sim, d: f64| {
            s.set_options(maxdyn::SolverOptions { joint_tolerance: f64::INFINITY, ..s.options() }).unwrap();
            let mut x = s.body_state(c / 13).unwrap();
            x[c % 13] += d;
            s.set_body_state(c / 13, &x).unwrap();
        });
        assert!((0..nx).all(|r| a[r * nx + c].to_bits() == col[r].to_bits()), "A column {c}");
    }
    for c in 0..6 {
        let col = column(&|s: &mut Sim, d: f64| {
            let mut w = [0.0; 6];
            w[c] = d;
            s.set_body_force(0, [w[0], w[1], w[2]], [w[3], w[4], w[5]]).unwrap();
        });
        assert!((0..nx).all(|r| b[r * nu + c].to_bits() == col[r].to_bits()), "B column {c}");
    }
}
