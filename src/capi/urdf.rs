//! `maxdyn_builder_from_urdf` and its variants: a builder loaded from a URDF file or
//! string (see `crate::urdf`), with options and the load's warnings.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

use super::builder::{maxdyn_builder, maxdyn_builder_new};
use super::error::{CResult, Failure};
use super::guard::call;
use super::status::maxdyn_status::{self, *};
use crate::urdf::{Urdf, UrdfOptions};

/// The largest URDF text read, from a file or a string (64 MB, in bytes); larger gives
/// `MAXDYN_STATUS_URDF`. example-robot-data's largest file is under 1 MB.
pub const MAXDYN_URDF_MAX_BYTES: u64 = 67_108_864;
/// The most attributes one element of a URDF may have; more gives `MAXDYN_STATUS_URDF`
/// naming the element and its line (real files have at most 12: the XML parser's check
/// for repeated attributes is quadratic in their count).
pub const MAXDYN_URDF_MAX_ATTRIBUTES: usize = 64;
/// The most `<link>` elements, and the most `<joint>` plus `<loop_joint>` elements, a URDF
/// may have; more gives `MAXDYN_STATUS_URDF` naming the cap (a 10 000-link chain loads in
/// 0.2 s; example-robot-data's largest robot has 130 links).
pub const MAXDYN_URDF_MAX_LINKS: usize = 10_000;
const _: () = assert!(
    MAXDYN_URDF_MAX_BYTES == crate::urdf::MAX_FILE_BYTES && MAXDYN_URDF_MAX_ATTRIBUTES == crate::urdf::MAX_ATTRIBUTES && MAXDYN_URDF_MAX_LINKS == crate::urdf::MAX_LINKS
);

/// How a URDF becomes a model (`maxdyn_builder_from_urdf_with`,
/// `maxdyn_builder_from_urdf_string_with`). Start from `maxdyn_urdf_options_default()`
/// and change the fields you need. Fields are only ever added at the end.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct maxdyn_urdf_options {
    /// 0 (default): the root link is the world; 1: the root is a free body (a massless
    /// root's single fixed or floating child becomes the free body).
    pub floating: i32,
    /// 1 (default): links on fixed joints are merged into their parent's body (exact
    /// mass, centre of mass and inertia) and kept as named frames; 0: every link with
    /// mass is a body and fixed joints weld them.
    pub merge_fixed: i32,
    /// 1 (default): `<limit>` bounds revolute and prismatic joints; 0: the file's limits
    /// are not read.
    pub joint_limits: i32,
    /// 0 (default): no collision shapes; 1: `<collision>` spheres, boxes, cylinders,
    /// capsules and meshes (their convex hulls; files found through `mesh_roots`) become
    /// collision shapes on their links' bodies.
    pub collision: i32,
    /// 0 (default): no ground; 1: a world half-space below z = 0 (the ground).
    pub ground_plane: i32,
    /// 0 (default): the robot's shapes collide only with the world's (the ground); 1:
    /// also with each other (never those of one joint's two bodies).
    pub self_collision: i32,
    /// 0 (default): no bound; > 0: each link with an `<inertial>` and less mass (kg) gets
    /// this much, with a warning naming it (MuJoCo's `boundmass`). Finite and ≥ 0, else
    /// `MAXDYN_STATUS_INVALID_ARGUMENT`.
    pub bound_mass: f64,
    /// 0 (default): no bound; > 0: each link's principal moments of inertia (kg m^2) below
    /// it (negative ones of a defective file, zero ones of a point mass) are raised to it
    /// about the link's principal axes, with a warning naming the link (MuJoCo's
    /// `boundinertia`). Finite and ≥ 0, else `MAXDYN_STATUS_INVALID_ARGUMENT`.
    pub bound_inertia: f64,
    /// NULL (default), or the path (NUL-terminated) of an SRDF file whose
    /// `<disable_collisions link1 link2>` pairs never collide: every collision shape of
    /// link1 against every one of link2 (as Pinocchio's `removeCollisionPairs`). A link
    /// the model does not have is a warning; a file that cannot be read or is malformed
    /// gives `MAXDYN_STATUS_URDF`. At most one of `srdf_path` and `srdf_string`.
    pub srdf_path: *const c_char,
    /// NULL (default), or SRDF text (NUL-terminated, UTF-8), as `srdf_path`.
    pub srdf_string: *const c_char,
    /// NULL (default) or a NUL-terminated list of directories separated by `:`, searched
    /// for `<mesh filename>` files (`package://pkg/…` as `dir/pkg/…`, or `dir/…` for a
    /// directory named `pkg`; relative and absolute paths) after the URDF file's directory
    /// and its ancestors and before the directories of the environment variable
    /// `MAXDYN_PACKAGE_PATH`. A mesh resolving outside its directory is refused. Read
    /// during the call only.
    pub mesh_roots: *const c_char,
    /// 0 (default): every `<mesh>` collision is its convex hull; 1: the meshes of links
    /// fixed to the world (a fixed base's root and the links merged into it; an
    /// environment's parts) are triangle meshes (`MAXDYN_SHAPE_TRIMESH`), so bodies touch
    /// their concave insides (a bowl, a room). Needs `collision`.
    pub world_meshes_as_trimesh: i32,
}

/// The default URDF options: fixed base, fixed links merged, joint limits read, no
/// collision shapes, no ground.
#[no_mangle]
pub extern "C" fn maxdyn_urdf_options_default() -> maxdyn_urdf_options {
    let o = UrdfOptions::default();
    maxdyn_urdf_options {
        floating: i32::from(o.floating),
        merge_fixed: i32::from(o.merge_fixed),
        joint_limits: i32::from(o.joint_limits),
        collision: i32::from(o.collision),
        ground_plane: i32::from(o.ground_plane),
        self_collision: i32::from(o.self_collision),
        bound_mass: o.bound_mass,
        bound_inertia: o.bound_inertia,
        srdf_path: std::ptr::null(),
        srdf_string: std::ptr::null(),
        mesh_roots: std::ptr::null(),
        world_meshes_as_trimesh: i32::from(o.world_meshes_as_trimesh),
    }
}

/// A 0/1 flag argument.
fn flag(v: i32, arg: &str) -> CResult<bool> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is {v}, expected 0 or 1"))),
    }
}

/// Where an SRDF comes from (`maxdyn_urdf_options.srdf_path` or `.srdf_string`).
enum SrdfArg<'a> {
    File(PathBuf),
    Text(&'a str),
}

/// A bound option: finite and ≥ 0.
fn bound(v: f64, arg: &str) -> CResult<f64> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is {v}, expected a finite number ≥ 0 (0: no bound)")))
    }
}

/// # Safety
/// `options` is NULL or readable, its SRDF strings NULL or NUL-terminated.
unsafe fn options_arg<'a>(options: *const maxdyn_urdf_options) -> CResult<(UrdfOptions, Option<SrdfArg<'a>>)> {
    if options.is_null() {
        return Err(Failure::null("options"));
    }
    let o = *options;
    let srdf = match (o.srdf_path.is_null(), o.srdf_string.is_null()) {
        (true, true) => None,
        (false, true) => Some(SrdfArg::File(path_arg(o.srdf_path, "options.srdf_path")?)),
        (true, false) => Some(SrdfArg::Text(text_arg(o.srdf_string, "options.srdf_string")?)),
        (false, false) => return Err(Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, "arguments `options.srdf_path` and `options.srdf_string` are both set: give at most one")),
    };
    let options = UrdfOptions {
        floating: flag(o.floating, "options.floating")?,
        merge_fixed: flag(o.merge_fixed, "options.merge_fixed")?,
        joint_limits: flag(o.joint_limits, "options.joint_limits")?,
        collision: flag(o.collision, "options.collision")?,
        ground_plane: flag(o.ground_plane, "options.ground_plane")?,
        self_collision: flag(o.self_collision, "options.self_collision")?,
        bound_mass: bound(o.bound_mass, "options.bound_mass")?,
        bound_inertia: bound(o.bound_inertia, "options.bound_inertia")?,
        mesh_roots: if o.mesh_roots.is_null() { Vec::new() } else { std::env::split_paths(text_arg(o.mesh_roots, "options.mesh_roots")?).collect() },
        world_meshes_as_trimesh: flag(o.world_meshes_as_trimesh, "options.world_meshes_as_trimesh")?,
    };
    Ok((options, srdf))
}

/// Applies the SRDF the options name to a loaded URDF (its warnings join the load's).
fn apply_srdf(urdf: &mut Urdf, srdf: Option<SrdfArg>) -> CResult<()> {
    match srdf {
        None => {}
        Some(SrdfArg::File(path)) => {
            urdf.apply_srdf_file(&path)?;
        }
        Some(SrdfArg::Text(text)) => {
            urdf.apply_srdf(text)?;
        }
    }
    Ok(())
}

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `s` is NULL or NUL-terminated.
unsafe fn text_arg<'a>(s: *const c_char, arg: &str) -> CResult<&'a str> {
    if s.is_null() {
        return Err(Failure::null(arg));
    }
    CStr::from_ptr(s).to_str().map_err(|_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is not valid UTF-8")))
}

/// Moves a loaded URDF into a new builder in `*out`; writes its warnings, one per line,
/// into the caller's buffer (see `maxdyn_builder_from_urdf_with`).
///
/// # Safety
/// `out` is writable; `warnings` is NULL or holds `capacity` bytes; `length` is NULL or writable.
unsafe fn hand_over(urdf: Urdf, out: &mut *mut maxdyn_builder, warnings: *mut c_char, capacity: usize, length: *mut usize) -> CResult<()> {
    if warnings.is_null() && capacity > 0 {
        return Err(Failure::null("warnings"));
    }
    let text = urdf.warnings.join("\n");
    let mut b: *mut maxdyn_builder = std::ptr::null_mut();
    let status = maxdyn_builder_new(&mut b);
    if status != MAXDYN_STATUS_OK || b.is_null() {
        return Err(Failure::new(status, "cannot create the builder"));
    }
    // the new builder is live and counted; it takes the loaded description
    (*b).inner = urdf.builder;
    *out = b;
    if capacity > 0 {
        let n = text.len().min(capacity - 1);
        std::ptr::copy_nonoverlapping(text.as_ptr(), warnings.cast::<u8>(), n);
        *warnings.add(n) = 0;
    }
    if !length.is_null() {
        *length = text.len();
    }
    Ok(())
}

/// The file path as the OS sees it: any bytes on Unix, UTF-8 elsewhere.
pub(super) unsafe fn path_arg(path: *const c_char, arg: &str) -> Result<PathBuf, Failure> {
    if path.is_null() {
        return Err(Failure::null(arg));
    }
    let bytes = CStr::from_ptr(path).to_bytes();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes)
            .map(PathBuf::from)
            .map_err(|_| Failure::new(MAXDYN_STATUS_INVALID_ARGUMENT, format!("argument `{arg}` is not valid UTF-8")))
    }
}

/// Loads the URDF file at `path` (NUL-terminated) into a new builder in `*out`, with
/// the default options (`maxdyn_urdf_options_default`: fixed links merged) and `floating`.
///
/// Bodies are the links with mass, in file order; links on fixed joints are merged
/// into their parent's body (its frame at the group's centre of mass with the top
/// link's orientation). Joints are the moving `<joint>` elements, in file order, then
/// the `<loop_joint>` elements. Body and joint names are the URDF names, and every link
/// is a named frame of the builder on its body (or the world). Bodies start posed at
/// zero joint angles. Joint types: revolute and continuous → revolute, prismatic, fixed,
/// floating, planar (→ `MAXDYN_JOINT_PLANAR_AXIS`), and the non-standard `ball` →
/// spherical. `<limit>` and `<mimic>` become the builder's joint limits and mimics.
/// With `floating` = 0 the root link is the world; with 1 it is a free body (a massless
/// root's single fixed or floating child becomes the free body). A file that cannot be
/// read, is malformed, or describes no rigid body (a negative principal moment, a point
/// mass or mass-0 inertia that is a body alone, a massless link between moving joints)
/// gives `MAXDYN_STATUS_URDF` with a message naming the element; so does a `<link>`,
/// `<joint>` or `<loop_joint>` whose `name` is empty, and a file beyond the caps
/// (`MAXDYN_URDF_MAX_BYTES`, `MAXDYN_URDF_MAX_ATTRIBUTES` on one element,
/// `MAXDYN_URDF_MAX_LINKS` links or joints), naming the cap. Warnings: see
/// `maxdyn_builder_from_urdf_with`.
///
/// # Safety
/// `path` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_from_urdf(path: *const c_char, floating: i32, out: *mut *mut maxdyn_builder) -> maxdyn_status {
    call("maxdyn_builder_from_urdf", || {
        let path = path_arg(path, "path")?;
        let floating = flag(floating, "floating")?;
        let o = super::args::out(out, "out")?;
        let urdf = Urdf::from_file(&path, floating)?;
        hand_over(urdf, o, std::ptr::null_mut(), 0, std::ptr::null_mut())
    })
}

/// Loads URDF text `xml` (NUL-terminated, UTF-8) into a new builder in `*out`, with the
/// default options and `floating` (0 or 1) as in `maxdyn_builder_from_urdf`, with the same
/// caps: text longer than `MAXDYN_URDF_MAX_BYTES` gives `MAXDYN_STATUS_URDF`.
///
/// # Safety
/// `xml` is NULL or a NUL-terminated string; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_from_urdf_string(xml: *const c_char, floating: i32, out: *mut *mut maxdyn_builder) -> maxdyn_status {
    call("maxdyn_builder_from_urdf_string", || {
        let xml = text_arg(xml, "xml")?;
        let floating = flag(floating, "floating")?;
        let o = super::args::out(out, "out")?;
        let urdf = Urdf::from_str(xml, floating)?;
        hand_over(urdf, o, std::ptr::null_mut(), 0, std::ptr::null_mut())
    })
}

/// Loads the URDF file at `path` with `*options` into a new builder in `*out`. The
/// load's warnings (what the file asks for that is not simulated as written: joint
/// friction, `<limit lower=upper=0>` read as no limit, massless subtrees left out,
/// mimics not applied, inertias violating the triangle inequality, collision meshes
/// and refused collision shapes skipped), one per line, are
/// written NUL-terminated into `warnings` (at most `warnings_capacity` bytes, truncated;
/// NULL with capacity 0 skips them), and their full length in bytes without the NUL
/// into `*warnings_length` (NULL skips it): call again with a larger buffer if it did not fit.
/// Nothing is written on failure.
///
/// # Safety
/// `path` is NULL or NUL-terminated; `options` is NULL or readable; `out` is NULL or
/// writable; `warnings` is NULL or holds `warnings_capacity` writable bytes;
/// `warnings_length` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_from_urdf_with(
    path: *const c_char,
    options: *const maxdyn_urdf_options,
    out: *mut *mut maxdyn_builder,
    warnings: *mut c_char,
    warnings_capacity: usize,
    warnings_length: *mut usize,
) -> maxdyn_status {
    call("maxdyn_builder_from_urdf_with", || {
        let path = path_arg(path, "path")?;
        let (options, srdf) = options_arg(options)?;
        let o = super::args::out(out, "out")?;
        if warnings.is_null() && warnings_capacity > 0 {
            return Err(Failure::null("warnings"));
        }
        let mut urdf = Urdf::from_file_with(&path, &options)?;
        apply_srdf(&mut urdf, srdf)?;
        hand_over(urdf, o, warnings, warnings_capacity, warnings_length)
    })
}

/// `maxdyn_builder_from_urdf_with` for URDF text `xml` (NUL-terminated, UTF-8).
///
/// # Safety
/// As `maxdyn_builder_from_urdf_with`, with `xml` NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_from_urdf_string_with(
    xml: *const c_char,
    options: *const maxdyn_urdf_options,
    out: *mut *mut maxdyn_builder,
    warnings: *mut c_char,
    warnings_capacity: usize,
    warnings_length: *mut usize,
) -> maxdyn_status {
    call("maxdyn_builder_from_urdf_string_with", || {
        let xml = text_arg(xml, "xml")?;
        let (options, srdf) = options_arg(options)?;
        let o = super::args::out(out, "out")?;
        if warnings.is_null() && warnings_capacity > 0 {
            return Err(Failure::null("warnings"));
        }
        let mut urdf = Urdf::from_str_with(xml, &options)?;
        apply_srdf(&mut urdf, srdf)?;
        hand_over(urdf, o, warnings, warnings_capacity, warnings_length)
    })
}
