//! Errors of the Rust API, at the crate root so that every layer reaches them. Each
//! variant maps to one C status code (`capi::error`); failures only the C layer can
//! produce (a poisoned object, an invalid enum integer, an aborting callback) are not
//! here but in `capi::error::Failure`.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    #[error("argument `{0}` is not finite (NaN or Inf)")]
    NonFinite(&'static str),
    #[error("unknown body id {0}")]
    UnknownBody(i32),
    #[error("unknown joint id {0}")]
    UnknownJoint(i32),
    #[error("unknown contact id {0}")]
    UnknownContact(i32),
    #[error("invalid mass {0}: must be finite and > 0")]
    InvalidMass(f64),
    #[error("invalid inertia: {0}")]
    InvalidInertia(String),
    #[error("argument `{0}` is a zero-length vector")]
    ZeroAxis(&'static str),
    #[error("invalid time step {0}: must be in [1e-9, 1] s")]
    InvalidTimeStep(f64),
    #[error("invalid argument `{0}`: {1}")]
    InvalidArgument(&'static str, String),
    #[error("array `{name}` has length {got}, expected {expected}")]
    WrongLength { name: &'static str, got: usize, expected: usize },
    #[error("invalid model: {0}")]
    InvalidModel(String),
    #[error("step did not converge: residual {residual:e} after {iterations} iterations")]
    NotConverged { residual: f64, iterations: usize },
    #[error("step result is not finite ({0}); the state stays at the last good step")]
    NonFiniteState(&'static str),
    #[error("step diverged: the springs gained {gain:e} J, more than any stable spring can (bound {bound:e} J): a spring too stiff for dt")]
    Diverged { gain: f64, bound: f64 },
    #[error("joint {joint} is violated by {violation:e} at the start (tolerance {tolerance:e}): the poses set do not satisfy the joints; set joint coordinates instead, or assemble the sim (maxdyn_sim_assemble / Sim::assemble)")]
    JointViolation { joint: usize, violation: f64, tolerance: f64 },
    #[error("assembly failed: {0}; the state is unchanged")]
    AssemblyFailed(String),
    #[error("the start penetrates {depth:e} m deep between body {body_a} and {}, and the projection out of penetration could not move them apart in {rounds} round(s) (tolerance {tolerance:e} m): joints, limits, other bodies or the world hold them, or the projection's solve did not converge", body_name(.body_b))]
    UnresolvedPenetration { body_a: usize, body_b: Option<usize>, depth: f64, rounds: usize, tolerance: f64 },
    #[error("the step needs {needed} contact slots between collision shapes, more than the model's capacity of {capacity}: raise it when building the model (maxdyn_builder_set_contact_capacity / Builder::set_contact_capacity); nothing changed")]
    ContactCapacity { needed: usize, capacity: usize },
    #[error("URDF: {0}")]
    Urdf(String),
    #[error("invalid shape `{0}`: {1}")]
    InvalidShape(&'static str, String),
    #[error("unknown shape id {0}")]
    UnknownShape(i32),
}

pub type Result<T> = std::result::Result<T, Error>;

/// "body 3", or "the world" for a contact's world side.
fn body_name(body: &Option<usize>) -> String {
    body.map_or_else(|| "the world".to_string(), |b| format!("body {b}"))
}

/// Checks that every value is finite.
pub fn check_finite(name: &'static str, v: &[f64]) -> Result<()> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(Error::NonFinite(name))
    }
}

/// Checks that an array has the expected length.
pub(crate) fn check_len(name: &'static str, got: usize, expected: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::WrongLength { name, got, expected })
    }
}

/// Checks that every value is ≥ 0.
pub(crate) fn check_non_negative(name: &'static str, v: &[f64]) -> Result<()> {
    if v.iter().all(|&x| x >= 0.0) {
        Ok(())
    } else {
        Err(Error::InvalidArgument(name, "must be ≥ 0".into()))
    }
}
