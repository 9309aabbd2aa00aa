//! A shape at a configuration: its geometry placed in the world, and what turns the points
//! a pair function finds back into contact points (anchors in the body frame, world side
//! last, a gap margin).

use super::{ContactPoint, Geometry, Shape};
use crate::math::{rotation, M3, V3, V4};

/// A shape at (x, q): its frame in the world (`x`, `r`) and in its body's frame.
#[derive(Debug, Clone)]
pub struct Solid {
    /// The carrying body; None: the world.
    pub body: Option<usize>,
    pub geometry: Geometry,
    /// The shape frame's origin and rotation in the world. A `Shape::Plane` (a world
    /// half-space by normal and offset) has no in-plane axes: only its z column, the
    /// normal, is set.
    pub x: V3,
    pub r: M3,
    /// The shape frame's origin and rotation in the body frame (the world's: as `x`, `r`).
    local_x: V3,
    local_r: M3,
    /// A world half-space's offset along its normal (n·x ≤ offset is inside).
    offset: f64,
}

impl Solid {
    pub fn at(shape: &Shape, x: &[V3], q: &[V4]) -> Solid {
        match *shape {
            Shape::Plane { normal, offset } => {
                // the normal as given, bit for bit, as today's contacts use it
                let r = M3::from_columns(&[V3::zeros(), V3::zeros(), normal]);
                Solid { body: None, geometry: Geometry::HalfSpace, x: normal * offset, r, local_x: normal * offset, local_r: r, offset }
            }
            Shape::Sphere { body, centre, radius } => {
                let rb = rotation(&q[body]);
                let c = x[body] + rb * centre;
                Solid { body: Some(body), geometry: Geometry::Sphere { radius }, x: c, r: rb, local_x: centre, local_r: M3::identity(), offset: 0.0 }
            }
            Shape::Placed { body, x: px, q: pq, ref geometry } => {
                let pr = rotation(&pq);
                let (wx, wr) = match body {
                    Some(b) => {
                        let rb = rotation(&q[b]);
                        (x[b] + rb * px, rb * pr)
                    }
                    None => (px, pr),
                };
                let offset = wr.column(2).dot(&wx);
                Solid { body, geometry: geometry.clone(), x: wx, r: wr, local_x: px, local_r: pr, offset }
            }
        }
    }

    /// The shape frame's axis `i` in the world (z: a capsule's or cylinder's axis, a
    /// half-space's outward normal).
    pub fn axis(&self, i: usize) -> V3 {
        self.r.column(i).into_owned()
    }

    /// A point given in the shape frame, in the world.
    pub fn world(&self, p: &V3) -> V3 {
        self.x + self.r * p
    }

    /// A world point in the shape frame.
    pub fn to_shape(&self, w: &V3) -> V3 {
        self.r.transpose() * (w - self.x)
    }

    /// A point given in the shape frame, in the body frame: the anchor of a point fixed to
    /// the shape (a world point for a world shape).
    pub fn anchor(&self, p: &V3) -> V3 {
        self.local_x + self.local_r * p
    }

    /// The side of a point at world point `w` (on this solid's surface or core), with
    /// `radius`: its anchor is `w` in the body frame.
    pub fn side_at(&self, w: &V3, radius: f64) -> Side<'_> {
        Side { solid: self, anchor: self.anchor(&self.to_shape(w)), radius }
    }

    /// The side of the shape frame's origin (a sphere's centre) with `radius`.
    pub fn origin_side(&self, radius: f64) -> Side<'_> {
        Side { solid: self, anchor: self.local_x, radius }
    }

    /// The side of a point given in the shape frame (fixed to the shape), with `radius`.
    pub fn side_of(&self, p: &V3, radius: f64) -> Side<'_> {
        Side { solid: self, anchor: self.anchor(p), radius }
    }

    /// A half-space's side of a point over world point `w`: a world plane as its offset
    /// about the origin (`ContactPoint`'s convention), a body's as the foot of `w` on its
    /// boundary, where the force on the body acts.
    pub fn plane_side(&self, w: &V3) -> Side<'_> {
        match self.body {
            None => Side { solid: self, anchor: V3::zeros(), radius: self.offset },
            Some(_) => self.side_at(&(w - self.axis(2) * self.height(w)), 0.0),
        }
    }

    /// Signed height of a world point above a half-space's boundary.
    pub fn height(&self, w: &V3) -> f64 {
        self.axis(2).dot(w) - self.offset
    }
}

/// One side of a contact point: the solid, its anchor (body frame) and its radius.
#[derive(Debug, Clone, Copy)]
pub struct Side<'s> {
    pub solid: &'s Solid,
    pub anchor: V3,
    pub radius: f64,
}

/// A contact point as a pair finds it: sides 1 and 2, normal `n` (world, from 2 to 1),
/// and its gap n·(c₁ − c₂) − r₁ − r₂ at the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'s> {
    pub gap: f64,
    pub one: Side<'s>,
    pub two: Side<'s>,
    pub n: V3,
}

/// The contact points a pair function writes: into `out` while there is room, only those
/// with gap ≤ `max_gap` (a NaN gap is written, so that it shows downstream).
pub struct Points<'o> {
    out: &'o mut [ContactPoint],
    count: usize,
    max_gap: f64,
}

impl<'o> Points<'o> {
    pub fn new(out: &'o mut [ContactPoint], max_gap: f64) -> Points<'o> {
        Points { out, count: 0, max_gap }
    }

    /// Writes candidate `c` if it is within the margin; a world side becomes side b.
    pub fn push(&mut self, c: Candidate) {
        if c.gap > self.max_gap || self.count == self.out.len() {
            return;
        }
        let (a, b, n) = match c.one.solid.body {
            Some(_) => (c.one, c.two, c.n),
            None => (c.two, c.one, -c.n),
        };
        let body_a = a.solid.body.expect("narrow_phase: one side is on a body");
        self.out[self.count] = ContactPoint { body_a, body_b: b.solid.body, normal: n, anchor: [a.anchor, b.anchor], radius: [a.radius, b.radius], follows_centres: false };
        self.count += 1;
    }

    /// Writes candidates lowest gap first, so that a short `out` keeps the closest.
    pub fn push_lowest_first(&mut self, candidates: &mut [Candidate]) {
        candidates.sort_unstable_by(|a, b| a.gap.total_cmp(&b.gap));
        for &c in candidates.iter() {
            self.push(c);
        }
    }

    pub fn count(&self) -> usize {
        self.count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::geometry::pairs::MAX_POINTS_PER_PAIR;
    use crate::math::from_rotation_vector;

    /// A world plane by normal and offset and the same half-space placed by a pose give
    /// the same heights; a body's shape frame composes the body's pose and the shape's.
    #[test]
    fn placements_agree() {
        let n = V3::new(0.0, 0.6, 0.8);
        // the rotation taking z to n: a turn of −asin 0.6 about x
        let q = from_rotation_vector(&V3::new(-(0.6f64).asin(), 0.0, 0.0));
        let plane = Solid::at(&Shape::Plane { normal: n, offset: 0.5 }, &[], &[]);
        let placed = Shape::Placed { body: None, x: n * 0.5, q, geometry: Geometry::HalfSpace };
        let placed = Solid::at(&placed, &[], &[]);
        assert!((placed.axis(2) - n).norm() < 1e-15);
        let w = V3::new(0.3, -1.0, 2.0);
        assert!((plane.height(&w) - placed.height(&w)).abs() < 1e-15);
        let (xb, qb) = (V3::new(1.0, 2.0, 3.0), from_rotation_vector(&V3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2)));
        let on_body = Shape::Placed { body: Some(0), x: V3::x(), q: from_rotation_vector(&V3::new(std::f64::consts::FRAC_PI_2, 0.0, 0.0)), geometry: Geometry::Sphere { radius: 0.1 } };
        let s = Solid::at(&on_body, &[xb], &[qb]);
        // origin: x_b + Q_b (1, 0, 0) = (1, 3, 3); shape z: Q_b Q_s z = Q_b (0, −1, 0) = (1, 0, 0)
        assert!((s.x - V3::new(1.0, 3.0, 3.0)).norm() < 1e-15 && (s.axis(2) - V3::x()).norm() < 1e-15);
        assert!((s.world(&s.to_shape(&w)) - w).norm() < 1e-15);
        assert_eq!(s.anchor(&V3::zeros()), V3::x());
    }

    /// A short `out` keeps the lowest points; the margin drops the others; NaN gaps show.
    #[test]
    fn points_keep_the_lowest_within_the_margin() {
        let s = Solid::at(&Shape::Sphere { body: 0, centre: V3::zeros(), radius: 0.0 }, &[V3::zeros()], &[V4::new(1.0, 0.0, 0.0, 0.0)]);
        let world = Solid::at(&Shape::Plane { normal: V3::z(), offset: 0.0 }, &[], &[]);
        // each candidate's anchor records its gap
        let cand = |gap| Candidate { gap, one: s.side_of(&V3::new(gap, 0.0, 0.0), 0.0), two: world.plane_side(&V3::zeros()), n: V3::z() };
        let mut out = [ContactPoint::default(); MAX_POINTS_PER_PAIR];
        let mut points = Points::new(&mut out[..2], 0.5);
        points.push_lowest_first(&mut [cand(0.4), cand(0.6), cand(0.1), cand(0.2)]);
        assert_eq!(points.count(), 2);
        assert_eq!((out[0].anchor[0].x, out[1].anchor[0].x), (0.1, 0.2));
        let mut points = Points::new(&mut out, f64::INFINITY);
        points.push(cand(f64::NAN));
        assert_eq!(points.count(), 1);
    }
}
