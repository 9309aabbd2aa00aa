//! Piles (issue 24): many mutually touching frictional bodies, whose contact forces are
//! statically indeterminate.

use maxdyn::{Builder, Inertia, Model, Parent, ShapeKind, Sim};
use std::sync::Arc;

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];

/// A turn by `a` (rad) about world axis `axis`.
fn turn(axis: usize, a: f64) -> [f64; 4] {
    let mut q = [(a / 2.0).cos(), 0.0, 0.0, 0.0];
    q[1 + axis] = (a / 2.0).sin();
    q
}

/// Twelve spheres (r 0.1 m, 0.1 kg) in a 2 × 2 × 3 grid of `spacing` (m), each layer
/// shifted by `shift` and lifted by `lift` (m) so the columns collapse into a pile on a
/// floor; every shape with friction `mu`; dt 0.01.
pub fn twelve_spheres(mu: f64, spacing: f64, shift: f64, lift: f64) -> Sim {
    let r = 0.1;
    let mut b = Builder::new();
    let floor = b.add_shape(Parent::World, ShapeKind::Plane, [0.0; 3], ID, &[]).unwrap();
    b.set_shape_friction(floor, mu).unwrap();
    for i in 0..12 {
        let body = b.add_body(0.1, Inertia::sphere(0.1, r).unwrap()).unwrap();
        let (gx, gy, layer) = ((i % 2) as f64, ((i / 2) % 2) as f64, (i / 4) as f64);
        let sh = shift * layer;
        b.set_body_pose(body, [spacing * gx + sh, spacing * gy - 0.5 * sh, r + lift + (2.0 * r + lift) * layer], ID).unwrap();
        let s = b.add_shape(body.into(), ShapeKind::Sphere, [0.0; 3], ID, &[r]).unwrap();
        b.set_shape_friction(s, mu).unwrap();
    }
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

/// What a pour drops into its box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pour {
    Spheres,
    Boxes,
    /// Spheres, boxes and capsules in turn.
    Mixed,
}

/// 100 bodies (0.1 kg, 0.1 m across) in 7 layers of a 4 × 4 grid, each layer shifted and
/// each body turned a little, dropped into a box of four walls (0.7 m square) on a floor;
/// every shape with friction `mu`; dt 0.01.
pub fn pour(kind: Pour, mu: f64) -> Sim {
    pour_of(kind, mu, 100)
}

/// The pour of `n` bodies: the grid's side g = ⌈√(n/7)⌉ (4 for 100) and the box's with it
/// (0.7 m × g/4), so that a pile of any size is about as deep as the 100 bodies' (7
/// layers at most); `POUR_CAPACITY` / 100 contact slots per body.
pub fn pour_of(kind: Pour, mu: f64, n: usize) -> Sim {
    pour_seeded(kind, mu, n, None)
}

/// [`pour_of`] with each body's start moved sideways by up to 1e-6 m, differently for
/// each `seed` (None: not moved): pours are chaotic, so a change to the solver is judged
/// on several such starts, not on one path.
pub fn pour_seeded(kind: Pour, mu: f64, n: usize, seed: Option<u64>) -> Sim {
    let mut rand = uniform(seed.unwrap_or(0));
    let mut jitter = move || if seed.is_some() { 1e-6 * rand() } else { 0.0 };
    let g = (n as f64 / 7.0).sqrt().ceil() as usize;
    let (r, half) = (0.05, 0.35 * g as f64 / 4.0);
    let mut b = Builder::new();
    let quarter = std::f64::consts::FRAC_PI_2;
    let walls = [([0.0; 3], ID), ([half, 0.0, 0.0], turn(1, -quarter)), ([-half, 0.0, 0.0], turn(1, quarter)), ([0.0, half, 0.0], turn(0, quarter)), ([0.0, -half, 0.0], turn(0, -quarter))];
    for (at, q) in walls {
        let s = b.add_shape(Parent::World, ShapeKind::Plane, at, q, &[]).unwrap();
        b.set_shape_friction(s, mu).unwrap();
    }
    for i in 0..n {
        let which = match kind {
            Pour::Spheres => 0,
            Pour::Boxes => 1,
            Pour::Mixed => i % 3,
        };
        let (inertia, shape, size): (Inertia, ShapeKind, Vec<f64>) = match which {
            0 => (Inertia::sphere(0.1, r).unwrap(), ShapeKind::Sphere, vec![r]),
            1 => (Inertia::cuboid(0.1, 2.0 * r, 2.0 * r, 2.0 * r).unwrap(), ShapeKind::Box, vec![r; 3]),
            _ => (Inertia::capsule(0.1, 0.6 * r, 0.8 * r).unwrap(), ShapeKind::Capsule, vec![0.6 * r, 0.4 * r]),
        };
        let body = b.add_body(0.1, inertia).unwrap();
        let (gx, gy, layer) = ((i % g) as f64, ((i / g) % g) as f64, (i / (g * g)) as f64);
        let (shift, first) = (0.012 * (layer - 3.0), -0.08 * (g as f64 - 1.0));
        let (jx, jy) = (jitter(), jitter());
        b.set_body_pose(body, [first + 0.16 * gx + shift + jx, first + 0.16 * gy - 0.7 * shift + jy, 0.1 + 0.16 * layer], turn(i % 3, 0.3 * (i as f64 * 0.7).sin())).unwrap();
        let s = b.add_shape(body.into(), shape, [0.0; 3], ID, &size).unwrap();
        b.set_shape_friction(s, mu).unwrap();
    }
    // a pile this dense holds more contact slots than the default 40 per shape (the
    // frictionless box pour: 4005 at step 89, every neighbour within the 5 cm margin)
    b.set_contact_capacity(POUR_CAPACITY / 100 * n).unwrap();
    Sim::new(Arc::new(Model::new(&b).unwrap()), 0.01).unwrap()
}

/// Contact slots of a pour's model: 100 per body.
pub const POUR_CAPACITY: usize = 10000;

/// Kinetic energy plus the potential at the middle of the interval the velocities span
/// (x + v dt/2: they carry x_k to the prediction x_{k+1}), which a body in free fall keeps
/// under the step's integrator (with the potential at x it gains m g² dt²/2 a step): the
/// energy a pile's steps should only lose.
pub fn midpoint_energy(sim: &Sim) -> f64 {
    let (kinetic, potential) = sim.energy();
    let model = sim.model();
    let half_step: f64 = (0..model.body_count())
        .map(|i| {
            let st = sim.body_state(i).expect("a body of the model");
            let g_dot_v: f64 = (0..3).map(|j| model.gravity[j] * st[7 + j]).sum();
            -model.bodies[i].mass * g_dot_v * sim.dt() / 2.0
        })
        .sum();
    kinetic + potential + half_step
}

/// The A1 of example-robot-data loaded for a drop: floating, its collision shapes, a
/// ground plane and its joint limits on. Its joints in the order FR, FL, RR, RL × hip,
/// thigh, calf. `urdf` is the path of `a1.urdf` (the corpus of tests/setup.sh).
pub fn a1_for_drops(urdf: &str) -> Result<(Arc<Model>, Vec<usize>), maxdyn::Error> {
    use maxdyn::urdf::{Urdf, UrdfOptions};
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, ..UrdfOptions::default() };
    let u = Urdf::from_file_with(urdf, &options)?;
    let model = Arc::new(Model::new(&u.builder)?);
    let joints = ["FR", "FL", "RR", "RL"].iter().flat_map(|l| ["hip", "thigh", "calf"].map(|p| u.joint(&format!("{l}_{p}_joint")).unwrap())).collect();
    Ok((model, joints))
}

/// The A1 of [`a1_for_drops`] with each leg joint held at the stand by the model's own
/// joint spring and damper (stiffness `A1_KP`, damping `A1_KD`, rest `A1_STAND`): the
/// PD stand of [`a1_drop_rollout`] as force elements, which the step integrates
/// implicitly, where the PD inputs are explicit (set from the last step's state).
pub fn a1_for_servo_drops(urdf: &str) -> Result<(Arc<Model>, Vec<usize>), maxdyn::Error> {
    use maxdyn::urdf::{Urdf, UrdfOptions};
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, ..UrdfOptions::default() };
    let mut u = Urdf::from_file_with(urdf, &options)?;
    let joints: Vec<usize> = ["FR", "FL", "RR", "RL"].iter().flat_map(|l| ["hip", "thigh", "calf"].map(|p| u.joint(&format!("{l}_{p}_joint")).unwrap())).collect();
    for (i, &j) in joints.iter().enumerate() {
        u.builder.set_joint_spring(j, &[A1_KP[i % 3]], &[A1_STAND[i % 3]])?;
        u.builder.set_joint_damper(j, &[A1_KD[i % 3]])?;
    }
    Ok((Arc::new(Model::new(&u.builder)?), joints))
}

/// The standing joint angles of an A1 leg (hip, thigh, calf) and the PD gains that hold
/// them (kp, kd per joint of a leg).
pub const A1_STAND: [f64; 3] = [0.0, 0.9, -1.8];
pub const A1_KP: [f64; 3] = [100.0, 80.0, 60.0];
pub const A1_KD: [f64; 3] = [5.0, 4.0, 3.0];

/// Drop `seed`'s start: joints ±0.3 rad about the stand, the robot lifted so its lowest
/// body's centre is 0.25–0.35 m up, at rest.
pub fn a1_drop(model: &Arc<Model>, joints: &[usize], dt: f64, seed: u64) -> Sim {
    let mut sim = Sim::new(model.clone(), dt).unwrap();
    let mut rand = uniform(seed);
    for (k, &j) in joints.iter().enumerate() {
        sim.set_joint_position(j, &[A1_STAND[k % 3] + 0.3 * rand()]).unwrap();
    }
    let lowest = (0..model.body_count()).map(|i| sim.body_state(i).unwrap()[2]).fold(f64::INFINITY, f64::min);
    let lift = 0.3 + 0.05 * rand();
    for i in 0..model.body_count() {
        let mut s = sim.body_state(i).unwrap();
        s[2] += lift - lowest;
        sim.set_body_state(i, &s).unwrap();
    }
    sim
}

/// The joint angles of an A1 leg (hip, thigh, calf) in a deep crouch (trunk about 0.13 m
/// lower than at [`A1_STAND`]).
pub const A1_CROUCH: [f64; 3] = [0.0, 1.3, -2.5];

/// The A1 on its servos (`a1_for_servo_drops`) crouches and rises by moving the servos'
/// targets between steps (`Sim::set_joint_target`, each target with its rate): from
/// [`A1_STAND`] to [`A1_CROUCH`] over 1 s, held 0.5 s, back over 1 s, held 0.5 s. Returns the
/// first failed step, if any, and the trunk's height at the end of the crouch's hold.
pub fn a1_crouch_rollout(sim: &mut Sim, joints: &[usize]) -> (Option<usize>, f64) {
    let dt = sim.dt();
    // (seconds, share of the way to the crouch at the start and at the end)
    let phases = [(1.0, 0.0, 1.0), (0.5, 1.0, 1.0), (1.0, 1.0, 0.0), (0.5, 0.0, 0.0)];
    let (mut k, mut crouched) = (0, f64::NAN);
    for (p, &(seconds, from, to)) in phases.iter().enumerate() {
        let n = (seconds / dt).round() as usize;
        let rate = (to - from) / seconds;
        for i in 1..=n {
            // the target for the time the step ends
            let share = from + (to - from) * i as f64 / n as f64;
            for (m, &j) in joints.iter().enumerate() {
                let span = A1_CROUCH[m % 3] - A1_STAND[m % 3];
                sim.set_joint_target(j, &[A1_STAND[m % 3] + share * span], &[rate * span]).unwrap();
            }
            if sim.step().is_err() {
                return (Some(k), crouched);
            }
            k += 1;
        }
        if p == 1 {
            crouched = sim.body_state(0).unwrap()[2];
        }
    }
    (None, crouched)
}

/// Numbers uniform in [−1, 1), a different sequence per `seed` (a linear congruential
/// generator: the scenes' starts need repeatability, not quality).
fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// One drop of `seconds`: limp, or each joint PD-held at the stand. The step at which it
/// first failed, if it did.
pub fn a1_drop_rollout(sim: &mut Sim, joints: &[usize], pd: bool, seconds: f64) -> Option<usize> {
    let (mut q, mut w) = ([0.0], [0.0]);
    for k in 0..(seconds / sim.dt()).round() as usize {
        if pd {
            for (i, &j) in joints.iter().enumerate() {
                sim.joint_position(j, &mut q).unwrap();
                sim.joint_velocity(j, &mut w).unwrap();
                sim.set_joint_input(j, &[A1_KP[i % 3] * (A1_STAND[i % 3] - q[0]) - A1_KD[i % 3] * w[0]]).unwrap();
            }
        }
        if sim.step().is_err() {
            return Some(k);
        }
    }
    None
}
