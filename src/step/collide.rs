//! Stage 0, for models with collision shapes: which shapes are near, their contact points
//! at z_{k+1}, and the layout the step solves them in (`layout`).
//!
//! Pairs: the broad phase sweeps the shapes' boxes at z_{k+1} (`contact::broad_phase`),
//! grown by how far the shape's points can move in the step plus the contact margin; a
//! half-space is tested against every box. A pair joins the layout when its boxes overlap
//! at that growth and its narrow phase finds a point within the margin; it stays while
//! they overlap at the margin grown twice over, so pairs at the edge of the margin do not
//! come and go every step. Each pair keeps as many contact slots as it has needed at once
//! (a box settling on its face: 1, then 2, then 4); a slot without a point this step is
//! left out of the solve like a distant contact (`culling`).
//!
//! Only a change of the pairs or their slot counts rebuilds the layout; a scene at rest
//! keeps its layout and the stage allocates nothing.

use super::layout;
use super::options::SolverOptions;
use crate::contact::broad_phase::Aabb;
use crate::contact::geometry::solid::Solid;
use crate::contact::geometry::{narrow_phase, ContactPoint, MAX_POINTS_PER_PAIR, MAX_SLOTS_PER_PAIR};
use crate::contact::node::ContactWork;
use crate::data::collision::{CollisionState, PairSlots, Slot};
use crate::data::Data;
use crate::integrator;
use crate::integrator::prediction::pose_next;
use crate::integrator::StepFrame;
use crate::model::shape::Geometry;
use crate::model::{Error, Model, Result, ShapeId};
use std::ops::Range;

/// Largest margin the search uses: an infinite contact margin (no contact ever left out)
/// still searches only this far, or every pair of shapes would be near.
const MAX_SEARCH_MARGIN: f64 = 1.0;

/// Gap given to an empty slot: far enough that the step never includes it.
const EMPTY_SLOT_GAP: f64 = 1e6;

/// Finds the shape pairs and points of the step about to be taken (its prediction is
/// made here: `step_once` makes the same again), rebuilds the layout if they need
/// another, and writes the points into the step's contact nodes. Returns whether the
/// layout was rebuilt. (`step::advance` runs the two halves apart, the projection out of
/// penetration between them; the test hooks run them together.)
#[cfg_attr(not(feature = "test-support"), allow(dead_code))]
pub fn update(model: &Model, d: &mut Data, opts: &SolverOptions) -> Result<bool> {
    find(model, d, opts, Search::Predicted);
    commit(model, d)
}

/// Where a search looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    /// At the step's prediction z_{k+1} from the velocities (the step's contacts).
    Predicted,
    /// At the current configuration z_k, as if at rest (the projection out of penetration,
    /// `step::penetration`).
    AtRest,
}

/// The pairs and points of a search (`CollisionState::wanted`, `found`), the layout left
/// as it is. With [`Search::Predicted`] the step's prediction is made into `d.frame`.
pub fn find(model: &Model, d: &mut Data, opts: &SolverOptions, at: Search) {
    if model.collision.shapes.is_empty() {
        return;
    }
    if at == Search::Predicted {
        let s = &d.state;
        integrator::predict(&s.x, &s.q, &s.v, &s.w, d.dt_prev, &mut d.frame);
    }
    let margin = opts.contact_margin.min(MAX_SEARCH_MARGIN);
    find_pairs(model, d, margin, at);
}

/// Makes the last search's pairs the layout (rebuilt if they need another) and writes
/// its points into the step's contact nodes. Returns whether the layout was rebuilt.
pub fn commit(model: &Model, d: &mut Data) -> Result<bool> {
    if model.collision.shapes.is_empty() {
        return Ok(false);
    }
    let capacity = model.collision.slot_capacity();
    if needed_slots(&d.collision) > capacity {
        reclaim_slots(&mut d.collision);
    }
    let needed = needed_slots(&d.collision);
    if needed > capacity {
        return Err(Error::ContactCapacity { needed, capacity });
    }
    let rebuilt = !same_pairs(&d.collision);
    if rebuilt {
        layout::rebuild(model, d)?;
    } else {
        let c = &mut d.collision;
        for (w, p) in c.wanted.iter().zip(&c.pairs) {
            c.slots[p.first..p.first + p.count].copy_from_slice(&c.found[w.first..w.first + w.count]);
        }
    }
    write_points(model, d);
    d.collision.grow.clear();
    Ok(rebuilt)
}

/// Slots the last search's pairs want.
fn needed_slots(c: &CollisionState) -> usize {
    c.wanted.iter().map(|p| p.count).sum()
}

/// The last search's pairs cut to the slots they fill and those a retake of this step
/// asked for (`grow`), dropping the empty ones a pair kept from earlier steps: a pair's
/// slots only grow while it stays in the layout (so that a pile does not retake a step
/// for every search that finds one more point), until they would pass the capacity.
fn reclaim_slots(c: &mut CollisionState) {
    let CollisionState { wanted, found, grow, .. } = c;
    // compacted in place, so in the order of their slots (`wanted` is sorted by shapes)
    wanted.sort_unstable_by_key(|w| w.first);
    let mut kept = 0;
    for w in wanted.iter_mut() {
        let asked = grow.iter().find(|p| p.shapes == w.shapes).map_or(0, |p| p.count);
        let filled = found[w.first..w.first + w.count].iter().filter(|s| s.filled).count();
        let count = filled.max(asked).min(w.count);
        // filled slots come first (`find_pairs`)
        found.copy_within(w.first..w.first + count, kept);
        (w.first, w.count) = (kept, count);
        kept += count;
    }
    found.truncate(kept);
    wanted.sort_unstable();
}

/// The pairs this search wants (`wanted`, sorted, slots in `found`), at the prediction
/// or at rest.
fn find_pairs(model: &Model, d: &mut Data, margin: f64, at: Search) {
    let shapes = &model.collision.shapes;
    let (s, dt) = (&d.state, d.dt);
    let (x1, q1) = match at {
        Search::Predicted => (&d.frame.x1, &d.frame.q1),
        Search::AtRest => (&s.x, &s.q),
    };
    let c = &mut d.collision;
    for (k, shape) in shapes.iter().enumerate() {
        // a point of the shape at distance ρ from the centre of mass moves at most
        // (|v| + |ω| ρ) dt; a body's half-space by its origin's distance
        let extent = shape.geometry.bounding_radius();
        let rho = shape.x.norm() + if extent.is_finite() { extent } else { 0.0 };
        let moves = at == Search::Predicted;
        c.reach[k] = margin + shape.body.filter(|_| moves).map_or(0.0, |b| dt * (s.v[b].norm() + s.w[b].norm() * rho));
    }
    c.boxes.clear();
    for &k in &c.bounded {
        let solid = Solid::at(&shapes[k].shape(), x1, q1);
        let aabb = Aabb::of(&solid).expect("bounded shapes have boxes");
        c.boxes.push(aabb.grown(c.reach[k] + margin));
    }
    c.wanted.clear();
    c.found.clear();
    c.tested = 0;
    let CollisionState { bounded, half_spaces, boxes, reach, broad, pairs, wanted, found, pair_points, tested, grow, .. } = c;
    let asked = |shapes: [ShapeId; 2]| grow.iter().find(|p| p.shapes == shapes).map_or(0, |p| p.count);
    let allowed = |a: ShapeId, b: ShapeId| model.shapes_may_collide(a, b);
    let mut consider = |a: ShapeId, b: ShapeId, enters: bool| {
        let (a, b) = side_order(model, a, b);
        let held = pairs.binary_search_by_key(&[a, b], |p| p.shapes).ok().map(|i| pairs[i].count);
        if held.is_none() && !enters {
            return;
        }
        let (sa, sb) = (shapes[a].shape(), shapes[b].shape());
        *tested += 1;
        let n = narrow_phase(&sa, &sb, x1, q1, reach[a] + reach[b] - margin, pair_points);
        let Some(count) = held.map(|h| h.max(n).max(asked([a, b]))).or((n > 0).then_some(n)) else { return };
        wanted.push(PairSlots { shapes: [a, b], first: found.len(), count });
        found.extend(pair_points[..n].iter().map(|&point| Slot { point, filled: true }));
        found.extend((n..count).map(|_| Slot::default()));
    };
    for &(i, j) in broad.update(boxes, |i, j| allowed(bounded[i], bounded[j])) {
        // entering needs the boxes to overlap at the single margin
        let enters = boxes[i].grown(-margin).overlaps(&boxes[j].grown(-margin));
        consider(bounded[i], bounded[j], enters);
    }
    for &h in half_spaces.iter() {
        let plane = Solid::at(&shapes[h].shape(), x1, q1);
        let normal = plane.axis(2);
        for (bi, &k) in bounded.iter().enumerate() {
            if !allowed(h, k) {
                continue;
            }
            // lowest corner of the box along the normal, above the boundary
            let b = &boxes[bi];
            let centre = (b.min + b.max) * 0.5;
            let half = (b.max - b.min) * 0.5;
            let lowest = plane.height(&centre) - normal.abs().dot(&half);
            if lowest <= 0.0 {
                consider(k, h, lowest + margin <= 0.0);
            }
        }
    }
    wanted.sort_unstable();
}

/// Whether this step's pairs and slot counts are the layout's.
fn same_pairs(c: &CollisionState) -> bool {
    c.wanted.len() == c.pairs.len() && c.wanted.iter().zip(&c.pairs).all(|(w, p)| w.shapes == p.shapes && w.count == p.count)
}

/// Side a of a pair: a body's shape; of two on bodies, the lower kind, then the lower id.
fn side_order(model: &Model, a: ShapeId, b: ShapeId) -> (ShapeId, ShapeId) {
    let s = &model.collision.shapes;
    match (s[a].body, s[b].body) {
        (None, _) => (b, a),
        (_, None) => (a, b),
        _ if (s[a].geometry.kind(), a) <= (s[b].geometry.kind(), b) => (a, b),
        _ => (b, a),
    }
}

/// The slots' points into the step's contact nodes (after the model's described
/// contacts); an empty slot gets a point far apart.
pub(crate) fn write_points(model: &Model, d: &mut Data) {
    let c = &mut d.collision;
    write_slot_points(model, &c.pairs, &c.slots, &mut d.scratch.contacts.points[model.described_contacts..]);
    c.points_searched = false;
}

/// After a step: each slot takes the point its contact node was last solved with, so
/// that the reports give each force the point and normal it acted on. The searches at
/// the solution (`search_at_solution`) put points into the nodes beside or instead of
/// those found at z_{k+1}, which the slots held through the step (a split's parts start
/// from them); reported at the slots, a resting box pile's forces balanced the bodies'
/// momentum to 1e-14 of m g, and while it settled only to 1–17 m g, forces of points
/// found at the solution reported along other normals or not at all.
pub(crate) fn keep_solved_points(model: &Model, d: &mut Data) {
    let nodes = &d.scratch.contacts.points[model.described_contacts..];
    for (slot, point) in d.collision.slots.iter_mut().zip(nodes) {
        *slot = Slot { point: *point, filled: !is_empty_slot(point) };
    }
}

/// The point of an empty slot between the bodies of `p`: far apart, the step leaves it out.
fn empty_slot_point(p: &ContactPoint) -> ContactPoint {
    ContactPoint { body_a: p.body_a, body_b: p.body_b, radius: [0.0, -EMPTY_SLOT_GAP], ..ContactPoint::default() }
}

/// Whether `p` is an empty slot's point.
fn is_empty_slot(p: &ContactPoint) -> bool {
    p.radius[1] == -EMPTY_SLOT_GAP
}

/// Each pair's slots as contact points, in pair order (`points`: one per slot); an empty
/// slot gets a point far apart, which the step leaves out.
pub(crate) fn write_slot_points(model: &Model, pairs: &[PairSlots], slots: &[Slot], points: &mut [ContactPoint]) {
    let shapes = &model.collision.shapes;
    for pair in pairs {
        let (body_a, body_b) = (shapes[pair.shapes[0]].body.expect("side a is on a body"), shapes[pair.shapes[1]].body);
        for k in pair.first..pair.first + pair.count {
            let slot = &slots[k];
            points[k] = if slot.filled { slot.point } else { empty_slot_point(&ContactPoint { body_a, body_b, ..ContactPoint::default() }) };
        }
    }
}

/// A normal found at the solution whose cosine with a held one is below this has turned
/// (by more than 1.4e-6 rad; a face turning at 1 rad/s turns 1e-2 rad in a step of 0.01 s).
const TURNED: f64 = 1.0 - 1e-12;

/// Stage 5b, for models with collision shapes: the layout's pairs searched again at the
/// step's solution z_{k+2} (velocities `s` from the prediction `frame`). The step's points
/// were found at z_{k+1} and held, so where the shapes turn or slide within the step (a
/// face turning under a corner, a corner the held points left out) the solution can be
/// clear of every held point and still have the shapes inside each other. A pair deeper
/// than `depth` at z_{k+2} gets the points found there beside its held ones in the step's
/// contact nodes (not in its slots, which keep the points found at z_{k+1} until the step
/// ends: `keep_solved_points`), taking part in the solve. With `replace_turned` (the step's first
/// search), a pair of two bodies whose held points push while it is apart by more than
/// `depth` along a normal that has turned (a face turning away under them) gets the points
/// found there instead of them; in later searches that would swap points back and forth in
/// a pile of spinning boxes (the frictionless mixed pour took 2.3× the time). Returns
/// whether any pair's points changed.
// many arguments: the step's pieces this stage reads and writes, borrowed apart from `Data`
#[allow(clippy::too_many_arguments)]
pub fn search_at_solution(model: &Model, frame: &StepFrame, s: &[f64], dt: f64, c: &mut CollisionState, cw: &mut ContactWork, margin: f64, depth: f64, replace_turned: bool) -> bool {
    if c.pairs.is_empty() {
        return false;
    }
    for i in 0..model.body_count() {
        let z = pose_next(frame, model, dt, s, Some(i));
        (c.x2[i], c.q2[i]) = (z.x, z.q.normalize());
    }
    let shapes = &model.collision.shapes;
    let described = model.described_contacts;
    let margin = margin.clamp(0.0, MAX_SEARCH_MARGIN);
    let CollisionState { pairs, pair_points, x2, q2, grow, .. } = c;
    let mut changed = false;
    for pair in pairs.iter() {
        let (sa, sb) = (shapes[pair.shapes[0]].shape(), shapes[pair.shapes[1]].shape());
        let n = narrow_phase(&sa, &sb, x2, q2, margin, pair_points).min(MAX_POINTS_PER_PAIR);
        let deepest = pair_points[..n].iter().map(|p| p.gap(x2, q2)).fold(f64::INFINITY, f64::min);
        let range = described + pair.first..described + pair.first + pair.count;
        if deepest >= -depth {
            // apart at the solution where the held points push, along a normal that has
            // turned since they were found: a face that turned away under them within the
            // step (the held normal is z_{k+1}'s). The points found here replace them, and
            // the next solve holds the shapes where they touch. Only where a box's or a
            // hull's face can turn, between two bodies: a world shape's faces do not turn;
            // where the normal has not turned, a hull's or a height field's points found
            // here are other vertices or triangles than the pushing ones (a foot over a
            // ridge of the terrain), which stay; and two round shapes' normal (the line of
            // their centres) turns as they roll, where two capsules' held one is the
            // stricter and two spheres' gap follows their centres
            let faces = pair.shapes.iter().any(|&i| matches!(shapes[i].geometry, Geometry::Box { .. } | Geometry::Hull(_)));
            let both_move = shapes[pair.shapes[1]].body.is_some();
            if !(replace_turned && n > 0 && deepest > depth && faces && both_move) {
                continue;
            }
            // a held point pushes where it carries a force and is closed at the solution;
            // an interior point's answer leaves a force of μ_end/gap on every open one (2e-8
            // N across 4 cm in a box pile at rest, whose pairs were replaced every step)
            let pushing = |ci: &usize| cw.selection.contains(*ci) && s[model.addresses.contact(*ci)] > 0.0 && cw.points[*ci].gap(x2, q2) <= depth;
            let turned = |ci: usize| cw.points[ci].normal.dot(&pair_points[0].normal) < TURNED;
            if !(range.clone().any(|ci| pushing(&ci)) && range.clone().filter(pushing).all(turned)) {
                continue;
            }
            put_points(&pair_points[..n], pair, range, cw, grow);
            changed = true;
            continue;
        }
        // the points found here, then every held one: a held point replaced by the one
        // found on its vertex (a sphere's centre, a hull's corner) let the next solve push
        // the shapes back in where it was, a hull rocking between two of its faces'
        // vertices, a sphere on a spinning box going deeper each round. Room for twice a
        // narrow phase's points: with room for 8, a box of the box pour found 1.2e-4,
        // 1.2e-7, 2.2e-8 m inside another by three searches lost the first search's points
        // and the last solve put it back 1.2e-4 m inside
        let mut merged = [ContactPoint::default(); MAX_SLOTS_PER_PAIR];
        merged[..n].copy_from_slice(&pair_points[..n]);
        let mut total = n;
        for held in cw.points[range.clone()].iter().filter(|p| !is_empty_slot(p)) {
            let same = |p: &ContactPoint| p.anchor == held.anchor && p.normal == held.normal;
            if total < MAX_SLOTS_PER_PAIR && !merged[..n].iter().any(same) {
                merged[total] = *held;
                total += 1;
            }
        }
        put_points(&merged[..total], pair, range, cw, grow);
        changed = true;
    }
    changed
}

/// `points` into the step's contact nodes of `pair` (its slots' range of contacts), the
/// nodes left over emptied; a pair with more points than slots asks for all it may hold
/// (`MAX_SLOTS_PER_PAIR`) in `grow`, and the step is taken again with them
/// (`step::advance`).
fn put_points(points: &[ContactPoint], pair: &PairSlots, range: Range<usize>, cw: &mut ContactWork, grow: &mut Vec<PairSlots>) {
    if points.len() > pair.count {
        // all a pair may hold at once: a pair that overflows keeps finding points in the
        // searches that follow, and grown by what it had, the frictionless mixed pour took
        // a step three times and then dropped the points beyond its slots (5.4e-3 m deep)
        match grow.iter_mut().find(|p| p.shapes == pair.shapes) {
            Some(p) => p.count = MAX_SLOTS_PER_PAIR,
            None => grow.push(PairSlots { first: 0, count: MAX_SLOTS_PER_PAIR, ..*pair }),
        }
    }
    let kept = points.len().min(pair.count);
    let empty = empty_slot_point(&points[0]);
    for (k, ci) in range.enumerate() {
        cw.points[ci] = if k < kept { points[k] } else { empty };
        cw.set_active(ci, k < kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot whose point names its pair's first shape (as its side a body) and its rank.
    fn slot(pair: usize, k: usize, filled: bool) -> Slot {
        Slot { point: ContactPoint { body_a: pair, radius: [k as f64, 0.0], ..ContactPoint::default() }, filled }
    }

    /// Pairs sorted by shapes whose slots lie in another order (as `find_pairs` leaves
    /// them) keep their own points when reclaimed, cut to those they fill or were asked.
    #[test]
    fn reclaimed_slots_keep_each_pairs_points() {
        let mut c = CollisionState::default();
        // slots in search order: pair [5, 9] (3 filled of 16), then [1, 2] (1 of 4), then
        // [3, 4] (2 of 16, asked for 16 by this step's retake)
        c.wanted = vec![
            PairSlots { shapes: [1, 2], first: 16, count: 4 },
            PairSlots { shapes: [3, 4], first: 20, count: 16 },
            PairSlots { shapes: [5, 9], first: 0, count: 16 },
        ];
        c.found = (0..16).map(|k| slot(5, k, k < 3)).chain((0..4).map(|k| slot(1, k, k < 1))).chain((0..16).map(|k| slot(3, k, k < 2))).collect();
        c.grow = vec![PairSlots { shapes: [3, 4], first: 0, count: 16 }];
        reclaim_slots(&mut c);
        let counts: Vec<_> = c.wanted.iter().map(|w| (w.shapes, w.count)).collect();
        assert_eq!(counts, vec![([1, 2], 1), ([3, 4], 16), ([5, 9], 3)]);
        assert_eq!(c.found.len(), 20);
        for w in &c.wanted {
            for (k, s) in c.found[w.first..w.first + w.count].iter().enumerate() {
                assert_eq!(s.point.body_a, w.shapes[0], "pair {:?} slot {k}", w.shapes);
                assert_eq!(s.point.radius[0], k as f64);
                assert_eq!(s.filled, k < [1, 2, 3][[1, 3, 5].iter().position(|&a| a == w.shapes[0]).unwrap()]);
            }
        }
    }
}
