//! Talos (`talos_reduced.urdf` of example-robot-data, its meshes as convex hulls) standing
//! on its mesh feet (issue 25): floating, ground plane, every joint held at its zero pose
//! by a joint spring and damper — force elements the step integrates (the damper
//! implicitly), as `scenes::piles::a1_for_servo_drops` holds the A1 — started 1 mm above
//! the ground, 3 s at dt 0.002. Penetration is measured from the poses: every shape's
//! lowest point, exactly (hull vertices, primitives' support).

use maxdyn::math::{rotation, V4};
use maxdyn::model::shape::Geometry;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};
use maxdyn_scenes::heights::lowest;
use std::sync::Arc;

const ROBOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots");

/// Every joint's spring stiffness (N·m/rad) and damping (N·m·s/rad) about the zero pose
/// (500 / 20 does not hold it: below; 10000 / 100 does too).
const KP: f64 = 2000.0;
const KD: f64 = 50.0;
const DT: f64 = 0.002;
const STEPS: usize = 1500;

/// What a stand measured.
#[derive(Debug)]
struct Stand {
    /// Lowest point of any shape over every step (m; negative: in the ground).
    deepest: f64,
    /// Largest distance of the trunk's centre of mass from its start (m).
    drift: f64,
    /// Ground contact points carrying force at the end, per foot (left, right).
    feet_points: (usize, usize),
    /// Ground normal forces at the end over m g.
    ground_load: f64,
    /// Self-contact normal forces at the end (N).
    self_load: f64,
    /// Fastest body at the end (m/s).
    speed: f64,
    /// Depth the first step projected out of (a start in penetration).
    start_penetration: f64,
    /// The first step after which a shape is deeper than 1e-9 m in the ground, and how deep.
    first_sink: Option<(usize, f64)>,
    /// The left foot's hull at the end: its vertices within 1 mm of the ground, and the
    /// height of the highest of them (m).
    sole: (usize, f64),
}

/// How the joints are held at zero.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Hold {
    /// Joint springs `kp` and dampers `kd` (force elements of the model).
    Springs,
    /// PD inputs −kp q − kd q̇ set before each step from the last state.
    Inputs,
}

/// Talos floating on the ground plane, held at its zero pose with stiffness `kp` and
/// damping `kd`, 3 s; `srdf`: self-collision on with the robot's SRDF applied. Err: the
/// step that failed and why.
fn stand(srdf: bool, hold: Hold, kp: f64, kd: f64) -> Result<Stand, (usize, String)> {
    let urdf = format!("{ROBOTS}/talos_data/robots/talos_reduced.urdf");
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, self_collision: srdf, ..UrdfOptions::default() };
    let mut u = Urdf::from_file_with(&urdf, &options).unwrap();
    if srdf {
        let report = u.apply_srdf_file(format!("{ROBOTS}/talos_data/srdf/talos.srdf")).unwrap();
        // measured: 459 <disable_collisions>, 433 shape pairs excluded
        assert_eq!((report.disabled_links, report.excluded_shape_pairs), (459, 433));
    }
    // 47 of its 52 collisions are meshes: every one is a shape
    let hulls = (0..u.builder.shape_count()).filter(|&s| matches!(u.builder.shape(s).unwrap().geometry, Geometry::Hull(_))).count();
    assert_eq!((hulls, u.builder.shape_count()), (47, 53), "47 mesh hulls, 5 primitives, the ground");
    let mut joints: Vec<usize> = u.joints.values().copied().collect();
    joints.sort();
    for &j in joints.iter().filter(|_| hold == Hold::Springs) {
        u.builder.set_joint_spring(j, &[kp], &[0.0]).unwrap();
        u.builder.set_joint_damper(j, &[kd]).unwrap();
    }
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let weight = model.bodies.iter().map(|b| b.mass).sum::<f64>() * 9.81;
    let mut sim = Sim::new(model.clone(), DT).unwrap();
    // a touchdown: the lowest point of any shape starts 1 mm above the ground
    let lift = 1e-3 - lowest(&model, &sim);
    for i in 0..model.body_count() {
        let mut s = sim.body_state(i).unwrap();
        s[2] += lift;
        sim.set_body_state(i, &s).unwrap();
    }
    let trunk = u.body_of("base_link").unwrap();
    let feet = (u.body_of("leg_left_6_link").unwrap(), u.body_of("leg_right_6_link").unwrap());
    let start = sim.body_state(trunk).unwrap();
    let (mut deepest, mut drift, mut start_penetration, mut first_sink) = (f64::INFINITY, 0.0f64, 0.0, None);
    let (mut q, mut w) = ([0.0], [0.0]);
    for k in 0..STEPS {
        for &j in joints.iter().filter(|_| hold == Hold::Inputs) {
            sim.joint_position(j, &mut q).unwrap();
            sim.joint_velocity(j, &mut w).unwrap();
            sim.set_joint_input(j, &[-kp * q[0] - kd * w[0]]).unwrap();
        }
        if let Err(e) = sim.step() {
            return Err((k, format!("{e}; {:?}", sim.stats())));
        }
        if k == 0 {
            start_penetration = sim.resolved_penetration();
        }
        let low = lowest(&model, &sim);
        if low < -1e-9 && first_sink.is_none() {
            first_sink = Some((k, low));
        }
        deepest = deepest.min(low);
        let s = sim.body_state(trunk).unwrap();
        drift = drift.max(((s[0] - start[0]).powi(2) + (s[1] - start[1]).powi(2) + (s[2] - start[2]).powi(2)).sqrt());
    }
    let foot = u.link_shapes["leg_left_6_link"][0];
    let Geometry::Hull(h) = &model.collision.shapes[foot].geometry else { panic!("the foot is a mesh hull") };
    let f = sim.body_state(feet.0).unwrap();
    let shape = &model.collision.shapes[foot];
    let r = rotation(&V4::new(f[3], f[4], f[5], f[6]));
    let heights: Vec<f64> = h.points.iter().map(|p| f[2] + (r * (shape.x + rotation(&shape.q) * p)).z).filter(|&z| z < 1e-3).collect();
    let sole = (heights.len(), heights.iter().copied().fold(0.0, f64::max));
    let carrying: Vec<_> = sim.shape_contacts().filter(|c| c.normal_force > 1e-6 * weight).collect();
    let on_ground = |body| carrying.iter().filter(|c| c.body_a == body && c.body_b.is_none()).count();
    let speed = (0..model.body_count()).map(|i| sim.body_state(i).unwrap()[7..10].iter().map(|v| v * v).sum::<f64>().sqrt()).fold(0.0, f64::max);
    Ok(Stand {
        deepest,
        drift,
        feet_points: (on_ground(feet.0), on_ground(feet.1)),
        ground_load: carrying.iter().filter(|c| c.body_b.is_none()).map(|c| c.normal_force).sum::<f64>() / weight,
        self_load: carrying.iter().filter(|c| c.body_b.is_some()).map(|c| c.normal_force).sum(),
        speed,
        start_penetration,
        first_sink,
        sole,
    })
}

/// The bar of issue 25: 3 s at dt 0.002, every step OK, the trunk within 5 cm of its start,
/// no shape below the ground by more than 1e-6 m. Each foot rests on 3 points: the hull of
/// `ankle_X_collision.stl` has no flat sole (at rest, 20 of its vertices are within 1 mm of
/// the ground, the highest of them 0.92 mm up), and its face that lands on the ground is a triangle.
#[test]
fn talos_stands_on_its_mesh_feet() {
    if !crate::require::corpus("talos_stands_on_its_mesh_feet", ROBOTS) {
        return;
    }
    let s = stand(false, Hold::Springs, KP, KD).unwrap();
    println!("Talos standing 3 s at dt {DT}: {s:?}");
    // measured: deepest −2.8e-17 m, drift 2.70e-3 m, 3 + 3 points, ground load 1 + 3.3e-6;
    // the whole robot still sways slowly in pitch on its ankle springs (3.9e-3 m/s at the
    // head, 3.2e-3 rad/s, decaying: 2e-2 m/s after the landing)
    assert!(s.deepest > -1e-12, "a shape sank {:e} m into the ground", s.deepest);
    assert!(s.drift < 5e-3, "the trunk moved {} m", s.drift);
    assert_eq!(s.feet_points, (3, 3), "each foot on its hull's landing face: {s:?}");
    assert!(s.sole.0 == 20 && (s.sole.1 - 9.2e-4).abs() < 1e-5, "the sole is not flat: {s:?}");
    assert!((s.ground_load - 1.0).abs() < 3e-5, "the feet carry its weight: {s:?}");
    assert!(s.speed < 1e-2, "stands: {s:?}");
    // five times stiffer it stands as well (measured: drift 1.18e-3 m, deepest −2.8e-17 m)
    let stiff = stand(false, Hold::Springs, 10000.0, 100.0).unwrap();
    println!("Talos held at 10000 / 100: {stiff:?}");
    assert!(stiff.deepest > -1e-12 && stiff.drift < 5e-3, "{stiff:?}");
    // the same gains as PD inputs set from the last state (explicit, a step behind) do not
    // hold it at this dt: measured, step 11 is NOT_CONVERGED (12 before the polish opened
    // contacts that would pull, 13 before the steps searched the shapes again at their
    // solution: the unstable controller's impacts differ)
    let (step, why) = stand(false, Hold::Inputs, KP, KD).unwrap_err();
    println!("Talos held by PD inputs: step {step} failed: {why}");
    assert!(step == 11 && why.contains("did not converge"), "step {step}: {why}");
}

/// With self-collision on and the robot's SRDF applied, it stands the same, but the zero
/// pose is not free of self-contact: the grippers start 7.1 cm inside the thighs' hulls
/// (`arm_*_7_link`, `gripper_*_motor_single_link` against `leg_*_3_link`, pairs the SRDF
/// does not disable), so the first step projects them apart and the arm springs then
/// press the grippers on the thighs.
#[test]
fn talos_with_its_srdf_stands_with_its_grippers_on_its_thighs() {
    if !crate::require::corpus("talos_with_its_srdf_stands_with_its_grippers_on_its_thighs", ROBOTS) {
        return;
    }
    let s = stand(true, Hold::Springs, KP, KD).unwrap();
    println!("Talos with self-collision and its SRDF, 3 s at dt {DT}: {s:?}");
    // measured: deepest −1.2e-15 m, drift 1.12e-3 m, start 7.08e-2 m deep, 572 N between
    // the grippers and the thighs
    assert!(s.deepest > -1e-12, "a shape sank {:e} m into the ground", s.deepest);
    assert!(s.drift < 5e-3, "the trunk moved {} m", s.drift);
    assert!((s.start_penetration - 7.08e-2).abs() < 1e-4, "the grippers start inside the thighs' hulls: {s:?}");
    assert!((s.self_load - 572.3).abs() < 1.0, "the arm springs press the grippers on the thighs: {s:?}");
}

/// Held too softly (500 N·m/rad, 20 N·m·s/rad) it sags and falls over, every step OK,
/// without a shape in the ground. A foot landing heel first has its heel's face as the
/// points found at the step's prediction (the hull face most against the ground, at its
/// lowest vertex); as the step turns the sole flat, the sole's front vertex, on another
/// face, went 1.77e-5 m into the ground (4.59e-5 m at the deepest as it fell over) until
/// the step searched the shapes again at its solution and solved again with those points
/// too (`step::collide::search_at_solution`).
#[test]
fn talos_held_too_softly_falls_without_sinking() {
    if !crate::require::corpus("talos_held_too_softly_falls_without_sinking", ROBOTS) {
        return;
    }
    let s = stand(false, Hold::Springs, 500.0, 20.0).unwrap();
    println!("Talos held at 500 / 20, 3 s at dt {DT}: {s:?}");
    // measured: trunk 0.908 m from its start, deepest −1.7e-16 m, no step sinks a vertex
    assert!(s.drift > 0.5, "falls over: {s:?}");
    assert_eq!(s.first_sink, None, "{s:?}");
    assert!(s.deepest > -1e-12, "{s:?}");
}
