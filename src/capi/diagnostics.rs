//! Diagnostics of `maxdyn_sim` from C: what the last step did, energy and its
//! bookkeeping, constraint violation and rank; and the live-object count of leak tests.

use super::args::{count_i32, out};
use super::guard::{call, with_mut, with_ref};
use super::handles::live_objects;
use super::sim::maxdyn_sim;
use super::status::maxdyn_status;

/// What the last step (successful or not) did. Fields are only ever added at the end
/// (the library writes the whole struct: compile against the header of the library you
/// link).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct maxdyn_step_stats {
    /// Newton iterations.
    pub iterations: i32,
    /// Largest residual entry at the end of the step.
    pub residual: f64,
    /// 1 if the residual stalled above the tolerance but was accepted below the
    /// acceptance level (a singular configuration), else 0.
    pub stalled: i32,
    /// Line-search step halvings summed over the step.
    pub line_search_halvings: i32,
    /// Contacts in the model.
    pub contacts: i32,
    /// Contacts whose normal force exceeds their gap slack (N vs m) at the solution:
    /// the ones touching.
    pub active_contacts: i32,
    /// Largest complementarity product at the end of the step (0 without contacts);
    /// below the contact tolerance when the step converged.
    pub complementarity: f64,
    /// 1 if the direct contact solve failed and a rescue (the Tresca fixed point, or the
    /// relaxed solve) took over.
    pub fallback: i32,
    /// Intervals the step took: 1, or more when Newton found no solution of the whole
    /// step and it was split in halves (see `maxdyn_sim_step`).
    pub substeps: i32,
    /// Rounds of the Tresca fixed point (0 unless `fallback`).
    pub tresca_rounds: i32,
    /// Warm-started contact solves that failed and were restarted cold (their
    /// iterations are counted in `iterations`).
    pub cold_restarts: i32,
    /// 1 if Coulomb's problem had no solution the solver could reach and the step is the
    /// solution of Anitescu's convex relaxation: rigid (no penetration) and in the friction
    /// cone, sliding contacts separating by dt·μ·(slip speed) over the step
    /// (docs/COLLISION.md, "Piles").
    pub relaxed: i32,
}

/// Statistics of the last step (successful or not) in `*out`; all zero before the first.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_step_stats(sim: *const maxdyn_sim, out: *mut maxdyn_step_stats) -> maxdyn_status {
    call("maxdyn_sim_get_step_stats", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| {
            let st = s.inner.stats();
            Ok(maxdyn_step_stats {
                iterations: count_i32(st.iterations),
                residual: st.residual,
                stalled: i32::from(st.stalled),
                line_search_halvings: count_i32(st.line_search_halvings),
                contacts: count_i32(st.contacts),
                active_contacts: count_i32(st.active_contacts),
                complementarity: st.complementarity,
                fallback: i32::from(st.fallback),
                substeps: count_i32(st.substeps),
                tresca_rounds: count_i32(st.tresca_rounds),
                cold_restarts: count_i32(st.cold_restarts),
                relaxed: i32::from(st.relaxed),
            })
        })?;
        Ok(())
    })
}

/// Kinetic and gravitational potential energy (J) of the current state.
///
/// # Safety
/// `sim` is NULL or live; `kinetic` and `potential` are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_energy(sim: *const maxdyn_sim, kinetic: *mut f64, potential: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_energy", || {
        let k = out(kinetic, "kinetic")?;
        let p = out(potential, "potential")?;
        let (ek, ep) = with_ref(sim, "sim", |s| Ok(s.inner.energy()))?;
        super::args::finite_answer("kinetic", &[ek, ep])?;
        (*k, *p) = (ek, ep);
        Ok(())
    })
}

/// Potential energy stored in the springs (joint and point-to-point, J) at the current
/// configuration, in `*out`; it is included in the potential of `maxdyn_sim_get_energy`.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_spring_energy(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_spring_energy", || {
        let o = super::args::out(out, "out")?;
        let e = with_ref(sim, "sim", |s| Ok(s.inner.spring_energy()))?;
        super::args::finite_answer("out", &[e])?;
        *o = e;
        Ok(())
    })
}

/// Energy bookkeeping since the sim was created or last reset: the work done by the
/// inputs (joint inputs, body forces and torques; J) in `*input_work` and the energy
/// dissipated by the dampers (J) in `*dissipation`. With E = kinetic + potential
/// (`maxdyn_sim_get_energy`, springs included), E(t) − E(0) − input_work + dissipation stays
/// at the integrator's bounded energy error.
///
/// # Safety
/// `sim` is NULL or live; the out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_energy_account(sim: *const maxdyn_sim, input_work: *mut f64, dissipation: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_energy_account", || {
        let w = out(input_work, "input_work")?;
        let d = out(dissipation, "dissipation")?;
        let acc = with_ref(sim, "sim", |s| Ok(s.inner.energy_account()))?;
        super::args::finite_answer("input_work", &[acc.input_work, acc.dissipation])?;
        *w = acc.input_work;
        *d = acc.dissipation;
        Ok(())
    })
}

/// Sets the input work and damper dissipation totals to zero (e.g. after setting the
/// state by hand).
///
/// # Safety
/// `sim` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_reset_energy_account(sim: *mut maxdyn_sim) -> maxdyn_status {
    call("maxdyn_sim_reset_energy_account", || {
        with_mut(sim, "sim", |s| {
            s.inner.reset_energy_account();
            Ok(())
        })
    })
}

/// Largest absolute joint constraint value (m or rad-like units) at the current state.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_constraint_violation(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_constraint_violation", || {
        let o = super::args::out(out, "out")?;
        let v = with_ref(sim, "sim", |s| Ok(s.inner.constraint_violation()))?;
        super::args::finite_answer("out", &[v])?;
        *o = v;
        Ok(())
    })
}

/// How many joint constraints are redundant at the current configuration (a planar loop
/// closed by parallel revolute joints in 3-D repeats three rows): `rows` constraint rows
/// in all, `rank` independent ones, `redundant` = rows − rank, `dof` = 6·bodies − rank.
/// Redundant rows are tolerated by the solver (their multipliers are not unique). Dense
/// SVD: a setup-time diagnostic, not for every step.
///
/// # Safety
/// `sim` is NULL or live; the four out-pointers are NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_constraint_rank(
    sim: *const maxdyn_sim,
    rows: *mut i32,
    rank: *mut i32,
    redundant: *mut i32,
    dof: *mut i32,
) -> maxdyn_status {
    call("maxdyn_sim_get_constraint_rank", || {
        let rows = super::args::out(rows, "rows")?;
        let rank = super::args::out(rank, "rank")?;
        let redundant = super::args::out(redundant, "redundant")?;
        let dof = super::args::out(dof, "dof")?;
        let r = with_ref(sim, "sim", |s| Ok(s.inner.constraint_rank()))?;
        let n = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
        (*rows, *rank, *redundant, *dof) = (n(r.rows), n(r.rank), n(r.redundant), n(r.dof));
        Ok(())
    })
}

/// Number of builders, models and sims created and not yet freed, over all threads.
/// For leak tests: it returns to 0 when every object has been freed.
#[no_mangle]
pub extern "C" fn maxdyn_debug_live_objects() -> usize {
    live_objects()
}

/// Deepest penetration (m, ≥ 0) at the current configuration, in `*out`, by one rule for
/// every contact, before the first step as after any: the described contacts (points)
/// and the collision shapes, searched afresh where the bodies are now. A step that starts
/// deeper than 1e-5 m first moves the bodies out (no velocity added: only the potential
/// of the lift) and reports the depth in `maxdyn_sim_get_resolved_penetration`. With
/// collision shapes the call allocates (the search's buffers): a diagnostic between
/// steps.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_deepest_penetration(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_deepest_penetration", || {
        let o = super::args::out(out, "out")?;
        let d = with_ref(sim, "sim", |s| Ok(s.inner.deepest_penetration()))?;
        super::args::finite_answer("out", &[d])?;
        *o = d;
        Ok(())
    })
}

/// The penetration depth (m) the last step moved the bodies out of before it stepped, in
/// `*out`; 0 if it started out of penetration.
///
/// # Safety
/// `sim` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_get_resolved_penetration(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    call("maxdyn_sim_get_resolved_penetration", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(sim, "sim", |s| Ok(s.inner.resolved_penetration()))?;
        Ok(())
    })
}
