//! The state a step starts from: body poses and velocities z_k, ż_k, and the warm start
//! of the step's unknowns.

use crate::contact::cone::{Kind, Layout, MAX_Y};
use crate::joints::constraint::Pose;
use crate::math::{V3, V4};
use crate::model::Model;

/// z_k, ż_k per body: position and linear velocity (world frame), orientation and
/// angular velocity (body frame).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BodyStates {
    pub x: Vec<V3>,
    pub q: Vec<V4>,
    pub v: Vec<V3>,
    pub w: Vec<V3>,
}

impl BodyStates {
    pub fn new(model: &Model) -> BodyStates {
        let b = &model.bodies;
        BodyStates {
            x: b.iter().map(|b| b.x).collect(),
            q: b.iter().map(|b| b.q).collect(),
            v: b.iter().map(|b| b.v).collect(),
            w: b.iter().map(|b| b.w).collect(),
        }
    }

    /// Pose of a body at z_k (the world for None).
    #[inline]
    pub fn pose(&self, body: Option<usize>) -> Pose {
        body.map_or(Pose::WORLD, |i| Pose { x: self.x[i], q: self.q[i] })
    }

    /// Every component is finite.
    pub fn is_finite(&self) -> bool {
        let f = |v: &[f64]| v.iter().all(|x| x.is_finite());
        self.x.iter().all(|x| f(x.as_slice())) && self.q.iter().all(|q| f(q.as_slice())) && self.v.iter().all(|v| f(v.as_slice())) && self.w.iter().all(|w| f(w.as_slice()))
    }

    pub fn copy_from(&mut self, other: &BodyStates) {
        self.x.copy_from_slice(&other.x);
        self.q.copy_from_slice(&other.q);
        self.v.copy_from_slice(&other.v);
        self.w.copy_from_slice(&other.w);
    }
}

/// What a warm start's barrier measures: 1e-6 × the largest body or joint row of the
/// step's residual at the last solution, taken without or with its contact forces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarmBarrier {
    /// Without: the loads the contacts must carry (for a body at rest its weight's
    /// impulse m g dt), whatever they carry already. Far enough inside the cones that a
    /// contact can change mode (a foot touching down, a box stopping).
    Loads,
    /// With: how far the last solution is from balancing this step, near μ_end when the
    /// contacts keep their modes. A pile at rest needs it: centred at the loads' barrier
    /// (1e-6 for 0.1 m spheres) each gap slack sits at μ/γ (up to 1 mm), and the warm
    /// solve crawls back to its cap. `step::contact_solve` tries it after `Loads` fails
    /// (first, after a step it converged), and only where the last forces carry all but
    /// `BALANCE_SHARE` of the loads (`step::interior_point::settings`): in place of
    /// `Loads` it broke fourteen tests where contacts change mode (docs/PEERS.md).
    Balance,
}

/// The last committed step's unknowns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WarmStart {
    /// Velocities and multipliers (the graph vector s).
    pub solution: Vec<f64>,
    /// The contacts' condensed variables E (slacks and cone variables), flat.
    pub e_solution: Vec<f64>,
    /// The solution of the step before (for the extrapolation of `step::warm_start`).
    pub previous: Vec<f64>,
    /// The interval of `solution` and `previous` when they are two consecutive steps of
    /// the same interval (NaN otherwise): a step of that interval may extrapolate them.
    pub pair_interval: f64,
    /// The bodies' velocities of the step before `previous` (6 per body, in the order of
    /// the body rows), for the third-order extrapolation of `step::warm_start`.
    pub older: Vec<f64>,
    /// The intervals of `solution`, `previous` and `older` while they are consecutive steps
    /// (NaN from where the chain was broken): three equal ones are a base of the
    /// third-order extrapolation, and the fourth-order integrator's steps, of intervals of
    /// several lengths, extrapolate by them.
    pub intervals: [f64; 3],
    /// The warm start the next step's contact solve tries first, when the contact
    /// variables are a solution it may start from (a step with contacts was committed
    /// and a warm start of its own converged, see `step::commit`): the one the last step
    /// converged from (a pile at rest keeps needing `Balance`). None: it starts cold.
    pub first_barrier: Option<WarmBarrier>,
}

impl WarmStart {
    /// Zero unknowns; each inequality's E variables at the centre of its cones.
    pub fn new(model: &Model) -> WarmStart {
        let mut e_solution = Vec::new();
        let limit_side = Layout { kind: Kind::Frictionless, nt: 0, nk: 1, ne: 1 };
        for l in model.contacts.iter().map(|c| c.layout()).chain(std::iter::repeat_n(limit_side, model.limit_sides.len())) {
            let mut y = [0.0; MAX_Y];
            l.init(&mut y);
            e_solution.extend_from_slice(&y[l.nk..l.ny()]);
        }
        WarmStart { solution: vec![0.0; model.system_size()], previous: vec![0.0; model.system_size()], pair_interval: f64::NAN, older: vec![0.0; 6 * model.body_count()], intervals: [f64::NAN; 3], e_solution, first_barrier: None }
    }

    /// Copies `other` in; allocates only when `other` follows a larger contact layout.
    pub fn copy_from(&mut self, other: &WarmStart) {
        self.solution.clone_from(&other.solution);
        self.previous.clone_from(&other.previous);
        self.pair_interval = other.pair_interval;
        self.older.copy_from_slice(&other.older);
        self.intervals = other.intervals;
        self.e_solution.clone_from(&other.e_solution);
        self.first_barrier = other.first_barrier;
    }
}
