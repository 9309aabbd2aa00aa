//! The contact part of the exact state (`snapshot`) in an encoding of fixed size: what
//! the warm start and the outputs hold for the model's own nodes, and one record per
//! contact slot of the model's capacity (`Collision::slot_capacity`), used or not. The
//! step's layout (the model compiled with a node per slot, `step::layout`) changes as
//! shapes meet; the state does not, so its size depends on the model alone (MuJoCo's
//! `mj_stateSize`) and a state saved with one layout restores into any sim of the model:
//! the layout it names is compiled first, and the next step replays bit for bit.
//!
//! Layout, after the fields of `snapshot`:
//!
//! | entries | what |
//! |---|---|
//! | 2 × unknowns | the warm start's last solution and the one before, over the model's own nodes (bodies, joints, described contacts, limit sides, mimics) in the model's order |
//! | E | their contacts' and limit sides' E variables |
//! | 4 × described contacts | the described contacts' last forces |
//! | capacity × record | per slot: shape a, shape b (−1 and all zeros: unused), filled (0/1), normal (3), anchors (2 × 3), radii (2), the slot's last solution and the one before (padded to the cone's kept variables), its E variables (padded), its last force (4) |
//!
//! Used records come first, in the layout's pair order; a pair's slots are its
//! consecutive records.

use crate::contact::geometry::{ContactPoint, Geometry, MAX_SLOTS_PER_PAIR};
use crate::contact::Contact;
use crate::data::collision::{PairSlots, Slot};
use crate::data::Data;
use crate::math::V3;
use crate::model::{Error, Model, Node, Result};

/// Entries of a record before the slot's unknowns: shapes (2), filled, normal, anchors, radii.
const POINT: usize = 14;

/// Sizes of the section for `model`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sizes {
    /// The model's own step unknowns and E variables.
    pub unknowns: usize,
    pub e: usize,
    pub described: usize,
    /// Slots, and per slot the most kept and E variables a found contact has.
    pub capacity: usize,
    pub nk: usize,
    pub ne: usize,
}

impl Sizes {
    pub fn of(model: &Model) -> Sizes {
        let col = &model.collision;
        // a found contact with friction has the most variables of its cone
        let widest = Contact { shapes: std::array::from_fn(|_| crate::model::Shape::Plane { normal: V3::z(), offset: 0.0 }), friction: 1.0, cone: col.cone, directions: col.directions }.layout();
        let e = model.contacts.iter().map(|c| c.layout().ne).sum::<usize>() + model.limit_sides.len();
        Sizes { unknowns: model.system_size(), e, described: model.described_contacts, capacity: col.slot_capacity(), nk: widest.nk, ne: widest.ne }
    }

    pub fn record(&self) -> usize {
        POINT + 2 * self.nk + self.ne + 4
    }

    pub fn len(&self) -> usize {
        2 * self.unknowns + self.e + 4 * self.described + self.capacity * self.record()
    }
}

/// The layout's node of a node of the model's own (Node numbers: the model's).
fn layout_node(layout: &Model, node: Node) -> usize {
    match node {
        Node::Body(i) => layout.body_node[i],
        Node::Joint(j) => layout.joint_node[j].expect("a joint with a node in the model has one in its layout"),
        Node::Contact(c) => layout.contact_node[c],
        Node::LimitSide(l) => layout.limit_node[l],
        Node::Mimic(m) => layout.mimic_node[m],
    }
}

/// Where each part of the section sits in the data: `visit(state_range, data_part)`
/// names every stretch once, in state order. `Part` says which buffer of the data.
#[derive(Debug, Clone, Copy)]
enum Part {
    Solution(usize),
    Previous(usize),
    E(usize),
    Force(usize),
}

/// Calls `f(at, part, len)` for each stretch of the section whose entries are the data's
/// `len` entries from `part` (stretches of records not listed are the point, written
/// apart, and padding).
fn walk(model: &Model, d: &Data, sizes: &Sizes, mut f: impl FnMut(usize, Part, usize)) {
    let layout = d.layout(model);
    let nodes = &d.scratch.contacts.nodes;
    let mut at = 0;
    for previous in [false, true] {
        for (n, node) in model.nodes.iter().enumerate() {
            let m = layout_node(layout, *node);
            let (src, len) = (layout.symbolic.offsets[m], model.symbolic.sizes[n]);
            f(at + model.symbolic.offsets[n], if previous { Part::Previous(src) } else { Part::Solution(src) }, len);
        }
        at += sizes.unknowns;
    }
    let inequalities = (0..sizes.described).chain((0..model.limit_sides.len()).map(|l| layout.contacts.len() + l));
    for i in inequalities {
        let r = nodes.e_range(i);
        f(at, Part::E(r.start), r.len());
        at += r.len();
    }
    for c in 0..sizes.described {
        f(at + 4 * c, Part::Force(c), 4);
    }
    at += 4 * sizes.described;
    for k in 0..d.collision.slots.len() {
        let (c, record) = (sizes.described + k, at + k * sizes.record() + POINT);
        let node = layout.contact_node[c];
        let (offset, nk) = (layout.symbolic.offsets[node], layout.symbolic.sizes[node]);
        f(record, Part::Solution(offset), nk);
        f(record + sizes.nk, Part::Previous(offset), nk);
        let r = nodes.e_range(c);
        f(record + 2 * sizes.nk, Part::E(r.start), r.len());
        f(record + 2 * sizes.nk + sizes.ne, Part::Force(c), 4);
    }
}

/// The section's first record.
fn records_at(sizes: &Sizes) -> usize {
    2 * sizes.unknowns + sizes.e + 4 * sizes.described
}

/// Writes the section into `out` (exactly its length).
pub(super) fn save(model: &Model, d: &Data, out: &mut [f64]) {
    let sizes = Sizes::of(model);
    out.fill(0.0);
    walk(model, d, &sizes, |at, part, len| {
        let src = match part {
            Part::Solution(o) => &d.warm.solution[o..o + len],
            Part::Previous(o) => &d.warm.previous[o..o + len],
            Part::E(o) => &d.warm.e_solution[o..o + len],
            Part::Force(c) => &d.contact_forces[c][..],
        };
        out[at..at + len].copy_from_slice(src);
    });
    let records = &mut out[records_at(&sizes)..];
    let c = &d.collision;
    for p in &c.pairs {
        for k in p.first..p.first + p.count {
            let (o, s) = (&mut records[k * sizes.record()..], &c.slots[k]);
            o[0] = p.shapes[0] as f64;
            o[1] = p.shapes[1] as f64;
            o[2] = if s.filled { 1.0 } else { 0.0 };
            o[3..6].copy_from_slice(s.point.normal.as_slice());
            o[6..9].copy_from_slice(s.point.anchor[0].as_slice());
            o[9..12].copy_from_slice(s.point.anchor[1].as_slice());
            o[12..14].copy_from_slice(&s.point.radius);
        }
    }
    for o in records.chunks_exact_mut(sizes.record()).skip(c.slots.len()) {
        o[0] = -1.0;
        o[1] = -1.0;
    }
}

/// The pairs of a saved section (`input`: exactly the section), checked against the
/// model's shapes.
pub(super) fn read_pairs(model: &Model, input: &[f64]) -> Result<Vec<PairSlots>> {
    let bad = |what: String| Error::InvalidArgument("state", what);
    let sizes = Sizes::of(model);
    let shapes = &model.collision.shapes;
    let index = |v: f64| (v >= 0.0 && v.fract() == 0.0 && v < shapes.len() as f64).then_some(v as usize);
    let mut pairs: Vec<PairSlots> = Vec::new();
    let mut used = true;
    for (k, e) in input[records_at(&sizes)..].chunks_exact(sizes.record()).enumerate() {
        if e[0] == -1.0 {
            if e[1] != -1.0 || e[2..].iter().any(|&v| v != 0.0) {
                return Err(bad(format!("contact slot {k} is unused but not empty")));
            }
            used = false;
            continue;
        }
        let (Some(a), Some(b)) = (index(e[0]), index(e[1])) else {
            return Err(bad(format!("contact slot {k} names shapes {} and {}; the model has {}", e[0], e[1], shapes.len())));
        };
        if !used {
            return Err(bad(format!("contact slot {k} is used after an unused one")));
        }
        if shapes[a].body.is_none() || !model.shapes_may_collide(a, b) {
            return Err(bad(format!("shapes {a} and {b} are no contact pair of this model")));
        }
        let unit = (V3::from_column_slice(&e[3..6]).norm() - 1.0).abs() < 1e-9;
        if !(e[2] == 0.0 || e[2] == 1.0) || !unit {
            return Err(bad(format!("contact slot {k} of shapes {a} and {b} has no point (filled {}, normal of norm {})", e[2], V3::from_column_slice(&e[3..6]).norm())));
        }
        match pairs.last_mut() {
            Some(p) if p.shapes == [a, b] => {
                if p.count == MAX_SLOTS_PER_PAIR {
                    return Err(bad(format!("shapes {a} and {b} have more than {MAX_SLOTS_PER_PAIR} slots")));
                }
                p.count += 1;
            }
            Some(p) if p.shapes >= [a, b] => return Err(bad("the contact pairs are not in order".into())),
            _ => pairs.push(PairSlots { shapes: [a, b], first: k, count: 1 }),
        }
    }
    Ok(pairs)
}

/// Copies a checked section into the data, whose layout has its pairs.
pub(super) fn load(model: &Model, d: &mut Data, input: &[f64]) {
    let sizes = Sizes::of(model);
    let mut stretches = Vec::new();
    walk(model, d, &sizes, |at, part, len| stretches.push((at, part, len)));
    for (at, part, len) in stretches {
        let src = &input[at..at + len];
        match part {
            Part::Solution(o) => d.warm.solution[o..o + len].copy_from_slice(src),
            Part::Previous(o) => d.warm.previous[o..o + len].copy_from_slice(src),
            Part::E(o) => d.warm.e_solution[o..o + len].copy_from_slice(src),
            Part::Force(c) => d.contact_forces[c].copy_from_slice(src),
        }
    }
    let (shapes, records) = (&model.collision.shapes, &input[records_at(&sizes)..]);
    let c = &mut d.collision;
    for pair in &c.pairs {
        let [a, b] = pair.shapes.map(|i| &shapes[i]);
        let (body_a, body_b) = (a.body.expect("side a is on a body"), b.body);
        // what the narrow phase of the pair sets (`pairs::sphere_sphere`)
        let follows_centres = [a, b].iter().all(|s| matches!(s.geometry, Geometry::Sphere { .. }));
        for k in pair.first..pair.first + pair.count {
            let e = &records[k * sizes.record()..];
            let v3 = |o: usize| V3::new(e[o], e[o + 1], e[o + 2]);
            let point = ContactPoint { body_a, body_b, normal: v3(3), anchor: [v3(6), v3(9)], radius: [e[12], e[13]], follows_centres };
            c.slots[k] = Slot { point, filled: e[2] == 1.0 };
        }
    }
}

/// Data with the layout of `pairs`: None when it is the data's own, else a copy of the
/// data moved to it (so a refused state changes nothing).
pub(super) fn data_for(model: &Model, d: &Data, pairs: &[PairSlots]) -> Result<Option<Data>> {
    let same = pairs.len() == d.collision.pairs.len() && pairs.iter().zip(&d.collision.pairs).all(|(a, b)| a.shapes == b.shapes && a.count == b.count);
    if same {
        return Ok(None);
    }
    let mut copy = d.clone();
    crate::step::layout::install(model, &mut copy, pairs)?;
    Ok(Some(copy))
}
