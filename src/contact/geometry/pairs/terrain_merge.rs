//! The terrain pair's merge (`terrain`): the points every near triangle found, pooled
//! without duplicates, then grouped by normal into at most [`MAX_POINTS_PER_PAIR`] (see the
//! module doc of `terrain`).

use super::convex::SETTLED;
use super::features::FEATURE_ANGLE;
use super::manifold::reduce_to_four;
use super::MAX_POINTS_PER_PAIR;
use crate::contact::geometry::solid::Candidate;
use crate::math::V3;

/// Two points are one when their terrain points are this close (m, relative to 1 + the
/// body shape's size) and their normals this parallel: neighbouring triangles compute a
/// shared edge's points to rounding.
pub(super) const SAME_POINT: f64 = 1e-10;

/// Most points kept from all the triangles before the merge (the lowest).
pub(super) const POOL: usize = 96;

/// A point is level with its group's kept points when its gap is within this of theirs
/// (m): a face at rest on a plane, held by its 4.
const LEVEL: f64 = 1e-6;

/// Adds `c` to `pool[..len]` unless a point already there is the same (the lower kept);
/// a full pool keeps its lowest. Returns the new length.
pub(super) fn add<'s>(pool: &mut [Candidate<'s>; POOL], len: usize, c: Candidate<'s>, size: f64) -> usize {
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

/// At most [`MAX_POINTS_PER_PAIR`] of `pool` (sorted by gap) into `kept`: the points
/// grouped by normal (within `FEATURE_ANGLE`: one face of the body on one plane of the
/// terrain), each group's 4 spanning the most area (`reduce_to_four`, as a convex pair
/// keeps them: a resting face keeps its points while it rocks) and its deepest when lower
/// than those by more than `SETTLED`; groups in order of their lowest gap.
pub(super) fn manifold<'s>(pool: &[Candidate<'s>], kept: &mut [Candidate<'s>; MAX_POINTS_PER_PAIR]) -> usize {
    let cos = FEATURE_ANGLE.cos();
    let mut normals = [V3::zeros(); MAX_POINTS_PER_PAIR];
    let mut groups = 0;
    let mut group_of = [usize::MAX; POOL];
    for (i, c) in pool.iter().enumerate() {
        match (0..groups).find(|&g| normals[g].dot(&c.n) >= cos) {
            Some(g) => group_of[i] = g,
            None if groups < MAX_POINTS_PER_PAIR => {
                (normals[groups], group_of[i]) = (c.n, groups);
                groups += 1;
            }
            None => {}
        }
    }
    let mut count = 0;
    let mut taken = [false; POOL];
    let mut low = [f64::INFINITY; MAX_POINTS_PER_PAIR];
    for g in 0..groups {
        let (mut members, mut points, mut m) = ([0; POOL], [V3::zeros(); POOL], 0);
        for (i, c) in pool.iter().enumerate().filter(|&(i, _)| group_of[i] == g) {
            (members[m], points[m]) = (i, c.two.anchor);
            m += 1;
        }
        let (four, k) = reduce_to_four(&points[..m], &normals[g]);
        let mut lowest = f64::INFINITY;
        for &j in &four[..k] {
            if count < MAX_POINTS_PER_PAIR {
                kept[count] = pool[members[j]];
                taken[members[j]] = true;
                lowest = lowest.min(kept[count].gap);
                count += 1;
            }
        }
        // the group's deepest is its first (the pool is sorted)
        if count < MAX_POINTS_PER_PAIR && !four[..k].contains(&0) && pool[members[0]].gap < lowest - SETTLED {
            kept[count] = pool[members[0]];
            taken[members[0]] = true;
            lowest = kept[count].gap;
            count += 1;
        }
        low[g] = lowest;
    }
    // the places left to the lowest others that are not level with their group's kept
    // points (the bumps under a face: each will land on its own; a flat face's other
    // points are held by the 4 already, and 8 level points made the solver relax)
    for (i, c) in pool.iter().enumerate() {
        if count == MAX_POINTS_PER_PAIR {
            break;
        }
        if !taken[i] && group_of[i] != usize::MAX && c.gap > low[group_of[i]] + LEVEL {
            kept[count] = *c;
            count += 1;
        }
    }
    count
}
