//! Collision shapes on the builder, from C (`model::collision`): shapes on bodies or the
//! world that the step searches for contacts every step, their friction and filters, and
//! the settings of the contacts they make. The geometry's checks (radius ≥ 0, extents > 0,
//! unit quaternion, finite numbers) are the Rust builder's; this layer checks pointers,
//! ids, enums and flags, all before anything changes.

use super::args::{array, count_i32, out, slice};
use super::builder::{maxdyn_builder, parent_arg};
use super::builder_shapes::maxdyn_shape_type;
use super::error::{renamed, CResult, Failure};
use super::guard::{call, with_mut, with_ref};
use super::status::maxdyn_status::{self, *};
use crate::contact::{ConeType, MAX_DIRECTIONS};
use crate::model::{ShapeId, ShapeKind};

/// A collision shape id in `0..count` (`MAXDYN_STATUS_UNKNOWN_SHAPE` otherwise).
pub(crate) fn shape_index(id: i32, count: usize, arg: &str) -> CResult<ShapeId> {
    match usize::try_from(id) {
        Ok(i) if i < count => Ok(i),
        _ => Err(Failure::new(MAXDYN_STATUS_UNKNOWN_SHAPE, format!("argument `{arg}`: unknown shape id {id} (there are {count} shapes)"))),
    }
}

/// A shape type argument (`MAXDYN_STATUS_INVALID_ENUM` otherwise).
fn shape_type_arg(shape_type: i32) -> CResult<ShapeKind> {
    maxdyn_shape_type::from_i32(shape_type).map(ShapeKind::from).ok_or_else(|| {
        Failure::invalid_enum(
            "shape_type",
            shape_type,
            "shape type",
            "MAXDYN_SHAPE_PLANE = 0, MAXDYN_SHAPE_SPHERE = 1, MAXDYN_SHAPE_CAPSULE = 2, MAXDYN_SHAPE_BOX = 3, MAXDYN_SHAPE_CYLINDER = 4, MAXDYN_SHAPE_HULL = 5, MAXDYN_SHAPE_HEIGHTFIELD = 6, MAXDYN_SHAPE_TRIMESH = 7",
        )
    })
}

/// The largest shape size (radius, half-length, half extent) and distance of a shape from
/// its body's origin (its pose's position), in m: beyond it doubles no longer resolve the
/// shape's contacts (docs/COLLISION.md), and `maxdyn_builder_add_shape` refuses it.
pub const MAXDYN_SHAPE_MAX_SIZE: f64 = 1e12;
const _: () = assert!(MAXDYN_SHAPE_MAX_SIZE == crate::model::shape::MAX_SHAPE_SIZE);

/// Adds a collision shape of `shape_type` (`MAXDYN_SHAPE_*`) to `body` (a body id, or
/// `MAXDYN_WORLD` for a static shape) at `pose` in the body frame: 7 doubles, position (3;
/// the body frame's origin is its centre of mass) then unit quaternion (w, x, y, z; unit
/// to 1e-9 on |q|², then normalized). `params` holds `n` doubles, exactly the type's:
/// `MAXDYN_SHAPE_SPHERE` {radius ≥ 0}, `MAXDYN_SHAPE_CAPSULE` {radius ≥ 0, half_length ≥ 0
/// along the shape's z}, `MAXDYN_SHAPE_BOX` {three half extents > 0},
/// `MAXDYN_SHAPE_CYLINDER` {radius > 0, half_length ≥ 0 along z}, `MAXDYN_SHAPE_PLANE` {}
/// (n = 0, params may be NULL: the half-space below the shape's x–y plane, normal +z).
/// The shape gets friction 1, group 1 and mask all bits; it collides with every shape the
/// filter allows (`maxdyn_builder_set_collision_filter`). Its id (0, 1, … in order of
/// addition) goes to `*out_shape`. Errors: an unknown type `MAXDYN_STATUS_INVALID_ENUM`;
/// a wrong `n`, a negative radius, a zero extent, a non-unit quaternion, or a size or
/// position beyond `MAXDYN_SHAPE_MAX_SIZE` `MAXDYN_STATUS_INVALID_SHAPE` (naming the value
/// and the bound); NaN or infinity `MAXDYN_STATUS_NON_FINITE`; an unknown
/// body `MAXDYN_STATUS_UNKNOWN_BODY`.
///
/// # Safety
/// `builder` is NULL or live; `pose` is NULL or 7 doubles; `params` is NULL or `n`
/// doubles; `out_shape` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_shape(
    builder: *mut maxdyn_builder,
    body: i32,
    shape_type: i32,
    pose: *const f64,
    params: *const f64,
    n: usize,
    out_shape: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_shape", || {
        let kind = shape_type_arg(shape_type)?;
        let pose = array::<7>(pose, "pose")?;
        // the count first: a slice longer than the caller's array would be undefined
        // behaviour even unread
        if n != kind.parameter_count() {
            let message = format!("argument `params`: {n} parameters, the shape type takes {}", kind.parameter_count());
            return Err(Failure::new(MAXDYN_STATUS_INVALID_SHAPE, message));
        }
        let params = slice(params, n, "params")?;
        let o = out(out_shape, "out_shape")?;
        let id = with_mut(builder, "builder", |b| {
            let parent = parent_arg(body, b.inner.body_count(), "body")?;
            let (x, q) = ([pose[0], pose[1], pose[2]], [pose[3], pose[4], pose[5], pose[6]]);
            Ok(b.inner.add_shape(parent, kind, x, q, params)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Adds a collision shape that is the convex hull of `n_points` points (`points`: x, y, z
/// each, 3·n_points doubles, in the shape frame) to `body` (or `MAXDYN_WORLD`) at `pose`
/// (7 doubles as for `maxdyn_builder_add_shape`). The points are hulled (interior points
/// dropped); the shape's type is `MAXDYN_SHAPE_HULL`, with friction 1, group 1 and mask
/// all bits. Its id goes to `*out_shape`. Errors: fewer than 4 points, or all of them
/// coplanar, `MAXDYN_STATUS_INVALID_SHAPE` (naming `points`); NaN or infinity
/// `MAXDYN_STATUS_NON_FINITE`; a non-unit quaternion `MAXDYN_STATUS_INVALID_SHAPE`; an
/// unknown body `MAXDYN_STATUS_UNKNOWN_BODY`. Nothing changes on an error.
///
/// # Safety
/// `builder` is NULL or live; `pose` is NULL or 7 doubles; `points` is NULL or
/// 3·`n_points` doubles; `out_shape` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_hull_shape(
    builder: *mut maxdyn_builder,
    body: i32,
    pose: *const f64,
    points: *const f64,
    n_points: usize,
    out_shape: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_hull_shape", || {
        let pose = array::<7>(pose, "pose")?;
        let Some(len) = n_points.checked_mul(3) else {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_SHAPE, format!("argument `points`: {n_points} points is too many")));
        };
        let flat = slice(points, len, "points")?;
        let o = out(out_shape, "out_shape")?;
        let pts: Vec<[f64; 3]> = flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        let id = with_mut(builder, "builder", |b| {
            let parent = parent_arg(body, b.inner.body_count(), "body")?;
            let (x, q) = ([pose[0], pose[1], pose[2]], [pose[3], pose[4], pose[5], pose[6]]);
            Ok(b.inner.add_hull_shape(parent, x, q, &pts)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Adds a height field (terrain) to the world (`body` must be `MAXDYN_WORLD`: it is
/// static geometry) at `pose` (7 doubles as for `maxdyn_builder_add_shape`): `heights`
/// holds `rows` × `cols` doubles, row-major (row r, column c at `heights[r * cols + c]`),
/// each the surface's z in the shape frame over the grid point x = (c − (cols − 1)/2)·dx,
/// y = (r − (rows − 1)/2)·dy (the grid is centred on the shape frame's origin). Each cell
/// is two triangles, split along the diagonal from (c, r + 1) to (c + 1, r); bodies rest
/// on top. The shape's type is `MAXDYN_SHAPE_HEIGHTFIELD`, with friction 1, group 1 and
/// mask all bits; it collides with spheres, capsules, boxes, cylinders and hulls on
/// bodies. Its id goes to `*out_shape`. Errors: `rows` or `cols` below 2, `dx` or `dy`
/// not > 0, a size or height beyond `MAXDYN_SHAPE_MAX_SIZE`, a body other than the world,
/// or a non-unit quaternion `MAXDYN_STATUS_INVALID_SHAPE` (naming the argument); NaN or
/// infinity `MAXDYN_STATUS_NON_FINITE`; an unknown body `MAXDYN_STATUS_UNKNOWN_BODY`.
/// Nothing changes on an error.
///
/// # Safety
/// `builder` is NULL or live; `pose` is NULL or 7 doubles; `heights` is NULL or
/// `rows`·`cols` doubles; `out_shape` is NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn maxdyn_builder_add_heightfield_shape(
    builder: *mut maxdyn_builder,
    body: i32,
    pose: *const f64,
    heights: *const f64,
    rows: usize,
    cols: usize,
    dx: f64,
    dy: f64,
    out_shape: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_heightfield_shape", || {
        let pose = array::<7>(pose, "pose")?;
        // the sizes first: a slice longer than the caller's array would be undefined
        // behaviour even unread
        for (arg, v, what) in [("rows", rows, "rows"), ("cols", cols, "columns")] {
            if v < 2 {
                return Err(Failure::new(MAXDYN_STATUS_INVALID_SHAPE, format!("argument `{arg}`: a height field needs at least 2 {what}, got {v}")));
            }
        }
        let len = rows.checked_mul(cols).filter(|&n| n <= crate::model::terrain::MAX_TERRAIN_ELEMENTS);
        let Some(len) = len else {
            return Err(Failure::new(MAXDYN_STATUS_INVALID_SHAPE, format!("argument `rows`: {rows} × {cols} heights is too many")));
        };
        let heights = slice(heights, len, "heights")?;
        let o = out(out_shape, "out_shape")?;
        let id = with_mut(builder, "builder", |b| {
            let parent = parent_arg(body, b.inner.body_count(), "body")?;
            let (x, q) = ([pose[0], pose[1], pose[2]], [pose[3], pose[4], pose[5], pose[6]]);
            Ok(b.inner.add_heightfield_shape(parent, x, q, heights, rows, cols, dx, dy)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Adds a triangle mesh to the world (`body` must be `MAXDYN_WORLD`: it is static
/// geometry) at `pose` (7 doubles as for `maxdyn_builder_add_shape`): `vertices` holds
/// `n_vertices` points (x, y, z each, in the shape frame), `triangles` holds `n_triangles`
/// triples of vertex indices. Either side of a triangle touches. The shape's type is
/// `MAXDYN_SHAPE_TRIMESH`, with friction 1, group 1 and mask all bits; it collides with
/// spheres, capsules, boxes, cylinders and hulls on bodies. Its id goes to `*out_shape`.
/// Errors: no triangle, an index beyond the vertices, a triangle without area, a vertex
/// beyond `MAXDYN_SHAPE_MAX_SIZE`, a body other than the world, or a non-unit quaternion
/// `MAXDYN_STATUS_INVALID_SHAPE` (naming the argument); NaN or infinity
/// `MAXDYN_STATUS_NON_FINITE`; an unknown body `MAXDYN_STATUS_UNKNOWN_BODY`. Nothing
/// changes on an error.
///
/// # Safety
/// `builder` is NULL or live; `pose` is NULL or 7 doubles; `vertices` is NULL or
/// 3·`n_vertices` doubles; `triangles` is NULL or 3·`n_triangles` int32s; `out_shape` is
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_add_trimesh_shape(
    builder: *mut maxdyn_builder,
    body: i32,
    pose: *const f64,
    vertices: *const f64,
    n_vertices: usize,
    triangles: *const i32,
    n_triangles: usize,
    out_shape: *mut i32,
) -> maxdyn_status {
    call("maxdyn_builder_add_trimesh_shape", || {
        let pose = array::<7>(pose, "pose")?;
        let too_many = |arg: &str, n: usize| Failure::new(MAXDYN_STATUS_INVALID_SHAPE, format!("argument `{arg}`: {n} is too many"));
        let vlen = n_vertices.checked_mul(3).ok_or_else(|| too_many("vertices", n_vertices))?;
        let tlen = n_triangles.checked_mul(3).ok_or_else(|| too_many("triangles", n_triangles))?;
        let flat = slice(vertices, vlen, "vertices")?;
        let indices = slice(triangles, tlen, "triangles")?;
        let o = out(out_shape, "out_shape")?;
        let points: Vec<[f64; 3]> = flat.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        let mut tris = Vec::with_capacity(n_triangles);
        for (k, t) in indices.chunks_exact(3).enumerate() {
            let Some(&bad) = t.iter().find(|&&i| i < 0) else {
                tris.push([t[0] as u32, t[1] as u32, t[2] as u32]);
                continue;
            };
            return Err(Failure::new(MAXDYN_STATUS_INVALID_SHAPE, format!("argument `triangles`: triangle {k} names vertex {bad}, there are {n_vertices}")));
        }
        let id = with_mut(builder, "builder", |b| {
            let parent = parent_arg(body, b.inner.body_count(), "body")?;
            let (x, q) = ([pose[0], pose[1], pose[2]], [pose[3], pose[4], pose[5], pose[6]]);
            Ok(b.inner.add_trimesh_shape(parent, x, q, &points, &tris)?)
        })?;
        *o = count_i32(id);
        Ok(())
    })
}

/// Sets the surface friction coefficient of `shape` (finite, ≥ 0; 1 by default). A pair
/// of shapes uses the smaller of its two coefficients.
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_shape_friction(builder: *mut maxdyn_builder, shape: i32, mu: f64) -> maxdyn_status {
    call("maxdyn_builder_set_shape_friction", || {
        with_mut(builder, "builder", |b| {
            let s = shape_index(shape, b.inner.shape_count(), "shape")?;
            renamed(b.inner.set_shape_friction(s, mu), &[("friction", "mu")])
        })
    })
}

/// Sets the collision group bits of `shape` and the groups it collides with (`mask`):
/// two shapes collide when each one's `group` shares a bit with the other's `mask`
/// (default group 1, mask all bits).
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_collision_filter(builder: *mut maxdyn_builder, shape: i32, group: u32, mask: u32) -> maxdyn_status {
    call("maxdyn_builder_set_collision_filter", || {
        with_mut(builder, "builder", |b| {
            let s = shape_index(shape, b.inner.shape_count(), "shape")?;
            Ok(b.inner.set_collision_filter(s, group, mask)?)
        })
    })
}

/// Shapes `shape_a` and `shape_b` (two different shapes) never collide, whatever their
/// filters say. Excluding a pair twice is the same as once.
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_exclude_shape_pair(builder: *mut maxdyn_builder, shape_a: i32, shape_b: i32) -> maxdyn_status {
    call("maxdyn_builder_exclude_shape_pair", || {
        with_mut(builder, "builder", |b| {
            let n = b.inner.shape_count();
            let a = shape_index(shape_a, n, "shape_a")?;
            let c = shape_index(shape_b, n, "shape_b")?;
            Ok(b.inner.exclude_shape_pair(a, c)?)
        })
    })
}

/// The friction cone of every contact between collision shapes: `MAXDYN_CONE_LINEAR`
/// with `directions` even, 2 to 16 (4 by default), or `MAXDYN_CONE_NONLINEAR`
/// (`directions` ignored but ≥ 0; pass 0).
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_collision_cone(builder: *mut maxdyn_builder, cone_type: i32, directions: i32) -> maxdyn_status {
    call("maxdyn_builder_set_collision_cone", || {
        let cone = ConeType::from_i32(cone_type)
            .ok_or_else(|| Failure::invalid_enum("cone_type", cone_type, "cone type", "MAXDYN_CONE_LINEAR = 0, MAXDYN_CONE_NONLINEAR = 1"))?;
        let dirs = usize::try_from(directions).map_err(|_| {
            Failure::new(
                MAXDYN_STATUS_INVALID_ARGUMENT,
                format!("argument `directions` is {directions}: must be even, between 2 and {MAX_DIRECTIONS} (0 for the nonlinear cone)"),
            )
        })?;
        with_mut(builder, "builder", |b| Ok(b.inner.set_collision_cone(cone, dirs)?))
    })
}

/// Most contact slots (points between collision shapes) a step may hold at once. The
/// default is 40 per shape on a body, at least 64 (`maxdyn_model_get_contact_capacity`
/// reads it back). A saved state holds every slot, so its size
/// (`maxdyn_sim_state_size`) depends on the model alone; a step that needs more
/// slots is refused with `MAXDYN_STATUS_CONTACT_CAPACITY` and changes nothing. At most
/// 1 000 000.
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_contact_capacity(builder: *mut maxdyn_builder, slots: i32) -> maxdyn_status {
    call("maxdyn_builder_set_contact_capacity", || {
        let n = usize::try_from(slots).map_err(|_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `slots` is {slots}: must be ≥ 0")))?;
        with_mut(builder, "builder", |b| Ok(b.inner.set_contact_capacity(n)?))
    })
}

/// Whether the shapes of a joint's two bodies collide: 0 (default: they usually overlap
/// at the joint by design) or 1.
///
/// # Safety
/// `builder` is NULL or live.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_set_jointed_bodies_collide(builder: *mut maxdyn_builder, collide: i32) -> maxdyn_status {
    call("maxdyn_builder_set_jointed_bodies_collide", || {
        let collide = match collide {
            0 => false,
            1 => true,
            v => return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `collide` is {v}, expected 0 or 1"))),
        };
        with_mut(builder, "builder", |b| {
            b.inner.set_jointed_bodies_collide(collide);
            Ok(())
        })
    })
}

/// Number of collision shapes added so far, in `*out`.
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_get_shape_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    call("maxdyn_builder_get_shape_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(builder, "builder", |b| Ok(count_i32(b.inner.shape_count())))?;
        Ok(())
    })
}
