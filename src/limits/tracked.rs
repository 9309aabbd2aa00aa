//! The tracked joint coordinates of one simulation (`Model::tracked`): each one's value at
//! the state z_k and at the step's prediction z_{k+1}, angles unwrapped across ±π.

use crate::joints::constraint::Pose;
use crate::joints::coordinate::unwrap_angle;
use crate::math::{V3, V4};
use crate::model::Model;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrackedValues {
    /// At the state z_k.
    pub state: Vec<f64>,
    /// At the prediction z_{k+1} of the step being taken.
    pub predicted: Vec<f64>,
}

/// Tracked coordinate `t` at the body poses (x, q), wrapped.
fn wrapped(model: &Model, t: usize, x: &[V3], q: &[V4]) -> f64 {
    let c = model.tracked[t];
    let j = &model.joints[c.joint];
    let pose = |b: Option<usize>| b.map_or(Pose::WORLD, |i| Pose { x: x[i], q: q[i] });
    j.coordinate(&pose(j.parent), &pose(Some(j.child)), c.index)
}

impl TrackedValues {
    /// The coordinates at the poses (x, q), angles in (−π, π].
    pub fn new(model: &Model, x: &[V3], q: &[V4]) -> TrackedValues {
        let state: Vec<f64> = (0..model.tracked.len()).map(|t| wrapped(model, t, x, q)).collect();
        TrackedValues { predicted: state.clone(), state }
    }

    /// Value of tracked coordinate `t` at (x, q), unwrapped from `reference` for an angle.
    fn follow(model: &Model, t: usize, reference: f64, x: &[V3], q: &[V4]) -> f64 {
        let c = model.tracked[t];
        let w = wrapped(model, t, x, q);
        if model.joints[c.joint].is_single_angle(c.index) {
            unwrap_angle(reference, w)
        } else {
            w
        }
    }

    /// The values at the prediction z_{k+1} = (x1, q1), from those at the state.
    pub fn predict(&mut self, model: &Model, x1: &[V3], q1: &[V4]) {
        for t in 0..self.state.len() {
            self.predicted[t] = Self::follow(model, t, self.state[t], x1, q1);
        }
    }

    /// The prediction became the state (a committed step).
    pub fn commit(&mut self) {
        self.state.copy_from_slice(&self.predicted);
    }

    /// The state's poses (x, q) were set by the caller: each value follows to them from
    /// where it was (the nearest turn for angles).
    pub fn follow_state(&mut self, model: &Model, x: &[V3], q: &[V4]) {
        for t in 0..self.state.len() {
            self.state[t] = Self::follow(model, t, self.state[t], x, q);
        }
    }

    pub fn copy_from(&mut self, other: &TrackedValues) {
        self.state.copy_from_slice(&other.state);
        self.predicted.copy_from_slice(&other.predicted);
    }
}
