//! A step that starts in penetration (a body placed inside the ground or inside another
//! body, deeper than [`TOLERANCE`]) would push the bodies out within one step: the contact
//! holds the gap at z_{k+2} ≥ 0, so the step's velocity is depth/dt and the body flies
//! (0.5 m at dt 0.01: ~50 m/s; three coincident 1 m boxes: ±100 m/s). Instead the
//! configuration is projected out first, and the velocities are left as they were: the
//! projection adds no kinetic energy.
//!
//! The projection is one step of the model's own equations (joints, limits, contacts)
//! from the current configuration at rest, with gravity cancelled by an input force
//! −m g on each body and the other inputs off: its solution ż moves every body by the
//! least (mass-weighted) displacement that brings every gap to ≥ 0 while the joints hold,
//! and the projected configuration is z + ż dt. Unlike a step:
//!
//! - it solves a model of its own (`Model::for_projection`, compiled when the pairs it
//!   sees change, and its own data; the sim's data changes only in its configuration):
//!   every contact frictionless, since friction only bends the least displacement and
//!   stalls the interior point (twenty coincident boxes: 541 iterations and the Tresca
//!   rescue with friction, 72 without), and no springs or dampers, which would move the
//!   bodies by F dt²/m;
//! - it sees the shapes where they are (a search at z_k, `collide::Search::AtRest`), not
//!   at the step's prediction: an impact, whose prediction penetrates but whose start
//!   does not, is the step's business and is not projected;
//! - a contact takes part only when it penetrates deeper than [`RESOLVED`] (the culling
//!   margin is −RESOLVED), and a left-out one joins when the solution pushes it below
//!   that. A contact that merely touches (the ground under coincident boxes pushed apart)
//!   would otherwise sit at zero gap and zero force, where the interior point's barrier
//!   holds it open by ~dt √(μ/m): a lift of micrometres, whose potential the bodies gained
//!   (1.2e-4 J for twenty boxes; now 4.9e-14 J of kinetic energy and no lift).
//!
//! One projection is exact for the gaps of the points found (their normals and anchors
//! held); the geometry then turns (a box tipping out of the ground finds new corners, a
//! pair new separating axes), so the projection repeats after a fresh search, up to
//! [`MAX_ROUNDS`] times, until no contact penetrates deeper than [`RESOLVED`]. If a
//! penetration deeper than [`TOLERANCE`] is left, or a projection's solve fails (the
//! bodies are held by joints, limits, other bodies or the world; the interior point also
//! stalls on some deep piles, see docs/COLLISION.md), the step is refused with
//! [`Error::UnresolvedPenetration`] naming the bodies of the deepest contact, and the
//! step's checkpoint (`step::advance`) puts the configuration back.

use std::sync::Arc;

use super::collide::{self, Search};
use super::layout::found_contact;
use super::{step_once, Rescue, SolverOptions};
use crate::contact::geometry::gap;
use crate::contact::Contact;
use crate::data::collision::{PairSlots, Slot};
use crate::data::Data;
use crate::integrator::pose_next;
use crate::math::{V3, V4};
use crate::model::{Error, Model, Result};

/// Penetration depth (m) above which a step first projects the bodies out.
pub const TOLERANCE: f64 = 1e-5;

/// Depth (m) the projection resolves to: shallower contacts are left to the step, which
/// pushes them out at ≤ RESOLVED/dt (1e-7 m/s at dt 0.01).
pub const RESOLVED: f64 = 1e-9;

/// Most projections (each after a fresh search) a step makes before it gives up.
pub const MAX_ROUNDS: usize = 16;


/// The deepest penetration over some contacts and the bodies of its contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Deepest {
    /// Depth (m, ≥ 0; 0 with no contact penetrating).
    pub depth: f64,
    /// Side a's body and side b's (None: the world).
    pub bodies: (usize, Option<usize>),
}

/// Deepest penetration (m, ≥ 0) over the model's described contacts at configuration
/// (x, q) and the collision shapes' contact points the last search found (`slots`) at the
/// configuration it found them (`found_at`: the step's prediction z_{k+1}). A found point's
/// normal is the one of its configuration: measured at another, a pair rolling on each
/// other would show a gap below its true distance (second order in the turn).
pub fn deepest_penetration(model: &Model, x: &[V3], q: &[V4], slots: &[Slot], found_at: (&[V3], &[V4])) -> f64 {
    deepest(model, x, q, slots, found_at).depth
}

/// [`deepest_penetration`] with the bodies of its contact.
pub fn deepest(model: &Model, x: &[V3], q: &[V4], slots: &[Slot], found_at: (&[V3], &[V4])) -> Deepest {
    let described = model.contacts[..model.described_contacts].iter().map(|c| (-gap(c, x, q), c.bodies()));
    let found = slots.iter().filter(|s| s.filled).map(|s| (-s.point.gap(found_at.0, found_at.1), s.point.bodies()));
    let mut out = Deepest { depth: 0.0, bodies: (0, None) };
    for (depth, bodies) in described.chain(found) {
        // NaN (a configuration that is not finite) is not a depth: the step reports it
        if depth > out.depth {
            out = Deepest { depth, bodies };
        }
    }
    out
}

/// The projection's own model (every contact frictionless) for the pairs of one search,
/// and its data.
#[derive(Debug, Clone)]
struct Solver {
    /// The pairs it was compiled for, their slots numbered consecutively.
    pairs: Vec<PairSlots>,
    /// The search's points in the same order.
    slots: Vec<Slot>,
    model: Arc<Model>,
    data: Data,
}

/// The projection: its solver (compiled when the pairs it sees change; otherwise it
/// allocates nothing) and what the last step's projection did.
#[derive(Debug, Clone, Default)]
pub struct Projection {
    solver: Option<Solver>,
    /// Depth the last step's projection started from (0 if it needed none).
    pub last_depth: f64,
    /// Projections the last step made (0 if it needed none).
    pub last_rounds: usize,
}

impl Projection {
    pub fn new() -> Projection {
        Projection::default()
    }

    /// Before a step, after the search at its prediction (`collide::find`): projects the
    /// configuration out of a penetration deeper than [`TOLERANCE`] (module docs). Returns
    /// whether it searched again (the caller then searches at the prediction once more).
    /// A penetration it cannot resolve returns [`Error::UnresolvedPenetration`], the
    /// configuration left where the last projection took it (the step's checkpoint puts
    /// it back).
    pub fn resolve(&mut self, model: &Model, d: &mut Data, opts: &SolverOptions) -> Result<bool> {
        (self.last_depth, self.last_rounds) = (0.0, 0);
        if model.contacts.is_empty() && model.collision.shapes.is_empty() {
            return Ok(false);
        }
        // every step: the described contacts where they are, the shapes' points at the
        // prediction; a start out of penetration ends here
        let predicted = deepest(model, &d.state.x, &d.state.q, &d.collision.found, (&d.frame.x1, &d.frame.q1));
        if predicted.depth <= TOLERANCE {
            return Ok(false);
        }
        let mut worst = self.search(model, d, opts);
        if worst.depth <= TOLERANCE {
            // only the prediction penetrates (an impact): the step's contacts catch it
            return Ok(true);
        }
        let first = worst.depth;
        let mut rounds = 0;
        while worst.depth > RESOLVED && rounds < MAX_ROUNDS {
            rounds += 1;
            if self.project(model, d, opts).is_err() {
                break;
            }
            worst = self.search(model, d, opts);
        }
        self.last_rounds = rounds;
        if worst.depth > TOLERANCE {
            let (body_a, body_b) = worst.bodies;
            return Err(Error::UnresolvedPenetration { body_a, body_b, depth: worst.depth, rounds, tolerance: TOLERANCE });
        }
        self.last_depth = first;
        Ok(true)
    }

    /// A search at the current configuration and its deepest penetration there.
    fn search(&self, model: &Model, d: &mut Data, opts: &SolverOptions) -> Deepest {
        collide::find(model, d, opts, Search::AtRest);
        let s = &d.state;
        deepest(model, &s.x, &s.q, &d.collision.found, (&s.x, &s.q))
    }

    /// One projection from the current configuration with the last search's points.
    fn project(&mut self, model: &Model, d: &mut Data, opts: &SolverOptions) -> Result<()> {
        let solver = self.solver_for(model, d)?;
        let (pm, pd) = (&*solver.model, &mut solver.data);
        pd.state.x.copy_from_slice(&d.state.x);
        pd.state.q.copy_from_slice(&d.state.q);
        pd.state.v.iter_mut().chain(pd.state.w.iter_mut()).for_each(|v| *v = V3::zeros());
        (pd.dt, pd.dt_prev) = (d.dt, d.dt);
        for (i, b) in model.bodies.iter().enumerate() {
            pd.inputs.force[i] = -b.mass * model.gravity;
            (pd.inputs.torque[i], pd.inputs.force_point[i]) = (V3::zeros(), V3::zeros());
        }
        pd.inputs.joint_input.iter_mut().for_each(|u| *u = [0.0; 6]);
        pd.tracked.copy_from(&d.tracked);
        // a cold start: nothing of an earlier projection carries over
        let w = &mut pd.warm;
        w.solution.iter_mut().chain(w.previous.iter_mut()).for_each(|v| *v = 0.0);
        (w.pair_interval, w.first_barrier) = (f64::NAN, None);
        w.intervals = [f64::NAN; 3];
        let points = &mut pd.scratch.contacts.points[pm.described_contacts..];
        collide::write_slot_points(pm, &solver.pairs, &solver.slots, points);
        let popts = SolverOptions { contact_margin: -RESOLVED, contact_warm_start: false, ..*opts };
        step_once(pm, pd, &popts, Rescue::Allowed, d.dt)?;
        for i in 0..model.body_count() {
            let z = pose_next(&pd.frame, pm, pd.dt, &pd.scratch.it.s, Some(i));
            (d.state.x[i], d.state.q[i]) = (z.x, z.q.normalize());
        }
        d.tracked.follow_state(model, &d.state.x, &d.state.q);
        Ok(())
    }

    /// The solver for the last search's pairs, compiled if they are not the last ones';
    /// their points copied in.
    fn solver_for(&mut self, model: &Model, d: &Data) -> Result<&mut Solver> {
        let c = &d.collision;
        let same = |s: &Solver| s.pairs.len() == c.wanted.len() && s.pairs.iter().zip(&c.wanted).all(|(p, w)| (p.shapes, p.count) == (w.shapes, w.count));
        if !self.solver.as_ref().is_some_and(same) {
            let mut pairs = Vec::with_capacity(c.wanted.len());
            let mut first = 0;
            for w in &c.wanted {
                pairs.push(PairSlots { first, ..*w });
                first += w.count;
            }
            let found: Vec<Contact> = c.wanted.iter().flat_map(|p| std::iter::repeat_n(found_contact(model, p), p.count)).collect();
            let pm = Arc::new(model.for_projection(&found)?);
            let data = Data::new(&pm, d.dt);
            self.solver = Some(Solver { pairs, slots: vec![Slot::default(); first], model: pm, data });
        }
        let solver = self.solver.as_mut().expect("compiled above");
        for (p, w) in solver.pairs.iter().zip(&c.wanted) {
            solver.slots[p.first..p.first + p.count].copy_from_slice(&c.found[w.first..w.first + w.count]);
        }
        Ok(solver)
    }
}

