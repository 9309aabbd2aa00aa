//! Polygon clipping (Sutherland–Hodgman, one half-plane at a time, shared by box–box and
//! the convex pairs' `manifold`), box–box's incident face cut to the reference face's
//! rectangle, and the choice of at most four of the points.

use crate::math::V3;
use std::ops::{Add, Mul, Sub};

/// The polygon `poly` (vertices in order) cut to the half-plane where `inside` ≥ 0, into
/// `out`; returns the count (each cut adds at most one vertex; beyond `out`'s room the
/// last ones are dropped).
pub fn clip_half_plane<P, const N: usize>(poly: &[P], out: &mut [P; N], inside: impl Fn(&P) -> f64) -> usize
where
    P: Copy + Add<Output = P> + Sub<Output = P> + Mul<f64, Output = P>,
{
    let mut n = 0;
    for i in 0..poly.len() {
        let (p, r) = (poly[i], poly[(i + 1) % poly.len()]);
        let (dp, dr) = (inside(&p), inside(&r));
        if dp >= 0.0 && n < N {
            out[n] = p;
            n += 1;
        }
        if (dp >= 0.0) != (dr >= 0.0) && n < N {
            out[n] = p + (r - p) * (dp / (dp - dr));
            n += 1;
        }
    }
    n
}

/// Most vertices of a quadrilateral clipped by four half-planes (each adds at most one).
pub const MAX_CLIPPED: usize = 8;

/// The rectangle of a reference face: centre, in-plane unit axes and half extents.
pub struct Rectangle {
    pub centre: V3,
    pub axes: [V3; 2],
    pub half: [f64; 2],
}

/// The quadrilateral `quad` (a face, in order around it) cut to the slab over `rect`:
/// its vertices in order, and their count (0 when the faces do not overlap).
pub fn clip(quad: &[V3; 4], rect: &Rectangle) -> ([V3; MAX_CLIPPED], usize) {
    let mut poly = [V3::zeros(); MAX_CLIPPED];
    poly[..4].copy_from_slice(quad);
    let mut len = 4;
    for (axis, half) in rect.axes.iter().zip(rect.half) {
        for sign in [1.0, -1.0] {
            // keep sign·axis·(p − centre) ≤ half
            let mut next = [V3::zeros(); MAX_CLIPPED];
            len = clip_half_plane(&poly[..len], &mut next, |p: &V3| half - sign * axis.dot(&(p - rect.centre)));
            poly = next;
        }
    }
    (poly, len)
}

/// Depths (m) closer than this count as equal when `pick_four` chooses the deepest point:
/// two boxes resting face to face have every clipped point at a gap of zero to rounding,
/// and the deepest by that rounding started the choice of four of up to eight points, so
/// that rounding chose the points (the unit test below). The searches at a step's solution
/// look again at pairs deeper than 1e-9 m.
const SAME_DEPTH: f64 = 1e-9;

/// Relative difference of lengths and areas below which `pick_four` counts two points as
/// equally far (a symmetric polygon), keeping the first in the polygon's order.
const SAME_EXTENT: f64 = 1e-9;

/// Points within this of the deepest (m) touch with it: a box resting on another along
/// an edge has two or three clipped points at a gap of zero and the others open by
/// millimetres.
const TOUCHING: f64 = 1e-6;

/// At most four of `points` (with their `gaps`) that span them, normal `n`: every point
/// that touches ([`TOUCHING`]) when there are fewer than four, and the others chosen as
/// among all points; else the four that span the touching ones. Four that span: the
/// deepest, the farthest from it, and the two farthest on either side of the line through
/// those (so a face's four corners are kept). Near-ties ([`SAME_DEPTH`], [`SAME_EXTENT`])
/// go to the first in order, so that rounding does not choose. Returns their indices and
/// count.
pub fn pick_four(points: &[V3], gaps: &[f64], n: &V3) -> ([usize; 4], usize) {
    let len = points.len();
    if len <= 4 {
        return ([0, 1, 2, 3], len);
    }
    let lowest = gaps.iter().copied().fold(f64::INFINITY, f64::min);
    let touches = |i: usize| gaps[i] <= lowest + TOUCHING;
    let touching = (0..len).filter(|&i| touches(i)).count();
    if touching >= 4 {
        return span(points, gaps, n, touches);
    }
    // a box on an edge: the points it rests on, then those that span the rest
    let mut picked = [0; 4];
    let mut count = 0;
    for i in (0..len).filter(|&i| touches(i)) {
        picked[count] = i;
        count += 1;
    }
    let (spanning, spans) = span(points, gaps, n, |_| true);
    for &i in &spanning[..spans] {
        if count < 4 && !picked[..count].contains(&i) {
            picked[count] = i;
            count += 1;
        }
    }
    (picked, count)
}

/// At most four of the points `candidate` admits that span them (see [`pick_four`]).
fn span(points: &[V3], gaps: &[f64], n: &V3, candidate: impl Fn(usize) -> bool) -> ([usize; 4], usize) {
    let len = points.len();
    let lowest = (0..len).filter(|&i| candidate(i)).map(|i| gaps[i]).fold(f64::INFINITY, f64::min);
    let deepest = (0..len).find(|&i| candidate(i) && gaps[i] <= lowest + SAME_DEPTH).unwrap_or(0);
    let p0 = points[deepest];
    let across = |i: usize| ((points[i] - p0) - n * n.dot(&(points[i] - p0))).norm();
    let first_largest = |f: &dyn Fn(usize) -> f64| {
        let most = (0..len).filter(|&i| candidate(i)).map(f).fold(f64::NEG_INFINITY, f64::max);
        if !(most > f(deepest)) {
            return deepest;
        }
        (0..len).find(|&i| candidate(i) && f(i) >= most - SAME_EXTENT * most.abs()).unwrap_or(deepest)
    };
    let farthest = first_largest(&across);
    let line = points[farthest] - p0;
    let area = |i: usize| n.dot(&line.cross(&(points[i] - p0)));
    let left = first_largest(&|i| area(i));
    let right = first_largest(&|i| -area(i));
    let mut picked = [deepest, farthest, 0, 0];
    let mut count = 2;
    for i in [left, right] {
        if !picked[..count].contains(&i) {
            picked[count] = i;
            count += 1;
        }
    }
    (picked, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(half: f64, turn: f64) -> [V3; 4] {
        let (c, s) = (turn.cos(), turn.sin());
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(a, b)| V3::new(half * (a * c - b * s), half * (a * s + b * c), 0.0))
    }

    #[test]
    fn a_square_turned_45_degrees_clips_to_an_octagon() {
        let rect = Rectangle { centre: V3::zeros(), axes: [V3::x(), V3::y()], half: [1.0, 1.0] };
        let (poly, len) = clip(&square(1.0, std::f64::consts::FRAC_PI_4), &rect);
        assert_eq!(len, 8);
        // every vertex on the boundary of both squares: the octagon of side 2(√2 − 1)
        for p in &poly[..len] {
            assert!((p.x.abs().max(p.y.abs()) - 1.0).abs() < 1e-15 || (p.x.abs() + p.y.abs() - 2f64.sqrt()).abs() < 1e-15);
        }
        let gaps = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        let (picked, count) = pick_four(&poly[..len], &gaps, &V3::z());
        assert_eq!((count, picked[0]), (4, 0));
        // the four span the octagon: their quadrilateral holds its centre
        let pts: Vec<V3> = picked.iter().map(|&i| poly[i]).collect();
        assert!(pts.iter().map(|p| p.norm()).all(|r| r > 0.9));
    }

    /// Two faces resting on each other: every clipped point at a gap of zero to rounding.
    /// The four picked are the same whatever that rounding is.
    #[test]
    fn rounding_in_the_gaps_does_not_choose_the_points() {
        let rect = Rectangle { centre: V3::zeros(), axes: [V3::x(), V3::y()], half: [1.0, 1.0] };
        let (poly, len) = clip(&square(1.0, 0.3), &rect);
        assert_eq!(len, 8);
        let flat = pick_four(&poly[..len], &[0.0; 8], &V3::z());
        for k in 0..len {
            let mut gaps = [1e-13; 8];
            gaps[k] = -1e-13;
            assert_eq!(pick_four(&poly[..len], &gaps, &V3::z()), flat, "the point at rounding depth: {k}");
        }
        // a point deeper than that is picked first
        let mut gaps = [0.0; 8];
        gaps[5] = -1e-6;
        assert_eq!(pick_four(&poly[..len], &gaps, &V3::z()).0[0], 5);
    }

    /// A box resting on another along an edge (the 25-box pour's seed 10 at rest): three
    /// of five clipped points touch and two are open by 0.8–0.9 mm. The four that span
    /// all five dropped the middle touching one, the solve pushed the box 3.1e-5 m into
    /// it, and every resting step was solved again with the points found at its solution
    /// (96 iterations a step; 11 with the touching points kept).
    #[test]
    fn a_box_on_an_edge_keeps_every_point_it_rests_on() {
        let corner = |x: f64, y: f64| V3::new(x, y, 0.0);
        let poly = [corner(-0.039, -0.05), corner(0.05, -0.0405), corner(0.0454, 0.05), corner(-0.05, 0.044), corner(-0.05, 0.0143)];
        let gaps = [0.0, 8.4e-4, 8.9e-4, 0.0, 0.0];
        let (picked, count) = pick_four(&poly, &gaps, &V3::z());
        assert_eq!(count, 4);
        for touching in [0, 3, 4] {
            assert!(picked.contains(&touching), "{picked:?}");
        }
        // the rule that spans every point leaves the middle one out
        assert!(!span(&poly, &gaps, &V3::z(), |_| true).0.contains(&4));
    }

    #[test]
    fn inside_and_outside() {
        let rect = Rectangle { centre: V3::zeros(), axes: [V3::x(), V3::y()], half: [1.0, 1.0] };
        // a smaller square stays whole; a far one vanishes
        assert_eq!(clip(&square(0.5, 0.3), &rect).1, 4);
        let far = square(0.5, 0.0).map(|p| p + V3::new(3.0, 0.0, 0.0));
        assert_eq!(clip(&far, &rect).1, 0);
    }
}
