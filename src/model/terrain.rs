//! Static world geometry made of triangles: a height field (terrain, a grid of heights)
//! and a triangle mesh. Both are fixed in the world (a body's shape must be convex to
//! have a core the narrow phase can place), checked once when built, and kept behind an
//! `Arc` like a hull. The triangles near a body come from parry's storage
//! (`math::parry`): the height field's cells under a box, the mesh's bounding volume
//! hierarchy.

use std::fmt;

use super::size_bound::MAX_SHAPE_SIZE;
use crate::error::{Error, Result};
use crate::math::parry::{GridTriangles, MeshTriangles};
use crate::math::V3;

/// Most heights or triangles one shape may hold: 2²⁸ doubles are 2 GB, and parry indexes
/// the triangles with `u32`.
pub const MAX_TERRAIN_ELEMENTS: usize = 1 << 28;

/// A height field: heights over a grid in the shape frame's x–y plane, z up. Row `r`
/// (0..rows) lies at y = (r − (rows − 1)/2)·dy, column `c` at x = (c − (cols − 1)/2)·dx:
/// the grid is centred on the shape frame's origin. Each cell is split in two triangles
/// along its diagonal from (column c, row r + 1) to (column c + 1, row r). The solid is
/// what lies below the surface; bodies rest on top.
#[derive(Clone)]
pub struct HeightField {
    pub rows: usize,
    pub cols: usize,
    pub dx: f64,
    pub dy: f64,
    /// Row-major: the height of row r, column c at `heights[r * cols + c]`.
    pub heights: Vec<f64>,
    grid: GridTriangles,
    bounding_radius: f64,
    min_height: f64,
    max_height: f64,
}

impl HeightField {
    /// The height field of `heights` (row-major, `rows` × `cols`, each ≥ 2) on cells of
    /// `dx` × `dy` (> 0). Errors name the argument they are about ("heights", "rows",
    /// "dx", …): wrong counts and sizes are `InvalidShape`, NaN `NonFinite`.
    pub fn new(rows: usize, cols: usize, dx: f64, dy: f64, heights: &[f64]) -> Result<HeightField> {
        let bad = |arg: &'static str, m: String| Err(Error::InvalidShape(arg, m));
        if rows < 2 {
            return bad("rows", format!("a height field needs at least 2 rows, got {rows}"));
        }
        if cols < 2 {
            return bad("cols", format!("a height field needs at least 2 columns, got {cols}"));
        }
        let count = rows.checked_mul(cols).filter(|&n| n <= MAX_TERRAIN_ELEMENTS);
        let Some(count) = count else {
            return bad("rows", format!("{rows} × {cols} heights is more than {MAX_TERRAIN_ELEMENTS}"));
        };
        if heights.len() != count {
            return bad("heights", format!("{} heights for {rows} rows × {cols} columns, expected {count}", heights.len()));
        }
        for (arg, v) in [("dx", dx), ("dy", dy)] {
            if !v.is_finite() {
                return Err(Error::NonFinite(arg));
            }
            if v <= 0.0 {
                return bad(arg, format!("cell size {v} must be > 0"));
            }
        }
        if heights.iter().any(|h| !h.is_finite()) {
            return Err(Error::NonFinite("heights"));
        }
        let (half_x, half_y) = (0.5 * (cols - 1) as f64 * dx, 0.5 * (rows - 1) as f64 * dy);
        let min_height = heights.iter().copied().fold(f64::INFINITY, f64::min);
        let max_height = heights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for (arg, what, v) in [("dx", "half width", half_x), ("dy", "half depth", half_y), ("heights", "height", min_height.abs().max(max_height.abs()))] {
            if v > MAX_SHAPE_SIZE {
                return bad(arg, format!("height field {what} {v:e} is beyond {MAX_SHAPE_SIZE:e} m, the largest whose contacts doubles resolve (MAX_SHAPE_SIZE)"));
            }
        }
        let top = min_height.abs().max(max_height.abs());
        let bounding_radius = (half_x * half_x + half_y * half_y + top * top).sqrt();
        let grid = GridTriangles::new(rows, cols, dx, dy, heights);
        Ok(HeightField { rows, cols, dx, dy, heights: heights.to_vec(), grid, bounding_radius, min_height, max_height })
    }

    /// Largest distance of a grid point from the shape frame's origin.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }

    /// The box holding the surface, in the shape frame: (min, max).
    pub fn local_box(&self) -> (V3, V3) {
        let (half_x, half_y) = (0.5 * (self.cols - 1) as f64 * self.dx, 0.5 * (self.rows - 1) as f64 * self.dy);
        (V3::new(-half_x, -half_y, self.min_height), V3::new(half_x, half_y, self.max_height))
    }

    /// The grid point of row `r`, column `c` in the shape frame.
    pub fn point(&self, r: usize, c: usize) -> V3 {
        let x = (c as f64 - 0.5 * (self.cols - 1) as f64) * self.dx;
        let y = (r as f64 - 0.5 * (self.rows - 1) as f64) * self.dy;
        V3::new(x, y, self.heights[r * self.cols + c])
    }

    /// The surface's height at (x, y) of the shape frame (the triangle's plane over it);
    /// None off the grid.
    pub fn height_at(&self, x: f64, y: f64) -> Option<f64> {
        let (u, v) = (x / self.dx + 0.5 * (self.cols - 1) as f64, y / self.dy + 0.5 * (self.rows - 1) as f64);
        if !(0.0..=(self.cols - 1) as f64).contains(&u) || !(0.0..=(self.rows - 1) as f64).contains(&v) {
            return None;
        }
        let (c, r) = ((u.floor() as usize).min(self.cols - 2), (v.floor() as usize).min(self.rows - 2));
        let (s, t) = (u - c as f64, v - r as f64);
        let h = |dr: usize, dc: usize| self.heights[(r + dr) * self.cols + c + dc];
        // the diagonal from (c, r + 1) to (c + 1, r): below it (s + t ≤ 1) the triangle of
        // the cell's (c, r) corner, above it the (c + 1, r + 1) corner's
        Some(if s + t <= 1.0 { h(0, 0) + s * (h(0, 1) - h(0, 0)) + t * (h(1, 0) - h(0, 0)) } else { h(1, 1) + (1.0 - s) * (h(1, 0) - h(1, 1)) + (1.0 - t) * (h(0, 1) - h(1, 1)) })
    }

    /// Calls `f` with each triangle (shape frame) that may meet the box `min`..`max`
    /// (shape frame) and, across each of its edges (points 0–1, 1–2, 2–0), the far
    /// vertex of the triangle beyond it (None at the grid's border); allocates nothing.
    pub fn triangles_in(&self, min: &V3, max: &V3, mut f: impl FnMut([V3; 3], [Option<V3>; 3])) {
        self.grid.for_each_in(min, max, |t| f(t, self.beyond(&t)))
    }

    /// The far vertices across the edges of grid triangle `t` (see `triangles_in`).
    fn beyond(&self, t: &[V3; 3]) -> [Option<V3>; 3] {
        // the cell and half from the centroid: (1/3, 1/3) into the cell for the lower
        // triangle (c, r), (c, r + 1), (c + 1, r); (2/3, 2/3) for the upper one
        let m = (t[0] + t[1] + t[2]) / 3.0;
        let (u, v) = (m.x / self.dx + 0.5 * (self.cols - 1) as f64, m.y / self.dy + 0.5 * (self.rows - 1) as f64);
        let (c, r) = (u.floor() as isize, v.floor() as isize);
        let lower = (u - c as f64) + (v - r as f64) < 1.0;
        let at = |dc: isize, dr: isize| {
            let (cc, rr) = (c + dc, r + dr);
            (cc >= 0 && rr >= 0 && (cc as usize) < self.cols && (rr as usize) < self.rows).then(|| self.point(rr as usize, cc as usize))
        };
        // each edge's far vertex, keyed by the edge's two grid points
        let edges: [(Corner, Corner, Option<V3>); 3] = if lower {
            [((0, 0), (0, 1), at(-1, 1)), ((0, 0), (1, 0), at(1, -1)), ((0, 1), (1, 0), at(1, 1))]
        } else {
            [((0, 1), (1, 1), at(0, 2)), ((1, 1), (1, 0), at(2, 0)), ((0, 1), (1, 0), at(0, 0))]
        };
        let corner = |p: &V3| {
            let (pu, pv) = (p.x / self.dx + 0.5 * (self.cols - 1) as f64, p.y / self.dy + 0.5 * (self.rows - 1) as f64);
            ((pu - c as f64).round() as isize, (pv - r as f64).round() as isize)
        };
        let mut far = [None; 3];
        for k in 0..3 {
            let (a, b) = (corner(&t[k]), corner(&t[(k + 1) % 3]));
            if let Some(e) = edges.iter().find(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a)) {
                far[k] = e.2;
            }
        }
        far
    }
}

/// A cell corner as (column, row) offsets from the cell's lower one.
type Corner = (isize, isize);

/// A triangle mesh: vertices (shape frame) and triangles as three vertex indices. Either
/// side of a triangle touches.
#[derive(Clone)]
pub struct TriangleMesh {
    pub vertices: Vec<V3>,
    pub triangles: Vec<[u32; 3]>,
    mesh: MeshTriangles,
    /// Per triangle, per edge (points 0–1, 1–2, 2–0): the far vertex of the one other
    /// triangle sharing it.
    beyond: Vec<[Option<u32>; 3]>,
    bounding_radius: f64,
    local_box: (V3, V3),
}

impl TriangleMesh {
    /// The mesh of `vertices` and `triangles`: at least one triangle, indices in range,
    /// finite vertices, no triangle without area. Errors name "vertices" or "triangles".
    pub fn new(vertices: &[V3], triangles: &[[u32; 3]]) -> Result<TriangleMesh> {
        let bad = |arg: &'static str, m: String| Err(Error::InvalidShape(arg, m));
        if triangles.is_empty() {
            return bad("triangles", "a triangle mesh needs at least 1 triangle, got 0".into());
        }
        if vertices.len() > MAX_TERRAIN_ELEMENTS || triangles.len() > MAX_TERRAIN_ELEMENTS {
            return bad("triangles", format!("{} vertices and {} triangles: at most {MAX_TERRAIN_ELEMENTS} each", vertices.len(), triangles.len()));
        }
        if vertices.iter().any(|p| !p.iter().all(|v| v.is_finite())) {
            return Err(Error::NonFinite("vertices"));
        }
        for (k, t) in triangles.iter().enumerate() {
            if let Some(&i) = t.iter().find(|&&i| i as usize >= vertices.len()) {
                return bad("triangles", format!("triangle {k} names vertex {i}, there are {}", vertices.len()));
            }
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            let size = (b - a).norm().max((c - a).norm());
            if (b - a).cross(&(c - a)).norm() <= 1e-12 * size * size {
                return bad("triangles", format!("triangle {k} ({}, {}, {}) has no area", t[0], t[1], t[2]));
            }
        }
        let bounding_radius = vertices.iter().map(|p| p.norm()).fold(0.0, f64::max);
        if bounding_radius > MAX_SHAPE_SIZE {
            return bad("vertices", format!("triangle mesh size {bounding_radius:e} is beyond {MAX_SHAPE_SIZE:e} m, the largest whose contacts doubles resolve (MAX_SHAPE_SIZE)"));
        }
        let (mut min, mut max) = (V3::repeat(f64::INFINITY), V3::repeat(f64::NEG_INFINITY));
        for t in triangles {
            for &i in t {
                min = min.inf(&vertices[i as usize]);
                max = max.sup(&vertices[i as usize]);
            }
        }
        let mesh = MeshTriangles::new(vertices, triangles).map_err(|m| Error::InvalidShape("triangles", m))?;
        Ok(TriangleMesh { vertices: vertices.to_vec(), triangles: triangles.to_vec(), mesh, beyond: neighbours(triangles), bounding_radius, local_box: (min, max) })
    }

    /// Largest distance of a vertex from the shape frame's origin.
    pub fn bounding_radius(&self) -> f64 {
        self.bounding_radius
    }

    /// The box holding the triangles, in the shape frame: (min, max).
    pub fn local_box(&self) -> (V3, V3) {
        self.local_box
    }

    /// Calls `f` with each triangle (shape frame) whose box meets the box `min`..`max`
    /// (shape frame) and, across each of its edges (points 0–1, 1–2, 2–0), the far
    /// vertex of the one other triangle sharing it (None: a border, or an edge of more
    /// than two triangles).
    pub fn triangles_in(&self, min: &V3, max: &V3, mut f: impl FnMut([V3; 3], [Option<V3>; 3])) {
        self.mesh.for_each_in(min, max, |i, t| f(t, self.beyond[i].map(|v| v.map(|k| self.vertices[k as usize]))))
    }
}

/// Across each edge of each triangle, the far vertex of the one other triangle sharing it.
fn neighbours(triangles: &[[u32; 3]]) -> Vec<[Option<u32>; 3]> {
    let mut by_edge: std::collections::HashMap<(u32, u32), Vec<(usize, usize)>> = std::collections::HashMap::new();
    for (i, t) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            by_edge.entry((a.min(b), a.max(b))).or_default().push((i, k));
        }
    }
    let mut beyond = vec![[None; 3]; triangles.len()];
    for sharing in by_edge.values() {
        if let [(i, k), (j, l)] = sharing[..] {
            beyond[i][k] = Some(triangles[j][(l + 2) % 3]);
            beyond[j][l] = Some(triangles[i][(k + 2) % 3]);
        }
    }
    beyond
}

/// Height fields compare by their grid (parry's copy follows from it).
impl PartialEq for HeightField {
    fn eq(&self, other: &HeightField) -> bool {
        (self.rows, self.cols, self.dx, self.dy) == (other.rows, other.cols, other.dx, other.dy) && self.heights == other.heights
    }
}

impl PartialEq for TriangleMesh {
    fn eq(&self, other: &TriangleMesh) -> bool {
        self.vertices == other.vertices && self.triangles == other.triangles
    }
}

/// Prints the grid, every bit of every number (the model fingerprint hashes it).
impl fmt::Debug for HeightField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HeightField").field("rows", &self.rows).field("cols", &self.cols).field("dx", &self.dx).field("dy", &self.dy).field("heights", &self.heights).finish()
    }
}

impl fmt::Debug for TriangleMesh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<[f64; 3]> = self.vertices.iter().map(|p| [p.x, p.y, p.z]).collect();
        f.debug_struct("TriangleMesh").field("vertices", &v).field("triangles", &self.triangles).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid's triangles, as parry finds them, are the grid points split along the
    /// documented diagonal, and `height_at` is their plane.
    #[test]
    fn parry_cells_are_the_documented_triangles() {
        let heights: Vec<f64> = (0..12).map(|k| ((k * 7) % 5) as f64 * 0.1).collect();
        let hf = HeightField::new(3, 4, 0.5, 0.25, &heights).unwrap();
        let mut found = Vec::new();
        hf.triangles_in(&V3::repeat(-10.0), &V3::repeat(10.0), |t, far| found.push((t, far)));
        let found: Vec<[V3; 3]> = found.into_iter().map(|(t, far)| {
            // the far vertex across each edge is the neighbour's: off the edge's line, on the grid
            for (k, f) in far.iter().enumerate() {
                if let Some(f) = f {
                    let (a, b) = (t[k], t[(k + 1) % 3]);
                    assert!((b - a).xy().perp(&(f - a).xy()).abs() > 1e-3, "far vertex {f:?} on edge {a:?}–{b:?}");
                }
            }
            t
        }).collect();
        // the middle cell's triangles have all three neighbours, the corner cells' not
        let mut inner = 0;
        hf.triangles_in(&(hf.point(0, 1) + V3::new(0.1, 0.05, -1.0)), &(hf.point(0, 1) + V3::new(0.2, 0.1, 1.0)), |_, far| inner += far.iter().filter(|f| f.is_some()).count());
        assert_eq!(inner, 2 + 3, "cell (0, 1): its lower triangle borders the grid's edge");
        assert_eq!(found.len(), 2 * 2 * 3);
        for r in 0..2 {
            for c in 0..3 {
                let (p00, p01, p10, p11) = (hf.point(r, c), hf.point(r, c + 1), hf.point(r + 1, c), hf.point(r + 1, c + 1));
                for want in [[p00, p10, p01], [p10, p11, p01]] {
                    let hit = found.iter().any(|t| t.iter().zip(&want).all(|(a, b)| (a - b).norm() < 1e-15));
                    assert!(hit, "cell ({r}, {c}): {want:?} not among parry's triangles");
                }
                // the plane at a third of the way into each triangle
                for t in [[p00, p10, p01], [p10, p11, p01]] {
                    let m = (t[0] + t[1] + t[2]) / 3.0;
                    assert!((hf.height_at(m.x, m.y).unwrap() - m.z).abs() < 1e-15);
                }
            }
        }
        assert_eq!(hf.height_at(2.0, 0.0), None);
        // a box over one cell finds its two triangles and its neighbours' at most
        let mut near = 0;
        let p = hf.point(0, 0);
        hf.triangles_in(&(p + V3::new(0.1, 0.05, -1.0)), &(p + V3::new(0.2, 0.1, 1.0)), |_, _| near += 1);
        assert_eq!(near, 2);
    }

    #[test]
    fn bad_grids_and_meshes_are_refused() {
        let says = |e: Error, arg: &str, text: &str| matches!(&e, Error::InvalidShape(a, m) if *a == arg && m.contains(text));
        assert!(says(HeightField::new(1, 3, 0.1, 0.1, &[0.0; 3]).unwrap_err(), "rows", "at least 2 rows, got 1"));
        assert!(says(HeightField::new(2, 3, 0.1, 0.1, &[0.0; 5]).unwrap_err(), "heights", "5 heights for 2 rows × 3 columns, expected 6"));
        assert!(says(HeightField::new(2, 2, 0.0, 0.1, &[0.0; 4]).unwrap_err(), "dx", "cell size 0 must be > 0"));
        assert_eq!(HeightField::new(2, 2, 0.1, 0.1, &[0.0, f64::NAN, 0.0, 0.0]).unwrap_err(), Error::NonFinite("heights"));
        assert!(says(HeightField::new(2, 2, 0.1, 0.1, &[0.0, 1e13, 0.0, 0.0]).unwrap_err(), "heights", "beyond"));
        assert!(says(HeightField::new(usize::MAX, 2, 0.1, 0.1, &[]).unwrap_err(), "rows", "more than"));
        let v = [V3::zeros(), V3::x(), V3::y(), V3::new(2.0, 0.0, 0.0)];
        assert!(TriangleMesh::new(&v, &[[0, 1, 2]]).is_ok());
        assert!(says(TriangleMesh::new(&v, &[]).unwrap_err(), "triangles", "at least 1 triangle"));
        assert!(says(TriangleMesh::new(&v, &[[0, 1, 4]]).unwrap_err(), "triangles", "triangle 0 names vertex 4, there are 4"));
        assert!(says(TriangleMesh::new(&v, &[[0, 1, 2], [0, 1, 3]]).unwrap_err(), "triangles", "triangle 1 (0, 1, 3) has no area"));
        assert_eq!(TriangleMesh::new(&[V3::zeros(), V3::x(), V3::new(0.0, f64::NAN, 0.0)], &[[0, 1, 2]]).unwrap_err(), Error::NonFinite("vertices"));
    }
}
