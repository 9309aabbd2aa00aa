//! Divergence detection: a step in which the springs gain energy by more than any stable
//! step can is refused (`Error::Diverged`) before it is committed.
//!
//! The springs are the only forces the step treats explicitly that depend on the state
//! (paper section 3: ∇V at z_{k+1}); gravity is constant, the dampers are implicit, joints
//! and contacts are solved for. A spring too stiff for the step (ω·dt > 2 for a mass on a
//! spring, ω² = k/m) makes the scheme unstable: each step multiplies the oscillation's
//! energy by about (ω·dt)⁴ (k = 1e9 N/m on 1 g at dt 0.01: ~1e16).
//!
//! The springs' gain over a step is their work (force at z_{k+1} times the mean rate,
//! `forces::energy::spring_work`) plus the rise of their potential:
//!
//!   G = W_springs + V_springs(z_{k+1}) − V_springs(z_k)
//!
//! A mass on a stable spring gains at most ‖A‖² − 1 ≤ 17 times its energy in one step (A
//! the step map at the stability limit ω·dt = 2), so the step diverges when
//!
//!   G > GROWTH · (T_k + V_springs(z_k) + |ΔT − W_springs|)
//!
//! T the kinetic energy; ΔT − W_springs is what everything else (gravity, inputs, dampers,
//! joints, contacts) gave the bodies this step, so that energy put in by another element
//! (a joint pulling an inconsistent start together, a contact pushing out) can feed the
//! springs without being taken for divergence.
//!
//! A spring just beyond the limit grows less than GROWTH per step (≈ 5.9× at ω·dt = 2.2,
//! 16× at 2.5, 47× at 3, 89× at 3.4: λ² of the step map), so the energy the springs hold
//! is also held against a running budget, everything they could have been given:
//!
//!   T_{k+1} + V_springs(z_{k+1}) > GROWTH · (T_a + V_springs(z_a) + Σ_{j=a..k} |ΔT_j − W_springs,j|)
//!
//! from the step a where the budget started (the first step, or the first after the
//! caller changed the state). A stable spring holds at most 1/(1 − ω·dt/2) times what it
//! was given (20 at ω·dt = 1.9), an unstable one grows geometrically and crosses the
//! budget within a few steps (measured in tests/reliability.rs). The price: a spring
//! within 1 % of the stability limit (ω·dt > 1.98), whose energy swings more than
//! GROWTH-fold, is reported too. The check runs only in models with springs and
//! allocates nothing.

use crate::data::Data;
use crate::forces::energy::{spring_work, SpringBudget};
use crate::forces::potential_energy;
use crate::model::{Error, Model, Result};

/// Largest factor by which a step's spring gain may exceed the energy already there
/// (a stable step: ≤ 17).
pub const GROWTH: f64 = 100.0;

/// `Err(Error::Diverged)` if the step about to be committed (the prediction in `d.frame`,
/// the velocities in the iterate) gives the springs more energy than the bounds of the
/// module docs; otherwise the springs' budget takes the step (it is committed next).
pub fn check(model: &Model, d: &mut Data) -> Result<()> {
    let f = &model.forces;
    if f.joint_springs.is_empty() && f.point_springs.is_empty() {
        return Ok(());
    }
    let (at, s, st) = (&model.addresses, &d.scratch.it.s, &d.state);
    let springs0 = potential_energy(model, &d.inputs, &st.x, &st.q);
    let springs1 = potential_energy(model, &d.inputs, &d.frame.x1, &d.frame.q1);
    let work = spring_work(model, &d.frame, &d.inputs, |i| at.velocities(s, i));
    let (mut kinetic0, mut kinetic1) = (0.0, 0.0);
    for (i, b) in model.bodies.iter().enumerate() {
        let kinetic = |(v, w): (crate::math::V3, crate::math::V3)| 0.5 * b.mass * v.norm_squared() + 0.5 * w.dot(&(b.inertia * w));
        kinetic0 += kinetic((st.v[i], st.w[i]));
        kinetic1 += kinetic(at.velocities(s, i));
    }
    let (before, after) = (kinetic0 + springs0, kinetic1 + springs1);
    let supplied_now = (kinetic1 - kinetic0 - work).abs();
    let gain = work + springs1 - springs0;
    let bound = GROWTH * (before + supplied_now);
    // NaN compares false: a non-finite step is the finiteness check's to report
    if gain > bound {
        return Err(Error::Diverged { gain, bound });
    }
    let budget = d.energy.springs;
    let start = if before == budget.last { budget.supplied } else { before };
    let supplied = start + supplied_now;
    // held > GROWTH · supplied, said as the gain beyond the supply against its bound
    if after > GROWTH * supplied {
        return Err(Error::Diverged { gain: after - supplied, bound: (GROWTH - 1.0) * supplied });
    }
    d.energy.springs = SpringBudget { last: after, supplied };
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::data::Data;
    use crate::joints::JointType;
    use crate::model::{Builder, Inertia, Model, Parent};
    use crate::step::{step_once, Rescue, SolverOptions};

    fn kinetic(model: &Model, d: &Data) -> f64 {
        let b = &model.bodies[0];
        0.5 * b.mass * d.state.v[0].norm_squared() + 0.5 * d.state.w[0].dot(&(b.inertia * d.state.w[0]))
    }

    /// Without gravity a body on a translational spring gains exactly the spring's work
    /// as kinetic energy (m(v₁ − v₀)/dt · v̄ dt = ΔT): spring_work is that work, to
    /// rounding (measured |ΔT − W| ≤ 2.9e-18 J over 200 steps, the largest step work 1.8e-4 J).
    #[test]
    fn spring_work_is_the_kinetic_energy_a_spring_alone_gives() {
        for point in [false, true] {
            let mut b = Builder::new();
            b.set_gravity([0.0; 3]).unwrap();
            b.add_body(2.0, Inertia::diagonal(0.1, 0.1, 0.1).unwrap()).unwrap();
            if point {
                b.set_body_pose(0, [0.3, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]).unwrap();
                b.add_spring(Parent::World, [0.0; 3], 0, [0.0; 3], 3.0, 0.0, 0.2).unwrap();
            } else {
                let j = b.add_joint(JointType::Prismatic, Parent::World, 0, [0.0; 3], [0.0; 3], [0.0, 1.0, 0.0]).unwrap();
                b.set_joint_spring(j, &[3.0], &[0.1]).unwrap();
            }
            let model = Model::new(&b).unwrap();
            let mut d = Data::new(&model, 0.01);
            let (mut worst, mut largest): (f64, f64) = (0.0, 0.0);
            for _ in 0..200 {
                let kinetic0 = kinetic(&model, &d);
                step_once(&model, &mut d, &SolverOptions::default(), Rescue::Allowed, 0.01).unwrap();
                // after the step the frame still holds v_k and z_{k+1}
                let (v, w) = (&d.state.v, &d.state.w);
                let work = super::spring_work(&model, &d.frame, &d.inputs, |i| (v[i], w[i]));
                worst = worst.max((kinetic(&model, &d) - kinetic0 - work).abs());
                largest = largest.max(work.abs());
            }
            println!("point spring {point}: max |ΔT − W| {worst:e}, max |W| {largest:e}");
            assert!(largest > 1e-4, "the spring works");
            assert!(worst < 1e-16, "point spring {point}: |ΔT − W| = {worst:e}");
        }
    }
}
