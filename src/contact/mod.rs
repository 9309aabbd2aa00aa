//! Rigid contacts with friction (paper section 2 "Contacts and inequality constraints",
//! sections 3.3–3.4, appendices C–D).
//!
//! A contact is one inequality constraint φ(z_{k+2}) ≥ 0 ⊥ γ ≥ 0 with a friction model.
//! Each contact is one node of the mechanism graph; its slacks and cone variables are
//! condensed inside the node ([`node`]) so the graph LDU sees one block per contact
//! (paper section 4, first paragraph).
//!
//! * [`broad_phase`]: sort and sweep over the shapes' bounding boxes: the candidate
//!   pairs for the narrow phase without an n² loop.
//! * [`geometry`]: the narrow phase (one function per shape pair: half-spaces, spheres,
//!   capsules, boxes, cylinders), the contact points' gaps and their velocity Jacobians at
//!   z_{k+2}, and the force/slip maps at the contact point at z_{k+1}.
//! * [`cone`]: friction cones (linearized with an even number of directions built from the
//!   normal, or the second-order cone) as local residual/Jacobian of the node's variables.
//! * [`node`]: the per-contact condensed Newton block and the interior-point helpers
//!   (fraction-to-boundary, complementarity).
//! * [`body_lists`]: each body's contacts, for passes that visit a body's contacts
//!   together in linear time.
//!
//! The descriptions ([`Contact`], [`ConeType`], the shapes [`geometry::Shape`]) live in
//! `crate::model::contact` and `crate::model::shape`; they are re-exported here.

pub mod body_lists;
pub mod broad_phase;
mod condense;
pub mod cone;
pub mod geometry;
pub mod node;

pub use crate::model::contact::{ConeType, Contact, ContactId, MAX_DIRECTIONS};

impl Contact {
    /// The cone layout this contact uses (frictionless when μ = 0).
    pub fn layout(&self) -> cone::Layout {
        let layout = cone::Layout::of(self);
        debug_assert_eq!(layout.nk, self.node_size(), "the model's node size is the layout's kept variables");
        layout
    }
}
