//! Force elements and inputs: spring periods and damping decrements, a damped pendulum
//! against a reference solution, PD control and body wrenches, the energy balance with
//! inputs and dampers, servo targets, their Jacobians, and the builder's validation of them.

mod springs;
mod damped_pendulum;
mod control;
mod energy_balance;
mod jacobian;
mod builder;
mod servo;
