//! Convex hulls: the shape a collision mesh becomes. Built once from points (hulled by
//! parry, `contact::geometry::parry_convert` does the conversion), kept behind an `Arc` so
//! that cloning a model or a sim shares it. What the narrow phase needs is precomputed
//! here: the vertices, each face's plane and its polygon (cut to at most
//! [`FACE_POINTS`] vertices keeping the most area), and the faces around each vertex.

use std::fmt;

use crate::error::{Error, Result};
use crate::math::V3;

/// Most vertices a face polygon keeps for clipping (a cylinder's cap in 16 rim points, a
/// mesh's flat sole in 16 of its vertices spanning the most area).
pub const FACE_POINTS: usize = 16;

/// One face of a hull: outward unit normal, offset (n·p ≤ offset inside) and its polygon,
/// counter-clockwise about the normal (indices into the hull's points).
#[derive(Clone, PartialEq)]
pub struct HullFace {
    pub normal: V3,
    pub offset: f64,
    pub polygon: Vec<u32>,
}

/// A convex polyhedron with its face structure.
#[derive(Clone)]
pub struct Hull {
    /// Hull vertices in the shape frame.
    pub points: Vec<V3>,
    pub faces: Vec<HullFace>,
    /// Faces around each vertex.
    pub vertex_faces: Vec<Vec<u32>>,
    bounding_radius: f64,
}

impl Hull {
    /// The convex hull of `points` (shape frame): finite, at least 4 and not coplanar.
    /// Errors name the argument "points".
    pub fn new(points: &[V3]) -> Result<Hull> {
        if points.iter().any(|p| !p.iter().all(|v| v.is_finite())) {
            return Err(Error::NonFinite("points"));
        }
        let bad = |m: String| Error::InvalidShape("points", m);
        if points.len() < 4 {
            return Err(bad(format!("a hull needs at least 4 points, got {}", points.len())));
        }
        let (vertices, raw) = crate::math::parry::hull_faces(points).map_err(bad)?;
        // faces around each vertex, from the whole faces (a cut polygon leaves some out)
        let mut vertex_faces = vec![Vec::new(); vertices.len()];
        for (i, (_, ring)) in raw.iter().enumerate() {
            for &v in ring {
                vertex_faces[v as usize].push(i as u32);
            }
        }
        let faces: Vec<HullFace> = raw.into_iter().map(|(normal, ring)| face(&vertices, normal, ring)).collect();
        let scale = vertices.iter().map(|p| p.norm()).fold(0.0, f64::max);
        let volume: f64 = faces.iter().map(|f| f.offset * polygon_area(&vertices, f)).sum::<f64>() / 3.0;
        if faces.len() < 4 || volume.is_nan() || volume <= 1e-12 * scale.powi(3) {
            return Err(bad(format!("the {} points are coplanar or collinear: their hull has no volume", points.len())));
        }
        Ok(Hull { bounding_radius: scale, points: vertices, faces, vertex_faces })
    }

    /// Largest distance of a vertex from the shape frame's origin.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }

    /// Index of the vertex farthest along `d` (shape frame).
    pub fn support_index(&self, d: &V3) -> usize {
        let mut best = (0, f64::NEG_INFINITY);
        for (i, p) in self.points.iter().enumerate() {
            let h = p.dot(d);
            if h > best.1 {
                best = (i, h);
            }
        }
        best.0
    }

    /// Volume (for tests and checks).
    pub fn volume(&self) -> f64 {
        self.faces.iter().map(|f| f.offset * polygon_area(&self.points, f)).sum::<f64>() / 3.0
    }
}

/// A face from its normal and vertices: ordered counter-clockwise about the normal (by
/// angle about their centroid), cut to [`FACE_POINTS`].
fn face(points: &[V3], normal: V3, mut ring: Vec<u32>) -> HullFace {
    let centre = ring.iter().map(|&i| points[i as usize]).sum::<V3>() / ring.len() as f64;
    let u = (points[ring[0] as usize] - centre).normalize();
    let v = normal.cross(&u);
    let angle = |i: &u32| {
        let d = points[*i as usize] - centre;
        d.dot(&v).atan2(d.dot(&u))
    };
    ring.sort_by(|a, b| angle(a).total_cmp(&angle(b)));
    let offset = ring.iter().map(|&i| normal.dot(&points[i as usize])).fold(f64::NEG_INFINITY, f64::max);
    HullFace { normal, offset, polygon: reduce_polygon(points, &normal, ring) }
}

/// Area of a face's polygon (counter-clockwise about its normal).
fn polygon_area(points: &[V3], f: &HullFace) -> f64 {
    let p0 = points[f.polygon[0] as usize];
    let mut twice = V3::zeros();
    for w in f.polygon.windows(2).skip(1) {
        twice += (points[w[0] as usize] - p0).cross(&(points[w[1] as usize] - p0));
    }
    0.5 * twice.dot(&f.normal)
}

/// The polygon `ring` (counter-clockwise about `normal`) cut to at most [`FACE_POINTS`]
/// vertices by dropping, one at a time, the vertex whose triangle with its neighbours has
/// the least area: the kept polygon covers the most of the face a greedy cut can.
pub fn reduce_polygon(points: &[V3], normal: &V3, mut ring: Vec<u32>) -> Vec<u32> {
    let area = |a: u32, b: u32, c: u32| {
        let (pa, pb, pc) = (points[a as usize], points[b as usize], points[c as usize]);
        0.5 * (pb - pa).cross(&(pc - pa)).dot(normal)
    };
    while ring.len() > FACE_POINTS {
        let n = ring.len();
        let drop = (0..n)
            .map(|i| (i, area(ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n])))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
            .expect("a ring has vertices");
        ring.remove(drop);
    }
    ring
}

/// Hulls compare by their vertices (the faces follow from them).
impl PartialEq for Hull {
    fn eq(&self, other: &Hull) -> bool {
        self.points == other.points
    }
}

/// Prints the vertices, every bit of every number (the model fingerprint hashes it).
impl fmt::Debug for Hull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hull").field("points", &self.points.iter().map(|p| [p.x, p.y, p.z]).collect::<Vec<_>>()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(h: f64) -> Vec<V3> {
        let mut p = Vec::new();
        for i in 0..8 {
            p.push(V3::new(if i & 1 == 0 { -h } else { h }, if i & 2 == 0 { -h } else { h }, if i & 4 == 0 { -h } else { h }));
        }
        p
    }

    #[test]
    fn a_cube_has_six_square_faces() {
        let mut pts = cube(0.5);
        pts.push(V3::new(0.1, 0.2, -0.3)); // inside: dropped
        let h = Hull::new(&pts).unwrap();
        assert_eq!((h.points.len(), h.faces.len()), (8, 6));
        assert!((h.volume() - 1.0).abs() < 1e-14, "{}", h.volume());
        assert!((h.bounding_radius() - 0.75f64.sqrt()).abs() < 1e-15);
        for f in &h.faces {
            assert_eq!(f.polygon.len(), 4);
            assert!((f.offset - 0.5).abs() < 1e-15 && (f.normal.norm() - 1.0).abs() < 1e-15);
            assert!((polygon_area(&h.points, f) - 1.0).abs() < 1e-14, "counter-clockwise, area 1");
        }
        assert!(h.vertex_faces.iter().all(|f| f.len() == 3));
    }

    #[test]
    fn big_faces_keep_sixteen_vertices_and_most_of_their_area() {
        // a 64-gon prism: its caps are cut to 16 vertices, a regular 16-gon's area
        let n = 64;
        let mut pts = Vec::new();
        for i in 0..n {
            let a = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
            pts.push(V3::new(a.cos(), a.sin(), -0.1));
            pts.push(V3::new(a.cos(), a.sin(), 0.1));
        }
        let h = Hull::new(&pts).unwrap();
        let cap = h.faces.iter().find(|f| f.normal.z < -0.999).unwrap();
        assert_eq!(cap.polygon.len(), FACE_POINTS);
        // the greedy cut keeps 97.3 % of the 64-gon's area (a regular 16-gon: 97.6 %)
        let full = 0.5 * 64.0 * (2.0 * std::f64::consts::PI / 64.0).sin();
        let kept = polygon_area(&h.points, cap) / full;
        assert!((kept - 0.9732).abs() < 1e-4, "{kept}");
    }

    #[test]
    fn flat_or_short_point_sets_are_refused() {
        let flat: Vec<V3> = (0..10).map(|i| V3::new(i as f64, (i * i % 7) as f64, 0.0)).collect();
        let e = Hull::new(&flat).unwrap_err();
        assert!(matches!(&e, Error::InvalidShape("points", m) if m.contains("coplanar")), "{e:?}");
        let e = Hull::new(&cube(1.0)[..3]).unwrap_err();
        assert!(matches!(&e, Error::InvalidShape("points", m) if m.contains("at least 4 points, got 3")), "{e:?}");
        let mut nan = cube(1.0);
        nan[2].y = f64::NAN;
        assert_eq!(Hull::new(&nan).unwrap_err(), Error::NonFinite("points"));
        let line: Vec<V3> = (0..6).map(|i| V3::new(i as f64, 2.0 * i as f64, 0.0)).collect();
        assert!(matches!(Hull::new(&line).unwrap_err(), Error::InvalidShape("points", _)));
    }
}
