//! Mechanism description: bodies, joints, contacts and force-element parameters, the
//! builder that validates them, and the compiled immutable model (graph, elimination
//! order, block layout). Descriptions only: the physics that uses them is in `joints`,
//! `forces`, `contact` and `integrator`.

pub mod addresses;
pub mod body;
pub mod builder;
mod builder_contacts;
mod builder_forces;
pub mod contact;
pub mod forces;
mod graph;
pub mod model;

pub use body::{box_inertia, capsule_inertia, cylinder_inertia, sphere_inertia, Body};
pub use builder::Builder;
pub use crate::error::{check_finite, Error, Result};
pub use model::{Model, Node};

/// The errors moved to the crate root (`crate::error`); this path keeps working.
pub mod error {
    pub use crate::error::{check_finite, Error, Result};
}

/// Body index.
pub type BodyId = usize;
/// Joint index.
pub type JointId = usize;
/// The world as a joint parent in the C ABI and in [`Builder::add_joint`].
pub const WORLD: i32 = -1;
