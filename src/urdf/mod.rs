//! URDF → [`Builder`].
//!
//! Supported: `<link>` with `<inertial>` (origin xyz/rpy, mass, inertia), `<joint>` of
//! type revolute, continuous (both → Revolute; limits are not read), prismatic, fixed,
//! floating, planar (URDF's 3-DOF planar → PlanarAxis), the non-standard `ball`
//! (→ Spherical), and the non-standard `<loop_joint>` element of ConstrainedDynamics/Dojo
//! that closes kinematic loops. A joint's `<dynamics damping>` becomes a joint damper on
//! each of its free directions; `friction` is not simulated and is listed in
//! [`Urdf::warnings`]. Joints without an axis of motion ignore `<axis>`. The loop joint:
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
//! The root link: with `floating == false` it is the world (its inertia, if any, is
//! counted in [`Urdf::world_mass`] and not simulated). With `floating == true` it is a
//! free body with no joint to the world; a massless root (such as `base` in the A1
//! quadruped) then needs exactly one fixed or floating child joint, which is dropped so
//! that its child becomes the free body.

mod assemble;
mod frames;
mod parse;

use std::collections::HashMap;
use std::path::Path;

pub use frames::rpy_quaternion;

use crate::model::{BodyId, Builder, Error, JointId, Result};

/// A massless link: a frame fixed to a body (or to the world).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinkFrame {
    /// None: the world.
    pub body: Option<BodyId>,
    /// Position of the link frame in the body frame (world frame for the world).
    pub x: [f64; 3],
    /// Orientation (w, x, y, z) of the link frame in the body frame.
    pub q: [f64; 4],
}

/// A loaded URDF: the builder and name → id maps.
#[derive(Debug, Clone)]
pub struct Urdf {
    /// The `<robot name>`.
    pub name: String,
    pub builder: Builder,
    /// Link name → body (links with mass, except a root that became the world).
    pub bodies: HashMap<String, BodyId>,
    /// Joint and loop-joint name → joint (fixed joints that only carry a massless link,
    /// and the root joint dropped for a floating base, are not joints).
    pub joints: HashMap<String, JointId>,
    /// Massless links (and a root that became the world): where they are attached.
    pub frames: HashMap<String, LinkFrame>,
    /// Mass of a root link that became the world (not simulated).
    pub world_mass: f64,
    /// What the file asks for that is not simulated, one message each (joint friction).
    pub warnings: Vec<String>,
}

impl Urdf {
    /// Parses URDF text.
    pub fn from_str(xml: &str, floating: bool) -> Result<Urdf> {
        let d = parse::parse(xml)?;
        assemble::assemble(&d, floating)
    }

    /// Reads and parses a URDF file.
    pub fn from_file(path: impl AsRef<Path>, floating: bool) -> Result<Urdf> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::Urdf(format!("cannot read `{}`: {e}", path.display())))?;
        Urdf::from_str(&text, floating)
    }

    /// Body of a link by name.
    pub fn body(&self, link: &str) -> Option<BodyId> {
        self.bodies.get(link).copied()
    }

    /// Joint by name.
    pub fn joint(&self, name: &str) -> Option<JointId> {
        self.joints.get(name).copied()
    }

    /// Sum of the simulated bodies' masses.
    pub fn body_mass(&self) -> f64 {
        (0..self.builder.body_count()).filter_map(|i| self.builder.body(i).ok()).map(|b| b.mass).sum()
    }
}
