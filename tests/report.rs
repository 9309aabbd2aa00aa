//! The report (`cargo run --release --example report`) end to end in its quick mode:
//! every figure's PNG and CSV and the index page are written. The example is run with
//! the test profile, which `cargo test` has already built it with.

use std::path::PathBuf;
use std::process::Command;

const FIGURES: [&str; 18] = [
    "a1_loop_drift",
    "a2_double_pendulum_energy",
    "a3_damped_pendulum",
    "a4_box_drop",
    "a7_friction_stop",
    "a8_four_bar_energy",
    "a8_four_bar_violation",
    "b1_chains",
    "b2_sphere_chain",
    "b2_sphere_chain_penetration",
    "b3_loop_chains",
    "b4_sparse_dense",
    "c1_quadruped_distance",
    "c1_quadruped_feet",
    "c2_exoskeleton",
    "accuracy_vs_cost",
    "accuracy_vs_cost_box",
    "accuracy_vs_cost_integrators",
];

#[test]
fn quick_report_writes_every_figure_and_the_index() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report");
    let _ = std::fs::remove_dir_all(&out);
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let run = Command::new(cargo)
        .args(["run", "--quiet", "--profile", "test", "--example", "report", "--manifest-path"])
        .arg(repo.join("Cargo.toml"))
        .args(["--", "--quick", "--out"])
        .arg(&out)
        .output()
        .expect("run cargo");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "report failed:\n{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    println!("{stdout}");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    // the MuJoCo series need the peer set-up (benches/peer/setup.sh); CI has it when
    // target/peer is there, and the figure is required then
    let with_mujoco = repo.join("target/peer/libmujoco_shim.so").exists();
    for f in FIGURES {
        if f == "accuracy_vs_cost" && !with_mujoco {
            assert!(index.contains("accuracy vs cost: skipped"), "{f}");
            continue;
        }
        // the integrators' figure needs Pinocchio's reference (tests/setup.sh's corpus and venv)
        if f == "accuracy_vs_cost_integrators" && index.contains("integrators on the panda: skipped") {
            assert!(!has_corpus_and_venv(&repo), "the panda's reference is there, yet the figure was skipped:\n{index}");
            continue;
        }
        let png = out.join(format!("{f}.png"));
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display()))));
        let info = decoder.read_info().unwrap();
        assert_eq!((info.info().width, info.info().height), (960, 600), "{f}");
        let csv = std::fs::read_to_string(out.join(format!("{f}.csv"))).unwrap();
        assert!(csv.lines().count() >= 3, "{f}.csv has no data");
        assert!(index.contains(&format!("src=\"{f}.png\"")), "{f} not on the index page");
    }
    // the headlines of the quick run: A1's violation is there, and A7's stop distance at
    // dt 0.01 is the discrete one, 0.4178 m (2.46 % beyond v²/(2μg))
    let a7 = format!("A7: stop distance at dt 0.01: {:.4} m", discrete_stop_distance(2.0, 0.5, 0.01));
    assert!(index.contains("A1: largest maxdyn violation") && index.contains(&a7), "{a7} not in {index}");
    // the integrators on the panda (tests/second_order.rs's case): maxdyn's errors as that
    // test measures them, and MuJoCo's RK4 and Euler on the same model and start (measured
    // with MuJoCo 4.0.0; RK4 at dt 1e-3 is 1.20e-6 rad from Pinocchio's RK4, fourth order
    // from 2.49e-4 at 4e-3)
    if has_corpus_and_venv(&repo) {
        for line in ["maxdyn first order dt 1e-3: error 2.53e-2 rad", "maxdyn second order dt 1e-3: error 2.83e-3 rad", "maxdyn second order dt 2e-4: error 1.13e-4 rad", "maxdyn fourth order dt 1e-3: error 2.03e-7 rad"] {
            assert!(index.contains(line), "{line} not in {index}");
        }
        if repo.join("target/peer/robots/panda.urdf").exists() && with_mujoco {
            for line in ["MuJoCo RK4 dt 4e-3: error 2.49e-4 rad", "MuJoCo RK4 dt 1e-3: error 1.20e-6 rad", "MuJoCo Euler dt 1e-3: error 9.84e-1 rad", "MuJoCo Euler dt 1e-4: error 5.91e-2 rad"] {
                assert!(index.contains(line), "{line} not in {index}");
            }
        }
    }
}

fn has_corpus_and_venv(repo: &std::path::Path) -> bool {
    repo.join("target/corpus/example-robot-data-6.0.0/cmeel.prefix/share/example-robot-data/robots/panda_description/urdf/panda.urdf").exists() && repo.join("target/python-venv/bin/python").exists()
}

/// The stop distance of a box sliding from `v0` with friction `mu` under the first-order
/// integrator at step `dt`, in closed form: friction takes μ g dt off the speed each step
/// until it is zero, and the position advances by v_k dt, so the distance is
/// dt Σ_k max(v0 − k μ g dt, 0).
fn discrete_stop_distance(v0: f64, mu: f64, dt: f64) -> f64 {
    let dv = mu * 9.81 * dt;
    (0..).map(|k| v0 - k as f64 * dv).take_while(|&v| v > 0.0).sum::<f64>() * dt
}
