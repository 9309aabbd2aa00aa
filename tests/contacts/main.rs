//! Rigid contacts: box drops, sliding and sticking friction (linear and second-order
//! cones), resting sphere stacks, the sphere chain at the sizes that need split steps,
//! contacts left out of a step and checked after it, contacts closing cycles in the
//! solver graph, the interior point's linear systems and Jacobians, and its warm start.

#[path = "../common/mod.rs"]
mod common;

mod box_drop;
mod friction;
mod stack;
mod sphere_chain;
mod culling;
mod cycles;
mod solver;
mod warm_start;
mod many;
