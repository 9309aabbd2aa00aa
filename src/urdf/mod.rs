//! URDF → [`Builder`] (docs/URDF.md has the whole story and the corpus table).
//!
//! Read: `<link>` with `<inertial>` (origin xyz/rpy, mass, inertia), `<joint>` of type
//! revolute, continuous (both → Revolute), prismatic, fixed, floating, planar (URDF's
//! 3-DOF planar → PlanarAxis), the non-standard `ball` (→ Spherical), and the
//! non-standard `<loop_joint>` element of ConstrainedDynamics/Dojo that closes kinematic
//! loops. `<limit lower upper>` of revolute and prismatic joints becomes
//! [`Builder::set_joint_limits`] (`lower == upper == 0`: no limit, with a warning);
//! `<mimic joint multiplier offset>` becomes [`Builder::add_mimic`]; `<dynamics damping>`
//! a joint damper on each free direction; `friction` is not simulated and is listed in
//! [`Urdf::warnings`]. Joints without an axis of motion ignore `<axis>`.
//!
//! Fixed joints ([`UrdfOptions::merge_fixed`], default): the links of each group joined
//! by fixed joints become one body, named by the group's top link, with the exact total
//! mass, centre of mass and inertia (parallel-axis sum, rotated into the top link's
//! orientation); the body frame is at that centre with the top link's orientation. With
//! `merge_fixed: false` every link with mass is a body and fixed joints weld them. Either
//! way every link is a named frame ([`Builder::add_frame`], [`Urdf::frames`]): its link
//! frame in its body's frame (centre of mass) or in the world.
//!
//! Links without mass: a frame when fixed to a body or the world; left out, with a
//! warning, when nothing below its moving joint has mass or inertia (no dynamics);
//! between revolute joints whose axes meet at a point (it, or a point mass at the
//! crossing, carries no inertia), the joints through it become one universal or spherical
//! joint (`compose`); refused between other moving joints with mass below. A link
//! with mass 0 and a nonzero inertia keeps it when merged and is refused as a body alone;
//! a point mass (zero inertia) is exact when merged and refused as a body alone (a body
//! needs a positive definite rotational inertia); a negative principal moment is refused.
//!
//! The loop joint:
//!
//! ```xml
//! <loop_joint name="j" type="continuous">
//!   <axis xyz="1 0 0"/>                         <!-- in the joint frame -->
//!   <link1 link="a" xyz="0 0 -1" rpy="0 0 0"/>  <!-- joint frame in link a -->
//!   <link2 link="b" xyz="0 0 -1" rpy="0 0 0"/>  <!-- joint frame in link b -->
//! </loop_joint>
//! ```
//!
//! The two joint frames coincide at zero joint coordinates (ConstrainedDynamics ignores
//! link2's `rpy`; we honour it, which is the same when it is zero).
//!
//! Bodies are placed from the joint origins at zero joint coordinates. A loop joint is
//! not used for placement, so a loop that does not close at zero coordinates starts
//! violated (the four-bar model does): pose it with `Sim::set_joint_position` first.
//!
//! The root link: with `floating == false` it is the world (its inertia, and that of the
//! links merged into it, is counted in [`Urdf::world_mass`] and not simulated). With
//! `floating == true` it is a free body with no joint to the world; a massless root
//! (such as `base` in the A1 quadruped) then needs exactly one fixed or floating child
//! joint, which is dropped so that its child becomes the free body. The free body is a
//! floating base of the minimal coordinates, with the root link's frame as its reference
//! ([`Builder::set_base_frame`]), as Pinocchio's free-flyer has it.
//!
//! Pipeline: `parse` (XML → description) → `bounds` (links' masses and principal moments
//! raised to [`UrdfOptions::bound_mass`] / `bound_inertia` when asked; then the moments
//! are checked) → `merge` (fixed groups → one link each) →
//! `massless` (massless subtrees out) → `compose` (revolutes through massless links whose
//! axes meet → one universal or spherical joint) → `assemble` (bodies, joints, frames) →
//! `limits` → `collision` (`<collision>` → collision shapes and the ground, when
//! [`UrdfOptions`] ask for them; docs/COLLISION.md). An SRDF's `<disable_collisions>`
//! applies afterwards (`srdf`, [`Urdf::apply_srdf`]).

mod assemble;
mod bounds;
mod caps;
mod collision;
mod compose;
mod frames;
mod inertial;
mod limits;
mod massless;
mod merge;
pub mod mesh;
mod parse;
mod srdf;
mod tree;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use caps::{MAX_ATTRIBUTES, MAX_FILE_BYTES, MAX_LINKS};
pub use frames::rpy_quaternion;
pub use srdf::SrdfReport;

use crate::model::{BodyId, Builder, Error, JointId, Parent, Result, ShapeId};

/// A link's frame: where it is attached rigidly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkFrame {
    /// None: the world.
    pub body: Option<BodyId>,
    /// Position of the link frame in the body frame (world frame for the world).
    pub x: [f64; 3],
    /// Orientation (w, x, y, z) of the link frame in the body frame.
    pub q: [f64; 4],
}

/// How a URDF becomes a model.
#[derive(Debug, Clone, PartialEq)]
pub struct UrdfOptions {
    /// false: the root link is the world; true: the root is a free body.
    pub floating: bool,
    /// true (default): links on fixed joints are merged into their parent's body (exact
    /// mass, centre of mass and inertia) and kept as named frames; false: each massive
    /// link is a body and fixed joints weld them.
    pub merge_fixed: bool,
    /// true (default): `<limit lower upper>` bounds revolute and prismatic joints;
    /// false: the file's limits are not read (e.g. a controller tuned without them).
    pub joint_limits: bool,
    /// true: `<collision>` spheres, boxes, cylinders, capsules and meshes (as their convex
    /// hulls, `mesh`) become collision shapes on their links' bodies; false (default): none.
    pub collision: bool,
    /// true: a world half-space below z = 0 (the ground) collides with the robot's shapes;
    /// false (default): no ground.
    pub ground_plane: bool,
    /// true: the robot's shapes on different bodies collide with each other (never those
    /// of one joint's two bodies); false (default): only with the world's shapes (the ground).
    pub self_collision: bool,
    /// Lower bound on each link's mass (kg; 0, the default: none), as MuJoCo's
    /// `boundmass`: a link with an `<inertial>` and less mass gets this much, with a
    /// warning naming it (`bounds.rs`).
    pub bound_mass: f64,
    /// Lower bound on each link's principal moments of inertia (kg·m²; 0, the default:
    /// none), as MuJoCo's `boundinertia`: moments below it (negative ones of a defective
    /// file, zero ones of a point mass) are raised to it about the link's principal axes,
    /// with a warning naming the link.
    pub bound_inertia: f64,
    /// Directories searched for `<mesh filename>` files (`package://` packages, relative
    /// and absolute paths), after the URDF file's own directory and its ancestors and
    /// before those of the environment variable `MAXDYN_PACKAGE_PATH` (`mesh` module).
    pub mesh_roots: Vec<PathBuf>,
    /// true: the `<mesh>` collisions of links fixed to the world (a fixed base's root and
    /// the links merged into it through fixed joints; an environment's parts) are
    /// triangle meshes, touching on their concave insides; false (default): convex hulls
    /// like every other mesh. Needs `merge_fixed` for links welded to the root (unmerged,
    /// they are bodies, whose meshes stay hulls).
    pub world_meshes_as_trimesh: bool,
}

impl Default for UrdfOptions {
    fn default() -> Self {
        UrdfOptions { floating: false, merge_fixed: true, joint_limits: true, collision: false, ground_plane: false, self_collision: false, bound_mass: 0.0, bound_inertia: 0.0, mesh_roots: Vec::new(), world_meshes_as_trimesh: false }
    }
}

/// A loaded URDF: the builder and name → id maps.
#[derive(Debug, Clone)]
pub struct Urdf {
    /// The `<robot name>`.
    pub name: String,
    pub builder: Builder,
    /// Link name → body (the links that are bodies; a merged group is named by its top link).
    pub bodies: HashMap<String, BodyId>,
    /// Joint and loop-joint name → joint (fixed joints that only carry a massless or
    /// merged link, and the root joint dropped for a floating base, are not joints).
    pub joints: HashMap<String, JointId>,
    /// Every simulated link's frame: on its body (relative to the centre of mass), or on
    /// the world for a root that became the world and the links merged into it. The same
    /// frames are in the builder (`Builder::frames`), named by link.
    pub frames: HashMap<String, LinkFrame>,
    /// Link name → the collision shapes made from its `<collision>` elements (when
    /// [`UrdfOptions::collision`]), in file order; what [`Urdf::apply_srdf`] excludes by.
    pub link_shapes: HashMap<String, Vec<ShapeId>>,
    /// Mass of the root link, and of the links merged into it, when it is the world (not simulated).
    pub world_mass: f64,
    /// What the file asks for that is not simulated as written, one message each: joint
    /// friction, `<limit lower=upper=0>`, massless subtrees left out, mimics not applied,
    /// inertias that violate the triangle inequality, collision meshes and refused
    /// collision shapes skipped.
    pub warnings: Vec<String>,
}

impl Urdf {
    /// Parses URDF text: the root is the world unless `floating`; fixed links merged.
    pub fn from_str(xml: &str, floating: bool) -> Result<Urdf> {
        Urdf::from_str_with(xml, &UrdfOptions { floating, ..UrdfOptions::default() })
    }

    /// Reads and parses a URDF file (see [`Urdf::from_str`]).
    pub fn from_file(path: impl AsRef<Path>, floating: bool) -> Result<Urdf> {
        Urdf::from_file_with(path, &UrdfOptions { floating, ..UrdfOptions::default() })
    }

    /// Parses URDF text with `options`. Text beyond [`MAX_FILE_BYTES`], an element with
    /// more than [`MAX_ATTRIBUTES`] attributes and more than [`MAX_LINKS`] links or joints
    /// are refused (`caps`).
    pub fn from_str_with(xml: &str, options: &UrdfOptions) -> Result<Urdf> {
        Urdf::from_str_in(xml, options, None)
    }

    /// [`Urdf::from_str_with`] for the text of a file in directory `dir` (where its meshes
    /// are searched first).
    fn from_str_in(xml: &str, options: &UrdfOptions, dir: Option<&Path>) -> Result<Urdf> {
        caps::check_size(xml.len(), "the URDF text")?;
        bounds::check(options.bound_mass, options.bound_inertia)?;
        let mut d = parse::parse(xml)?;
        let raised = bounds::raise(&mut d, options.bound_mass, options.bound_inertia);
        parse::check_inertias(&d)?;
        let mut warnings = inertia_warnings(&d);
        warnings.extend(raised);
        let (merged_d, merged) = if options.merge_fixed { merge::merge_fixed(&d)? } else { (d.clone(), Vec::new()) };
        let kept = massless::drop_massless_subtrees(&merged_d, &mut warnings)?;
        let composed = compose::compose_massless_links(&kept, &mut warnings)?;
        let mut u = assemble::assemble(&composed, options.floating)?;
        warnings.append(&mut u.warnings);
        u.warnings = warnings;
        for m in &merged {
            // an anchor without a frame was left out with its massless subtree, and so is m
            let Some(anchor) = u.frames.get(&m.anchor).copied() else { continue };
            let pose = frames::compose(&frames::pose(&anchor), &m.in_anchor);
            u.frames.insert(m.name.clone(), LinkFrame { body: anchor.body, x: pose.x.into(), q: pose.q.into() });
        }
        limits::apply(&mut u, &d, options.joint_limits)?;
        for l in &d.links {
            if let Some(f) = u.frames.get(&l.name) {
                let on = f.body.map_or(Parent::World, Parent::Body);
                u.builder.add_frame(&l.name, on, f.x, f.q).map_err(|e| refused_by_builder(&format!("link `{}` frame", l.name), e))?;
            }
        }
        if options.floating {
            // the free root's minimal coordinates are those of the root link's frame, as in
            // Pinocchio's free-flyer (not of its body's centre of mass)
            let root = d.links.iter().find(|l| !d.joints.iter().any(|j| j.child == l.name));
            if let Some(f) = root.and_then(|l| u.frames.get(&l.name)).copied() {
                if let Some(body) = f.body {
                    u.builder.set_base_frame(body, f.x, f.q).map_err(|e| refused_by_builder("root link frame", e))?;
                }
            }
        }
        collision::add_shapes(&mut u, &d, xml, options, dir)?;
        Ok(u)
    }

    /// Reads and parses a URDF file with `options`. Files beyond [`MAX_FILE_BYTES`] are
    /// refused before they are read whole (a path to an endless stream such as
    /// /dev/zero would otherwise be read until memory runs out).
    pub fn from_file_with(path: impl AsRef<Path>, options: &UrdfOptions) -> Result<Urdf> {
        let path = path.as_ref();
        let text = read_text(path)?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Urdf::from_str_in(&text, options, Some(dir))
    }

    /// The body whose top link is `link` (see [`Urdf::body_of`] for any link).
    pub fn body(&self, link: &str) -> Option<BodyId> {
        self.bodies.get(link).copied()
    }

    /// Joint by name.
    pub fn joint(&self, name: &str) -> Option<JointId> {
        self.joints.get(name).copied()
    }

    /// A link's frame by name.
    pub fn frame(&self, link: &str) -> Option<LinkFrame> {
        self.frames.get(link).copied()
    }

    /// The body that carries a link (its own, or the one it was merged into); None for a
    /// link of the world or one not in the model.
    pub fn body_of(&self, link: &str) -> Option<BodyId> {
        self.frames.get(link).and_then(|f| f.body)
    }

    /// Sum of the simulated bodies' masses.
    pub fn body_mass(&self) -> f64 {
        (0..self.builder.body_count()).filter_map(|i| self.builder.body(i).ok()).map(|b| b.mass).sum()
    }
}

/// The text of a URDF or SRDF file, refused beyond [`MAX_FILE_BYTES`] before it is read
/// whole (a path to an endless stream such as /dev/zero would otherwise be read until
/// memory runs out).
pub(super) fn read_text(path: &Path) -> Result<String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| Error::Urdf(format!("cannot read `{}`: {e}", path.display()));
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(cannot)?.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    caps::check_size(bytes.len(), &format!("`{}`", path.display()))?;
    String::from_utf8(bytes).map_err(|e| Error::Urdf(format!("`{}` is not UTF-8 text: {e}", path.display())))
}

/// A builder's refusal of what the element `what` describes. The builder names its own
/// arguments ("argument `inertia` is not finite"), which a URDF does not have: the
/// message names the element and the quantity.
pub(super) fn refused_by_builder(what: &str, e: Error) -> Error {
    Error::Urdf(format!("{what}: {}", e.to_string().replace("invalid argument `", "invalid `").replace("argument `", "`")))
}

/// One warning per link whose inertia violates the triangle inequality (kept as given).
fn inertia_warnings(d: &parse::Description) -> Vec<String> {
    d.links
        .iter()
        .filter(|l| l.inertial.as_ref().is_some_and(|i| inertial::violates_triangle_inequality(&i.inertia)))
        .map(|l| format!("link `{}`: its principal moments violate the triangle inequality (no rigid body has them); simulated as given", l.name))
        .collect()
}
