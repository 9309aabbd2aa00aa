//! Linear algebra of the Newton step: the graph-based block LDU (paper section 4,
//! algorithms 1–4), as a pipeline run once per model up to the symbolic stage:
//! [`sparsity`] (the block graph) → [`ordering`] (elimination order and its fill) →
//! [`symbolic`] (block layout) → [`graph_ldu`] (numeric factor and solve, every step).

pub mod graph_ldu;
pub mod ordering;
pub mod sparsity;
pub mod symbolic;

// a test hook (the test suite and the contact-system check in `sim`): not shipped
#[cfg(feature = "test-support")]
pub mod dense_reference;

pub use graph_ldu::{BlockMatrix, SingularPivot};
pub use ordering::EliminationOrder;
pub use sparsity::{NodeKind, SparsityGraph};
pub use symbolic::Symbolic;
