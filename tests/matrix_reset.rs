//! `BlockMatrix::reset` (what the Newton assembly zeros between iterations) against a
//! cleared matrix: the Newton matrix assembled over the factored leftovers of 20 steps
//! equals the one a fresh simulation assembles into zeros, entry for entry, on a loop
//! (fill-in) with joint dampers (body–body blocks added into).

use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
use std::sync::Arc;

const X: [f64; 3] = [1.0, 0.0, 0.0];

/// SCENARIOS A1's three-link loop, every joint damped.
fn damped_loop() -> Builder {
    let l = [1.0, std::f64::consts::FRAC_1_SQRT_2, 1.0];
    let mut b = Builder::new();
    for &li in &l {
        b.add_body(li, Inertia::cuboid(li, 0.1, 0.1, li).unwrap()).unwrap();
    }
    let joints = [
        b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], X).unwrap(),
        b.add_joint(JointType::Revolute, Parent::World, 2, [0.0, 1.0, 0.0], [0.0, 0.0, 0.5], X).unwrap(),
        b.add_joint(JointType::Revolute, 0, 1, [0.0, 0.0, -0.5], [0.0, 0.0, l[1] / 2.0], X).unwrap(),
        b.add_joint(JointType::Revolute, 1, 2, [0.0, 0.0, -l[1] / 2.0], [0.0, 0.0, -0.5], X).unwrap(),
    ];
    for j in joints {
        b.set_joint_damper(j, &[0.3]).unwrap();
    }
    b
}

#[test]
fn newton_matrix_over_leftovers_equals_the_one_assembled_into_zeros() {
    let model = Arc::new(Model::new(&damped_loop()).unwrap());
    assert!(model.symbolic.fill_blocks > 0, "the loop must have fill-in");
    let dt = 0.01;
    let mut used = Sim::new(model.clone(), dt).unwrap();
    used.set_joint_position(0, &[2.842889445268244]).unwrap();
    used.set_joint_position(2, &[-1.209429202890086]).unwrap();
    used.set_joint_position(1, &[std::f64::consts::PI]).unwrap();
    for _ in 0..20 {
        used.step().unwrap();
    }
    // the same state in a fresh sim; velocities set anew in both, so that both start the
    // next step's iterate from them (not from an extrapolation of the last steps)
    let mut fresh = Sim::new(model.clone(), dt).unwrap();
    for i in 0..model.body_count() {
        let mut state = used.body_state(i).unwrap();
        state[7..].iter_mut().for_each(|v| *v += 1e-3);
        used.set_body_state(i, &state).unwrap();
        fresh.set_body_state(i, &state).unwrap();
    }
    let (a, b) = (used.newton_matrix_dense(), fresh.newton_matrix_dense());
    assert!(a.iter().any(|&v| v != 0.0));
    assert_eq!(a, b);
}
