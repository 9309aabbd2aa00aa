//! The compiled, immutable model: everything that depends only on the mechanism —
//! graph nodes, elimination order, fill pattern, spanning tree for minimal coordinates,
//! which joints lie on kinematic loops. Shared read-only (behind `Arc`) by simulations.

use super::addresses::Addresses;
use super::body::Body;
use super::collision::Collision;
use super::builder::Builder;
use super::contact::Contact;
use super::error::{Error, Result};
use super::forces::ForceElements;
use super::coordinates::{self, LimitSide, TrackedCoordinate};
use super::{Frame, JointLimit, Mimic};
use super::graph::MechanismGraph;
use crate::joints::Joint;
use crate::math::V3;
use crate::solver::Symbolic;

pub use super::graph::{Node, LOOP_PIVOT_REGULARIZATION};

#[derive(Debug, Clone)]
pub struct Model {
    pub gravity: V3,
    pub bodies: Vec<Body>,
    pub joints: Vec<Joint>,
    /// Springs, dampers (section 2), compiled with the mechanism.
    pub forces: ForceElements,
    pub nodes: Vec<Node>,
    pub body_node: Vec<usize>,
    /// Joint → node (None for joints without constraint rows, e.g. floating).
    pub joint_node: Vec<Option<usize>>,
    pub symbolic: Symbolic,
    /// Joints of the spanning tree from the world, parents before children.
    pub tree_order: Vec<usize>,
    /// Per body: the spanning-tree joint that places it (None for a root body).
    pub tree_parent: Vec<Option<usize>>,
    /// The roots of the spanning tree, each a floating base of the minimal coordinates
    /// (`floating_base`), in body order.
    pub floating_bases: Vec<super::floating_base::FloatingBase>,
    /// Joints that close or lie on a kinematic loop (their rows may be redundant and get
    /// a tiny regularization).
    pub in_loop: Vec<bool>,
    /// Number of loop-closing joints (independent cycles).
    pub loop_count: usize,
    pub contacts: Vec<Contact>,
    /// Contact → node.
    pub contact_node: Vec<usize>,
    /// Each body's, joint's and contact's offset in the step vector (documented there).
    pub addresses: Addresses,
    /// Bounded joint coordinates.
    pub limits: Vec<JointLimit>,
    /// Equalities between joint coordinates.
    pub mimics: Vec<Mimic>,
    /// Named frames fixed to bodies or the world.
    pub frames: Vec<Frame>,
    /// The joint coordinates limits and mimics constrain (unwrapped step by step).
    pub tracked: Vec<TrackedCoordinate>,
    /// One inequality per bounded side of a limit.
    pub limit_sides: Vec<LimitSide>,
    /// Limit side → node.
    pub limit_node: Vec<usize>,
    /// Mimic → node.
    pub mimic_node: Vec<usize>,
    /// Per mimic: the tracked coordinates of its follower and its leader.
    pub mimic_tracked: Vec<[usize; 2]>,
    /// Collision shapes, searched for contacts every step.
    pub collision: Collision,
    /// Contacts 0..described_contacts are the builder's descriptions (each one point,
    /// found by `step::narrow_phase`); a step's layout (`Model::with_found_contacts`)
    /// appends the points its collision stage found between shapes.
    pub described_contacts: usize,
    /// Body pairs (smaller first) joined by a joint, sorted: their shapes do not collide
    /// by default.
    pub jointed_bodies: Vec<(usize, usize)>,
    /// Per step-vector row, the weight Newton's convergence test gives its residual
    /// (`step::problem::Equations::residual_norm`); empty when every weight is 1.
    pub residual_weights: Vec<f64>,
    /// Hash of every number of the model (`fingerprint`), computed when a state is first
    /// saved or restored: a saved state names its model by it.
    fingerprint: std::sync::OnceLock<u64>,
}

impl Model {
    /// Compiles `b`. An empty mechanism, and mimics that define a coordinate twice or
    /// through itself (`mimic::check`), are `Error::InvalidModel`.
    pub fn new(b: &Builder) -> Result<Model> {
        if b.bodies.is_empty() {
            return Err(Error::InvalidModel("the mechanism has no bodies".into()));
        }
        // refused here, not at the first step, which could not solve them
        super::mimic::check(&b.mimics, &b.joints)?;
        let nb = b.bodies.len();
        let (tree_order, tree_parent, in_loop, loop_count) = spanning_tree(nb, &b.joints);
        let (tracked, limit_sides) = coordinates::compile(&b.limits, &b.mimics);
        let mut mg = MechanismGraph::new(nb, &b.joints, &in_loop, &b.forces, &b.contacts);
        for (i, side) in limit_sides.iter().enumerate() {
            mg.add_limit_side(i, &b.joints[b.limits[side.limit].joint]);
        }
        for (i, m) in b.mimics.iter().enumerate() {
            mg.add_mimic(i, &m.bodies(&b.joints));
        }
        let mimic_tracked = b.mimics.iter().map(|m| [m.follower, m.leader].map(|j| coordinates::tracked_index(&tracked, j, 0).expect("mimics are tracked"))).collect();
        let mut jointed_bodies: Vec<(usize, usize)> = b.joints.iter().filter_map(|j| j.parent.map(|p| (p.min(j.child), p.max(j.child)))).collect();
        jointed_bodies.sort_unstable();
        jointed_bodies.dedup();
        let MechanismGraph { graph, nodes, body_node, joint_node, contact_node, limit_node, mimic_node } = mg;
        let symbolic = Symbolic::new(&graph);
        let inequality_node: Vec<usize> = contact_node.iter().chain(&limit_node).copied().collect();
        let mut addresses = Addresses::new(&symbolic.offsets, &body_node, &joint_node, &inequality_node);
        addresses.set_mimics(&symbolic.offsets, &mimic_node);
        let residual_weights = residual_weights(&b.bodies, &b.joints, &tree_order, &addresses, symbolic.dim);
        Ok(Model {
            residual_weights,
            addresses,
            gravity: b.gravity,
            bodies: b.bodies.clone(),
            joints: b.joints.clone(),
            forces: b.forces.clone(),
            nodes,
            body_node,
            joint_node,
            symbolic,
            tree_order,
            floating_bases: super::floating_base::compile(&tree_parent, &b.base_frames),
            tree_parent,
            in_loop,
            loop_count,
            contacts: b.contacts.clone(),
            contact_node,
            limits: b.limits.clone(),
            mimics: b.mimics.clone(),
            frames: b.frames.clone(),
            tracked,
            limit_sides,
            limit_node,
            mimic_node,
            mimic_tracked,
            collision: b.collision.clone(),
            described_contacts: b.contacts.len(),
            jointed_bodies,
            fingerprint: std::sync::OnceLock::new(),
        })
    }

    /// Hash of every number and choice of the model as built (`model::fingerprint`), so
    /// that a saved state names the model it came from. Computed once, when first asked.
    pub fn fingerprint(&self) -> u64 {
        *self.fingerprint.get_or_init(|| {
            let described = &self.contacts[..self.described_contacts];
            super::fingerprint::of(&(&self.gravity, &self.bodies, &self.joints, &self.forces, described, &self.limits, &self.mimics, &self.frames, &self.collision))
        })
    }

    /// This model with `found` contacts after its descriptions: the graph, elimination
    /// order and layout of a step in which collision shapes touch (`step::layout`).
    /// Everything else is this model's.
    pub fn with_found_contacts(&self, found: &[Contact]) -> Result<Model> {
        let described = &self.contacts[..self.described_contacts];
        self.with_contacts(described.iter().chain(found).cloned().collect(), self.forces.clone())
    }

    /// The model of the projection out of penetration (`step::penetration`): this model
    /// with its described contacts and `found`, all frictionless (the least displacement is
    /// not bent by friction), and without springs and dampers (they would move the bodies
    /// by F dt²/m in every projection).
    pub(crate) fn for_projection(&self, found: &[Contact]) -> Result<Model> {
        let described = &self.contacts[..self.described_contacts];
        self.with_contacts(described.iter().chain(found).map(|c| Contact { friction: 0.0, ..c.clone() }).collect(), ForceElements::default())
    }

    /// This model with `contacts` (its described ones first) and `forces`, compiled again.
    fn with_contacts(&self, contacts: Vec<Contact>, forces: ForceElements) -> Result<Model> {
        let b = Builder {
            gravity: self.gravity,
            bodies: self.bodies.clone(),
            joints: self.joints.clone(),
            forces,
            contacts,
            limits: self.limits.clone(),
            mimics: self.mimics.clone(),
            frames: self.frames.clone(),
            collision: self.collision.clone(),
            base_frames: self.floating_bases.iter().map(|f| (f.body, f.frame)).collect(),
        };
        let mut m = Model::new(&b)?;
        m.described_contacts = self.described_contacts;
        Ok(m)
    }

    /// Whether bodies `a` and `b` are the two ends of a joint.
    pub fn is_jointed(&self, a: usize, b: usize) -> bool {
        self.jointed_bodies.binary_search(&(a.min(b), a.max(b))).is_ok()
    }

    /// Whether collision shapes `a` and `b` may touch (the filter of `model::collision`).
    pub fn shapes_may_collide(&self, a: usize, b: usize) -> bool {
        self.collision.may_collide(a, b, |x, y| self.is_jointed(x, y))
    }

    /// Inequality nodes of the interior point: contacts, then limit sides.
    pub fn inequality_count(&self) -> usize {
        self.contacts.len() + self.limit_sides.len()
    }

    /// Graph node of inequality `i` (contact `i`, or limit side i − contacts).
    pub fn inequality_node(&self, i: usize) -> usize {
        match i.checked_sub(self.contacts.len()) {
            None => self.contact_node[i],
            Some(l) => self.limit_node[l],
        }
    }

    pub fn body_count(&self) -> usize {
        self.bodies.len()
    }

    pub fn joint_count(&self) -> usize {
        self.joints.len()
    }

    /// Total kinetic-plus-constraint unknowns of a step (size of the Newton system).
    pub fn system_size(&self) -> usize {
        self.symbolic.dim
    }
}

/// The mass (kg) and moment of inertia (kg m²) up to which a body's rows keep Newton's
/// absolute tolerance: the rounding of a force balance carrying 1 t, eps·m·g ≈ 2e-12 N,
/// is 50× below the default 1e-10.
const RESIDUAL_REFERENCE: f64 = 1e3;

/// A body's rows of the step residual are force and momentum balances whose terms grow
/// with the mass the body carries: its own and, through its joints, its subtree's (a 1 kg
/// link holding a 1e8 kg one balances 1e9 N, whose rounding is 1e-7), so beyond a tonne
/// they cannot reach an absolute tolerance of 1e-10. Divided by max(1, carried mass /
/// 1 t) (the angular rows also by the largest moment / 1 t m², lever arms taken as 1 m),
/// they measure the velocity error instead, which any mass ratio reaches. Empty when no
/// body carries more than the reference (every robot up to a tonne keeps the absolute test).
fn residual_weights(bodies: &[Body], joints: &[Joint], tree_order: &[usize], at: &Addresses, n: usize) -> Vec<f64> {
    let mut carried: Vec<f64> = bodies.iter().map(|b| b.mass).collect();
    for &ji in tree_order.iter().rev() {
        if let Some(p) = joints[ji].parent {
            carried[p] += carried[joints[ji].child];
        }
    }
    let moment = |b: &Body| (0..3).map(|k| b.inertia[(k, k)]).fold(0.0, f64::max);
    let scale: Vec<(f64, f64)> = bodies.iter().zip(&carried).map(|(b, &m)| ((m / RESIDUAL_REFERENCE).max(1.0), (m.max(moment(b)) / RESIDUAL_REFERENCE).max(1.0))).collect();
    if scale.iter().all(|&s| s == (1.0, 1.0)) {
        return Vec::new();
    }
    let mut w = vec![1.0; n];
    for (i, (m, j)) in scale.into_iter().enumerate() {
        let o = at.body(i);
        w[o..o + 3].fill(1.0 / m);
        w[o + 3..o + 6].fill(1.0 / j);
    }
    w
}

/// Spanning tree over joints, parent → child, from the world and then from every body
/// not reached (first-declared joints win). Joints left out close loops; the joints on the tree path
/// between a loop joint's two bodies lie on that loop.
fn spanning_tree(nb: usize, joints: &[Joint]) -> (Vec<usize>, Vec<Option<usize>>, Vec<bool>, usize) {
    let mut reached = vec![false; nb];
    let mut tree_parent: Vec<Option<usize>> = vec![None; nb];
    let mut in_tree = vec![false; joints.len()];
    let mut order = Vec::new();
    // sweep the joints in the order they were added until none attaches a new body, so
    // that among joints reaching the same body the first declared is the tree joint and
    // the last declared closes the loop; then start a new tree at a body no joint
    // positions (a floating base), or at any unreached body
    loop {
        let mut changed = true;
        while changed {
            changed = false;
            for (ji, j) in joints.iter().enumerate() {
                let parent_reached = j.parent.map_or(true, |p| reached[p]);
                if !in_tree[ji] && parent_reached && !reached[j.child] {
                    reached[j.child] = true;
                    in_tree[ji] = true;
                    tree_parent[j.child] = Some(ji);
                    order.push(ji);
                    changed = true;
                }
            }
        }
        let is_child = |b: usize| joints.iter().any(|j| j.child == b);
        let root = (0..nb).find(|&b| !reached[b] && !is_child(b)).or_else(|| (0..nb).find(|&b| !reached[b]));
        match root {
            Some(r) => reached[r] = true,
            None => break,
        }
    }
    // depth of each body along the tree, to walk loop paths up to the common ancestor
    let parent_body = |b: usize| tree_parent[b].and_then(|j| joints[j].parent);
    let depth = |mut b: usize| {
        let mut d = 0;
        while let Some(p) = parent_body(b) {
            b = p;
            d += 1;
        }
        d
    };
    let mut in_loop = vec![false; joints.len()];
    let mut loops = 0;
    for (ji, j) in joints.iter().enumerate() {
        if in_tree[ji] || j.constraint_count() == 0 {
            continue;
        }
        loops += 1;
        in_loop[ji] = true;
        let mut a = j.parent;
        let mut b = Some(j.child);
        let mut da = a.map_or(0, depth) + usize::from(a.is_some());
        let mut db = depth(j.child) + 1;
        // walk both ends up to their common ancestor (None = the world), marking joints
        while a != b {
            if da >= db {
                if let Some(x) = a {
                    if let Some(t) = tree_parent[x] {
                        in_loop[t] = true;
                    }
                    a = parent_body(x);
                }
                da -= 1;
            } else {
                if let Some(x) = b {
                    if let Some(t) = tree_parent[x] {
                        in_loop[t] = true;
                    }
                    b = parent_body(x);
                }
                db -= 1;
            }
            if da == 0 && db == 0 {
                break;
            }
        }
    }
    (order, tree_parent, in_loop, loops)
}
