//! The last corpus files load whole (issue 25 item 7): with the bound options (MuJoCo's
//! `boundmass` / `boundinertia`) tiago's antenna (a principal moment of −3.5e-8 kg·m²)
//! and icub_reduced's right hip (point masses between joints) load, warn naming each link
//! raised, and step; bolt's massless feet keep their rotational inertia (its mass matrix
//! against Pinocchio's CRBA).
//!
//! Without the corpus the tests fail naming it, unless MAXDYN_SKIP names them (tests/common/require.rs).

use std::sync::Arc;

use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim};

#[path = "common/require.rs"]
mod require;

const ROBOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots");

/// The bounds the refused files need: 1e-6 kg·m² lifts tiago's −3.5e-8 and icub's zeros
/// (the smallest real moments of these robots are 1e-7 to 1e-5); no mass bound.
const BOUND_INERTIA: f64 = 1e-6;

/// Loads `file` (under robots/) with and without the bounds: refused without, loads with,
/// one warning per link raised (`count` of them, among them the `raised` that refused the
/// file); then 100 steps of 1 ms, finite, joints held.
fn loads_and_steps_with_bounds(file: &str, floating: bool, refusal: &str, raised: &[&str], count: usize) {
    let path = format!("{ROBOTS}/{file}");
    if !require::corpus("loads_and_steps_with_bounds", &path) {
        return;
    }
    let plain = UrdfOptions { floating, ..UrdfOptions::default() };
    let e = Urdf::from_file_with(&path, &plain).unwrap_err().to_string();
    assert!(e.contains(refusal), "{file}: refused with {e}");
    let bounded = UrdfOptions { bound_inertia: BOUND_INERTIA, ..plain };
    let u = Urdf::from_file_with(&path, &bounded).unwrap_or_else(|e| panic!("{file} with bounds: {e}"));
    let bound_warnings: Vec<&String> = u.warnings.iter().filter(|w| w.contains("(bound_inertia)")).collect();
    let named: Vec<&str> = raised.iter().copied().filter(|l| bound_warnings.iter().any(|w| w.starts_with(&format!("link `{l}`:")))).collect();
    assert_eq!((named.len(), bound_warnings.len()), (raised.len(), count), "{file}: {bound_warnings:#?}");
    let model = Arc::new(Model::new(&u.builder).unwrap());
    let mut sim = Sim::new(model, 1e-3).unwrap();
    for l in u.builder.joint_limits() {
        if !(l.lower <= 0.0 && 0.0 <= l.upper) {
            sim.set_joint_position(l.joint, &[0.5 * (l.lower + l.upper)]).unwrap();
        }
    }
    for m in u.builder.mimics() {
        let mut q = [0.0];
        sim.joint_position(m.leader, &mut q).unwrap();
        sim.set_joint_position(m.follower, &[m.multiplier * q[0] + m.offset]).unwrap();
    }
    let mut worst: f64 = 0.0;
    for k in 0..100 {
        sim.step().unwrap_or_else(|e| panic!("{file}: step {k}: {e}"));
        worst = worst.max(sim.constraint_violation());
    }
    let finite = (0..u.builder.body_count()).all(|b| sim.body_state(b).unwrap().iter().all(|v| v.is_finite()));
    println!("{file} floating {floating}: {} bodies, {} links raised, violation {worst:e}", u.builder.body_count(), bound_warnings.len());
    assert!(finite && worst < 1e-8, "{file}: finite {finite}, violation {worst:e}");
}

#[test]
fn tiago_loads_and_steps_with_its_antenna_inertia_bounded() {
    // links raised per file (measured): the two antennas and small sensor and hand links
    // whose least moment is below 1e-6
    for (file, count) in [("tiago.urdf", 6), ("tiago_dual.urdf", 9), ("tiago_no_hand.urdf", 6)] {
        let file = format!("tiago_description/robots/{file}");
        loads_and_steps_with_bounds(&file, false, "link `base_antenna_left_link`: inertia has a negative principal moment", &["base_antenna_left_link", "base_antenna_right_link"], count);
    }
}

#[test]
fn icub_reduced_loads_and_steps_with_its_hip_point_masses_bounded() {
    for floating in [false, true] {
        loads_and_steps_with_bounds("icub_description/robots/icub_reduced.urdf", floating, "link `r_hip_1`: a point mass (zero inertia) that is a body of its own", &["r_hip_1", "r_hip_2"], 14);
    }
}

/// Bolt's feet (mass 0, an inertia, on fixed joints below the knees) are merged into the
/// lower legs with their inertia: the mass matrix at q = (0.3, −0.7, 1.1, −0.2, 0.5, −1.3)
/// equals Pinocchio 4.1.0's CRBA (`pin.crba`, fixed base) entry by entry. Without the
/// feet's inertia (8.4e-7 kg·m² about the knee axis) it would differ by 1.4e-4 of its
/// largest entry.
#[test]
fn bolt_mass_matrix_equals_pinocchio_crba() {
    let path = format!("{ROBOTS}/bolt_description/robots/bolt.urdf");
    if !require::corpus("bolt_mass_matrix_equals_pinocchio_crba", &path) {
        return;
    }
    const PINOCCHIO: [[f64; 6]; 6] = [
        [0.005989861996593204, -0.0005125573860427336, 8.406515171003123e-05, 0.0, 0.0, 0.0],
        [-0.0005125573860427336, 0.004942826102538046, 0.0008630801402090844, 0.0, 0.0, 0.0],
        [8.406515171003123e-05, 0.0008630801402090844, 0.0005352689681000222, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.006496619859594892, -0.00028916841431414486, 0.00015485826439008937],
        [0.0, 0.0, 0.0, -0.00028916841431414486, 0.004673843327783766, 0.0007285887528319438],
        [0.0, 0.0, 0.0, 0.00015485826439008937, 0.0007285887528319438, 0.0005352689681000222],
    ];
    let u = Urdf::from_file(&path, false).unwrap();
    let mut sim = Sim::new(Arc::new(Model::new(&u.builder).unwrap()), 1e-3).unwrap();
    let q = [0.3, -0.7, 1.1, -0.2, 0.5, -1.3];
    for (k, name) in ["FL_HAA", "FL_HFE", "FL_KFE", "FR_HAA", "FR_HFE", "FR_KFE"].iter().enumerate() {
        sim.set_joint_position(u.joint(name).unwrap(), &[q[k]]).unwrap();
    }
    let mut m = [0.0; 36];
    sim.mass_matrix(&mut m).unwrap();
    let scale = PINOCCHIO.iter().flatten().fold(0.0f64, |a, v| a.max(v.abs()));
    let worst = (0..36).map(|k| (m[k] - PINOCCHIO[k / 6][k % 6]).abs()).fold(0.0, f64::max) / scale;
    println!("bolt: mass matrix against Pinocchio's CRBA, largest difference {worst:e} of its largest entry");
    // measured 1.2e-15 (the file's joint order is Pinocchio's)
    assert!(worst < 1e-14, "bolt's mass matrix differs from Pinocchio's by {worst:e}");
}
