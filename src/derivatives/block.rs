//! One block of ∂f/∂z_{k+1}, the step residual's derivative with respect to the
//! configuration it holds fixed: what the joints' (`step_sensitivity`), contacts'
//! (`contact_sensitivity`) and limits' and mimics' (`coordinate_sensitivity`) rows
//! contribute, added into the implicit function theorem's right-hand sides.

use crate::contact::cone::MAX_K;

/// Most rows of one block: a body's six, or a contact's K rows.
pub(super) const MAX_BLOCK_ROWS: usize = if MAX_K > 6 { MAX_K } else { 6 };

/// One block of ∂f/∂z_{k+1}: `rows` residual rows from `row`, by the tangent of body `col`.
pub(super) struct Block {
    pub row: usize,
    pub rows: usize,
    pub col: usize,
    /// rows × 6, row-major.
    pub m: [f64; 6 * MAX_BLOCK_ROWS],
}

impl Block {
    /// A block of `rows` rows from the first `6 rows` entries of `m`.
    pub fn new(row: usize, rows: usize, col: usize, m: &[f64]) -> Block {
        let mut b = Block { row, rows, col, m: [0.0; 6 * MAX_BLOCK_ROWS] };
        b.m[..6 * rows].copy_from_slice(&m[..6 * rows]);
        b
    }
}
