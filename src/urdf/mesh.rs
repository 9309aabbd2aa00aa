//! `<mesh filename scale>` collisions → convex hulls, or triangle meshes for links fixed to
//! the world when asked: where the file is (search roots), how it is read (mesh-loader:
//! STL, COLLADA, OBJ), and one hull or triangle mesh per (file, scale) in a load.
//!
//! Resolution: `package://pkg/rest` (also `package:///pkg/rest`) is `root/pkg/rest` or,
//! for a root named `pkg`, `root/rest`, and must stay in that package directory; the
//! roots, in order: the URDF file's directory and its ancestors, the options' roots
//! ([`UrdfOptions::mesh_roots`](super::UrdfOptions)), then the directories of
//! [`PACKAGE_PATH_VARIABLE`] (colon-separated, like `ROS_PACKAGE_PATH`). A relative path
//! is taken against the URDF file's directory, staying in its parent (the package: ROS
//! writes `../meshes/…` from `urdf/`), then against each given root, staying in it; an
//! absolute path (or `file:///…`) must be in one of those. Text loaded without a file has
//! only the given roots. A file that resolves (symbolic links and `..` followed) outside
//! its root is refused.
//!
//! Reading: the mesh's vertices (all its meshes merged; COLLADA node transforms and units
//! applied, its `up_axis` not, as Pinocchio's loader does), scaled per axis (a negative
//! scale mirrors), duplicates dropped, hulled. A binary STL whose 80-byte header starts
//! with `solid ` (SolidWorks writes them) is read as binary when its size says so.
//!
//! As a triangle mesh ([`Meshes::trimesh`]): the same vertices, exact duplicates welded
//! into one (STL repeats each vertex per triangle; the mesh finds a triangle's neighbours
//! by shared vertex indices), and the file's triangles without those that have no area
//! after the scale (the model refuses them; they have no surface to touch).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::math::V3;
use crate::model::hull::Hull;
use crate::model::terrain::TriangleMesh;
use crate::model::Error;

/// Environment variable of extra search roots, colon-separated.
pub const PACKAGE_PATH_VARIABLE: &str = "MAXDYN_PACKAGE_PATH";

/// Largest mesh file read (bytes): the corpus's largest is 8 MB.
const MAX_MESH_BYTES: u64 = 256 << 20;

/// Resolves and hulls the meshes of one load.
pub struct Meshes {
    /// The URDF file's directory and its ancestors (a file load).
    ancestors: Vec<PathBuf>,
    /// The package a relative path stays in: the URDF directory's parent.
    home: Option<PathBuf>,
    /// The options' roots, then the environment's.
    explicit: Vec<PathBuf>,
    cache: HashMap<(PathBuf, [u64; 3]), Arc<Hull>>,
    trimeshes: HashMap<(PathBuf, [u64; 3]), Arc<TriangleMesh>>,
}

impl Meshes {
    /// The search roots of a load from a file in `urdf_dir` (None: from text) with the
    /// options' roots `extra`. Roots that do not exist are skipped.
    pub fn new(urdf_dir: Option<&Path>, extra: &[PathBuf]) -> Meshes {
        let dir = urdf_dir.and_then(|d| d.canonicalize().ok());
        let ancestors: Vec<PathBuf> = dir.iter().flat_map(|d| d.ancestors().map(Path::to_path_buf)).collect();
        let home = dir.map(|d| d.parent().map_or(d.clone(), Path::to_path_buf));
        let env: Vec<PathBuf> = std::env::var_os(PACKAGE_PATH_VARIABLE).map(|v| std::env::split_paths(&v).collect()).unwrap_or_default();
        let explicit = extra.iter().chain(&env).filter_map(|r| r.canonicalize().ok()).collect();
        Meshes { ancestors, home, explicit, cache: HashMap::new(), trimeshes: HashMap::new() }
    }

    /// Where `filename` may be, each with the root it must stay in.
    fn candidates(&self, filename: &str) -> std::result::Result<Vec<(PathBuf, PathBuf)>, String> {
        let mut c = Vec::new();
        if let Some(rest) = filename.strip_prefix("package://") {
            let rest = rest.trim_start_matches('/');
            let (package, inner) = rest.split_once('/').ok_or_else(|| format!("`{filename}` names no file in its package"))?;
            for root in self.ancestors.iter().chain(&self.explicit) {
                if root.file_name().is_some_and(|n| n == package) {
                    c.push((root.join(inner), root.clone()));
                }
                c.push((root.join(package).join(inner), root.join(package)));
            }
            return Ok(c);
        }
        let path = Path::new(filename.strip_prefix("file://").unwrap_or(filename));
        let roots = self.home.iter().chain(&self.explicit);
        if path.is_absolute() {
            c.extend(roots.map(|r| (path.to_path_buf(), r.clone())));
        } else {
            if let (Some(dir), Some(home)) = (self.ancestors.first(), &self.home) {
                c.push((dir.join(path), home.clone()));
            }
            c.extend(self.explicit.iter().map(|r| (r.join(path), r.clone())));
        }
        Ok(c)
    }

    /// The file `filename` names, within its root; the error says why not.
    pub fn resolve(&self, filename: &str) -> std::result::Result<PathBuf, String> {
        let candidates = self.candidates(filename)?;
        let mut outside = None;
        for (c, root) in &candidates {
            let (Ok(real), Ok(root)) = (c.canonicalize(), root.canonicalize()) else { continue };
            if real.starts_with(&root) {
                return Ok(real);
            }
            outside.get_or_insert(real);
        }
        let roots: Vec<String> = self.home.iter().chain(&self.explicit).map(|r| r.display().to_string()).collect();
        match outside {
            Some(p) => Err(format!("`{filename}` resolves to `{}`, outside the search roots", p.display())),
            None if candidates.is_empty() => Err(format!("`{filename}` not found: no search roots (give mesh roots in the URDF options or {PACKAGE_PATH_VARIABLE})")),
            None => Err(format!("`{filename}` not found in the search roots ({})", roots.join(", "))),
        }
    }

    /// The hull of the mesh in `filename` scaled by `scale`, loaded once per load.
    pub fn hull(&mut self, filename: &str, scale: [f64; 3]) -> std::result::Result<Arc<Hull>, String> {
        let path = self.resolve(filename)?;
        let key = (path.clone(), scale.map(f64::to_bits));
        if let Some(h) = self.cache.get(&key) {
            return Ok(h.clone());
        }
        let (points, _) = read_mesh(&path)?;
        let mut scaled: Vec<V3> = points.iter().map(|p| V3::new(p[0] as f64 * scale[0], p[1] as f64 * scale[1], p[2] as f64 * scale[2])).collect();
        // STL repeats each vertex per triangle: exact duplicates halve the hulling time
        scaled.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)).then(a.z.total_cmp(&b.z)));
        scaled.dedup();
        let hull = Hull::new(&scaled).map_err(|e| match e {
            Error::InvalidShape(_, m) => format!("`{}`: {m}", path.display()),
            other => format!("`{}`: {other}", path.display()),
        })?;
        let hull = Arc::new(hull);
        self.cache.insert(key, hull.clone());
        Ok(hull)
    }

    /// The triangles of the mesh in `filename` scaled by `scale` (duplicate vertices
    /// welded, triangles without area dropped), loaded once per load.
    pub fn trimesh(&mut self, filename: &str, scale: [f64; 3]) -> std::result::Result<Arc<TriangleMesh>, String> {
        let path = self.resolve(filename)?;
        let key = (path.clone(), scale.map(f64::to_bits));
        if let Some(m) = self.trimeshes.get(&key) {
            return Ok(m.clone());
        }
        let (points, faces) = read_mesh(&path)?;
        let (vertices, triangles) = welded_triangles(&points, &faces, scale);
        if triangles.is_empty() {
            return Err(format!("`{}` holds no triangle with area", path.display()));
        }
        let mesh = TriangleMesh::new(&vertices, &triangles).map_err(|e| match e {
            Error::InvalidShape(_, m) => format!("`{}`: {m}", path.display()),
            other => format!("`{}`: {other}", path.display()),
        })?;
        let mesh = Arc::new(mesh);
        self.trimeshes.insert(key, mesh.clone());
        Ok(mesh)
    }
}

/// `points` scaled by `scale` with exact duplicates welded into one vertex, and `faces`
/// renumbered onto them, keeping only the triangles with area by the model's test
/// ([`TriangleMesh::new`]: twice the area above 1e-12 of the longer edge squared).
fn welded_triangles(points: &[[f32; 3]], faces: &[[u32; 3]], scale: [f64; 3]) -> (Vec<V3>, Vec<[u32; 3]>) {
    let mut index: HashMap<[u64; 3], u32> = HashMap::new();
    let mut vertices: Vec<V3> = Vec::new();
    let renumbered: Vec<u32> = points
        .iter()
        .map(|p| {
            let v = V3::new(p[0] as f64 * scale[0], p[1] as f64 * scale[1], p[2] as f64 * scale[2]);
            // +0.0 and -0.0 are one position
            let key = [v.x + 0.0, v.y + 0.0, v.z + 0.0].map(f64::to_bits);
            *index.entry(key).or_insert_with(|| {
                vertices.push(v);
                (vertices.len() - 1) as u32
            })
        })
        .collect();
    let triangles = faces
        .iter()
        .filter(|f| f.iter().all(|&i| (i as usize) < renumbered.len()))
        .map(|f| f.map(|i| renumbered[i as usize]))
        .filter(|t| {
            let [a, b, c] = t.map(|i| vertices[i as usize]);
            let size = (b - a).norm().max((c - a).norm());
            (b - a).cross(&(c - a)).norm() > 1e-12 * size * size
        })
        .collect();
    (vertices, triangles)
}

/// A mesh file's vertices and triangles (indices into the vertices).
type MeshData = (Vec<[f32; 3]>, Vec<[u32; 3]>);

/// Every vertex and triangle of the mesh file at `path` (STL, COLLADA or OBJ, by its
/// extension), all its meshes merged.
fn read_mesh(path: &Path) -> std::result::Result<MeshData, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read `{}`: {e}", path.display());
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(cannot)?.take(MAX_MESH_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > MAX_MESH_BYTES {
        return Err(format!("`{}` is larger than {MAX_MESH_BYTES} bytes", path.display()));
    }
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    let loader = mesh_loader::Loader::default().merge_meshes(true);
    let scene = match ext.as_str() {
        "stl" => {
            if binary_stl_named_solid(&bytes) {
                bytes[..5].copy_from_slice(b"     ");
            }
            loader.load_stl_from_slice(&bytes, path)
        }
        "dae" => loader.load_collada_from_slice(&bytes, path),
        // materials are not read (no file outside the mesh itself is opened)
        "obj" => loader.load_obj_from_slice_with_reader(&bytes, path, |_| Ok(Vec::new())),
        _ => return Err(format!("`{}`: unknown mesh format (STL, COLLADA .dae and OBJ are read)", path.display())),
    }
    .map_err(|e| format!("cannot load `{}`: {e}", path.display()))?;
    // merged: one mesh (or none), its faces indexing its vertices
    let (mut vertices, mut faces) = (Vec::new(), Vec::new());
    for m in scene.meshes {
        let offset = vertices.len() as u32;
        faces.extend(m.faces.iter().map(|f| f.map(|i| i + offset)));
        vertices.extend(m.vertices);
    }
    if vertices.is_empty() {
        return Err(format!("`{}` holds no vertices", path.display()));
    }
    Ok((vertices, faces))
}

/// A binary STL (84 + 50·n bytes for the n triangles its header counts) whose header
/// begins with `solid`, which mesh-loader would read as ASCII.
fn binary_stl_named_solid(bytes: &[u8]) -> bool {
    if bytes.len() < 84 || !bytes.starts_with(b"solid") {
        return false;
    }
    let n = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
    n > 0 && bytes.len() == 84 + 50 * n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A binary STL of a tetrahedron, its header starting with `solid`.
    fn tetra_stl(header: &[u8]) -> Vec<u8> {
        let p = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        let tris = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
        let mut b = vec![0u8; 80];
        b[..header.len()].copy_from_slice(header);
        b.extend_from_slice(&(tris.len() as u32).to_le_bytes());
        for t in tris {
            b.extend_from_slice(&[0u8; 12]);
            for i in t {
                for c in p[i] {
                    b.extend_from_slice(&c.to_le_bytes());
                }
            }
            b.extend_from_slice(&[0u8; 2]);
        }
        b
    }

    #[test]
    fn a_binary_stl_named_solid_loads_scaled_and_mirrored() {
        let dir = std::env::temp_dir().join(format!("maxdyn-mesh-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("pkg/meshes")).unwrap();
        std::fs::write(dir.join("pkg/meshes/t.stl"), tetra_stl(b"solid by SolidWorks\r\n")).unwrap();
        let mut m = Meshes::new(None, std::slice::from_ref(&dir));
        let h = m.hull("package://pkg/meshes/t.stl", [2.0, -1.0, 1.0]).unwrap();
        assert_eq!(h.points.len(), 4);
        assert!((h.volume() - 2.0 / 6.0).abs() < 1e-15, "{}", h.volume());
        assert!(h.points.iter().any(|p| p.y == -1.0), "mirrored in y");
        // cached: the same hull for the same file and scale
        assert!(Arc::ptr_eq(&h, &m.hull("package:///pkg/meshes/t.stl", [2.0, -1.0, 1.0]).unwrap()));
        // refused: outside the roots, missing, unknown format
        let e = m.resolve("package://pkg/../../etc/passwd").unwrap_err();
        assert!(e.contains("outside the search roots") || e.contains("not found"), "{e}");
        let e = m.hull("package://pkg/meshes/none.stl", [1.0; 3]).unwrap_err();
        assert!(e.contains("`package://pkg/meshes/none.stl` not found in the search roots"), "{e}");
        let e = m.resolve("/etc/hostname").unwrap_err();
        assert!(e.contains("outside the search roots"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// As a triangle mesh: the tetrahedron's 12 STL vertices welded into 4, its 4 faces
    /// kept, scaled and mirrored like the hull, shared per (file, scale); −0 and +0 are one
    /// vertex; a face without area is dropped, and a file with none left (scaled onto a
    /// line) is refused.
    #[test]
    fn a_mesh_as_triangles_is_welded_and_keeps_faces_with_area() {
        let dir = std::env::temp_dir().join(format!("maxdyn-trimesh-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("t.stl"), tetra_stl(b"tetra")).unwrap();
        let mut m = Meshes::new(None, std::slice::from_ref(&dir));
        let t = m.trimesh("t.stl", [2.0, -1.0, 1.0]).unwrap();
        assert_eq!((t.vertices.len(), t.triangles.len()), (4, 4));
        assert!(t.vertices.iter().any(|p| p.y == -1.0) && t.vertices.iter().any(|p| p.x == 2.0));
        assert!(Arc::ptr_eq(&t, &m.trimesh("t.stl", [2.0, -1.0, 1.0]).unwrap()));
        // a collinear face is dropped; −0 is welded onto +0
        let (v, tris) = welded_triangles(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [-0.0, 0.0, 0.0]], &[[0, 1, 2], [4, 1, 3]], [1.0; 3]);
        assert_eq!((v.len(), tris), (4, vec![[0, 1, 3]]));
        let e = m.trimesh("t.stl", [1.0, 0.0, 0.0]).map(|_| ()).unwrap_err();
        assert!(e.contains("holds no triangle with area"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
