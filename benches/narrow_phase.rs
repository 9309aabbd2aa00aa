//! Narrow-phase cost per pair type (issue 25): the median time of one `narrow_phase` call
//! for each pair parry's GJK serves (hull against every kind, box–cylinder,
//! cylinder–cylinder) and, beside them, the closed-form pairs they compare with, at a
//! resting pose (the upper shape 1 µm into the lower's top face, turned 0.2 rad about z)
//! and at a pose apart (5 mm above, tilted 0.3 rad). Hulls: a box's 8 corners, a 32-gon
//! prism (64 vertices), and a 1024-point prism (a large mesh hull).
//!
//! Beside each, MuJoCo's collision stage (`mj_collision`) on a model of just the two geoms
//! at the same pose with the same margin (benches/peer/narrow_models.rs), in the same
//! process, timed the same way and interleaved with maxdyn's calls: its broad phase over
//! the two geoms, then the pair's narrow phase. MuJoCo runs through the peer bench's shim
//! (`bash benches/peer/setup.sh` builds it; `MAXDYN_PEER_SHIM` names another); without it
//! only maxdyn's column is printed.
//!
//! Run: bash benches/peer/setup.sh && cargo bench --bench narrow_phase

#[path = "peer/mujoco.rs"]
#[allow(dead_code)] // the peer bench's shim; this bench uses its collision calls
mod mujoco;
#[path = "peer/narrow_models.rs"]
mod narrow_models;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use maxdyn::contact::geometry::{narrow_phase, ContactPoint, MAX_POINTS_PER_PAIR};
use maxdyn::math::{from_rotation_vector, V3};
use maxdyn::model::hull::Hull;
use maxdyn::model::shape::{Geometry, Shape};
use mujoco::{MjSim, Mujoco};

const ID: [f64; 4] = [1.0, 0.0, 0.0, 0.0];
/// The contact margin (m): maxdyn's `max_gap`, MuJoCo's geom margin.
const MARGIN: f64 = 0.05;
/// Calls per timed batch, and batches (interleaved between the engines; the median kept).
const REPS: usize = 2000;
const BATCHES: usize = 21;

fn prism(k: usize, r: f64, h: f64) -> Geometry {
    let mut p = Vec::new();
    for i in 0..k {
        let a = 2.0 * std::f64::consts::PI * i as f64 / k as f64;
        p.push(V3::new(r * a.cos(), r * a.sin(), -h));
        p.push(V3::new(r * a.cos(), r * a.sin(), h));
    }
    Geometry::Hull(Arc::new(Hull::new(&p).expect("prism")))
}

fn box_hull(e: f64) -> Geometry {
    let p: Vec<V3> = (0..8).map(|i| V3::new(if i & 1 == 0 { -e } else { e }, if i & 2 == 0 { -e } else { e }, if i & 4 == 0 { -e } else { e })).collect();
    Geometry::Hull(Arc::new(Hull::new(&p).expect("box")))
}

/// A shape of `g` on `body` at its origin; every shape here has half height 0.1.
fn on(body: Option<usize>, g: &Geometry) -> Shape {
    Shape::with_geometry(body, [0.0; 3], ID, g.clone()).expect("shape")
}

/// Median of the batches' time per call (µs).
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The shim, if built: None (with the reason printed) runs maxdyn alone.
fn open_mujoco() -> Option<Mujoco> {
    let shim = std::env::var_os("MAXDYN_PEER_SHIM").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/peer/libmujoco_shim.so"));
    match Mujoco::open(&shim) {
        Ok(mj) => Some(mj),
        Err(e) => {
            println!("MuJoCo column left out ({}: {e}); build it with `bash benches/peer/setup.sh`", shim.display());
            None
        }
    }
}

/// A MuJoCo model of the pair, written under target/peer/narrow and loaded, its poses
/// computed.
fn mujoco_pair(mj: &Mujoco, name: usize, xml: &str) -> MjSim {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/peer/narrow");
    std::fs::create_dir_all(&dir).expect("target/peer/narrow");
    let path = dir.join(format!("pair{name}.xml"));
    std::fs::write(&path, xml).expect("model file");
    let mut sim = mj.load(&path).unwrap_or_else(|e| panic!("MuJoCo refused {}: {e}", path.display()));
    sim.kinematics();
    sim
}

fn main() {
    let kinds: Vec<(&str, Geometry)> = vec![
        ("sphere", Geometry::Sphere { radius: 0.1 }),
        // half height 0.1 as the others (MuJoCo refuses a capsule of half length 0)
        ("capsule", Geometry::Capsule { radius: 0.05, half_length: 0.05 }),
        ("box", Geometry::Box { half_extents: V3::new(0.1, 0.1, 0.1) }),
        ("cylinder", Geometry::Cylinder { radius: 0.1, half_length: 0.1 }),
        ("hull (box, 8)", box_hull(0.1)),
        ("hull (32-gon, 64)", prism(32, 0.1, 0.1)),
        ("hull (512-gon, 1024)", prism(512, 0.1, 0.1)),
    ];
    let lower: Vec<(&str, Geometry)> = vec![
        ("plane", Geometry::HalfSpace),
        ("box", Geometry::Box { half_extents: V3::new(0.5, 0.5, 0.1) }),
        ("cylinder", Geometry::Cylinder { radius: 0.5, half_length: 0.1 }),
        ("hull (box, 8)", box_hull(0.1)),
        ("hull (32-gon, 64)", prism(32, 0.1, 0.1)),
    ];
    let mj = open_mujoco();
    if let Some(mj) = &mj {
        println!("MuJoCo {} (mj_collision on the pair's model, margins {MARGIN} m)", mj.version());
    }
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let (reps, batches) = if benchmarking { (REPS, BATCHES) } else { (2, 1) };
    println!("{:>22} on {:<18} {:>8} | {:>10} {:>6} | {:>10} {:>8} | {:>7}", "upper", "lower (world)", "pose", "maxdyn µs", "points", "MuJoCo µs", "contacts", "ratio");
    let mut models = 0;
    for (ln, lg) in &lower {
        // the lower shape's top at z = 0
        let lower_x = if matches!(lg, Geometry::HalfSpace) { V3::zeros() } else { V3::new(0.0, 0.0, -0.1) };
        let lower_shape = match lg {
            Geometry::HalfSpace => Shape::Plane { normal: V3::z(), offset: 0.0 },
            g => Shape::with_geometry(None, [lower_x.x, lower_x.y, lower_x.z], ID, g.clone()).expect("lower"),
        };
        for (un, ug) in &kinds {
            if !maxdyn::model::shape::has_narrow_phase(ug.kind(), lg.kind()) {
                continue;
            }
            let upper = on(Some(0), ug);
            for (pose, z, tilt) in [("resting", 0.1 - 1e-6, 0.0), ("apart", 0.1 + 5e-3 + 0.1 * 0.3f64.sin(), 0.3)] {
                let x = [V3::new(0.0, 0.0, z)];
                let q = [maxdyn::math::qmul(&from_rotation_vector(&V3::new(tilt, 0.0, 0.0)), &from_rotation_vector(&V3::new(0.0, 0.0, 0.2)))];
                let mut peer = mj.as_ref().map(|mj| {
                    models += 1;
                    mujoco_pair(mj, models, &narrow_models::pair_model(ug, &x[0], &q[0], lg, &lower_x, MARGIN))
                });
                let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
                let (mut count, mut contacts) = (0, 0);
                let (mut ours, mut theirs) = (Vec::with_capacity(batches), Vec::with_capacity(batches));
                for _ in 0..batches {
                    let t = Instant::now();
                    for _ in 0..reps {
                        count = narrow_phase(std::hint::black_box(&upper), &lower_shape, &x, &q, MARGIN, &mut out);
                    }
                    ours.push(t.elapsed().as_secs_f64() / reps as f64 * 1e6);
                    if let Some(sim) = peer.as_mut() {
                        let t = Instant::now();
                        for _ in 0..reps {
                            contacts = std::hint::black_box(sim.collision());
                        }
                        theirs.push(t.elapsed().as_secs_f64() / reps as f64 * 1e6);
                    }
                }
                let ours = median(ours);
                if peer.is_some() {
                    let theirs = median(theirs);
                    println!("{un:>22} on {ln:<18} {pose:>8} | {ours:>10.3} {count:>6} | {theirs:>10.3} {contacts:>8} | {:>6.2}×", ours / theirs);
                } else {
                    println!("{un:>22} on {ln:<18} {pose:>8} | {ours:>10.3} {count:>6} |");
                }
            }
        }
    }
    // what MuJoCo's stage costs when its broad phase rejects the pair (no narrow phase)
    if let Some(mj) = &mj {
        let (x, q) = (V3::new(0.0, 0.0, 10.0), nalgebra::Vector4::new(1.0, 0.0, 0.0, 0.0));
        let mut sim = mujoco_pair(mj, 0, &narrow_models::pair_model(&Geometry::Sphere { radius: 0.1 }, &x, &q, &Geometry::Box { half_extents: V3::new(0.5, 0.5, 0.1) }, &V3::new(0.0, 0.0, -0.1), MARGIN));
        let mut times = Vec::new();
        for _ in 0..batches {
            let t = Instant::now();
            for _ in 0..reps {
                std::hint::black_box(sim.collision());
            }
            times.push(t.elapsed().as_secs_f64() / reps as f64 * 1e6);
        }
        println!("MuJoCo's stage alone (a sphere 10 m above a box, rejected by its broad phase): {:.3} µs", median(times));
    }
}
