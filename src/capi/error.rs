//! Failures of C calls: a status plus a message, the mapping from the Rust API's
//! [`Error`], the failures only C calls can meet, and the thread-local last error
//! message.

use std::cell::RefCell;
use std::ffi::{c_char, CString};

use super::status::maxdyn_status::{self, *};
use crate::error::Error;

/// A failed C call: its status and a message naming the offending argument.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub status: maxdyn_status,
    pub message: String,
}

pub(crate) type CResult<T> = std::result::Result<T, Failure>;

impl Failure {
    pub fn new(status: maxdyn_status, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into() }
    }

    pub fn null(arg: &str) -> Failure {
        Failure::new(MAXDYN_STATUS_NULL_POINTER, format!("argument `{arg}` is NULL"))
    }
}

/// The failures only the C layer can meet (the Rust API has no such inputs or states,
/// so its [`Error`] has no such variants).
impl Failure {
    /// An `int32_t` that stands for a Rust enum has no such value; `values` lists them.
    pub fn invalid_enum(arg: &str, value: i32, what: &str, values: &str) -> Failure {
        Failure::new(MAXDYN_STATUS_INVALID_ENUM, format!("argument `{arg}`: {value} is not a {what} ({values})"))
    }

    /// An object left unusable by a panic caught earlier.
    pub fn poisoned(arg: &str) -> Failure {
        Failure::new(MAXDYN_STATUS_POISONED, format!("argument `{arg}` was poisoned by an earlier internal error; free it"))
    }

    /// The control callback asked to abort the step.
    pub fn callback_aborted(code: i32) -> Failure {
        Failure::new(MAXDYN_STATUS_CALLBACK_ABORTED, format!("the control callback returned {code}; the step was not taken"))
    }

    /// A sim stepped from inside its own control callback.
    pub fn reentrant_step(arg: &str) -> Failure {
        Failure::new(MAXDYN_STATUS_REENTRANT_CALL, format!("argument `{arg}` is being stepped: it cannot be stepped from its own control callback"))
    }
}

impl Failure {
    /// Messages name the C function's own parameters: where the Rust API names a part of
    /// one (a body state's `omega`) or the object behind it (a sim's `model`), the C
    /// function renames it (`names`: Rust name, C parameter), keeping the Rust name in
    /// brackets when it is another word.
    pub fn renamed(mut self, names: &[(&str, &str)]) -> Failure {
        for (from, to) in names {
            let same = to.to_lowercase().starts_with(&from.to_lowercase()) || to.ends_with(&format!(".{from}"));
            let part = if same { String::new() } else { format!(" (its `{from}`)") };
            for marker in ["argument `", "array `"] {
                self.message = self.message.replace(&format!("{marker}{from}`"), &format!("{marker}{to}`{part}"));
            }
        }
        self
    }
}

/// The names a sim's query gives the sim's parts (its model, its state): in C they are
/// the `sim` argument.
pub(crate) const SIM: &[(&str, &str)] = &[("model", "sim"), ("state", "sim")];

/// A new sim refuses a model whose bodies start turning too fast for dt: their `omega` is
/// the `model` argument's.
pub(crate) const NEW_SIM: &[(&str, &str)] = &[("omega", "model")];

/// A result whose failure names the C function's parameters (see [`Failure::renamed`]).
pub(crate) fn renamed<T, E: Into<Failure>>(r: Result<T, E>, names: &[(&str, &str)]) -> CResult<T> {
    r.map_err(|e| e.into().renamed(names))
}

/// The status of each Rust API error, and a message that names the argument (variants
/// that carry no argument name get the usual one).
impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let (status, arg) = match &e {
            Error::NonFinite(a) => (MAXDYN_STATUS_NON_FINITE, Some(*a)),
            Error::UnknownBody(_) => (MAXDYN_STATUS_UNKNOWN_BODY, Some("body")),
            Error::UnknownJoint(_) => (MAXDYN_STATUS_UNKNOWN_JOINT, Some("joint")),
            Error::UnknownContact(_) => (MAXDYN_STATUS_UNKNOWN_CONTACT, Some("contact")),
            Error::InvalidMass(_) => (MAXDYN_STATUS_INVALID_MASS, Some("mass")),
            Error::InvalidInertia(_) => (MAXDYN_STATUS_INVALID_INERTIA, Some("inertia")),
            Error::ZeroAxis(a) => (MAXDYN_STATUS_ZERO_AXIS, Some(*a)),
            Error::InvalidTimeStep(_) => (MAXDYN_STATUS_INVALID_TIME_STEP, Some("dt")),
            Error::InvalidArgument(a, _) => (MAXDYN_STATUS_INVALID_ARGUMENT, Some(*a)),
            Error::WrongLength { name, .. } => (MAXDYN_STATUS_WRONG_LENGTH, Some(*name)),
            Error::InvalidModel(_) => (MAXDYN_STATUS_INVALID_MODEL, None),
            Error::NotConverged { .. } => (MAXDYN_STATUS_NOT_CONVERGED, None),
            Error::NonFiniteState(_) => (MAXDYN_STATUS_NON_FINITE_STATE, None),
            Error::Diverged { .. } => (MAXDYN_STATUS_DIVERGED, None),
            Error::JointViolation { .. } => (MAXDYN_STATUS_JOINT_VIOLATION, None),
            Error::AssemblyFailed(_) => (MAXDYN_STATUS_ASSEMBLY_FAILED, None),
            Error::UnresolvedPenetration { .. } => (MAXDYN_STATUS_UNRESOLVED_PENETRATION, None),
            Error::ContactCapacity { .. } => (MAXDYN_STATUS_CONTACT_CAPACITY, None),
            Error::Urdf(_) => (MAXDYN_STATUS_URDF, None),
            Error::InvalidShape(a, _) => (MAXDYN_STATUS_INVALID_SHAPE, Some(*a)),
            Error::UnknownShape(_) => (MAXDYN_STATUS_UNKNOWN_SHAPE, Some("shape")),
        };
        let text = e.to_string();
        let message = match arg {
            // the message already quotes the argument
            Some(a) if text.contains(&format!("`{a}`")) => text,
            Some(a) => format!("argument `{a}`: {text}"),
            None => text,
        };
        Failure { status, message }
    }
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Records a failure of `function` as this thread's last error.
pub(crate) fn set_last_error(function: &str, f: &Failure) {
    // an interior NUL cannot be represented; replace it rather than lose the message
    let text = format!("{function}: {}", f.message).replace('\0', "?");
    let c = CString::new(text).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

/// The message of the most recent failed call on this thread ("" if none failed yet).
/// Never NULL. The text names the function and the offending argument. It stays valid
/// until the next failing call on the same thread; copy it to keep it. Successful calls
/// do not clear it.
#[no_mangle]
pub extern "C" fn maxdyn_last_error_message() -> *const c_char {
    // `try_with` fails only during thread teardown; a static empty string keeps the
    // never-NULL promise then too
    LAST_ERROR.try_with(|e| e.borrow().as_ptr()).unwrap_or(c"".as_ptr())
}
