//! The unit tests' smallest model through the C API: one free body of 1 kg.

use super::builder::{maxdyn_builder, maxdyn_builder_add_body, maxdyn_builder_new};
use super::model::{maxdyn_model, maxdyn_model_new};
use super::status::maxdyn_status::MAXDYN_STATUS_OK;

/// A builder with one free body (1 kg, unit inertia) and its model; the caller frees both.
pub unsafe fn one_body_model() -> (*mut maxdyn_builder, *mut maxdyn_model) {
    let mut b = std::ptr::null_mut();
    assert_eq!(maxdyn_builder_new(&mut b), MAXDYN_STATUS_OK);
    let inertia = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
    let mut body = -1;
    assert_eq!(maxdyn_builder_add_body(b, 1.0, inertia.as_ptr(), &mut body), MAXDYN_STATUS_OK);
    let mut m = std::ptr::null_mut();
    assert_eq!(maxdyn_model_new(b, &mut m), MAXDYN_STATUS_OK);
    (b, m)
}
