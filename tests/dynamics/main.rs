//! Dynamics of the variational integrator without contacts: energy bounded without
//! trend over an hour (double pendulum, against Heun), pendulum periods against the
//! elliptic integral, a torque-free body's discrete momentum, and Newton's method on
//! pendulum chains (constraints every step, its sparse matrix equal to the dense one).

#[path = "../common/mod.rs"]
mod common;

mod integrator;
mod newton;
