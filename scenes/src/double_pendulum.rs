//! SCENARIOS A2: the double pendulum of two Box(0.1, 0.1, 0.1, 1) at 1 m, revolute about
//! x, both horizontal at rest; and the same pendulum in absolute angles for the explicit
//! integrators it is compared with (Heun, RK4), which drift in energy.

use maxdyn::{Builder, Inertia, JointType, Parent, Sim};
use std::f64::consts::FRAC_PI_2;

use crate::mechanisms::{sim as make_sim, X};

/// The maxdyn model, released from the horizontal.
pub fn sim(dt: f64) -> Sim {
    let mut b = Builder::new();
    let b1 = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 0.1).unwrap()).unwrap();
    let b2 = b.add_body(1.0, Inertia::cuboid(1.0, 0.1, 0.1, 0.1).unwrap()).unwrap();
    let j1 = b.add_joint(JointType::Revolute, Parent::World, b1, [0.0; 3], [0.0, 0.0, 1.0], X).unwrap();
    b.add_joint(JointType::Revolute, b1, b2, [0.0; 3], [0.0, 0.0, 1.0], X).unwrap();
    let mut s = make_sim(&b, dt);
    s.set_joint_position(j1, &[FRAC_PI_2]).unwrap();
    s
}

/// State in absolute angles: (φ1, φ2, ω1, ω2), released from the horizontal.
pub type State = [f64; 4];
pub const START: State = [FRAC_PI_2, FRAC_PI_2, 0.0, 0.0];

const M: f64 = 1.0;
const L: f64 = 1.0;
const G: f64 = 9.81;
/// Each box's inertia about its centre, about x.
const I: f64 = 1.0 * 0.02 / 12.0;

pub fn energy(s: State) -> f64 {
    let (p1, p2, w1, w2) = (s[0], s[1], s[2], s[3]);
    let k = 0.5 * (2.0 * M * L * L + I) * w1 * w1 + 0.5 * (M * L * L + I) * w2 * w2 + M * L * L * (p1 - p2).cos() * w1 * w2;
    k - 2.0 * M * G * L * p1.cos() - M * G * L * p2.cos()
}

/// The equations of motion: ds/dt.
pub fn rate(s: State) -> State {
    let (p1, p2, w1, w2) = (s[0], s[1], s[2], s[3]);
    let d = p1 - p2;
    let (a, b, c, e) = (2.0 * M * L * L + I, M * L * L * d.cos(), M * L * L * d.cos(), M * L * L + I);
    let r1 = -M * L * L * d.sin() * w2 * w2 - 2.0 * M * G * L * p1.sin();
    let r2 = M * L * L * d.sin() * w1 * w1 - M * G * L * p2.sin();
    let det = a * e - b * c;
    [w1, w2, (e * r1 - b * r2) / det, (a * r2 - c * r1) / det]
}

/// One step of Heun's method (RK2).
pub fn heun(s: State, dt: f64) -> State {
    let k1 = rate(s);
    let p: State = std::array::from_fn(|k| s[k] + dt * k1[k]);
    let k2 = rate(p);
    std::array::from_fn(|k| s[k] + 0.5 * dt * (k1[k] + k2[k]))
}

/// One step of the classical RK4.
pub fn rk4(s: State, dt: f64) -> State {
    let at = |k: &State, h: f64| -> State { std::array::from_fn(|i| s[i] + h * k[i]) };
    let k1 = rate(s);
    let k2 = rate(at(&k1, 0.5 * dt));
    let k3 = rate(at(&k2, 0.5 * dt));
    let k4 = rate(at(&k3, dt));
    std::array::from_fn(|i| s[i] + dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
}
