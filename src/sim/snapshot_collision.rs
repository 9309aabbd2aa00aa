//! The collision part of the exact state (`snapshot`): the shape pairs of the contact
//! layout with their slot counts, and each slot's point of the last step. A state saved
//! with another layout than the sim's has now is restored by compiling that layout first,
//! so the next step searches from the same pairs (their hysteresis included) and replays
//! bit for bit.
//!
//! Layout, after the fields of `snapshot`: 3 per pair (shape a, shape b, slots), then 14
//! per slot (filled 0/1, body a, body b or −1, normal (3), anchors (2 × 3), radii (2)).

use crate::contact::geometry::{ContactPoint, MAX_POINTS_PER_PAIR};
use crate::data::collision::{PairSlots, Slot};
use crate::data::Data;
use crate::math::V3;
use crate::model::{Error, Model, Result};

const PER_PAIR: usize = 3;
const PER_SLOT: usize = 14;

/// The pairs and slots of the data's layout.
pub(super) fn counts(d: &Data) -> (usize, usize) {
    (d.collision.pairs.len(), d.collision.slots.len())
}

/// Entries of the section for `pairs` pairs and `slots` slots.
pub(super) fn len(pairs: usize, slots: usize) -> usize {
    PER_PAIR * pairs + PER_SLOT * slots
}

/// Writes the section into `out` (exactly its length).
pub(super) fn save(d: &Data, out: &mut [f64]) {
    let c = &d.collision;
    let (pairs, slots) = out.split_at_mut(PER_PAIR * c.pairs.len());
    for (o, p) in pairs.chunks_exact_mut(PER_PAIR).zip(&c.pairs) {
        o.copy_from_slice(&[p.shapes[0] as f64, p.shapes[1] as f64, p.count as f64]);
    }
    for (o, s) in slots.chunks_exact_mut(PER_SLOT).zip(&c.slots) {
        let p = &s.point;
        o[0] = if s.filled { 1.0 } else { 0.0 };
        o[1] = p.body_a as f64;
        o[2] = p.body_b.map_or(-1.0, |b| b as f64);
        o[3..6].copy_from_slice(p.normal.as_slice());
        o[6..9].copy_from_slice(p.anchor[0].as_slice());
        o[9..12].copy_from_slice(p.anchor[1].as_slice());
        o[12..14].copy_from_slice(&p.radius);
    }
}

/// The pairs of a saved section (`input`: exactly the section, `pairs` and `slots` from
/// the state's header), checked against the model's shapes.
pub(super) fn read_pairs(model: &Model, input: &[f64], pairs: usize, slots: usize) -> Result<Vec<PairSlots>> {
    let bad = |what: String| Error::InvalidArgument("state", what);
    let shapes = &model.collision.shapes;
    let index = |v: f64, n: usize| (v >= 0.0 && v.fract() == 0.0 && v < n as f64).then_some(v as usize);
    let mut out = Vec::with_capacity(pairs);
    let mut first = 0;
    for e in input[..PER_PAIR * pairs].chunks_exact(PER_PAIR) {
        let (Some(a), Some(b)) = (index(e[0], shapes.len()), index(e[1], shapes.len())) else {
            return Err(bad(format!("a contact pair names shapes {} and {}; the model has {}", e[0], e[1], shapes.len())));
        };
        let count = index(e[2], MAX_POINTS_PER_PAIR + 1).filter(|&n| n > 0).ok_or_else(|| bad(format!("a contact pair has {} slots, not 1 to {MAX_POINTS_PER_PAIR}", e[2])))?;
        if shapes[a].body.is_none() || !model.shapes_may_collide(a, b) {
            return Err(bad(format!("shapes {a} and {b} are no contact pair of this model")));
        }
        if out.last().is_some_and(|p: &PairSlots| p.shapes >= [a, b]) {
            return Err(bad("the contact pairs are not in order".into()));
        }
        out.push(PairSlots { shapes: [a, b], first, count });
        first += count;
    }
    if first != slots {
        return Err(bad(format!("the contact pairs have {first} slots, the header says {slots}")));
    }
    for (k, e) in input[PER_PAIR * pairs..].chunks_exact(PER_SLOT).enumerate() {
        let pair = out.iter().find(|p| (p.first..p.first + p.count).contains(&k)).expect("slots were counted");
        let body = |s: usize| shapes[pair.shapes[s]].body.map_or(-1.0, |b| b as f64);
        let unit = (V3::from_column_slice(&e[3..6]).norm() - 1.0).abs() < 1e-9;
        if !(e[0] == 0.0 || e[0] == 1.0) || e[1] != body(0) || e[2] != body(1) || !unit {
            return Err(bad(format!("contact slot {k} does not belong to its pair of shapes {:?}", pair.shapes)));
        }
    }
    Ok(out)
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

/// Copies the slots of a checked section into the data (whose layout has its pairs).
pub(super) fn load(d: &mut Data, input: &[f64]) {
    let at = PER_PAIR * d.collision.pairs.len();
    for (s, e) in d.collision.slots.iter_mut().zip(input[at..].chunks_exact(PER_SLOT)) {
        let v3 = |o: usize| V3::new(e[o], e[o + 1], e[o + 2]);
        let point = ContactPoint { body_a: e[1] as usize, body_b: (e[2] >= 0.0).then_some(e[2] as usize), normal: v3(3), anchor: [v3(6), v3(9)], radius: [e[12], e[13]] };
        *s = Slot { point, filled: e[0] == 1.0 };
    }
}
