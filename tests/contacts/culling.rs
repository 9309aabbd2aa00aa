//! Contacts far from touching are left out of a step's solve (`SolverOptions::contact_margin`,
//! `sim::culling`). The result must be that of the full problem: the same trajectory as
//! with every contact in every solve, and a left-out contact that the step would cross is
//! added before the step is accepted.

use crate::common;
use maxdyn::{Builder, Inertia};

/// B2 chain (n = 8) falling onto the ground, 100 steps (into the first impacts): the
/// trajectory with culling equals the one with every contact in every solve to 1e-9 m.
/// Left-out contacts carry zero force; in the full solve their force is μ_end/gap (1e-9 N
/// at a gap of 1 m), and both solves stop somewhere inside the tolerances: products of
/// 1e-8 N·m at the resting sphere's ~10 N leave its gap free by ~1e-9 m, which is the
/// bound. Measured after 100 steps: 7.0e-11 m. The lowest gap: 0 (bound: the contact
/// tolerance).
#[test]
fn culled_trajectory_equals_the_full_one() {
    let (b, cs) = common::sphere_chain(8);
    let mut culled = common::sim(&b, 0.01);
    let mut full = common::sim(&b, 0.01);
    full.set_options(maxdyn::SolverOptions { contact_margin: f64::INFINITY, ..full.options() }).unwrap();
    let mut worst: f64 = 0.0;
    for k in 0..100 {
        let a = culled.step().unwrap_or_else(|e| panic!("culled step {k}: {e}"));
        full.step().unwrap_or_else(|e| panic!("full step {k}: {e}"));
        assert!(a.iterations > 0);
        for i in 0..8 {
            let (p, q) = (culled.body_state(i).unwrap(), full.body_state(i).unwrap());
            worst = worst.max((0..3).map(|j| (p[j] - q[j]).abs()).fold(0.0, f64::max));
        }
    }
    println!("largest position difference culled vs full: {worst:.2e} m; lowest gap {:.2e} m", common::min_gap(&culled, &cs));
    assert!(worst < 1e-9, "culled and full trajectories differ by {worst} m");
    assert!(common::min_gap(&culled, &cs) > -1e-8);
}

/// A sphere at rest 0.5 m above the ground (far outside the margin) is hit by a 10 kN
/// downward force for one step: the velocity change (100 m/s) would carry it 1 m through
/// the ground. The check after the solve adds its contact, and the step stops it on the
/// surface.
#[test]
fn a_left_out_contact_that_would_be_crossed_is_added() {
    let r = 0.1;
    let mut b = Builder::new();
    let body = b.add_body(1.0, Inertia::sphere(1.0, r).unwrap()).unwrap();
    b.set_body_pose(body, [0.0, 0.0, r + 0.5], [1.0, 0.0, 0.0, 0.0]).unwrap();
    let c = b.add_ground_contact(body, [0.0; 3], r, 0.5).unwrap();
    let mut s = common::sim(&b, 0.01);
    s.set_body_force(body, [0.0, 0.0, -1e4], [0.0; 3]).unwrap();
    let st = s.step().unwrap();
    let push = s.contact(c).unwrap().normal_force;
    // the step solved for v_{k+1}; the position it reaches shows after the next step
    s.set_body_force(body, [0.0; 3], [0.0; 3]).unwrap();
    s.step().unwrap();
    let gap = s.contact(c).unwrap().gap;
    println!("gap after the blow {gap:.2e} m, normal force {push:.1} N, {} iterations", st.iterations);
    assert!(gap > -1e-8, "penetration {gap} m");
    assert!(gap < 1e-6, "the sphere should reach the ground within the step (gap {gap} m)");
    // the ground took what the 0.5 m fall in one step (50 m/s) did not need: ≈ 5 kN
    assert!((push - 5000.0).abs() < 50.0, "normal force {push} N");
}

/// The same between two bodies: two spheres (r = 0.1 m) at rest with a gap of 0.3 m
/// (outside the margin) are pushed together by ±10 kN for one step; without their contact
/// they would pass through each other. The check adds it: after the next step they touch
/// (gap within 1e-6 m, no overlap) and neither crossed the other. (Before the sphere pair's
/// gap became the signed distance along the z_{k+1} normal, the full solve itself let them
/// pass: |c_a − c_b| − r_a − r_b is positive again behind the other sphere.)
#[test]
fn a_left_out_contact_between_two_bodies_is_added() {
    let r = 0.1;
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    let a = b.add_body(1.0, Inertia::sphere(1.0, r).unwrap()).unwrap();
    let c = b.add_body(1.0, Inertia::sphere(1.0, r).unwrap()).unwrap();
    b.set_body_pose(a, [-0.25, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.set_body_pose(c, [0.25, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    let contact = b.add_sphere_contact(a, [0.0; 3], r, c, [0.0; 3], r, 0.3).unwrap();
    let mut s = common::sim(&b, 0.01);
    s.set_body_force(a, [1e4, 0.0, 0.0], [0.0; 3]).unwrap();
    s.set_body_force(c, [-1e4, 0.0, 0.0], [0.0; 3]).unwrap();
    s.step().unwrap();
    s.set_body_force(a, [0.0; 3], [0.0; 3]).unwrap();
    s.set_body_force(c, [0.0; 3], [0.0; 3]).unwrap();
    s.step().unwrap();
    let gap = s.contact(contact).unwrap().gap;
    let (xa, xc) = (s.body_state(a).unwrap()[0], s.body_state(c).unwrap()[0]);
    println!("gap {gap:.2e} m, centres at {xa:.4} and {xc:.4} m");
    assert!(gap > -1e-8 && gap < 1e-6, "gap {gap} m");
    assert!(xa < xc, "the spheres passed through each other");
}

/// The margin is validated like every option.
#[test]
fn negative_or_nan_margin_is_rejected() {
    let (b, _) = common::sphere_chain(2);
    let mut s = common::sim(&b, 0.01);
    for bad in [-1.0, f64::NAN] {
        let o = maxdyn::SolverOptions { contact_margin: bad, ..s.options() };
        assert!(s.set_options(o).is_err());
    }
    let o = maxdyn::SolverOptions { contact_margin: f64::INFINITY, ..s.options() };
    s.set_options(o).unwrap();
}
