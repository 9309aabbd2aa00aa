//! Capsule against capsule.

use super::segment::closest_between;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// The closest points of the two segments, and each end cap whose foot on the other
/// segment falls inside it (a sphere–capsule contact of that cap), each within the margin,
/// lowest first; a point within the mean radius of a lower one along both axes supports the
/// same place (two caps side by side, or a cap that is also the closest) and is left out.
/// Crossed capsules touch at one point; parallel ones at the two ends of their overlap
/// (their closest points are one of those ends); a capsule tilting onto another gets its
/// far cap's point as the margin reaches it.
pub fn collide(first: &Shape, second: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (one, two) = (Solid::at(first, x, q), Solid::at(second, x, q));
    let (&Geometry::Capsule { radius: r1, half_length: h1 }, &Geometry::Capsule { radius: r2, half_length: h2 }) = (&one.geometry, &two.geometry) else {
        unreachable!("pair table: capsule_capsule gets two capsules")
    };
    let (u1, u2) = (one.axis(2), two.axis(2));
    // segment parameters (s on one, t on two) of the candidates
    let mut params = [(0.0, 0.0); 5];
    params[0] = closest_between(&one.x, &u1, h1, &two.x, &u2, h2);
    let mut len = 1;
    for s in [-h1, h1] {
        let t = u2.dot(&(one.world(&V3::new(0.0, 0.0, s)) - two.x));
        if t.abs() <= h2 {
            (params[len], len) = ((s, t), len + 1);
        }
    }
    for t in [-h2, h2] {
        let s = u1.dot(&(two.world(&V3::new(0.0, 0.0, t)) - one.x));
        if s.abs() <= h1 {
            (params[len], len) = ((s, t), len + 1);
        }
    }
    let candidate = |(s, t): (f64, f64)| {
        let (p1, p2) = (V3::new(0.0, 0.0, s), V3::new(0.0, 0.0, t));
        let d = one.world(&p1) - two.world(&p2);
        let nd = d.norm();
        // crossing axes have no direction between them; their common normal does
        let across = u1.cross(&u2);
        let n = if nd > 1e-12 { d / nd } else if across.norm() > 1e-12 { across.normalize() } else { one.axis(0) };
        Candidate { gap: n.dot(&d) - r1 - r2, one: one.side_of(&p1, r1), two: two.side_of(&p2, r2), n }
    };
    let candidates: [Candidate; 5] = std::array::from_fn(|k| candidate(params[k.min(len - 1)]));
    let merge = (0.5 * (r1 + r2)).max(1e-9 * (1.0 + h1 + h2));
    let mut order = [0, 1, 2, 3, 4];
    order[..len].sort_unstable_by(|&i, &j| candidates[i].gap.total_cmp(&candidates[j].gap));
    let mut points = Points::new(out, max_gap);
    for (k, &i) in order[..len].iter().enumerate() {
        let (s, t) = params[i];
        if order[..k].iter().all(|&j| (params[j].0 - s).abs() > merge || (params[j].1 - t).abs() > merge) {
            points.push(candidates[i]);
        }
    }
    points.count()
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, lowest_point, placed, unit_q, EXACT};
    use super::*;
    use crate::model::shape::ShapeKind;
    use std::f64::consts::FRAC_PI_2;

    /// Capsules of radius 0.1 and half-length 0.5 on bodies 0 and 1.
    fn capsules() -> (Shape, Shape) {
        let c = |body| placed(Some(body), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Capsule, &[0.1, 0.5]);
        (c(0), c(1))
    }

    #[test]
    fn crossed_at_right_angles_touch_at_one_point() {
        // body 0 along x at height 0.2 + 0.01, body 1 along y at 0: one point between the axes
        let (a, b) = capsules();
        let x = vec![V3::new(0.1, -0.05, 0.21), V3::zeros()];
        let q = vec![unit_q(0.0, FRAC_PI_2, 0.0), unit_q(FRAC_PI_2, 0.0, 0.0)];
        let p = check_points(&a, &b, &x, &q, 0.05, 1)[0];
        assert!((p.gap(&x, &q) - 0.01).abs() < 1e-15 && (p.normal - V3::z()).norm() < 1e-15);
        check_closest(&p, &a, &b, &x, &q);
        check_continuity(&a, &b, &x, &q, 0, 2.0);
    }

    #[test]
    fn parallel_touch_at_the_ends_of_their_overlap() {
        // both along x, body 0 shifted by 0.4 along x and 0.2 up: overlap x ∈ [−0.1, 0.5]
        let (a, b) = capsules();
        let x = vec![V3::new(0.4, 0.0, 0.2), V3::zeros()];
        let q = vec![unit_q(0.0, FRAC_PI_2, 0.0); 2];
        let points = check_points(&a, &b, &x, &q, 0.05, 2);
        let mut xs: Vec<f64> = points.iter().map(|p| super::super::testing::world_witness(p, 0, &x, &q).x).collect();
        xs.sort_by(f64::total_cmp);
        assert!((xs[0] + 0.1).abs() < 1e-15 && (xs[1] - 0.5).abs() < 1e-15, "{xs:?}");
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15);
            check_closest(p, &a, &b, &x, &q);
        }
    }

    #[test]
    fn tilting_onto_another_adds_the_far_cap_within_the_margin() {
        // body 0 tilted 0.05 rad about y over body 1, both along x: its lower cap touches
        // first; its other cap is 2·0.5·sin 0.05 = 0.05 higher
        let (a, b) = capsules();
        let x = vec![V3::new(0.0, 0.0, 0.2 + 0.5 * 0.05f64.sin()), V3::zeros()];
        let q = vec![unit_q(0.0, FRAC_PI_2 + 0.05, 0.0), unit_q(0.0, FRAC_PI_2, 0.0)];
        let one = check_points(&a, &b, &x, &q, 0.01, 1)[0];
        assert!(one.gap(&x, &q).abs() < EXACT);
        check_closest(&one, &a, &b, &x, &q);
        // the far end: body 1's cap under body 0's segment (0.012 from body 0's own cap
        // along the axis, so that one is merged with it)
        let two = check_points(&a, &b, &x, &q, 0.1, 2);
        let u = V3::new(0.05f64.cos(), 0.0, -0.05f64.sin());
        let cap = V3::new(-0.5, 0.0, 0.0) - x[0];
        let expected = (cap - u * u.dot(&cap)).norm() - 0.2;
        assert!((two[1].gap(&x, &q) - expected).abs() < EXACT, "far cap gap {} expected {expected}", two[1].gap(&x, &q));
        check_continuity(&a, &b, &x, &q, 0, 2.0);
    }

    #[test]
    fn general_poses_and_a_world_capsule() {
        let x = vec![V3::new(0.1, 0.5, 0.3), V3::new(-0.2, 0.1, 0.0)];
        let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
        let a = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.7, 0.0), ShapeKind::Capsule, &[0.1, 0.3]);
        for body in [Some(1), None] {
            let b = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Capsule, &[0.05, 0.4]);
            lowest_point(&a, &b, &x, &q);
        }
    }
}
