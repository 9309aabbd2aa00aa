//! maxdyn: multibody dynamics in maximal coordinates (Brüdigam et al., "Variational
//! Integrators and Graph-Based Solvers for Multibody Dynamics in Maximal Coordinates").
//!
//! Data flow: [`Builder`] (mutable description) → [`Model`] (immutable, compiled graph and
//! elimination order) → [`Sim`] (one rollout: the model, its data — state, inputs, warm
//! start, preallocated workspace, outputs — and the solver options) → `Sim::step`, the
//! named stages of `step` on `(&Model, &mut Data)`.

// the README's Rust example runs as a doctest (tests/readme_examples.rs runs its C and
// Python ones)
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

pub mod error;
pub mod math;
pub mod model;
pub mod joints;
pub mod solver;
pub mod integrator;
pub mod forces;
pub mod contact;
pub mod limits;
pub mod mimic;
mod data;
mod step;
pub mod sim;
pub mod kinematics;
pub mod dynamics_terms;
pub mod derivatives;
pub mod batch;
pub mod urdf;
pub mod record;
pub mod capi;

pub use model::{Body, BodyId, Builder, Collision, CollisionShape, Error, Frame, Inertia, JointId, JointLimit, Mimic, Model, Parent, Shape, ShapeId, ShapeKind};
pub use joints::JointType;
pub use kinematics::{Axes, Coords, Target};
pub use contact::{ConeType, ContactId};
pub use sim::{ContactReport, Integrator, LimitReport, ShapeContactReport, Sim, SolverOptions, StepStats};
