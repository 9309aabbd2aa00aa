//! Any two convex shapes of which one is a hull or both are boxes and cylinders (the pairs
//! without a closed form here): box–cylinder, cylinder–cylinder, and the hull against
//! sphere, capsule, box, cylinder and hull.
//!
//! The normal and the closest points come from parry's GJK (EPA when the cores overlap)
//! on the shapes' cores (a sphere's centre, a capsule's segment), through their support
//! functions (`features.rs`). Then each side's support feature across that normal is
//! clipped to the other's (`manifold.rs`), and a box's or hull's face tilted within
//! `LANDING_ANGLE` of the normal too (its corners about to land are seen before they touch,
//! as `plane_hull` sees them); at most 4 points kept; the closest points are added when
//! they are lower than all of those (shapes touching at a corner or an edge). The support
//! features' clip stays beside the face's: its lowest point is the exact separation (a
//! face's clip alone misses a vertex beside a cylinder's line, and GJK's witness on the
//! curved side is 4e-9 off it).

use super::features::Core;
use super::manifold::{clip, feature_normal, reduce_to_four, Pair};
use crate::model::hull::FACE_POINTS;
use crate::contact::geometry::solid::{Candidate, Points, Side, Solid};
use crate::contact::geometry::{ContactPoint, Shape};
use crate::math::parry::{closest, Support};
use crate::math::{V3, V4};

/// How much lower than the kept points (m) the deepest point must be to be added: less is
/// a face at rest, whose points should not change with each rocking nanoradian.
pub const SETTLED: f64 = 1e-9;

/// Most candidates [`candidates`] gives: 4 spanning the most area, the deepest, the
/// closest points.
pub const MOST_CANDIDATES: usize = 6;

/// Contact points of two convex shapes (neither a half-space), lowest first.
pub fn collide(first: &Shape, second: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (s1, s2) = (Solid::at(first, x, q), Solid::at(second, x, q));
    let (Some(c1), Some(c2)) = (Core::of(&s1), Core::of(&s2)) else { unreachable!("pair table: convex pairs have no half-space") };
    let mut points = Points::new(out, max_gap);
    let mut found = [Candidate { gap: 0.0, one: s1.origin_side(0.0), two: s2.origin_side(0.0), n: V3::z() }; MOST_CANDIDATES];
    let len = candidates(&c1, &c2, &mut found);
    points.push_lowest_first(&mut found[..len]);
    points.count()
}

/// The contact points of two convex cores into `out` (unsorted, every gap): what
/// [`collide`] writes, and what a height field or triangle mesh gathers per triangle.
pub fn candidates<'s>(c1: &Core<'s>, c2: &Core<'s>, out: &mut [Candidate<'s>; MOST_CANDIDATES]) -> usize {
    let (s1, s2) = (c1.solid, c2.solid);
    let radii = c1.radius + c2.radius;
    let finite = |s: &Solid| s.x.iter().chain(s.r.iter()).all(|v| v.is_finite());
    let closest = if finite(s1) && finite(s2) { closest(c1, c2) } else { None };
    let Some(cl) = closest else {
        // NaN configuration (or GJK and EPA both failed): one point with a NaN gap, which
        // the step reports
        out[0] = Candidate { gap: f64::NAN, one: s1.origin_side(0.0), two: s2.origin_side(0.0), n: V3::z() };
        return 1;
    };
    // the normal: the direction of largest separation (separating axis theorem) among
    // GJK's, the shapes' axes, a hull's faces at the witnesses and its support, the
    // directions their lines give (across two lines, across one line to the other's
    // centre) and the normal of the features across the best (a
    // face's, two edges'). GJK stops within 1e-8 rad of it on a curved side, and touching
    // shapes leave EPA a degenerate start whose normal can be any face of the difference's.
    // Near-ties go to these exact directions.
    let separation = |d: &V3| d.dot(&(c1.support(&-d) - c2.support(d)));
    let tie = 1e-12 * (1.0 + s1.x.norm().max(s2.x.norm()));
    let better = |best: (f64, V3), d: V3| {
        let norm = d.norm();
        if norm.is_nan() || norm <= 0.0 {
            return best;
        }
        let d = d / norm;
        let s = separation(&d);
        if s > best.0 - tie { (s.max(best.0), d) } else { best }
    };
    let mut best = (separation(&cl.normal), cl.normal);
    for core in [c1, c2] {
        let (axes, count) = core.axes();
        for a in &axes[..count] {
            best = better(better(best, *a), -a);
        }
    }
    // a hull's faces through GJK's witness points, and its face at its support vertex most
    // along the direction: at touching shapes GJK's normal can be any face of the
    // difference's (a 32-gon prism flat on another: their sides' normal, at a right angle;
    // flat on a hull box: 1.2e-2 rad off, the box's far corner its support), while the
    // witnesses lie on the faces in contact; a hull has no fixed axes to fall back on
    let on_face = 1e-9 * (1.0 + s1.x.norm().max(s2.x.norm()));
    for f in c1.faces_through(&cl.on_a, on_face) {
        best = better(best, -f);
    }
    for f in c2.faces_through(&cl.on_b, on_face) {
        best = better(best, f);
    }
    let d = best.1;
    if let Some(f) = c1.support_face_normal(&-d) {
        best = better(best, -f);
    }
    if let Some(f) = c2.support_face_normal(&d) {
        best = better(best, f);
    }
    let centres = c1.centre() - c2.centre();
    let lines = [c1.line(), c2.line()];
    for u in lines.iter().flatten() {
        best = better(best, centres - u * u.dot(&centres));
    }
    if let [Some(u1), Some(u2)] = lines {
        let c = u1.cross(&u2);
        if c.norm() > 1e-9 {
            best = better(better(best, c), -c);
        }
    }
    let (f1, f2) = (c1.feature(&-best.1), c2.feature(&best.1));
    best = better(best, feature_normal(&f1, &f2, &best.1));
    let n = best.1;
    let (f1, f2) = (c1.feature(&-n), c2.feature(&n));
    let m = clip(&f1, &f2, &n);
    // the support features' clip, then a tilted face's (a box's or hull's face within
    // `LANDING_ANGLE` of the normal): its corners about to land are seen at their gaps
    // before they touch. The support features' clip stays: its lowest point is the exact
    // separation, which a face's clip need not hold (a vertex beside a line).
    let mut pairs = [Pair { a: V3::zeros(), b: V3::zeros() }; 4 * FACE_POINTS];
    let mut total = 0;
    for p in &m.pairs[..m.len] {
        pairs[total] = *p;
        total += 1;
    }
    let (l1, l2) = (c1.landing(&-n), c2.landing(&n));
    if (l1.len >= 3 && f1.len < 3) || (l2.len >= 3 && f2.len < 3) {
        let faces = clip(&l1, &l2, &n);
        let size = s1.x.norm().max(s2.x.norm()) + 1.0;
        for p in &faces.pairs[..faces.len] {
            let seen = pairs[..m.len].iter().any(|q| (q.a - p.a).norm() <= 1e-12 * size && (q.b - p.b).norm() <= 1e-12 * size);
            if !seen && total < pairs.len() {
                pairs[total] = *p;
                total += 1;
            }
        }
    }
    let pairs = &pairs[..total];
    let gap_of = |a: &V3, b: &V3| n.dot(&(a - b)) - radii;
    let mut on_a = [V3::zeros(); 4 * FACE_POINTS];
    let mut gaps = [0.0; 4 * FACE_POINTS];
    for (k, p) in pairs.iter().enumerate() {
        on_a[k] = p.a;
        gaps[k] = gap_of(&p.a, &p.b);
    }
    let (kept, count) = reduce_to_four(&on_a[..total], &n);
    let candidates = out;
    let mut len = 0;
    for &k in &kept[..count] {
        let p = &pairs[k];
        candidates[len] = Candidate { gap: gaps[k], one: side(c1, s1, &p.a, &-n), two: side(c2, s2, &p.b, &n), n };
        len += 1;
    }
    // the manifold's deepest point when the 4 leave it out and it is lower by more than
    // SETTLED (a tilted face)
    let lowest = candidates[..len].iter().map(|c| c.gap).fold(f64::INFINITY, f64::min);
    if let Some(k) = (0..total).min_by(|&a, &b| gaps[a].total_cmp(&gaps[b])) {
        if gaps[k] < lowest - SETTLED {
            let p = &pairs[k];
            candidates[len] = Candidate { gap: gaps[k], one: side(c1, s1, &p.a, &-n), two: side(c2, s2, &p.b, &n), n };
            len += 1;
        }
    }
    // the closest points of the cores when the manifold misses them (its features' plane
    // do not overlap: corners and edges apart), along the manifold's normal: an overlap's
    // EPA normal is off by up to 1e-4 rad on a curved side, and its depth with it
    let lowest = candidates[..len].iter().map(|c| c.gap).fold(f64::INFINITY, f64::min);
    let scale = if total == 0 { 0.0 } else { SETTLED };
    let (a, b) = (cl.on_a, cl.on_b);
    let (gap, normal) = if len == 0 { (cl.distance - radii, cl.normal) } else { (gap_of(&a, &b), n) };
    if gap < lowest - scale {
        candidates[len] = Candidate { gap, one: side(c1, s1, &a, &-normal), two: side(c2, s2, &b, &normal), n: normal };
        len += 1;
    }
    len
}

/// The side of `core`'s world point `w` facing the unit direction `d`: a cylinder's curved
/// side as its axis point and radius (exact while it rolls), else the point itself.
fn side<'s>(core: &Core, solid: &'s Solid, w: &V3, d: &V3) -> Side<'s> {
    match core.on_side(w, d) {
        Some((axis, r)) => solid.side_at(&axis, r),
        None => solid.side_at(w, core.radius),
    }
}
