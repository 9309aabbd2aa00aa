//! Exact state (issue 13 part 5): save → step 1000 → restore → step 1000 replays the first
//! run bit for bit, in the same sim, in a fresh sim of the same model and in a clone; also
//! with contacts (the A1 quadruped standing under its PD controller) and with joint limits
//! (an arm driven against its limits). Bad state arrays are refused and change nothing.

use std::sync::Arc;

use maxdyn::{Builder, Error, Inertia, JointType, Model, Parent, Sim};
use maxdyn_scenes::mechanisms::pendulum_chain;
use maxdyn_scenes::quadruped::{Quadruped, START};

/// The full state after each of `n` steps, with `control` run before each step.
fn run(sim: &mut Sim, n: usize, control: &dyn Fn(&mut Sim)) -> Vec<Vec<f64>> {
    (0..n)
        .map(|k| {
            control(sim);
            sim.step().unwrap_or_else(|e| panic!("step {k}: {e}"));
            state(sim)
        })
        .collect()
}

fn state(sim: &Sim) -> Vec<f64> {
    let mut s = vec![0.0; sim.state_size()];
    sim.get_state(&mut s).unwrap();
    s
}

/// Bit-identical replays of 1000 steps from a state saved at `sim`'s current point: in
/// the same sim after restoring, in a fresh sim of the model, in a clone.
fn assert_replays(mut sim: Sim, control: &dyn Fn(&mut Sim)) {
    let saved = state(&sim);
    let twin = sim.clone();
    let first = run(&mut sim, 1000, control);
    assert_ne!(first[999], saved, "the run must move");
    sim.set_state(&saved).unwrap();
    assert_eq!(state(&sim), saved);
    let bits = |r: &Vec<Vec<f64>>| r.iter().map(|s| s.iter().map(|x| x.to_bits()).collect::<Vec<_>>()).collect::<Vec<_>>();
    assert!(bits(&run(&mut sim, 1000, control)) == bits(&first), "replay after restore differs");
    let mut fresh = Sim::new(sim.model().clone(), 0.5).unwrap();
    fresh.set_state(&saved).unwrap();
    assert_eq!(fresh.dt(), twin.dt());
    assert!(bits(&run(&mut fresh, 1000, control)) == bits(&first), "replay in a fresh sim differs");
    let mut twin = twin;
    assert!(bits(&run(&mut twin, 1000, control)) == bits(&first), "replay in a clone differs");
}

#[test]
fn a_swinging_chain_replays_bit_for_bit() {
    let mut sim = pendulum_chain(8, false, 1e-3);
    sim.set_joint_velocity(0, &[2.0]).unwrap();
    sim.set_joint_input(3, &[0.5]).unwrap();
    for _ in 0..100 {
        sim.step().unwrap();
    }
    assert_eq!(sim.step_count(), 100);
    assert_replays(sim, &|_| {});
}

#[test]
fn the_quadruped_standing_on_its_contacts_replays_bit_for_bit() {
    let q = Arc::new(Quadruped::load());
    let mut sim = q.standing(&START, 0.0);
    for _ in 0..200 {
        let t = sim.time();
        q.control(&mut sim, &START, t);
        sim.step().unwrap();
    }
    assert!(q.feet.iter().any(|&c| sim.contact(c).unwrap().normal_force > 1.0), "feet carry the robot");
    let q2 = q.clone();
    assert_replays(sim, &move |s: &mut Sim| {
        let t = s.time();
        q2.control(s, &START, t)
    });
}

#[test]
fn an_arm_pushed_against_its_limits_replays_bit_for_bit() {
    let mut b = Builder::new();
    let mut parent = Parent::World;
    for i in 0..4 {
        let body = b.add_body(1.0, Inertia::diagonal(0.02, 0.02, 0.005).unwrap()).unwrap();
        let p = if i == 0 { [0.0; 3] } else { [0.0, 0.0, 0.15] };
        let j = b.add_joint(JointType::Revolute, parent, body, p, [0.0, 0.0, -0.15], [0.0, 1.0, 0.0]).unwrap();
        b.set_joint_limits(j, &[-0.4], &[0.3]).unwrap();
        parent = Parent::Body(body);
    }
    let mut sim = Sim::new(Arc::new(Model::new(&b).unwrap()), 1e-3).unwrap();
    for j in 0..4 {
        sim.set_joint_input(j, &[if j % 2 == 0 { 3.0 } else { -3.0 }]).unwrap();
    }
    for _ in 0..300 {
        sim.step().unwrap();
    }
    assert!((0..4).any(|l| sim.limit(l).unwrap().force > 0.1), "a limit carries load");
    assert_replays(sim, &|_| {});
}

#[test]
fn bad_states_are_refused_and_change_nothing() {
    let mut sim = pendulum_chain(3, false, 1e-3);
    sim.step().unwrap();
    let good = state(&sim);
    let n = good.len();
    assert!(matches!(sim.set_state(&good[1..]), Err(Error::WrongLength { got, expected, .. }) if got == n - 1 && expected == n));
    let mut bad = good.clone();
    bad[n - 1] = f64::INFINITY;
    assert_eq!(sim.set_state(&bad), Err(Error::NonFinite("state")));
    let mut bad = good.clone();
    bad[0] = 99.0; // version
    assert!(matches!(sim.set_state(&bad), Err(Error::InvalidArgument("state", _))));
    let mut bad = good.clone();
    bad[1] = 4.0; // saved with 4 bodies
    assert!(matches!(sim.set_state(&bad), Err(Error::InvalidArgument("state", m)) if m.contains("another model")));
    let other = pendulum_chain(4, false, 1e-3);
    assert!(matches!(sim.set_state(&vec![0.0; other.state_size()]), Err(Error::WrongLength { .. })));
    let mut bad = good.clone();
    bad[11] += 1.0; // the model's fingerprint
    assert!(matches!(sim.set_state(&bad), Err(Error::InvalidArgument("state", m)) if m.contains("numbers")));
    let mut bad = good.clone();
    bad[13] = 2.0; // dt above MAX_DT (after the version, the 10 counts, the fingerprint)
    assert_eq!(sim.set_state(&bad), Err(Error::InvalidTimeStep(2.0)));
    assert_eq!(state(&sim), good);
}
