//! SCENARIOS C1: the paper's walking quadruped (Unitree A1 on rigid point contacts,
//! μ = 0.2, dt = 1 ms). Random-search learning of the five gait parameters (paper
//! appendix "Application Details"; see scenes/src/quadruped.rs for the parameter
//! order), then a final rollout of the learned gait that prints the distance walked, the
//! deepest foot penetration and the wall and CPU time against the simulated time.
//!
//! The paper learns on 10 s rollouts; 100 of them take about a minute here (≈ 0.07 CPU s
//! per simulated second), so by default the episodes are 2 s long (`--episode-time 10`
//! for the paper's setting) and only the final rollout of the learned gait runs 10 s.
//!
//!   cargo run --release --example quadruped -- [--episodes 100] [--seed 1]
//!       [--episode-time 2] [--final-time 10] [--tolerance 1e-10] [--contact-tolerance 1e-8]
//!       [--max-iterations 100]
//!       [--gait b,a_thigh,d_thigh,a_calf,d_calf]   (skip learning, roll this gait out)


use maxdyn::SolverOptions;
use maxdyn_scenes::quadruped::*;
use std::time::Instant;

struct Args {
    episodes: usize,
    seed: u64,
    episode_time: f64,
    final_time: f64,
    options: SolverOptions,
    gait: Option<Gait>,
}

fn parse_args() -> Args {
    let mut a = Args { episodes: 100, seed: 1, episode_time: 2.0, final_time: 10.0, options: SolverOptions::default(), gait: None };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let val = argv.get(i + 1).unwrap_or_else(|| panic!("{} needs a value", argv[i]));
        let num = || val.parse::<f64>().unwrap_or_else(|_| panic!("{}: `{val}` is not a number", argv[i]));
        match argv[i].as_str() {
            "--episodes" => a.episodes = num() as usize,
            "--seed" => a.seed = num() as u64,
            "--episode-time" => a.episode_time = num(),
            "--final-time" => a.final_time = num(),
            "--tolerance" => a.options.tolerance = num(),
            "--contact-tolerance" => a.options.contact_tolerance = num(),
            "--max-iterations" => a.options.max_iterations = num() as usize,
            "--gait" => {
                let p: Vec<f64> = val.split(',').map(|s| s.trim().parse().expect("gait: five numbers")).collect();
                assert_eq!(p.len(), 5, "--gait takes b,a_thigh,d_thigh,a_calf,d_calf");
                a.gait = Some(Gait::from_array(p.try_into().unwrap()));
            }
            other => panic!("unknown argument `{other}`"),
        }
        i += 2;
    }
    a.options.acceptance = a.options.acceptance.max(a.options.tolerance);
    a
}

/// CPU time of this thread (the rollouts run on one core).
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn fmt_gait(g: &Gait) -> String {
    g.to_array().iter().map(|v| format!("{v:7.4}")).collect::<Vec<_>>().join(" ")
}

fn describe(r: &Rollout) -> String {
    match r.failure {
        None => "ok".into(),
        Some(Failure::Fell { step }) => format!("fell at {:.3} s", step as f64 * DT),
        Some(Failure::Solver { step, residual, iterations, complementarity }) => {
            format!("solver failed at {:.3} s (residual {residual:.1e}, compl {complementarity:.1e}, {iterations} it)", step as f64 * DT)
        }
    }
}

/// Writes the state before a failing step (gait, time, 13 body states, 12 joint inputs)
/// to target/quadruped_failure.txt, to become a solver test fixture.
fn dump_failure(g: &Gait, f: &FailureState) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/quadruped_failure.txt");
    let mut text = format!("# gait b a_thigh d_thigh a_calf d_calf\n{}\n# time\n{}\n# bodies: x q v w\n", g.to_array().map(|v| format!("{v:e}")).join(" "), f.time);
    for b in &f.bodies {
        text += &b.iter().map(|v| format!("{v:e}")).collect::<Vec<_>>().join(" ");
        text += "\n";
    }
    text += "# joint inputs (FR FL RR RL × hip thigh calf)\n";
    text += &f.inputs.iter().map(|v| format!("{v:e}")).collect::<Vec<_>>().join(" ");
    std::fs::write(&path, text + "\n").expect("write the failure state");
    println!("solver failure state written to {}", path.display());
}

fn main() {
    let args = parse_args();
    let q = Quadruped::load();
    println!(
        "A1 quadruped: {} bodies, {} joints, {} contacts; dt = {DT}, μ = {FRICTION}; tolerance {:.0e}, contact tolerance {:.0e}",
        q.model.body_count(),
        q.model.joint_count(),
        q.feet.len(),
        args.options.tolerance,
        args.options.contact_tolerance
    );
    let gait = match args.gait {
        Some(g) => g,
        None => {
            let steps = (args.episode_time / DT).round() as usize;
            println!("learning: {} episodes of {} s, seed {}", args.episodes, args.episode_time, args.seed);
            println!("{:>4} {:>45} {:>9} {:>9} {:>6} {:>7}  status", "ep", "b a_thigh d_thigh a_calf d_calf", "dist [m]", "best [m]", "it/st", "wall s");
            let mut failure = None;
            let (gait, best, log) = learn(&q, args.episodes, steps, args.seed, args.options, &mut failure, |e, ep| {
                println!(
                    "{:4} {:>45} {:9.4} {:9.4} {:6.1} {:7.2}  {}{}",
                    e + 1,
                    fmt_gait(&ep.gait),
                    ep.result.distance,
                    ep.best,
                    ep.result.iterations as f64 / ep.result.steps.max(1) as f64,
                    ep.wall,
                    describe(&ep.result),
                    if ep.improved { "  improved" } else { "" }
                );
            });
            if let Some((g, f)) = &failure {
                dump_failure(g, f);
            }
            let pen = log.iter().map(|e| e.result.max_penetration).fold(0.0, f64::max);
            let solver = log.iter().filter(|e| matches!(e.result.failure, Some(Failure::Solver { .. }))).count();
            let fell = log.iter().filter(|e| matches!(e.result.failure, Some(Failure::Fell { .. }))).count();
            let simulated: usize = log.iter().map(|e| e.result.steps).sum();
            let wall: f64 = log.iter().map(|e| e.wall).sum();
            println!(
                "over all episodes: deepest foot penetration {pen:.3e} m, {solver} solver failures, {fell} falls; {:.1} s simulated in {wall:.1} s wall",
                simulated as f64 * DT
            );
            println!("learned gait: {}  ({best:.4} m in {} s episodes)", fmt_gait(&gait), args.episode_time);
            gait
        }
    };
    let steps = (args.final_time / DT).round() as usize;
    let (wall, cpu) = (Instant::now(), thread_cpu_seconds());
    let mut failure = None;
    let r = rollout(&q, &gait, steps, args.options, Some(&mut failure));
    if let Some(f) = &failure {
        dump_failure(&gait, f);
    }
    let (wall, cpu) = (wall.elapsed().as_secs_f64(), thread_cpu_seconds() - cpu);
    let sim_time = r.steps as f64 * DT;
    println!("final rollout of {}: {}", fmt_gait(&gait), describe(&r));
    println!("  distance walked        {:.4} m in {sim_time:.3} s ({:.3} m/s)", r.distance, r.distance / sim_time);
    println!("  max foot penetration   {:.3e} m", r.max_penetration);
    println!("  trunk height           {:.4} … {:.4} m", r.min_trunk_z, r.max_trunk_z);
    println!("  iterations per step    {:.2} (max {})", r.iterations as f64 / r.steps.max(1) as f64, r.max_iterations);
    println!(
        "  wall time              {wall:.3} s for {sim_time:.3} s simulated ({:.2}× real time); thread CPU time {cpu:.3} s ({:.2}× real time)",
        sim_time / wall,
        sim_time / cpu
    );
}
