//! Springs: oscillation periods against 2π√(m/k) at dt = 1e-3, and bounded energy
//! without damping (joint springs on prismatic, revolute and spherical joints, and
//! point-to-point springs).

use maxdyn::*;
use std::f64::consts::PI;
use std::sync::Arc;

fn inertia(m: f64, a: f64, b: f64, c: f64) -> Inertia {
    Inertia::cuboid(m, a, b, c).unwrap()
}

/// Mean period from upward crossings of `level` (linear interpolation), and the
/// number of periods measured.
fn period(samples: &[f64], dt: f64, level: f64) -> (f64, usize) {
    let mut crossings = Vec::new();
    for k in 1..samples.len() {
        let (a, b) = (samples[k - 1] - level, samples[k] - level);
        if a < 0.0 && b >= 0.0 {
            crossings.push((k as f64 - 1.0 + a / (a - b)) * dt);
        }
    }
    let n = crossings.len() - 1;
    ((crossings[n] - crossings[0]) / n as f64, n)
}

/// Largest |E − E₀| over the first and the last quarter of a run.
fn drift_quarters(e: &[f64]) -> (f64, f64) {
    let q = e.len() / 4;
    let dev = |s: &[f64]| s.iter().fold(0.0f64, |m, x| m.max((x - e[0]).abs()));
    (dev(&e[..q]), dev(&e[e.len() - q..]))
}

struct Run {
    coord: Vec<f64>,
    energy: Vec<f64>,
}

fn run(sim: &mut Sim, joint: usize, steps: usize) -> Run {
    let n = sim.joint_dof(joint).unwrap();
    let mut c = vec![0.0; n];
    let mut r = Run { coord: Vec::with_capacity(steps), energy: Vec::with_capacity(steps) };
    for _ in 0..steps {
        sim.joint_position(joint, &mut c).unwrap();
        let (k, p) = sim.energy();
        r.coord.push(c[0]);
        r.energy.push(k + p);
        sim.step().unwrap();
    }
    r
}

#[test]
fn mass_on_prismatic_spring_has_period_two_pi_sqrt_m_over_k() {
    let (m, k, dt) = (2.0, 50.0, 1e-3);
    let mut b = Builder::new();
    b.add_body(m, inertia(m, 0.2, 0.2, 0.2)).unwrap();
    // vertical slider under gravity: the spring's equilibrium moves to −mg/k, the period does not
    let j = b.add_joint(JointType::Prismatic, Parent::World, 0, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    b.set_joint_spring(j, &[k], &[0.0]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j, &[0.1]).unwrap();
    let exact = 2.0 * PI * (m / k).sqrt();
    let r = run(&mut sim, j, (10.5 * exact / dt) as usize);
    let (t, n) = period(&r.coord, dt, -m * 9.81 / k);
    let rel = (t - exact) / exact;
    let (d0, d1) = drift_quarters(&r.energy);
    let amp = 0.5 * k * (0.1f64 + m * 9.81 / k).powi(2);
    println!("prismatic spring: T = {t:.6} s over {n} periods, exact {exact:.6} s, rel. error {rel:.2e}");
    println!("  max |E − E0| first quarter {d0:.3e} J, last quarter {d1:.3e} J (oscillation energy {amp:.3} J)");
    assert!(n >= 9);
    assert!(rel.abs() < 1e-5, "measured −1.04e-6: {rel:e}");
    assert!(d1 < 1e-2 * amp && d1 < 1.5 * d0 + 1e-12, "energy must stay bounded");
}

#[test]
fn torsional_spring_on_revolute_has_period_two_pi_sqrt_inertia_over_k() {
    let (m, k, dt) = (1.0, 1.0, 1e-3);
    let jb = inertia(m, 0.4, 0.2, 0.1);
    let izz = jb.matrix()[(2, 2)];
    let mut b = Builder::new();
    b.add_body(m, jb).unwrap();
    // about the body's own z axis through the centre of mass: gravity exerts no torque
    let j = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0; 3], [0.0, 0.0, 1.0]).unwrap();
    b.set_joint_spring(j, &[k], &[0.2]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j, &[0.9]).unwrap();
    let exact = 2.0 * PI * (izz / k).sqrt();
    let r = run(&mut sim, j, (10.5 * exact / dt) as usize);
    let (t, n) = period(&r.coord, dt, 0.2);
    let rel = (t - exact) / exact;
    let (d0, d1) = drift_quarters(&r.energy);
    let amp = 0.5 * k * 0.7f64.powi(2);
    println!("torsional spring: T = {t:.6} s over {n} periods, exact {exact:.6} s, rel. error {rel:.2e}");
    println!("  max |E − E0| first quarter {d0:.3e} J, last quarter {d1:.3e} J (oscillation energy {amp:.3} J)");
    assert!(n >= 9);
    assert!(rel.abs() < 4e-5, "measured −4.34e-6: {rel:e}");
    assert!(d1 < 1e-2 * amp && d1 < 1.5 * d0 + 1e-12);
}

fn spherical_run(dt: f64, secs: f64) -> Run {
    let mut b = Builder::new();
    b.add_body(1.0, inertia(1.0, 0.1, 0.3, 0.5)).unwrap();
    let j = b.add_joint(JointType::Spherical, Parent::World, 0, [0.0; 3], [0.0; 3], [1.0, 0.0, 0.0]).unwrap();
    b.set_joint_spring(j, &[2.0, 3.0, 5.0], &[0.1, -0.2, 0.3]).unwrap();
    b.set_body_velocity(0, [0.0; 3], [4.0, -3.0, 6.0]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j, &[0.5, 0.4, -0.6]).unwrap();
    run(&mut sim, j, (secs / dt) as usize)
}

#[test]
fn spherical_spring_energy_is_bounded_for_a_tumbling_body() {
    // 3-DoF rotational spring with unequal stiffness and a rest rotation, body spun about
    // a generic axis: only the exact (log-map) gradient makes this conservative. The
    // energy error of the first-order integrator is an O(dt) oscillation: it halves with
    // dt and shows no trend.
    let r = spherical_run(1e-3, 20.0);
    let (d0, d1) = drift_quarters(&r.energy);
    let fine = spherical_run(5e-4, 5.0);
    let (f0, _) = drift_quarters(&fine.energy);
    let max_angle = r.coord.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    println!("spherical spring, 20 s at dt 1e-3: E0 = {:.4} J, max |E − E0| first quarter {d0:.3e}, last quarter {d1:.3e} (max |θ₁| {max_angle:.2})", r.energy[0]);
    println!("  first 5 s at dt 5e-4: {f0:.3e} (ratio {:.2})", d0 / f0);
    assert!(max_angle > 0.5, "the body must move");
    assert!(d1 < 2e-2 * r.energy[0], "bounded");
    assert!(d1 < 1.1 * d0, "no trend");
    assert!((d0 / f0 - 2.0).abs() < 0.3, "first-order error");
}

#[test]
fn point_spring_to_the_world_and_between_bodies() {
    // body 0 hangs from the world point (0, 0, 1) by a spring of rest length 0.5 attached at
    // its top face; body 1 hangs from body 0's bottom by a second spring. Vertical motion
    // only (symmetric start): two coupled masses, checked by energy and by the single
    // spring period when body 1 is absent.
    let dt = 1e-3;
    let (m, k) = (1.5, 60.0);
    let mut b = Builder::new();
    b.add_body(m, inertia(m, 0.1, 0.1, 0.1)).unwrap();
    b.set_body_pose(0, [0.0, 0.0, 0.3], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.add_spring(Parent::World, [0.0, 0.0, 1.0], 0, [0.0, 0.0, 0.05], k, 0.0, 0.5).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    let exact = 2.0 * PI * (m / k).sqrt();
    let steps = (10.5 * exact / dt) as usize;
    let mut z = Vec::with_capacity(steps);
    let mut e = Vec::with_capacity(steps);
    for _ in 0..steps {
        z.push(sim.body_state(0).unwrap()[2]);
        let (ke, pe) = sim.energy();
        e.push(ke + pe);
        sim.step().unwrap();
    }
    // equilibrium: spring stretch mg/k below the rest length
    let z_eq = 1.0 - 0.5 - m * 9.81 / k - 0.05;
    let (t, n) = period(&z, dt, z_eq);
    let rel = (t - exact) / exact;
    let (d0, d1) = drift_quarters(&e);
    println!("point spring to the world: T = {t:.6} s over {n} periods, exact {exact:.6}, rel. error {rel:.2e}; max |E − E0| {d0:.2e} / {d1:.2e}");
    assert!(rel.abs() < 1e-5, "measured −1.67e-6: {rel:e}");
    assert!(d1 < 1e-2 * 0.5 * k * (0.3 - z_eq).powi(2) && d1 < 1.5 * d0 + 1e-12);

    // two bodies joined by a point spring, tumbling in space: momentum conserved, energy bounded
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    b.add_body(1.0, inertia(1.0, 0.2, 0.1, 0.3)).unwrap();
    b.add_body(2.0, inertia(2.0, 0.3, 0.2, 0.1)).unwrap();
    b.set_body_pose(1, [1.0, 0.2, 0.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
    b.set_body_velocity(0, [0.0, 0.5, 0.0], [1.0, 2.0, 0.5]).unwrap();
    b.set_body_velocity(1, [0.0, -0.25, 0.3], [-1.0, 0.0, 2.0]).unwrap();
    b.add_spring(0, [0.1, 0.05, 0.0], 1, [-0.1, 0.0, 0.05], 30.0, 0.0, 0.7).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    let p = |s: &Sim| {
        let (a, c) = (s.body_state(0).unwrap(), s.body_state(1).unwrap());
        [a[7] + 2.0 * c[7], a[8] + 2.0 * c[8], a[9] + 2.0 * c[9]]
    };
    let p0 = p(&sim);
    let mut e = Vec::new();
    let mut dp: f64 = 0.0;
    for _ in 0..10_000 {
        let (ke, pe) = sim.energy();
        e.push(ke + pe);
        sim.step().unwrap();
        let p1 = p(&sim);
        dp = dp.max((0..3).map(|i| (p1[i] - p0[i]).abs()).fold(0.0, f64::max));
    }
    let (d0, d1) = drift_quarters(&e);
    println!("two bodies on a point spring, 10 s: |Δp| ≤ {dp:.2e}, E0 = {:.4}, max |E − E0| {d0:.2e} / {d1:.2e}", e[0]);
    assert!(dp < 1e-10);
    assert!(d1 < 1e-3 * e[0] && d1 < 1.5 * d0 + 1e-12);
}

#[test]
fn damped_prismatic_oscillator_decays_at_the_logarithmic_decrement() {
    // m ẍ + c ẋ + k x = 0: successive maxima shrink by exp(−δ), δ = 2πζ/√(1 − ζ²),
    // ζ = c / (2√(km)); the damper is the translational joint damper (implicit)
    let (m, k, c, dt) = (2.0, 50.0, 0.8, 1e-3);
    let mut b = Builder::new();
    b.set_gravity([0.0; 3]).unwrap();
    b.add_body(m, inertia(m, 0.2, 0.2, 0.2)).unwrap();
    // slider along a tilted axis, joint point off the centre of mass
    let j = b.add_joint(JointType::Prismatic, Parent::World, 0, [0.1, 0.0, 0.0], [0.0, 0.1, -0.1], [0.0, 1.0, 1.0]).unwrap();
    b.set_joint_spring(j, &[k], &[0.0]).unwrap();
    b.set_joint_damper(j, &[c]).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), dt).unwrap();
    sim.set_joint_position(j, &[0.2]).unwrap();
    let r = run(&mut sim, j, 8000);
    let peaks: Vec<f64> = (1..r.coord.len() - 1)
        .filter(|&i| r.coord[i] > r.coord[i - 1] && r.coord[i] >= r.coord[i + 1])
        .map(|i| r.coord[i])
        .collect();
    let zeta = c / (2.0 * (k * m).sqrt());
    let exact = 2.0 * PI * zeta / (1.0 - zeta * zeta).sqrt();
    let n = peaks.len() - 1;
    let measured = (peaks[0] / peaks[n]).ln() / n as f64;
    let rel = (measured - exact) / exact;
    println!("damped slider: log decrement {measured:.6} over {n} periods, exact {exact:.6}, rel. error {rel:.2e}");
    assert!(n >= 4);
    assert!(rel.abs() < 1e-3, "measured −1.02e-4: {rel:e}");
}
