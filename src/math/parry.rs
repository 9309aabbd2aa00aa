//! The one place that calls parry3d-f64 (glam vectors): convex hulls of point sets, and
//! GJK/EPA between two convex shapes given by their support functions. Everything outside
//! speaks nalgebra; vectors convert here, in both directions, bit for bit.

use std::cell::RefCell;

use parry3d_f64::math::{Pose, Vector};
use parry3d_f64::query::epa::EPA;
use parry3d_f64::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
use parry3d_f64::shape::{ConvexPolyhedron, SupportMap};

use super::V3;

fn to_glam(v: &V3) -> Vector {
    Vector::new(v.x, v.y, v.z)
}

fn from_glam(v: Vector) -> V3 {
    V3::new(v.x, v.y, v.z)
}

/// A hull face: outward unit normal and its vertices' indices.
pub type Face = (V3, Vec<u32>);

/// The convex hull of `points`: its vertices and its faces (outward unit normal, vertex
/// indices around the face, coplanar triangles merged), or why it has none.
pub fn hull_faces(points: &[V3]) -> Result<(Vec<V3>, Vec<Face>), String> {
    let pts: Vec<Vector> = points.iter().map(to_glam).collect();
    let (vertices, triangles) = parry3d_f64::transformation::try_convex_hull(&pts).map_err(|e| format!("no convex hull: {e:?}"))?;
    if triangles.len() < 4 {
        return Err(format!("the {} points are coplanar or collinear: their hull has no volume", points.len()));
    }
    let poly = ConvexPolyhedron::from_convex_mesh(vertices, &triangles).ok_or_else(|| format!("the {} points are coplanar or collinear: their hull has no volume", points.len()))?;
    let adjacency = poly.vertices_adj_to_face();
    let faces = poly
        .faces()
        .iter()
        .map(|f| {
            let first = f.first_vertex_or_edge as usize;
            (from_glam(f.normal), adjacency[first..first + f.num_vertices_or_edges as usize].to_vec())
        })
        .collect();
    Ok((poly.points().iter().map(|&p| from_glam(p)).collect(), faces))
}

/// A convex set by its support function (world frame): the point farthest along `d`.
pub trait Support {
    fn support(&self, d: &V3) -> V3;
}

struct AsParry<'a, S: Support>(&'a S);

impl<S: Support> SupportMap for AsParry<'_, S> {
    fn local_support_point(&self, dir: Vector) -> Vector {
        to_glam(&self.0.support(&from_glam(dir)))
    }
}

/// The closest points of two convex sets, or their deepest points when they overlap.
#[derive(Debug, Clone, Copy)]
pub struct Closest {
    /// Points on `a` and on `b` (world).
    pub on_a: V3,
    pub on_b: V3,
    /// Unit normal from `b` to `a`.
    pub normal: V3,
    /// Signed distance (negative: penetration depth).
    pub distance: f64,
}

thread_local! {
    // EPA's work lists, kept per thread: they grow on the first overlaps a thread meets and
    // are reused after, so a step allocates nothing once warm.
    static EPA_WORK: RefCell<EPA> = RefCell::new(EPA::new());
}

/// GJK between `a` and `b`, EPA when they overlap; None when both fail (degenerate input).
pub fn closest(a: &impl Support, b: &impl Support) -> Option<Closest> {
    let (ga, gb) = (AsParry(a), AsParry(b));
    let pose = Pose::IDENTITY;
    let d0 = to_glam(&(b.support(&V3::x()) - a.support(&-V3::x())));
    let dir = d0.try_normalize().unwrap_or(Vector::X);
    let mut simplex = VoronoiSimplex::new();
    simplex.reset(CsoPoint::from_shapes(&pose, &ga, &gb, dir));
    let (p1, p2, n1) = match gjk::closest_points(&pose, &ga, &gb, f64::INFINITY, true, &mut simplex) {
        GJKResult::ClosestPoints(p1, p2, n1) => (p1, p2, n1),
        GJKResult::Intersection => EPA_WORK.with(|epa| epa.borrow_mut().closest_points(&pose, &ga, &gb, &simplex))?,
        GJKResult::NoIntersection(_) | GJKResult::Proximity(_) => return None,
    };
    let normal = -from_glam(n1);
    let (on_a, on_b) = (from_glam(p1), from_glam(p2));
    Some(Closest { on_a, on_b, normal, distance: normal.dot(&(on_a - on_b)) })
}
