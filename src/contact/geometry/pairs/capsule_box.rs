//! Capsule against box.

use super::sphere_box::closest_on_box;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// The closest points of the capsule's segment and the box (exact, see [`closest_param`]).
/// When the box's point is on a face, the segment is cut to the slab over that face and
/// both ends of the cut are points at their height above it (a capsule lying on the box: its
/// two ends or the face's edges under it; standing: its lower end, and the upper one if the
/// margin reaches it); on an edge or a corner, the closest points are the one point.
pub fn collide(capsule: &Shape, cuboid: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (capsule, cuboid) = (Solid::at(capsule, x, q), Solid::at(cuboid, x, q));
    let Geometry::Capsule { radius, half_length: h } = capsule.geometry else { unreachable!("pair table: capsule_box gets a capsule") };
    let Geometry::Box { half_extents: e } = cuboid.geometry else { unreachable!("pair table: capsule_box gets a box") };
    // the segment a + t d, |t| ≤ h, in the box frame
    let (a, d) = (cuboid.to_shape(&capsule.x), cuboid.r.transpose() * capsule.axis(2));
    let t = closest_param(&a, &d, h, &e);
    let (foot, local_n, distance) = closest_on_box(&e, &(a + d * t));
    let mut points = Points::new(out, max_gap);
    let point = |t: f64, foot: V3, local_n: V3, gap: f64| Candidate {
        gap,
        one: capsule.side_of(&V3::new(0.0, 0.0, t), radius),
        two: cuboid.side_of(&foot, 0.0),
        n: cuboid.r * local_n,
    };
    let on_face = local_n.iter().filter(|&&v| v != 0.0).count() == 1;
    if !on_face {
        points.push(point(t, foot, local_n, distance - radius));
        return points.count();
    }
    let i = local_n.iamax();
    let sign = local_n[i];
    let (lo, hi) = slab_interval(&a, &d, h, &e, i).unwrap_or((t, t));
    let end = |t: f64| {
        let p = a + d * t;
        let mut foot = p;
        foot[i] = sign * e[i];
        point(t, foot, local_n, sign * p[i] - e[i] - radius)
    };
    let ends = if hi - lo > 1e-12 * (1.0 + h) { 2 } else { 1 };
    points.push_lowest_first(&mut [end(lo), end(hi)][..ends]);
    points.count()
}

/// Parameter of the segment a + t d (|t| ≤ h) where its signed distance to the box of half
/// extents `e` is least. The signed distance is convex along the segment: outside the box
/// its square is a quadratic between the parameters where a coordinate crosses ±e, inside
/// it is the largest of six linear functions; so its least value is at one of the
/// quadratics' minima, the crossings, the kinks of the linear part or the ends.
pub fn closest_param(a: &V3, d: &V3, h: f64, e: &V3) -> f64 {
    let mut candidates = [0.0; 40];
    let mut len = 0;
    let mut add = |t: f64| {
        if t.is_finite() && len < candidates.len() {
            candidates[len] = t.clamp(-h, h);
            len += 1;
        }
    };
    add(-h);
    add(h);
    let mut breaks = [0.0; 8];
    let mut nb = 0;
    for i in 0..3 {
        if d[i] != 0.0 {
            for s in [-1.0, 1.0] {
                let t = (s * e[i] - a[i]) / d[i];
                if t.abs() < h {
                    breaks[nb] = t;
                    nb += 1;
                }
            }
        }
    }
    breaks[nb] = -h;
    breaks[nb + 1] = h;
    let breaks = &mut breaks[..nb + 2];
    breaks.sort_unstable_by(f64::total_cmp);
    for w in breaks.windows(2) {
        add(w[0]);
        // the active coordinates outside ±e at the interval's middle make the quadratic
        let p = a + d * (0.5 * (w[0] + w[1]));
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..3 {
            if p[i].abs() > e[i] {
                let bound = e[i].copysign(p[i]);
                num -= d[i] * (a[i] - bound);
                den += d[i] * d[i];
            }
        }
        if den > 0.0 {
            add((num / den).clamp(w[0], w[1]));
        }
    }
    // kinks of max over (i, σ) of σ(a_i + t d_i) − e_i
    let lines: [(f64, f64); 6] = std::array::from_fn(|k| {
        let (i, s) = (k / 2, if k % 2 == 0 { 1.0 } else { -1.0 });
        (s * d[i], s * a[i] - e[i])
    });
    for k in 0..6 {
        for m in k + 1..6 {
            let slope = lines[k].0 - lines[m].0;
            if slope != 0.0 {
                add((lines[m].1 - lines[k].1) / slope);
            }
        }
    }
    let distance = |t: f64| closest_on_box(e, &(a + d * t)).2;
    candidates[..len].iter().copied().fold((f64::INFINITY, 0.0), |best, t| {
        let f = distance(t);
        if f < best.0 { (f, t) } else { best }
    }).1
}

/// The parameters where the segment a + t d (|t| ≤ h) is over face axis `i`'s rectangle
/// (|p_j| ≤ e_j for the other two axes); None: nowhere.
fn slab_interval(a: &V3, d: &V3, h: f64, e: &V3, i: usize) -> Option<(f64, f64)> {
    let (mut lo, mut hi) = (-h, h);
    for j in (0..3).filter(|&j| j != i) {
        if d[j] == 0.0 {
            if a[j].abs() > e[j] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((-e[j] - a[j]) / d[j], (e[j] - a[j]) / d[j]);
        lo = lo.max(t1.min(t2));
        hi = hi.min(t1.max(t2));
    }
    (lo <= hi).then_some((lo, hi))
}

#[cfg(test)]
#[path = "capsule_box_tests.rs"]
mod tests;
