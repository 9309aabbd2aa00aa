//! Collision shapes: geometry attached to bodies (or the world) that the step searches for
//! contacts every step — the broad phase over their boxes, then one narrow-phase function
//! per shape pair (`contact::geometry::pairs`). Unlike a contact description
//! (`model::contact`), which names one pair and one point for the whole run, shapes meet
//! whichever neighbours come near, at as many points as the pair's geometry needs.
//!
//! Which pairs may touch: two shapes collide when each one's group bit shares a bit with
//! the other's mask (`set_collision_filter`), they are on different bodies (or one is on
//! the world and the other on a body), the two bodies are not the two ends of one joint,
//! and the pair was not excluded by name (`exclude_shape_pair`).

use super::contact::ConeType;
use super::shape::{Geometry, Shape};
use super::BodyId;
use crate::math::{V3, V4};

/// Shape index.
pub type ShapeId = usize;

/// Friction coefficient of a new shape. A pair's coefficient is the smaller of its two
/// shapes' (the slipperier surface decides, as ice on rubber does).
pub const DEFAULT_SHAPE_FRICTION: f64 = 1.0;

/// One collision shape: its placed geometry, surface friction and filter.
#[derive(Debug, Clone, PartialEq)]
pub struct CollisionShape {
    /// The carrying body (None: the world).
    pub body: Option<BodyId>,
    /// Pose in the body frame (origin at the centre of mass): position and unit quaternion.
    pub x: V3,
    pub q: V4,
    pub geometry: Geometry,
    pub friction: f64,
    /// Collision group bits and the groups this shape collides with.
    pub group: u32,
    pub mask: u32,
}

impl CollisionShape {
    /// The shape as the narrow phase reads it.
    pub fn shape(&self) -> Shape {
        Shape::Placed { body: self.body, x: self.x, q: self.q, geometry: self.geometry.clone() }
    }
}

/// Every collision shape of a model and the settings of the contacts they make.
#[derive(Debug, Clone, PartialEq)]
pub struct Collision {
    pub shapes: Vec<CollisionShape>,
    /// Pairs excluded by the user, (smaller id, larger id), sorted.
    pub excluded: Vec<(ShapeId, ShapeId)>,
    /// Friction cone of the contacts between shapes and its number of directions (linear).
    pub cone: ConeType,
    pub directions: usize,
    /// Whether the two bodies of a joint may collide (off by default: their shapes usually
    /// overlap at the joint by design).
    pub jointed_bodies_collide: bool,
    /// Most contact slots the step's layout may hold at once (None: the default of
    /// [`Collision::slot_capacity`]). It fixes the size of a saved state.
    pub capacity: Option<usize>,
}

/// Default contact slots per collision shape on a body: a pour of 100 boxes held up to
/// 3103 slots (31 per box: an edge contact also keeps its face points), of 100 spheres
/// 878.
pub const DEFAULT_SLOTS_PER_SHAPE: usize = 40;

/// Fewest contact slots a model with collision shapes gets by default.
pub const MIN_DEFAULT_SLOTS: usize = 64;

/// Largest contact capacity a model may ask for: a saved state holds every slot
/// (about 40 doubles each), so a million slots is already 320 MB per state.
pub const MAX_CONTACT_CAPACITY: usize = 1_000_000;

impl Default for Collision {
    fn default() -> Collision {
        Collision { shapes: Vec::new(), excluded: Vec::new(), cone: ConeType::Linear, directions: 4, jointed_bodies_collide: false, capacity: None }
    }
}

impl Collision {
    /// Most contact slots the layout may hold: the one set, or [`DEFAULT_SLOTS_PER_SHAPE`]
    /// per shape on a body, at least [`MIN_DEFAULT_SLOTS`] (0 without shapes).
    pub fn slot_capacity(&self) -> usize {
        if let Some(c) = self.capacity {
            return c;
        }
        let on_bodies = self.shapes.iter().filter(|s| s.body.is_some()).count();
        if on_bodies == 0 { 0 } else { (DEFAULT_SLOTS_PER_SHAPE * on_bodies).max(MIN_DEFAULT_SLOTS) }
    }

    /// Whether shapes `a` and `b` may touch (see the module notes). `jointed` says whether
    /// two bodies are the ends of one joint (`Model::is_jointed`).
    pub fn may_collide(&self, a: ShapeId, b: ShapeId, jointed: impl Fn(BodyId, BodyId) -> bool) -> bool {
        let (sa, sb) = (&self.shapes[a], &self.shapes[b]);
        if sa.group & sb.mask == 0 || sb.group & sa.mask == 0 {
            return false;
        }
        match (sa.body, sb.body) {
            (None, None) => return false,
            (Some(x), Some(y)) if x == y => return false,
            (Some(x), Some(y)) if !self.jointed_bodies_collide && jointed(x, y) => return false,
            _ => {}
        }
        self.excluded.binary_search(&(a.min(b), a.max(b))).is_err()
    }

    /// Friction coefficient of the pair (`DEFAULT_SHAPE_FRICTION`).
    pub fn pair_friction(&self, a: ShapeId, b: ShapeId) -> f64 {
        self.shapes[a].friction.min(self.shapes[b].friction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(body: Option<BodyId>) -> CollisionShape {
        CollisionShape { body, x: V3::zeros(), q: V4::new(1.0, 0.0, 0.0, 0.0), geometry: Geometry::Sphere { radius: 0.1 }, friction: 0.7, group: 1, mask: u32::MAX }
    }

    #[test]
    fn filters_groups_bodies_joints_and_exclusions() {
        let mut c = Collision { shapes: vec![shape(None), shape(Some(0)), shape(Some(0)), shape(Some(1)), shape(Some(2))], ..Collision::default() };
        let joint_01 = |x: BodyId, y: BodyId| (x.min(y), x.max(y)) == (0, 1);
        assert!(c.may_collide(0, 1, joint_01), "world against a body");
        assert!(!c.may_collide(1, 2, joint_01), "one body");
        assert!(!c.may_collide(1, 3, joint_01), "ends of a joint");
        assert!(c.may_collide(1, 4, joint_01) && c.may_collide(4, 3, joint_01));
        c.jointed_bodies_collide = true;
        assert!(c.may_collide(1, 3, joint_01));
        c.excluded = vec![(1, 4)];
        assert!(!c.may_collide(4, 1, joint_01) && c.may_collide(3, 4, joint_01));
        c.shapes[3].group = 2;
        c.shapes[4].mask = !2;
        assert!(!c.may_collide(3, 4, joint_01) && c.may_collide(0, 3, joint_01));
        c.shapes[0].friction = 0.2;
        assert_eq!(c.pair_friction(3, 0), 0.2);
    }
}
