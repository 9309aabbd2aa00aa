//! Seeded random C-API call sequences (issue 16): builders with random bodies, joints,
//! contacts, springs and dampers, models, sims with random time steps, then random
//! setters, steps and getters, every argument drawn from ordinary values and from the
//! bad ones (NaN, ±∞, 1e300, 1e-300, 0, negative, unknown ids, huge lengths). Holds:
//! no call panics (MAXDYN_STATUS_INTERNAL), no call leaves a non-finite state whatever
//! its status (so no NaN is ever returned with OK), no query that returns OK writes a
//! non-finite number (kinematics, dynamics terms, derivatives, state), every object is
//! freed (live count 0), every refusal's message names only parameters of its function
//! (as include/maxdyn.h declares them), and every sequence finishes (the slowest one's
//! time is printed, not asserted: a wall-clock limit depends on the machine's load).
//! The derivative calls are drawn rarely (a linearization by differences costs 2 (nx +
//! nu) steps; the models have at most 4 bodies); the difference step is sometimes one of
//! its edge values (NaN, ±∞, 0, 1e-20, the ends of its range, 1000). Issue 30's surfaces
//! are drawn too: recorders (to a file, to /dev/full where every write fails, to a missing
//! directory; frames of the sim and of another model's sim), batches of the model (0–3
//! sims on 1–2 threads, callbacks that set inputs, step their own sim or the batch, or
//! stop their sim; failures cleared) and the deepest penetration.
//!
//! 2000 sequences by default (a few seconds); `MAXDYN_FUZZ_SEQUENCES=10000` and
//! `MAXDYN_FUZZ_SEED=k` for longer runs. The counts are printed.

use std::ffi::{c_int, c_void};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicU32, Ordering};

use maxdyn::capi::batch::*;
use maxdyn::capi::maxdyn_status::*;
use maxdyn::capi::*;

#[path = "common/capi.rs"]
mod capi_helpers;
use capi_helpers::{foreign_arguments, last_error, lock};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Mostly an ordinary value in [lo, hi]; sometimes a bad or extreme one.
    fn value(&mut self, lo: f64, hi: f64) -> f64 {
        const BAD: [f64; 9] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300, -1e300, 1e-300, 0.0, -1.0, 1e154];
        if self.chance(8) {
            let bad = BAD[self.below(BAD.len() as u64) as usize];
            if bad.abs() >= ORDINARY {
                EXTREME_DRAWN.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            bad
        } else {
            self.uniform(lo, hi)
        }
    }
    fn array<const N: usize>(&mut self, lo: f64, hi: f64) -> [f64; N] {
        std::array::from_fn(|_| self.value(lo, hi))
    }
    /// Mostly a valid id below `count`; sometimes the world, a negative or a huge one.
    fn id(&mut self, count: i32) -> i32 {
        match self.below(20) {
            0 => -1,
            1 => -7,
            2 => i32::MAX,
            3 => count,
            _ => self.below(count.max(1) as u64) as i32,
        }
    }
    /// An array length: mostly `n`, sometimes another one or SIZE_MAX.
    fn len(&mut self, n: usize) -> usize {
        match self.below(20) {
            0 => usize::MAX,
            1 => n + 1,
            2 => n.saturating_sub(1),
            _ => n,
        }
    }
}

#[derive(Default)]
struct Counts {
    calls: u64,
    ok: u64,
    models: u64,
    sims: u64,
    steps_ok: u64,
    internal: u64,
    /// Queries (kinematics, dynamics, derivatives, state) that returned OK.
    queries_ok: u64,
    /// Queries refused with MAXDYN_STATUS_NON_FINITE_RESULT: their answer overflows at a
    /// state, input or model beyond ORDINARY (were answered OK with ±∞ or NaN before).
    overflows: u64,
    /// The current model was built with a value beyond ORDINARY.
    extreme_model: bool,
    /// Refusals whose message names an argument its function does not have.
    foreign: Vec<String>,
    /// Recorders opened, frames written, writes that failed.
    recorders: u64,
    frames: u64,
    failed_writes: u64,
    /// Batches made, and the batch steps that returned OK.
    batches: u64,
    batch_steps_ok: u64,
}

impl Counts {
    fn saw(&mut self, status: maxdyn_status) -> bool {
        self.calls += 1;
        if status == MAXDYN_STATUS_INTERNAL {
            self.internal += 1;
        }
        if status != MAXDYN_STATUS_OK {
            // the last error is this call's when the call was the last to fail; a message
            // names its function, so it is checked against that function either way
            let msg = last_error();
            let foreign = foreign_arguments(&msg);
            let function = msg.split(':').next().unwrap_or("");
            if !foreign.is_empty() && !self.foreign.iter().any(|f| f.starts_with(&format!("{function} {foreign:?}"))) {
                self.foreign.push(format!("{function} {foreign:?}: {msg:?}"));
            }
        }
        self.overflows += u64::from(status == MAXDYN_STATUS_NON_FINITE_RESULT);
        let ok = status == MAXDYN_STATUS_OK;
        self.ok += u64::from(ok);
        ok
    }
}

unsafe fn random_builder(r: &mut Rng, c: &mut Counts) -> *mut maxdyn_builder {
    let mut b = null_mut();
    assert!(c.saw(maxdyn_builder_new(&mut b)));
    let bodies = 1 + r.below(4) as i32;
    for _ in 0..bodies {
        let (m, i) = (r.value(0.1, 5.0), r.value(0.01, 0.5));
        let inertia = if r.chance(90) { [i, 0.0, 0.0, 0.0, i, 0.0, 0.0, 0.0, i] } else { r.array(-1.0, 1.0) };
        c.saw(maxdyn_builder_add_body(b, m, inertia.as_ptr(), &mut -1));
    }
    let mut n_bodies = 0;
    c.saw(maxdyn_builder_get_body_count(b, &mut n_bodies));
    for _ in 0..r.below(5) {
        let kind = if r.chance(95) { r.below(12) as i32 } else { 40 };
        let child = r.id(n_bodies);
        let parent = if r.chance(40) { MAXDYN_WORLD } else { r.id(n_bodies) };
        let (pp, pc, axis) = (r.array::<3>(-0.5, 0.5), r.array::<3>(-0.5, 0.5), r.array::<3>(-1.0, 1.0));
        let mut j = -1;
        if c.saw(maxdyn_builder_add_joint(b, kind, parent, child, pp.as_ptr(), pc.as_ptr(), axis.as_ptr(), &mut j)) && r.chance(30) {
            let dof = [0usize, 1, 2, 3, 1, 2, 3, 4, 3, 4, 5, 6][kind as usize];
            let (k, rest) = (r.array::<6>(0.0, 100.0), r.array::<6>(-1.0, 1.0));
            // buffers of 6 (the most a joint has): only n = dof is accepted
            c.saw(maxdyn_builder_set_joint_spring(b, j, k.as_ptr(), rest.as_ptr(), r.len(dof)));
            let d = r.array::<6>(0.0, 10.0);
            c.saw(maxdyn_builder_set_joint_damper(b, j, d.as_ptr(), r.len(dof)));
        }
    }
    for _ in 0..r.below(4) {
        let p = r.array::<3>(-0.2, 0.2);
        let mut ci = -1;
        if r.chance(70) {
            c.saw(maxdyn_builder_add_ground_contact(b, r.id(n_bodies), p.as_ptr(), r.value(0.0, 0.2), r.value(0.0, 1.0), &mut ci));
        } else {
            let q = r.array::<3>(-0.2, 0.2);
            c.saw(maxdyn_builder_add_sphere_contact(b, r.id(n_bodies), p.as_ptr(), r.value(0.0, 0.2), r.id(n_bodies), q.as_ptr(), r.value(0.0, 0.2), r.value(0.0, 1.0), &mut ci));
        }
        if ci >= 0 && r.chance(30) {
            c.saw(maxdyn_builder_set_contact_cone(b, ci, r.below(3) as i32, r.below(10) as i32));
        }
    }
    if r.chance(20) {
        let (pa, pb) = (r.array::<3>(-0.2, 0.2), r.array::<3>(-0.2, 0.2));
        c.saw(maxdyn_builder_add_spring(b, r.id(n_bodies), pa.as_ptr(), if r.chance(50) { MAXDYN_WORLD } else { r.id(n_bodies) }, pb.as_ptr(), r.value(0.0, 100.0), r.value(0.0, 5.0), r.value(0.0, 1.0), &mut -1));
    }
    for body in 0..n_bodies {
        if r.chance(30) {
            let (x, q) = (r.array::<3>(-1.0, 2.0), r.array::<4>(-1.0, 1.0));
            c.saw(maxdyn_builder_set_body_pose(b, body, x.as_ptr(), q.as_ptr()));
        }
        if r.chance(30) {
            let (v, w) = (r.array::<3>(-2.0, 2.0), r.array::<3>(-5.0, 5.0));
            c.saw(maxdyn_builder_set_body_velocity(b, body, v.as_ptr(), w.as_ptr()));
        }
    }
    if r.chance(10) {
        c.saw(maxdyn_builder_set_gravity(b, r.array::<3>(-10.0, 10.0).as_ptr()));
    }
    // collision shapes: any type (an unknown one sometimes), on a body or the world, poses
    // that are sometimes not unit, parameter arrays of any length
    if r.chance(40) {
        c.saw(maxdyn_builder_add_shape(b, MAXDYN_WORLD, 0, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0].as_ptr(), null(), 0, &mut -1));
        for _ in 0..1 + r.below(3) {
            let kind = if r.chance(95) { r.below(5) as i32 } else { 9 };
            let mut pose = r.array::<7>(-0.2, 0.2);
            if r.chance(80) {
                pose[3..].copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
            }
            let params = r.array::<3>(-0.02, 0.2);
            let body = if r.chance(15) { MAXDYN_WORLD } else { r.id(n_bodies) };
            let mut shape = -1;
            let count = [0usize, 1, 2, 3, 2].get(kind as usize).copied().unwrap_or(1);
            c.saw(maxdyn_builder_add_shape(b, body, kind, pose.as_ptr(), params.as_ptr(), r.len(count), &mut shape));
            if r.chance(30) {
                c.saw(maxdyn_builder_set_shape_friction(b, r.id(shape + 1), r.value(-0.1, 1.0)));
            }
            if r.chance(20) {
                c.saw(maxdyn_builder_set_collision_filter(b, r.id(shape + 1), r.next() as u32, r.next() as u32));
            }
            if r.chance(10) {
                c.saw(maxdyn_builder_exclude_shape_pair(b, r.id(shape + 1), r.id(shape + 1)));
            }
        }
    }
    let mut n_joints = 0;
    c.saw(maxdyn_builder_get_joint_count(b, &mut n_joints));
    const NAMES: [&std::ffi::CStr; 4] = [c"base", c"arm", c"", c"\u{e9}l\u{e9}ment"];
    if r.chance(30) {
        c.saw(maxdyn_builder_set_body_name(b, r.id(n_bodies), NAMES[r.below(4) as usize].as_ptr()));
    }
    if r.chance(30) {
        let (lo, hi) = (r.array::<6>(-3.0, 0.0), r.array::<6>(0.0, 3.0));
        let n = 1 + r.below(3) as usize;
        let n = r.len(n);
        c.saw(maxdyn_builder_set_joint_limits(b, r.id(n_joints), lo.as_ptr(), hi.as_ptr(), n));
    }
    if r.chance(20) {
        c.saw(maxdyn_builder_add_mimic(b, r.id(n_joints), r.id(n_joints), r.value(-2.0, 2.0), r.value(-0.5, 0.5), &mut -1));
    }
    if r.chance(30) {
        let pose = r.array::<7>(-1.0, 1.0);
        c.saw(maxdyn_builder_add_frame(b, NAMES[r.below(4) as usize].as_ptr(), if r.chance(30) { MAXDYN_WORLD } else { r.id(n_bodies) }, pose.as_ptr(), &mut -1));
    }
    b
}

/// Model queries with random ids and buffers (sizes 0 and 1 included).
unsafe fn random_queries(r: &mut Rng, c: &mut Counts, m: *const maxdyn_model, bodies: i32, joints: i32) {
    let mut frames = 0;
    c.saw(maxdyn_model_get_frame_count(m, &mut frames));
    for _ in 0..r.below(6) {
        let mut buf = [0 as std::ffi::c_char; 8];
        let size = [0usize, 1, 8][r.below(3) as usize];
        let mut len = 0usize;
        let (mut out_i, mut out_d) = (0i32, [0.0f64; 9]);
        match r.below(6) {
            0 => c.saw(maxdyn_model_get_body_name(m, r.id(bodies), buf.as_mut_ptr(), size, &mut len)),
            1 => c.saw(maxdyn_model_get_joint_name(m, r.id(joints), buf.as_mut_ptr(), size, &mut len)),
            2 => c.saw(maxdyn_model_find_body(m, c"arm".as_ptr(), &mut out_i)),
            3 => c.saw(maxdyn_model_get_frame_pose(m, r.id(frames), out_d.as_mut_ptr())),
            4 => c.saw(maxdyn_model_get_body_inertia(m, r.id(bodies), out_d.as_mut_ptr())),
            _ => {
                let (mut lo, mut hi) = ([0.0; 6], [0.0; 6]);
                let n = 1 + r.below(3) as usize;
                let n = r.len(n);
                c.saw(maxdyn_model_get_joint_limits(m, r.id(joints), lo.as_mut_ptr(), hi.as_mut_ptr(), n))
            }
        };
        if size > 0 {
            assert!(buf[..size].contains(&0), "a name buffer left without its terminating NUL");
        }
    }
}

/// Every body state of `s` is finite.
unsafe fn finite(s: *const maxdyn_sim, bodies: i32) -> bool {
    let mut st = vec![f64::NAN; 13 * bodies as usize];
    maxdyn_sim_get_body_states(s, st.as_mut_ptr(), bodies as usize) == MAXDYN_STATUS_OK && st.iter().all(|v| v.is_finite())
}

unsafe fn random_calls(r: &mut Rng, c: &mut Counts, m: *const maxdyn_model, s: *mut maxdyn_sim, bodies: i32, joints: i32) {
    for _ in 0..r.below(12) {
        let j = r.id(joints);
        // buffers of 6 (the most a joint has): only n = dof is accepted
        let values = r.array::<6>(-3.0, 3.0);
        let n = 1 + r.below(3) as usize;
        let n = r.len(n);
        let mut out = [0.0; 6];
        let op = r.below(24);
        let status = match op {
            0 => maxdyn_sim_set_joint_position(s, j, values.as_ptr(), n),
            1 => maxdyn_sim_set_joint_velocity(s, j, values.as_ptr(), n),
            2 => maxdyn_sim_set_joint_input(s, j, values.as_ptr(), n),
            3 => {
                let mut st = [0.0; 13];
                maxdyn_sim_get_body_state(s, r.id(bodies), st.as_mut_ptr());
                for v in st.iter_mut() {
                    if r.chance(10) {
                        *v = r.value(-3.0, 3.0);
                    }
                }
                maxdyn_sim_set_body_state(s, r.id(bodies), st.as_ptr())
            }
            4 => maxdyn_sim_set_body_force(s, r.id(bodies), r.array::<3>(-50.0, 50.0).as_ptr(), r.array::<3>(-5.0, 5.0).as_ptr()),
            5 => maxdyn_sim_set_body_wrench(s, r.id(bodies), r.array::<3>(-50.0, 50.0).as_ptr(), r.array::<3>(-5.0, 5.0).as_ptr(), r.array::<3>(-0.3, 0.3).as_ptr()),
            6 | 7 | 19 | 20 => {
                let status = maxdyn_sim_step(s);
                c.steps_ok += u64::from(status == MAXDYN_STATUS_OK);
                status
            }
            8 => maxdyn_sim_step_n(s, r.below(4) as i32 - 1),
            9 => maxdyn_sim_get_joint_position(s, j, out.as_mut_ptr(), n),
            10 => {
                // contact reports into a buffer of 0 to 3 records
                let mut records = [maxdyn_shape_contact::default(); 3];
                let mut written = 0usize;
                maxdyn_sim_get_shape_contacts(s, records.as_mut_ptr(), r.below(4) as usize, &mut written)
            }
            11 => {
                // the exact state back in, whole or (sometimes) a wrong length
                let mut size = 0usize;
                maxdyn_sim_state_size(s, &mut size);
                let mut state = vec![0.0; size];
                maxdyn_sim_get_state(s, state.as_mut_ptr(), size);
                maxdyn_sim_set_state(s, state.as_ptr(), if r.chance(80) { size } else { r.len(size) })
            }
            12 => {
                let mut m = [0.0; 64];
                maxdyn_sim_get_mass_matrix(s, m.as_mut_ptr(), r.below(65) as usize)
            }
            13 => maxdyn_sim_set_contact_margin(s, r.value(0.0, 0.1)),
            14 | 15 => kinematics(r, c, s, bodies),
            16 => dynamics_terms(r, c, s),
            17 => derivatives(r, c, s),
            18 => state_calls(r, c, s, bodies),
            21 => recorder_calls(r, c, s),
            22 => batch_calls(r, c, m, bodies),
            23 => {
                let mut depth = f64::NAN;
                let out = if r.chance(90) { &mut depth as *mut f64 } else { null_mut() };
                query(c, s, &[], "deepest penetration", maxdyn_sim_get_deepest_penetration(s, out), &[if out.is_null() { 0.0 } else { depth }])
            }
            _ => unreachable!(),
        };
        c.saw(status);
        assert!(finite(s, bodies), "a non-finite state after call {op} (joint {j}, values {values:?}, n {n}) returning {status:?}");
    }
}

/// Largest magnitude of an ordinary state or input: the sequences also set finite
/// values up to 1e300 (masses, stiffnesses, positions, velocities), at which products
/// overflow.
const ORDINARY: f64 = 1e100;

/// Set when a value beyond ORDINARY was drawn (the builder's draws are checked after it).
static EXTREME_DRAWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Every body state component of `s` (and every number of `inputs`) is below ORDINARY.
unsafe fn ordinary(s: *const maxdyn_sim, inputs: &[f64]) -> bool {
    let mut n = 0usize;
    maxdyn_sim_state_size(s, &mut n);
    let mut st = vec![f64::NAN; n];
    maxdyn_sim_get_state(s, st.as_mut_ptr(), n) == MAXDYN_STATUS_OK && st.iter().chain(inputs).all(|v| v.abs() < ORDINARY)
}

/// `status` counted; with OK, every number the call wrote must be finite (an answer that
/// overflows is refused with MAXDYN_STATUS_NON_FINITE_RESULT).
unsafe fn query(c: &mut Counts, s: *const maxdyn_sim, inputs: &[f64], what: &str, status: maxdyn_status, out: &[f64]) -> maxdyn_status {
    if c.saw(status) {
        c.queries_ok += 1;
        assert!(out.iter().all(|v| v.is_finite()), "{what} returned OK with a non-finite value (ordinary state: {}): {out:?}", !c.extreme_model && ordinary(s, inputs));
    }
    status
}

/// A `coords` argument: mostly minimal or maximal, sometimes unknown.
fn coords(r: &mut Rng) -> i32 {
    [MAXDYN_COORDS_MINIMAL, MAXDYN_COORDS_MAXIMAL, MAXDYN_COORDS_MINIMAL, MAXDYN_COORDS_MAXIMAL, 7][r.below(5) as usize]
}

/// The velocity count in `coords` (0 when refused).
unsafe fn velocity_count(s: *const maxdyn_sim, coords: i32) -> usize {
    let mut m = 0usize;
    maxdyn_sim_velocity_count(s, coords, &mut m);
    m
}

/// Frame and point poses, twists and Jacobians with random ids, axes, coordinates, points
/// and lengths; the last status.
unsafe fn kinematics(r: &mut Rng, c: &mut Counts, s: *const maxdyn_sim, bodies: i32) -> maxdyn_status {
    // the models have 0 or 1 named frame: ids 0..2 and the bad ones
    let frames = 2;
    let axes = [MAXDYN_AXES_WORLD, MAXDYN_AXES_LOCAL, 5][r.below(3) as usize];
    let coords = coords(r);
    let m = velocity_count(s, coords);
    let n = r.len(6 * m);
    let mut jac = vec![0.0; 6 * m + 1];
    let (mut pose, mut twist) = ([0.0; 7], [0.0; 6]);
    let (frame, body, point) = (r.id(frames), r.id(bodies), r.array::<3>(-0.5, 0.5));
    match r.below(6) {
        0 => query(c, s, &[], "frame pose", maxdyn_sim_get_frame_pose(s, frame, pose.as_mut_ptr()), &pose),
        1 => query(c, s, &[], "frame velocity", maxdyn_sim_get_frame_velocity(s, frame, axes, twist.as_mut_ptr()), &twist),
        2 => query(c, s, &[], "frame Jacobian", maxdyn_sim_get_frame_jacobian(s, frame, axes, coords, jac.as_mut_ptr(), n), &jac),
        3 => query(c, s, &point, "point pose", maxdyn_sim_get_point_pose(s, body, point.as_ptr(), pose.as_mut_ptr()), &pose),
        4 => query(c, s, &point, "point velocity", maxdyn_sim_get_point_velocity(s, body, point.as_ptr(), axes, twist.as_mut_ptr()), &twist),
        _ => query(c, s, &point, "point Jacobian", maxdyn_sim_get_point_jacobian(s, body, point.as_ptr(), axes, coords, jac.as_mut_ptr(), n), &jac),
    }
}

/// Bias forces and inverse dynamics at random (sometimes bad) velocities and accelerations.
unsafe fn dynamics_terms(r: &mut Rng, c: &mut Counts, s: *const maxdyn_sim) -> maxdyn_status {
    let m = velocity_count(s, MAXDYN_COORDS_MINIMAL);
    let n = r.len(m);
    let qd: Vec<f64> = (0..=m).map(|_| r.value(-3.0, 3.0)).collect();
    let qdd: Vec<f64> = (0..=m).map(|_| r.value(-10.0, 10.0)).collect();
    let mut out = vec![0.0; m + 1];
    // a NaN or ∞ velocity is refused, a huge finite one that overflows too
    if r.chance(50) {
        query(c, s, &qd, "bias forces", maxdyn_sim_get_bias_forces(s, qd.as_ptr(), out.as_mut_ptr(), n), &out[..m])
    } else {
        query(c, s, &[&qd[..], &qdd[..]].concat(), "inverse dynamics", maxdyn_sim_inverse_dynamics(s, qd.as_ptr(), qdd.as_ptr(), out.as_mut_ptr(), n), &out[..m])
    }
}

/// Input derivative and the linearizations (analytic and by differences), sized from
/// `maxdyn_sim_state_dimensions`, sometimes without one of the matrices.
unsafe fn derivatives(r: &mut Rng, c: &mut Counts, s: *const maxdyn_sim) -> maxdyn_status {
    let coords = coords(r);
    let (mut nx, mut nu) = (0usize, 0usize);
    c.saw(maxdyn_sim_state_dimensions(s, coords, &mut nx, &mut nu));
    let mut a = vec![0.0; nx * nx];
    let mut b = vec![0.0; nx * nu + 1];
    let pa = if r.chance(85) { a.as_mut_ptr() } else { null_mut() };
    let pb = if r.chance(85) { b.as_mut_ptr() } else { null_mut() };
    const EDGES: [f64; 12] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -1e-6, 5e-324, 1e-20, 1e-10, 0.99e-10, 1.0, 1.5, 1000.0];
    let h = match r.below(10) {
        0..=6 => r.uniform(1e-7, 1e-4),
        7 => r.value(1e-7, 1e-4),
        _ => EDGES[r.below(EDGES.len() as u64) as usize],
    };
    match r.below(3) {
        0 => query(c, s, &[], "input derivative", maxdyn_sim_input_derivative(s, coords, b.as_mut_ptr(), r.len(nx * nu)), &b),
        1 => {
            let status = query(c, s, &[h], "linearize", maxdyn_sim_linearize(s, coords, pa, pb), &a);
            query(c, s, &[h], "linearize B", status, &b)
        }
        _ => {
            let status = query(c, s, &[h], "linearize by differences", maxdyn_sim_linearize_differences(s, coords, h, pa, pb), &a);
            query(c, s, &[h], "linearize by differences B", status, &b)
        }
    }
}

/// The state calls: sizes, minimal velocities, energies, constraint violation, all body
/// states set at once (sometimes perturbed), a copy stepped and freed.
unsafe fn state_calls(r: &mut Rng, c: &mut Counts, s: *mut maxdyn_sim, bodies: i32) -> maxdyn_status {
    let m = velocity_count(s, MAXDYN_COORDS_MINIMAL);
    let mut out = vec![0.0; m.max(2) + 1];
    match r.below(5) {
        0 => query(c, s, &[], "minimal velocities", maxdyn_sim_get_minimal_velocities(s, out.as_mut_ptr(), r.len(m)), &out[..m]),
        1 => {
            let (mut t, mut v, mut springs) = (0.0, 0.0, 0.0);
            let status = query(c, s, &[], "energy", maxdyn_sim_get_energy(s, &mut t, &mut v), &[t, v]);
            query(c, s, &[], "spring energy", maxdyn_sim_get_spring_energy(s, &mut springs), &[springs]);
            status
        }
        2 => query(c, s, &[], "constraint violation", maxdyn_sim_get_constraint_violation(s, out.as_mut_ptr()), &out[..1]),
        3 => {
            let mut st = vec![0.0; 13 * bodies as usize];
            maxdyn_sim_get_body_states(s, st.as_mut_ptr(), bodies as usize);
            for v in st.iter_mut() {
                if r.chance(5) {
                    *v = r.value(-3.0, 3.0);
                }
            }
            let n = if r.chance(80) { bodies as usize } else { r.len(bodies as usize).min(bodies as usize) };
            maxdyn_sim_set_body_states(s, st.as_ptr(), n)
        }
        _ => {
            let mut copy = null_mut();
            let status = maxdyn_sim_copy(s, &mut copy);
            if c.saw(status) {
                let stepped = maxdyn_sim_step(copy);
                c.saw(stepped);
                assert!(finite(copy, bodies), "a copy stepped into a non-finite state ({stepped:?})");
                maxdyn_sim_free(copy);
            }
            status
        }
    }
}

/// A recording of `s`: to a file, to /dev/full (every write fails once the buffer is
/// flushed) or to a missing directory; frames of `s` (sometimes of a copy stepped apart,
/// or of another model's sim), then closed. The file is removed.
unsafe fn recorder_calls(r: &mut Rng, c: &mut Counts, s: *mut maxdyn_sim) -> maxdyn_status {
    let file = std::env::temp_dir().join(format!("maxdyn-fuzz-record-{}.json", std::process::id()));
    let file = std::ffi::CString::new(file.to_str().expect("a UTF-8 temp dir")).expect("no NUL");
    let path = match r.below(4) {
        0 | 1 if std::path::Path::new("/dev/full").exists() => c"/dev/full".as_ptr(),
        2 => c"/nonexistent-dir/r.json".as_ptr(),
        _ => file.as_ptr(),
    };
    let mut rec = null_mut();
    let opened = maxdyn_sim_record_open(s, path, if r.chance(95) { &mut rec } else { null_mut() });
    if !c.saw(opened) {
        return opened;
    }
    c.recorders += 1;
    let mut other = null_mut();
    if r.chance(20) {
        c.saw(maxdyn_sim_copy(s, &mut other));
    }
    let mut failed = false;
    for _ in 0..r.below(400) {
        if r.chance(30) {
            c.saw(maxdyn_sim_step(s));
        }
        let from = if !other.is_null() && r.chance(10) { other.cast_const() } else { s.cast_const() };
        let status = maxdyn_recorder_add_frame(rec, if r.chance(2) { null() } else { from });
        if c.saw(status) {
            assert!(!failed, "a frame was written after a failed write");
            c.frames += 1;
        } else if last_error().contains("writing the recording failed:") {
            failed = true;
            c.failed_writes += 1;
        }
        assert!(status != MAXDYN_STATUS_POISONED, "the recorder was poisoned: {}", last_error());
    }
    maxdyn_sim_free(other);
    let closed = maxdyn_recorder_close(rec);
    c.saw(closed);
    assert!(!failed || closed != MAXDYN_STATUS_OK, "a recording whose write failed closed OK");
    std::fs::remove_file(file.to_str().expect("UTF-8")).ok();
    closed
}

/// What a batch callback does, decided by the sim's index and how often it was called
/// (deterministic on any thread); what it saw.
struct BatchPlan {
    batch: *mut maxdyn_batch,
    seed: u32,
    calls: [AtomicU32; 3],
    /// Steps of a sim or of the batch from inside a callback that were not refused
    /// with REENTRANT_CALL.
    reentered: AtomicU32,
}

unsafe extern "C" fn batch_control(sim: *mut maxdyn_sim, index: usize, user: *mut c_void) -> c_int {
    let p = &*(user as *const BatchPlan);
    let k = p.calls[index].fetch_add(1, Ordering::Relaxed);
    match (p.seed + 7 * index as u32 + k) % 11 {
        0 => {
            let step = maxdyn_sim_step(sim);
            let step_n = maxdyn_sim_step_n(sim, 2);
            let batch = maxdyn_batch_step(p.batch, 1, None, null_mut(), null_mut(), 0);
            for st in [step, step_n, batch] {
                if st != MAXDYN_STATUS_REENTRANT_CALL {
                    p.reentered.fetch_add(1, Ordering::Relaxed);
                }
            }
            0
        }
        1 => 3, // stop this sim
        2 | 3 => {
            let u = [(k % 5) as f64 - 2.0];
            maxdyn_sim_set_joint_input(sim, 0, u.as_ptr(), 1);
            0
        }
        4 => {
            let mut t = 0.0;
            maxdyn_sim_get_time(sim, &mut t);
            0
        }
        _ => 0,
    }
}

/// A batch of 0–3 sims of the model on 1–2 threads, stepped with and without the
/// callback, failures read and cleared; its sims' states stay finite.
unsafe fn batch_calls(r: &mut Rng, c: &mut Counts, m: *const maxdyn_model, bodies: i32) -> maxdyn_status {
    let n = r.below(4) as usize;
    let dt = if r.chance(90) { r.uniform(1e-3, 0.02) } else { r.value(1e-3, 0.02) };
    let mut batch = null_mut();
    let made = maxdyn_batch_new(m, n, dt, 1 + r.below(2) as usize, &mut batch);
    if !c.saw(made) {
        return made;
    }
    c.batches += 1;
    let plan = BatchPlan { batch, seed: r.next() as u32, calls: Default::default(), reentered: AtomicU32::new(0) };
    for _ in 0..1 + r.below(3) {
        let control: maxdyn_batch_control = if r.chance(70) { Some(batch_control) } else { None };
        let mut statuses = [MAXDYN_STATUS_INTERNAL; 3];
        let (out, len) = if r.chance(80) { (statuses.as_mut_ptr(), n) } else { (statuses.as_mut_ptr(), r.len(n)) };
        let status = maxdyn_batch_step(batch, r.below(4) as usize, control, &plan as *const BatchPlan as *mut c_void, out, len);
        c.batch_steps_ok += u64::from(c.saw(status));
        if r.chance(50) {
            c.saw(maxdyn_batch_clear_failure(batch, r.below(4) as usize));
        }
    }
    assert_eq!(plan.reentered.load(Ordering::Relaxed), 0, "a callback stepped its sim or its batch");
    for i in 0..n {
        let mut sim = null_mut();
        c.saw(maxdyn_batch_get_sim(batch, i, &mut sim));
        assert!(finite(sim, bodies), "a batch's sim {i} in a non-finite state");
    }
    let mut states = vec![0.0; 13 * bodies as usize * n + 1];
    c.saw(maxdyn_batch_get_body_states(batch, states.as_mut_ptr(), r.len(13 * bodies as usize * n)));
    maxdyn_batch_free(batch);
    made
}

#[test]
fn random_call_sequences_never_panic_nor_leave_a_non_finite_state() {
    let l = lock();
    let sequences: u64 = std::env::var("MAXDYN_FUZZ_SEQUENCES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let seed: u64 = std::env::var("MAXDYN_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ seed);
    let mut c = Counts::default();
    let start = std::time::Instant::now();
    let mut slowest = std::time::Duration::ZERO;
    for _ in 0..sequences {
        let t0 = std::time::Instant::now();
        unsafe {
            EXTREME_DRAWN.store(false, std::sync::atomic::Ordering::Relaxed);
            let b = random_builder(&mut r, &mut c);
            c.extreme_model = EXTREME_DRAWN.load(std::sync::atomic::Ordering::Relaxed);
            let mut m = null_mut();
            if c.saw(maxdyn_model_new(b, &mut m)) {
                c.models += 1;
                let (mut bodies, mut joints) = (0, 0);
                c.saw(maxdyn_model_get_body_count(m, &mut bodies));
                c.saw(maxdyn_model_get_joint_count(m, &mut joints));
                random_queries(&mut r, &mut c, m, bodies, joints);
                let dt = if r.chance(90) { r.uniform(1e-3, 0.02) } else { r.value(1e-3, 0.02) };
                let mut s = null_mut();
                if c.saw(maxdyn_sim_new(m, dt, &mut s)) {
                    c.sims += 1;
                    assert!(finite(s, bodies), "a new sim with a non-finite state");
                    random_calls(&mut r, &mut c, m, s, bodies, joints);
                    maxdyn_sim_free(s);
                }
                maxdyn_model_free(m);
            }
            maxdyn_builder_free(b);
        }
        slowest = slowest.max(t0.elapsed());
    }
    println!(
        "  recorders {} ({} frames, {} failed writes), batches {} ({} ok batch steps), slowest sequence {:.2} s",
        c.recorders,
        c.frames,
        c.failed_writes,
        c.batches,
        c.batch_steps_ok,
        slowest.as_secs_f64()
    );
    println!(
        "{sequences} sequences (seed {seed}) in {:.1} s: {} calls ({} ok), {} models, {} sims, {} ok steps, {} ok queries ({} refused as not finite: overflows at states, inputs or models beyond 1e100), {} internal errors, 0 non-finite states or OK answers",
        start.elapsed().as_secs_f64(),
        c.calls,
        c.ok,
        c.models,
        c.sims,
        c.steps_ok,
        c.queries_ok,
        c.overflows,
        c.internal
    );
    assert_eq!(c.internal, 0, "a call panicked");
    assert!(c.foreign.is_empty(), "messages naming arguments their function does not have: {:#?}", c.foreign);
    assert!(c.failed_writes > 0 && c.batches > 0, "the sequences reach the recorder's failed writes and the batches");
    // measured: 1785 sims and 1111 ok steps of 2000 sequences (seed 1)
    assert!(c.sims > sequences / 2 && c.steps_ok > sequences / 3, "the sequences reach the step: {} sims, {} ok steps", c.sims, c.steps_ok);
    // measured: 1271 ok queries of 2000 sequences (seed 1)
    assert!(c.queries_ok > sequences / 2, "the sequences reach the queries: {} ok", c.queries_ok);
    assert_eq!(l.live(), 0, "objects leaked");
}
