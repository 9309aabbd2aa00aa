//! `maxdyn_model`: the compiled, immutable mechanism, from C. It is held by `Arc`, so
//! sims made from it keep it alive: the model may be freed before its sims.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::args::{count_i32, joint_index, out};
use super::builder::maxdyn_builder;
use super::guard::{call, with_ref};
use super::handles::{free, into_raw, Object};
use super::status::maxdyn_status;
use crate::model::Model;

/// A compiled mechanism (opaque, immutable, may be shared by sims on several threads).
/// Create with `maxdyn_model_new`, free with `maxdyn_model_free`.
pub struct maxdyn_model {
    pub(crate) inner: Arc<Model>,
    poisoned: AtomicBool,
}

impl Object for maxdyn_model {
    fn poison_flag(&self) -> &AtomicBool {
        &self.poisoned
    }
}

/// Validates and compiles the builder's mechanism into a new model in `*out`. The
/// builder is not changed and may be freed or reused afterwards. A mechanism without
/// bodies, and mimics that form a cycle (a follows b and b follows a, or longer), are
/// MAXDYN_STATUS_INVALID_MODEL; the message names the joints of the cycle in order.
///
/// # Safety
/// `builder` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_new(builder: *const maxdyn_builder, out: *mut *mut maxdyn_model) -> maxdyn_status {
    call("maxdyn_model_new", || {
        let o = super::args::out(out, "out")?;
        let model = with_ref(builder, "builder", |b| Ok(Model::new(&b.inner)?))?;
        *o = into_raw(maxdyn_model { inner: Arc::new(model), poisoned: AtomicBool::new(false) });
        Ok(())
    })
}

/// Frees a model. NULL is accepted. Sims made from it stay valid (they share it).
///
/// # Safety
/// `model` is NULL or from `maxdyn_model_new` and not freed yet.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_free(model: *mut maxdyn_model) {
    free(model)
}

/// Number of bodies, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_body_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_body_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.body_count())))?;
        Ok(())
    })
}

/// Number of joints, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_joint_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.joint_count())))?;
        Ok(())
    })
}

/// Number of minimal coordinates (free directions) of `joint`, in `*out_dof`: the
/// length of the arrays of `maxdyn_sim_get_joint_position` and friends.
///
/// # Safety
/// `model` is NULL or live; `out_dof` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_joint_dof(model: *const maxdyn_model, joint: i32, out_dof: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_joint_dof", || {
        let o = out(out_dof, "out_dof")?;
        *o = with_ref(model, "model", |m| {
            let j = joint_index(joint, m.inner.joint_count(), "joint")?;
            Ok(count_i32(m.inner.joints[j].dof()))
        })?;
        Ok(())
    })
}

/// Number of independent kinematic loops (joints that close a cycle of the mechanism
/// graph, e.g. a URDF `<loop_joint>`), in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_loop_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_loop_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.loop_count)))?;
        Ok(())
    })
}

/// Number of contacts of the model, in `*out`.
///
/// # Safety
/// `model` is NULL or live; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn maxdyn_model_get_contact_count(model: *const maxdyn_model, out: *mut i32) -> maxdyn_status {
    call("maxdyn_model_get_contact_count", || {
        let o = super::args::out(out, "out")?;
        *o = with_ref(model, "model", |m| Ok(count_i32(m.inner.contacts.len())))?;
        Ok(())
    })
}
