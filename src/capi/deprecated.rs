//! The names of C functions before the `get_` rule (every function that reads a value
//! is `maxdyn_<object>_get_<thing>`, counts included). They are in users' code, so each
//! stays exported as an alias that calls the new function; a failure is reported under
//! the new function's name.

use super::builder::{maxdyn_builder, maxdyn_builder_get_body_count, maxdyn_builder_get_joint_count};
use super::builder_contacts::maxdyn_builder_get_contact_count;
use super::builder_forces::maxdyn_builder_get_spring_count;
use super::diagnostics::{
    maxdyn_sim_get_constraint_rank, maxdyn_sim_get_constraint_violation, maxdyn_sim_get_energy, maxdyn_sim_get_spring_energy,
};
use super::model::{
    maxdyn_model, maxdyn_model_get_body_count, maxdyn_model_get_contact_count, maxdyn_model_get_joint_count,
    maxdyn_model_get_joint_dof, maxdyn_model_get_loop_count,
};
use super::sim::maxdyn_sim;
use super::status::maxdyn_status;

/// Deprecated alias of `maxdyn_builder_get_body_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_builder_get_body_count`.
#[deprecated(note = "use maxdyn_builder_get_body_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_body_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    maxdyn_builder_get_body_count(builder, out)
}

/// Deprecated alias of `maxdyn_builder_get_joint_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_builder_get_joint_count`.
#[deprecated(note = "use maxdyn_builder_get_joint_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_joint_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    maxdyn_builder_get_joint_count(builder, out)
}

/// Deprecated alias of `maxdyn_builder_get_spring_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_builder_get_spring_count`.
#[deprecated(note = "use maxdyn_builder_get_spring_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_spring_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    maxdyn_builder_get_spring_count(builder, out)
}

/// Deprecated alias of `maxdyn_builder_get_contact_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_builder_get_contact_count`.
#[deprecated(note = "use maxdyn_builder_get_contact_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_builder_contact_count(builder: *const maxdyn_builder, out: *mut i32) -> maxdyn_status {
    maxdyn_builder_get_contact_count(builder, out)
}

/// Deprecated alias of `maxdyn_model_get_body_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_model_get_body_count`.
#[deprecated(note = "use maxdyn_model_get_body_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_body_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    maxdyn_model_get_body_count(model, out)
}

/// Deprecated alias of `maxdyn_model_get_joint_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_model_get_joint_count`.
#[deprecated(note = "use maxdyn_model_get_joint_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_joint_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    maxdyn_model_get_joint_count(model, out)
}

/// Deprecated alias of `maxdyn_model_get_joint_dof`; kept for existing code.
///
/// # Safety
/// As `maxdyn_model_get_joint_dof`.
#[deprecated(note = "use maxdyn_model_get_joint_dof")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_joint_dof(model: *const maxdyn_model, joint: i32, out_dof: *mut i32) -> maxdyn_status {
    maxdyn_model_get_joint_dof(model, joint, out_dof)
}

/// Deprecated alias of `maxdyn_model_get_loop_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_model_get_loop_count`.
#[deprecated(note = "use maxdyn_model_get_loop_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_loop_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    maxdyn_model_get_loop_count(model, out)
}

/// Deprecated alias of `maxdyn_model_get_contact_count`; kept for existing code.
///
/// # Safety
/// As `maxdyn_model_get_contact_count`.
#[deprecated(note = "use maxdyn_model_get_contact_count")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_contact_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    maxdyn_model_get_contact_count(model, out)
}

/// Deprecated alias of `maxdyn_sim_get_energy`; kept for existing code.
///
/// # Safety
/// As `maxdyn_sim_get_energy`.
#[deprecated(note = "use maxdyn_sim_get_energy")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_energy(sim: *const maxdyn_sim, kinetic: *mut f64, potential: *mut f64) -> maxdyn_status {
    maxdyn_sim_get_energy(sim, kinetic, potential)
}

/// Deprecated alias of `maxdyn_sim_get_spring_energy`; kept for existing code.
///
/// # Safety
/// As `maxdyn_sim_get_spring_energy`.
#[deprecated(note = "use maxdyn_sim_get_spring_energy")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_spring_energy(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    maxdyn_sim_get_spring_energy(sim, out)
}

/// Deprecated alias of `maxdyn_sim_get_constraint_violation`; kept for existing code.
///
/// # Safety
/// As `maxdyn_sim_get_constraint_violation`.
#[deprecated(note = "use maxdyn_sim_get_constraint_violation")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_constraint_violation(sim: *const maxdyn_sim, out: *mut f64) -> maxdyn_status {
    maxdyn_sim_get_constraint_violation(sim, out)
}

/// Deprecated alias of `maxdyn_sim_get_constraint_rank`; kept for existing code.
///
/// # Safety
/// As `maxdyn_sim_get_constraint_rank`.
#[deprecated(note = "use maxdyn_sim_get_constraint_rank")]
#[no_mangle]
pub unsafe extern "C" fn maxdyn_sim_constraint_rank(
    sim: *const maxdyn_sim,
    rows: *mut i32,
    rank: *mut i32,
    redundant: *mut i32,
    dof: *mut i32,
) -> maxdyn_status {
    maxdyn_sim_get_constraint_rank(sim, rows, rank, redundant, dof)
}
