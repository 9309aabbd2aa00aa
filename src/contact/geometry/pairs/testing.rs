//! Test support of the pair functions: the shapes' signed distances and support functions,
//! computed independently of the pairs, and the checks every pair's points pass.

use super::{narrow_phase, MAX_POINTS_PER_PAIR};
use crate::contact::geometry::solid::Solid;
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{from_rotation_vector, rotation, V3, V4};
use crate::model::shape::ShapeKind;

/// Tolerance of a witness point on its surface and of a gap against the support functions:
/// the pairs reach 1e-15 on unit-sized shapes; 1e-12 leaves room for other poses.
pub const EXACT: f64 = 1e-12;

pub fn unit_q(rx: f64, ry: f64, rz: f64) -> V4 {
    from_rotation_vector(&V3::new(rx, ry, rz))
}

pub fn placed(body: Option<usize>, x: V3, q: V4, kind: ShapeKind, params: &[f64]) -> Shape {
    Shape::placed(body, x.into(), q.into(), kind, params).unwrap()
}

/// A hull of `points` on `body` at (x, q).
pub fn hull(body: Option<usize>, x: V3, q: V4, points: &[V3]) -> Shape {
    let h = crate::model::hull::Hull::new(points).unwrap();
    Shape::with_geometry(body, x.into(), q.into(), Geometry::Hull(std::sync::Arc::new(h))).unwrap()
}

/// Signed distance of world point `w` to the solid (negative inside).
pub fn signed_distance(s: &Solid, w: &V3) -> f64 {
    let p = s.to_shape(w);
    match s.geometry {
        Geometry::HalfSpace => s.height(w),
        Geometry::Sphere { radius } => (w - s.x).norm() - radius,
        Geometry::Capsule { radius, half_length } => (p - V3::new(0.0, 0.0, p.z.clamp(-half_length, half_length))).norm() - radius,
        Geometry::Box { half_extents } => {
            let d = p.abs() - half_extents;
            d.map(|v| v.max(0.0)).norm() + d.max().min(0.0)
        }
        Geometry::Cylinder { radius, half_length } => {
            let (dr, dz) = (p.xy().norm() - radius, p.z.abs() - half_length);
            dr.max(0.0).hypot(dz.max(0.0)) + dr.max(dz).min(0.0)
        }
        // the farthest face plane: 0 on the surface, the depth inside, a lower bound of
        // the distance outside
        Geometry::Hull(ref h) => h.faces.iter().map(|f| f.normal.dot(&p) - f.offset).fold(f64::NEG_INFINITY, f64::max),
        Geometry::HeightField(_) | Geometry::TriMesh(_) => unreachable!("the sweep leaves the terrain pairs out"),
    }
}

/// Support function max over the solid of d·p (a half-space's: along its normal only).
pub fn support(s: &Solid, d: &V3) -> f64 {
    let (c, u) = (s.x.dot(d), s.axis(2));
    match s.geometry {
        Geometry::HalfSpace => {
            assert!((d - u).norm() < 1e-12, "a half-space's support is bounded along its normal only");
            -s.height(&V3::zeros())
        }
        Geometry::Sphere { radius } => c + radius * d.norm(),
        Geometry::Capsule { radius, half_length } => c + half_length * u.dot(d).abs() + radius * d.norm(),
        Geometry::Box { half_extents: e } => c + (0..3).map(|i| e[i] * s.axis(i).dot(d).abs()).sum::<f64>(),
        Geometry::Cylinder { radius, half_length } => c + half_length * u.dot(d).abs() + radius * (d - u * u.dot(d)).norm(),
        Geometry::Hull(ref h) => h.points.iter().map(|p| s.world(p).dot(d)).fold(f64::NEG_INFINITY, f64::max),
        Geometry::HeightField(_) | Geometry::TriMesh(_) => unreachable!("the sweep leaves the terrain pairs out"),
    }
}

/// Separation of side a from side b along the normal n (from b to a): the least n·p over
/// a less the most over b. For separated shapes it is at most their distance, and equal
/// when n is the direction between their closest points.
pub fn separation(a: &Solid, b: &Solid, n: &V3) -> f64 {
    -support(a, &-n) - support(b, n)
}

/// World witness point of side `side` of `p` at (x, q).
pub fn world_witness(p: &ContactPoint, side: usize, x: &[V3], q: &[V4]) -> V3 {
    match [Some(p.body_a), p.body_b][side] {
        Some(b) => x[b] + rotation(&q[b]) * p.witness(side, &rotation(&q[b]).transpose()),
        None => p.witness(side, &crate::math::M3::identity()),
    }
}

/// The solids of a point's sides a and b among the shapes `s1`, `s2`.
pub fn sides(p: &ContactPoint, s1: &Shape, s2: &Shape, x: &[V3], q: &[V4]) -> (Solid, Solid) {
    let (a, b) = if s1.body() == Some(p.body_a) { (s1, s2) } else { (s2, s1) };
    (Solid::at(a, x, q), Solid::at(b, x, q))
}

/// Points of `s1` against `s2`: `expected` of them, each with a unit normal, its gap
/// within the margin and both witness points in their shapes (on the surface for the
/// closest point, see [`check_closest`]; a point of a part, like a capsule's end cap, may
/// have its witness inside the shape); swapping the shapes gives the same points with their
/// sides swapped.
pub fn check_points(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4], max_gap: f64, expected: usize) -> Vec<ContactPoint> {
    let points = checked_points(s1, s2, x, q, max_gap);
    assert_eq!(points.len(), expected, "points of {s1:?} against {s2:?}: {points:?}");
    points
}

/// The points of [`check_points`], however many.
pub fn checked_points(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4], max_gap: f64) -> Vec<ContactPoint> {
    let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
    let count = narrow_phase(s1, s2, x, q, max_gap, &mut out);
    let points = out[..count].to_vec();
    for p in &points {
        assert!((p.normal.norm() - 1.0).abs() < EXACT);
        assert!(p.gap(x, q) <= max_gap);
        let (a, b) = sides(p, s1, s2, x, q);
        for (side, solid) in [(0, &a), (1, &b)] {
            let d = signed_distance(solid, &world_witness(p, side, x, q));
            assert!(d < EXACT, "witness {side} of {p:?} is {d:e} outside its shape");
        }
    }
    let mut back = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
    assert_eq!(narrow_phase(s2, s1, x, q, max_gap, &mut back), count);
    for r in &back[..count] {
        let r = if s1.body().is_some() && s2.body().is_some() { r.swapped() } else { *r };
        let same = |p: &ContactPoint| {
            (p.normal - r.normal).norm() < 1e-12
                && (p.gap(x, q) - r.gap(x, q)).abs() < 1e-12
                && (0..2).all(|side| (world_witness(p, side, x, q) - world_witness(&r, side, x, q)).norm() < 1e-12)
        };
        assert!(points.iter().any(same), "swapped shapes give {r:?}, not among {points:?}");
    }
    points
}

/// The closest point of a contact: its witnesses are on the surfaces and its gap is the
/// separation along its normal (so the distance, when the shapes are apart).
pub fn check_closest(p: &ContactPoint, s1: &Shape, s2: &Shape, x: &[V3], q: &[V4]) {
    let (off, gap_error) = closest_errors(p, s1, s2, x, q);
    assert!(off < EXACT, "a witness of {p:?} is {off:e} off its surface");
    assert!(gap_error < EXACT, "gap {} is {gap_error:e} from the separation along its normal", p.gap(x, q));
}

/// How far the closest point's witnesses are off their surfaces (the larger), and its gap
/// from the separation along its normal.
pub fn closest_errors(p: &ContactPoint, s1: &Shape, s2: &Shape, x: &[V3], q: &[V4]) -> (f64, f64) {
    let (a, b) = sides(p, s1, s2, x, q);
    let off = [(0, &a), (1, &b)].iter().map(|&(side, solid)| signed_distance(solid, &world_witness(p, side, x, q)).abs()).fold(0.0, f64::max);
    (off, (p.gap(x, q) - separation(&a, &b, &p.normal)).abs())
}

/// The lowest point of `s1` against `s2` at a general pose (the margin keeps it alone),
/// checked as the closest point.
pub fn lowest_point(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4]) -> ContactPoint {
    let lowest = lowest_gap(s1, s2, x, q, f64::INFINITY);
    let p = check_points(s1, s2, x, q, lowest + 1e-12, 1)[0];
    check_closest(&p, s1, s2, x, q);
    p
}

/// Lowest gap of the points of `s1` against `s2` (margin `max_gap`) at (x, q).
pub fn lowest_gap(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4], max_gap: f64) -> f64 {
    let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
    let count = narrow_phase(s1, s2, x, q, max_gap, &mut out);
    out[..count].iter().map(|p| p.gap(x, q)).fold(f64::INFINITY, f64::min)
}

/// Continuity: moving body `body` by `h` along a fixed direction and rotation moves the
/// lowest gap by at most `bound`·h (h = 1e-7).
pub fn check_continuity(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4], body: usize, bound: f64) {
    let h = 1e-7;
    let g0 = lowest_gap(s1, s2, x, q, f64::INFINITY);
    let (mut x1, mut q1) = (x.to_vec(), q.to_vec());
    x1[body] += V3::new(0.3, -0.5, 0.4) * h;
    q1[body] = crate::math::qmul(&q[body], &unit_q(0.2 * h, 0.7 * h, -0.4 * h));
    let g1 = lowest_gap(s1, s2, &x1, &q1, f64::INFINITY);
    assert!((g1 - g0).abs() <= bound * h, "lowest gap moved {:e} for a motion of {h:e}", g1 - g0);
}

/// A sphere on body 0 (at `centre`, with both bodies unrotated) against `other` on body 1
/// at the origin, case by case: one point, of gap `gap` and normal `normal` (to 1e-15),
/// at the shapes' closest points, continuous under small motions.
pub fn check_sphere_cases(sphere: &Shape, other: &Shape, cases: &[(V3, f64, V3)]) {
    let q = vec![unit_q(0.0, 0.0, 0.0); 2];
    for &(centre, gap, normal) in cases {
        let x = vec![centre, V3::zeros()];
        let p = check_points(sphere, other, &x, &q, 1.0, 1)[0];
        let p_gap = p.gap(&x, &q);
        assert!((p_gap - gap).abs() < 1e-15 && (p.normal - normal).norm() < 1e-15, "{centre:?}: gap {p_gap} normal {:?}", p.normal);
        check_closest(&p, sphere, other, &x, &q);
        check_continuity(sphere, other, &x, &q, 0, 1.0);
    }
}
