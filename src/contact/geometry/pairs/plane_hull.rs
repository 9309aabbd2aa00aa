//! Hull against a half-space.

use super::features::Core;
use super::convex::SETTLED;
use super::manifold::reduce_to_four;
use crate::contact::geometry::solid::{Candidate, Points, Solid};
use crate::contact::geometry::{ContactPoint, Geometry, Shape};
use crate::math::{V3, V4};

/// The hull's face turned most against the plane (at its lowest vertex; its vertices cut to
/// the 4 spanning the most area, as `plane_box` takes a box's face: corners about to land
/// are seen at their gaps) and the lowest vertex when lower by more than 1 nm, each within
/// the margin, lowest first.
pub fn collide(plane: &Shape, hull: &Shape, x: &[V3], q: &[V4], max_gap: f64, out: &mut [ContactPoint]) -> usize {
    let (plane, hull) = (Solid::at(plane, x, q), Solid::at(hull, x, q));
    let Geometry::Hull(ref h) = hull.geometry else { unreachable!("pair table: plane_hull gets a hull") };
    let core = Core::of(&hull).expect("a hull has a core");
    let n = plane.axis(2);
    let feature = core.face(&-n);
    let pts = feature.points();
    let mut gaps = [0.0; 16];
    for (g, p) in gaps.iter_mut().zip(pts) {
        *g = plane.height(p);
    }
    let (kept, count) = reduce_to_four(pts, &n);
    let candidate = |w: &V3| Candidate { gap: plane.height(w), one: hull.side_at(w, 0.0), two: plane.plane_side(w), n };
    let mut candidates = [candidate(&pts[0]); 6];
    for (c, &k) in candidates.iter_mut().zip(&kept[..count]) {
        *c = candidate(&pts[k]);
    }
    let mut len = count;
    // the feature's lowest point and the hull's lowest vertex, when lower than the kept by
    // more than SETTLED (a face tilted within `FEATURE_ANGLE`, a vertex below an edge)
    let deepest = (0..pts.len()).min_by(|&a, &b| gaps[a].total_cmp(&gaps[b])).expect("a feature has points");
    let lowest = hull.world(&h.points[h.support_index(&(hull.r.transpose() * -n))]);
    for w in [pts[deepest], lowest] {
        if plane.height(&w) < candidates[..len].iter().map(|c| c.gap).fold(f64::INFINITY, f64::min) - SETTLED {
            candidates[len] = candidate(&w);
            len += 1;
        }
    }
    let mut points = Points::new(out, max_gap);
    points.push_lowest_first(&mut candidates[..len]);
    points.count()
}
