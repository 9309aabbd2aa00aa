//! The mechanisms of SCENARIOS A1, A8, B1, B3, B6, built through the public Rust API.
//! Used by the examples, benchmarks and integration tests.

use maxdyn::{Builder, Inertia, JointType, Model, Parent, Sim};
use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_4, PI};
use std::sync::Arc;

pub const X: [f64; 3] = [1.0, 0.0, 0.0];
pub const Y: [f64; 3] = [0.0, 1.0, 0.0];

/// Quaternion (w, x, y, z) of a rotation by `angle` about a unit axis.
pub fn axis_angle(axis: [f64; 3], angle: f64) -> [f64; 4] {
    let (s, c) = (0.5 * angle).sin_cos();
    [c, s * axis[0], s * axis[1], s * axis[2]]
}

pub fn sim(b: &Builder, dt: f64) -> Sim {
    Sim::new(Arc::new(Model::new(b).expect("valid model")), dt).expect("valid sim")
}

/// SCENARIOS A1: world + three links closed into one planar loop by four revolute joints
/// about x (three constraint rows redundant in 3-D). Joint 3 closes the loop.
pub fn three_link_loop(dt: f64) -> Sim {
    let l = [1.0, FRAC_1_SQRT_2, 1.0];
    let mut b = Builder::new();
    for &li in &l {
        b.add_body(li, Inertia::cuboid(li, 0.1, 0.1, li).unwrap()).unwrap();
    }
    let j0 = b.add_joint(JointType::Revolute, Parent::World, 0, [0.0; 3], [0.0, 0.0, 0.5], X).unwrap();
    let j1 = b.add_joint(JointType::Revolute, Parent::World, 2, [0.0, 1.0, 0.0], [0.0, 0.0, 0.5], X).unwrap();
    let j2 = b.add_joint(JointType::Revolute, 0, 1, [0.0, 0.0, -0.5], [0.0, 0.0, l[1] / 2.0], X).unwrap();
    b.add_joint(JointType::Revolute, 1, 2, [0.0, 0.0, -l[1] / 2.0], [0.0, 0.0, -0.5], X).unwrap();
    let mut s = sim(&b, dt);
    s.set_joint_position(j0, &[2.842889445268244]).unwrap();
    s.set_joint_position(j2, &[-1.209429202890086]).unwrap();
    s.set_joint_position(j1, &[PI]).unwrap();
    s
}

/// A planar crank-rocker four-bar (ground 2 m, crank 0.5 m, coupler 2 m, rocker 1 m)
/// closed with four parallel revolute joints about x, crank at 0.3 rad, at rest (gravity
/// drives it). Joints 0–2 form the tree, joint 3 closes the loop.
pub fn crank_rocker(dt: f64) -> Sim {
    let (ground, crank, coupler, rocker) = (2.0, 0.5, 2.0, 1.0);
    let mut b = Builder::new();
    let c = b.add_body(0.5, Inertia::cuboid(0.5, 0.05, 0.05, crank).unwrap()).unwrap();
    let k = b.add_body(2.0, Inertia::cuboid(2.0, 0.05, 0.05, coupler).unwrap()).unwrap();
    let r = b.add_body(1.0, Inertia::cuboid(1.0, 0.05, 0.05, rocker).unwrap()).unwrap();
    let jc = b.add_joint(JointType::Revolute, Parent::World, c, [0.0; 3], [0.0, 0.0, -crank / 2.0], X).unwrap();
    let jk = b.add_joint(JointType::Revolute, c, k, [0.0, 0.0, crank / 2.0], [0.0, 0.0, -coupler / 2.0], X).unwrap();
    let jr = b.add_joint(JointType::Revolute, Parent::World, r, [0.0, ground, 0.0], [0.0, 0.0, -rocker / 2.0], X).unwrap();
    b.add_joint(JointType::Revolute, k, r, [0.0, 0.0, coupler / 2.0], [0.0, 0.0, rocker / 2.0], X).unwrap();
    let mut s = sim(&b, dt);
    // crank up at 0 rad (along +z); solve the loop closure in the plane (y, z)
    let theta: f64 = 0.3;
    let pa = [crank * -theta.sin(), crank * theta.cos()]; // crank tip (rotation about +x)
    let (gy, d) = (ground, ((ground - pa[0]).powi(2) + pa[1].powi(2)).sqrt());
    // rocker tip P with |P − A| = coupler, |P − (gy, 0)| = rocker (upper solution)
    let a = (coupler * coupler - rocker * rocker + d * d) / (2.0 * d);
    let h = (coupler * coupler - a * a).sqrt();
    let ex = [(gy - pa[0]) / d, -pa[1] / d];
    let p = [pa[0] + a * ex[0] - h * ex[1], pa[1] + a * ex[1] + h * ex[0]];
    let ang = |dy: f64, dz: f64| (-dy).atan2(dz); // absolute angle about +x of a link along +z
    let t_c = theta;
    let t_k = ang(p[0] - pa[0], p[1] - pa[1]);
    let t_r = ang(p[0] - gy, p[1]);
    s.set_joint_position(jc, &[t_c]).unwrap();
    s.set_joint_position(jk, &[t_k - t_c]).unwrap();
    s.set_joint_position(jr, &[t_r]).unwrap();
    s
}

/// SCENARIOS A8: the double four-bar (IFToMM). Plane x–z, axes along y, gravity −z.
/// Bodies 0–2 cranks (pivots at x = 0, 1, 2), 3–4 couplers; bars along their body z.
pub fn double_four_bar(dt: f64) -> Sim {
    let mut b = Builder::new();
    let bar = Inertia::diagonal(1.0 / 12.0, 1.0 / 12.0, 1e-4).unwrap();
    for i in 0..3 {
        let c = b.add_body(1.0, bar).unwrap();
        b.set_body_pose(c, [i as f64, 0.0, 0.5], [1.0, 0.0, 0.0, 0.0]).unwrap();
        // every crank turns at 1 rad/s about +y: its top moves at +1 m/s along x
        b.set_body_velocity(c, [0.5, 0.0, 0.0], [0.0, 1.0, 0.0]).unwrap();
    }
    for i in 0..2 {
        let k = b.add_body(1.0, bar).unwrap();
        b.set_body_pose(k, [i as f64 + 0.5, 0.0, 1.0], axis_angle(Y, PI / 2.0)).unwrap();
        b.set_body_velocity(k, [1.0, 0.0, 0.0], [0.0; 3]).unwrap();
    }
    let (lo, hi) = ([0.0, 0.0, -0.5], [0.0, 0.0, 0.5]);
    for i in 0..3 {
        b.add_joint(JointType::Revolute, Parent::World, i, [i as f64, 0.0, 0.0], lo, Y).unwrap();
    }
    b.add_joint(JointType::Revolute, 0, 3, hi, lo, Y).unwrap();
    b.add_joint(JointType::Revolute, 1, 3, hi, hi, Y).unwrap();
    b.add_joint(JointType::Revolute, 1, 4, hi, lo, Y).unwrap();
    b.add_joint(JointType::Revolute, 2, 4, hi, hi, Y).unwrap();
    sim(&b, dt)
}

/// SCENARIOS B1: n-link pendulum of Cylinder(0.05, 1, 1), revolute about x or spherical,
/// link 1 rotated π/4, the others straight, at rest.
pub fn pendulum_chain(n: usize, spherical: bool, dt: f64) -> Sim {
    let kind = if spherical { JointType::Spherical } else { JointType::Revolute };
    let mut b = Builder::new();
    for i in 0..n {
        b.add_body(1.0, Inertia::cylinder(1.0, 0.05, 1.0).unwrap()).unwrap();
        let parent = if i == 0 { Parent::World } else { Parent::Body(i - 1) };
        let p1 = if i == 0 { [0.0; 3] } else { [0.0, 0.0, -0.5] };
        b.add_joint(kind, parent, i, p1, [0.0, 0.0, 0.5], X).unwrap();
    }
    let mut s = sim(&b, dt);
    let first: &[f64] = if spherical { &[FRAC_PI_4, 0.0, 0.0] } else { &[FRAC_PI_4] };
    s.set_joint_position(0, first).unwrap();
    s
}

/// SCENARIOS B3: `segments` four-link loops of Box(0.1, 0.1, 1, 1) hanging one below the
/// other. Each segment is a rhombus: links a, b hang from the segment's top point (the
/// world origin, or the previous segment's bottom), c below a, d below b, and the
/// revolute joint c–d at the bottom closes the loop. All axes along x.
pub fn loop_segment_chain(segments: usize, dt: f64) -> Sim {
    let alpha: f64 = 0.5; // half opening angle of each rhombus
    let tilt: f64 = 0.2; // the whole chain starts swung aside
    let link = Inertia::cuboid(1.0, 0.1, 0.1, 1.0).unwrap();
    let (top, bot) = ([0.0, 0.0, 0.5], [0.0, 0.0, -0.5]);
    let mut b = Builder::new();
    let mut above: Option<usize> = None; // body whose bottom end is this segment's top point
    let mut tree_joints = Vec::new();
    for _ in 0..segments {
        let ids: Vec<usize> = (0..4).map(|_| b.add_body(1.0, link).unwrap()).collect();
        let (pa, pp) = match above {
            None => (Parent::World, [0.0; 3]),
            Some(c) => (Parent::Body(c), bot),
        };
        let ja = b.add_joint(JointType::Revolute, pa, ids[0], pp, top, X).unwrap();
        let jb = b.add_joint(JointType::Revolute, pa, ids[1], pp, top, X).unwrap();
        let jc = b.add_joint(JointType::Revolute, ids[0], ids[2], bot, top, X).unwrap();
        let jd = b.add_joint(JointType::Revolute, ids[1], ids[3], bot, top, X).unwrap();
        b.add_joint(JointType::Revolute, ids[2], ids[3], bot, bot, X).unwrap();
        tree_joints.push((above.is_none(), ja, jb, jc, jd));
        above = Some(ids[2]);
    }
    let mut s = sim(&b, dt);
    // absolute angles: a at tilt+α, b at tilt−α, c at tilt−α, d at tilt+α; the next
    // segment hangs from c, whose absolute angle is tilt−α
    for (k, &(first, ja, jb, jc, jd)) in tree_joints.iter().enumerate() {
        let parent_angle = if first { 0.0 } else { tilt - alpha };
        let _ = k;
        s.set_joint_position(ja, &[tilt + alpha - parent_angle]).unwrap();
        s.set_joint_position(jb, &[tilt - alpha - parent_angle]).unwrap();
        s.set_joint_position(jc, &[-2.0 * alpha]).unwrap();
        s.set_joint_position(jd, &[2.0 * alpha]).unwrap();
    }
    s
}

/// SCENARIOS B2: n spheres r = 0.25, m = 1, centres 1 m apart on spherical joints, the
/// first body free, the chain straight and rising at 45° (first body rotated 3π/4 about
/// x), every sphere in ground contact with `friction` (none when negative) and the given
/// cone. Returns the builder and the contact ids.
pub fn sphere_chain(n: usize, friction: f64, cone: maxdyn::ConeType) -> (Builder, Vec<usize>) {
    sphere_chain_rising(n, friction, cone, FRAC_PI_4)
}

/// The B2 chain rising at `elevation` (rad) above the ground instead of 45°.
pub fn sphere_chain_rising(n: usize, friction: f64, cone: maxdyn::ConeType, elevation: f64) -> (Builder, Vec<usize>) {
    use maxdyn::math::{from_rotation_vector, rotation, V3};
    let r = 0.25;
    let mut b = Builder::new();
    // body −z (the direction of the next link) rotated up to `elevation`
    let q0 = from_rotation_vector(&V3::new(std::f64::consts::PI - elevation, 0.0, 0.0));
    let rot = rotation(&q0);
    let mut contacts = Vec::new();
    for i in 0..n {
        let body = b.add_body(1.0, Inertia::sphere(1.0, r).unwrap()).unwrap();
        let x = V3::new(0.0, 0.0, r) + rot * V3::new(0.0, 0.0, -1.0) * i as f64;
        b.set_body_pose(body, [x.x, x.y, x.z], [q0[0], q0[1], q0[2], q0[3]]).unwrap();
        if i > 0 {
            b.add_joint(JointType::Spherical, i - 1, i, [0.0, 0.0, -0.5], [0.0, 0.0, 0.5], X).unwrap();
        }
        if friction >= 0.0 {
            let c = b.add_ground_contact(body, [0.0; 3], r, friction).unwrap();
            if cone == maxdyn::ConeType::Nonlinear {
                b.set_contact_cone(c, cone, 2).unwrap();
            }
            contacts.push(c);
        }
    }
    (b, contacts)
}

/// A 1 m × 1 m × 0.1 m plate of 10 kg resting on the ground on `n` point contacts laid
/// out in a square grid on its bottom face (side ⌈√n⌉, the first n points), friction
/// `friction` on the linearized cone: many contacts on one body (issue 16: a star of
/// contacts is a tree, and its cost must be linear in n).
pub fn plate_on_points(n: usize, friction: f64) -> Builder {
    let mut b = Builder::new();
    let plate = b.add_body(10.0, maxdyn::Inertia::cuboid(10.0, 1.0, 1.0, 0.1).unwrap()).unwrap();
    b.set_body_pose(plate, [0.0, 0.0, 0.05], [1.0, 0.0, 0.0, 0.0]).unwrap();
    let side = (n as f64).sqrt().ceil() as usize;
    for k in 0..n {
        let (i, j) = (k % side, k / side);
        let at = |i: usize| if side == 1 { 0.0 } else { -0.5 + i as f64 / (side - 1) as f64 };
        b.add_ground_contact(plate, [at(i), at(j), -0.05], 0.0, friction).unwrap();
    }
    b
}
