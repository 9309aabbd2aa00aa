//! The sensitivity of one step's solution to what the step holds fixed, by the implicit
//! function theorem: the step solves f(s; z_{k+1}, ż_k, u) = 0 for s (velocities ż_{k+1}
//! and multipliers), so at its solution s*
//! ```text
//!   δs = −K⁻¹ (∂f/∂z_{k+1} δz_{k+1} + ∂f/∂ż_k δż_k + ∂f/∂u δu),    K = ∂f/∂s,
//! ```
//! with K the step's own Newton matrix, assembled at s* and factored once by the graph
//! LDU, and one solve per column. The explicit derivatives, by 6×6 (or nc×6) blocks per
//! body tangent (δx world, δφ body frame, q ↦ q ⊗ (1, δφ/2)):
//! * body rows: −∂(G(z_{k+1})ᵀλ)/∂z_{k+1} (`joints::force_derivative`) and the force
//!   elements' terms; through ż_k, d_T = m (v_{k+1} − v_k)/h₀ and the known momentum
//!   (s₀ I − [ω_k]×) J ω_k of d_R (`integrator::body_dynamics`);
//! * joint rows g(z_{k+2}), z_{k+2} = (x_{k+1} + v dt, q_{k+1} ⊗ ω̄(ω, dt)): moving z_{k+1}
//!   moves z_{k+2} by (δx, Q(ω̄)ᵀ δφ), so their block is the constraint's tangent block at
//!   z_{k+2} through that map;
//! * inputs: `input_column` (forces held over the step, directions at z_{k+1});
//! * force elements (`forces::configuration_derivative`), contacts
//!   (`contact_sensitivity`: also the interior point's condensed matrix at its solution)
//!   and joint limits and mimics (`coordinate_sensitivity`).

use super::{contact_sensitivity, coordinate_sensitivity};
use super::block::Block;
use super::input_column;
use crate::integrator::prediction::advance;
use crate::forces::joint_directions::rate_rows;
use crate::integrator::{frame_pose, NextPoses};
use crate::joints::constraint::Side;
use crate::joints::force_derivative::{CHILD, PARENT};
use crate::joints::tangent::{Placement, RotationMap};
use crate::kinematics::Coords;
use crate::math::{rotation, skew, step_rotation, M3, V3};
use crate::model::{Error, Model, Result};
use crate::sim::Sim;
use crate::solver::{BlockMatrix, Symbolic};
use crate::step::problem::{Equations, Friction};

/// A step taken from a sim, with what its derivatives need.
pub(crate) struct StepSensitivity {
    /// The sim after the step.
    pub next: Sim,
    k: BlockMatrix,
    assembled: BlockMatrix,
    blocks: Vec<Block>,
    /// Per body: the blocks of its column.
    by_column: Vec<Vec<usize>>,
    /// Per body: ∂d_R/∂ω_k (the body rows' dependence on ż_k, with −m/h₀ on v_k).
    momentum_map: Vec<M3>,
    /// Refine every solve (the matrix holds contacts, `REFINEMENTS`).
    refine: bool,
    /// Interval of the known velocities ż_k and of the unknown ones.
    pub h0: f64,
    pub dt: f64,
    /// The body rows' divisor of the known terms: h₀, or with the higher-order integrators
    /// the node's impulse interval (h₀ + dt)/2, the known momentum then weighted h₀/impulse.
    impulse: f64,
    momentum_weight: f64,
}

impl StepSensitivity {
    /// Takes one step from a copy of `sim` and prepares its derivatives. Refused: models
    /// with contacts other than `contact_sensitivity` derives, a step that had to be
    /// split, and the higher-order integrators (their map is
    /// `second_order::SecondOrderStep`'s).
    pub fn at(sim: &Sim) -> Result<StepSensitivity> {
        if sim.options().integrator != crate::sim::Integrator::FirstOrder {
            return Err(Error::InvalidArgument("sim", "the step's velocity sensitivity is of the first-order integrator; this sim's options.integrator is second or fourth order (their linearization A, B is derived in maximal coordinates; otherwise use the linearization by differences)".into()));
        }
        let mut next = sim.clone();
        let stats = next.step()?;
        if stats.substeps > 1 {
            return Err(Error::InvalidArgument("state", format!("the step from this state was split in {} substeps; its derivative is not one step's", stats.substeps)));
        }
        let dt = next.dt();
        Self::solved(next, false, dt)
    }

    /// The derivatives of the solve whose frame, multiplier Jacobians and solution `next`
    /// holds (a step just taken, or the second-order integrator's consistent start, whose
    /// known rotational term is the node momentum (2/h₀) J ω₀: `node_momentum`), its
    /// unknown velocities spanning `interval` (the step's dt, or a part of a composition).
    pub fn solved(next: Sim, node_momentum: bool, interval: f64) -> Result<StepSensitivity> {
        let (d, _) = next.data_and_options();
        let model = d.layout(next.model()).clone();
        let contacts = model.inequality_count() > 0;
        if contacts {
            contact_sensitivity::check(&model)?;
        }
        let eqs = Equations { model: &model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: interval, tracked: &d.tracked, friction: Friction::Coulomb };
        let s = &d.scratch.it.s;
        let sym = &model.symbolic;
        let mut k = BlockMatrix::new(sym);
        let mut poses = NextPoses::new(model.body_count());
        eqs.jacobian(s, &mut poses, &mut k);
        if contacts {
            contact_sensitivity::assemble(&eqs, s, &poses, &d.scratch.contacts, &mut k)?;
        }
        let assembled = k.clone();
        k.factor(sym).map_err(|_| Error::InvalidArgument("state", "the step's Newton matrix is singular at its solution".into()))?;
        let (h0, dt) = (d.frame.dt, interval);
        let (impulse, momentum_weight) = if d.frame.second_order { (d.frame.impulse, h0 / d.frame.impulse) } else { (h0, 1.0) };
        let momentum_map = model.bodies.iter().enumerate().map(|(i, b)| if node_momentum { (2.0 / h0) * b.inertia } else { known_momentum_derivative(&b.inertia, h0, &d.frame.w0[i]) }).collect();
        let mut blocks = configuration_blocks(&model, &eqs, s);
        let at = &model.addresses;
        crate::forces::configuration_derivative::add_configuration_blocks(&model, &d.frame, &d.g, &d.inputs, s, &mut |row, col, m| blocks.push(Block::new(at.body(row), 6, col, m)));
        if contacts {
            contact_sensitivity::configuration_blocks(&eqs, s, &d.scratch.contacts, &mut blocks);
            coordinate_sensitivity::limit_blocks(&eqs, s, &d.scratch.contacts, &mut blocks);
        }
        coordinate_sensitivity::mimic_blocks(&eqs, s, &mut blocks);
        let mut by_column = vec![Vec::new(); model.body_count()];
        for (i, b) in blocks.iter().enumerate() {
            by_column[b.col].push(i);
        }
        Ok(StepSensitivity { next, k, assembled, blocks, by_column, momentum_map, refine: contacts, h0, dt, impulse, momentum_weight })
    }

    /// The model this solve's system follows (the model, or its collision contacts'
    /// layout at this solve).
    pub(super) fn model(&self) -> &Model {
        let (d, _) = self.next.data_and_options();
        d.layout(self.next.model())
    }

    /// The right-hand side −(∂f/∂z_{k+1} δz_{k+1} + ∂f/∂ż_k δż_k + ∂f/∂u δu) into `rhs`
    /// for a change of the prediction `dz1` and of the known velocities `dzd0` (6 per body
    /// each, tangent coordinates; `None` entries are zero) and of input `input` (a unit
    /// change): δs = K⁻¹ rhs.
    pub fn right_hand_side(&self, dz1: &[Option<[f64; 6]>], dzd0: &[Option<[f64; 6]>], input: Option<(Coords, usize)>, rhs: &mut [f64]) {
        let model = self.model();
        let at = &model.addresses;
        rhs.fill(0.0);
        for (body, dz) in dz1.iter().enumerate() {
            let Some(dz) = dz else { continue };
            for b in self.by_column[body].iter().map(|&i| &self.blocks[i]) {
                for (i, row) in b.m[..6 * b.rows].chunks_exact(6).enumerate() {
                    rhs[b.row + i] += row[0] * dz[0] + row[1] * dz[1] + row[2] * dz[2] + row[3] * dz[3] + row[4] * dz[4] + row[5] * dz[5];
                }
            }
        }
        for (i, body) in model.bodies.iter().enumerate() {
            if let Some(d) = &dzd0[i] {
                let o = at.body(i);
                // d_T = m (v − v_k)/h₀ …;  d_R = … − p₀(ω_k) (over the impulse interval)
                for k in 0..3 {
                    rhs[o + k] -= body.mass / self.impulse * d[k];
                }
                let dr = self.momentum_weight * (self.momentum_map[i] * V3::new(d[3], d[4], d[5]));
                for k in 0..3 {
                    rhs[o + 3 + k] -= dr[k];
                }
            }
        }
        if d_frame_second_order(self) {
            self.known_damping(dzd0, rhs);
        }
        if let Some((coords, c)) = input {
            let (d, _) = self.next.data_and_options();
            let eqs = Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: self.dt, tracked: &d.tracked, friction: Friction::Coulomb };
            input_column(&eqs, coords, c, rhs);
        }
        rhs.iter_mut().for_each(|x| *x = -*x);
    }

    /// The dampers' terms through the known velocities (the second- and fourth-order
    /// integrators weigh them into the rate, `StepFrame::damping_weights`): −c w₀ ξ(δż_k)
    /// along each damper's rows at z_{k+1}, added into `rhs` (before its sign change).
    fn known_damping(&self, dzd0: &[Option<[f64; 6]>], rhs: &mut [f64]) {
        let (d, _) = self.next.data_and_options();
        let model = self.model();
        let w0 = d.frame.damping_weights.0;
        if w0 == 0.0 {
            return;
        }
        let delta = |k: usize| dzd0[k].map_or((V3::zeros(), V3::zeros()), |x| (V3::new(x[0], x[1], x[2]), V3::new(x[3], x[4], x[5])));
        for dm in &model.forces.joint_dampers {
            let j = &model.joints[dm.joint];
            for (i, &c) in dm.damping.iter().enumerate().take(j.dof()) {
                if c != 0.0 {
                    let rows = rate_rows(j, &frame_pose(&d.frame, j.parent), &frame_pose(&d.frame, Some(j.child)), i);
                    rows.apply(-c * w0 * rows.rate(delta), model, rhs);
                }
            }
        }
        for sp in model.forces.point_springs.iter().filter(|sp| sp.damping != 0.0) {
            if let Some((rows, _)) = sp.rows(|k| (d.frame.x1[k], d.frame.q1[k])) {
                rows.apply(-sp.damping * w0 * rows.rate(delta), model, rhs);
            }
        }
    }

    /// δs for one right-hand side (`right_hand_side`) into `ds`; `r` is workspace.
    pub fn solve(&self, rhs: &[f64], r: &mut [f64], ds: &mut [f64]) {
        solve_refined(&self.k, &self.assembled, &self.model().symbolic, self.refine, rhs, ds, r);
    }

    /// δS = K⁻¹ B in place for `m` right-hand sides, B row-major (n × m): one pass of the
    /// factors over all columns, then the refinement of `solve` column by column where it
    /// applies.
    pub fn solve_many(&self, b: &mut [f64], m: usize) {
        let sym = &self.model().symbolic;
        let n = self.system_size();
        if !(self.refine || sym.regularization.iter().any(|&e| e != 0.0)) {
            return self.k.solve_many(sym, b, m);
        }
        let (mut col, mut x, mut r) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        for k in 0..m {
            for i in 0..n {
                col[i] = b[i * m + k];
            }
            self.solve(&col, &mut r, &mut x);
            for i in 0..n {
                b[i * m + k] = x[i];
            }
        }
    }

    pub fn system_size(&self) -> usize {
        self.model().system_size()
    }
}

fn d_frame_second_order(step: &StepSensitivity) -> bool {
    step.next.data_and_options().0.frame.second_order
}

/// ∂f/∂z_{k+1} of the joints' body and constraint rows at the solution `s`.
fn configuration_blocks(model: &Model, eqs: &Equations, s: &[f64]) -> Vec<Block> {
    let at = &model.addresses;
    let g = eqs.g;
    let mut blocks = Vec::new();
    // each body's z_{k+2} and the map of δφ at z_{k+1} to δφ at z_{k+2}, Q(ω̄)ᵀ
    let next: Vec<(Placement, M3)> = (0..model.body_count())
        .map(|i| {
            let (v, w) = at.velocities(s, i);
            (Placement::of(&advance(&eqs.frame.x1[i], &eqs.frame.q1[i], &v, &w, eqs.dt)), rotation(&step_rotation(&w, eqs.dt)).transpose())
        })
        .collect();
    let place2 = |b: Option<usize>| b.map_or(&Placement::WORLD, |i| &next[i].0);
    for (ji, j) in model.joints.iter().enumerate() {
        let Some(oj) = at.joint(ji) else { continue };
        let nc = j.constraint_count();
        let bodies = [j.parent, Some(j.child)];
        // body rows: −∂(G(z_{k+1})ᵀλ)/∂z_{k+1}
        let d = j.constraint_force_derivative(g.placement(j.parent), g.placement(Some(j.child)), &s[oj..oj + nc]);
        for r in [PARENT, CHILD] {
            let Some(rb) = bodies[r] else { continue };
            for c in [PARENT, CHILD] {
                let Some(cb) = bodies[c] else { continue };
                let mut m = [0.0; 36];
                for (k, v) in m.iter_mut().enumerate() {
                    *v = -d[r][c][(k / 6, k % 6)];
                }
                blocks.push(Block::new(at.body(rb), 6, cb, &m));
            }
        }
        // joint rows g(z_{k+2})
        let t = j.tangent_jacobian(place2(j.parent), place2(Some(j.child)));
        for (side, body) in [(Side::Parent, j.parent), (Side::Child, Some(j.child))] {
            let Some(body) = body else { continue };
            let mut m = [0.0; 36];
            j.tangent_block(&t, side, 1.0, RotationMap::Matrix(&next[body].1), &mut m[..6 * nc]);
            blocks.push(Block::new(oj, nc, body, &m));
        }
    }
    blocks
}

/// ∂/∂ω of the known momentum (s₀ I − [ω]×) J ω, s₀ = ±√(4/h₀² − ωᵀω) with the sign of
/// h₀ (`math::step_scalar`): J ω (−ωᵀ/s₀) + s₀ J − [ω]× J + [J ω]×.
fn known_momentum_derivative(j: &M3, h0: f64, w: &V3) -> M3 {
    let s = crate::math::step_scalar(w, h0);
    let jw = j * w;
    -(jw * w.transpose()) / s + s * j - skew(w) * j + skew(&jw)
}

/// Rounds of iterative refinement against the assembled matrix when the factorization
/// regularizes pivots (loop joints, `model::graph`) or the matrix holds contacts: unrefined,
/// the regularization biased the four-bar's input derivative by 1.6e-7 relative (refined,
/// 4.3e-10), and the interior point's barrier terms (complementarity partners of 1e-13
/// against forces of 10 N, pivots of 1e-14 in sticking friction) cost the quadruped's A
/// 2.8e-1 relative (refined, 5e-8).
const REFINEMENTS: usize = 3;

/// x = K⁻¹ b with the factored `k`, refined with the residual of the `assembled` K if
/// `refine` or the factorization regularized any pivot.
fn solve_refined(k: &BlockMatrix, assembled: &BlockMatrix, sym: &Symbolic, refine: bool, b: &[f64], x: &mut [f64], r: &mut [f64]) {
    x.copy_from_slice(b);
    k.solve(sym, x);
    let rounds = if refine || sym.regularization.iter().any(|&e| e != 0.0) { REFINEMENTS } else { 0 };
    for _ in 0..rounds {
        assembled.multiply(sym, x, r);
        r.iter_mut().zip(b).for_each(|(ri, bi)| *ri = bi - *ri);
        k.solve(sym, r);
        x.iter_mut().zip(r.iter()).for_each(|(xi, ri)| *xi += ri);
    }
}
