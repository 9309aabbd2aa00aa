//! The joint coordinates that limits and mimics constrain, compiled by `Model::new`:
//! which coordinates a simulation tracks (angles are unwrapped across ±π step by step, so
//! limits beyond ±π hold exactly), and one inequality per bounded side of a limit.

use super::joint_limits::JointLimit;
use super::mimic::Mimic;

/// A tracked coordinate: joint `joint`'s single-axis coordinate `index`
/// (`Joint::coordinate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrackedCoordinate {
    pub joint: usize,
    pub index: usize,
}

/// One bounded side of a limit: the inequality gap = sign · (θ − bound) ≥ 0 on tracked
/// coordinate `coordinate` (sign +1 for a lower bound, −1 for an upper bound).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LimitSide {
    /// Index in `Model::limits`.
    pub limit: usize,
    /// Index in `Model::tracked`.
    pub coordinate: usize,
    pub sign: f64,
    pub bound: f64,
}

/// The tracked coordinates (each once: limits' first, then mimics' not already tracked)
/// and the limit sides (per limit: its lower side, then its upper side, when bounded).
pub fn compile(limits: &[JointLimit], mimics: &[Mimic]) -> (Vec<TrackedCoordinate>, Vec<LimitSide>) {
    let mut tracked: Vec<TrackedCoordinate> = Vec::new();
    let mut track = |joint: usize, index: usize| {
        let t = TrackedCoordinate { joint, index };
        tracked.iter().position(|&x| x == t).unwrap_or_else(|| {
            tracked.push(t);
            tracked.len() - 1
        })
    };
    let mut sides = Vec::new();
    for (li, l) in limits.iter().enumerate() {
        let coordinate = track(l.joint, l.coordinate);
        if l.lower > f64::NEG_INFINITY {
            sides.push(LimitSide { limit: li, coordinate, sign: 1.0, bound: l.lower });
        }
        if l.upper < f64::INFINITY {
            sides.push(LimitSide { limit: li, coordinate, sign: -1.0, bound: l.upper });
        }
    }
    for m in mimics {
        track(m.follower, 0);
        track(m.leader, 0);
    }
    (tracked, sides)
}

/// Index of joint `joint`'s coordinate `index` in `tracked`.
pub fn tracked_index(tracked: &[TrackedCoordinate], joint: usize, index: usize) -> Option<usize> {
    tracked.iter().position(|t| t.joint == joint && t.index == index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bounded_side_is_one_inequality_and_each_coordinate_is_tracked_once() {
        let inf = f64::INFINITY;
        let limits = [
            JointLimit { joint: 2, coordinate: 0, lower: -1.0, upper: 2.0 },
            JointLimit { joint: 0, coordinate: 1, lower: -inf, upper: 0.5 },
        ];
        let mimics = [Mimic { follower: 3, leader: 2, multiplier: 1.0, offset: 0.0 }];
        let (tracked, sides) = compile(&limits, &mimics);
        let t = |joint, index| TrackedCoordinate { joint, index };
        assert_eq!(tracked, [t(2, 0), t(0, 1), t(3, 0)]);
        assert_eq!(
            sides,
            [
                LimitSide { limit: 0, coordinate: 0, sign: 1.0, bound: -1.0 },
                LimitSide { limit: 0, coordinate: 0, sign: -1.0, bound: 2.0 },
                LimitSide { limit: 1, coordinate: 1, sign: -1.0, bound: 0.5 },
            ]
        );
        assert_eq!(tracked_index(&tracked, 3, 0), Some(2));
        assert_eq!(tracked_index(&tracked, 1, 0), None);
    }
}
