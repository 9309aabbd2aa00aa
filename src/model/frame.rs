//! Named frames fixed to a body or to the world: the links a URDF load merged into their
//! parent's body (or a root that became the world), and any frame a user names.

use super::BodyId;
use crate::math::{V3, V4};

/// A frame rigidly attached to `body` (None: the world) at position `x` and orientation
/// `q` (unit, w, x, y, z) in that body's frame (whose origin is the centre of mass).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub name: String,
    pub body: Option<BodyId>,
    pub x: V3,
    pub q: V4,
}
