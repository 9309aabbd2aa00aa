//! Box against box: separating axes, then face clipping or the closest points of two edges.

use super::box_clip::{clip, pick_four, Rectangle, MAX_CLIPPED};
use super::segment::closest_between;
use super::sphere_box::closest_on_box;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// An edge axis wins over the best face axis only when it separates the boxes more by
/// this share of their size: near-parallel edges then give the face contact, which holds.
const EDGE_PREFERENCE: f64 = 1e-6;

/// A face axis of the second box wins over the first box's best only when it separates
/// them more by this share of their size. Two boxes resting face on face separate by the
/// same amount along both boxes' face normals, to rounding, and rounding chose which face
/// is the reference (whose body the points' anchors then follow) from one search to the
/// next. Measured on the pour ensemble with the rest of that change (docs/PEERS.md, "Kept:
/// a resting pile's searches and solves again"); alone, within its noise.
const FACE_PREFERENCE: f64 = 1e-6;

/// Most points of a box pair: an edge pair's, the nearest corner and four of a face.
const MAX_BOX_POINTS: usize = 6;

/// The axis of least penetration (greatest separation) among the 15 separating axes
/// (Gottschalk's OBB test). A face axis gives a face contact: the incident face of the
/// other box cut to the reference face's rectangle, each vertex a point at its height
/// above the reference face (up to 8, reduced to 4 that span them). An edge axis gives
/// the closest points of the two supporting edges first, then the face contact of the
/// best face axis (those within the margin). The corner of either box nearest the other
/// comes before the clipped points when it is lower than them (boxes apart across a
/// corner or an edge). At most 6 points.
pub fn collide(first: &Shape, second: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (a, b) = (Solid::at(first, x, q), Solid::at(second, x, q));
    let (&Geometry::Box { half_extents: ea }, &Geometry::Box { half_extents: eb }) = (&a.geometry, &b.geometry) else {
        unreachable!("pair table: box_box gets two boxes")
    };
    let t = b.x - a.x;
    let separation = |l: &V3| l.dot(&t).abs() - (0..3).map(|i| ea[i] * a.axis(i).dot(l).abs() + eb[i] * b.axis(i).dot(l).abs()).sum::<f64>();
    let size = ea.max().max(eb.max());
    // face axes: a's, then b's, which must separate more by `FACE_PREFERENCE`
    let mut face = (f64::NEG_INFINITY, 0, 0);
    for (which, s) in [(0, &a), (1, &b)] {
        let preference = if which == 1 && face.0.is_finite() { FACE_PREFERENCE * size } else { 0.0 };
        for i in 0..3 {
            let sep = separation(&s.axis(i));
            if sep > face.0 + preference {
                face = (sep, which, i);
            }
        }
    }
    let mut points = Points::new(out, max_gap);
    if face.0 == f64::NEG_INFINITY {
        // no axis compares (a NaN configuration): one point, whose NaN gap shows downstream
        points.push(nearest_corner(&a, &ea, &b, &eb));
        return points.count();
    }
    let mut edge = (face.0 + EDGE_PREFERENCE * size, None);
    for i in 0..3 {
        for j in 0..3 {
            let l = a.axis(i).cross(&b.axis(j));
            if l.norm() > 1e-9 {
                let l = l.normalize();
                let sep = separation(&l);
                if sep > edge.0 {
                    edge = (sep, Some((i, j, l)));
                }
            }
        }
    }
    // an edge contact also keeps the best face axis' points: a box turning over another's
    // edge within the step (a pour: 16 rad/s at dt 0.01) lands on that face, whose
    // corners the single edge point, held for the step, does not stop
    let corner = nearest_corner(&a, &ea, &b, &eb);
    let mut found = [corner; MAX_BOX_POINTS];
    let mut count = 0;
    if let Some((i, j, l)) = edge.1 {
        found[0] = edge_point(&a, &b, &ea, &eb, i, j, l);
        count = 1;
    }
    count = if face.1 == 0 {
        face_points(&a, &ea, &b, &eb, face.2, false, corner, &mut found, count)
    } else {
        face_points(&b, &eb, &a, &ea, face.2, true, corner, &mut found, count)
    };
    points.push_lowest_first(&mut found[..count]);
    points.count()
}

/// The corner of either box nearest the other box, against that box's closest point (its
/// exact distance): the point of boxes apart across a corner or an edge, which the face
/// clipping misses when the corner is not over the reference face.
fn nearest_corner<'s>(a: &'s Solid, ea: &V3, b: &'s Solid, eb: &V3) -> Candidate<'s> {
    let corner = |e: &V3, c: usize| V3::new([-e.x, e.x][c & 1], [-e.y, e.y][(c >> 1) & 1], [-e.z, e.z][c >> 2]);
    // (distance, corner's solid is a, corner in its shape frame, foot in the other's, normal)
    let mut best = (f64::INFINITY, true, V3::zeros(), V3::zeros(), V3::z());
    for (s, es, o, eo, on_a) in [(a, ea, b, eb, true), (b, eb, a, ea, false)] {
        for c in 0..8 {
            let p = corner(es, c);
            let (foot, local_n, distance) = closest_on_box(eo, &o.to_shape(&s.world(&p)));
            if distance < best.0 {
                best = (distance, on_a, p, foot, o.r * local_n);
            }
        }
    }
    let (gap, on_a, p, foot, n) = best;
    // the normal runs from b to a
    if on_a {
        Candidate { gap, one: a.side_of(&p, 0.0), two: b.side_of(&foot, 0.0), n }
    } else {
        Candidate { gap, one: a.side_of(&foot, 0.0), two: b.side_of(&p, 0.0), n: -n }
    }
}

/// The face contact with reference face `i` of box `r` (its side towards `inc`) and the
/// incident face of box `inc`, appended to `found[..count]`; `swapped`: `r` is the second
/// shape (side 2). The nearest corner (`nearest`) is added when it is lower than every
/// clipped point. Returns the new count.
// many arguments: the two boxes with their half-extents, called twice with the roles swapped
#[allow(clippy::too_many_arguments)]
fn face_points<'s>(r: &'s Solid, er: &V3, inc: &'s Solid, ei: &V3, i: usize, swapped: bool, nearest: Candidate<'s>, found: &mut [Candidate<'s>; MAX_BOX_POINTS], mut count: usize) -> usize {
    let sign = if r.axis(i).dot(&(inc.x - r.x)) >= 0.0 { 1.0 } else { -1.0 };
    let n = r.axis(i) * sign; // from r towards inc
    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
    let rect = Rectangle { centre: r.x + n * er[i], axes: [r.axis(j), r.axis(k)], half: [er[j], er[k]] };
    // the incident face: inc's face turned most against n
    let along = inc.r.transpose() * n;
    let f = (1..3).fold(0, |best, m| if along[m].abs() > along[best].abs() { m } else { best });
    let (g, h) = ((f + 1) % 3, (f + 2) % 3);
    let level = if along[f] > 0.0 { -ei[f] } else { ei[f] };
    let corner = |sg: f64, sh: f64| {
        let mut p = V3::zeros();
        (p[f], p[g], p[h]) = (level, sg * ei[g], sh * ei[h]);
        inc.world(&p)
    };
    let quad = [corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)];
    let (poly, len) = clip(&quad, &rect);
    let mut gaps = [0.0; MAX_CLIPPED];
    for (gap, p) in gaps.iter_mut().zip(&poly[..len]) {
        *gap = n.dot(&(p - rect.centre));
    }
    let lowest = gaps[..len].iter().copied().fold(f64::INFINITY, f64::min);
    if nearest.gap < lowest - 1e-12 * er.max().max(ei.max()) {
        found[count] = nearest;
        count += 1;
    }
    let (picked, picks) = pick_four(&poly[..len], &gaps[..len], &n);
    for &m in &picked[..picks] {
        let (on_inc, gap) = (poly[m], gaps[m]);
        let foot = on_inc - n * gap;
        // the normal runs from the second shape to the first
        found[count] = if swapped {
            Candidate { gap, one: inc.side_at(&on_inc, 0.0), two: r.side_at(&foot, 0.0), n }
        } else {
            Candidate { gap, one: r.side_at(&foot, 0.0), two: inc.side_at(&on_inc, 0.0), n: -n }
        };
        count += 1;
    }
    count
}

/// The edge point along l = a_i × b_j: the closest points of a's edge along a_i that
/// leads towards b and b's edge along b_j that leads towards a; apart, their distance.
// many arguments: the two boxes with their half-extents and the edge pair, as the edge search holds them
#[allow(clippy::too_many_arguments)]
fn edge_point<'s>(a: &'s Solid, b: &'s Solid, ea: &V3, eb: &V3, i: usize, j: usize, l: V3) -> Candidate<'s> {
    let n = if l.dot(&(b.x - a.x)) >= 0.0 { l } else { -l }; // from a towards b
    let edge_centre = |s: &Solid, e: &V3, along: usize, towards: &V3| {
        let mut p = V3::zeros();
        for m in (0..3).filter(|&m| m != along) {
            p[m] = if s.axis(m).dot(towards) >= 0.0 { e[m] } else { -e[m] };
        }
        p
    };
    let (pa, pb) = (edge_centre(a, ea, i, &n), edge_centre(b, eb, j, &-n));
    let (ca, cb) = (a.world(&pa), b.world(&pb));
    let (s, t) = closest_between(&ca, &a.axis(i), ea[i], &cb, &b.axis(j), eb[j]);
    let (wa, wb) = (ca + a.axis(i) * s, cb + b.axis(j) * t);
    // apart, the direction between the edges' closest points: along the axis when they
    // cross, and, past an edge's end, their distance (the axis' separation only bounds it)
    let d = wb - wa;
    let (gap, n) = if n.dot(&d) > 0.0 { (d.norm(), d.normalize()) } else { (n.dot(&d), n) };
    Candidate { gap, one: a.side_at(&wa, 0.0), two: b.side_at(&wb, 0.0), n: -n }
}

#[cfg(test)]
#[path = "box_box_tests.rs"]
mod tests;
