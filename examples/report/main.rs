//! The evaluation report: reruns the SCENARIOS figures and writes PNG plots, their CSV
//! data and an index.html into one folder (default target/report/), with versions,
//! machine and date. MuJoCo comes from the peer benchmark's set-up
//! (`bash benches/peer/setup.sh`: the mujoco wheel in target/peer-venv and its shim);
//! without it the MuJoCo series are left out and the page says so.
//!
//!   cargo run --release --example report [-- --quick] [-- --out DIR]
//!
//! `--quick` runs every stage on short horizons and small sizes (CI: tests/report.rs).

#[path = "../../benches/peer/cases.rs"]
#[allow(dead_code)]
mod cases;
#[path = "../../benches/peer/mujoco.rs"]
#[allow(dead_code)]
mod mujoco;
#[path = "../../tests/common/arm_reference.rs"]
mod arm_reference;
#[path = "../../benches/peer/panda_accuracy.rs"]
mod panda_accuracy;
#[path = "../../tests/common/require.rs"]
mod require;
#[path = "../../tests/common/rng.rs"]
mod rng;
mod accuracy;
mod cost;
mod integrators;
mod page;
mod plot;
mod speed;
mod structure;
mod walk;

use std::path::PathBuf;
use std::time::Instant;

pub struct Report {
    pub dir: PathBuf,
    pub repo: PathBuf,
    pub quick: bool,
    /// One line per measured headline, in order.
    pub notes: Vec<String>,
    /// (file stem, title) of each figure.
    pub figures: Vec<(String, String)>,
    pub viewer: Option<String>,
}

impl Report {
    pub fn note(&mut self, line: String) {
        println!("  {line}");
        self.notes.push(line);
    }

    pub fn figure(&mut self, f: plot::Figure) -> Result<(), String> {
        plot::figure(&self.dir, &f)?;
        self.figures.push((f.file.to_string(), f.title.to_string()));
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = args.iter().position(|a| a == "--out").and_then(|i| args.get(i + 1)).map(PathBuf::from).unwrap_or_else(|| repo.join("target/report"));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    if let Err(e) = plot::register_font() {
        eprintln!("report: {e}");
        std::process::exit(1);
    }
    let shim = repo.join("target/peer/libmujoco_shim.so");
    let models = repo.join("target/peer/models");
    let mj = if shim.exists() && models.join("a1.xml").exists() { mujoco::Mujoco::open(&shim).ok() } else { None };
    let mut r = Report { dir: dir.clone(), repo, quick, notes: Vec::new(), figures: Vec::new(), viewer: None };
    let peer = mj.as_ref().map(|m| (m, models.as_path()));
    if peer.is_none() {
        r.note("MuJoCo: not set up (bash benches/peer/setup.sh), its series are left out".into());
    }
    let stages: Vec<(&str, Box<dyn Fn(&mut Report) -> Result<(), String> + '_>)> = vec![
        ("A1 loop drift", Box::new(accuracy::loop_drift)),
        ("A2 double pendulum", Box::new(accuracy::double_pendulum_energy)),
        ("A3 damped pendulum", Box::new(accuracy::damped_pendulum_angle)),
        ("A4 box drop", Box::new(accuracy::box_drop)),
        ("A7 friction", Box::new(accuracy::friction_stop)),
        ("A8 double four-bar", Box::new(accuracy::double_four_bar)),
        ("B1 chains", Box::new(|r: &mut Report| speed::chains(r, peer))),
        ("B2 sphere chains", Box::new(speed::sphere_chains)),
        ("B3 loop chains", Box::new(structure::loop_chains)),
        ("B4 sparse vs dense", Box::new(structure::sparse_dense)),
        ("C1 quadruped", Box::new(walk::quadruped)),
        ("C2 exoskeleton", Box::new(structure::exoskeleton)),
        ("accuracy vs cost: trot", Box::new(|r: &mut Report| speed::accuracy_vs_cost(r, peer))),
        ("accuracy vs cost: cube drop", Box::new(cost::box_drop)),
        ("accuracy vs cost: integrators on the panda", Box::new(|r: &mut Report| integrators::panda(r, peer))),
    ];
    let start = Instant::now();
    let mut failed = false;
    for (name, stage) in &stages {
        let t = Instant::now();
        println!("{name}{}", if quick { " (quick)" } else { "" });
        if let Err(e) = stage(&mut r) {
            eprintln!("report: {name} failed: {e}");
            failed = true;
        }
        println!("  ({:.1} s)", t.elapsed().as_secs_f64());
    }
    let mujoco_version = mj.as_ref().map(|m| m.version());
    page::write(&r, mujoco_version.as_deref(), start.elapsed().as_secs_f64()).unwrap_or_else(|e| panic!("index.html: {e}"));
    println!("wrote {} ({} figures) in {:.1} s", dir.join("index.html").display(), r.figures.len(), start.elapsed().as_secs_f64());
    if failed {
        std::process::exit(1);
    }
}
