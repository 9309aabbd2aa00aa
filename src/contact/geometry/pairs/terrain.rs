//! A body's convex shape (sphere, capsule, box, cylinder, hull) against static geometry
//! made of triangles: a height field or a triangle mesh.
//!
//! The body shape's box, in the terrain's frame and grown by the margin, picks the
//! triangles that may be near (parry: the height field's cells under it, the mesh's
//! bounding volume hierarchy). Each triangle is a convex core of its own and meets the body
//! shape through the general convex pair (`convex::candidates`: GJK/EPA, the features
//! clipped), so every point is the distance of a part of the body to one triangle along
//! their normal, never below the body's distance to the whole surface; the lowest is that
//! distance. The points of all triangles are merged: a point two neighbouring triangles
//! both report (a sphere on their shared edge, a face's corner over it) is kept once, and
//! of more than [`MAX_POINTS_PER_PAIR`] those spanning the widest are kept, by farthest-
//! point sampling from a fixed direction (as `reduce_to_four` does, so that a resting face
//! keeps its points while it rocks), with the deepest added when it is lower than all of
//! them by more than `convex::SETTLED`.

use super::convex::{candidates, MOST_CANDIDATES, SETTLED};
use super::features::Core;
use super::MAX_POINTS_PER_PAIR;
use crate::contact::broad_phase::Aabb;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// Most points kept from all the triangles before the merge (the lowest).
const POOL: usize = 96;

/// Two points are one when their terrain points are this close (m, relative to 1 + the
/// body shape's size) and their normals this parallel: neighbouring triangles compute a
/// shared edge's points to rounding.
const SAME_POINT: f64 = 1e-10;

/// The first point of the spread: the farthest along this direction (not a coordinate
/// axis, so that a grid's rows do not tie).
const SKEW: [f64; 3] = [0.8017837257372732, 0.5345224838248488, 0.2672612419124244];

/// Contact points of a body's convex shape (`first`) with a height field or triangle mesh
/// (`second`, in the world), lowest first.
pub fn collide(first: &Shape, second: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (s1, s2) = (Solid::at(first, x, q), Solid::at(second, x, q));
    let Some(c1) = Core::of(&s1) else { unreachable!("pair table: a convex body shape against the terrain") };
    let mut points = Points::new(out, max_gap);
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
    let mut each = |t: [V3; 3]| {
        let c2 = Core::triangle(&s2, t);
        let mut found = [blank; MOST_CANDIDATES];
        let n = candidates(&c1, &c2, &mut found);
        for c in &found[..n] {
            if c.gap.is_nan() {
                nan = Some(*c);
            } else if c.gap <= max_gap {
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
    let mut kept = [blank; MAX_POINTS_PER_PAIR];
    let count = spread(&pool[..len], &mut kept);
    points.push_lowest_first(&mut kept[..count]);
    points.count()
}

/// Adds `c` to `pool[..len]` unless a point already there is the same (the lower kept);
/// a full pool keeps its lowest. Returns the new length.
fn add<'s>(pool: &mut [Candidate<'s>; POOL], len: usize, c: Candidate<'s>, size: f64) -> usize {
    for p in pool[..len].iter_mut() {
        if (p.two.anchor - c.two.anchor).norm() <= SAME_POINT * size && p.n.dot(&c.n) >= 1.0 - 1e-12 {
            if c.gap < p.gap {
                *p = c;
            }
            return len;
        }
    }
    if len < POOL {
        pool[len] = c;
        return len + 1;
    }
    let highest = (0..POOL).max_by(|&a, &b| pool[a].gap.total_cmp(&pool[b].gap)).expect("a full pool");
    if c.gap < pool[highest].gap {
        pool[highest] = c;
    }
    len
}

/// At most [`MAX_POINTS_PER_PAIR`] of `pool` into `kept`: all when they fit; else the
/// farthest along `SKEW`, then each time the farthest from those kept (terrain points),
/// and the deepest when it is lower than all of those by more than `SETTLED`.
fn spread<'s>(pool: &[Candidate<'s>], kept: &mut [Candidate<'s>; MAX_POINTS_PER_PAIR]) -> usize {
    if pool.len() <= MAX_POINTS_PER_PAIR {
        kept[..pool.len()].copy_from_slice(pool);
        return pool.len();
    }
    let skew = V3::from(SKEW);
    let first = (0..pool.len()).max_by(|&a, &b| pool[a].two.anchor.dot(&skew).total_cmp(&pool[b].two.anchor.dot(&skew))).expect("a pool");
    let mut nearest = [f64::INFINITY; POOL];
    let mut taken = [false; POOL];
    let mut count = 0;
    let deepest = (0..pool.len()).min_by(|&a, &b| pool[a].gap.total_cmp(&pool[b].gap)).expect("a pool");
    let mut next = first;
    loop {
        kept[count] = pool[next];
        count += 1;
        taken[next] = true;
        if count == MAX_POINTS_PER_PAIR {
            break;
        }
        for (i, p) in pool.iter().enumerate() {
            nearest[i] = nearest[i].min((p.two.anchor - pool[next].two.anchor).norm());
        }
        let lowest = kept[..count].iter().map(|c| c.gap).fold(f64::INFINITY, f64::min);
        // the last place goes to the deepest when the spread left it out and it is lower
        next = if count == MAX_POINTS_PER_PAIR - 1 && !taken[deepest] && pool[deepest].gap < lowest - SETTLED {
            deepest
        } else {
            (0..pool.len()).filter(|&i| !taken[i]).max_by(|&a, &b| nearest[a].total_cmp(&nearest[b])).expect("more in the pool than kept")
        };
    }
    count
}
