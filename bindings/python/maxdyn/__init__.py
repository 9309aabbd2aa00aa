"""maxdyn from Python through ctypes (no compiled extension; numpy arrays in and out).

The shared library is, in this order: the file named by the environment variable
MAXDYN_LIBRARY (or its older name MAXDYN_LIB), the one the wheel carries
(maxdyn/libmaxdyn.so, put there by `pip install`), the repository's target/release or
target/debug (when run from a checkout), else an installed libmaxdyn on the system's
library path (scripts/install.sh).

States, positions and other vectors come back as float64 numpy arrays; any sequence
of numbers (a list, a numpy array) goes in. Ids are ints: anything else raises a
TypeError naming the argument.

Every C call returns a status; `check(status)` raises `MaxdynError` with the
library's last error message when it is not 0. Objects free their C handle when
garbage-collected, on `close()`, or at the end of a `with` block.

    import maxdyn
    with maxdyn.Builder() as b:
        body = b.add_body(1.0, [0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1])
        joint = b.add_joint(maxdyn.REVOLUTE, maxdyn.WORLD, body, [0, 0, 0], [0, 0, 1], [1, 0, 0])
        model = maxdyn.Model(b)
    sim = maxdyn.Sim(model, 0.01)
    sim.set_joint_position(joint, [1.0])
    sim.step(100)
    print(sim.energy(), sim.constraint_violation())
"""

import ctypes
import ctypes.util
import numbers
import os
import sys

import numpy as np

__all__ = [
    "MaxdynError", "check", "version", "live_objects", "Builder", "Model", "Sim", "WORLD",
    "BODY_STATE_SIZE", "JOINT_TOLERANCE", "FIXED", "PRISMATIC", "PLANAR", "FIXED_ORIENTATION", "REVOLUTE",
    "CYLINDRICAL", "PLANAR_AXIS", "FREE_REVOLUTE", "SPHERICAL", "CYLINDRICAL_FREE",
    "PLANAR_FREE", "FLOATING", "UNIVERSAL", "CONE_LINEAR", "CONE_NONLINEAR", "StepStats", "SolverOptions", "Batch", "MAXDYN_LIBRARY_PATH",
]

WORLD = -1
BODY_STATE_SIZE = 13
CONTACT_SIZE = 5
# the largest joint violation a step starts from (maxdyn.h MAXDYN_JOINT_TOLERANCE)
JOINT_TOLERANCE = 1e-6
# friction cones (maxdyn.h MAXDYN_CONE_*)
CONE_LINEAR, CONE_NONLINEAR = 0, 1
# joint types (maxdyn.h MAXDYN_JOINT_*)
(FIXED, PRISMATIC, PLANAR, FIXED_ORIENTATION, REVOLUTE, CYLINDRICAL, PLANAR_AXIS,
 FREE_REVOLUTE, SPHERICAL, CYLINDRICAL_FREE, PLANAR_FREE, FLOATING, UNIVERSAL) = range(13)


def _library_path():
    for var in ("MAXDYN_LIBRARY", "MAXDYN_LIB"):
        env = os.environ.get(var)
        if env:
            return env
    names = {"darwin": "libmaxdyn.dylib", "win32": "maxdyn.dll"}
    name = names.get(sys.platform, "libmaxdyn.so")
    here = os.path.dirname(os.path.abspath(__file__))
    bundled = os.path.join(here, name)
    if os.path.exists(bundled):
        return bundled
    root = os.path.abspath(os.path.join(here, "..", "..", ".."))
    for profile in ("release", "debug"):
        p = os.path.join(root, "target", profile, name)
        if os.path.exists(p):
            return p
    found = ctypes.util.find_library("maxdyn")
    if found:
        return found
    raise OSError("libmaxdyn not found: set MAXDYN_LIBRARY to its path, pip install this package, "
                  "or install the library (scripts/install.sh)")


MAXDYN_LIBRARY_PATH = _library_path()
_lib = ctypes.CDLL(MAXDYN_LIBRARY_PATH)

_c_double_p = ctypes.POINTER(ctypes.c_double)
_i32 = ctypes.c_int32
_i32_p = ctypes.POINTER(ctypes.c_int32)
_size = ctypes.c_size_t
_handle = ctypes.c_void_p
_handle_p = ctypes.POINTER(ctypes.c_void_p)


def _declare(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_declare("maxdyn_version", ctypes.c_char_p)
_declare("maxdyn_status_string", ctypes.c_char_p, _i32)
_declare("maxdyn_last_error_message", ctypes.c_char_p)
_declare("maxdyn_debug_live_objects", _size)
_declare("maxdyn_builder_new", _i32, _handle_p)
_declare("maxdyn_builder_free", None, _handle)
_declare("maxdyn_builder_set_gravity", _i32, _handle, _c_double_p)
_declare("maxdyn_builder_add_body", _i32, _handle, ctypes.c_double, _c_double_p, _i32_p)
_declare("maxdyn_builder_set_body_pose", _i32, _handle, _i32, _c_double_p, _c_double_p)
_declare("maxdyn_builder_set_body_velocity", _i32, _handle, _i32, _c_double_p, _c_double_p)
_declare("maxdyn_builder_add_joint", _i32, _handle, _i32, _i32, _i32, _c_double_p, _c_double_p, _c_double_p, _i32_p)
_declare("maxdyn_builder_set_joint_offset", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_builder_get_body_count", _i32, _handle, _i32_p)
_declare("maxdyn_builder_get_joint_count", _i32, _handle, _i32_p)
_declare("maxdyn_model_new", _i32, _handle, _handle_p)
_declare("maxdyn_model_free", None, _handle)
_declare("maxdyn_model_get_body_count", _i32, _handle, _i32_p)
_declare("maxdyn_model_get_joint_count", _i32, _handle, _i32_p)
_declare("maxdyn_model_get_joint_dof", _i32, _handle, _i32, _i32_p)
_declare("maxdyn_sim_new", _i32, _handle, ctypes.c_double, _handle_p)
_declare("maxdyn_sim_free", None, _handle)
_declare("maxdyn_sim_step", _i32, _handle)
_declare("maxdyn_sim_step_n", _i32, _handle, _i32)
_control_callback = ctypes.CFUNCTYPE(ctypes.c_int, _handle, ctypes.c_void_p)
_declare("maxdyn_sim_set_control_callback", _i32, _handle, _control_callback, ctypes.c_void_p)
_declare("maxdyn_sim_get_time", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_get_dt", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_get_step_count", _i32, _handle, ctypes.POINTER(ctypes.c_uint64))
_declare("maxdyn_sim_get_body_states", _i32, _handle, _c_double_p, _size)
_declare("maxdyn_sim_set_body_states", _i32, _handle, _c_double_p, _size)
_declare("maxdyn_sim_get_limit_count", _i32, _handle, _i32_p)
_declare("maxdyn_sim_get_limit", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_sim_get_limit_violation", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_get_mimic_violation", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_get_body_state", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_sim_set_body_state", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_sim_set_body_force", _i32, _handle, _i32, _c_double_p, _c_double_p)
_declare("maxdyn_sim_get_joint_position", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_sim_get_joint_velocity", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_sim_set_joint_position", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_sim_set_joint_velocity", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_sim_get_energy", _i32, _handle, _c_double_p, _c_double_p)
_declare("maxdyn_sim_get_constraint_violation", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_get_constraint_rank", _i32, _handle, _i32_p, _i32_p, _i32_p, _i32_p)
_declare("maxdyn_sim_assemble", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_get_joint_violation", _i32, _handle, _i32_p, _c_double_p)
_declare("maxdyn_builder_add_plane_contact", _i32, _handle, _i32, _c_double_p, ctypes.c_double, _c_double_p,
         ctypes.c_double, ctypes.c_double, _i32_p)
_declare("maxdyn_builder_add_ground_contact", _i32, _handle, _i32, _c_double_p, ctypes.c_double, ctypes.c_double, _i32_p)
_declare("maxdyn_builder_add_sphere_contact", _i32, _handle, _i32, _c_double_p, ctypes.c_double, _i32, _c_double_p,
         ctypes.c_double, ctypes.c_double, _i32_p)
_declare("maxdyn_builder_set_contact_cone", _i32, _handle, _i32, _i32, _i32)
_declare("maxdyn_builder_get_contact_cone", _i32, _handle, _i32, _i32_p, _i32_p)
_declare("maxdyn_builder_get_contact_count", _i32, _handle, _i32_p)
_declare("maxdyn_builder_set_joint_spring", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
_declare("maxdyn_builder_set_joint_damper", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_builder_add_spring", _i32, _handle, _i32, _c_double_p, _i32, _c_double_p, ctypes.c_double,
         ctypes.c_double, ctypes.c_double, _i32_p)
_declare("maxdyn_builder_get_spring_count", _i32, _handle, _i32_p)
_declare("maxdyn_builder_set_body_name", _i32, _handle, _i32, ctypes.c_char_p)
_declare("maxdyn_builder_set_joint_name", _i32, _handle, _i32, ctypes.c_char_p)
_declare("maxdyn_builder_find_body", _i32, _handle, ctypes.c_char_p, _i32_p)
_declare("maxdyn_builder_find_joint", _i32, _handle, ctypes.c_char_p, _i32_p)
_declare("maxdyn_model_get_contact_count", _i32, _handle, _i32_p)
_declare("maxdyn_builder_set_joint_limits", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
_declare("maxdyn_builder_add_mimic", _i32, _handle, _i32, _i32, ctypes.c_double, ctypes.c_double, _i32_p)
_declare("maxdyn_builder_add_frame", _i32, _handle, ctypes.c_char_p, _i32, _c_double_p, _i32_p)
_declare("maxdyn_model_get_body_name", _i32, _handle, _i32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
_declare("maxdyn_model_find_body", _i32, _handle, ctypes.c_char_p, _i32_p)
_declare("maxdyn_model_get_joint_name", _i32, _handle, _i32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
_declare("maxdyn_model_find_joint", _i32, _handle, ctypes.c_char_p, _i32_p)
_declare("maxdyn_model_get_frame_name", _i32, _handle, _i32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
_declare("maxdyn_model_find_frame", _i32, _handle, ctypes.c_char_p, _i32_p)
_declare("maxdyn_model_get_joint_type", _i32, _handle, _i32, _i32_p)
_declare("maxdyn_model_get_joint_parent", _i32, _handle, _i32, _i32_p)
_declare("maxdyn_model_get_joint_child", _i32, _handle, _i32, _i32_p)
_declare("maxdyn_model_get_body_mass", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_model_get_body_inertia", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_model_get_frame_count", _i32, _handle, _i32_p)
_declare("maxdyn_model_get_frame_body", _i32, _handle, _i32, _i32_p)
_declare("maxdyn_model_get_frame_pose", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_model_get_limit_count", _i32, _handle, _i32_p)
_declare("maxdyn_model_get_joint_limits", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
_declare("maxdyn_model_get_mimic_count", _i32, _handle, _i32_p)
_declare("maxdyn_model_get_mimic", _i32, _handle, _i32, _i32_p, _i32_p, _c_double_p, _c_double_p)
_declare("maxdyn_model_get_loop_count", _i32, _handle, _i32_p)
_declare("maxdyn_sim_get_contact", _i32, _handle, _i32, _c_double_p)
_declare("maxdyn_sim_set_contact_tolerance", _i32, _handle, ctypes.c_double)
_declare("maxdyn_sim_get_contact_tolerance", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_set_contact_margin", _i32, _handle, ctypes.c_double)
_declare("maxdyn_sim_get_contact_margin", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_set_joint_input", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_sim_get_joint_input", _i32, _handle, _i32, _c_double_p, _size)
_declare("maxdyn_sim_set_body_wrench", _i32, _handle, _i32, _c_double_p, _c_double_p, _c_double_p)
_declare("maxdyn_sim_clear_inputs", _i32, _handle)
_declare("maxdyn_sim_get_energy_account", _i32, _handle, _c_double_p, _c_double_p)
_declare("maxdyn_sim_reset_energy_account", _i32, _handle)
_declare("maxdyn_sim_get_spring_energy", _i32, _handle, _c_double_p)
_declare("maxdyn_sim_set_solver_options", _i32, _handle, ctypes.c_double, _i32, ctypes.c_double)
_declare("maxdyn_sim_get_solver_options", _i32, _handle, _c_double_p, _i32_p, _c_double_p)


class _Struct(ctypes.Structure):
    """A C struct whose fields print and compare by value."""

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n, _ in self._fields_)

    def __repr__(self):
        return type(self).__name__ + "(" + ", ".join(f"{n}={getattr(self, n)!r}" for n, _ in self._fields_) + ")"


class StepStats(_Struct):
    """What the last step did (maxdyn_step_stats)."""

    _fields_ = [
        ("iterations", ctypes.c_int32),
        ("residual", ctypes.c_double),
        ("stalled", ctypes.c_int32),
        ("line_search_halvings", ctypes.c_int32),
        ("contacts", ctypes.c_int32),
        ("active_contacts", ctypes.c_int32),
        ("complementarity", ctypes.c_double),
        ("fallback", ctypes.c_int32),
        ("substeps", ctypes.c_int32),
        ("tresca_rounds", ctypes.c_int32),
        ("cold_restarts", ctypes.c_int32),
    ]


_declare("maxdyn_sim_get_step_stats", _i32, _handle, ctypes.POINTER(StepStats))
_declare("maxdyn_sim_get_step_stats_sized", _i32, _handle, ctypes.POINTER(StepStats), _size)


class ShapeContact(_Struct):
    """One contact point between collision shapes after the last step
    (maxdyn_shape_contact): shapes and bodies (side a on a body; body_b WORLD for a world
    shape), the point and the normal from b to a (world), the gap (m), the normal force and
    the friction force (N, world, on body a)."""

    _fields_ = [
        ("shape_a", ctypes.c_int32),
        ("shape_b", ctypes.c_int32),
        ("body_a", ctypes.c_int32),
        ("body_b", ctypes.c_int32),
        ("point", ctypes.c_double * 3),
        ("normal", ctypes.c_double * 3),
        ("gap", ctypes.c_double),
        ("normal_force", ctypes.c_double),
        ("friction_force", ctypes.c_double * 3),
    ]


_declare("maxdyn_sim_get_shape_contact_count", _i32, _handle, _i32_p)
_declare("maxdyn_sim_get_shape_contacts", _i32, _handle, ctypes.POINTER(ShapeContact), _size, ctypes.POINTER(_size))


class SolverOptions(_Struct):
    """Every solver option of a sim (maxdyn_solver_options); SolverOptions() holds the
    defaults. Fields: tolerance, max_iterations, acceptance, contact_tolerance,
    max_splits, contact_predictor_corrector (1 or 0), contact_margin, contact_warm_start
    (1 or 0), joint_tolerance (inf: step from any configuration)."""

    _fields_ = [
        ("tolerance", ctypes.c_double),
        ("max_iterations", ctypes.c_int32),
        ("acceptance", ctypes.c_double),
        ("contact_tolerance", ctypes.c_double),
        ("max_splits", ctypes.c_int32),
        ("contact_predictor_corrector", ctypes.c_int32),
        ("contact_margin", ctypes.c_double),
        ("contact_warm_start", ctypes.c_int32),
        ("joint_tolerance", ctypes.c_double),
    ]

    def __init__(self, **fields):
        super().__init__()
        ctypes.memmove(ctypes.byref(self), ctypes.byref(_lib.maxdyn_solver_options_default()), ctypes.sizeof(self))
        for name, value in fields.items():
            if name not in dict(self._fields_):
                raise TypeError(f"SolverOptions has no field {name!r}")
            setattr(self, name, value)


_declare("maxdyn_solver_options_default", SolverOptions)
_declare("maxdyn_sim_set_options", _i32, _handle, ctypes.POINTER(SolverOptions))
_declare("maxdyn_sim_get_options", _i32, _handle, ctypes.POINTER(SolverOptions))

_batch_control = ctypes.CFUNCTYPE(ctypes.c_int, _handle, _size, ctypes.c_void_p)
_declare("maxdyn_batch_new", _i32, _handle, _size, ctypes.c_double, _size, _handle_p)
_declare("maxdyn_batch_free", None, _handle)
_declare("maxdyn_batch_get_size", _i32, _handle, ctypes.POINTER(_size))
_declare("maxdyn_batch_get_thread_count", _i32, _handle, ctypes.POINTER(_size))
_declare("maxdyn_batch_get_sim", _i32, _handle, _size, _handle_p)
_declare("maxdyn_batch_step", _i32, _handle, _size, _batch_control, ctypes.c_void_p, _i32_p, _size)
_declare("maxdyn_batch_get_status", _i32, _handle, _size, _i32_p)
_declare("maxdyn_batch_clear_failure", _i32, _handle, _size)
_declare("maxdyn_batch_get_body_states", _i32, _handle, _c_double_p, _size)

try:  # present when the library was built with the URDF entry point
    _declare("maxdyn_builder_from_urdf", _i32, ctypes.c_char_p, _i32, _handle_p)
    HAS_URDF = True
except AttributeError:
    HAS_URDF = False

_declare("maxdyn_builder_from_urdf_string", _i32, ctypes.c_char_p, _i32, _handle_p)
_declare("maxdyn_builder_get_gravity", _i32, _handle, _c_double_p)
_declare("maxdyn_builder_add_universal_joint", _i32, _handle, _i32, _i32, _c_double_p, _c_double_p, _c_double_p,
         _c_double_p, _i32_p)


class MaxdynError(RuntimeError):
    """A failed maxdyn call: `status` (the int code) and `message` (the library's last
    error message, naming the function and the argument)."""

    def __init__(self, status, message):
        super().__init__(f"maxdyn status {status} ({status_string(status)}): {message}")
        self.status = status
        self.message = message


def status_string(status):
    return _lib.maxdyn_status_string(status).decode("utf-8", "replace")


def check(status):
    """Raises MaxdynError unless `status` is 0 (MAXDYN_STATUS_OK)."""
    if status != 0:
        raise MaxdynError(status, _lib.maxdyn_last_error_message().decode("utf-8", "replace"))


def version():
    return _lib.maxdyn_version().decode()


def live_objects():
    """Builders, models and sims created and not yet freed (for leak checks)."""
    return _lib.maxdyn_debug_live_objects()


def _array(values, name):
    """`values` (any nesting of numbers, a numpy array) as a flat float64 array; a
    TypeError naming `name` if they are not numbers."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be numbers, got {type(values).__name__}")
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be numbers, got {values!r}") from e
    return np.ascontiguousarray(arr.reshape(-1))


def _doubles(values, n, name):
    arr = _array(values, name)
    if arr.size != n:
        raise ValueError(f"{name} needs {n} numbers, got {arr.size}")
    return (ctypes.c_double * n)(*arr.tolist())


def _id(value, name):
    """An id or count argument as an int; a TypeError naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    return int(value)


def _real(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    return float(value)


def _name_arg(name):
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__} {name!r}")
    return name.encode()


def _out(n):
    """A fresh float64 array of n and the pointer C writes it through."""
    arr = np.zeros(n, dtype=np.float64)
    return arr, arr.ctypes.data_as(_c_double_p)


class _Handle:
    """Owns one C object; frees it exactly once."""

    _free = None

    def __init__(self, ptr):
        self._ptr = ptr

    @property
    def ptr(self):
        if not self._ptr:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._ptr

    def close(self):
        if getattr(self, "_ptr", None):
            type(self)._free(self._ptr)
            self._ptr = None

    def __del__(self):
        # at interpreter exit the library may already be gone; never raise here
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _count(fn, ptr, *args):
    out = _i32()
    check(fn(ptr, *args, ctypes.byref(out)))
    return out.value


# --- collision shapes (maxdyn.h maxdyn_builder_add_shape and friends; docs/COLLISION.md)
# shape types (maxdyn.h MAXDYN_SHAPE_*): params plane (), sphere (radius,), capsule and
# cylinder (radius, half_length along z), box (three half extents)
SHAPE_PLANE, SHAPE_SPHERE, SHAPE_CAPSULE, SHAPE_BOX, SHAPE_CYLINDER = range(5)
_declare("maxdyn_builder_add_shape", _i32, _handle, _i32, _i32, _c_double_p, _c_double_p, _size, _i32_p)
_declare("maxdyn_builder_set_shape_friction", _i32, _handle, _i32, ctypes.c_double)
_declare("maxdyn_builder_set_collision_filter", _i32, _handle, _i32, ctypes.c_uint32, ctypes.c_uint32)
_declare("maxdyn_builder_exclude_shape_pair", _i32, _handle, _i32, _i32)
_declare("maxdyn_builder_set_collision_cone", _i32, _handle, _i32, _i32)
_declare("maxdyn_builder_set_jointed_bodies_collide", _i32, _handle, _i32)
_declare("maxdyn_builder_get_shape_count", _i32, _handle, _i32_p)


class _UrdfOptions(ctypes.Structure):
    """maxdyn.h maxdyn_urdf_options (fields only ever added at the end)."""
    _fields_ = [(name, _i32) for name in
                ("floating", "merge_fixed", "joint_limits", "collision", "ground_plane", "self_collision")]


_declare("maxdyn_urdf_options_default", _UrdfOptions)
_declare("maxdyn_builder_from_urdf_with", _i32, ctypes.c_char_p, ctypes.POINTER(_UrdfOptions), _handle_p,
         ctypes.c_char_p, _size, ctypes.POINTER(_size))


class Builder(_Handle):
    """A mechanism under construction."""

    _free = _lib.maxdyn_builder_free

    def __init__(self):
        p = _handle()
        check(_lib.maxdyn_builder_new(ctypes.byref(p)))
        super().__init__(p)

    @classmethod
    def from_urdf(cls, path, floating=False):
        """Loads a URDF file (bodies and joints in file order; see maxdyn.h)."""
        if not HAS_URDF:
            raise MaxdynError(-1, "this libmaxdyn has no maxdyn_builder_from_urdf")
        p = _handle()
        check(_lib.maxdyn_builder_from_urdf(os.fsencode(path), 1 if floating else 0, ctypes.byref(p)))
        obj = cls.__new__(cls)
        _Handle.__init__(obj, p)
        return obj

    @classmethod
    def from_urdf_string(cls, xml, floating=False):
        """Loads URDF text (see from_urdf)."""
        if not isinstance(xml, str):
            raise TypeError(f"xml must be a str, got {type(xml).__name__}")
        p = _handle()
        check(_lib.maxdyn_builder_from_urdf_string(xml.encode(), 1 if floating else 0, ctypes.byref(p)))
        return cls._adopt(p)

    @classmethod
    def _adopt(cls, p):
        obj = cls.__new__(cls)
        _Handle.__init__(obj, p)
        return obj

    @property
    def gravity(self):
        """The gravity vector (m/s^2, world frame)."""
        g, ptr = _out(3)
        check(_lib.maxdyn_builder_get_gravity(self.ptr, ptr))
        return g

    def add_universal_joint(self, parent, child, p_parent, p_child, axis_parent, axis_child):
        """A universal (Hooke) joint: α about axis_parent, then β about axis_child
        (perpendicular). Returns the joint id."""
        out = _i32()
        check(_lib.maxdyn_builder_add_universal_joint(
            self.ptr, _id(parent, "parent"), _id(child, "child"), _doubles(p_parent, 3, "p_parent"),
            _doubles(p_child, 3, "p_child"), _doubles(axis_parent, 3, "axis_parent"),
            _doubles(axis_child, 3, "axis_child"), ctypes.byref(out)))
        return out.value

    def set_gravity(self, g):
        check(_lib.maxdyn_builder_set_gravity(self.ptr, _doubles(g, 3, "g")))

    def add_body(self, mass, inertia):
        """inertia: 9 numbers row-major (or a 3×3 nested list). Returns the body id."""
        out = _i32()
        check(_lib.maxdyn_builder_add_body(self.ptr, _real(mass, "mass"), _doubles(inertia, 9, "inertia"), ctypes.byref(out)))
        return out.value

    def set_body_pose(self, body, x, q):
        check(_lib.maxdyn_builder_set_body_pose(self.ptr, _id(body, "body"), _doubles(x, 3, "x"), _doubles(q, 4, "q")))

    def set_body_velocity(self, body, v, omega):
        check(_lib.maxdyn_builder_set_body_velocity(self.ptr, _id(body, "body"), _doubles(v, 3, "v"), _doubles(omega, 3, "omega")))

    def add_joint(self, joint_type, parent, child, p_parent, p_child, axis=(1.0, 0.0, 0.0)):
        out = _i32()
        check(_lib.maxdyn_builder_add_joint(
            self.ptr, _id(joint_type, "joint_type"), _id(parent, "parent"), _id(child, "child"), _doubles(p_parent, 3, "p_parent"),
            _doubles(p_child, 3, "p_child"), _doubles(axis, 3, "axis"), ctypes.byref(out)))
        return out.value

    def set_joint_offset(self, joint, q):
        check(_lib.maxdyn_builder_set_joint_offset(self.ptr, _id(joint, "joint"), _doubles(q, 4, "q")))

    @property
    def body_count(self):
        return _count(_lib.maxdyn_builder_get_body_count, self.ptr)

    @property
    def joint_count(self):
        return _count(_lib.maxdyn_builder_get_joint_count, self.ptr)

    # --- contacts
    def add_plane_contact(self, body, p, radius, normal, offset, friction):
        """Sphere of `radius` (0: a point) at body point `p` against normal·x ≥ offset.
        Returns the contact id."""
        out = _i32()
        check(_lib.maxdyn_builder_add_plane_contact(
            self.ptr, _id(body, "body"), _doubles(p, 3, "p"), _real(radius, "radius"), _doubles(normal, 3, "normal"),
            _real(offset, "offset"), _real(friction, "friction"), ctypes.byref(out)))
        return out.value

    def add_ground_contact(self, body, p, radius=0.0, friction=0.0):
        """The same against the ground z ≥ 0."""
        out = _i32()
        check(_lib.maxdyn_builder_add_ground_contact(
            self.ptr, _id(body, "body"), _doubles(p, 3, "p"), _real(radius, "radius"), _real(friction, "friction"), ctypes.byref(out)))
        return out.value

    def add_sphere_contact(self, body_a, pa, ra, body_b, pb, rb, friction=0.0):
        out = _i32()
        check(_lib.maxdyn_builder_add_sphere_contact(
            self.ptr, _id(body_a, "body_a"), _doubles(pa, 3, "pa"), _real(ra, "ra"), _id(body_b, "body_b"), _doubles(pb, 3, "pb"), _real(rb, "rb"),
            _real(friction, "friction"), ctypes.byref(out)))
        return out.value

    def set_contact_cone(self, contact, cone_type, directions=4):
        """CONE_LINEAR with an even number of directions (2…16), or CONE_NONLINEAR."""
        check(_lib.maxdyn_builder_set_contact_cone(self.ptr, _id(contact, "contact"), _id(cone_type, "cone_type"), _id(directions, "directions")))

    def contact_cone(self, contact):
        """(cone_type, directions) of a contact."""
        t, d = _i32(), _i32()
        check(_lib.maxdyn_builder_get_contact_cone(self.ptr, _id(contact, "contact"), ctypes.byref(t), ctypes.byref(d)))
        return t.value, d.value

    @property
    def contact_count(self):
        return _count(_lib.maxdyn_builder_get_contact_count, self.ptr)

    # --- force elements
    def set_joint_spring(self, joint, stiffness, rest):
        """Spring on a joint's free directions: one stiffness and rest value per direction."""
        k = _array(stiffness, "stiffness").tolist()
        r = _array(rest, "rest").tolist()
        if len(k) != len(r):
            raise ValueError(f"stiffness has {len(k)} values, rest {len(r)}: one each per free direction")
        n = max(len(k), 1)
        check(_lib.maxdyn_builder_set_joint_spring(
            self.ptr, _id(joint, "joint"), (ctypes.c_double * n)(*k), (ctypes.c_double * n)(*r), len(k)))

    def set_joint_damper(self, joint, damping):
        c = _array(damping, "damping").tolist()
        check(_lib.maxdyn_builder_set_joint_damper(self.ptr, _id(joint, "joint"), (ctypes.c_double * max(len(c), 1))(*c), len(c)))

    def add_spring(self, body_a, pa, body_b, pb, stiffness, damping=0.0, rest_length=0.0):
        """Point-to-point spring-damper (body_a may be WORLD). Returns its id."""
        out = _i32()
        check(_lib.maxdyn_builder_add_spring(
            self.ptr, _id(body_a, "body_a"), _doubles(pa, 3, "pa"), _id(body_b, "body_b"), _doubles(pb, 3, "pb"), _real(stiffness, "stiffness"),
            _real(damping, "damping"), _real(rest_length, "rest_length"), ctypes.byref(out)))
        return out.value

    @property
    def spring_count(self):
        return _count(_lib.maxdyn_builder_get_spring_count, self.ptr)

    # --- names
    def set_body_name(self, body, name):
        check(_lib.maxdyn_builder_set_body_name(self.ptr, _id(body, "body"), _name_arg(name)))

    def set_joint_name(self, joint, name):
        check(_lib.maxdyn_builder_set_joint_name(self.ptr, _id(joint, "joint"), _name_arg(name)))

    def find_body(self, name):
        """Id of the body named `name` (URDF: the link name)."""
        return _count(_lib.maxdyn_builder_find_body, self.ptr, _name_arg(name))

    def find_joint(self, name):
        return _count(_lib.maxdyn_builder_find_joint, self.ptr, _name_arg(name))

    # --- limits, mimics, frames
    def set_joint_limits(self, joint, lower, upper):
        """Bounds of each free direction of `joint` (translations first); -inf / inf
        leave a side free. Replaces the joint's earlier limits."""
        lo = _array(lower, "lower").tolist()
        hi = _array(upper, "upper").tolist()
        if len(lo) != len(hi):
            raise ValueError(f"lower has {len(lo)} values, upper {len(hi)}: one each per free direction")
        n = max(len(lo), 1)
        check(_lib.maxdyn_builder_set_joint_limits(
            self.ptr, _id(joint, "joint"), (ctypes.c_double * n)(*lo), (ctypes.c_double * n)(*hi), len(lo)))

    def add_mimic(self, follower, leader, multiplier=1.0, offset=0.0):
        """q_follower = multiplier * q_leader + offset (one-coordinate joints). Returns
        the mimic's id."""
        out = _i32()
        check(_lib.maxdyn_builder_add_mimic(self.ptr, _id(follower, "follower"), _id(leader, "leader"), _real(multiplier, "multiplier"), _real(offset, "offset"), ctypes.byref(out)))
        return out.value

    def add_frame(self, name, body, pose=(0, 0, 0, 1, 0, 0, 0)):
        """A named frame fixed to `body` (or WORLD) at `pose` = position (3, body frame)
        + quaternion (w, x, y, z). Returns the frame's id."""
        out = _i32()
        check(_lib.maxdyn_builder_add_frame(self.ptr, _name_arg(name), _id(body, "body"), _doubles(pose, 7, "pose"), ctypes.byref(out)))
        return out.value

    # --- collision shapes (docs/COLLISION.md)
    @classmethod
    def from_urdf_with(cls, path, floating=False, merge_fixed=True, joint_limits=True, collision=False,
                       ground_plane=False, self_collision=False):
        """Loads a URDF file with options (maxdyn.h maxdyn_urdf_options): `collision` makes
        its <collision> spheres, boxes, cylinders and capsules shapes, `ground_plane` adds
        the half-space below z = 0, `self_collision` lets the robot's shapes meet each
        other. Returns (builder, warnings: a list of strings)."""
        o = _lib.maxdyn_urdf_options_default()
        for name, v in (("floating", floating), ("merge_fixed", merge_fixed), ("joint_limits", joint_limits),
                        ("collision", collision), ("ground_plane", ground_plane), ("self_collision", self_collision)):
            setattr(o, name, 1 if v else 0)
        def load(handle, text):
            n = _size()
            check(_lib.maxdyn_builder_from_urdf_with(os.fsencode(path), ctypes.byref(o), ctypes.byref(handle), text,
                                                     len(text), ctypes.byref(n)))
            return n.value

        p, text = _handle(), ctypes.create_string_buffer(1 << 16)
        n = load(p, text)
        obj = cls.__new__(cls)
        _Handle.__init__(obj, p)
        if n >= len(text):  # longer warnings: read them again into a buffer that fits
            q, text = _handle(), ctypes.create_string_buffer(n + 1)
            load(q, text)
            _lib.maxdyn_builder_free(q)
        warnings = text.value.decode("utf-8", "replace")
        return obj, (warnings.split("\n") if warnings else [])

    def add_shape(self, body, shape_type, params=(), pose=(0, 0, 0, 1, 0, 0, 0)):
        """A collision shape of `shape_type` (SHAPE_*) with its `params` on `body` (or
        WORLD for a static shape) at `pose` = position (3, body frame, origin at the centre
        of mass) + unit quaternion (w, x, y, z). Returns the shape's id."""
        values = _array(params, "params").tolist()
        out = _i32()
        check(_lib.maxdyn_builder_add_shape(self.ptr, _id(body, "body"), _id(shape_type, "shape_type"), _doubles(pose, 7, "pose"),
                                            (ctypes.c_double * len(values))(*values) if values else None,
                                            len(values), ctypes.byref(out)))
        return out.value

    def set_shape_friction(self, shape, mu):
        """Surface friction coefficient (>= 0, default 1); a pair uses the smaller."""
        check(_lib.maxdyn_builder_set_shape_friction(self.ptr, _id(shape, "shape"), _real(mu, "mu")))

    def set_collision_filter(self, shape, group, mask):
        """Two shapes collide when each one's group shares a bit with the other's mask."""
        check(_lib.maxdyn_builder_set_collision_filter(self.ptr, _id(shape, "shape"), _id(group, "group") & 0xFFFFFFFF, _id(mask, "mask") & 0xFFFFFFFF))

    def exclude_shape_pair(self, shape_a, shape_b):
        check(_lib.maxdyn_builder_exclude_shape_pair(self.ptr, _id(shape_a, "shape_a"), _id(shape_b, "shape_b")))

    def set_collision_cone(self, cone_type, directions=4):
        """The friction cone of every contact between shapes (CONE_LINEAR with an even
        number of directions 2-16, or CONE_NONLINEAR with 0)."""
        check(_lib.maxdyn_builder_set_collision_cone(self.ptr, cone_type, directions))

    def set_jointed_bodies_collide(self, collide):
        """Whether the shapes of a joint's two bodies collide (default False)."""
        check(_lib.maxdyn_builder_set_jointed_bodies_collide(self.ptr, 1 if collide else 0))

    @property
    def shape_count(self):
        return _count(_lib.maxdyn_builder_get_shape_count, self.ptr)


class Model(_Handle):
    """A compiled mechanism (immutable); the builder may be closed afterwards."""

    _free = _lib.maxdyn_model_free

    def __init__(self, builder):
        p = _handle()
        check(_lib.maxdyn_model_new(builder.ptr, ctypes.byref(p)))
        super().__init__(p)

    @property
    def body_count(self):
        return _count(_lib.maxdyn_model_get_body_count, self.ptr)

    @property
    def joint_count(self):
        return _count(_lib.maxdyn_model_get_joint_count, self.ptr)

    def joint_dof(self, joint):
        return _count(_lib.maxdyn_model_get_joint_dof, self.ptr, _id(joint, "joint"))

    @property
    def contact_count(self):
        return _count(_lib.maxdyn_model_get_contact_count, self.ptr)

    @property
    def loop_count(self):
        return _count(_lib.maxdyn_model_get_loop_count, self.ptr)

    # --- names and structure (kept after the builder is closed)
    def _name(self, what, id):
        fn = getattr(_lib, f"maxdyn_model_get_{what}_name")
        n = _size()
        check(fn(self.ptr, id, None, 0, ctypes.byref(n)))
        buf = ctypes.create_string_buffer(n.value + 1)
        check(fn(self.ptr, id, buf, len(buf), ctypes.byref(n)))
        return buf.value.decode()

    def body_name(self, body):
        """The body's name ("" if unnamed; URDF: the link name)."""
        return self._name("body", _id(body, "body"))

    def joint_name(self, joint):
        return self._name("joint", _id(joint, "joint"))

    def frame_name(self, frame):
        return self._name("frame", _id(frame, "frame"))

    @property
    def body_names(self):
        return [self.body_name(i) for i in range(self.body_count)]

    @property
    def joint_names(self):
        return [self.joint_name(j) for j in range(self.joint_count)]

    @property
    def frame_names(self):
        return [self.frame_name(f) for f in range(self.frame_count)]

    def find_body(self, name):
        """Id of the body named `name` (the lowest if several are); MaxdynError
        (MAXDYN_STATUS_UNKNOWN_BODY) if none is."""
        return _count(_lib.maxdyn_model_find_body, self.ptr, _name_arg(name))

    def find_joint(self, name):
        return _count(_lib.maxdyn_model_find_joint, self.ptr, _name_arg(name))

    def find_frame(self, name):
        return _count(_lib.maxdyn_model_find_frame, self.ptr, _name_arg(name))

    def joint_type(self, joint):
        """One of FIXED … UNIVERSAL."""
        return _count(_lib.maxdyn_model_get_joint_type, self.ptr, _id(joint, "joint"))

    def joint_parent(self, joint):
        """The parent body's id, WORLD for the world."""
        return _count(_lib.maxdyn_model_get_joint_parent, self.ptr, _id(joint, "joint"))

    def joint_child(self, joint):
        return _count(_lib.maxdyn_model_get_joint_child, self.ptr, _id(joint, "joint"))

    def body_mass(self, body):
        out = ctypes.c_double()
        check(_lib.maxdyn_model_get_body_mass(self.ptr, _id(body, "body"), ctypes.byref(out)))
        return out.value

    def body_inertia(self, body):
        """3x3 array about the centre of mass, in the body frame."""
        j, ptr = _out(9)
        check(_lib.maxdyn_model_get_body_inertia(self.ptr, _id(body, "body"), ptr))
        return j.reshape(3, 3)

    @property
    def frame_count(self):
        return _count(_lib.maxdyn_model_get_frame_count, self.ptr)

    def frame_body(self, frame):
        """The body the frame is fixed to, WORLD for the world."""
        return _count(_lib.maxdyn_model_get_frame_body, self.ptr, _id(frame, "frame"))

    def frame_pose(self, frame):
        """Position (3, body frame) + unit quaternion (w, x, y, z) relative to its body."""
        p, ptr = _out(7)
        check(_lib.maxdyn_model_get_frame_pose(self.ptr, _id(frame, "frame"), ptr))
        return p

    @property
    def limit_count(self):
        """Bounded joint coordinates."""
        return _count(_lib.maxdyn_model_get_limit_count, self.ptr)

    def joint_limits(self, joint):
        """(lower, upper), one value per free direction; -inf / inf where free."""
        n = self.joint_dof(joint)
        (lo, lo_ptr), (hi, hi_ptr) = _out(n), _out(n)
        check(_lib.maxdyn_model_get_joint_limits(self.ptr, _id(joint, "joint"), lo_ptr, hi_ptr, n))
        return lo, hi

    @property
    def mimic_count(self):
        return _count(_lib.maxdyn_model_get_mimic_count, self.ptr)

    def mimic(self, mimic):
        """(follower, leader, multiplier, offset)."""
        f, l, k, c = _i32(), _i32(), ctypes.c_double(), ctypes.c_double()
        check(_lib.maxdyn_model_get_mimic(self.ptr, _id(mimic, "mimic"), ctypes.byref(f), ctypes.byref(l), ctypes.byref(k), ctypes.byref(c)))
        return f.value, l.value, k.value, c.value


class Sim(_Handle):
    """One simulation of a model (the model may be closed first: the sim shares it)."""

    _free = _lib.maxdyn_sim_free

    def __init__(self, model, dt):
        p = _handle()
        check(_lib.maxdyn_sim_new(model.ptr, _real(dt, "dt"), ctypes.byref(p)))
        super().__init__(p)
        self._dofs = [model.joint_dof(j) for j in range(model.joint_count)]
        self._bodies = model.body_count

    def step(self, n=1):
        """Takes `n` steps in C (maxdyn_sim_step_n); MaxdynError at the first failure
        (`step_count` tells how many were taken)."""
        n = _id(n, "n")
        if n < 0:
            raise ValueError(f"step needs n >= 0, got {n}")
        limit = 2**31 - 1
        while n > 0:
            chunk = min(n, limit)
            status = _lib.maxdyn_sim_step_n(self.ptr, chunk)
            self._raise_control_error()
            check(status)
            n -= chunk

    def set_control_callback(self, control):
        """`control(sim)` is called before each step to set its inputs (None removes
        it). If it raises, the step is aborted (status MAXDYN_STATUS_CALLBACK_ABORTED,
        201, state unchanged) and step() raises that exception."""
        if control is None:
            check(_lib.maxdyn_sim_set_control_callback(self.ptr, _control_callback(), None))
            self._control = None
            return
        if not callable(control):
            raise TypeError(f"control must be callable or None, got {type(control).__name__}")
        errors = []

        def trampoline(_sim, _user):
            try:
                control(self)
                return 0
            except BaseException as e:  # noqa: B036 -- it must not unwind into C
                errors.append(e)
                return 1

        callback = _control_callback(trampoline)
        check(_lib.maxdyn_sim_set_control_callback(self.ptr, callback, None))
        self._control = (callback, errors)  # the C function pointer lives as long as the sim uses it

    def _raise_control_error(self):
        control = getattr(self, "_control", None)
        if control and control[1]:
            error = control[1].pop(0)
            control[1].clear()
            raise error

    @property
    def dt(self):
        """The time step (s)."""
        t = ctypes.c_double()
        check(_lib.maxdyn_sim_get_dt(self.ptr, ctypes.byref(t)))
        return t.value

    @property
    def step_count(self):
        """Steps taken since the sim was made."""
        n = ctypes.c_uint64()
        check(_lib.maxdyn_sim_get_step_count(self.ptr, ctypes.byref(n)))
        return n.value

    @property
    def time(self):
        t = ctypes.c_double()
        check(_lib.maxdyn_sim_get_time(self.ptr, ctypes.byref(t)))
        return t.value

    def body_state(self, body):
        """array [x(3), q(4: w,x,y,z), v(3, world), omega(3, body)]"""
        out, ptr = _out(BODY_STATE_SIZE)
        check(_lib.maxdyn_sim_get_body_state(self.ptr, _id(body, "body"), ptr))
        return out

    def body_states(self):
        """Every body's state: a (bodies, 13) array, one row per body (as body_state)."""
        out, ptr = _out(self._bodies * BODY_STATE_SIZE)
        check(_lib.maxdyn_sim_get_body_states(self.ptr, ptr, self._bodies))
        return out.reshape(self._bodies, BODY_STATE_SIZE)

    def set_body_states(self, states):
        """Sets every body's state from a (bodies, 13) array; all or nothing."""
        arr = _array(states, "states")
        if arr.size != self._bodies * BODY_STATE_SIZE:
            raise ValueError(f"states needs {self._bodies} x {BODY_STATE_SIZE} numbers, got {arr.size}")
        check(_lib.maxdyn_sim_set_body_states(self.ptr, arr.ctypes.data_as(_c_double_p), self._bodies))

    def set_body_state(self, body, state):
        check(_lib.maxdyn_sim_set_body_state(self.ptr, _id(body, "body"), _doubles(state, BODY_STATE_SIZE, "state")))

    def set_body_force(self, body, force, torque=(0.0, 0.0, 0.0)):
        check(_lib.maxdyn_sim_set_body_force(self.ptr, _id(body, "body"), _doubles(force, 3, "force"), _doubles(torque, 3, "torque")))

    def _dof(self, joint):
        if not 0 <= joint < len(self._dofs):
            return 0  # the library reports the unknown joint
        return self._dofs[joint]

    def _get(self, fn, joint):
        n = self._dof(joint)
        out, ptr = _out(max(n, 1))
        check(fn(self.ptr, joint, ptr, n))
        return out[:n]

    def _set(self, fn, joint, values):
        arr = _array(values, "values")
        buf = arr if arr.size else np.zeros(1)
        check(fn(self.ptr, joint, buf.ctypes.data_as(_c_double_p), arr.size))

    def joint_position(self, joint):
        return self._get(_lib.maxdyn_sim_get_joint_position, _id(joint, "joint"))

    def joint_velocity(self, joint):
        return self._get(_lib.maxdyn_sim_get_joint_velocity, _id(joint, "joint"))

    def set_joint_position(self, joint, values):
        self._set(_lib.maxdyn_sim_set_joint_position, _id(joint, "joint"), values)

    def set_joint_velocity(self, joint, values):
        self._set(_lib.maxdyn_sim_set_joint_velocity, _id(joint, "joint"), values)

    def energy(self):
        """(kinetic, potential) in J."""
        k, p = ctypes.c_double(), ctypes.c_double()
        check(_lib.maxdyn_sim_get_energy(self.ptr, ctypes.byref(k), ctypes.byref(p)))
        return k.value, p.value

    def constraint_violation(self):
        v = ctypes.c_double()
        check(_lib.maxdyn_sim_get_constraint_violation(self.ptr, ctypes.byref(v)))
        return v.value

    def joint_violation(self):
        """(joint, violation): the joint most violated now (None when every joint holds
        exactly) and its largest constraint value. A step refuses to start beyond
        JOINT_TOLERANCE (status 205, MAXDYN_STATUS_JOINT_VIOLATION): see `assemble`."""
        j, v = ctypes.c_int32(), ctypes.c_double()
        check(_lib.maxdyn_sim_get_joint_violation(self.ptr, ctypes.byref(j), ctypes.byref(v)))
        return (None if j.value < 0 else j.value), v.value

    def assemble(self):
        """Places every body so that every joint holds (tree bodies at the coordinates
        their poses give, loops closed by the smallest mass-weighted motion); returns the
        violation removed. A loop that cannot close raises (status 206) and changes
        nothing."""
        v = ctypes.c_double()
        check(_lib.maxdyn_sim_assemble(self.ptr, ctypes.byref(v)))
        return v.value

    def constraint_rank(self):
        """(rows, rank, redundant, dof) of the joint constraints at the current state."""
        out = [ctypes.c_int32() for _ in range(4)]
        check(_lib.maxdyn_sim_get_constraint_rank(self.ptr, *[ctypes.byref(o) for o in out]))
        return tuple(o.value for o in out)

    # --- contacts
    def contact(self, contact):
        """(gap, normal force, friction force [3, world]) of a contact: the gap now, the
        forces of the last step."""
        out, ptr = _out(CONTACT_SIZE)
        check(_lib.maxdyn_sim_get_contact(self.ptr, _id(contact, "contact"), ptr))
        return float(out[0]), float(out[1]), out[2:5]

    @property
    def shape_contact_count(self):
        """Contact points between collision shapes after the last step."""
        n = ctypes.c_int32()
        check(_lib.maxdyn_sim_get_shape_contact_count(self.ptr, ctypes.byref(n)))
        return n.value

    def shape_contacts(self):
        """The contact points between collision shapes after the last step, as a list of
        ShapeContact (fields shape_a, shape_b, body_a, body_b, point, normal, gap,
        normal_force, friction_force; docs/COLLISION.md)."""
        n = self.shape_contact_count
        out, written = (ShapeContact * max(n, 1))(), _size()
        check(_lib.maxdyn_sim_get_shape_contacts(self.ptr, out, n, ctypes.byref(written)))
        return list(out[: written.value])

    @property
    def contact_tolerance(self):
        t = ctypes.c_double()
        check(_lib.maxdyn_sim_get_contact_tolerance(self.ptr, ctypes.byref(t)))
        return t.value

    @contact_tolerance.setter
    def contact_tolerance(self, value):
        check(_lib.maxdyn_sim_set_contact_tolerance(self.ptr, _real(value, "contact_tolerance")))

    @property
    def contact_margin(self):
        """Contacts farther than this (m, plus one step's travel) are left out of a step's
        solve and checked after it; float('inf') keeps every contact in every solve."""
        m = ctypes.c_double()
        check(_lib.maxdyn_sim_get_contact_margin(self.ptr, ctypes.byref(m)))
        return m.value

    @contact_margin.setter
    def contact_margin(self, value):
        check(_lib.maxdyn_sim_set_contact_margin(self.ptr, _real(value, "contact_margin")))

    @property
    def options(self):
        """Every solver option (a SolverOptions copy; assign one to change them)."""
        o = SolverOptions()
        check(_lib.maxdyn_sim_get_options(self.ptr, ctypes.byref(o)))
        return o

    @options.setter
    def options(self, value):
        check(_lib.maxdyn_sim_set_options(self.ptr, ctypes.byref(value)))

    def solver_options(self):
        """(tolerance, max_iterations, acceptance) of the Newton solve."""
        t, m, a = ctypes.c_double(), _i32(), ctypes.c_double()
        check(_lib.maxdyn_sim_get_solver_options(self.ptr, ctypes.byref(t), ctypes.byref(m), ctypes.byref(a)))
        return t.value, m.value, a.value

    def set_solver_options(self, tolerance=1e-10, max_iterations=100, acceptance=1e-8):
        check(_lib.maxdyn_sim_set_solver_options(self.ptr, _real(tolerance, "tolerance"), _id(max_iterations, "max_iterations"), _real(acceptance, "acceptance")))

    def step_stats(self):
        st = StepStats()
        check(_lib.maxdyn_sim_get_step_stats_sized(self.ptr, ctypes.byref(st), ctypes.sizeof(st)))
        return st

    # --- inputs (they hold until changed: set them, then step)
    def set_joint_input(self, joint, u):
        """Force/torque per free direction of a joint (+u on the child, -u on the parent)."""
        self._set(_lib.maxdyn_sim_set_joint_input, _id(joint, "joint"), u)

    def joint_input(self, joint):
        return self._get(_lib.maxdyn_sim_get_joint_input, _id(joint, "joint"))

    def set_body_wrench(self, body, force, torque=(0.0, 0.0, 0.0), point=(0.0, 0.0, 0.0)):
        """World-frame force at body point `point` (body frame) and body-frame torque."""
        check(_lib.maxdyn_sim_set_body_wrench(
            self.ptr, _id(body, "body"), _doubles(force, 3, "force"), _doubles(torque, 3, "torque"), _doubles(point, 3, "point")))

    def clear_inputs(self):
        check(_lib.maxdyn_sim_clear_inputs(self.ptr))

    # --- limits and mimics
    @property
    def limit_count(self):
        return _count(_lib.maxdyn_sim_get_limit_count, self.ptr)

    def limit(self, limit):
        """array [coordinate, lower, upper, violation, force] of a limit (see maxdyn.h)."""
        out, ptr = _out(5)
        check(_lib.maxdyn_sim_get_limit(self.ptr, _id(limit, "limit"), ptr))
        return out

    def limit_violation(self):
        v = ctypes.c_double()
        check(_lib.maxdyn_sim_get_limit_violation(self.ptr, ctypes.byref(v)))
        return v.value

    def mimic_violation(self):
        v = ctypes.c_double()
        check(_lib.maxdyn_sim_get_mimic_violation(self.ptr, ctypes.byref(v)))
        return v.value

    # --- energy bookkeeping
    def energy_account(self):
        """(input work, damper dissipation) in J since the start or the last reset."""
        w, d = ctypes.c_double(), ctypes.c_double()
        check(_lib.maxdyn_sim_get_energy_account(self.ptr, ctypes.byref(w), ctypes.byref(d)))
        return w.value, d.value

    def reset_energy_account(self):
        check(_lib.maxdyn_sim_reset_energy_account(self.ptr))

    def spring_energy(self):
        """Potential energy in the springs (part of energy()[1])."""
        e = ctypes.c_double()
        check(_lib.maxdyn_sim_get_spring_energy(self.ptr, ctypes.byref(e)))
        return e.value


    # --- queries (issue 13): exact state, kinematics, dynamics terms. Matrices are lists
    # of rows. Axes: AXES_WORLD, AXES_LOCAL; coordinates: COORDS_MINIMAL (every joint's
    # minimal velocities in joint-id order), COORDS_MAXIMAL (every body's v, omega).
    AXES_WORLD, AXES_LOCAL = 0, 1
    COORDS_MINIMAL, COORDS_MAXIMAL = 0, 1
    for _n, *_a in (
        ("maxdyn_sim_state_size", _handle, ctypes.POINTER(_size)),
        ("maxdyn_sim_get_state", _handle, _c_double_p, _size),
        ("maxdyn_sim_set_state", _handle, _c_double_p, _size),
        ("maxdyn_sim_copy", _handle, _handle_p),
        ("maxdyn_sim_velocity_count", _handle, _i32, ctypes.POINTER(_size)),
        ("maxdyn_sim_get_frame_pose", _handle, _i32, _c_double_p),
        ("maxdyn_sim_get_frame_velocity", _handle, _i32, _i32, _c_double_p),
        ("maxdyn_sim_get_frame_jacobian", _handle, _i32, _i32, _i32, _c_double_p, _size),
        ("maxdyn_sim_get_point_pose", _handle, _i32, _c_double_p, _c_double_p),
        ("maxdyn_sim_get_point_velocity", _handle, _i32, _c_double_p, _i32, _c_double_p),
        ("maxdyn_sim_get_point_jacobian", _handle, _i32, _c_double_p, _i32, _i32, _c_double_p, _size),
        ("maxdyn_sim_get_mass_matrix", _handle, _c_double_p, _size),
        ("maxdyn_sim_get_bias_forces", _handle, _c_double_p, _c_double_p, _size),
        ("maxdyn_sim_inverse_dynamics", _handle, _c_double_p, _c_double_p, _c_double_p, _size),
        ("maxdyn_sim_get_minimal_velocities", _handle, _c_double_p, _size),
        ("maxdyn_sim_state_dimensions", _handle, _i32, ctypes.POINTER(_size), ctypes.POINTER(_size)),
        ("maxdyn_sim_linearize", _handle, _i32, _c_double_p, _c_double_p),
        ("maxdyn_sim_linearize_differences", _handle, _i32, ctypes.c_double, _c_double_p, _c_double_p),
    ):
        _declare(_n, _i32, *_a)
    del _n, _a

    def state(self):
        """The exact state (an opaque list of floats) for set_state on this sim or any
        sim of the same model: the steps after restoring replay bit for bit."""
        n = _size()
        check(_lib.maxdyn_sim_state_size(self.ptr, ctypes.byref(n)))
        out = (ctypes.c_double * max(n.value, 1))()
        check(_lib.maxdyn_sim_get_state(self.ptr, out, n.value))
        return list(out)[:n.value]

    def set_state(self, state):
        values = [float(v) for v in state]
        check(_lib.maxdyn_sim_set_state(self.ptr, (ctypes.c_double * max(len(values), 1))(*values), len(values)))

    def copy(self):
        """An independent sim of the same model at the same exact state and options."""
        p = _handle()
        check(_lib.maxdyn_sim_copy(self.ptr, ctypes.byref(p)))
        twin = Sim.__new__(Sim)
        _Handle.__init__(twin, p)
        twin._dofs = list(self._dofs)
        return twin

    def _matrix(self, fn, rows, cols, *args):
        out = (ctypes.c_double * max(rows * cols, 1))()
        check(fn(self.ptr, *args, out, rows * cols))
        return [list(out[r * cols:(r + 1) * cols]) for r in range(rows)]

    def frame_pose(self, frame):
        """World pose [x(3), q(4)] of a named frame."""
        out = (ctypes.c_double * 7)()
        check(_lib.maxdyn_sim_get_frame_pose(self.ptr, frame, out))
        return list(out)

    def point_pose(self, body, point=(0.0, 0.0, 0.0)):
        """World pose [x(3), q(4)] of a point fixed to a body (body frame, from the centre of mass)."""
        out = (ctypes.c_double * 7)()
        check(_lib.maxdyn_sim_get_point_pose(self.ptr, body, _doubles(point, 3, "point"), out))
        return list(out)

    def frame_velocity(self, frame, axes=0):
        """Twist [v(3), omega(3)] of a named frame, in world (AXES_WORLD) or its own axes."""
        out = (ctypes.c_double * 6)()
        check(_lib.maxdyn_sim_get_frame_velocity(self.ptr, frame, axes, out))
        return list(out)

    def point_velocity(self, body, point=(0.0, 0.0, 0.0), axes=0):
        out = (ctypes.c_double * 6)()
        check(_lib.maxdyn_sim_get_point_velocity(self.ptr, body, _doubles(point, 3, "point"), axes, out))
        return list(out)

    def frame_jacobian(self, frame, axes=0, coords=0):
        """6 x n Jacobian of a named frame's twist w.r.t. the velocities in `coords`."""
        return self._matrix(_lib.maxdyn_sim_get_frame_jacobian, 6, self._columns(coords), frame, axes, coords)

    def point_jacobian(self, body, point=(0.0, 0.0, 0.0), axes=0, coords=0):
        return self._matrix(_lib.maxdyn_sim_get_point_jacobian, 6, self._columns(coords), body,
                            _doubles(point, 3, "point"), axes, coords)

    def _columns(self, coords):
        n = _size()
        check(_lib.maxdyn_sim_velocity_count(self.ptr, coords, ctypes.byref(n)))
        return n.value

    def mass_matrix(self):
        """Joint-space mass matrix M(q), n x n (n = every joint's free directions)."""
        n = sum(self._dofs)
        return self._matrix(_lib.maxdyn_sim_get_mass_matrix, n, n)

    def _vector(self, fn, *inputs):
        n = sum(self._dofs)
        args = [_doubles(v, n, "qd") for v in inputs]
        out = (ctypes.c_double * max(n, 1))()
        check(fn(self.ptr, *args, out, n))
        return list(out)[:n]

    def bias_forces(self, qd):
        """b(q, qd): gravity, Coriolis and centrifugal forces."""
        return self._vector(_lib.maxdyn_sim_get_bias_forces, qd)

    def inverse_dynamics(self, qd, qdd):
        """Joint inputs tau = M(q) qdd + b(q, qd)."""
        return self._vector(_lib.maxdyn_sim_inverse_dynamics, qd, qdd)

    def minimal_velocities(self):
        """Every joint's minimal velocities at the current state (continuous rates)."""
        return self._vector(_lib.maxdyn_sim_get_minimal_velocities)

    # --- linearization (issue 13): x_{k+1} = f(x_k, u_k) of one step from the current
    # state and inputs; the sim is not advanced.
    def _coords(self, coords):
        named = {"minimal": self.COORDS_MINIMAL, "maximal": self.COORDS_MAXIMAL}
        if isinstance(coords, str):
            if coords not in named:
                raise ValueError(f'coords must be "minimal" or "maximal", got {coords!r}')
            return named[coords]
        return _id(coords, "coords")

    def state_dimensions(self, coords="minimal"):
        """(nx, nu) of a linearization in `coords` (see linearize)."""
        nx, nu = _size(), _size()
        check(_lib.maxdyn_sim_state_dimensions(self.ptr, self._coords(coords), ctypes.byref(nx), ctypes.byref(nu)))
        return nx.value, nu.value

    def _linearization(self, fn, coords, *args):
        c = self._coords(coords)
        nx, nu = self.state_dimensions(c)
        (a, pa), (b, pb) = _out(max(nx * nx, 1)), _out(max(nx * nu, 1))
        check(fn(self.ptr, c, *args, pa, pb))
        return a[:nx * nx].reshape(nx, nx), b[:nx * nu].reshape(nx, nu)

    def linearize(self, coords="minimal"):
        """(A, B) numpy arrays, A = df/dx (nx x nx) and B = df/du (nx x nu), of one step
        x_{k+1} = f(x_k, u_k) from the current state and inputs (the sim is not advanced).
        coords "minimal" (COORDS_MINIMAL): x = every joint's positions then every joint's
        velocities in joint-id order (as joint_position/joint_velocity return them), u =
        every joint's inputs; models with kinematic loops are refused. "maximal"
        (COORDS_MAXIMAL): x = the 13 numbers of body_state per body, u = every body's
        wrench, force (world) then torque (body frame)."""
        return self._linearization(_lib.maxdyn_sim_linearize, coords)

    def linearize_differences(self, coords="minimal", h=1e-6):
        """linearize() by central differences of whole steps with step `h` on every state
        and input entry (2 (nx + nu) steps): the reference for the analytic one. `h` lies
        in [max(solver tolerance, 1e-12 x the largest state or input entry), 1]; outside it
        (or NaN) MaxdynError names `h`."""
        return self._linearization(_lib.maxdyn_sim_linearize_differences, coords, _real(h, "h"))


class _BatchSim(Sim):
    """A sim owned by a batch: every Sim method works on it; closing it does nothing
    (the batch frees its sims) and it keeps the batch alive."""

    def __init__(self, batch, ptr, dofs, bodies):
        self._ptr = ptr
        self._batch = batch
        self._dofs = dofs
        self._bodies = bodies

    def close(self):
        self._ptr = None


class Batch(_Handle):
    """`n` sims of one model stepped on a pool of `threads` threads (0: the machine's
    count). Every sim's trajectory is bit-identical to stepping it alone as a Sim.

        batch = maxdyn.Batch(model, 100, 0.01, threads=2)
        for i, sim in enumerate(batch.sims):
            sim.set_joint_position(j, [0.01 * i])
        statuses = batch.step(500)          # the sims step in parallel, no GIL held
        states = batch.body_states()        # n * bodies * 13 floats, sim after sim

    A sim whose step fails stops at its last good step with a non-zero status (see
    step()) until clear_failure(i); the others go on."""

    _free = _lib.maxdyn_batch_free

    def __init__(self, model, n, dt, threads=0):
        n, threads, dt = _id(n, "n"), _id(threads, "threads"), _real(dt, "dt")
        if int(n) < 0 or int(threads) < 0:
            raise ValueError(f"Batch needs n >= 0 and threads >= 0, got n = {n}, threads = {threads}")
        p = _handle()
        check(_lib.maxdyn_batch_new(model.ptr, int(n), _real(dt, "dt"), int(threads), ctypes.byref(p)))
        super().__init__(p)
        self._bodies = model.body_count
        dofs = [model.joint_dof(j) for j in range(model.joint_count)]
        self.sims = []
        for i in range(int(n)):
            s = _handle()
            check(_lib.maxdyn_batch_get_sim(self.ptr, i, ctypes.byref(s)))
            self.sims.append(_BatchSim(self, s, dofs, self._bodies))

    def close(self):
        for s in getattr(self, "sims", []):
            s.close()  # the batch frees them
        super().close()

    def __len__(self):
        return len(self.sims)

    def __getitem__(self, i):
        return self.sims[i]

    @property
    def thread_count(self):
        out = _size()
        check(_lib.maxdyn_batch_get_thread_count(self.ptr, ctypes.byref(out)))
        return out.value

    def step(self, n=1, control=None):
        """Takes `n` steps of every running sim; returns each sim's status (0: running).
        `control(i, sim)`, if given, is called before each step of sim i to set its
        inputs; it runs on the batch's threads under the GIL, so Python control is
        correct but serial (use no control, or C, for speed). If it raises, that sim
        stops (status MAXDYN_STATUS_CALLBACK_ABORTED, 201) and the first exception is
        raised again after the step."""
        n = _id(n, "n")
        if n < 0:
            raise ValueError(f"step needs n >= 0, got {n}")
        statuses = (_i32 * max(len(self.sims), 1))(*([-1] * max(len(self.sims), 1)))
        errors = []
        callback = None
        if control is not None:
            sims = self.sims

            def trampoline(_sim, index, _user):
                try:
                    control(index, sims[index])
                    return 0
                except BaseException as e:  # noqa: B036 -- it must not unwind into C
                    errors.append(e)
                    return 1

            callback = _batch_control(trampoline)
        rc = _lib.maxdyn_batch_step(self.ptr, int(n), callback if callback is not None else _batch_control(), None, statuses,
                                    len(self.sims))
        if errors:
            raise errors[0]
        written = all(s != -1 for s in statuses[:len(self.sims)])
        if rc != 0 and not written:
            check(rc)
        return list(statuses[:len(self.sims)])

    def statuses(self):
        """Each sim's status: 0, or the failure that stopped it."""
        out = []
        for i in range(len(self.sims)):
            s = _i32()
            check(_lib.maxdyn_batch_get_status(self.ptr, i, ctypes.byref(s)))
            out.append(s.value)
        return out

    def clear_failure(self, i):
        """Lets stopped sim i step again (e.g. after setting a new state)."""
        check(_lib.maxdyn_batch_clear_failure(self.ptr, i))

    def body_states(self, out=None):
        """Every sim's body states: a (len(batch), bodies, 13) array, or written into
        `out` (any writable buffer of len(batch) * bodies * 13 doubles, e.g.
        array.array('d') or a float64 numpy array) and returned."""
        n = len(self.sims) * self._bodies * BODY_STATE_SIZE
        if out is None:
            arr, ptr = _out(max(n, 1))
            check(_lib.maxdyn_batch_get_body_states(self.ptr, ptr, n))
            return arr[:n].reshape(len(self.sims), self._bodies, BODY_STATE_SIZE)
        buf = (ctypes.c_double * n).from_buffer(out)
        check(_lib.maxdyn_batch_get_body_states(self.ptr, buf, n))
        return out
