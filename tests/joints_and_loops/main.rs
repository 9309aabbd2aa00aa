//! Joints and kinematic loops: the thirteen joint types move only in their free
//! directions, minimal coordinates round-trip, the analytic constraint and body Jacobians
//! match finite differences, and closed loops (three-link loop, crank-rocker, double
//! four-bar through its singular pose, loop chains) hold their constraints, report their
//! redundancy and fill the solver only inside the loops.

#[path = "../common/mod.rs"]
mod common;

mod joint_types;
mod minimal_coordinates;
mod jacobians;
mod loops;
mod universal;
