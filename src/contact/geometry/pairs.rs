//! Narrow phase: one function per shape pair, all with the signature [`NarrowPhase`],
//! registered in [`TABLE`] (like MuJoCo's collision function table).
//!
//! A pair function gets its two shapes in table order (lower
//! [`ShapeKind`](super::ShapeKind) first), the configuration (x, q) at which to take the
//! normal (z_{k+1} in a step) and a margin `max_gap`. It writes up to `out.len()` contact
//! points with gap ≤ `max_gap`, lowest first, and returns how many it wrote (at most
//! [`MAX_POINTS_PER_PAIR`]). It builds each shape's [`Solid`](super::solid::Solid) (the
//! shape placed in the world) and hands its points to [`Points`](super::solid::Points),
//! which orders the sides (side a a body, a world shape side b) and applies the margin.
//!
//! Points per pair (each within the margin; the file of each pair says how it chooses):
//!
//! | pair | points |
//! |---|---|
//! | plane–sphere, sphere–sphere, sphere–capsule, sphere–box, sphere–cylinder | 1 |
//! | plane–capsule | its two end caps (lying flat: both) |
//! | plane–box | the 4 corners of the face turned most against the plane |
//! | plane–cylinder | 4 rim points of the lower face and the upper face's lowest (off a face, each face's lowest as a sphere through its rim) |
//! | capsule–capsule | the closest points and the end caps over the other (parallel: 2) |
//! | capsule–box, capsule–cylinder | the closest points, or the ends of the segment cut over a face (lying: 2) |
//! | box–box | the incident face clipped to the reference face (≤ 8, reduced to 4) and the nearest corner when lower; with an edge axis, the two edges' closest points first (≤ 6) |
//! | plane–hull | the hull's face turned most against the plane (its vertices, the 4 spanning the most area), an edge's ends or a vertex, and the deepest when lower by more than 1 nm (`plane_hull.rs`) |
//! | hull against sphere, capsule, box, cylinder, hull; box–cylinder, cylinder–cylinder | GJK/EPA (parry) for the closest points, the normal of largest separation, the support features clipped to each other and a tilted flat face's whole (≤ 4 by area), the deepest and the closest points when lower by more than 1 nm (`convex.rs`) |
//! | sphere, capsule, box, cylinder, hull against a height field or a triangle mesh | each triangle near the shape's box as the convex pair above; the points merged, duplicates dropped, ≤ 8 spanning the widest and the deepest (`terrain.rs`) |
//!
//! Each point is the distance of a part of one shape (a corner, an end cap, a point over a
//! face) to the other, along the line between their closest points, so no gap of shapes
//! apart is below their distance; the lowest is their distance. A cylinder's curved side
//! is its axis with its radius (a capsule's is too), so rolling moves no point. The tests
//! check the lowest
//! against the shapes' own signed distance and support functions (`testing.rs`, `sweep.rs`;
//! GJK on a cylinder's curved side stops within about 3e-8 of it). Every pair of kinds has
//! a function but two pieces of static world geometry (half-space, height field, triangle
//! mesh).
//!
//! Adding a shape pair: a file here with its function, its entry in `TABLE`, and `true` at
//! the same place in the model's `PAIRS` (the check below fails the build if the two
//! differ). A new kind also adds its `ShapeKind` and `Geometry` variant (`model/shape.rs`)
//! and its `MAXDYN_SHAPE_*` (`capi`).

mod box_box;
mod box_clip;
mod capsule_box;
mod capsule_capsule;
mod capsule_cylinder;
mod convex;
#[cfg(test)]
mod convex_tests;
mod features;
mod manifold;
mod plane_box;
mod plane_capsule;
mod plane_cylinder;
mod plane_hull;
mod plane_sphere;
mod segment;
mod sphere_box;
mod sphere_capsule;
mod sphere_cylinder;
mod sphere_sphere;
mod terrain;
mod terrain_merge;
#[cfg(test)]
mod sweep;
#[cfg(test)]
mod testing;

use super::{Shape, SHAPE_KINDS};
use crate::model::shape::PAIRS;
use super::ContactPoint;
use crate::math::{V3, V4};

/// Most contact points one pair writes (the size of a caller's per-pair storage).
pub const MAX_POINTS_PER_PAIR: usize = 8;

/// Most contact slots a pair holds in a step: its points and, beside them, those the
/// searches at the step's solution keep (`step::collide::search_at_solution`).
pub const MAX_SLOTS_PER_PAIR: usize = 2 * MAX_POINTS_PER_PAIR;

/// A narrow-phase function: shapes (table order), configuration, margin `max_gap` (points
/// farther apart are not written), out slice → count.
pub type NarrowPhase = fn(&Shape, &Shape, &[V3], &[V4], f64, &mut [ContactPoint]) -> usize;

/// Pair functions by [first kind][second kind], first ≤ second; None: never in contact.
pub const TABLE: [[Option<NarrowPhase>; SHAPE_KINDS]; SHAPE_KINDS] = [
    // Plane:    plane (two half-spaces), sphere, capsule, box, cylinder, hull; height
    //           field and triangle mesh (static world geometry never meets its own kind)
    [None, Some(plane_sphere::collide), Some(plane_capsule::collide), Some(plane_box::collide), Some(plane_cylinder::collide), Some(plane_hull::collide), None, None],
    // Sphere:   sphere, capsule, box, cylinder, hull, height field, triangle mesh
    [None, Some(sphere_sphere::collide), Some(sphere_capsule::collide), Some(sphere_box::collide), Some(sphere_cylinder::collide), Some(convex::collide), Some(terrain::collide), Some(terrain::collide)],
    // Capsule:  capsule, box, cylinder, hull, height field, triangle mesh
    [None, None, Some(capsule_capsule::collide), Some(capsule_box::collide), Some(capsule_cylinder::collide), Some(convex::collide), Some(terrain::collide), Some(terrain::collide)],
    // Box:      box, cylinder, hull, height field, triangle mesh
    [None, None, None, Some(box_box::collide), Some(convex::collide), Some(convex::collide), Some(terrain::collide), Some(terrain::collide)],
    // Cylinder: cylinder, hull, height field, triangle mesh
    [None, None, None, None, Some(convex::collide), Some(convex::collide), Some(terrain::collide), Some(terrain::collide)],
    // Hull:     hull, height field, triangle mesh
    [None, None, None, None, None, Some(convex::collide), Some(terrain::collide), Some(terrain::collide)],
    // Height field: height field, triangle mesh
    [None, None, None, None, None, None, None, None],
    // Triangle mesh: triangle mesh
    [None, None, None, None, None, None, None, None],
];

// The model's list of pairs with a narrow phase is this table's: checked when the crate
// compiles.
const _: () = {
    let mut i = 0;
    while i < SHAPE_KINDS {
        let mut j = 0;
        while j < SHAPE_KINDS {
            assert!(TABLE[i][j].is_some() == PAIRS[i][j], "pair table and model::shape::PAIRS differ");
            j += 1;
        }
        i += 1;
    }
};

/// Contact points of shapes `s1` and `s2` at (x, q) with gap ≤ `max_gap` into `out`;
/// returns the count. Side a is `s1`'s body when it has one (else `s2`'s); two world
/// shapes never touch.
pub fn narrow_phase(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (Some(body_1), Some(body_2)) = (s1.body().or(s2.body()), s2.body().or(s1.body())) else { return 0 };
    // table order; shapes of one kind by body (world first), so that swapping the shapes
    // gives the same points with sides swapped
    let (first, second) = if (s1.kind(), s1.body()) <= (s2.kind(), s2.body()) { (s1, s2) } else { (s2, s1) };
    let Some(collide) = TABLE[first.kind() as usize][second.kind() as usize] else { return 0 };
    let count = collide(first, second, x, q, max_gap, out);
    if body_1 != body_2 {
        for p in &mut out[..count] {
            if p.body_a != body_1 {
                *p = p.swapped();
            }
        }
    }
    count
}
