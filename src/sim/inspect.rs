//! Diagnostics that look inside a simulation without stepping it: how many joint
//! constraints are redundant at the current configuration (a planar loop closed in 3-D
//! by parallel revolute joints repeats three rows per loop), and (with the `test-support`
//! feature) the Newton matrix of the next step, for checking the graph solver against a
//! dense LU. These allocate;
//! they are not for the stepping loop.

use super::Sim;
use crate::integrator::joint_rows::multiplier_jacobian;
#[cfg(feature = "test-support")]
use crate::solver::BlockMatrix;

/// Rank of the stacked joint-constraint Jacobian G (all joints' rows against all bodies'
/// velocities) at one configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConstraintRank {
    /// Constraint rows (multipliers) of all joints.
    pub rows: usize,
    /// Independent rows: the numerical rank of G.
    pub rank: usize,
    /// rows − rank: constraints that repeat others. The solver tolerates them (loop
    /// joints carry a relative pivot regularization); their multipliers are not unique.
    pub redundant: usize,
    /// Degrees of freedom at this configuration: 6 · bodies − rank.
    pub dof: usize,
}

/// Singular values below this fraction of the largest count as zero. Redundant rows of
/// a planar loop give ~1e-16; a genuine near-singular pose (four-bar almost stretched)
/// stays above until it is within ~1e-8 rad of the singularity.
pub const RANK_TOLERANCE: f64 = 1e-9;

impl Sim {
    /// The dense constraint Jacobian G (rows × 6·bodies, row-major), velocity columns
    /// (v world, ω body) per body, at the current configuration.
    pub fn constraint_jacobian_dense(&self) -> (usize, usize, Vec<f64>) {
        let model = &*self.model;
        let rows: usize = model.joints.iter().map(|j| j.constraint_count()).sum();
        let cols = 6 * model.body_count();
        let mut g = vec![0.0; rows * cols];
        let (mut ga, mut gb) = ([0.0; 36], [0.0; 36]);
        let mut r0 = 0;
        for j in &model.joints {
            let nc = j.constraint_count();
            let pose = |b: Option<usize>| self.data.state.pose(b);
            multiplier_jacobian(j, &pose(j.parent), &pose(Some(j.child)), &mut ga[..nc * 6], &mut gb[..nc * 6]);
            for (body, blk) in [(j.parent, &ga), (Some(j.child), &gb)] {
                let Some(body) = body else { continue };
                for r in 0..nc {
                    for c in 0..6 {
                        g[(r0 + r) * cols + 6 * body + c] += blk[r * 6 + c];
                    }
                }
            }
            r0 += nc;
        }
        (rows, cols, g)
    }

    /// Counts redundant joint constraints at the current configuration (SVD of the dense
    /// G). A1's three-link loop has 4 revolute joints = 20 rows on 3 bodies = 18
    /// velocities, 1 degree of freedom, so rank 17 and 3 redundant rows.
    pub fn constraint_rank(&self) -> ConstraintRank {
        let (rows, cols, g) = self.constraint_jacobian_dense();
        let rank = if rows == 0 {
            0
        } else {
            let m = nalgebra::DMatrix::from_row_slice(rows, cols, &g);
            let sv = m.singular_values();
            let smax = sv.iter().fold(0.0f64, |a, &b| a.max(b));
            sv.iter().filter(|&&s| s > RANK_TOLERANCE * smax).count()
        };
        ConstraintRank { rows, rank, redundant: rows - rank, dof: cols - rank }
    }

    /// The Newton matrix of the next step at its warm start (prediction z_{k+1} from the
    /// current state, iterate = current velocities and last multipliers), assembled by the
    /// step's own assembly but not factored, in the model's block pattern. The state is
    /// not changed. (Equality part: a model's contact rows are assembled by the interior
    /// point, see `debug_contact_system_check`.)
    #[cfg(feature = "test-support")]
    pub fn newton_matrix(&mut self) -> BlockMatrix {
        let layout = self.layout();
        let (model, d) = (&*layout, &mut self.data);
        crate::step::predict(model, d);
        crate::step::warm_start::warm_start(model, &d.warm, &d.state, d.dt, &mut d.scratch.it.s);
        let eqs = crate::step::problem::Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked, friction: crate::step::problem::Friction::Coulomb };
        eqs.jacobian(&d.scratch.it.s, &mut d.scratch.next, &mut d.scratch.matrix);
        d.scratch.matrix.clone()
    }

    /// ‖residual‖∞ of the next step's equality rows at its warm start, and at the plain
    /// warm start (current velocities, last multipliers) for comparison. The state is not
    /// changed.
    #[cfg(feature = "test-support")]
    pub fn debug_warm_start_residuals(&mut self) -> (f64, f64) {
        let layout = self.layout();
        let (model, d) = (&*layout, &mut self.data);
        crate::step::predict(model, d);
        let eqs = crate::step::problem::Equations { model, frame: &d.frame, inputs: &d.inputs, g: &d.g, dt: d.dt, tracked: &d.tracked, friction: crate::step::problem::Friction::Coulomb };
        let (s, r, next) = (&mut d.scratch.it.s, &mut d.scratch.it.r, &mut d.scratch.next);
        crate::step::warm_start::warm_start(model, &d.warm, &d.state, d.dt, s);
        eqs.residual(s, next, r);
        let warm = crate::step::problem::norm_inf(r);
        s.copy_from_slice(&d.warm.solution);
        for i in 0..d.state.v.len() {
            model.addresses.set_velocities(s, i, &d.state.v[i], &d.state.w[i]);
        }
        eqs.residual(s, next, r);
        (warm, crate::step::problem::norm_inf(r))
    }

    /// [`Sim::newton_matrix`] as a dense row-major array (dimension `model().system_size()`).
    #[cfg(feature = "test-support")]
    pub fn newton_matrix_dense(&mut self) -> Vec<f64> {
        let layout = self.layout();
        self.newton_matrix().to_dense(&layout.symbolic)
    }
}
