//! Capsule against cylinder.

use super::sphere_cylinder::{closest_on_cylinder, cylinder_side};
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// Bisection steps of the closest parameter: 2⁻⁶⁴ of the segment, below its ulps.
const BISECTION_STEPS: usize = 64;

/// Points at parameters of the capsule's segment, each a contact of the sphere of the
/// capsule's radius there with the cylinder (its closest point; on the curved side the
/// cylinder's axis point with its radius, `cylinder_side`): the segment's closest
/// point (where the slope of the signed distance, convex along the segment, changes
/// sign), its
/// ends, and the ends of its cuts to the cylinder's slab (|z| ≤ h) and to the cylinder's
/// infinite prism (x² + y² ≤ r²). Lowest first, within the margin, a point within the
/// capsule's radius of a lower one along the segment left out; the closest point only when
/// lower than all the others (lying along the side or on a face, the cut ends carry the
/// line contact). Crossed: one point; lying on the side or a face: two.
pub fn collide(capsule: &Shape, cylinder: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (capsule, cylinder) = (Solid::at(capsule, x, q), Solid::at(cylinder, x, q));
    let Geometry::Capsule { radius: rc, half_length: h } = capsule.geometry else { unreachable!("pair table: capsule_cylinder gets a capsule") };
    let Geometry::Cylinder { radius: r, half_length: hz } = cylinder.geometry else { unreachable!("pair table: capsule_cylinder gets a cylinder") };
    let (a, d) = (cylinder.to_shape(&capsule.x), cylinder.r.transpose() * capsule.axis(2));
    // the signed distance's slope along the segment is its gradient, the unit normal, along d
    let slope = |t: f64| closest_on_cylinder(r, hz, &(a + d * t)).1.dot(&d);
    let mut params = [0.0; 7];
    params[0] = least_of_convex(&slope, -h, h);
    (params[1], params[2]) = (-h, h);
    let mut len = 3;
    // the slab |a_z + t d_z| ≤ hz and the prism |a_xy + t d_xy| ≤ r
    if d.z != 0.0 {
        let (t1, t2) = ((-hz - a.z) / d.z, (hz - a.z) / d.z);
        for t in [t1.min(t2), t1.max(t2)].into_iter().filter(|t| t.abs() < h) {
            params[len] = t;
            len += 1;
        }
    }
    let (qa, qb, qc) = (d.xy().norm_squared(), a.xy().dot(&d.xy()), a.xy().norm_squared() - r * r);
    let disc = qb * qb - qa * qc;
    if qa > 0.0 && disc > 0.0 {
        for t in [(-qb - disc.sqrt()) / qa, (-qb + disc.sqrt()) / qa].into_iter().filter(|t| t.abs() < h) {
            params[len] = t;
            len += 1;
        }
    }
    let candidate = |t: f64| {
        let core = V3::new(0.0, 0.0, t);
        let (foot, local_n, distance) = closest_on_cylinder(r, hz, &(a + d * t));
        Candidate { gap: distance - rc, one: capsule.side_of(&core, rc), two: cylinder_side(&cylinder, r, &foot, &local_n), n: cylinder.r * local_n }
    };
    let candidates: [Candidate; 7] = std::array::from_fn(|k| candidate(params[k.min(len - 1)]));
    let scale = 1e-12 * (1.0 + r + hz + h + rc);
    let others_low = candidates[1..len].iter().map(|c| c.gap).fold(f64::INFINITY, f64::min);
    let first = if candidates[0].gap < others_low - scale { 0 } else { 1 };
    let mut order = [0, 1, 2, 3, 4, 5, 6];
    order[first..len].sort_unstable_by(|&i, &j| candidates[i].gap.total_cmp(&candidates[j].gap));
    let mut points = Points::new(out, max_gap);
    for k in first..len {
        let i = order[k];
        if order[first..k].iter().all(|&j| (params[j] - params[i]).abs() > rc.max(scale)) {
            points.push(candidates[i]);
        }
    }
    points.count()
}

/// The least point on [lo, hi] of a convex function given by its slope: bisection on the
/// slope's sign, exact to the parameter's ulps (a search on values only resolves the
/// square root of the rounding near a smooth minimum).
fn least_of_convex(slope: &impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    if slope(lo) >= 0.0 {
        return lo;
    }
    if slope(hi) <= 0.0 {
        return hi;
    }
    for _ in 0..BISECTION_STEPS {
        let mid = 0.5 * (lo + hi);
        if slope(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{check_closest, check_continuity, check_points, lowest_point, placed, unit_q, world_witness};
    use super::*;
    use crate::model::shape::ShapeKind;
    use std::f64::consts::FRAC_PI_2;

    /// Capsule (radius 0.1, half-length 0.5) on body 0; cylinder (radius 0.3, half-length
    /// 0.2) on body 1 at the origin, its axis along z.
    fn shapes() -> (Shape, Shape) {
        let capsule = placed(Some(0), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Capsule, &[0.1, 0.5]);
        let cylinder = placed(Some(1), V3::zeros(), unit_q(0.0, 0.0, 0.0), ShapeKind::Cylinder, &[0.3, 0.2]);
        (capsule, cylinder)
    }

    #[test]
    fn lying_across_a_face_touches_at_the_rim_under_it() {
        // along x over the top face, overhanging both sides: the chord's ends x = ±0.3
        let (capsule, cylinder) = shapes();
        let x = vec![V3::new(0.0, 0.0, 0.3), V3::zeros()];
        let q = vec![unit_q(0.0, FRAC_PI_2, 0.0), unit_q(0.0, 0.0, 0.0)];
        let points = check_points(&capsule, &cylinder, &x, &q, 1e-6, 2);
        let mut xs: Vec<f64> = points.iter().map(|p| world_witness(p, 1, &x, &q).x).collect();
        xs.sort_by(f64::total_cmp);
        assert!((xs[0] + 0.3).abs() < 1e-15 && (xs[1] - 0.3).abs() < 1e-15, "{xs:?}");
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15);
            check_closest(p, &capsule, &cylinder, &x, &q);
        }
    }

    #[test]
    fn lying_along_the_side_touches_at_both_ends_of_the_overlap() {
        // parallel to the axis, beside the side at y = 0.4: the overlap z ∈ [−0.2, 0.2]
        let (capsule, cylinder) = shapes();
        let x = vec![V3::new(0.0, 0.4, 0.1), V3::zeros()];
        let q = vec![unit_q(0.0, 0.0, 0.0); 2];
        let points = check_points(&capsule, &cylinder, &x, &q, 1e-6, 2);
        for p in &points {
            assert!(p.gap(&x, &q).abs() < 1e-15 && (p.normal - V3::y()).norm() < 1e-15);
            assert!((world_witness(p, 1, &x, &q).z.abs() - 0.2).abs() < 1e-15);
        }
    }

    #[test]
    fn crossing_the_side_touches_at_one_point() {
        // along x, beside the side at y = 0.41: the closest point, 0.01 away
        let (capsule, cylinder) = shapes();
        let x = vec![V3::new(0.05, 0.41, 0.1), V3::zeros()];
        let q = vec![unit_q(0.0, FRAC_PI_2, 0.0), unit_q(0.0, 0.0, 0.0)];
        let p = check_points(&capsule, &cylinder, &x, &q, 0.02, 1)[0];
        assert!((p.gap(&x, &q) - 0.01).abs() < 1e-15, "{}", p.gap(&x, &q));
        check_closest(&p, &capsule, &cylinder, &x, &q);
        check_continuity(&capsule, &cylinder, &x, &q, 0, 2.0);
        // on the curved side the cylinder's side is its axis point with its radius: the
        // cylinder turning about its axis leaves the gap as it was
        assert!(p.anchor[1].xy().norm() == 0.0 && p.radius[1] > 0.0, "{p:?}");
        let turned = vec![q[0], unit_q(0.0, 0.0, 1.3)];
        assert!((p.gap(&x, &turned) - 0.01).abs() < 1e-15, "{}", p.gap(&x, &turned));
    }

    #[test]
    fn general_poses_and_a_world_cylinder() {
        let x = vec![V3::new(0.1, 0.5, 0.3), V3::new(-0.2, 0.1, 0.0)];
        let q = vec![unit_q(0.3, 0.2, -0.1), unit_q(-0.5, 0.4, 0.9)];
        let capsule = placed(Some(0), V3::new(0.05, 0.0, 0.1), unit_q(0.1, 0.7, 0.0), ShapeKind::Capsule, &[0.1, 0.3]);
        for body in [Some(1), None] {
            let cylinder = placed(body, V3::new(0.0, 0.1, 0.0), unit_q(0.3, -0.6, 0.2), ShapeKind::Cylinder, &[0.2, 0.3]);
            lowest_point(&capsule, &cylinder, &x, &q);
        }
    }
}
