//! Mechanism description: bodies, joints, contacts (with their shapes) and force-element
//! parameters, the
//! builder that validates them, and the compiled immutable model (graph, elimination
//! order, block layout). Descriptions only: the physics that uses them is in `joints`,
//! `forces`, `contact` and `integrator`.

pub mod addresses;
pub mod body;
pub mod builder;
mod builder_constraints;
mod builder_contacts;
mod builder_forces;
mod builder_shapes;
mod builder_universal;
pub mod collision;
pub mod contact;
pub mod coordinates;
pub mod floating_base;
pub mod forces;
mod fingerprint;
pub mod frame;
pub mod hull;
mod graph;
pub mod inertia;
pub mod joint_limits;
pub mod mimic;
pub mod model;
pub mod names;
pub mod shape;
mod size_bound;
pub mod terrain;

pub use body::Body;
pub use frame::Frame;
pub use joint_limits::JointLimit;
pub use mimic::Mimic;
pub use inertia::Inertia;
pub use builder::Builder;
pub use crate::error::{check_finite, Error, Result};
pub use model::{Model, Node};
pub use shape::{Shape, ShapeKind};
pub use collision::{Collision, CollisionShape, ShapeId, DEFAULT_SLOTS_PER_SHAPE, MAX_CONTACT_CAPACITY, MIN_DEFAULT_SLOTS};

/// The errors moved to the crate root (`crate::error`); this path keeps working.
pub mod error {
    pub use crate::error::{check_finite, Error, Result};
}

/// Body index.
pub type BodyId = usize;
/// Joint index.
pub type JointId = usize;

/// What a joint hangs from (its parent) or a point-to-point spring is anchored to: the
/// fixed world or a body. A [`BodyId`] converts into `Parent::Body`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parent {
    World,
    Body(BodyId),
}

impl From<BodyId> for Parent {
    fn from(body: BodyId) -> Parent {
        Parent::Body(body)
    }
}

impl Parent {
    /// The body, `None` for the world.
    pub fn body(self) -> Option<BodyId> {
        match self {
            Parent::World => None,
            Parent::Body(b) => Some(b),
        }
    }
}
