//! Every pair of the table over many poses: the checks of `testing` hold, and the lowest
//! point of shapes apart is their distance (for boxes also against an exact distance of
//! boxes computed here from their edges).

use super::capsule_box::closest_param;
use super::sphere_box::closest_on_box;
use super::testing::{check_closest, checked_points, closest_errors, placed};
use crate::contact::geometry::solid::Solid;
use crate::contact::geometry::Geometry;
use super::{narrow_phase, TABLE};
use crate::contact::geometry::{ContactPoint, Shape, ShapeKind};
use crate::math::{from_rotation_vector, V3, V4};

/// A deterministic sequence in [−1, 1) (a linear congruential generator).
struct Sequence(u64);

impl Sequence {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    fn v3(&mut self, scale: f64) -> V3 {
        V3::new(self.next(), self.next(), self.next()) * scale
    }

    fn q(&mut self) -> V4 {
        from_rotation_vector(&self.v3(3.0))
    }

    /// A shape of `kind` on `body` at a random pose with random sizes (0.05 to 0.35).
    fn shape(&mut self, kind: ShapeKind, body: Option<usize>) -> Shape {
        if kind == ShapeKind::Hull {
            // 10 points in a box of half size 0.05 to 0.35
            let e = V3::new(0.2 + 0.15 * self.next(), 0.2 + 0.15 * self.next(), 0.2 + 0.15 * self.next());
            let pts: Vec<V3> = (0..10).map(|_| self.v3(1.0).component_mul(&e)).collect();
            let (x, q) = (self.v3(0.2), self.q());
            return super::testing::hull(body, x, q, &pts);
        }
        let mut size = || 0.2 + 0.15 * self.next();
        let params: Vec<f64> = (0..kind.parameter_count()).map(|_| size()).collect();
        let (x, q) = (self.v3(0.2), self.q());
        placed(body, x, q, kind, &params)
    }
}

#[test]
fn every_pair_over_many_poses() {
    let mut rng = Sequence(12345);
    let (mut separated_checked, mut boxes_apart, mut boxes_exact) = (0, 0, 0);
    // GJK pairs (parry): the largest witness error and gap error over the poses apart
    let mut gjk_errors: Vec<(ShapeKind, ShapeKind, f64, f64)> = Vec::new();
    for first in ShapeKind::ALL {
        for second in ShapeKind::ALL.into_iter().filter(|&k| k >= first) {
            // the terrain pairs (height field, triangle mesh) are the convex pair per
            // triangle, swept in tests/collision/terrain.rs
            if TABLE[first as usize][second as usize].is_none() || second >= ShapeKind::HeightField {
                continue;
            }
            for case in 0..300 {
                // body shapes on bodies 0 and 1, one on the world every third case (the
                // second, or the plane)
                let world = case % 3 == 0;
                let b1 = if first == ShapeKind::Plane && world { None } else { Some(0) };
                let b2 = if world && b1.is_some() { None } else { Some(1) };
                let (s1, s2) = (rng.shape(first, b1), rng.shape(second, b2));
                let x = vec![rng.v3(0.6), rng.v3(0.6)];
                let q = vec![rng.q(), rng.q()];
                let points = checked_points(&s1, &s2, &x, &q, f64::INFINITY);
                assert!(!points.is_empty(), "{first:?}–{second:?} case {case}: no point with an infinite margin");
                let lowest = points.iter().fold(points[0], |l, p| if p.gap(&x, &q) < l.gap(&x, &q) { *p } else { l });
                let gjk = second == ShapeKind::Hull || (first >= ShapeKind::Box && second == ShapeKind::Cylinder);
                if lowest.gap(&x, &q) > 1e-9 {
                    if gjk {
                        let (off, gap_error) = closest_errors(&lowest, &s1, &s2, &x, &q);
                        match gjk_errors.iter_mut().find(|e| (e.0, e.1) == (first, second)) {
                            Some(e) => (e.2, e.3) = (e.2.max(off), e.3.max(gap_error)),
                            None => gjk_errors.push((first, second, off, gap_error)),
                        }
                    } else {
                        check_closest(&lowest, &s1, &s2, &x, &q);
                    }
                    separated_checked += 1;
                }
                if (first, second) == (ShapeKind::Box, ShapeKind::Box) {
                    let distance = box_distance(&Solid::at(&s1, &x, &q), &Solid::at(&s2, &x, &q));
                    if distance > 1e-9 {
                        boxes_apart += 1;
                        let gap = lowest.gap(&x, &q);
                        assert!(gap >= distance - 1e-12, "box–box gap {gap} below the distance {distance}: {s1:?} {s2:?} {x:?} {q:?} {points:?}");
                        boxes_exact += usize::from(gap <= distance + 1e-12);
                    }
                }
                let mut short = [ContactPoint::default(); 1];
                assert_eq!(narrow_phase(&s1, &s2, &x, &q, f64::INFINITY, &mut short), 1);
                assert!((short[0].gap(&x, &q) - lowest.gap(&x, &q)).abs() < 1e-15, "a one-slot out keeps the lowest");
            }
        }
    }
    // most poses are apart (sizes ≤ 0.35, positions within ±0.6): measured 2284 of 3600
    // checked against the support functions; boxes apart 225 of 300, each lowest gap
    // their exact distance (to 2e-14 relative)
    // GJK pairs: witnesses on their surfaces (measured ≤ 1.2e-15); the gap is the
    // separation along the normal to 1.3e-15 with a hull or box only, to 2.7e-8 with a
    // cylinder, where parry's GJK stops within its tolerance on the curved side and the
    // normal is a rim point's, not a face's (measured: box 1.7e-8, cylinder 2.7e-8, hull 1.0e-8)
    for e in &gjk_errors {
        println!("{:?}–{:?}: witness off its surface ≤ {:.1e}, gap from the separation ≤ {:.1e}", e.0, e.1, e.2, e.3);
        let curved = e.0 == ShapeKind::Cylinder || e.1 == ShapeKind::Cylinder;
        assert!(e.2 < 1e-14 && e.3 < if curved { 1e-7 } else { 1e-14 }, "{e:?}");
    }
    assert_eq!(gjk_errors.len(), 8, "every GJK pair met poses apart");
    assert!(separated_checked > 2200, "{separated_checked}");
    assert!(boxes_apart > 200 && boxes_exact == boxes_apart, "{boxes_exact} of {boxes_apart} box–box gaps are the distance");
}

/// Signed distance of two boxes when they are apart (≤ 0 when they overlap): the least
/// distance of an edge of one to the other box (the closest features of two convex
/// polyhedra include an edge or a corner, which an edge ends; overlapping boxes have an
/// edge in the other). Each edge's distance is capsule–box's exact segment distance.
fn box_distance(a: &Solid, b: &Solid) -> f64 {
    let (&Geometry::Box { half_extents: ea }, &Geometry::Box { half_extents: eb }) = (&a.geometry, &b.geometry) else { unreachable!() };
    let mut best = f64::INFINITY;
    for (s, e, other, eo) in [(a, ea, b, eb), (b, eb, a, ea)] {
        for i in 0..3 {
            let (j, k) = ((i + 1) % 3, (i + 2) % 3);
            for (sj, sk) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let mut p = V3::zeros();
                (p[j], p[k]) = (sj * e[j], sk * e[k]);
                let (c, d) = (other.to_shape(&s.world(&p)), other.r.transpose() * s.axis(i));
                let t = closest_param(&c, &d, e[i], &eo);
                best = best.min(closest_on_box(&eo, &(c + d * t)).2);
            }
        }
    }
    best
}

/// A configuration with NaN or degenerate shapes (length 0, radius 0, coincident centres)
/// never panics a pair; with NaN, every pair writes points with NaN gaps, which the step sees.
#[test]
fn degenerate_inputs_do_not_panic() {
    let mut rng = Sequence(7);
    for first in ShapeKind::ALL {
        // terrain (world only): its own test in `terrain.rs`
        for second in ShapeKind::ALL.into_iter().filter(|&k| k >= first && k < ShapeKind::HeightField && TABLE[first as usize][k as usize].is_some()) {
            let (s1, s2) = (rng.shape(first, Some(0)), rng.shape(second, Some(1)));
            let q = vec![rng.q(), rng.q()];
            let mut out = [ContactPoint::default(); 8];
            let nan = vec![V3::new(f64::NAN, 0.0, 0.0), V3::zeros()];
            let count = narrow_phase(&s1, &s2, &nan, &q, f64::INFINITY, &mut out);
            assert!(count >= 1 && out[..count].iter().all(|p| p.gap(&nan, &q).is_nan()), "{first:?}–{second:?}: {count} points");
            // both at the origin, unrotated
            let (x0, q0) = (vec![V3::zeros(); 2], vec![V4::new(1.0, 0.0, 0.0, 0.0); 2]);
            assert!(narrow_phase(&s1, &s2, &x0, &q0, f64::INFINITY, &mut out) >= 1);
        }
    }
    let thin = |kind, params: &[f64], body| placed(Some(body), V3::zeros(), V4::new(1.0, 0.0, 0.0, 0.0), kind, params);
    let (x, q) = (vec![V3::new(0.0, 0.0, 0.3), V3::zeros()], vec![V4::new(1.0, 0.0, 0.0, 0.0); 2]);
    for (a, b) in [
        (thin(ShapeKind::Capsule, &[0.0, 0.0], 0), thin(ShapeKind::Capsule, &[0.1, 0.0], 1)),
        (thin(ShapeKind::Capsule, &[0.0, 0.2], 0), thin(ShapeKind::Box, &[0.1, 0.1, 0.1], 1)),
        (thin(ShapeKind::Sphere, &[0.0], 0), thin(ShapeKind::Cylinder, &[0.1, 0.0], 1)),
        (thin(ShapeKind::Capsule, &[0.1, 0.0], 0), thin(ShapeKind::Cylinder, &[0.1, 0.0], 1)),
    ] {
        let points = checked_points(&a, &b, &x, &q, f64::INFINITY);
        assert!(!points.is_empty() && points.iter().all(|p| p.gap(&x, &q).is_finite()));
    }
}

/// The sweep's poses with every size and position scaled by `scale`: whether every pair
/// still gives at least one point, finite gaps, and, for shapes apart, a lowest gap equal
/// to their separation along its normal to 1e-12 of the scale (the unit sweep's
/// tolerance, scaled). Returns the first failure.
fn scaled_sweep(scale: f64) -> Result<(), String> {
    use super::testing::{separation, sides};
    let mut rng = Sequence(12345);
    for first in ShapeKind::ALL {
        for second in ShapeKind::ALL.into_iter().filter(|&k| k >= first) {
            // the GJK pairs (hulls, box and cylinder against a cylinder) are checked at the
            // bound only: at 1e100 parry builds no hull of these points and its GJK returns
            // NaN gaps (a step reports them as non-finite)
            let gjk = second == ShapeKind::Hull || (first >= ShapeKind::Box && second == ShapeKind::Cylinder);
            if TABLE[first as usize][second as usize].is_none() || second >= ShapeKind::HeightField || (gjk && scale > crate::model::shape::MAX_SHAPE_SIZE) {
                continue;
            }
            for case in 0..100 {
                let world = case % 3 == 0;
                let b1 = if first == ShapeKind::Plane && world { None } else { Some(0) };
                let b2 = if world && b1.is_some() { None } else { Some(1) };
                let grow = |s: Shape| match s {
                    Shape::Placed { body, x, q, geometry } => {
                        let geometry = match geometry {
                            Geometry::Sphere { radius } => Geometry::Sphere { radius: radius * scale },
                            Geometry::Capsule { radius, half_length } => Geometry::Capsule { radius: radius * scale, half_length: half_length * scale },
                            Geometry::Cylinder { radius, half_length } => Geometry::Cylinder { radius: radius * scale, half_length: half_length * scale },
                            Geometry::Box { half_extents } => Geometry::Box { half_extents: half_extents * scale },
                            Geometry::Hull(h) => {
                                let points: Vec<V3> = h.points.iter().map(|p| p * scale).collect();
                                Geometry::Hull(std::sync::Arc::new(crate::model::hull::Hull::new(&points).expect("a scaled hull")))
                            }
                            g => g,
                        };
                        Shape::Placed { body, x: x * scale, q, geometry }
                    }
                    other => other,
                };
                let (s1, s2) = (grow(rng.shape(first, b1)), grow(rng.shape(second, b2)));
                let x = vec![rng.v3(0.6) * scale, rng.v3(0.6) * scale];
                let q = vec![rng.q(), rng.q()];
                let mut out = [ContactPoint::default(); 8];
                let count = narrow_phase(&s1, &s2, &x, &q, f64::INFINITY, &mut out);
                let what = format!("{first:?}–{second:?} case {case} at scale {scale:e}");
                if count == 0 {
                    return Err(format!("{what}: no point"));
                }
                let gaps: Vec<f64> = out[..count].iter().map(|p| p.gap(&x, &q)).collect();
                if gaps.iter().any(|g| !g.is_finite()) {
                    return Err(format!("{what}: gaps {gaps:?}"));
                }
                let k = (0..count).min_by(|&i, &j| gaps[i].total_cmp(&gaps[j])).unwrap();
                if gaps[k] > 1e-9 * scale {
                    let (a, b) = sides(&out[k], &s1, &s2, &x, &q);
                    let sep = separation(&a, &b, &out[k].normal);
                    // the unit sweep's tolerances, scaled: GJK on a cylinder's curved side
                    // stops within its tolerance (1e-7 there)
                    let curved_gjk = gjk && (first == ShapeKind::Cylinder || second == ShapeKind::Cylinder);
                    let tolerance = if curved_gjk { 1e-7 } else { 1e-12 };
                    if !((gaps[k] - sep).abs() <= tolerance * scale) {
                        return Err(format!("{what}: lowest gap {:e} against the separation {sep:e}", gaps[k]));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Where the narrow phase stops: the scaled sweep holds at the model's bound on shape
/// sizes and offsets (`MAX_SHAPE_SIZE`, 1e12) and up to 1e154; at 1e156 box–box's
/// squares overflow (measured: its lowest gap 7 % off the separation). The bound itself
/// comes from the step, which stops finding contacts first (docs/COLLISION.md).
#[test]
fn pairs_hold_up_to_the_size_bound() {
    use crate::model::shape::MAX_SHAPE_SIZE;
    for scale in [MAX_SHAPE_SIZE, 1e100, 1e154] {
        scaled_sweep(scale).unwrap();
    }
    let overflow = scaled_sweep(1e156).unwrap_err();
    assert!(overflow.contains("Box–Box"), "{overflow}");
}
