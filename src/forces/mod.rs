//! Force elements (paper section 2): joint springs and dampers, point-to-point springs,
//! joint actuators. Each contributes to the body residuals and to the Newton matrix
//! through the hooks below, called by `Sim::step`.

use crate::integrator::StepFrame;
use crate::model::Model;
use crate::solver::{BlockMatrix, SparsityGraph};

/// Extra couplings of the Newton matrix (e.g. a damper couples its two bodies directly).
pub fn add_graph_edges(_model: &Model, _graph: &mut SparsityGraph, _body_node: &[usize]) {}

/// Adds force-element terms to the step residual at iterate `s`.
pub fn add_residual(_model: &Model, _frame: &StepFrame, _s: &[f64], _r: &mut [f64]) {}

/// Adds force-element Jacobian blocks to the Newton matrix at iterate `s`.
pub fn add_jacobian(_model: &Model, _frame: &StepFrame, _s: &[f64], _m: &mut BlockMatrix) {}
