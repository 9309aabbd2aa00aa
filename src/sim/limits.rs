//! Joint-limit outputs: where each limited coordinate is, how far outside its bounds,
//! and the limit's force of the last step.
//!
//! A configuration outside a limit (set by the caller, or the model's initial one) is not
//! corrected silently before stepping: [`Sim::limit_violation`] reports it, and the next
//! step pushes the coordinate back to its bound (the inequality's gap at z_{k+2} must be
//! ≥ 0), with the force that takes.

use super::Sim;
use crate::model::{Error, Result};

/// One limit (`Model::limits`, a bounded coordinate) as the last step left it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimitReport {
    pub joint: usize,
    /// The joint's coordinate index (translations first).
    pub coordinate: usize,
    /// The coordinate at the current configuration, angles unwrapped (rad or m).
    pub position: f64,
    pub lower: f64,
    pub upper: f64,
    /// How far the position is outside [lower, upper] (0 inside).
    pub violation: f64,
    /// Generalized force of the limit in the last step along the coordinate (N·m or N):
    /// positive pushes up from the lower bound, negative down from the upper one.
    pub force: f64,
}

impl Sim {
    /// Number of limits (bounded joint coordinates).
    pub fn limit_count(&self) -> usize {
        self.model.limits.len()
    }

    /// Limit `limit`'s coordinate, violation and force.
    pub fn limit(&self, limit: usize) -> Result<LimitReport> {
        let l = self.model.limits.get(limit).ok_or_else(|| Error::InvalidArgument("limit", format!("no limit {limit}; the model has {}", self.model.limits.len())))?;
        let mut force = 0.0;
        let mut position = f64::NAN;
        for (side, f) in self.model.limit_sides.iter().zip(&self.data.limit_forces).filter(|(s, _)| s.limit == limit) {
            force += side.sign * f;
            position = self.data.tracked.state[side.coordinate];
        }
        let violation = (l.lower - position).max(position - l.upper).max(0.0);
        Ok(LimitReport { joint: l.joint, coordinate: l.coordinate, position, lower: l.lower, upper: l.upper, violation, force })
    }

    /// Largest violation of any limit at the current configuration (0 when every limited
    /// coordinate is within its bounds).
    pub fn limit_violation(&self) -> f64 {
        (0..self.limit_count()).filter_map(|l| self.limit(l).ok()).fold(0.0, |m, r| m.max(r.violation))
    }
}
