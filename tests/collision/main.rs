//! Collision shapes on bodies (issue 12): contacts found every step between shapes, several
//! points per pair, body–body contacts through the broad phase.

mod boxes;
mod capi;
mod overlap;
mod rolling;
mod robots;
mod stacks;
mod state;
