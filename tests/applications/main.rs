//! The paper's applications on short horizons (tests/long_horizon.rs runs their full
//! 10 s): the exoskeleton whose cuffs close two loops and its gain limits, and the A1
//! quadruped standing, trotting and walking on rigid point contacts.

mod exoskeleton;
mod quadruped;
