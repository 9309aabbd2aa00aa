//! The collision stage per step of whole robots beside MuJoCo (issue 25): broad and narrow
//! phase alone, at a standing pose, in one process, the engines interleaved.
//!
//! Robots of example-robot-data 6.0.0 (target/corpus, unpacked by tests/setup.sh): the A1
//! (`a1.urdf`, primitives) at the standing pose of the quadruped scene (thigh 0.9, calf
//! −1.8) and Talos (`talos_reduced.urdf`, 47 STL meshes as convex hulls) at its zero pose,
//! both floating over a ground plane, lowered until their lowest shape point is 10 µm into
//! the ground, at rest; each with the ground only and with self-collision on, the robot's
//! SRDF disabling its pairs. maxdyn: [`Sim::collision_search`] (the broad phase at the
//! step's prediction, then the narrow phase of every pair it lets through), exactly what
//! `Sim::step` runs first. MuJoCo: `mj_collision` (broad, mid and narrow phase) at the same
//! joint angles, its models made from the same URDF and SRDF by
//! benches/peer/make_robot_models.py (`bash benches/peer/setup.sh`).
//!
//! Run: bash benches/peer/setup.sh && cargo bench --bench collision_stage [-- --reps N]
//! Without `--bench` (under `cargo test --benches`) it only smoke-runs a few calls; without
//! the MuJoCo shim it times maxdyn alone and says so.

#[path = "peer/mujoco.rs"]
// shared with peer.rs, whose model set-up this benchmark does not use
#[allow(dead_code)]
mod mujoco;

use maxdyn::contact::broad_phase::Aabb;
use maxdyn::math::V3;
use maxdyn::model::shape::Geometry;
use maxdyn::urdf::{Urdf, UrdfOptions};
use maxdyn::{Model, Sim, SolverOptions};
use mujoco::{MjSim, Mujoco};
use std::path::{Path, PathBuf};
use maxdyn_scenes::heights::lowest_point;
use std::sync::Arc;
use std::time::Instant;

const ROBOTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots");

/// How far the lowest shape point of a robot is put into the ground (m): the feet touch,
/// so both engines report their ground contacts (MuJoCo's margin is 0).
const DEPTH: f64 = 1e-5;

struct Robot {
    label: &'static str,
    /// URDF and SRDF under the corpus' robots/.
    urdf: &'static str,
    srdf: &'static str,
    /// MuJoCo model stem in target/peer/robots (make_robot_models.py).
    mujoco: &'static str,
    /// Joint angles by name suffix (the rest at zero).
    pose: &'static [(&'static str, f64)],
}

const A1_STANDING: &[(&str, f64)] = &[("_thigh_joint", 0.9), ("_calf_joint", -1.8)];

const ROBOT_LIST: [Robot; 2] = [
    Robot { label: "A1", urdf: "a1_description/urdf/a1.urdf", srdf: "a1_description/srdf/a1.srdf", mujoco: "a1", pose: A1_STANDING },
    Robot { label: "Talos", urdf: "talos_data/robots/talos_reduced.urdf", srdf: "talos_data/srdf/talos.srdf", mujoco: "talos", pose: &[] },
];

fn angle(pose: &[(&str, f64)], joint: &str) -> f64 {
    pose.iter().find(|(suffix, _)| joint.ends_with(suffix)).map_or(0.0, |p| p.1)
}

/// maxdyn's robot at the pose, `DEPTH` into the ground, at rest; and its shape count.
fn maxdyn_robot(r: &Robot, self_collision: bool) -> Result<(Sim, usize), String> {
    let options = UrdfOptions { floating: true, collision: true, ground_plane: true, self_collision, ..UrdfOptions::default() };
    let mut u = Urdf::from_file_with(format!("{ROBOTS}/{}", r.urdf), &options).map_err(|e| e.to_string())?;
    if self_collision {
        u.apply_srdf_file(format!("{ROBOTS}/{}", r.srdf)).map_err(|e| e.to_string())?;
    }
    let model = Arc::new(Model::new(&u.builder).map_err(|e| e.to_string())?);
    let mut sim = Sim::new(model.clone(), 1e-3).map_err(|e| e.to_string())?;
    for (name, &j) in &u.joints {
        let a = angle(r.pose, name);
        if a != 0.0 {
            sim.set_joint_position(j, &[a]).map_err(|e| e.to_string())?;
        }
    }
    let shapes = model.collision.shapes.len();
    let lift = -DEPTH - (0..shapes).map(|i| lowest_point(&model, &sim, i)).fold(f64::INFINITY, f64::min);
    for i in 0..model.body_count() {
        let mut s = sim.body_state(i).unwrap();
        s[2] += lift;
        sim.set_body_state(i, &s).unwrap();
    }
    Ok((sim, shapes))
}

/// MuJoCo's model of the same robot at the same joint angles and depth.
fn mujoco_robot(mj: &Mujoco, models: &Path, r: &Robot, self_collision: bool) -> Result<MjSim, String> {
    let stem = if self_collision { format!("{}_srdf", r.mujoco) } else { r.mujoco.to_string() };
    let mut m = mj.load(&models.join(format!("{stem}.xml")))?;
    // the joint names are the URDF's; the free joint's qpos comes first (x y z, w x y z)
    let urdf = std::fs::read_to_string(format!("{ROBOTS}/{}", r.urdf)).map_err(|e| e.to_string())?;
    let doc = roxmltree::Document::parse(&urdf).map_err(|e| e.to_string())?;
    let moving = doc.root_element().children().filter(|n| n.has_tag_name("joint") && n.attribute("type") != Some("fixed"));
    let angles: Vec<(usize, f64)> = moving.filter_map(|n| n.attribute("name")).map(|n| (m.joint_qpos(n), angle(r.pose, n))).collect();
    {
        let q = m.qpos();
        q[..7].copy_from_slice(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        for &(adr, a) in &angles {
            q[adr] = a;
        }
    }
    m.kinematics();
    let lift = -DEPTH - m.lowest_geom_z();
    m.qpos()[2] = lift;
    m.kinematics();
    Ok(m)
}

/// Microseconds per collision search of each engine: `reps` batches of `calls` searches,
/// the engines taking turns (who goes first alternates, so load changes on a shared
/// machine hit both alike); the median over the batches of a batch's mean.
fn time_interleaved(sim: &mut Sim, mut mj: Option<&mut MjSim>, reps: usize, calls: usize) -> (f64, Option<f64>) {
    let (mut ta, mut tb) = (Vec::with_capacity(reps), Vec::with_capacity(reps));
    for rep in 0..reps {
        for turn in 0..2 {
            if (rep + turn) % 2 == 0 {
                let t = Instant::now();
                for _ in 0..calls {
                    std::hint::black_box(sim.collision_search());
                }
                ta.push(t.elapsed().as_secs_f64() / calls as f64);
            } else if let Some(m) = mj.as_deref_mut() {
                let t = Instant::now();
                for _ in 0..calls {
                    std::hint::black_box(m.collision());
                }
                tb.push(t.elapsed().as_secs_f64() / calls as f64);
            }
        }
    }
    (1e6 * median(ta), (!tb.is_empty()).then(|| 1e6 * median(tb)))
}

/// Median of the repetitions.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn command_line(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd).args(args).output().ok().map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string()).unwrap_or_else(|| "?".into())
}

fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split(':').nth(1)).unwrap_or("?").trim().to_string();
    format!("{model}, {} cores", info.lines().filter(|l| l.starts_with("processor")).count())
}

fn env_path(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default))
}

/// The MuJoCo shim and its robot models, or why not.
fn open_mujoco() -> Result<(Mujoco, PathBuf), String> {
    let shim = env_path("MAXDYN_PEER_SHIM", "target/peer/libmujoco_shim.so");
    let models = env_path("MAXDYN_COLLISION_MODELS", "target/peer/robots");
    if !shim.exists() || !models.join("talos_srdf.xml").exists() {
        return Err(format!("no MuJoCo shim at {} or no robot models in {}: run `bash benches/peer/setup.sh`", shim.display(), models.display()));
    }
    Ok((Mujoco::open(&shim).map_err(|e| format!("cannot load {}: {e}; rerun `bash benches/peer/setup.sh`", shim.display()))?, models))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let full = args.iter().any(|a| a == "--bench");
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<usize>().ok());
    // repetitions (the median's) of a batch of calls; each engine's batch in turn
    let reps = flag("--reps").unwrap_or(if full { 101 } else { 3 }).max(1);
    let calls = if full { 200 } else { 2 };
    if !Path::new(ROBOTS).exists() {
        println!("collision stage benchmark skipped: no {ROBOTS}: run `bash tests/setup.sh` (it unpacks example-robot-data 6.0.0 into target/corpus)");
        return;
    }
    let mujoco = open_mujoco();
    let version = match &mujoco {
        Ok((mj, _)) => mj.version(),
        Err(why) => {
            println!("MuJoCo skipped: {why}");
            "—".into()
        }
    };
    println!("Collision stage per step: maxdyn {} (Sim::collision_search) vs MuJoCo {version} (mj_collision), one process, interleaved", env!("CARGO_PKG_VERSION"));
    println!("date {}; {}; {}; median of {reps} batches of {calls} calls", command_line("date", &["-u", "+%Y-%m-%d %H:%M UTC"]), command_line("uname", &["-srm"]), cpu_model());
    if !full {
        println!("(smoke run: pass --bench, as `cargo bench` does, for the full benchmark)");
    }
    println!("\n| robot | search distance (m) | shapes maxdyn / MuJoCo | pairs tested maxdyn | pairs with points maxdyn / MuJoCo | contacts maxdyn / MuJoCo | maxdyn µs/step | MuJoCo µs/step | ratio |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut notes = Vec::new();
    for r in &ROBOT_LIST {
        for self_collision in [false, true] {
            // MuJoCo's default margin, and maxdyn's default contact margin given to both
            for margin in [0.0, SolverOptions::default().contact_margin] {
                let label = format!("{}{}", r.label, if self_collision { ", self-collision (SRDF)" } else { ", ground only" });
                let (mut sim, shapes) = match maxdyn_robot(r, self_collision) {
                    Ok(s) => s,
                    Err(e) => {
                        println!("| {label} | maxdyn cannot load it: {e} |");
                        continue;
                    }
                };
                sim.set_options(SolverOptions { contact_margin: margin, ..sim.options() }).unwrap();
                let mut mj = match &mujoco {
                    Ok((mj, models)) => match mujoco_robot(mj, models, r, self_collision) {
                        Ok(m) => Some(m),
                        Err(e) => {
                            println!("({label}: MuJoCo cannot load its model: {e})");
                            None
                        }
                    },
                    Err(_) => None,
                };
                if let Some(m) = mj.as_mut() {
                    // a geom's margin inflates it: a pair's search distance is the sum of
                    // its two geoms' margins (MuJoCo 4 reports a plane 0.07 m away from a
                    // hull at 0.05 on both)
                    m.set_margin(0.5 * margin);
                }
                if !self_collision {
                    // the truth the ground pairs are checked against: shapes whose lowest
                    // point (exact, from the poses) is within the search distance
                    let model = sim.model().clone();
                    let near = (0..shapes).filter(|&i| lowest_point(&model, &sim, i) <= margin).count();
                    notes.push(format!("{label}, search distance {margin} m: {near} shapes within it of the ground"));
                }
                let found = sim.collision_search();
                let mj_contacts = mj.as_mut().map(|m| m.collision());
                let mj_pairs = mj.as_ref().map(|m| m.contact_pairs());
                let (ta, tb) = time_interleaved(&mut sim, mj.as_mut(), reps, calls);
                let or_dash = |x: Option<String>| x.unwrap_or_else(|| "—".into());
                println!(
                    "| {label} | {margin} | {shapes} / {} | {} | {} / {} | {} / {} | {ta:.2} | {} | {} |",
                    or_dash(mj.as_ref().map(|m| m.ngeom().to_string())),
                    found.tested_pairs,
                    found.pairs,
                    or_dash(mj_pairs.map(|n| n.to_string())),
                    found.points,
                    or_dash(mj_contacts.map(|n| n.to_string())),
                    or_dash(tb.map(|t| format!("{t:.2}"))),
                    or_dash(tb.map(|t| format!("{:.2}×", ta / t))),
                );
            }
        }
    }
    for n in notes {
        println!("{n}");
    }
    // where a search of hulls spends: each hull's box, from every vertex, every step
    println!("\n| robot | hulls | hull vertices | their boxes µs/step (part of the search) |");
    println!("|---|---|---|---|");
    for r in &ROBOT_LIST {
        let Ok((sim, _)) = maxdyn_robot(r, false) else { continue };
        let hulls: Vec<_> = sim.model().collision.shapes.iter().filter_map(|s| if let Geometry::Hull(h) = &s.geometry { Some(h.clone()) } else { None }).collect();
        let vertices: usize = hulls.iter().map(|h| h.points.len()).sum();
        let (c, rot) = (V3::zeros(), maxdyn::math::M3::identity());
        let times: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..calls {
                    for h in &hulls {
                        std::hint::black_box(Aabb::points(&c, &rot, std::hint::black_box(&h.points)));
                    }
                }
                t.elapsed().as_secs_f64() / calls as f64
            })
            .collect();
        println!("| {} | {} | {vertices} | {:.2} |", r.label, hulls.len(), 1e6 * median(times));
    }
    println!("(µs/step: one collision search per step, the median over the batches of the mean over a batch; both at rest at the pose; search distance: maxdyn's contact margin, twice every MuJoCo geom's margin)");
}
