//! The one place that calls parry3d-f64 (glam vectors): convex hulls of point sets,
//! GJK/EPA between two convex shapes given by their support functions, and the triangles
//! of a height field or a triangle mesh near a box. Everything outside
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

/// A grid of heights stored as parry's `HeightField`, which finds the cells under a box.
/// The grid is given in the frame maxdyn uses (z up, `rows` along y, `cols` along x,
/// centred on the origin); parry's is y up with rows along z, so x stays x, our y is its
/// z and our z its y.
#[derive(Clone)]
pub struct GridTriangles(parry3d_f64::shape::HeightField);

impl GridTriangles {
    /// `heights` row-major (`rows` × `cols`, rows along y), cells `dx` × `dy`; the caller
    /// has checked sizes and finiteness (parry asserts at least 2 × 2).
    pub fn new(rows: usize, cols: usize, dx: f64, dy: f64, heights: &[f64]) -> GridTriangles {
        // parry's array is column-major: element (i, j) at i + j·rows
        let mut data = vec![0.0; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                data[r + c * rows] = heights[r * cols + c];
            }
        }
        let array = parry3d_f64::utils::Array2::new(rows, cols, data);
        let scale = Vector::new((cols - 1) as f64 * dx, 1.0, (rows - 1) as f64 * dy);
        GridTriangles(parry3d_f64::shape::HeightField::new(array, scale))
    }

    /// Calls `f` with each triangle (shape frame) that may meet the box `min`..`max`
    /// (shape frame); allocates nothing.
    pub fn for_each_in(&self, min: &V3, max: &V3, mut f: impl FnMut([V3; 3])) {
        let aabb = parry3d_f64::bounding_volume::Aabb::new(Vector::new(min.x, min.z, min.y), Vector::new(max.x, max.z, max.y));
        let ours = |v: Vector| V3::new(v.x, v.z, v.y);
        self.0.map_elements_in_local_aabb(&aabb, &mut |_, t| f([ours(t.a), ours(t.b), ours(t.c)]));
    }
}

/// A triangle mesh stored as parry's `TriMesh`, whose bounding volume hierarchy finds the
/// triangles near a box.
#[derive(Clone)]
pub struct MeshTriangles(parry3d_f64::shape::TriMesh);

impl MeshTriangles {
    /// The mesh of `vertices` and `triangles` (indices checked by the caller).
    pub fn new(vertices: &[V3], triangles: &[[u32; 3]]) -> Result<MeshTriangles, String> {
        let v = vertices.iter().map(to_glam).collect();
        parry3d_f64::shape::TriMesh::new(v, triangles.to_vec()).map(MeshTriangles).map_err(|e| format!("no triangle mesh: {e:?}"))
    }

    /// Calls `f` with the index and the points (shape frame) of each triangle whose box
    /// meets the box `min`..`max` (shape frame). The traversal keeps its pending nodes in a 32-entry array on the
    /// stack, one per level of the path: no allocation unless the hierarchy is deeper.
    pub fn for_each_in(&self, min: &V3, max: &V3, mut f: impl FnMut(usize, [V3; 3])) {
        let aabb = parry3d_f64::bounding_volume::Aabb::new(to_glam(min), to_glam(max));
        for i in self.0.bvh().intersect_aabb(&aabb) {
            let t = self.0.triangle(i);
            f(i as usize, [from_glam(t.a), from_glam(t.b), from_glam(t.c)]);
        }
    }
}
