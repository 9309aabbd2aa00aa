//! A body's convex shape (sphere, capsule, box, cylinder, hull) against static geometry
//! made of triangles: a height field or a triangle mesh.
//!
//! The body shape's box, in the terrain's frame and grown by the margin, picks the
//! triangles that may be near (parry: the height field's cells under it, the mesh's
//! bounding volume hierarchy). Each triangle is a convex core of its own and meets the body
//! shape through the general convex pair (`convex::candidates`: GJK/EPA, the features
//! clipped), so every point is the distance of a part of the body to one triangle along
//! their normal, never below the body's distance to the whole surface; the lowest is that
//! distance.
//!
//! Internal edges: a triangle alone has edges a body could catch on that the surface does
//! not have (a box sliding over flat ground meets the next triangle's edge side-on, a
//! sphere beside a triangle of the same plane is pushed along a tilted normal). So a
//! point keeps its normal only where the surface allows it, as parry's pseudo-normals and
//! Bullet's internal-edge utility do: inside the triangle the face's normal; on an edge or
//! a corner a normal whose plane through the point has the surface around it below (the
//! triangle's corners and the vertices beyond its edges: a ridge or a peak, not a flat or
//! concave edge). When a point is dropped, the triangle adds its face contact: the body's
//! support feature along the face normal clipped to the triangle, the points straight
//! over its inside (none when the body is beside it: the neighbour has them).
//!
//! Concave creases: near a concave edge the free space is the intersection of the two
//! faces' half-spaces, so each triangle's plane also holds the body's points just beyond
//! its concave edges, over the neighbour that rises from it (`crease_contacts`): inactive
//! until a point crosses the crease, where the neighbour's face contact would see it only
//! once it is over it.
//!
//! The points of all triangles are merged (`terrain_merge`): a point two neighbouring triangles both report
//! (a sphere on their shared edge, a face's corner over it) is kept once; the points are
//! grouped by normal (a face of the body on one plane of the terrain), and each group
//! keeps the 4 spanning the most area, as a convex pair does (a box on flat ground over
//! 30 triangles: its 4 corners, as on a plane; 8 level points chosen by spread alone let
//! it fall g dt² in one step), and its deepest when lower than those by
//! more than `convex::SETTLED`; at most [`MAX_POINTS_PER_PAIR`], groups by lowest gap.

use super::convex::{candidates, MOST_CANDIDATES, SETTLED};
use super::features::Core;
use super::manifold::{clip, reduce_to_four};
use super::terrain_merge::{add, manifold, POOL, SAME_POINT};
use super::MAX_POINTS_PER_PAIR;
use crate::model::hull::FACE_POINTS;
use crate::contact::broad_phase::Aabb;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// A point inside a triangle holds along its face's normal only: to this, on 1 − n·face.
const LEAN: f64 = 1e-12;

/// The surface around a point is below the plane across its normal when no vertex there
/// is above it by more than this, relative to the triangle's size (rounding).
const RIDGE: f64 = 1e-9;

/// Contact points of a body's convex shape (`first`) with a height field or triangle mesh
/// (`second`, in the world), lowest first.
pub fn collide(first: &Shape, second: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (s1, s2) = (Solid::at(first, x, q), Solid::at(second, x, q));
    let Some(c1) = Core::of(&s1) else { unreachable!("pair table: a convex body shape against the terrain") };
    let mut points = Points::new(out, max_gap);
    if !s1.x.iter().chain(s1.r.iter()).all(|v| v.is_finite()) {
        // a NaN configuration: one point with a NaN gap, which the step reports
        points.push(Candidate { gap: f64::NAN, one: s1.origin_side(0.0), two: s2.origin_side(0.0), n: V3::z() });
        return points.count();
    }
    // the body shape's box in the terrain's frame
    let mut local = s1.clone();
    (local.x, local.r) = (s2.to_shape(&s1.x), s2.r.transpose() * s1.r);
    let Some(aabb) = Aabb::of(&local) else { unreachable!("a convex shape has a box") };
    let grow = if max_gap.is_finite() { max_gap.max(0.0) } else { f64::MAX.sqrt() };
    let aabb = aabb.grown(grow);
    let size = 1.0 + s1.geometry.bounding_radius();
    let blank = Candidate { gap: 0.0, one: s1.origin_side(0.0), two: s2.origin_side(0.0), n: V3::z() };
    let mut pool = [blank; POOL];
    let mut len = 0;
    let mut nan = None;
    // a height field's solid is below its surface: its faces look up
    let up = matches!(s2.geometry, Geometry::HeightField(_)).then(|| s2.axis(2));
    let terrain = &s2.geometry;
    let mut each = |t: [V3; 3], far: [Option<V3>; 3]| {
        let c2 = Core::triangle(&s2, t);
        let mut found = [blank; MOST_CANDIDATES];
        let mut n = candidates(&c1, &c2, &mut found);
        let (w, far) = (t.map(|p| s2.world(&p)), far.map(|f| f.map(|p| s2.world(&p))));
        let mut face = (w[1] - w[0]).cross(&(w[2] - w[0])).normalize();
        let toward = up.unwrap_or(if n > 0 && !found[0].gap.is_nan() { found[0].n } else { c1.centre() - w[0] });
        if face.dot(&toward) < 0.0 {
            face = -face;
        }
        // the points whose normal the surface around them allows; if any is not, the
        // face contact too
        let mut kept = 0;
        for k in 0..n {
            let at_corner = || corner(&found[k].two.anchor, &face, &w, size);
            if found[k].gap.is_nan() || (holds(&found[k], &face, &w, &far, size) && at_corner().is_none_or(|i| surface_below_around(terrain, &s2, &t[i], &found[k].n, &w))) {
                found[kept] = found[k];
                kept += 1;
            }
        }
        if kept < n {
            let mut faces = [blank; MOST_CANDIDATES];
            let m = face_contacts(&c1, &c2, &face, &w, size, &mut faces);
            for c in &faces[..m] {
                if kept < MOST_CANDIDATES {
                    found[kept] = *c;
                    kept += 1;
                }
            }
        }
        n = kept;
        for c in &found[..n] {
            if c.gap.is_nan() {
                nan = Some(*c);
            } else if c.gap <= max_gap {
                len = add(&mut pool, len, *c, size);
            }
        }
        // this plane under the points crossing its concave edges
        let mut creases = [blank; CREASE_POINTS];
        let m = crease_contacts(&c1, &c2, &face, &w, &far, size, max_gap, &mut creases);
        for c in &creases[..m] {
            if c.gap <= max_gap {
                len = add(&mut pool, len, *c, size);
            }
        }
    };
    match s2.geometry {
        Geometry::HeightField(ref h) => h.triangles_in(&aabb.min, &aabb.max, &mut each),
        Geometry::TriMesh(ref m) => m.triangles_in(&aabb.min, &aabb.max, &mut each),
        _ => unreachable!("pair table: terrain pairs get a height field or a triangle mesh"),
    }
    if let Some(c) = nan {
        // a NaN configuration: one point with a NaN gap, which the step reports
        points.push(c);
        return points.count();
    }
    pool[..len].sort_unstable_by(|a, b| a.gap.total_cmp(&b.gap));
    let mut kept = [blank; MAX_POINTS_PER_PAIR];
    let count = manifold(&pool[..len], &mut kept);
    points.push_lowest_first(&mut kept[..count]);
    points.count()
}

/// Whether candidate `c` (its point on triangle `w`, world, face normal `face` towards
/// the body, `far` the vertices beyond its edges) may hold along its normal: inside the
/// triangle only along the face's normal; on an edge or at a corner only if the surface
/// around it (the triangle's other corners, the vertices beyond the edges there) stays
/// below the plane through the point across the normal: a ridge or a peak, not a flat or
/// concave edge, where the normal would lean into the next triangle (a box sliding over
/// flat ground meeting its edge side-on).
fn holds(c: &Candidate, face: &V3, w: &[V3; 3], far: &[Option<V3>; 3], size: f64) -> bool {
    let (b, n) = (c.two.anchor, c.n);
    let scale = (0..3).map(|k| (w[(k + 1) % 3] - w[k]).norm()).fold(0.0, f64::max);
    let tol = RIDGE * scale;
    let on = on_edges(&b, face, w, SAME_POINT * size);
    let below = |v: &V3| n.dot(&(v - b)) <= tol;
    match on.iter().filter(|&&o| o).count() {
        0 => n.dot(face) >= 1.0 - LEAN,
        1 => {
            let k = on.iter().position(|&o| o).expect("one edge");
            below(&w[(k + 2) % 3]) && far[k].as_ref().is_none_or(below)
        }
        // a corner: the triangle's corners and the vertices beyond its edges there
        _ => w.iter().all(below) && (0..3).filter(|&k| on[k]).all(|k| far[k].as_ref().is_none_or(below)),
    }
}

/// Which edges k (from w[k] to w[k + 1]) of triangle `w` (world, normal `face`) the point
/// `b` is on or beyond, within `near`.
fn on_edges(b: &V3, face: &V3, w: &[V3; 3], near: f64) -> [bool; 3] {
    std::array::from_fn(|k| {
        let (a, e, other) = (w[k], w[(k + 1) % 3], w[(k + 2) % 3]);
        let inward = face.cross(&(e - a)).normalize();
        let inward = if inward.dot(&(other - a)) < 0.0 { -inward } else { inward };
        inward.dot(&(b - a)) <= near
    })
}

/// The corner of triangle `w` (world, normal `face`) that the terrain point `b` is at (on
/// two of its edges' lines), if any.
fn corner(b: &V3, face: &V3, w: &[V3; 3], size: f64) -> Option<usize> {
    let on = on_edges(b, face, w, SAME_POINT * size);
    // edges k and k − 1 meet at vertex k
    (0..3).filter(|&k| on[k] && on[(k + 2) % 3]).min_by(|&i, &j| (w[i] - b).norm().total_cmp(&(w[j] - b).norm()))
}

/// Whether every triangle of `terrain` (solid `s2`) around its vertex `vertex` (shape
/// frame) lies below the plane through it across the world normal `n`: a peak. The
/// internal-edge rule checks a corner against its own triangle and the vertices beyond its
/// edges only; a triangle that touches a concave crease only at this vertex would pass it
/// (a floor triangle's vertex on the crease held along the floor's normal under a box
/// wedged there, taking the place of the box's corner: docs/COLLISION.md).
fn surface_below_around(terrain: &Geometry, s2: &Solid, vertex: &V3, n: &V3, w: &[V3; 3]) -> bool {
    let scale = (0..3).map(|k| (w[(k + 1) % 3] - w[k]).norm()).fold(0.0, f64::max);
    let (tol, same) = (RIDGE * scale, 1e-9 * scale);
    let normal = s2.r.transpose() * n;
    let (lo, hi) = (vertex - V3::repeat(same), vertex + V3::repeat(same));
    let mut below = true;
    let mut check = |t: [V3; 3], _: [Option<V3>; 3]| {
        if t.iter().any(|u| (u - vertex).amax() <= same) && t.iter().any(|u| normal.dot(&(u - vertex)) > tol) {
            below = false;
        }
    };
    match terrain {
        Geometry::HeightField(h) => h.triangles_in(&lo, &hi, &mut check),
        Geometry::TriMesh(m) => m.triangles_in(&lo, &hi, &mut check),
        _ => {}
    }
    below
}

/// The face contact of body core `c1` with triangle core `c2` (world points `w`) along the
/// triangle's normal `face` (towards the body): the body's feature along −face (a face
/// within 45°: whole) clipped to the triangle, the points straight over its inside, at
/// most 4 spanning the most area and the deepest when lower by more than `SETTLED`. A
/// point over the triangle's edge or corner is left out: there the contact's normal is the
/// body's or a ridge's (the pair of the triangle whose normal may lean there has it), not
/// this face's (a box lying on a ridge met a neighbouring face's corner along that face's
/// normal and slid off it).
fn face_contacts<'s>(c1: &Core<'s>, c2: &Core<'s>, face: &V3, w: &[V3; 3], size: f64, out: &mut [Candidate<'s>; MOST_CANDIDATES]) -> usize {
    let (fa, fb) = (c1.landing(&-face), c2.face(face));
    let m = clip(&fa, &fb, face);
    let mut on_a = [V3::zeros(); 2 * FACE_POINTS];
    let mut on_b = [V3::zeros(); 2 * FACE_POINTS];
    let mut gaps = [0.0; 2 * FACE_POINTS];
    let mut len = 0;
    for p in &m.pairs[..m.len] {
        let d = p.a - p.b;
        // a vertex beside the triangle is clipped to its edge: not straight over it
        let inside = (0..3).all(|k| {
            let (a, b, other) = (w[k], w[(k + 1) % 3], w[(k + 2) % 3]);
            let inward = face.cross(&(b - a)).normalize();
            let inward = if inward.dot(&(other - a)) < 0.0 { -inward } else { inward };
            inward.dot(&(p.b - a)) > SAME_POINT * size
        });
        if inside && (d - face * face.dot(&d)).norm() <= SAME_POINT * size {
            (on_a[len], on_b[len], gaps[len]) = (p.a, p.b, face.dot(&d) - c1.radius);
            len += 1;
        }
    }
    let (kept, count) = reduce_to_four(&on_a[..len], face);
    let side = |k: usize| Candidate { gap: gaps[k], one: c1.solid.side_at(&on_a[k], c1.radius), two: c2.solid.side_at(&on_b[k], 0.0), n: *face };
    let mut n = 0;
    for &k in &kept[..count] {
        out[n] = side(k);
        n += 1;
    }
    let lowest = out[..n].iter().map(|c| c.gap).fold(f64::INFINITY, f64::min);
    if let Some(k) = (0..len).min_by(|&a, &b| gaps[a].total_cmp(&gaps[b])) {
        if gaps[k] < lowest - SETTLED {
            out[n] = side(k);
            n += 1;
        }
    }
    n
}

/// Most crease points of one triangle: a landing feature's points per edge.
const CREASE_POINTS: usize = 3 * FACE_POINTS;

/// Contacts of body core `c1` with the plane of triangle core `c2` (world points `w`,
/// normal `face` towards the body, `far` the vertices beyond its edges) for the body's
/// points just beyond a concave edge of the triangle: over the neighbour that rises from
/// it, within `max_gap` of the edge. Near a concave edge the free space is the
/// intersection of the two faces' half-spaces, so the distance to the surface there is
/// the lower of the two planes' gaps; this triangle's plane runs under its neighbour
/// (its gap is positive until the point crosses the crease) and holds the point as it
/// crosses, where the triangle's own face contact sees it only once it is over it (a box
/// sliding down a bowl's wall sank 1.0e-3 m into the bottom in that step). Only over the
/// neighbour itself (never beyond its other edges, where the surface may fall below this
/// plane: a convex edge) and only across concave edges.
#[allow(clippy::too_many_arguments)]
fn crease_contacts<'s>(c1: &Core<'s>, c2: &Core<'s>, face: &V3, w: &[V3; 3], far: &[Option<V3>; 3], size: f64, max_gap: f64, out: &mut [Candidate<'s>; CREASE_POINTS]) -> usize {
    let scale = (0..3).map(|k| (w[(k + 1) % 3] - w[k]).norm()).fold(0.0, f64::max);
    let near = SAME_POINT * size;
    let mut n = 0;
    let mut body = None;
    for k in 0..3 {
        let Some(f) = far[k] else { continue };
        let (a, e, other) = (w[k], w[(k + 1) % 3], w[(k + 2) % 3]);
        // concave: the neighbour's far vertex is above this plane
        if face.dot(&(f - a)) <= RIDGE * scale {
            continue;
        }
        let inward = face.cross(&(e - a)).normalize();
        let inward = if inward.dot(&(other - a)) < 0.0 { -inward } else { inward };
        // the neighbour's normal towards the free side, which leans back over this triangle
        let mut rise = (e - a).cross(&(f - a)).normalize();
        if rise.dot(&inward) < 0.0 {
            rise = -rise;
        }
        let feature = *body.get_or_insert_with(|| c1.landing(&-face));
        for p in feature.points() {
            // on the edge's line too: the face contact takes only points strictly inside
            let beyond = -inward.dot(&(p - a));
            if beyond < -near || beyond > max_gap || n == CREASE_POINTS {
                continue;
            }
            // over the neighbour: its projection along the neighbour's normal inside it
            let q = p - rise * rise.dot(&(p - a));
            if !inside(&q, &[a, e, f], &rise, near) {
                continue;
            }
            let gap = face.dot(&(p - a)) - c1.radius;
            let on_plane = p - face * face.dot(&(p - a));
            out[n] = Candidate { gap, one: c1.solid.side_at(p, c1.radius), two: c2.solid.side_at(&on_plane, 0.0), n: *face };
            n += 1;
        }
    }
    n
}

/// Whether `q`, on the plane of triangle `t` (normal `normal`), is inside it or within
/// `tol` of it.
fn inside(q: &V3, t: &[V3; 3], normal: &V3, tol: f64) -> bool {
    (0..3).all(|k| {
        let (a, b, other) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        let inward = normal.cross(&(b - a)).normalize();
        let inward = if inward.dot(&(other - a)) < 0.0 { -inward } else { inward };
        inward.dot(&(q - a)) >= -tol
    })
}

#[cfg(test)]
mod tests {
    use super::super::narrow_phase;
    use super::super::testing::{placed, unit_q};
    use crate::contact::geometry::{ContactPoint, Geometry, Shape};
    use crate::math::{V3, V4};
    use crate::model::shape::ShapeKind;
    use crate::model::terrain::HeightField;
    use std::sync::Arc;

    /// Every body kind over a bumpy field: the lowest point is the shape's distance to the
    /// field's surface below its lowest point when that point is over a triangle's inside
    /// (a sphere: the centre's height over the plane, less the radius); a NaN configuration
    /// gives one NaN point.
    #[test]
    fn body_shapes_over_a_field() {
        let heights: Vec<f64> = (0..25).map(|k| 0.01 * ((k * 3 % 7) as f64)).collect();
        let field = HeightField::new(5, 5, 0.5, 0.5, &heights).unwrap();
        let ground = Shape::with_geometry(None, [0.0; 3], [1.0, 0.0, 0.0, 0.0], Geometry::HeightField(Arc::new(field.clone()))).unwrap();
        let q = vec![unit_q(0.0, 0.0, 0.0)];
        let (cx, cy) = (0.13, -0.21);
        let top = field.height_at(cx, cy).unwrap();
        for (kind, params) in [(ShapeKind::Sphere, vec![0.05]), (ShapeKind::Capsule, vec![0.05, 0.02]), (ShapeKind::Box, vec![0.02, 0.02, 0.05]), (ShapeKind::Cylinder, vec![0.01, 0.05])] {
            let shape = placed(Some(0), V3::zeros(), V4::new(1.0, 0.0, 0.0, 0.0), kind, &params);
            let mut out = [ContactPoint::default(); 8];
            let x = vec![V3::new(cx, cy, top + 0.1)];
            let n = narrow_phase(&shape, &ground, &x, &q, 1.0, &mut out);
            let lowest = out[..n].iter().map(|p| p.gap(&x, &q)).fold(f64::INFINITY, f64::min);
            assert!(n >= 1 && lowest > 0.0 && lowest < 0.1, "{kind:?}: {n} points, lowest {lowest}");
            let nan = vec![V3::new(f64::NAN, 0.0, 0.0)];
            let n = narrow_phase(&shape, &ground, &nan, &q, 1.0, &mut out);
            assert!(n == 1 && out[0].gap(&nan, &q).is_nan(), "{kind:?}: NaN gives {n} points");
        }
        // the sphere's gap is its centre's distance to the triangle's plane less its radius
        let sphere = placed(Some(0), V3::zeros(), V4::new(1.0, 0.0, 0.0, 0.0), ShapeKind::Sphere, &[0.05]);
        let x = vec![V3::new(cx, cy, top + 0.1)];
        let mut out = [ContactPoint::default(); 8];
        let n = narrow_phase(&sphere, &ground, &x, &q, 1.0, &mut out);
        let p = out[..n].iter().min_by(|a, b| a.gap(&x, &q).total_cmp(&b.gap(&x, &q))).unwrap();
        let normal = p.normal;
        let expected = 0.1 * normal.z - 0.05;
        assert!((p.gap(&x, &q) - expected).abs() < 1e-15, "{} vs {expected}", p.gap(&x, &q));
    }
}
