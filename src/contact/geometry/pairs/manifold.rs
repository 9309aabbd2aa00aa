//! A contact manifold from two support features: the features are projected on the plane
//! across the normal, one is clipped to the other (polygons: Sutherland–Hodgman; a segment:
//! cut by the polygon's edges; two parallel segments: their overlap), and each point of
//! the result is lifted back onto both features along the normal, so each pair of points
//! lies on one line along the normal. Then at most 4 are kept: the deepest, and those that
//! span the most area with it. parry's own manifolds take the first 4 vertices of a face
//! (`PolygonalFeature`), which on a many-sided face covers a sliver of it, hence our own.

use super::box_clip::clip_half_plane;
use super::features::{newell, Feature};
use crate::math::V3;
use crate::model::hull::FACE_POINTS;

/// Most points a clip gives (a polygon clipped by another: at most both vertex counts).
const MOST: usize = 2 * FACE_POINTS;

/// One point of the manifold: on feature a, and on feature b along the normal.
#[derive(Debug, Clone, Copy)]
pub struct Pair {
    pub a: V3,
    pub b: V3,
}

/// The clipped points.
pub struct Manifold {
    pub pairs: [Pair; MOST],
    pub len: usize,
}

impl Manifold {
    fn push(&mut self, a: V3, b: V3) {
        if self.len < MOST {
            self.pairs[self.len] = Pair { a, b };
            self.len += 1;
        }
    }
}

type V2 = nalgebra::Vector2<f64>;

fn cross2(a: &V2, b: &V2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// The plane across `n`: projections and back.
struct Plane {
    t1: V3,
    t2: V3,
    n: V3,
}

impl Plane {
    fn new(n: &V3) -> Plane {
        let helper = if n.x.abs() < 0.6 { V3::x() } else { V3::y() };
        let t1 = n.cross(&helper).normalize();
        Plane { t1, t2: n.cross(&t1), n: *n }
    }

    fn flat(&self, p: &V3) -> V2 {
        V2::new(p.dot(&self.t1), p.dot(&self.t2))
    }

    /// The point of feature `f` (points `pts` in 3D, `flat` projected) over `q`, which is
    /// within its projection (a polygon: on its plane; a segment: along it).
    fn lift(&self, f: &Feature, flat: &[V2], q: &V2) -> V3 {
        let pts = f.points();
        match pts.len() {
            1 => pts[0],
            2 => {
                let e = flat[1] - flat[0];
                let t = if e.norm_squared() > 0.0 { ((q - flat[0]).dot(&e) / e.norm_squared()).clamp(0.0, 1.0) } else { 0.0 };
                pts[0] + (pts[1] - pts[0]) * t
            }
            _ => {
                let normal = newell(pts);
                let q3 = self.t1 * q.x + self.t2 * q.y;
                let s = normal.dot(&(pts[0] - q3)) / normal.dot(&self.n);
                q3 + self.n * s
            }
        }
    }
}

/// Twice the signed area of a 2D polygon.
fn signed_area(poly: &[V2]) -> f64 {
    (0..poly.len()).map(|i| cross2(&poly[i], &poly[(i + 1) % poly.len()])).sum()
}

/// Closest point to `q` of a 2D feature (a point, a segment or a convex polygon).
fn closest_2d(flat: &[V2], q: &V2) -> V2 {
    let on_segment = |a: &V2, b: &V2| {
        let e = b - a;
        let t = if e.norm_squared() > 0.0 { ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0) } else { 0.0 };
        a + e * t
    };
    match flat.len() {
        1 => flat[0],
        2 => on_segment(&flat[0], &flat[1]),
        n => {
            let s = signed_area(flat).signum();
            if (0..n).all(|i| s * cross2(&(flat[(i + 1) % n] - flat[i]), &(q - flat[i])) >= 0.0) {
                return *q;
            }
            (0..n).map(|i| on_segment(&flat[i], &flat[(i + 1) % n])).min_by(|a, b| (a - q).norm_squared().total_cmp(&(b - q).norm_squared())).expect("a polygon has edges")
        }
    }
}

/// The manifold of feature `fa` (of side a, its support along −n) against `fb` (side b,
/// along n), normal `n` from b to a. Empty when their projections do not overlap (then
/// the closest points, which the caller adds, are the contact).
pub fn clip(fa: &Feature, fb: &Feature, n: &V3) -> Manifold {
    let mut m = Manifold { pairs: [Pair { a: V3::zeros(), b: V3::zeros() }; MOST], len: 0 };
    let plane = Plane::new(n);
    let mut flat_a = [V2::zeros(); FACE_POINTS];
    let mut flat_b = [V2::zeros(); FACE_POINTS];
    for (i, p) in fa.points().iter().enumerate() {
        flat_a[i] = plane.flat(p);
    }
    for (i, p) in fb.points().iter().enumerate() {
        flat_b[i] = plane.flat(p);
    }
    let (fa2, fb2) = (&flat_a[..fa.len], &flat_b[..fb.len]);
    let mut emit = |q: &V2| m.push(plane.lift(fa, fa2, q), plane.lift(fb, fb2, q));
    match (fa.len, fb.len) {
        // a vertex: over the other feature's closest point (lifting a vertex keeps it)
        (1, _) => emit(&closest_2d(fb2, &fa2[0])),
        (_, 1) => emit(&closest_2d(fa2, &fb2[0])),
        (2, 2) => segments(fa2, fb2, &mut emit),
        (2, _) => segment_in_polygon(fa2, fb2, &mut emit),
        (_, 2) => segment_in_polygon(fb2, fa2, &mut emit),
        _ => polygons(fa2, fb2, &mut emit),
    }
    m
}

/// The normal of the features' contact: a face's normal (the one closer to `n` when both
/// are faces), or across two crossing edges; else `n`. GJK's normal ends within its
/// tolerance of these (about 1e-8 rad on a cylinder's curved side), the features' own is exact.
pub fn feature_normal(fa: &Feature, fb: &Feature, n: &V3) -> V3 {
    let oriented = |v: V3| {
        let v = v.normalize();
        if v.dot(n) < 0.0 { -v } else { v }
    };
    let faces = [fa, fb].map(|f| (f.len >= 3).then(|| oriented(newell(f.points()))));
    match faces {
        [Some(a), Some(b)] => {
            if a.dot(n) > b.dot(n) { a } else { b }
        }
        [Some(f), None] | [None, Some(f)] => f,
        [None, None] if fa.len == 2 && fb.len == 2 => {
            let c = (fa.points[1] - fa.points[0]).cross(&(fb.points[1] - fb.points[0]));
            let (ea, eb) = ((fa.points[1] - fa.points[0]).norm(), (fb.points[1] - fb.points[0]).norm());
            if c.norm() > 1e-3 * ea * eb { oriented(c) } else { *n }
        }
        _ => *n,
    }
}

/// Two segments: parallel, their overlap's ends; crossing, the crossing.
fn segments(a: &[V2], b: &[V2], emit: &mut impl FnMut(&V2)) {
    let (ea, eb) = (a[1] - a[0], b[1] - b[0]);
    let la = ea.norm();
    if la > 0.0 && cross2(&ea, &eb).abs() <= 1e-3 * la * eb.norm() {
        let u = ea / la;
        let (mut t0, mut t1) = ((b[0] - a[0]).dot(&u), (b[1] - a[0]).dot(&u));
        if t0 > t1 {
            std::mem::swap(&mut t0, &mut t1);
        }
        let (lo, hi) = (t0.max(0.0), t1.min(la));
        if lo <= hi {
            emit(&(a[0] + u * lo));
            if hi > lo {
                emit(&(a[0] + u * hi));
            }
            return;
        }
    }
    // crossing: the point over both (apart: the closest points, GJK's, are the contact)
    let den = cross2(&ea, &eb);
    if den != 0.0 {
        let d = b[0] - a[0];
        let (s, t) = (cross2(&d, &eb) / den, cross2(&d, &ea) / den);
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            emit(&(a[0] + ea * s));
        }
    }
}

/// A segment cut by a convex polygon's edges (Cyrus–Beck): the ends of what is inside.
fn segment_in_polygon(seg: &[V2], poly: &[V2], emit: &mut impl FnMut(&V2)) {
    let (p0, d) = (seg[0], seg[1] - seg[0]);
    let s = signed_area(poly).signum();
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        // inside: s·cross(b − a, p − a) ≥ 0, linear in t
        let (c0, c1) = (s * cross2(&(b - a), &(p0 - a)), s * cross2(&(b - a), &d));
        if c1 == 0.0 {
            if c0 < 0.0 {
                lo = 1.0;
                hi = 0.0;
            }
        } else if c1 > 0.0 {
            lo = lo.max(-c0 / c1);
        } else {
            hi = hi.min(-c0 / c1);
        }
    }
    if lo <= hi {
        emit(&(p0 + d * lo));
        if hi > lo {
            emit(&(p0 + d * hi));
        }
    }
}

/// Polygon `a` clipped by polygon `b` (Sutherland–Hodgman; both convex).
fn polygons(a: &[V2], b: &[V2], emit: &mut impl FnMut(&V2)) {
    let mut cur = [V2::zeros(); MOST];
    let mut next = [V2::zeros(); MOST];
    cur[..a.len()].copy_from_slice(a);
    let mut len = a.len();
    let s = signed_area(b).signum();
    for i in 0..b.len() {
        let (e0, e1) = (b[i], b[(i + 1) % b.len()]);
        len = clip_half_plane(&cur[..len], &mut next, |p: &V2| s * cross2(&(e1 - e0), &(p - e0)));
        cur = next;
        if len == 0 {
            break;
        }
    }
    for p in &cur[..len] {
        emit(p);
    }
}

/// Indices of at most 4 of `points` (projected across `n`) that span the most area: the
/// farthest along a fixed skew direction of the plane, the farthest from it, the farthest
/// from their line, and the one adding the most area to their triangle. Not the deepest
/// first: on a resting face every vertex is about as deep, and a choice that follows the
/// deepest swaps its points at each nanoradian of rocking (a limit cycle of ±7e-4 rad/s
/// on the Panda's base); the caller adds the deepest when it is clearly lower.
pub fn reduce_to_four(points: &[V3], n: &V3) -> ([usize; 4], usize) {
    let plane = Plane::new(n);
    let count = points.len();
    if count <= 4 {
        return ([0, 1, 2, 3], count);
    }
    let flat = |i: usize| plane.flat(&points[i]);
    let skew = V2::new(0.3f64.cos(), 0.3f64.sin());
    let i0 = (0..count).max_by(|&a, &b| flat(a).dot(&skew).total_cmp(&flat(b).dot(&skew))).expect("points");
    let i1 = (0..count).max_by(|&a, &b| (flat(a) - flat(i0)).norm_squared().total_cmp(&(flat(b) - flat(i0)).norm_squared())).expect("points");
    let tri = |i: usize| cross2(&(flat(i1) - flat(i0)), &(flat(i) - flat(i0)));
    let i2 = (0..count).max_by(|&a, &b| tri(a).abs().total_cmp(&tri(b).abs())).expect("points");
    let s = tri(i2).signum();
    let corners = [i0, i1, i2];
    let gain = |i: usize| {
        (0..3)
            .map(|k| {
                let (a, b) = (flat(corners[k]), flat(corners[(k + 1) % 3]));
                -s * cross2(&(b - a), &(flat(i) - a))
            })
            .fold(0.0, f64::max)
    };
    let i3 = (0..count).max_by(|&a, &b| gain(a).total_cmp(&gain(b))).expect("points");
    let mut chosen = [i0, i1, i2, i3];
    let mut len = 0;
    for k in 0..4 {
        let c = chosen[k];
        if !chosen[..len].contains(&c) && (k < 3 || gain(c) > 0.0) {
            chosen[len] = c;
            len += 1;
        }
    }
    (chosen, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(pts: &[V3]) -> Feature {
        let mut f = Feature { points: [V3::zeros(); FACE_POINTS], len: pts.len() };
        f.points[..pts.len()].copy_from_slice(pts);
        f
    }

    fn square(h: f64, z: f64, turn: f64) -> Vec<V3> {
        // counter-clockwise about +z when turn > 0
        [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].iter().map(|&(x, y)| V3::new(h * x, turn * h * y, z)).collect()
    }

    #[test]
    fn a_small_square_on_a_big_one_keeps_its_corners_and_a_big_one_is_cut_to_the_small() {
        let n = V3::z();
        // a above b: a's support along −n is its bottom (clockwise about +z), b's top
        let m = clip(&feature(&square(0.1, 0.01, -1.0)), &feature(&square(1.0, 0.0, 1.0)), &n);
        assert_eq!(m.len, 4);
        for p in &m.pairs[..4] {
            assert!((p.a.z - 0.01).abs() < 1e-15 && p.b.z.abs() < 1e-15 && (p.a.xy() - p.b.xy()).norm() < 1e-15);
            assert!((p.a.x.abs() - 0.1).abs() < 1e-15);
        }
        let m = clip(&feature(&square(1.0, 0.01, -1.0)), &feature(&square(0.1, 0.0, 1.0)), &n);
        assert_eq!(m.len, 4);
        assert!(m.pairs[..4].iter().all(|p| (p.a.x.abs() - 0.1).abs() < 1e-15 && (p.a.y.abs() - 0.1).abs() < 1e-15));
    }

    #[test]
    fn a_segment_across_a_square_is_cut_at_its_edges() {
        let seg = [V3::new(-2.0, 0.5, 0.3), V3::new(2.0, 0.5, 0.3)];
        let m = clip(&feature(&seg), &feature(&square(1.0, 0.0, 1.0)), &V3::z());
        assert_eq!(m.len, 2);
        let xs: Vec<f64> = m.pairs[..2].iter().map(|p| p.a.x).collect();
        assert!((xs[0] + 1.0).abs() < 1e-15 && (xs[1] - 1.0).abs() < 1e-15, "{xs:?}");
        // parallel segments: their overlap
        let other = [V3::new(0.5, 0.5, 0.0), V3::new(3.0, 0.5, 0.0)];
        let m = clip(&feature(&seg), &feature(&other), &V3::z());
        assert_eq!(m.len, 2);
        assert!((m.pairs[0].a.x - 0.5).abs() < 1e-15 && (m.pairs[1].a.x - 2.0).abs() < 1e-15);
    }

    #[test]
    fn reduction_keeps_the_most_area() {
        // a 16-gon: the kept 4 cover 0.65 of its area (an inscribed square: 0.64)
        let pts: Vec<V3> = (0..16).map(|i| {
            let a = 2.0 * std::f64::consts::PI * i as f64 / 16.0;
            V3::new(a.cos(), a.sin(), 0.0)
        }).collect();
        let (kept, len) = reduce_to_four(&pts, &V3::z());
        assert_eq!(len, 4);
        let quad: Vec<V2> = {
            let mut q: Vec<V3> = kept.iter().map(|&i| pts[i]).collect();
            q.sort_by(|a, b| a.y.atan2(a.x).total_cmp(&b.y.atan2(b.x)));
            q.iter().map(|p| V2::new(p.x, p.y)).collect()
        };
        let area = 0.5 * signed_area(&quad).abs();
        let full = 0.5 * 16.0 * (2.0 * std::f64::consts::PI / 16.0).sin();
        assert!(area / full > 0.64, "{}", area / full);
    }
}
