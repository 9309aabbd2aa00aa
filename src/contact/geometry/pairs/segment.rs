//! Closest points on segments, shared by the capsule pairs. A segment is c + s u with u
//! unit and |s| ≤ h.

use crate::math::V3;

/// Parameter of the point of segment (c, u, h) closest to p.
pub fn closest_to_point(c: &V3, u: &V3, h: f64, p: &V3) -> f64 {
    u.dot(&(p - c)).clamp(-h, h)
}

/// Parameters (s, t) of closest points of segments (c1, u1, h1) and (c2, u2, h2)
/// (Ericson, Real-Time Collision Detection, 5.1.9). Parallel segments have a segment of
/// closest points: this returns an end of it.
pub fn closest_between(c1: &V3, u1: &V3, h1: f64, c2: &V3, u2: &V3, h2: f64) -> (f64, f64) {
    let r = c1 - c2;
    let (b, c, f) = (u1.dot(u2), u1.dot(&r), u2.dot(&r));
    // |r + s u1 − t u2|² is least where s = t b − c and t = f + s b
    let denom = 1.0 - b * b;
    let s = if denom > 1e-12 { ((b * f - c) / denom).clamp(-h1, h1) } else { -h1 };
    let t = f + s * b;
    if t.abs() <= h2 {
        return (s, t);
    }
    let t = t.clamp(-h2, h2);
    ((t * b - c).clamp(-h1, h1), t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a brute-force search over a fine grid of both parameters.
    #[test]
    fn closest_between_matches_a_grid_search() {
        let cases = [
            (V3::new(0.0, 0.0, 1.0), V3::new(1.0, 0.0, 0.0), 1.0, V3::zeros(), V3::new(0.0, 1.0, 0.0), 1.0),
            (V3::new(0.3, -0.2, 0.5), V3::new(0.6, 0.0, 0.8), 0.4, V3::new(-0.1, 0.2, 0.0), V3::new(0.0, 0.6, -0.8), 0.7),
            (V3::new(2.0, 0.0, 0.0), V3::new(0.0, 0.0, 1.0), 0.5, V3::zeros(), V3::new(0.8, 0.6, 0.0), 0.5),
            (V3::new(0.0, 0.1, 0.0), V3::new(1.0, 0.0, 0.0), 1.0, V3::new(1.5, 0.0, 0.0), V3::new(1.0, 0.0, 0.0), 1.0),
        ];
        for (c1, u1, h1, c2, u2, h2) in cases {
            let (s, t) = closest_between(&c1, &u1, h1, &c2, &u2, h2);
            let dist = |s: f64, t: f64| (c1 + u1 * s - c2 - u2 * t).norm();
            let n = 400;
            let mut best = f64::INFINITY;
            for i in 0..=n {
                for j in 0..=n {
                    best = best.min(dist(-h1 + 2.0 * h1 * i as f64 / n as f64, -h2 + 2.0 * h2 * j as f64 / n as f64));
                }
            }
            // the grid's best is within its spacing of the exact least distance
            assert!(dist(s, t) <= best + 1e-15 && dist(s, t) > best - 2e-2, "{} vs grid {best}", dist(s, t));
        }
    }
}
