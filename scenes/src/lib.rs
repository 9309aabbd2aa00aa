//! The scenes of SCENARIOS.md, built through maxdyn's public Rust API, in one place for
//! the integration tests (`tests/`), the examples, the benchmarks (`benches/`) and the
//! diagnostics (`tools/`): a dev-dependency of maxdyn, not part of the library.

pub mod damped_pendulum;
pub mod double_pendulum;
pub mod exoskeleton;
pub mod graphs;
pub mod heights;
pub mod loop_rk4;
pub mod mechanisms;
pub mod piles;
pub mod quadruped;
pub mod robot_drops;
pub mod timing;
