//! The C ABI: every `extern "C"` item and nothing else (no physics here). Conventions
//! (DESIGN.md "C API conventions"): functions `maxdyn_<object>_<verb>`, object first,
//! then inputs, then outputs; every fallible call returns `maxdyn_status` and writes its
//! out-pointers only on success; every pointer is NULL-checked and every input validated
//! before anything changes; a caught panic returns `MAXDYN_STATUS_INTERNAL` and poisons
//! the object. The header `include/maxdyn.h` is generated from this module by cbindgen
//! (`MAXDYN_BLESS=1 cargo test --test header` rewrites it).

#![allow(non_camel_case_types)]

mod args;
pub mod builder;
pub mod contacts;
pub mod error;
pub mod forces;
mod guard;
mod handles;
pub mod model;
pub mod names;
pub mod sim;
pub mod sim_state;
pub mod status;
pub mod urdf;
pub mod version;

pub use builder::*;
pub use contacts::*;
pub use error::maxdyn_last_error_message;
pub use forces::*;
pub use handles::maxdyn_debug_live_objects;
pub use model::*;
pub use names::*;
pub use sim::*;
pub use sim_state::*;
pub use status::{maxdyn_status, maxdyn_status_string};
pub use urdf::*;
pub use version::*;
