//! Narrow phase: one function per shape pair, all with the signature [`NarrowPhase`],
//! registered in [`TABLE`] (like MuJoCo's collision function table).
//!
//! A pair function gets its two shapes in table order (lower [`ShapeKind`](super::ShapeKind) first) and the
//! configuration (x, q) at which to take the normal (z_{k+1} in a step). It writes up to
//! `out.len()` contact points and returns how many it wrote: 0 when the pair cannot touch,
//! 1 for the pairs here; pairs with several points (a box on a plane: its corners) write
//! more, at most [`MAX_POINTS_PER_PAIR`]. Side a of every point is a body; a world shape
//! is side b. A pair of two body shapes keeps the caller's order of bodies.
//!
//! Adding a shape pair: a file here with its function, its entry in `TABLE`, and `true` at
//! the same place in the model's `PAIRS` (the builder validates contacts against it; the
//! check below fails the build if the two differ). A new kind also adds its `ShapeKind`
//! and `Shape` variant (`model/shape.rs`) and its `MAXDYN_SHAPE_*` (`capi`).

mod plane_sphere;
mod sphere_sphere;

use super::{Shape, SHAPE_KINDS};
use crate::model::shape::PAIRS;
use super::ContactPoint;
use crate::math::{V3, V4};

/// Most contact points one pair writes (the size of a caller's per-pair storage).
pub const MAX_POINTS_PER_PAIR: usize = 8;

/// A narrow-phase function: shapes (table order), configuration, out slice → count.
pub type NarrowPhase = fn(&Shape, &Shape, &[V3], &[V4], &mut [ContactPoint]) -> usize;

/// Pair functions by [first kind][second kind], first ≤ second; None: never in contact.
pub const TABLE: [[Option<NarrowPhase>; SHAPE_KINDS]; SHAPE_KINDS] = [
    // Plane:  plane (two world half-spaces), sphere
    [None, Some(plane_sphere::collide)],
    // Sphere: (plane: lower kind first), sphere
    [None, Some(sphere_sphere::collide)],
];

// The model's list of pairs that can touch (checked by `Builder::add_contact`) is this
// table's: checked when the crate compiles.
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

/// Contact points of shapes `s1` and `s2` at (x, q) into `out`; returns the count.
pub fn narrow_phase(s1: &Shape, s2: &Shape, x: &[V3], q: &[V4], out: &mut [ContactPoint]) -> usize {
    let (first, second) = if s1.kind() <= s2.kind() { (s1, s2) } else { (s2, s1) };
    match TABLE[first.kind() as usize][second.kind() as usize] {
        Some(collide) => collide(first, second, x, q, out),
        None => 0,
    }
}
