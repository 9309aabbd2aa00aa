//! Mechanism description: bodies, joints, the builder that validates them, and the
//! compiled immutable model (graph, elimination order, block layout).

pub mod addresses;
pub mod body;
pub mod builder;
pub mod error;
pub mod model;

pub use body::{box_inertia, capsule_inertia, cylinder_inertia, sphere_inertia, Body};
pub use builder::Builder;
pub use error::{Error, Result};
pub use model::{Model, Node};

/// Body index.
pub type BodyId = usize;
/// Joint index.
pub type JointId = usize;
/// The world as a joint parent in the C ABI and in [`Builder::add_joint`].
pub const WORLD: i32 = -1;
