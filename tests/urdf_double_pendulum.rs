//! example-robot-data's double pendulums (corpus, installed by tests/setup.sh) against
//! independent numbers: their small-oscillation periods from the file's masses,
//! centres, inertias and dampers, and the limit rule leaving these limit-less files unchanged.
//!
//! Without the corpus the tests fail naming it, unless MAXDYN_SKIP names them (tests/common/require.rs).

use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};

#[path = "common/require.rs"]
mod require;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/double_pendulum_description/urdf");
const FILES: [&str; 3] = ["double_pendulum.urdf", "double_pendulum_simple.urdf", "double_pendulum_continuous.urdf"];


/// A link's planar data for rotation about x: mass, centre (y, z) in the link frame, ixx.
struct PlanarLink {
    m: f64,
    c: [f64; 2],
    ixx: f64,
}

/// The two moving links, joint 2's position (y, z) in link 1 and the joints' damping
/// (`<dynamics damping>`, N·m·s/rad), read from the file with roxmltree (not the loader).
/// Both joints turn about x.
fn planar_pendulum(xml: &str) -> ([PlanarLink; 2], [f64; 2], [f64; 2]) {
    let doc = roxmltree::Document::parse(xml).unwrap();
    let robot = doc.root_element();
    let num = |s: Option<&str>| -> Vec<f64> { s.unwrap_or("0 0 0").split_whitespace().map(|v| v.parse().unwrap()).collect() };
    let moving = |n: &roxmltree::Node| n.has_tag_name("joint") && matches!(n.attribute("type"), Some("revolute" | "continuous"));
    let joints: Vec<roxmltree::Node> = robot.children().filter(moving).collect();
    assert_eq!(joints.len(), 2);
    let link = |name: &str| {
        let l = robot.children().find(|n| n.has_tag_name("link") && n.attribute("name") == Some(name)).unwrap();
        let i = child(l, "inertial").unwrap();
        let c = num(child(i, "origin").and_then(|o| o.attribute("xyz")));
        let ixx = child(i, "inertia").unwrap().attribute("ixx").unwrap().parse().unwrap();
        PlanarLink { m: child(i, "mass").unwrap().attribute("value").unwrap().parse().unwrap(), c: [c[1], c[2]], ixx }
    };
    for j in &joints {
        assert_eq!(num(child(*j, "axis").and_then(|a| a.attribute("xyz"))), [1.0, 0.0, 0.0]);
        assert_eq!(num(child(*j, "origin").and_then(|o| o.attribute("rpy"))), [0.0, 0.0, 0.0]);
    }
    let child_of = |j: &roxmltree::Node| child(*j, "child").unwrap().attribute("link").unwrap().to_string();
    let o2 = num(child(joints[1], "origin").and_then(|o| o.attribute("xyz")));
    let damping = |j: &roxmltree::Node| child(*j, "dynamics").and_then(|d| d.attribute("damping")).map_or(0.0, |v| v.trim().parse().unwrap());
    ([link(&child_of(&joints[0])), link(&child_of(&joints[1]))], [o2[1], o2[2]], [damping(&joints[0]), damping(&joints[1])])
}

fn child<'a, 'i>(n: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    n.children().find(|c| c.has_tag_name(tag))
}

/// d/dφ of the rotation by φ about x, applied to p in the (y, z) plane.
fn d_rot(phi: f64, p: [f64; 2]) -> [f64; 2] {
    [-p[0] * phi.sin() - p[1] * phi.cos(), p[0] * phi.cos() - p[1] * phi.sin()]
}

/// Mass matrix and gravity gradient of the planar double pendulum at θ.
fn dynamics(links: &[PlanarLink; 2], o2: [f64; 2], th: [f64; 2], g: f64) -> ([[f64; 2]; 2], [f64; 2]) {
    let [l1, l2] = links;
    let phi2 = th[0] + th[1];
    // Jacobians of the centres: columns ∂/∂θ1, ∂/∂θ2
    let j1 = [d_rot(th[0], l1.c), [0.0, 0.0]];
    let a = d_rot(th[0], o2);
    let b = d_rot(phi2, l2.c);
    let j2 = [[a[0] + b[0], a[1] + b[1]], b];
    let mut m = [[0.0; 2]; 2];
    for r in 0..2 {
        for c in 0..2 {
            m[r][c] = l1.m * (j1[r][0] * j1[c][0] + j1[r][1] * j1[c][1]) + l2.m * (j2[r][0] * j2[c][0] + j2[r][1] * j2[c][1]) + l2.ixx;
        }
    }
    m[0][0] += l1.ixx;
    let grad = [g * (l1.m * j1[0][1] + l2.m * j2[0][1]), g * (l2.m * j2[1][1])];
    (m, grad)
}

/// Each file's small-oscillation period about its hanging equilibrium, from the
/// linearization of the file's own masses, centres, inertias and joint dampers (θ* by
/// Newton on the gravity gradient, stiffness by central differences of it, the damped
/// frequencies from the eigenvalues of [[0, I], [−M⁻¹K, −M⁻¹C]]; the files' dampers
/// overdamp the fast mode, so one mode swings), against maxdyn swinging from that mode's
/// shape with 1e-4 rad at dt 1e-3, timed over 6 periods. Measured: relative period errors
/// 5.25e-4, 4.69e-4, 5.25e-4 (double_pendulum at dt 5e-4: 1.81e-4, at 2.5e-4: 1.19e-4 —
/// the implicit dampers' first-order error, plus the decaying share of the other mode
/// in the start); bound 1e-3.
#[test]
fn small_oscillation_periods_match_the_linearization_of_the_file() {
    if !require::corpus("small_oscillation_periods_match_the_linearization_of_the_file", DIR) {
        return;
    }
    let g = 9.81;
    for file in FILES {
        let xml = std::fs::read_to_string(format!("{DIR}/{file}")).unwrap();
        let (links, o2, damping) = planar_pendulum(&xml);
        // the hanging equilibrium: both links below their joints
        let mut th = [std::f64::consts::PI, 0.0];
        let hessian = |th: [f64; 2]| {
            let h = 1e-6;
            let mut k = [[0.0; 2]; 2];
            for c in 0..2 {
                let (mut up, mut dn) = (th, th);
                up[c] += h;
                dn[c] -= h;
                let (gu, gd) = (dynamics(&links, o2, up, g).1, dynamics(&links, o2, dn, g).1);
                for r in 0..2 {
                    k[r][c] = (gu[r] - gd[r]) / (2.0 * h);
                }
            }
            k
        };
        for _ in 0..20 {
            let grad = dynamics(&links, o2, th, g).1;
            let k = hessian(th);
            let det = k[0][0] * k[1][1] - k[0][1] * k[1][0];
            th[0] -= (k[1][1] * grad[0] - k[0][1] * grad[1]) / det;
            th[1] -= (k[0][0] * grad[1] - k[1][0] * grad[0]) / det;
        }
        let (m, _) = dynamics(&links, o2, th, g);
        let k = hessian(th);
        // M q̈ + C q̇ + K q = 0 with C the joint dampers: the damped frequencies are the
        // imaginary parts of the eigenvalues of [[0, I], [−M⁻¹K, −M⁻¹C]]
        let m_inv = nalgebra::Matrix2::new(m[0][0], m[0][1], m[1][0], m[1][1]).try_inverse().unwrap();
        let mk = m_inv * nalgebra::Matrix2::new(k[0][0], k[0][1], k[1][0], k[1][1]);
        let mc = m_inv * nalgebra::Matrix2::new(damping[0], 0.0, 0.0, damping[1]);
        let mut a = nalgebra::Matrix4::<f64>::zeros();
        a[(0, 2)] = 1.0;
        a[(1, 3)] = 1.0;
        for r in 0..2 {
            for c in 0..2 {
                a[(2 + r, c)] = -mk[(r, c)];
                a[(2 + r, 2 + c)] = -mc[(r, c)];
            }
        }
        let mut omegas: Vec<f64> = a.complex_eigenvalues().iter().map(|e| e.im).filter(|&w| w > 0.0).collect();
        omegas.sort_by(f64::total_cmp);
        // without damping two modes oscillate; the files' dampers overdamp the fast one
        assert!(!omegas.is_empty() && omegas.len() == if damping == [0.0; 2] { 2 } else { 1 }, "{file}: {omegas:?}");
        for (n, omega) in omegas.into_iter().enumerate() {
            // the undamped mode shape of this mode starts the swing; the other mode's share
            // (damping couples them) decays first: the crossings are counted after it
            let lambda = {
                let (a2, b2, c2) = (m[0][0] * m[1][1] - m[0][1] * m[1][0], -(k[0][0] * m[1][1] + k[1][1] * m[0][0] - 2.0 * k[0][1] * m[0][1]), k[0][0] * k[1][1] - k[0][1] * k[1][0]);
                let disc = (b2 * b2 - 4.0 * a2 * c2).sqrt();
                [(-b2 - disc) / (2.0 * a2), (-b2 + disc) / (2.0 * a2)][n]
            };
            let mode = [-(k[0][1] - lambda * m[0][1]), k[0][0] - lambda * m[0][0]];
            let scale = 1e-4 / mode[0].abs().max(mode[1].abs());
            let u = Urdf::from_file(format!("{DIR}/{file}"), false).unwrap();
            let dt = 1e-3;
            let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), dt).unwrap();
            for j in 0..2 {
                s.set_joint_position(j, &[th[j] + scale * mode[j]]).unwrap();
            }
            // zero crossings of the larger coordinate's displacement
            let big = if mode[0].abs() >= mode[1].abs() { 0 } else { 1 };
            let offset = |s: &Sim| {
                let mut q = [0.0];
                s.joint_position(big, &mut q).unwrap();
                let d = q[0] - th[big];
                (d + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU) - std::f64::consts::PI
            };
            let mut crossings = Vec::new();
            let (mut prev, mut t) = (offset(&s), 0.0);
            while crossings.len() < 17 {
                s.step().unwrap();
                t += dt;
                let now = offset(&s);
                if prev * now < 0.0 {
                    crossings.push(t - dt * now / (now - prev));
                }
                prev = now;
                assert!(t < 100.0, "{file}: no oscillation");
            }
            let period = 2.0 * (crossings[16] - crossings[4]) / 12.0;
            let expected = std::f64::consts::TAU / omega;
            let err = (period - expected).abs() / expected;
            println!("{file}: mode ω = {omega:.6} rad/s, period {period:.9} s vs {expected:.9} s, relative error {err:.2e}");
            assert!(err < 1e-3, "{file}: period {period} vs {expected}");
        }
    }
}

/// The limit rule leaves a file without limits as it was: example-robot-data's double
/// pendulums (revolute joints without `<limit>`) load with no limit, and 1 s of swinging
/// from 1 rad is bit-identical with the limit reading on and off.
#[test]
fn limitless_double_pendulum_files_are_unchanged_by_the_limit_rule() {
    if !require::corpus("limitless_double_pendulum_files_are_unchanged_by_the_limit_rule", DIR) {
        return;
    }
    let dir = DIR;
    for file in FILES {
        let run = |joint_limits: bool| {
            let u = Urdf::from_file_with(format!("{dir}/{file}"), &UrdfOptions { joint_limits, ..UrdfOptions::default() }).unwrap();
            assert!(u.builder.joint_limits().is_empty(), "{file}");
            let mut s = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 1e-3).unwrap();
            s.set_joint_position(0, &[1.0]).unwrap();
            for _ in 0..1000 {
                s.step().unwrap();
            }
            (0..s.model().body_count()).map(|b| s.body_state(b).unwrap()).collect::<Vec<_>>()
        };
        assert_eq!(run(true), run(false), "{file}");
    }
}
