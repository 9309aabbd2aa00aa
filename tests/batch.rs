//! Batch rollouts (`maxdyn::batch::Batch`) are bit-identical to stepping each sim alone,
//! for 1, 2 and 3 threads: the quadruped under PD control with a different gait per sim,
//! and the sphere chain through its contacts and split steps. A failing sim stops alone.

mod common;

use maxdyn::batch::Batch;
use maxdyn::{Error, Sim, SolverOptions};
use maxdyn_scenes::quadruped::{perturbed_learned_gaits, Quadruped};

/// Every body state of a sim, as bits (so NaNs and signed zeros compare exactly too).
fn bits(sim: &Sim) -> Vec<u64> {
    (0..sim.model().body_count()).flat_map(|b| sim.body_state(b).unwrap()).map(f64::to_bits).collect()
}


#[test]
fn quadruped_rollouts_match_serial_stepping_for_any_thread_count() {
    let q = Quadruped::load();
    let gaits = perturbed_learned_gaits(5, 7);
    let steps = 150;
    let serial: Vec<Vec<u64>> = gaits
        .iter()
        .map(|g| {
            let mut sim = q.standing(g, 0.0);
            for _ in 0..steps {
                let t = sim.time();
                q.control(&mut sim, g, t);
                sim.step().unwrap();
            }
            bits(&sim)
        })
        .collect();
    assert_ne!(serial[0], serial[1], "the gaits must give different trajectories");
    for threads in [1, 2, 3] {
        let sims = gaits.iter().map(|g| q.standing(g, 0.0)).collect();
        let mut batch = Batch::from_sims(sims, threads).unwrap();
        assert_eq!(batch.thread_count(), threads);
        // two calls, to cover state carried between calls
        for k in [100, steps - 100] {
            let failed = batch.step_with(k, |i, sim| {
                let t = sim.time();
                q.control(sim, &gaits[i], t)
            });
            assert_eq!(failed, 0, "{:?}", batch.failures());
        }
        for (i, expected) in serial.iter().enumerate() {
            assert_eq!(batch.sim(i).step_count(), steps as u64);
            assert!(bits(batch.sim(i)) == *expected, "{threads} threads: sim {i} differs from serial stepping");
        }
        let nb = q.model.body_count();
        let mut all = vec![0.0; batch.len() * nb * 13];
        batch.body_states(&mut all).unwrap();
        let all_bits: Vec<u64> = all.iter().map(|x| x.to_bits()).collect();
        assert!(all_bits == serial.concat(), "{threads} threads: body_states differs");
    }
}

/// SCENARIOS B2, n = 8, each sim started with a different sideways velocity.
fn chain_sims(n: usize) -> Vec<Sim> {
    let (b, _) = common::sphere_chain(8);
    let model = std::sync::Arc::new(maxdyn::Model::new(&b).unwrap());
    (0..n)
        .map(|i| {
            let mut sim = Sim::new(model.clone(), 0.01).unwrap();
            // odd chains get few iterations, so that they take split steps (10: since the
            // relaxed solve may take twice the cap, 11–15 need no split and 7 fails; 13
            // before it); the warm ones restart jammed solves cold (both retry paths covered)
            let o = sim.options();
            let max_iterations = if i % 2 == 0 { o.max_iterations } else { 10 };
            sim.set_options(maxdyn::SolverOptions { max_iterations, ..o }).unwrap();
            let mut s = sim.body_state(7).unwrap();
            s[7] += 0.1 * i as f64;
            sim.set_body_state(7, &s).unwrap();
            sim
        })
        .collect()
}

#[test]
fn sphere_chain_with_contacts_matches_serial_stepping_for_any_thread_count() {
    let steps = 250;
    let (mut splits, mut restarts) = (0, 0);
    let serial: Vec<Vec<u64>> = chain_sims(4)
        .into_iter()
        .map(|mut sim| {
            for _ in 0..steps {
                let st = sim.step().unwrap();
                splits += (st.substeps > 1) as usize;
                restarts += st.cold_restarts;
            }
            bits(&sim)
        })
        .collect();
    assert!(splits >= 1, "no split step: the test no longer covers the retry path");
    assert!(restarts >= 1, "no cold restart: the test no longer covers the warm start's retry");
    for threads in [1, 2, 3] {
        let mut batch = Batch::from_sims(chain_sims(4), threads).unwrap();
        assert_eq!(batch.step(steps), 0, "{:?}", batch.failures());
        for (i, expected) in serial.iter().enumerate() {
            assert!(bits(batch.sim(i)) == *expected, "{threads} threads: chain {i} differs from serial stepping");
        }
    }
}

#[test]
fn a_failing_sim_stops_alone_at_its_last_good_step() {
    // from its step 40 on, sim 1 may take one interior-point iteration per step, cold, and
    // no split: its next step fails (the chain lies on the ground from the start; warm, one
    // Newton step of the projected solve would still do)
    let control = |i: usize, sim: &mut Sim| {
        if i == 1 && sim.step_count() == 40 {
            sim.set_options(SolverOptions { max_iterations: 1, max_splits: 0, contact_warm_start: false, ..sim.options() }).unwrap();
        }
    };
    let steps = 100;
    let mut reference = chain_sims(3);
    for (i, sim) in reference.iter_mut().enumerate() {
        for k in 0..steps {
            control(i, sim);
            if let Err(e) = sim.step() {
                assert_eq!((i, k), (1, 40), "only the hobbled sim may fail, at its step 40: {e}");
                break;
            }
        }
    }
    for threads in [1, 2] {
        let mut batch = Batch::from_sims(chain_sims(3), threads).unwrap();
        assert_eq!(batch.step_with(steps, control), 1);
        assert!(matches!(batch.failure(1), Some(Error::NotConverged { .. })), "{:?}", batch.failure(1));
        assert!(batch.failure(0).is_none() && batch.failure(2).is_none());
        assert_eq!(batch.sim(1).step_count(), 40);
        assert_eq!(batch.sim(2).step_count(), steps as u64);
        for (i, sim) in reference.iter().enumerate() {
            assert!(bits(batch.sim(i)) == bits(sim), "{threads} threads: sim {i} differs");
        }
        // a stopped sim stays stopped; cleared, it steps (and fails) again
        assert_eq!(batch.step(1), 1);
        assert_eq!(batch.sim(1).step_count(), 40);
        assert_eq!(batch.sim(0).step_count(), steps as u64 + 1);
        batch.clear_failure(1);
        assert!(batch.failure(1).is_none());
        assert_eq!(batch.step(1), 1);
        assert!(batch.failure(1).is_some());
        assert_eq!(batch.sim(1).step_count(), 40);
    }
}

#[test]
fn a_panicking_controller_reaches_the_caller_after_the_other_sims() {
    let mut batch = Batch::from_sims(chain_sims(4), 2).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        batch.step_with(3, |i, _| {
            if i == 3 {
                panic!("controller of sim 3");
            }
        })
    }));
    assert!(r.is_err());
    // sims 0 and 1 (the caller's chunk) and 2 (before sim 3 on the worker) took their steps
    let counts: Vec<u64> = batch.sims().iter().map(|s| s.step_count()).collect();
    assert_eq!(counts, [3, 3, 3, 0]);
    // the pool is still usable
    assert_eq!(batch.step(2), 0);
    assert_eq!(batch.sim(3).step_count(), 2);
}
