//! Issue 27's scaling bar: the frictional pour of `scenes::piles::pour_of` at 50, 100 and
//! 200 bodies (spheres, and boxes, μ 0.5, dt 0.01). A pile's cost per step should grow
//! at most linearly with its contacts: each row prints the steps that failed, and over the
//! last `WINDOW` steps of `STEPS` (the pile at rest) the mean contacts in the step's
//! layout and active at its solution, the mean iterations and factorizations per step,
//! the median step time and that time per contact, and the multiply-adds of one full
//! factorization of the last step's layout (`Symbolic::factor_flops`: every contact
//! coupled; culled contacts' updates are skipped in a step), which shows the fill.
//!
//! MuJoCo beside, in the same run (`bash benches/peer/setup.sh` first; without the shim
//! maxdyn runs alone and the bench says so): the same pour written as MJCF from the
//! maxdyn model (bodies at the same poses with the same masses and inertias, the same
//! spheres or boxes, the five walls as planes, μ 0.5 sliding only, dt 0.01, its default
//! pyramidal cone, Newton solver and soft contacts), stepped after each maxdyn step. Its
//! row prints the mean contacts and solver iterations per step over the same window,
//! its median step time, its deepest contact (m into a surface) and the time ratio.
//!
//! Run: cargo bench --bench pile_scaling [-- spheres|boxes] [-- N...] (the rows of those
//! kinds and sizes only; all six by default)

#[path = "peer/mujoco.rs"]
// shared with peer.rs, whose model set-up this benchmark does not use
#[allow(dead_code)]
mod mujoco;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use maxdyn::model::shape::Geometry;
use maxdyn::Sim;
use maxdyn_scenes::piles::{pour_of, Pour};
use mujoco::{MjSim, Mujoco};

/// Steps of each pour (5 s) and the last ones timed.
const STEPS: usize = 500;
const WINDOW: usize = 200;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![50, 100, 200] } else { sizes };
    let named = |k: &str| args.iter().any(|a| a == k);
    let kinds: Vec<Pour> = [(Pour::Spheres, "spheres"), (Pour::Boxes, "boxes")].into_iter().filter(|(_, k)| named(k) || !(named("spheres") || named("boxes"))).map(|(p, _)| p).collect();
    let peer = open_mujoco();
    match &peer {
        Ok(mj) => println!("MuJoCo {} beside (its row under each of maxdyn's)", mj.version()),
        Err(why) => println!("maxdyn alone: {why}"),
    }
    println!("{:>7} {:>5} | {:>6} {:>9} {:>7} {:>8} {:>8} | {:>10} {:>13} | {:>12}", "pour", "n", "failed", "contacts", "active", "it/step", "fact/st", "median µs", "µs/contact", "flops/factor");
    for &kind in &kinds {
        for &n in &sizes {
            let mut sim = pour_of(kind, 0.5, n);
            let mut twin = peer.as_ref().ok().map(|mj| {
                let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/peer/piles");
                std::fs::create_dir_all(&dir).expect("target/peer/piles");
                let xml = dir.join(format!("{kind:?}_{n}.xml").to_lowercase());
                std::fs::write(&xml, mjcf(&sim)).expect("the pour's MJCF");
                mj.load(&xml).unwrap_or_else(|e| panic!("MuJoCo refused {}: {e}", xml.display()))
            });
            let (mut failed, mut contacts, mut active, mut iterations, mut factorizations) = (0, 0, 0, 0, 0);
            let mut times = Vec::with_capacity(WINDOW);
            let mut peer_row = PeerRow::default();
            for k in 0..STEPS {
                let t = Instant::now();
                let result = sim.step();
                let elapsed = t.elapsed().as_secs_f64() * 1e6;
                let st = match result {
                    Ok(st) => st,
                    Err(_) => {
                        failed += 1;
                        *sim.stats()
                    }
                };
                if let Some(mj) = twin.as_mut() {
                    let t = Instant::now();
                    mj.step();
                    let elapsed = t.elapsed().as_secs_f64() * 1e6;
                    if k >= STEPS - WINDOW {
                        peer_row.add(mj, elapsed);
                    }
                }
                if k >= STEPS - WINDOW {
                    times.push(elapsed);
                    contacts += st.contacts;
                    active += st.active_contacts;
                    iterations += st.iterations;
                    factorizations += st.factorizations;
                }
            }
            let median = median_of(&mut times);
            let per = |x: usize| x as f64 / WINDOW as f64;
            println!(
                "{:>7} {:>5} | {:>6} {:>9.1} {:>7.1} {:>8.2} {:>8.2} | {:>10.1} {:>13.3} | {:>12.3e}",
                format!("{kind:?}"),
                n,
                failed,
                per(contacts),
                per(active),
                per(iterations),
                per(factorizations),
                median,
                median / per(active).max(1.0),
                sim.debug_layout().symbolic.factor_flops() as f64
            );
            if twin.is_some() {
                let peer_median = median_of(&mut peer_row.times);
                println!(
                    "{:>7} {:>5} | {:>6} {:>9.1} {:>7} {:>8.2} {:>8} | {:>10.1} {:>13.3} | deepest {:.1e} m; maxdyn {:.1}×",
                    "MuJoCo",
                    n,
                    "",
                    per(peer_row.contacts),
                    "",
                    per(peer_row.iterations),
                    "",
                    peer_median,
                    peer_median / per(peer_row.contacts).max(1.0),
                    peer_row.deepest,
                    median / peer_median
                );
            }
        }
    }
}

/// MuJoCo's steps over the window.
#[derive(Default)]
struct PeerRow {
    contacts: usize,
    iterations: usize,
    deepest: f64,
    times: Vec<f64>,
}

impl PeerRow {
    fn add(&mut self, mj: &MjSim, elapsed: f64) {
        self.contacts += mj.ncon();
        self.iterations += mj.solver_iterations();
        self.deepest = self.deepest.max(-mj.min_contact_dist());
        self.times.push(elapsed);
    }
}

fn median_of(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn env_path(var: &str, default: &str) -> PathBuf {
    std::env::var_os(var).map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(default))
}

/// The MuJoCo shim, or why not.
fn open_mujoco() -> Result<Mujoco, String> {
    let shim = env_path("MAXDYN_PEER_SHIM", "target/peer/libmujoco_shim.so");
    if !shim.exists() {
        return Err(format!("no MuJoCo shim at {}: run `bash benches/peer/setup.sh`", shim.display()));
    }
    Mujoco::open(&shim).map_err(|e| format!("cannot load {}: {e}; rerun `bash benches/peer/setup.sh`", shim.display()))
}

/// The sim's bodies and collision shapes as MJCF: each body free at its state's pose
/// (the body frame is the centre of mass), its inertia in that frame, its shapes at their
/// poses; the world's planes as planes. Sliding friction only (condim 3), each geom's
/// coefficient its shape's (MuJoCo takes a pair's larger one, maxdyn its smaller: the pour's
/// shapes all have the same).
fn mjcf(sim: &Sim) -> String {
    let model = sim.model();
    let g = model.gravity;
    let mut xml = String::new();
    let _ = writeln!(xml, "<mujoco model=\"pour\">");
    let _ = writeln!(xml, "  <option timestep=\"{}\" gravity=\"{} {} {}\"/>", sim.dt(), g.x, g.y, g.z);
    let _ = writeln!(xml, "  <default><geom condim=\"3\"/></default>");
    let _ = writeln!(xml, "  <worldbody>");
    let geom = |xml: &mut String, indent: &str, s: &maxdyn::model::collision::CollisionShape| {
        let (kind, size) = match &s.geometry {
            Geometry::HalfSpace => ("plane", "0 0 1".to_string()),
            Geometry::Sphere { radius } => ("sphere", format!("{radius}")),
            Geometry::Box { half_extents: h } => ("box", format!("{} {} {}", h.x, h.y, h.z)),
            Geometry::Capsule { radius, half_length } => ("capsule", format!("{radius} {half_length}")),
            other => panic!("no MJCF here for {:?}", other.kind()),
        };
        let _ = writeln!(
            xml,
            "{indent}<geom type=\"{kind}\" size=\"{size}\" pos=\"{} {} {}\" quat=\"{} {} {} {}\" friction=\"{} 0 0\"/>",
            s.x.x, s.x.y, s.x.z, s.q[0], s.q[1], s.q[2], s.q[3], s.friction
        );
    };
    for s in model.collision.shapes.iter().filter(|s| s.body.is_none()) {
        geom(&mut xml, "    ", s);
    }
    for (i, body) in model.bodies.iter().enumerate() {
        let st = sim.body_state(i).expect("a body of the model");
        let j = &body.inertia;
        let _ = writeln!(xml, "    <body name=\"b{i}\" pos=\"{} {} {}\" quat=\"{} {} {} {}\">", st[0], st[1], st[2], st[3], st[4], st[5], st[6]);
        let _ = writeln!(xml, "      <freejoint/>");
        let _ = writeln!(
            xml,
            "      <inertial pos=\"0 0 0\" mass=\"{}\" fullinertia=\"{} {} {} {} {} {}\"/>",
            body.mass,
            j[(0, 0)],
            j[(1, 1)],
            j[(2, 2)],
            j[(0, 1)],
            j[(0, 2)],
            j[(1, 2)]
        );
        for s in model.collision.shapes.iter().filter(|s| s.body == Some(i)) {
            geom(&mut xml, "      ", s);
        }
        let _ = writeln!(xml, "    </body>");
    }
    let _ = writeln!(xml, "  </worldbody>");
    let _ = writeln!(xml, "</mujoco>");
    xml
}
