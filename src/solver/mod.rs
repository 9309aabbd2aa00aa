//! Linear algebra of the Newton step: the graph-based block LDU (paper section 4,
//! algorithms 1–4) and a dense LU reference used by the tests.

pub mod graph_ldu;
mod ordering;
pub mod dense_reference;

pub use graph_ldu::{BlockMatrix, SparsityGraph, Symbolic};
