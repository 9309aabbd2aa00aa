//! The exact state of a sim as one flat array of doubles (opaque to the user): everything
//! the next step reads, so that restoring it and stepping replays the original run bit for
//! bit. The layout is written once, in [`fields!`], and walked by three passes: `Save`
//! (sim → array), `Check` (validates an array, nothing written) and `Load` (array → sim).
//!
//! Layout, version [`STATE_VERSION`] (grow it by appending fields and bumping the version).
//! Its size depends on the model alone (the contacts between collision shapes take a
//! fixed number of slots, `snapshot_contacts`):
//!
//! | entries | what |
//! |---|---|
//! | 1 | version |
//! | 10 | counts it was saved with: bodies, joints, step unknowns, E variables, tracked coordinates, described contacts, limit sides, contact slots (capacity), entries per slot, total length |
//! | 2 | the model's fingerprint (`Model::fingerprint`, two 32-bit halves) |
//! | 4 | dt, dt of the current velocities (dt_prev), time, steps taken |
//! | 13 × bodies | x, q, v, ω (as `body_state`) |
//! | 9 × bodies + 6 × joints | inputs: force, torque, force point per body; joint inputs (6 per joint, unused 0) |
//! | 2 | warm start: the extrapolation interval (0: none), contacts solved (0/1) |
//! | tracked | the tracked joint coordinates (angles unwrapped) |
//! | 2 | energy account: input work, dissipation |
//! | limit sides | last step's limit forces (outputs, so a restored sim reports them) |
//! | 1 | the velocities are the caller's, not yet stepped (0/1): the second-order integrator starts from them |
//! | 12 × joints | servo targets: position and rate per joint (6 each, unused 0) |
//! | 3 + 6 × bodies | warm start: the intervals of the last three steps' velocities (0: none) and the bodies' velocities of the step before the last two |
//! | the rest | the warm start's unknowns, the contacts' forces and the contact slots (`snapshot_contacts`) |
//!
//! Not in the state: the model, the solver options, the step's scratch (rebuilt by every
//! step) and the last step's statistics.

use super::snapshot_contacts::{self as contacts, Sizes};
use super::Sim;
use crate::data::Data;
use crate::error::check_len;
use crate::math::{V3, V4};
use crate::model::{Error, Model, Result};
use crate::data::WarmBarrier;

/// Version of the state layout (the array's first entry).
pub const STATE_VERSION: f64 = 6.0;

/// Header entries after the version: the counts of [`counts`].
const COUNTS: usize = 10;

/// Entries before the fields: the version, the counts and the model's fingerprint.
const HEADER: usize = 1 + COUNTS + 2;

/// A quaternion in a state is unit to rounding: a step normalizes it.
const UNIT_TOLERANCE: f64 = 1e-9;

/// The largest step count a double holds exactly.
const MAX_STEPS: f64 = 9_007_199_254_740_992.0;

/// The next step's first warm start in a state: 0 none (cold), 1 `Loads` (a state saved
/// before the entry had this meaning held 1 for a warm start, which was that one),
/// 2 `Balance`.
const WARM_BARRIERS: [Option<WarmBarrier>; 3] = [None, Some(WarmBarrier::Loads), Some(WarmBarrier::Balance)];

fn warm_barrier_code(b: Option<WarmBarrier>) -> f64 {
    match b {
        None => 0.0,
        Some(WarmBarrier::Loads) => 1.0,
        Some(WarmBarrier::Balance) => 2.0,
    }
}

/// Every field in layout order. `$p` is a pass; `$($m)?` is `mut` for a pass that writes
/// into the data.
macro_rules! fields {
    ($d:expr, $p:expr $(, $m:tt)?) => {{
        let p = $p;
        p.dt(& $($m)? $d.dt);
        p.dt_prev(& $($m)? $d.dt_prev);
        p.scalar(& $($m)? $d.time);
        p.steps(& $($m)? $d.steps);
        for i in 0..$d.state.x.len() {
            p.v3(& $($m)? $d.state.x[i]);
            p.quaternion(& $($m)? $d.state.q[i]);
            p.v3(& $($m)? $d.state.v[i]);
            p.angular_velocity(& $($m)? $d.state.w[i]);
        }
        for i in 0..$d.inputs.force.len() {
            p.v3(& $($m)? $d.inputs.force[i]);
            p.v3(& $($m)? $d.inputs.torque[i]);
            p.v3(& $($m)? $d.inputs.force_point[i]);
        }
        for u in & $($m)? $d.inputs.joint_input {
            p.slice(u);
        }
        p.interval(& $($m)? $d.warm.pair_interval);
        p.warm_barrier(& $($m)? $d.warm.first_barrier);
        p.slice(& $($m)? $d.tracked.state);
        p.scalar(& $($m)? $d.energy.input_work);
        p.scalar(& $($m)? $d.energy.dissipation);
        p.slice(& $($m)? $d.limit_forces);
        p.flag(& $($m)? $d.velocities_at_node);
        for t in & $($m)? $d.inputs.joint_target {
            p.slice(& $($m)? t.position);
            p.slice(& $($m)? t.velocity);
        }
        for h in & $($m)? $d.warm.intervals {
            p.signed_interval(h);
        }
        p.slice(& $($m)? $d.warm.older);
    }};
}

/// The sizes a state array of `model` depends on, and its total length.
fn counts(model: &Model, d: &Data) -> [usize; COUNTS] {
    let mut n = Count(0);
    fields!(d, &mut n);
    let sizes = Sizes::of(model);
    let total = HEADER + n.0 + sizes.len();
    [d.state.x.len(), d.inputs.joint_input.len(), sizes.unknowns, sizes.e, d.tracked.state.len(), sizes.described, d.limit_forces.len(), sizes.capacity, sizes.record(), total]
}

/// The model's fingerprint as two exact doubles.
fn fingerprint(model: &Model) -> [f64; 2] {
    let f = model.fingerprint();
    [(f >> 32) as f64, (f & 0xffff_ffff) as f64]
}

/// Counts the entries.
struct Count(usize);

impl Count {
    fn slice(&mut self, v: &[f64]) {
        self.0 += v.len();
    }
    fn scalar(&mut self, _: &f64) {
        self.0 += 1;
    }
    fn dt(&mut self, _: &f64) {
        self.0 += 1;
    }
    fn dt_prev(&mut self, _: &f64) {
        self.0 += 1;
    }
    fn steps(&mut self, _: &u64) {
        self.0 += 1;
    }
    fn interval(&mut self, _: &f64) {
        self.0 += 1;
    }
    fn signed_interval(&mut self, _: &f64) {
        self.0 += 1;
    }
    fn flag(&mut self, _: &bool) {
        self.0 += 1;
    }
    fn warm_barrier(&mut self, _: &Option<WarmBarrier>) {
        self.0 += 1;
    }
    fn v3(&mut self, _: &V3) {
        self.0 += 3;
    }
    fn quaternion(&mut self, _: &V4) {
        self.0 += 4;
    }
    fn angular_velocity(&mut self, _: &V3) {
        self.0 += 3;
    }
}

/// Copies the data into `out`.
struct Save<'a> {
    out: &'a mut [f64],
    at: usize,
}

impl Save<'_> {
    fn slice(&mut self, v: &[f64]) {
        self.out[self.at..self.at + v.len()].copy_from_slice(v);
        self.at += v.len();
    }
    fn scalar(&mut self, v: &f64) {
        self.slice(std::slice::from_ref(v));
    }
    fn dt(&mut self, v: &f64) {
        self.scalar(v);
    }
    fn dt_prev(&mut self, v: &f64) {
        self.scalar(v);
    }
    fn steps(&mut self, v: &u64) {
        self.scalar(&(*v as f64));
    }
    fn interval(&mut self, v: &f64) {
        // NaN (no extrapolation pair) is stored as 0: a state array is all finite
        self.scalar(&if v.is_nan() { 0.0 } else { *v });
    }
    fn signed_interval(&mut self, v: &f64) {
        self.interval(v);
    }
    fn flag(&mut self, v: &bool) {
        self.scalar(&if *v { 1.0 } else { 0.0 });
    }
    fn warm_barrier(&mut self, v: &Option<WarmBarrier>) {
        self.scalar(&warm_barrier_code(*v));
    }
    fn v3(&mut self, v: &V3) {
        self.slice(v.as_slice());
    }
    fn quaternion(&mut self, v: &V4) {
        self.slice(v.as_slice());
    }
    fn angular_velocity(&mut self, v: &V3) {
        self.v3(v);
    }
}

/// Validates an input array field by field (the data passed along is not read).
struct Check<'a> {
    input: &'a [f64],
    at: usize,
    dt: f64,
    error: Option<Error>,
}

impl Check<'_> {
    fn take(&mut self, n: usize) -> &[f64] {
        self.at += n;
        &self.input[self.at - n..self.at]
    }
    fn fail(&mut self, what: String) {
        if self.error.is_none() {
            self.error = Some(Error::InvalidArgument("state", what));
        }
    }
    fn slice(&mut self, v: &[f64]) {
        self.take(v.len());
    }
    fn scalar(&mut self, _: &f64) {
        self.take(1);
    }
    fn dt(&mut self, _: &f64) {
        self.dt = self.take(1)[0];
        if !(super::MIN_DT..=super::MAX_DT).contains(&self.dt) && self.error.is_none() {
            self.error = Some(Error::InvalidTimeStep(self.dt));
        }
    }
    fn dt_prev(&mut self, _: &f64) {
        let h = self.take(1)[0];
        if !(h > 0.0 && h <= super::MAX_DT) {
            self.fail(format!("the interval of the velocities is {h}, not in (0, {}]", super::MAX_DT));
        }
    }
    fn steps(&mut self, _: &u64) {
        let n = self.take(1)[0];
        if !(n >= 0.0 && n <= MAX_STEPS && n.fract() == 0.0) {
            self.fail(format!("the step count {n} is not a whole number in [0, 2^53]"));
        }
    }
    fn interval(&mut self, _: &f64) {
        let h = self.take(1)[0];
        if h < 0.0 {
            self.fail(format!("the extrapolation interval {h} is negative"));
        }
    }
    /// An interval the fourth-order integrator's steps may take backwards (one part is negative).
    fn signed_interval(&mut self, _: &f64) {
        self.take(1);
    }
    fn flag(&mut self, _: &bool) {
        let f = self.take(1)[0];
        if f != 0.0 && f != 1.0 {
            self.fail(format!("a flag is {f}, not 0 or 1"));
        }
    }
    fn warm_barrier(&mut self, _: &Option<WarmBarrier>) {
        let f = self.take(1)[0];
        if !WARM_BARRIERS.iter().any(|&b| warm_barrier_code(b) == f) {
            self.fail(format!("the warm start's entry is {f}, not 0, 1 or 2"));
        }
    }
    fn v3(&mut self, _: &V3) {
        self.take(3);
    }
    fn quaternion(&mut self, _: &V4) {
        let q = V4::from_column_slice(self.take(4));
        if (q.norm() - 1.0).abs() > UNIT_TOLERANCE {
            self.fail(format!("a quaternion has norm {}, not 1", q.norm()));
        }
    }
    fn angular_velocity(&mut self, _: &V3) {
        let w = V3::from_column_slice(self.take(3)).norm();
        if w * self.dt >= 2.0 {
            self.fail(format!("|ω| = {w} must be < 2/dt = {}", 2.0 / self.dt));
        }
    }
}

/// Copies `input` into the data (after `Check` passed).
struct Load<'a> {
    input: &'a [f64],
    at: usize,
}

impl Load<'_> {
    fn next(&mut self) -> f64 {
        self.at += 1;
        self.input[self.at - 1]
    }
    fn slice(&mut self, v: &mut [f64]) {
        v.copy_from_slice(&self.input[self.at..self.at + v.len()]);
        self.at += v.len();
    }
    fn scalar(&mut self, v: &mut f64) {
        *v = self.next();
    }
    fn dt(&mut self, v: &mut f64) {
        self.scalar(v);
    }
    fn dt_prev(&mut self, v: &mut f64) {
        self.scalar(v);
    }
    fn steps(&mut self, v: &mut u64) {
        *v = self.next() as u64;
    }
    fn interval(&mut self, v: &mut f64) {
        let h = self.next();
        *v = if h == 0.0 { f64::NAN } else { h };
    }
    fn signed_interval(&mut self, v: &mut f64) {
        self.interval(v);
    }
    fn flag(&mut self, v: &mut bool) {
        *v = self.next() == 1.0;
    }
    fn warm_barrier(&mut self, v: &mut Option<WarmBarrier>) {
        let f = self.next();
        *v = WARM_BARRIERS.into_iter().find(|&b| warm_barrier_code(b) == f).flatten();
    }
    fn v3(&mut self, v: &mut V3) {
        self.slice(v.as_mut_slice());
    }
    fn quaternion(&mut self, v: &mut V4) {
        self.slice(v.as_mut_slice());
    }
    fn angular_velocity(&mut self, v: &mut V3) {
        self.v3(v);
    }
}

impl Sim {
    /// Length of the array of [`Sim::get_state`]: fixed by the model.
    pub fn state_size(&self) -> usize {
        counts(&self.model, &self.data)[COUNTS - 1]
    }

    /// The exact state (layout in `sim::snapshot`, opaque to the user) into `out`, of
    /// length [`Sim::state_size`]. [`Sim::set_state`] on this sim, or on a fresh sim of the
    /// same model, makes the next steps bit-identical to the ones that follow now.
    pub fn get_state(&self, out: &mut [f64]) -> Result<()> {
        let c = counts(&self.model, &self.data);
        check_len("state", out.len(), c[COUNTS - 1])?;
        out[0] = STATE_VERSION;
        for (o, &n) in out[1..=COUNTS].iter_mut().zip(&c) {
            *o = n as f64;
        }
        out[1 + COUNTS..HEADER].copy_from_slice(&fingerprint(&self.model));
        let mut save = Save { out, at: HEADER };
        fields!(self.data, &mut save);
        let at = save.at;
        contacts::save(&self.model, &self.data, &mut out[at..]);
        Ok(())
    }

    /// Restores a state saved by [`Sim::get_state`] from a sim of the same model (any
    /// time step: the saved one is restored), whatever contacts either had. Validated
    /// before anything changes: wrong length, non-finite entries, another version or
    /// model (its fingerprint), a step size out of range, a non-unit quaternion, a spin
    /// |ω| ≥ 2/dt, or contact slots that name no pair of this model are refused.
    pub fn set_state(&mut self, input: &[f64]) -> Result<()> {
        let c = counts(&self.model, &self.data);
        check_len("state", input.len(), c[COUNTS - 1])?;
        crate::error::check_finite("state", input)?;
        if input[0] != STATE_VERSION {
            return Err(Error::InvalidArgument("state", format!("layout version {} where this maxdyn reads {STATE_VERSION}", input[0])));
        }
        if input[1..=COUNTS].iter().zip(&c).any(|(&a, &b)| a != b as f64) {
            return Err(Error::InvalidArgument("state", format!("saved from another model (counts {:?}, this model's {c:?})", &input[1..=COUNTS])));
        }
        if input[1 + COUNTS..HEADER] != fingerprint(&self.model) {
            return Err(Error::InvalidArgument("state", "saved from another model: the counts match but the model's numbers (masses, shapes, joints, options) differ".into()));
        }
        let mut check = Check { input, at: HEADER, dt: 0.0, error: None };
        fields!(self.data, &mut check);
        if let Some(e) = check.error {
            return Err(e);
        }
        let at = check.at;
        // the contact layout it was saved with, compiled on a copy if it is not the sim's
        let layout = contacts::read_pairs(&self.model, &input[at..])?;
        let mut moved = contacts::data_for(&self.model, &self.data, &layout)?;
        let d = moved.as_mut().unwrap_or(&mut self.data);
        fields!(d, &mut Load { input, at: HEADER }, mut);
        contacts::load(&self.model, d, &input[at..]);
        // the tracked values at the prediction are rewritten by the next step's predict
        d.tracked.predicted.copy_from_slice(&d.tracked.state);
        (d.frame.dt, d.frame.impulse) = (d.dt_prev, d.dt_prev);
        // the poses come from the caller's array: the next step checks them against the joints
        d.start_unchecked = true;
        if let Some(d) = moved {
            self.data = d;
        }
        Ok(())
    }
}

impl Sim {
    /// The sim's data and options, for the queries that read a step's internals
    /// (`derivatives`).
    pub(crate) fn data_and_options(&self) -> (&Data, &crate::step::SolverOptions) {
        (&self.data, &self.options)
    }
}

impl Clone for Sim {
    /// An independent sim of the same model at the same exact state (the model is shared).
    fn clone(&self) -> Sim {
        Sim { model: self.model.clone(), data: self.data.clone(), options: self.options, policy: self.policy.clone(), projection: self.projection.clone(), start: self.start.clone(), answer: self.answer.clone() }
    }
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod tests;
