//! The contact step's linear algebra and derivatives, the builder's validation, outputs.
use crate::common::*;
use maxdyn::{ConeType, Error, Inertia};

fn scenes() -> Vec<(&'static str, maxdyn::Builder)> {
    let (mut tilted, _, cs) = box_on_plane(0.2, 1.0, &bottom_corners(0.1), [0.3, -0.2, 1.0], 0.5, 0.0);
    set_cone(&mut tilted, &cs[..2], ConeType::Nonlinear, 0);
    tilted.set_contact_cone(cs[2], ConeType::Linear, 6).unwrap();
    let (mut spinning, body, _) = box_on_plane(0.5, 1.0, &all_corners(0.25), [0.0, 0.0, 1.0], 0.3, 0.001);
    spinning.set_body_velocity(body, [1.0, 0.5, -0.2], [0.5, -1.0, 2.0]).unwrap();
    let (chain, _) = sphere_chain(4);
    let (stack, _) = sphere_stack(0.5);
    let (mut frictionless, _, _) = box_on_plane(0.2, 1.0, &bottom_corners(0.1), [0.0, 0.0, 1.0], 0.0, 0.0);
    frictionless.set_body_velocity(0, [1.0, 0.0, 0.0], [0.0; 3]).unwrap();
    vec![("tilted box, mixed cones", tilted), ("spinning box", spinning), ("sphere chain", chain), ("sphere stack", stack), ("frictionless", frictionless)]
}

/// The graph LDU on the condensed contact system equals a dense LU of the same matrix, and
/// condensation + recovery equals a dense LU of the full system with slacks, to 1e-10
/// (relative to the solution), from the first interior-point iterate to convergence.
#[test]
fn sparse_solve_equals_dense_lu_on_contact_systems() {
    let mut refined = Vec::new();
    for (name, b) in scenes() {
        let mut s = sim(&b, 0.01);
        for _ in 0..5 {
            s.step().unwrap();
        }
        for (it, mu) in [(0, 1.0), (3, 1e-2), (6, 1e-5)] {
            let c = s.debug_contact_system_check(it, mu);
            println!("{name}: it {it} mu {mu:e}: {c:?}");
            assert!(c.sparse_vs_dense < 1e-10, "{name} {it}: {c:?}");
            assert!(c.condensed_vs_full < 1e-10, "{name} {it}: {c:?}");
            assert!(c.backward_error < 1e-15, "{name} {it}: {c:?}");
        }
        // At the converged iterate (barrier 1e-9, slacks ~1e-9) the system is as
        // ill-conditioned as interior-point systems get (κ ~ 1/μ): all three solvers are
        // backward stable (graph LDU: ≤ 1e-17 measured) and their forward agreement is
        // limited by κ ε (measured 1e-12…1e-7; the dense LU of the condensed matrix is the
        // least accurate of the three on the sphere chain). So the 1e-10 forward check holds
        // down to μ = 1e-5, and at convergence we check the backward error.
        let c = s.debug_contact_system_check(100, 1e-9);
        println!("{name}: converged: {c:?}");
        assert!(c.backward_error < 1e-15, "{name}: {c:?}");
        assert!(c.sparse_vs_dense < 1e-6 && c.condensed_vs_full < 1e-6, "{name}: {c:?}");
        // Backward stable on the condensed matrix is not enough: on the full system (slacks
        // and cone variables as unknowns) the plain solution leaves ‖b − A x‖ / ‖b‖ up to
        // 3.6e-6 (sphere chain; spinning box 4.9e-7), the rounding of c = ψ/s_ψ ≈ 1e8 in the
        // condensed friction rows. The refined direction, refined against the full system,
        // leaves at most 8.0e-8 (the dense product's own rounding at these entries), on the
        // tilted box with mixed cones, whose plain solution already leaves 4.6e-8: there
        // refinement has nothing to gain. The bound was 5e-8 (3.1e-8 measured) until the
        // second-order cone's warm start moved the five steps before this check.
        assert!(c.refined_full_residual < 1e-7, "{name}: {c:?}");
        refined.push((name, c.full_residual, c.refined_full_residual));
    }
    let gain = |scene: &str| refined.iter().find(|r| r.0 == scene).map(|r| r.1 / r.2).unwrap();
    assert!(gain("sphere chain") > 50.0 && gain("spinning box") > 100.0, "{refined:?}");
}

/// Analytic Newton matrix (gap Jacobian at z_{k+2}, force and slip maps, cone rows) equals
/// central finite differences of the residual (measured: at most 1.4e-10; bound 1e-9);
/// the second-order cone's scaled complementarity rows are checked in the library's unit
/// tests against the derivative with the scaling held.
#[test]
fn contact_jacobians_match_finite_differences() {
    for (name, b) in scenes() {
        let mut s = sim(&b, 0.01);
        for _ in 0..3 {
            s.step().unwrap();
        }
        for it in [0, 4] {
            let e = s.debug_contact_jacobian_fd(it, 1e-6);
            println!("{name} it {it}: {e:e}");
            assert!(e < 1e-9, "{name} it {it}: {e:e}");
        }
    }
}

#[test]
fn builder_validates_contacts_before_changing_anything() {
    let mut b = maxdyn::Builder::new();
    let body = b.add_body(1.0, Inertia::diagonal(1.0, 1.0, 1.0).unwrap()).unwrap();
    let body2 = b.add_body(1.0, Inertia::diagonal(1.0, 1.0, 1.0).unwrap()).unwrap();
    assert_eq!(b.add_plane_contact(7, [0.0; 3], 0.0, [0.0, 0.0, 1.0], 0.0, 0.3), Err(Error::UnknownBody(7)));
    assert_eq!(b.add_plane_contact(body, [0.0; 3], 0.0, [0.0; 3], 0.0, 0.3), Err(Error::ZeroAxis("normal")));
    assert_eq!(b.add_plane_contact(body, [f64::NAN, 0.0, 0.0], 0.0, [0.0, 0.0, 1.0], 0.0, 0.3), Err(Error::NonFinite("p")));
    assert!(matches!(b.add_ground_contact(body, [0.0; 3], -1.0, 0.3), Err(Error::InvalidArgument("radius", _))));
    assert!(matches!(b.add_ground_contact(body, [0.0; 3], 0.0, -0.1), Err(Error::InvalidArgument("friction", _))));
    assert_eq!(b.add_ground_contact(body, [0.0; 3], 0.0, f64::INFINITY), Err(Error::NonFinite("friction")));
    assert!(matches!(b.add_sphere_contact(body, [0.0; 3], 0.1, body, [0.0; 3], 0.1, 0.3), Err(Error::InvalidArgument("body_b", _))));
    assert_eq!(b.contact_count(), 0);
    let c = b.add_plane_contact(body, [0.0; 3], 0.1, [0.0, 0.0, 2.0], 0.5, 0.3).unwrap();
    let c2 = b.add_sphere_contact(body, [0.0; 3], 0.1, body2, [0.0; 3], 0.2, 0.0).unwrap();
    assert_eq!((c, c2), (0, 1));
    for bad in [0, 3, 18] {
        assert!(matches!(b.set_contact_cone(c, ConeType::Linear, bad), Err(Error::InvalidArgument("directions", _))));
    }
    assert_eq!(b.contact(c).unwrap().directions, 4);
    assert_eq!(b.set_contact_cone(5, ConeType::Linear, 4), Err(Error::UnknownContact(5)));
    b.set_contact_cone(c, ConeType::Linear, 8).unwrap();
    assert_eq!(b.contact(c).unwrap().directions, 8);
    b.set_contact_cone(c, ConeType::Nonlinear, 0).unwrap();
    assert_eq!(b.contact(c).unwrap().cone, ConeType::Nonlinear);
    assert_eq!(ConeType::from_i32(1), Some(ConeType::Nonlinear));
    assert_eq!(ConeType::from_i32(2), None);
    let s = sim(&b, 0.01);
    assert_eq!(s.contact(2), Err(Error::UnknownContact(2)));
    // the plane normal was normalized: gap = n·x − offset − r = 0 − 0.5 − 0.1
    assert!((s.contact(c).unwrap().gap + 0.6).abs() < 1e-15);
}

/// Contact outputs: the 4-direction cone of a z normal uses ±x, ±y, and a box sliding along
/// x feels a friction force along −x of μγ at every corner while it slides.
#[test]
fn contact_reports_gap_normal_and_friction_force() {
    let (mut b, body, cs) = box_on_plane(0.2, 1.0, &bottom_corners(0.1), [0.0, 0.0, 1.0], 0.5, 0.0);
    b.set_body_velocity(body, [2.0, 0.0, 0.0], [0.0; 3]).unwrap();
    let mut s = sim(&b, 0.01);
    for _ in 0..10 {
        s.step().unwrap();
    }
    let mut total = [0.0; 3];
    for &c in &cs {
        let o = s.contact(c).unwrap().to_array();
        assert!(o[0].abs() < 1e-8, "gap {}", o[0]);
        assert!(o[1] > 0.0);
        assert!((o[2] + 0.5 * o[1]).abs() < 1e-7 * o[1], "friction {o:?}");
        assert!(o[3].abs() < 1e-7 && o[4].abs() < 1e-12, "friction {o:?}");
        for k in 0..3 {
            total[k] += o[2 + k];
        }
        total[2] += o[1];
    }
    // Σ friction = −μ m g, Σ normal = m g
    assert!((total[0] + 0.5 * 9.81).abs() < 1e-6 && (total[2] - 9.81).abs() < 1e-6, "{total:?}");
}

/// A failed step reports the failure and leaves the state at the last good step.
#[test]
fn failed_contact_step_keeps_the_last_good_state() {
    // resting on the plane: the contacts take part in the solve (see `SolverOptions::contact_margin`)
    let (b, body, _) = box_on_plane(0.5, 1.0, &all_corners(0.25), [0.0, 0.0, 1.0], 0.3, 0.0);
    let mut s = sim(&b, 0.01);
    s.step().unwrap();
    let before = s.body_state(body).unwrap();
    let t = s.time();
    let mut o = s.options();
    o.max_iterations = 2;
    // cold: warm-started, the resting box's step converges in 2 iterations
    o.contact_warm_start = false;
    // without splitting: the direct solve (2 iterations), one round of the Tresca
    // fallback (2 more) and the relaxed solve (4 more: it may take twice the cap); two
    // iterations leave the direct solve far from a solution, where a refined retry would
    // retrace it (`JAMMED`), and four leave the relaxed one with its equality rows solved
    // (residual 9.5e-16) and its products at 1.6e-5 (measured), far above the tolerance
    o.max_splits = 0;
    s.set_options(o).unwrap();
    assert!(matches!(s.step(), Err(Error::NotConverged { .. })));
    assert_eq!(s.body_state(body).unwrap(), before);
    assert_eq!(s.time(), t);
    assert!(s.stats().fallback);
    assert!(s.stats().complementarity > 1e-5, "{}", s.stats().complementarity);
    assert_eq!(s.stats().iterations, 8);
    // with splitting (and the rescue at every level as the last resort) it still fails;
    // the stats describe the first attempt
    o.max_splits = 3;
    s.set_options(o).unwrap();
    assert!(matches!(s.step(), Err(Error::NotConverged { .. })));
    assert_eq!(s.body_state(body).unwrap(), before);
    assert_eq!(s.time(), t);
    // the first attempt: the plain solve, 2 iterations, far from a solution (the Tresca
    // rescue waits for the deepest split, the refined solve for a solve jammed near one),
    // then, the four contacts being on one box, the relaxed solve at full length
    // (`step::JAMMED_INDETERMINATE`): 4 more, its equality rows solved and its products
    // at 1.6e-5 (measured)
    assert_eq!(s.stats().iterations, 6);
    assert!(s.stats().residual < 1e-14, "{}", s.stats().residual);
    assert!(s.stats().complementarity > 1e-5, "{}", s.stats().complementarity);
    o.max_iterations = 100;
    s.set_options(o).unwrap();
    s.step().unwrap();
}

/// The interior point evaluates the residual once per point and reaches other barriers by
/// `Layout::shift_barrier`: for every cone kind that equals evaluating at the new barrier.
#[test]
fn barrier_shift_equals_evaluating_at_the_new_barrier() {
    use maxdyn::contact::cone::{FrictionLaw, Kind, Layout, MAX_Y};
    let layouts = [
        Layout { kind: Kind::Frictionless, nt: 0, nk: 1, ne: 1 },
        Layout { kind: Kind::Linear, nt: 4, nk: 5, ne: 7 },
        Layout { kind: Kind::Linear, nt: 6, nk: 7, ne: 9 },
        Layout { kind: Kind::Soc, nt: 2, nk: 3, ne: 5 },
    ];
    for l in layouts {
        let mut y: Vec<f64> = (0..MAX_Y).map(|i| 0.3 + 0.17 * i as f64).collect();
        if l.kind == Kind::Soc {
            // inside both cones (the scaled complementarity rows exist only there)
            for i in [1, 2, l.nk + 3, l.nk + 4] {
                y[i] *= 0.3;
            }
        }
        let bv = [0.4, -0.2, 0.1, 0.7, -0.5, 0.3];
        let (phi, mu_f, dt, mu) = (0.02, 0.8, 0.01, 0.37);
        let (mut rk0, mut re0, mut rk1, mut re1) = ([0.0; MAX_Y], [0.0; MAX_Y], [0.0; MAX_Y], [0.0; MAX_Y]);
        l.residual(&y, phi, &bv[..l.nt], mu_f, FrictionLaw::Coulomb, dt, 0.0, &mut rk0[..l.nk], &mut re0[..l.ne]);
        l.residual(&y, phi, &bv[..l.nt], mu_f, FrictionLaw::Coulomb, dt, mu, &mut rk1[..l.nk], &mut re1[..l.ne]);
        l.shift_barrier(&mut re0[..l.ne], mu);
        assert_eq!(rk0, rk1, "{l:?}: K rows depend on the barrier");
        for (a, b) in re0[..l.ne].iter().zip(&re1[..l.ne]) {
            assert!((a - b).abs() <= 1e-15, "{l:?}: shifted {a} vs evaluated {b}");
        }
    }
}
