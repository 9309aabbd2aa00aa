//! Convex shapes as a core and a radius (a sphere: its centre; a capsule: its segment;
//! boxes, cylinders and hulls: themselves, radius 0), with the two things the general
//! convex pair needs of them: the support point (GJK/EPA, through `math::parry`) and the
//! support feature, the vertex, edge or face (a cylinder's cap: 16 rim points) farthest
//! along a direction, which the manifold clips.

use crate::contact::geometry::solid::Solid;
use crate::contact::geometry::Geometry;
use crate::math::parry::Support;
use crate::math::V3;
use crate::model::hull::{Hull, FACE_POINTS};

/// A direction within this angle (rad) of a face's normal takes the whole face, within
/// this angle of perpendicular to an edge the whole edge: resting shapes turned by less
/// keep their full support (the gap of each point stays exact along the normal).
pub const FEATURE_ANGLE: f64 = 1e-3;

/// A box's or hull's face within this angle (rad) of a contact's normal is clipped whole
/// (`Core::landing`): more than any step turns a body before it lands, less than the
/// 54.7° at which a box's face stops being the one turned most (a face beyond it would be
/// lifted along a normal nearly in its plane).
pub const LANDING_ANGLE: f64 = std::f64::consts::FRAC_PI_4;

/// A face is flat when its vertices lie on its plane to this, relative to its size and
/// position (rounding; a box's faces and the faces of a box's corners are).
const FLAT: f64 = 1e-13;

/// Rim points of a cylinder's cap as a face.
const CAP_POINTS: usize = 16;

/// A cylinder's side point is held as its axis point and radius when the contact's normal
/// is this close to perpendicular to the axis (|cos|): its witness (the axis point moved r
/// along the normal) then lies off the side by at most 1e-12 r (beyond a cap's rim, along
/// the axis). A cylinder lying on a face has its normal perpendicular to rounding.
const SIDE_ALIGNED: f64 = 1e-12;

/// A support feature in the world: 1 point (vertex), 2 (edge) or a convex polygon,
/// counter-clockwise about the direction it supports.
#[derive(Debug, Clone, Copy)]
pub struct Feature {
    pub points: [V3; FACE_POINTS],
    pub len: usize,
}

impl Feature {
    fn new() -> Feature {
        Feature { points: [V3::zeros(); FACE_POINTS], len: 0 }
    }

    fn push(&mut self, p: V3) {
        self.points[self.len] = p;
        self.len += 1;
    }

    pub fn points(&self) -> &[V3] {
        &self.points[..self.len]
    }
}

/// A shape's core: its solid and the part of its geometry the radius is added to.
#[derive(Clone, Copy)]
pub struct Core<'s> {
    pub solid: &'s Solid,
    pub radius: f64,
    shape: CoreShape<'s>,
}

#[derive(Clone, Copy)]
enum CoreShape<'s> {
    Point,
    /// From z = −h to +h.
    Segment(f64),
    Cuboid(V3),
    Cylinder { radius: f64, half_length: f64 },
    Hull(&'s Hull),
    /// One triangle of a height field or triangle mesh (shape frame), its unit normal.
    Triangle([V3; 3], V3),
}

impl<'s> Core<'s> {
    /// The core of a solid (None: a half-space, which has none, and the static geometry
    /// made of triangles, whose cores are its triangles: [`Core::triangle`]).
    pub fn of(solid: &'s Solid) -> Option<Core<'s>> {
        let (shape, radius) = match solid.geometry {
            Geometry::HalfSpace | Geometry::HeightField(_) | Geometry::TriMesh(_) => return None,
            Geometry::Sphere { radius } => (CoreShape::Point, radius),
            Geometry::Capsule { radius, half_length } => (CoreShape::Segment(half_length), radius),
            Geometry::Box { half_extents } => (CoreShape::Cuboid(half_extents), 0.0),
            Geometry::Cylinder { radius, half_length } => (CoreShape::Cylinder { radius, half_length }, 0.0),
            Geometry::Hull(ref h) => (CoreShape::Hull(h), 0.0),
        };
        Some(Core { solid, radius, shape })
    }

    /// Triangle `t` (points in `solid`'s shape frame, with area) as a core of radius 0.
    pub fn triangle(solid: &'s Solid, t: [V3; 3]) -> Core<'s> {
        let normal = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
        Core { solid, radius: 0.0, shape: CoreShape::Triangle(t, normal) }
    }

    /// The core's centre in the world: its frame's origin, a triangle's centroid.
    pub fn centre(&self) -> V3 {
        match self.shape {
            CoreShape::Triangle(t, _) => self.solid.world(&((t[0] + t[1] + t[2]) / 3.0)),
            _ => self.solid.x,
        }
    }

    /// Support point in the shape frame along `d` (shape frame).
    fn local_support(&self, d: &V3) -> V3 {
        let sign = |v: f64| if v < 0.0 { -1.0 } else { 1.0 };
        match self.shape {
            CoreShape::Point => V3::zeros(),
            CoreShape::Segment(h) => V3::new(0.0, 0.0, h * sign(d.z)),
            CoreShape::Cuboid(e) => V3::new(e.x * sign(d.x), e.y * sign(d.y), e.z * sign(d.z)),
            CoreShape::Cylinder { radius, half_length } => {
                let r = d.xy().norm();
                let (cx, cy) = if r > 0.0 { (d.x / r, d.y / r) } else { (1.0, 0.0) };
                V3::new(radius * cx, radius * cy, half_length * sign(d.z))
            }
            CoreShape::Hull(h) => h.points[h.support_index(d)],
            CoreShape::Triangle(t, _) => t[triangle_support(&t, d)],
        }
    }

    /// Directions (world) along which the shape has faces of fixed normal: a box's three
    /// axes, a cylinder's axis; the normal of a contact is often one of them.
    pub fn axes(&self) -> ([V3; 3], usize) {
        let s = self.solid;
        match self.shape {
            CoreShape::Cuboid(_) => ([s.axis(0), s.axis(1), s.axis(2)], 3),
            CoreShape::Cylinder { .. } => ([s.axis(2), V3::zeros(), V3::zeros()], 1),
            CoreShape::Triangle(_, n) => ([s.r * n, V3::zeros(), V3::zeros()], 1),
            _ => ([V3::zeros(); 3], 0),
        }
    }

    /// A cylinder's world point `p` on its curved side facing the unit world direction `d`
    /// (outward, perpendicular to the axis), as its axis point and the radius: held so,
    /// the contact stays on the surface while the cylinder rolls, as a capsule's does (a
    /// point held in the body dips r (ω dt)² / 2 into the other shape each step). None for
    /// the other shapes and other points.
    pub fn on_side(&self, p: &V3, d: &V3) -> Option<(V3, f64)> {
        let CoreShape::Cylinder { radius, half_length } = self.shape else { return None };
        let s = self.solid;
        if s.axis(2).dot(d).abs() > SIDE_ALIGNED {
            return None;
        }
        let l = s.to_shape(p);
        let tol = 1e-12 * (radius + half_length + s.x.amax());
        let axis = s.world(&V3::new(0.0, 0.0, l.z));
        let on = l.z.abs() <= half_length + tol && (l.xy().norm() - radius).abs() <= tol;
        (on && (p - axis).dot(d) >= radius - tol).then_some((axis, radius))
    }

    /// The outward normals (world) of a hull's faces that the world point `p` lies on, to
    /// `tol` (m); none for the other shapes.
    pub fn faces_through(&self, p: &V3, tol: f64) -> impl Iterator<Item = V3> + '_ {
        let faces = match self.shape {
            CoreShape::Hull(h) => &h.faces[..],
            _ => &[],
        };
        let l = self.solid.to_shape(p);
        faces.iter().filter(move |f| (f.normal.dot(&l) - f.offset).abs() <= tol).map(|f| self.solid.r * f.normal)
    }

    /// A hull's outward face normal (world) most along the unit world direction `d` among
    /// the faces at its support vertex; None for the other shapes (their fixed faces are
    /// `axes`).
    pub fn support_face_normal(&self, d: &V3) -> Option<V3> {
        let CoreShape::Hull(h) = self.shape else { return None };
        let l = self.solid.r.transpose() * d;
        let around = h.vertex_faces[h.support_index(&l)].iter().map(|&i| &h.faces[i as usize]);
        around.max_by(|a, b| a.normal.dot(&l).total_cmp(&b.normal.dot(&l))).map(|f| self.solid.r * f.normal)
    }

    /// The direction of the shape's straight line (a cylinder's or capsule's axis).
    pub fn line(&self) -> Option<V3> {
        matches!(self.shape, CoreShape::Cylinder { .. } | CoreShape::Segment(_)).then(|| self.solid.axis(2))
    }

    /// The face turned most towards the unit world direction `d`, whatever the angle: a
    /// box's face of the largest component (its 4 corners), a hull's face most along `d`
    /// among those at its support vertex, a cylinder's cap within 45° of its axis and its
    /// side line beyond, a segment's two ends, a point. What a contact clips: the corners
    /// that are about to land (a box tipping from an edge onto its face) are among its
    /// points before they do, at their gaps, as `plane_box` does.
    pub fn face(&self, d: &V3) -> Feature {
        let s = self.solid;
        let l = s.r.transpose() * d;
        let mut f = Feature::new();
        match self.shape {
            CoreShape::Point => f.push(s.x),
            CoreShape::Segment(h) => {
                f.push(s.world(&V3::new(0.0, 0.0, -h)));
                f.push(s.world(&V3::new(0.0, 0.0, h)));
            }
            CoreShape::Cuboid(e) => {
                let i = (1..3).fold(0, |best, k| if l[k].abs() > l[best].abs() { k } else { best });
                let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                let side = if l[i] < 0.0 { -e[i] } else { e[i] };
                let turn = if l[i] > 0.0 { [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] } else { [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)] };
                for (sj, sk) in turn {
                    let mut c = V3::zeros();
                    (c[i], c[j], c[k]) = (side, sj * e[j], sk * e[k]);
                    f.push(s.world(&c));
                }
            }
            CoreShape::Cylinder { radius, half_length } => {
                let r = l.xy().norm();
                if l.z.abs() >= r {
                    let z = if l.z < 0.0 { -half_length } else { half_length };
                    let turn = if l.z < 0.0 { -1.0 } else { 1.0 };
                    for i in 0..CAP_POINTS {
                        let a = turn * 2.0 * std::f64::consts::PI * i as f64 / CAP_POINTS as f64;
                        f.push(s.world(&V3::new(radius * a.cos(), radius * a.sin(), z)));
                    }
                } else {
                    let (cx, cy) = (l.x / r, l.y / r);
                    f.push(s.world(&V3::new(radius * cx, radius * cy, -half_length)));
                    f.push(s.world(&V3::new(radius * cx, radius * cy, half_length)));
                }
            }
            CoreShape::Hull(h) => {
                let v = h.support_index(&l);
                let best = h.vertex_faces[v].iter().map(|&i| &h.faces[i as usize]).max_by(|a, b| a.normal.dot(&l).total_cmp(&b.normal.dot(&l)));
                match best {
                    Some(face) => face.polygon.iter().for_each(|&i| f.push(s.world(&h.points[i as usize]))),
                    None => f.push(s.world(&h.points[v])),
                }
            }
            CoreShape::Triangle(t, _) => t.iter().for_each(|p| f.push(s.world(p))),
        }
        f
    }

    /// What a contact clips along the unit world direction `d`: a box's or hull's face
    /// turned most towards `d` when it is within `LANDING_ANGLE` of it, whatever its tilt
    /// (the corners of a face about to land are seen at their gaps before they touch, as
    /// `plane_box` sees them: a hull tipping from an edge onto a box sank 5.2 mm in the
    /// step it landed at dt 0.01); otherwise, and for the round shapes, the support
    /// feature.
    pub fn landing(&self, d: &V3) -> Feature {
        if matches!(self.shape, CoreShape::Cuboid(_) | CoreShape::Hull(_)) {
            let f = self.face(d);
            if f.len >= 3 {
                let normal = newell(f.points()).normalize();
                // a hull face parry merged from nearly coplanar triangles is not flat, and
                // points lifted onto its plane can lie outside the hull (4e-9 in the pair
                // sweep): only flat faces, to rounding
                let flat = FLAT * (1.0 + self.solid.x.amax() + f.points().iter().map(|p| (p - f.points[0]).amax()).fold(0.0, f64::max));
                if normal.dot(d) >= LANDING_ANGLE.cos() && f.points().iter().all(|p| normal.dot(&(p - f.points[0])).abs() <= flat) {
                    return f;
                }
            }
        }
        self.feature(d)
    }

    /// The support feature along the unit world direction `d`: the vertex, edge or face
    /// farthest along it, an edge or face only within `FEATURE_ANGLE` (what the contact's
    /// normal is taken from).
    pub fn feature(&self, d: &V3) -> Feature {
        let s = self.solid;
        let l = s.r.transpose() * d;
        let mut f = Feature::new();
        let (sin, cos) = (FEATURE_ANGLE.sin(), FEATURE_ANGLE.cos());
        match self.shape {
            CoreShape::Point => f.push(s.x),
            CoreShape::Segment(h) => {
                if l.z.abs() <= sin {
                    f.push(s.world(&V3::new(0.0, 0.0, -h)));
                    f.push(s.world(&V3::new(0.0, 0.0, h)));
                } else {
                    f.push(s.world(&self.local_support(&l)));
                }
            }
            CoreShape::Cuboid(e) => {
                let p = self.local_support(&l);
                let small: Vec3Flags = [l.x.abs() <= sin, l.y.abs() <= sin, l.z.abs() <= sin];
                match small.iter().filter(|&&b| b).count() {
                    2 => {
                        // the face of the one large axis: its corners counter-clockwise about d
                        let i = small.iter().position(|&b| !b).expect("one large axis");
                        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                        let turn = if l[i] > 0.0 { [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] } else { [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)] };
                        for (sj, sk) in turn {
                            let mut c = V3::zeros();
                            (c[i], c[j], c[k]) = (p[i], sj * e[j], sk * e[k]);
                            f.push(s.world(&c));
                        }
                    }
                    1 => {
                        let i = small.iter().position(|&b| b).expect("one small axis");
                        let (mut a, mut b) = (p, p);
                        (a[i], b[i]) = (-e[i], e[i]);
                        f.push(s.world(&a));
                        f.push(s.world(&b));
                    }
                    _ => f.push(s.world(&p)),
                }
            }
            CoreShape::Cylinder { radius, half_length } => {
                let r = l.xy().norm();
                if r <= sin {
                    let z = if l.z < 0.0 { -half_length } else { half_length };
                    let turn = if l.z < 0.0 { -1.0 } else { 1.0 };
                    for i in 0..CAP_POINTS {
                        let a = turn * 2.0 * std::f64::consts::PI * i as f64 / CAP_POINTS as f64;
                        f.push(s.world(&V3::new(radius * a.cos(), radius * a.sin(), z)));
                    }
                } else if l.z.abs() <= sin {
                    let (cx, cy) = (l.x / r, l.y / r);
                    f.push(s.world(&V3::new(radius * cx, radius * cy, -half_length)));
                    f.push(s.world(&V3::new(radius * cx, radius * cy, half_length)));
                } else {
                    f.push(s.world(&self.local_support(&l)));
                }
            }
            CoreShape::Hull(h) => {
                let v = h.support_index(&l);
                let around = &h.vertex_faces[v];
                let best = around.iter().map(|&i| &h.faces[i as usize]).max_by(|a, b| a.normal.dot(&l).total_cmp(&b.normal.dot(&l)));
                if let Some(face) = best.filter(|face| face.normal.dot(&l) >= cos) {
                    for &i in &face.polygon {
                        f.push(s.world(&h.points[i as usize]));
                    }
                    return f;
                }
                // the edge from v most perpendicular to d
                let pv = h.points[v];
                let mut edge = (f64::INFINITY, pv);
                for &i in around {
                    let ring = &h.faces[i as usize].polygon;
                    if let Some(at) = ring.iter().position(|&w| w as usize == v) {
                        for w in [ring[(at + 1) % ring.len()], ring[(at + ring.len() - 1) % ring.len()]] {
                            let e = h.points[w as usize] - pv;
                            let slope = e.dot(&l).abs() / e.norm();
                            if slope < edge.0 {
                                edge = (slope, h.points[w as usize]);
                            }
                        }
                    }
                }
                f.push(s.world(&pv));
                if edge.0 <= sin {
                    f.push(s.world(&edge.1));
                }
            }
            CoreShape::Triangle(t, n) => {
                // the whole triangle within FEATURE_ANGLE of either side's normal, else
                // the support vertex and the edge from it most perpendicular to d
                if n.dot(&l).abs() >= cos {
                    t.iter().for_each(|p| f.push(s.world(p)));
                    return f;
                }
                let v = triangle_support(&t, &l);
                f.push(s.world(&t[v]));
                let slope = |w: usize| {
                    let e = t[w] - t[v];
                    e.dot(&l).abs() / e.norm()
                };
                let (a, b) = ((v + 1) % 3, (v + 2) % 3);
                let w = if slope(a) <= slope(b) { a } else { b };
                if slope(w) <= sin {
                    f.push(s.world(&t[w]));
                }
            }
        }
        f
    }
}

type Vec3Flags = [bool; 3];

/// Index of the triangle's vertex farthest along `d` (the first of ties).
fn triangle_support(t: &[V3; 3], d: &V3) -> usize {
    (1..3).fold(0, |best, k| if t[k].dot(d) > t[best].dot(d) { k } else { best })
}

impl Support for Core<'_> {
    fn support(&self, d: &V3) -> V3 {
        self.solid.world(&self.local_support(&(self.solid.r.transpose() * d)))
    }
}

/// A polygon's (unnormalized) normal by Newell's method: robust to near-collinear corners.
pub fn newell(pts: &[V3]) -> V3 {
    let mut n = V3::zeros();
    for (i, p) in pts.iter().enumerate() {
        n += p.cross(&pts[(i + 1) % pts.len()]);
    }
    n
}
