//! The C ABI: every `extern "C"` item and nothing else (no physics here). Conventions
//! (DESIGN.md "C API conventions"): functions `maxdyn_<object>_<verb>`, object first,
//! then inputs, then outputs; every fallible call returns `maxdyn_status` and writes its
//! out-pointers only on success; every pointer is NULL-checked and every input validated
//! before anything changes; a caught panic returns `MAXDYN_STATUS_INTERNAL` and poisons
//! the object. The header `include/maxdyn.h` is generated from this module by cbindgen
//! (`MAXDYN_BLESS=1 cargo test --test header` rewrites it).
//!
//! One file per C object or group of functions (rustls-ffi style). cbindgen writes the
//! header in the order of the `mod` lines below, so their order is the header's:
//! status, errors and version; the builder (bodies and joints, names, force elements,
//! contacts, shape types, URDF); the model; the sim (stepping, options, state, inputs, contacts,
//! limits, diagnostics); last the deprecated names.

#![allow(non_camel_case_types)]

mod args;
mod guard;
mod handles;

pub mod status;
pub mod error;
pub mod version;
pub mod builder;
pub mod builder_names;
pub mod builder_constraints;
pub mod builder_forces;
pub mod builder_contacts;
pub mod builder_shapes;
pub mod builder_collision;
pub mod urdf;
pub mod model;
pub mod model_names;
pub mod model_structure;
pub mod model_frames;
pub mod model_shapes;
pub mod model_constraints;
pub mod sim;
pub mod options;
pub mod sim_state;
pub mod sim_whole_state;
pub mod sim_assemble;
pub mod sim_snapshot;
pub mod sim_kinematics;
pub mod sim_dynamics;
pub mod sim_derivatives;
pub mod sim_inputs;
pub mod sim_contacts;
pub mod sim_shape_contacts;
pub mod sim_limits;
pub mod diagnostics;
pub mod step_stats_sized;
pub mod recorder;
pub mod batch;
pub mod deprecated;
#[cfg(test)]
mod test_model;

pub use builder::*;
pub use builder_constraints::*;
pub use builder_contacts::*;
pub use builder_forces::*;
pub use builder_shapes::maxdyn_shape_type;
pub use builder_collision::*;
pub use builder_names::*;
pub use deprecated::*;
pub use diagnostics::*;
pub use step_stats_sized::*;
pub use error::maxdyn_last_error_message;
pub use model::*;
pub use model_constraints::*;
pub use model_frames::*;
pub use model_shapes::*;
pub use model_names::*;
pub use model_structure::*;
pub use options::*;
pub use recorder::*;
pub use sim::*;
pub use sim_contacts::*;
pub use sim_shape_contacts::*;
pub use sim_limits::*;
pub use sim_whole_state::*;
pub use sim_inputs::*;
pub use sim_state::*;
pub use sim_assemble::*;
pub use sim_snapshot::*;
pub use sim_kinematics::*;
pub use sim_dynamics::*;
pub use sim_derivatives::*;
pub use status::{maxdyn_status, maxdyn_status_string};
pub use urdf::*;
pub use version::*;
