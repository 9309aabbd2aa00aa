//! `maxdyn_status`: the return code of every C function that can fail.
//!
//! Codes are grouped by hundreds and append-only: a new code takes the next free number
//! of its group, an existing number never changes meaning.

use std::ffi::c_char;

/// Status of a C API call. `MAXDYN_STATUS_OK` (0) is success; anything else is a
/// failure whose details are in `maxdyn_last_error_message()`.
///
/// Groups: 1–99 invalid arguments, 100–199 invalid models and model files,
/// 200–299 simulation failures, 900–999 internal errors.
#[allow(non_camel_case_types)]
#[repr(i32)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum maxdyn_status {
    MAXDYN_STATUS_OK = 0,
    // --- invalid arguments (1–99)
    /// A required pointer argument is NULL.
    MAXDYN_STATUS_NULL_POINTER = 1,
    /// A body id is out of range.
    MAXDYN_STATUS_UNKNOWN_BODY = 2,
    /// A joint id is out of range.
    MAXDYN_STATUS_UNKNOWN_JOINT = 3,
    /// A contact id is out of range.
    MAXDYN_STATUS_UNKNOWN_CONTACT = 4,
    /// A number is NaN or infinite.
    MAXDYN_STATUS_NON_FINITE = 5,
    /// A mass is zero, negative or not finite.
    MAXDYN_STATUS_INVALID_MASS = 6,
    /// An inertia matrix is not symmetric positive definite, or its principal moments
    /// break the triangle inequality (no rigid body has them).
    MAXDYN_STATUS_INVALID_INERTIA = 7,
    /// An axis or quaternion has zero length.
    MAXDYN_STATUS_ZERO_AXIS = 8,
    /// A time step is outside [MAXDYN_MIN_DT, MAXDYN_MAX_DT] (or not finite).
    MAXDYN_STATUS_INVALID_TIME_STEP = 9,
    /// An `int32_t` enum argument (e.g. a joint type) has no such value.
    MAXDYN_STATUS_INVALID_ENUM = 10,
    /// An array's length does not match what the call needs.
    MAXDYN_STATUS_WRONG_LENGTH = 11,
    /// Any other invalid argument (the message says which and why).
    MAXDYN_STATUS_INVALID_ARGUMENT = 12,
    /// A frame id is out of range, or no frame has the name asked for.
    MAXDYN_STATUS_UNKNOWN_FRAME = 13,
    /// A mimic id is out of range.
    MAXDYN_STATUS_UNKNOWN_MIMIC = 14,
    /// A collision shape's type, parameters or pose are not a valid shape (negative
    /// radius, zero box extent, non-unit quaternion; the message says which).
    MAXDYN_STATUS_INVALID_SHAPE = 15,
    /// A collision shape id is out of range.
    MAXDYN_STATUS_UNKNOWN_SHAPE = 16,
    // --- invalid models (100–199)
    /// The builder does not describe a valid mechanism.
    MAXDYN_STATUS_INVALID_MODEL = 100,
    /// A URDF file could not be read or is malformed.
    MAXDYN_STATUS_URDF = 101,
    // --- simulation (200–299)
    /// Newton did not converge; the state stays at the last good step.
    MAXDYN_STATUS_NOT_CONVERGED = 200,
    /// The control callback returned non-zero; the step was not taken.
    MAXDYN_STATUS_CALLBACK_ABORTED = 201,
    /// `maxdyn_sim_step`/`_step_n` was called on a sim from inside its own control callback.
    MAXDYN_STATUS_REENTRANT_CALL = 202,
    /// The step's result was NaN or infinite (e.g. a divergent stiff spring); the state
    /// stays at the last good step.
    MAXDYN_STATUS_NON_FINITE_STATE = 203,
    /// The springs gained more energy in one step than any stable step gives them (a
    /// spring too stiff for the time step); the state stays at the last good step.
    MAXDYN_STATUS_DIVERGED = 204,
    /// The step would start from poses that violate a joint beyond `MAXDYN_JOINT_TOLERANCE`
    /// (poses set directly, or a loop opened by setting joint coordinates): the message
    /// names the joint; `maxdyn_sim_assemble` makes a start that satisfies every joint.
    /// Nothing changed.
    MAXDYN_STATUS_JOINT_VIOLATION = 205,
    /// `maxdyn_sim_assemble` could not close a kinematic loop (the links do not meet at
    /// these poses); the state is unchanged.
    MAXDYN_STATUS_ASSEMBLY_FAILED = 206,
    /// A query's answer is NaN or infinite at this state (it overflows: states, inputs or
    /// parameters near the range of doubles); nothing was written.
    MAXDYN_STATUS_NON_FINITE_RESULT = 207,
    /// The step starts in penetration that the projection out of penetration cannot
    /// resolve (joints, limits, other bodies or the world hold the bodies, or the
    /// projection's solve did not converge): the message names the two bodies of the
    /// deepest contact and its depth. Nothing changed.
    MAXDYN_STATUS_UNRESOLVED_PENETRATION = 208,
    /// The step needs more contact slots between collision shapes than the model holds
    /// (`maxdyn_builder_set_contact_capacity`): the message gives both numbers. Nothing
    /// changed.
    MAXDYN_STATUS_CONTACT_CAPACITY = 209,
    // --- internal (900–999)
    /// An earlier internal error left this object unusable; free it.
    MAXDYN_STATUS_POISONED = 900,
    /// A bug in maxdyn (a caught panic). The object involved is poisoned.
    MAXDYN_STATUS_INTERNAL = 901,
}

use maxdyn_status::*;

impl maxdyn_status {
    pub const ALL: [maxdyn_status; 31] = [
        MAXDYN_STATUS_OK,
        MAXDYN_STATUS_NULL_POINTER,
        MAXDYN_STATUS_UNKNOWN_BODY,
        MAXDYN_STATUS_UNKNOWN_JOINT,
        MAXDYN_STATUS_UNKNOWN_CONTACT,
        MAXDYN_STATUS_NON_FINITE,
        MAXDYN_STATUS_INVALID_MASS,
        MAXDYN_STATUS_INVALID_INERTIA,
        MAXDYN_STATUS_ZERO_AXIS,
        MAXDYN_STATUS_INVALID_TIME_STEP,
        MAXDYN_STATUS_INVALID_ENUM,
        MAXDYN_STATUS_WRONG_LENGTH,
        MAXDYN_STATUS_INVALID_ARGUMENT,
        MAXDYN_STATUS_UNKNOWN_FRAME,
        MAXDYN_STATUS_UNKNOWN_MIMIC,
        MAXDYN_STATUS_INVALID_SHAPE,
        MAXDYN_STATUS_UNKNOWN_SHAPE,
        MAXDYN_STATUS_INVALID_MODEL,
        MAXDYN_STATUS_URDF,
        MAXDYN_STATUS_NOT_CONVERGED,
        MAXDYN_STATUS_CALLBACK_ABORTED,
        MAXDYN_STATUS_REENTRANT_CALL,
        MAXDYN_STATUS_NON_FINITE_STATE,
        MAXDYN_STATUS_DIVERGED,
        MAXDYN_STATUS_JOINT_VIOLATION,
        MAXDYN_STATUS_ASSEMBLY_FAILED,
        MAXDYN_STATUS_NON_FINITE_RESULT,
        MAXDYN_STATUS_UNRESOLVED_PENETRATION,
        MAXDYN_STATUS_CONTACT_CAPACITY,
        MAXDYN_STATUS_POISONED,
        MAXDYN_STATUS_INTERNAL,
    ];

    /// A static, NUL-terminated description.
    pub fn description(self) -> &'static str {
        match self {
            MAXDYN_STATUS_OK => "ok\0",
            MAXDYN_STATUS_NULL_POINTER => "null pointer argument\0",
            MAXDYN_STATUS_UNKNOWN_BODY => "unknown body id\0",
            MAXDYN_STATUS_UNKNOWN_JOINT => "unknown joint id\0",
            MAXDYN_STATUS_UNKNOWN_CONTACT => "unknown contact id\0",
            MAXDYN_STATUS_NON_FINITE => "argument is NaN or infinite\0",
            MAXDYN_STATUS_INVALID_MASS => "mass must be finite and > 0\0",
            MAXDYN_STATUS_INVALID_INERTIA => "inertia must be symmetric positive definite and obey the triangle inequality\0",
            MAXDYN_STATUS_ZERO_AXIS => "zero-length axis or quaternion\0",
            MAXDYN_STATUS_INVALID_TIME_STEP => "time step must be in [MAXDYN_MIN_DT, MAXDYN_MAX_DT]\0",
            MAXDYN_STATUS_INVALID_ENUM => "invalid enum value\0",
            MAXDYN_STATUS_WRONG_LENGTH => "array has the wrong length\0",
            MAXDYN_STATUS_INVALID_ARGUMENT => "invalid argument\0",
            MAXDYN_STATUS_UNKNOWN_FRAME => "unknown frame\0",
            MAXDYN_STATUS_UNKNOWN_MIMIC => "unknown mimic id\0",
            MAXDYN_STATUS_INVALID_SHAPE => "invalid collision shape\0",
            MAXDYN_STATUS_UNKNOWN_SHAPE => "unknown shape id\0",
            MAXDYN_STATUS_INVALID_MODEL => "invalid model\0",
            MAXDYN_STATUS_URDF => "URDF error\0",
            MAXDYN_STATUS_NOT_CONVERGED => "step did not converge\0",
            MAXDYN_STATUS_CALLBACK_ABORTED => "step aborted by the control callback\0",
            MAXDYN_STATUS_REENTRANT_CALL => "call not allowed from inside the control callback\0",
            MAXDYN_STATUS_NON_FINITE_STATE => "step result is not finite\0",
            MAXDYN_STATUS_DIVERGED => "step diverged (a spring too stiff for the time step)\0",
            MAXDYN_STATUS_JOINT_VIOLATION => "the start violates a joint (assemble the sim)\0",
            MAXDYN_STATUS_ASSEMBLY_FAILED => "a kinematic loop cannot close at these poses\0",
            MAXDYN_STATUS_NON_FINITE_RESULT => "the answer is not finite at this state (overflow)\0",
            MAXDYN_STATUS_UNRESOLVED_PENETRATION => "the start penetrates and cannot be moved out (the message names the bodies)\0",
            MAXDYN_STATUS_CONTACT_CAPACITY => "the step needs more contact slots than the model holds\0",
            MAXDYN_STATUS_POISONED => "object poisoned by an earlier internal error\0",
            MAXDYN_STATUS_INTERNAL => "internal error (bug in maxdyn)\0",
        }
    }

    pub fn from_i32(code: i32) -> Option<maxdyn_status> {
        Self::ALL.iter().copied().find(|s| *s as i32 == code)
    }
}

/// A static description of a status code; never NULL (unknown codes give
/// "unknown status code"). The string must not be freed.
#[no_mangle]
pub extern "C" fn maxdyn_status_string(code: i32) -> *const c_char {
    let s = maxdyn_status::from_i32(code).map_or("unknown status code\0", maxdyn_status::description);
    s.as_ptr().cast()
}
