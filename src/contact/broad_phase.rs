//! Broad phase: which shapes are near enough to hand to the narrow phase, without testing
//! every pair.
//!
//! Sort and sweep (as Bullet's and rapier's SAP, in its simplest form): the shapes'
//! axis-aligned boxes ([`Aabb`], grown by the caller's margin) are sorted by their lower
//! bound along the axis where their centres spread most, then swept once; a pair is a
//! candidate when the boxes overlap on all three axes and the caller's filter allows it
//! (collision groups and masks, excluded pairs, shapes of one body). The cost is the sort
//! plus the overlaps along the sweep axis, not n²: 1000 spheres resting side by side
//! have about 3 neighbours each along any axis.
//!
//! Nothing allocates once the pair list has reached its largest size ("after warm-up"):
//! the sort is in place and the list keeps its capacity, which [`BroadPhase::capacity`]
//! reports. The candidates come out sorted, so their order never depends on the sort's
//! handling of ties.

use crate::contact::geometry::solid::Solid;
use crate::model::shape::Geometry;
use crate::math::{M3, V3};

/// An axis-aligned box in the world frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    pub min: V3,
    pub max: V3,
}

impl Aabb {
    /// The box around a sphere of radius `r` at `c`.
    pub fn sphere(c: &V3, r: f64) -> Aabb {
        let e = V3::repeat(r);
        Aabb { min: c - e, max: c + e }
    }

    /// The box around a capsule: centre `c`, unit axis `a` (world), half length `h` of its
    /// segment, radius `r`.
    pub fn capsule(c: &V3, a: &V3, h: f64, r: f64) -> Aabb {
        let e = a.abs() * h + V3::repeat(r);
        Aabb { min: c - e, max: c + e }
    }

    /// The box around a box: centre `c`, orientation `rot` (body → world), half extents `half`.
    pub fn cuboid(c: &V3, rot: &M3, half: &V3) -> Aabb {
        let e = rot.abs() * half;
        Aabb { min: c - e, max: c + e }
    }

    /// The box around a cylinder: centre `c`, unit axis `a` (world), radius `r`, half
    /// length `h`. Along world axis i the rim reaches r √(1 − a_i²) from the axis.
    pub fn cylinder(c: &V3, a: &V3, r: f64, h: f64) -> Aabb {
        let e = V3::from_fn(|i, _| a[i].abs() * h + r * (1.0 - a[i] * a[i]).max(0.0).sqrt());
        Aabb { min: c - e, max: c + e }
    }

    /// The box around a solid (a shape placed in the world); None for a half-space, which
    /// is unbounded.
    pub fn of(solid: &Solid) -> Option<Aabb> {
        let (c, r) = (&solid.x, &solid.r);
        let axis = r.column(2).into_owned();
        Some(match solid.geometry {
            Geometry::HalfSpace => return None,
            Geometry::Sphere { radius } => Aabb::sphere(c, radius),
            Geometry::Capsule { radius, half_length } => Aabb::capsule(c, &axis, half_length, radius),
            Geometry::Box { half_extents } => Aabb::cuboid(c, r, &half_extents),
            Geometry::Cylinder { radius, half_length } => Aabb::cylinder(c, &axis, radius, half_length),
            Geometry::Hull(ref h) => Aabb::points(c, r, &h.points),
            Geometry::HeightField(ref h) => Aabb::local_box(c, r, h.local_box()),
            Geometry::TriMesh(ref m) => Aabb::local_box(c, r, m.local_box()),
        })
    }

    /// The box around a box `min`..`max` given in a frame at `c`, rotated by `r`.
    fn local_box(c: &V3, r: &M3, (min, max): (V3, V3)) -> Aabb {
        let centre = (min + max) * 0.5;
        Aabb::cuboid(&(c + r * centre), r, &((max - min) * 0.5))
    }

    /// The box around points given in a frame at `c`, rotated by `r`.
    pub fn points(c: &V3, r: &M3, points: &[V3]) -> Aabb {
        let (mut min, mut max) = (V3::repeat(f64::INFINITY), V3::repeat(f64::NEG_INFINITY));
        for p in points {
            let w = c + r * p;
            min = min.inf(&w);
            max = max.sup(&w);
        }
        Aabb { min, max }
    }

    /// This box grown by `margin` on every side.
    pub fn grown(&self, margin: f64) -> Aabb {
        let e = V3::repeat(margin);
        Aabb { min: self.min - e, max: self.max + e }
    }

    /// Whether the two boxes overlap (touching counts).
    pub fn overlaps(&self, other: &Aabb) -> bool {
        (0..3).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    fn centre(&self, k: usize) -> f64 {
        0.5 * (self.min[k] + self.max[k])
    }
}

/// The sort-and-sweep state of one model's shapes, reused every step.
#[derive(Debug, Clone, Default)]
pub struct BroadPhase {
    /// Shape indices, sorted by the lower bound along `axis` at the last update.
    order: Vec<usize>,
    axis: usize,
    /// Candidate pairs (i < j), sorted.
    pairs: Vec<(usize, usize)>,
}

impl BroadPhase {
    /// For `shapes` shapes and room for `pairs` candidates before the first growth.
    pub fn with_capacity(shapes: usize, pairs: usize) -> BroadPhase {
        BroadPhase { order: (0..shapes).collect(), axis: 0, pairs: Vec::with_capacity(pairs) }
    }

    /// The candidates among `boxes` (one per shape, as many as at construction) that
    /// `allowed(i, j)` (i < j) lets through, sorted.
    pub fn update(&mut self, boxes: &[Aabb], allowed: impl Fn(usize, usize) -> bool) -> &[(usize, usize)] {
        debug_assert_eq!(boxes.len(), self.order.len(), "one box per shape");
        self.axis = widest_spread(boxes);
        let k = self.axis;
        // boxes move little between steps: the order is nearly sorted already
        self.order.sort_unstable_by(|&a, &b| boxes[a].min[k].total_cmp(&boxes[b].min[k]));
        self.pairs.clear();
        for (n, &i) in self.order.iter().enumerate() {
            let bi = &boxes[i];
            for &j in &self.order[n + 1..] {
                let bj = &boxes[j];
                if bj.min[k] > bi.max[k] {
                    break;
                }
                let (a, b) = (i.min(j), i.max(j));
                if bi.overlaps(bj) && allowed(a, b) {
                    self.pairs.push((a, b));
                }
            }
        }
        self.pairs.sort_unstable();
        &self.pairs
    }

    /// The candidates of the last update.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// How many candidates fit without allocating.
    pub fn capacity(&self) -> usize {
        self.pairs.capacity()
    }
}

/// The axis along which the boxes' centres spread most (largest variance): the sweep
/// then meets the fewest overlaps along it.
fn widest_spread(boxes: &[Aabb]) -> usize {
    if boxes.is_empty() {
        return 0;
    }
    let n = boxes.len() as f64;
    let mut best = (0, f64::NEG_INFINITY);
    for k in 0..3 {
        let mean = boxes.iter().map(|b| b.centre(k)).sum::<f64>() / n;
        let var = boxes.iter().map(|b| (b.centre(k) - mean).powi(2)).sum::<f64>();
        if var > best.1 {
            best = (k, var);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{from_rotation_vector, rotation};

    /// A deterministic generator for the tests.
    struct Lcg(u64);
    impl Lcg {
        fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((self.0 >> 11) as f64 / (1u64 << 53) as f64)
        }
        fn v3(&mut self, lo: f64, hi: f64) -> V3 {
            V3::new(self.uniform(lo, hi), self.uniform(lo, hi), self.uniform(lo, hi))
        }
    }

    fn brute_force(boxes: &[Aabb], allowed: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if boxes[i].overlaps(&boxes[j]) && allowed(i, j) {
                    pairs.push((i, j));
                }
            }
        }
        pairs
    }

    /// Random boxes of every size in a cube, with a filter: the sweep finds exactly the
    /// overlapping allowed pairs of the brute-force loop, over several updates as the
    /// boxes move (the order carried from the last update).
    #[test]
    fn sweep_finds_exactly_the_overlapping_pairs() {
        let mut rng = Lcg(7);
        let n = 300;
        let mut centres: Vec<V3> = (0..n).map(|_| rng.v3(0.0, 10.0)).collect();
        let sizes: Vec<V3> = (0..n).map(|_| rng.v3(0.1, 0.9)).collect();
        let allowed = |i: usize, j: usize| (i + j) % 7 != 0;
        let mut bp = BroadPhase::with_capacity(n, 16);
        for _ in 0..5 {
            let boxes: Vec<Aabb> = centres.iter().zip(&sizes).map(|(c, s)| Aabb { min: c - s, max: c + s }).collect();
            let expected = brute_force(&boxes, allowed);
            assert!(expected.len() > 100, "the test needs overlaps: {}", expected.len());
            assert_eq!(bp.update(&boxes, allowed), &expected[..]);
            for c in &mut centres {
                *c += rng.v3(-0.2, 0.2);
            }
        }
    }

    /// Spheres resting in a square grid, touching their neighbours: 4 neighbours inside,
    /// so the candidates are the grid's edges, 2 n − 2 √n.
    #[test]
    fn a_grid_of_touching_spheres_pairs_each_with_its_neighbours() {
        let side = 20;
        let boxes: Vec<Aabb> = (0..side * side).map(|k| Aabb::sphere(&V3::new((k % side) as f64, (k / side) as f64, 0.5), 0.5)).collect();
        let mut bp = BroadPhase::with_capacity(boxes.len(), 0);
        let pairs = bp.update(&boxes, |_, _| true).len();
        // touching boxes overlap along one axis and at corners: the 4 diagonal touches too
        let edges = 2 * side * (side - 1);
        let diagonals = 2 * (side - 1) * (side - 1);
        assert_eq!(pairs, edges + diagonals);
        assert!(bp.capacity() >= pairs);
    }

    /// Each shape's box is the tightest around it: the extreme points along ±x, ±y, ±z of
    /// the shape touch its faces (checked by sampling the surface densely).
    #[test]
    fn shape_boxes_are_tight() {
        let mut rng = Lcg(3);
        for _ in 0..20 {
            let c = rng.v3(-1.0, 1.0);
            let rot = rotation(&from_rotation_vector(&rng.v3(-2.0, 2.0)));
            let (a, r, h) = (rot.column(2).into_owned(), rng.uniform(0.05, 0.5), rng.uniform(0.0, 0.8));
            let half = rng.v3(0.05, 0.7);
            // surface samples in the shape frame
            let mut capsule = Vec::new();
            let mut cylinder = Vec::new();
            let mut cuboid = Vec::new();
            let steps = 60;
            for i in 0..=steps {
                let t = i as f64 / steps as f64 * std::f64::consts::TAU;
                for j in 0..=steps {
                    let u = j as f64 / steps as f64;
                    let p = std::f64::consts::PI * u;
                    let dir = V3::new(p.sin() * t.cos(), p.sin() * t.sin(), p.cos());
                    capsule.push(dir * r + V3::z() * h * dir.z.signum());
                    cylinder.push(V3::new(r * t.cos(), r * t.sin(), h * (2.0 * u - 1.0)));
                }
            }
            for corner in 0..8 {
                let s = |bit: usize| if corner & bit != 0 { 1.0 } else { -1.0 };
                cuboid.push(V3::new(s(1) * half.x, s(2) * half.y, s(4) * half.z));
            }
            let world = |pts: &[V3]| pts.iter().map(|p| c + rot * p).collect::<Vec<_>>();
            for (aabb, pts, tol) in [(Aabb::capsule(&c, &a, h, r), world(&capsule), 2e-3), (Aabb::cylinder(&c, &a, r, h), world(&cylinder), 2e-3), (Aabb::cuboid(&c, &rot, &half), world(&cuboid), 1e-12)] {
                for k in 0..3 {
                    let lo = pts.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
                    let hi = pts.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
                    assert!(lo >= aabb.min[k] - 1e-12 && hi <= aabb.max[k] + 1e-12, "a surface point outside the box");
                    assert!(lo - aabb.min[k] < tol * (r + h + half.norm()) && aabb.max[k] - hi < tol * (r + h + half.norm()), "box not tight on axis {k}");
                }
            }
        }
    }
}
