"""Loads libmaxdyn and declares the C functions the package calls (argument and result
types as in include/maxdyn.h; tests/test_header.py compares every declaration with the
header's prototype, so they cannot drift).

The library is, in this order: the file named by MAXDYN_LIBRARY (or its older name
MAXDYN_LIB), the one the wheel carries (maxdyn/libmaxdyn.so), the repository's
target/release or target/debug (when run from a checkout), else an installed libmaxdyn
on the system's library path (scripts/install.sh)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from typing import Any, Dict

from ._structs import ShapeContact, SolverOptions, StepStats, UrdfOptions


def library_path() -> str:
    """The path of the libmaxdyn this package loads (see the module's docstring)."""
    for var in ("MAXDYN_LIBRARY", "MAXDYN_LIB"):
        env = os.environ.get(var)
        if env:
            return env
    name = {"darwin": "libmaxdyn.dylib", "win32": "maxdyn.dll"}.get(sys.platform, "libmaxdyn.so")
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


LIBRARY_PATH = library_path()
lib = ctypes.CDLL(LIBRARY_PATH)

_c_double_p = ctypes.POINTER(ctypes.c_double)
_i32 = ctypes.c_int32
_i32_p = ctypes.POINTER(ctypes.c_int32)
_size = ctypes.c_size_t
_handle = ctypes.c_void_p
_handle_p = ctypes.POINTER(ctypes.c_void_p)
# maxdyn_control_callback and maxdyn_batch_control
CONTROL_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, _handle, ctypes.c_void_p)
BATCH_CONTROL = ctypes.CFUNCTYPE(ctypes.c_int, _handle, _size, ctypes.c_void_p)

# every declared function by name, for the header check
DECLARED: Dict[str, Any] = {}


def declare(name: str, restype: Any, *argtypes: Any) -> Any:
    """Sets the result and argument types of the library's function `name`."""
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    DECLARED[name] = f
    return f


declare("maxdyn_version", ctypes.c_char_p)
declare("maxdyn_status_string", ctypes.c_char_p, _i32)
declare("maxdyn_last_error_message", ctypes.c_char_p)
declare("maxdyn_debug_live_objects", _size)
declare("maxdyn_builder_new", _i32, _handle_p)
declare("maxdyn_builder_free", None, _handle)
declare("maxdyn_builder_set_gravity", _i32, _handle, _c_double_p)
declare("maxdyn_builder_add_body", _i32, _handle, ctypes.c_double, _c_double_p, _i32_p)
declare("maxdyn_builder_set_body_pose", _i32, _handle, _i32, _c_double_p, _c_double_p)
declare("maxdyn_builder_set_body_velocity", _i32, _handle, _i32, _c_double_p, _c_double_p)
declare("maxdyn_builder_add_joint", _i32, _handle, _i32, _i32, _i32, _c_double_p, _c_double_p, _c_double_p, _i32_p)
declare("maxdyn_builder_set_joint_offset", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_builder_get_body_count", _i32, _handle, _i32_p)
declare("maxdyn_builder_get_joint_count", _i32, _handle, _i32_p)
declare("maxdyn_model_new", _i32, _handle, _handle_p)
declare("maxdyn_model_free", None, _handle)
declare("maxdyn_model_get_body_count", _i32, _handle, _i32_p)
declare("maxdyn_model_get_joint_count", _i32, _handle, _i32_p)
declare("maxdyn_model_get_joint_dof", _i32, _handle, _i32, _i32_p)
declare("maxdyn_sim_new", _i32, _handle, ctypes.c_double, _handle_p)
declare("maxdyn_sim_free", None, _handle)
declare("maxdyn_sim_step", _i32, _handle)
declare("maxdyn_sim_step_n", _i32, _handle, _i32)
declare("maxdyn_sim_set_control_callback", _i32, _handle, CONTROL_CALLBACK, ctypes.c_void_p)
declare("maxdyn_sim_get_time", _i32, _handle, _c_double_p)
declare("maxdyn_sim_get_dt", _i32, _handle, _c_double_p)
declare("maxdyn_sim_get_step_count", _i32, _handle, ctypes.POINTER(ctypes.c_uint64))
declare("maxdyn_sim_get_body_states", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_set_body_states", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_get_limit_count", _i32, _handle, _i32_p)
declare("maxdyn_sim_get_limit", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_sim_get_limit_violation", _i32, _handle, _c_double_p)
declare("maxdyn_sim_get_mimic_violation", _i32, _handle, _c_double_p)
declare("maxdyn_sim_get_body_state", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_sim_set_body_state", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_sim_set_body_force", _i32, _handle, _i32, _c_double_p, _c_double_p)
declare("maxdyn_sim_get_joint_position", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_sim_get_joint_velocity", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_sim_set_joint_position", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_sim_set_joint_velocity", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_sim_get_energy", _i32, _handle, _c_double_p, _c_double_p)
declare("maxdyn_sim_get_constraint_violation", _i32, _handle, _c_double_p)
declare("maxdyn_sim_get_constraint_rank", _i32, _handle, _i32_p, _i32_p, _i32_p, _i32_p)
declare("maxdyn_sim_assemble", _i32, _handle, _c_double_p)
declare("maxdyn_sim_get_joint_violation", _i32, _handle, _i32_p, _c_double_p)
declare("maxdyn_builder_add_plane_contact", _i32, _handle, _i32, _c_double_p, ctypes.c_double, _c_double_p, ctypes.c_double, ctypes.c_double, _i32_p)
declare("maxdyn_builder_add_ground_contact", _i32, _handle, _i32, _c_double_p, ctypes.c_double, ctypes.c_double, _i32_p)
declare("maxdyn_builder_add_sphere_contact", _i32, _handle, _i32, _c_double_p, ctypes.c_double, _i32, _c_double_p, ctypes.c_double, ctypes.c_double, _i32_p)
declare("maxdyn_builder_set_contact_cone", _i32, _handle, _i32, _i32, _i32)
declare("maxdyn_builder_get_contact_cone", _i32, _handle, _i32, _i32_p, _i32_p)
declare("maxdyn_builder_get_contact_count", _i32, _handle, _i32_p)
declare("maxdyn_builder_set_joint_spring", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
declare("maxdyn_builder_set_joint_damper", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_builder_add_spring", _i32, _handle, _i32, _c_double_p, _i32, _c_double_p, ctypes.c_double, ctypes.c_double, ctypes.c_double, _i32_p)
declare("maxdyn_builder_get_spring_count", _i32, _handle, _i32_p)
declare("maxdyn_builder_set_body_name", _i32, _handle, _i32, ctypes.c_char_p)
declare("maxdyn_builder_set_joint_name", _i32, _handle, _i32, ctypes.c_char_p)
declare("maxdyn_builder_find_body", _i32, _handle, ctypes.c_char_p, _i32_p)
declare("maxdyn_builder_find_joint", _i32, _handle, ctypes.c_char_p, _i32_p)
declare("maxdyn_model_get_contact_count", _i32, _handle, _i32_p)
declare("maxdyn_builder_set_joint_limits", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
declare("maxdyn_builder_add_mimic", _i32, _handle, _i32, _i32, ctypes.c_double, ctypes.c_double, _i32_p)
declare("maxdyn_builder_add_frame", _i32, _handle, ctypes.c_char_p, _i32, _c_double_p, _i32_p)
declare("maxdyn_model_get_body_name", _i32, _handle, _i32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
declare("maxdyn_model_find_body", _i32, _handle, ctypes.c_char_p, _i32_p)
declare("maxdyn_model_get_joint_name", _i32, _handle, _i32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
declare("maxdyn_model_find_joint", _i32, _handle, ctypes.c_char_p, _i32_p)
declare("maxdyn_model_get_frame_name", _i32, _handle, _i32, ctypes.c_char_p, _size, ctypes.POINTER(_size))
declare("maxdyn_model_find_frame", _i32, _handle, ctypes.c_char_p, _i32_p)
declare("maxdyn_model_get_joint_type", _i32, _handle, _i32, _i32_p)
declare("maxdyn_model_get_joint_parent", _i32, _handle, _i32, _i32_p)
declare("maxdyn_model_get_joint_child", _i32, _handle, _i32, _i32_p)
declare("maxdyn_model_get_body_mass", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_model_get_body_inertia", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_model_get_frame_count", _i32, _handle, _i32_p)
declare("maxdyn_model_get_frame_body", _i32, _handle, _i32, _i32_p)
declare("maxdyn_model_get_frame_pose", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_model_get_limit_count", _i32, _handle, _i32_p)
declare("maxdyn_model_get_joint_limits", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
declare("maxdyn_model_get_mimic_count", _i32, _handle, _i32_p)
declare("maxdyn_model_get_mimic", _i32, _handle, _i32, _i32_p, _i32_p, _c_double_p, _c_double_p)
declare("maxdyn_model_get_loop_count", _i32, _handle, _i32_p)
declare("maxdyn_sim_get_contact", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_sim_set_contact_tolerance", _i32, _handle, ctypes.c_double)
declare("maxdyn_sim_get_contact_tolerance", _i32, _handle, _c_double_p)
declare("maxdyn_sim_set_contact_margin", _i32, _handle, ctypes.c_double)
declare("maxdyn_sim_get_contact_margin", _i32, _handle, _c_double_p)
declare("maxdyn_sim_set_joint_input", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_sim_get_joint_input", _i32, _handle, _i32, _c_double_p, _size)
declare("maxdyn_sim_set_joint_target", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
declare("maxdyn_sim_get_joint_target", _i32, _handle, _i32, _c_double_p, _c_double_p, _size)
declare("maxdyn_sim_set_body_wrench", _i32, _handle, _i32, _c_double_p, _c_double_p, _c_double_p)
declare("maxdyn_sim_clear_inputs", _i32, _handle)
declare("maxdyn_sim_get_energy_account", _i32, _handle, _c_double_p, _c_double_p)
declare("maxdyn_sim_reset_energy_account", _i32, _handle)
declare("maxdyn_sim_get_spring_energy", _i32, _handle, _c_double_p)
declare("maxdyn_sim_set_solver_options", _i32, _handle, ctypes.c_double, _i32, ctypes.c_double)
declare("maxdyn_sim_get_solver_options", _i32, _handle, _c_double_p, _i32_p, _c_double_p)
declare("maxdyn_sim_get_step_stats", _i32, _handle, ctypes.POINTER(StepStats))
declare("maxdyn_sim_get_step_stats_sized", _i32, _handle, ctypes.POINTER(StepStats), _size)
declare("maxdyn_sim_get_shape_contact_count", _i32, _handle, _i32_p)
declare("maxdyn_sim_get_shape_contacts", _i32, _handle, ctypes.POINTER(ShapeContact), _size, ctypes.POINTER(_size))
declare("maxdyn_solver_options_default", SolverOptions)
SolverOptions.default = lib.maxdyn_solver_options_default
declare("maxdyn_sim_set_options", _i32, _handle, ctypes.POINTER(SolverOptions))
declare("maxdyn_sim_get_options", _i32, _handle, ctypes.POINTER(SolverOptions))
declare("maxdyn_batch_new", _i32, _handle, _size, ctypes.c_double, _size, _handle_p)
declare("maxdyn_batch_free", None, _handle)
declare("maxdyn_batch_get_size", _i32, _handle, ctypes.POINTER(_size))
declare("maxdyn_batch_get_thread_count", _i32, _handle, ctypes.POINTER(_size))
declare("maxdyn_batch_get_sim", _i32, _handle, _size, _handle_p)
declare("maxdyn_batch_step", _i32, _handle, _size, BATCH_CONTROL, ctypes.c_void_p, _i32_p, _size)
declare("maxdyn_batch_get_status", _i32, _handle, _size, _i32_p)
declare("maxdyn_batch_clear_failure", _i32, _handle, _size)
declare("maxdyn_batch_get_body_states", _i32, _handle, _c_double_p, _size)
declare("maxdyn_builder_from_urdf_string", _i32, ctypes.c_char_p, _i32, _handle_p)
declare("maxdyn_builder_get_gravity", _i32, _handle, _c_double_p)
declare("maxdyn_builder_add_universal_joint", _i32, _handle, _i32, _i32, _c_double_p, _c_double_p, _c_double_p, _c_double_p, _i32_p)
declare("maxdyn_builder_add_shape", _i32, _handle, _i32, _i32, _c_double_p, _c_double_p, _size, _i32_p)
declare("maxdyn_builder_add_hull_shape", _i32, _handle, _i32, _c_double_p, _c_double_p, _size, _i32_p)
declare("maxdyn_builder_add_heightfield_shape", _i32, _handle, _i32, _c_double_p, _c_double_p, _size, _size, ctypes.c_double,
        ctypes.c_double, _i32_p)
declare("maxdyn_builder_add_trimesh_shape", _i32, _handle, _i32, _c_double_p, _c_double_p, _size, _i32_p, _size, _i32_p)
declare("maxdyn_builder_set_shape_friction", _i32, _handle, _i32, ctypes.c_double)
declare("maxdyn_builder_set_collision_filter", _i32, _handle, _i32, ctypes.c_uint32, ctypes.c_uint32)
declare("maxdyn_builder_exclude_shape_pair", _i32, _handle, _i32, _i32)
declare("maxdyn_builder_set_collision_cone", _i32, _handle, _i32, _i32)
declare("maxdyn_builder_set_jointed_bodies_collide", _i32, _handle, _i32)
declare("maxdyn_builder_set_contact_capacity", _i32, _handle, _i32)
declare("maxdyn_model_get_contact_capacity", _i32, _handle, _i32_p)
declare("maxdyn_sim_get_contact_slots", _i32, _handle, _i32_p)
declare("maxdyn_builder_get_shape_count", _i32, _handle, _i32_p)
declare("maxdyn_model_get_shapes_may_collide", _i32, _handle, _i32, _i32, _i32_p)
declare("maxdyn_urdf_options_default", UrdfOptions)
declare("maxdyn_builder_from_urdf_with", _i32, ctypes.c_char_p, ctypes.POINTER(UrdfOptions), _handle_p, ctypes.c_char_p, _size, ctypes.POINTER(_size))
declare("maxdyn_builder_from_urdf_string_with", _i32, ctypes.c_char_p, ctypes.POINTER(UrdfOptions), _handle_p, ctypes.c_char_p, _size,
        ctypes.POINTER(_size))
declare("maxdyn_sim_state_size", _i32, _handle, ctypes.POINTER(_size))
declare("maxdyn_sim_get_state", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_set_state", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_copy", _i32, _handle, _handle_p)
declare("maxdyn_sim_velocity_count", _i32, _handle, _i32, ctypes.POINTER(_size))
declare("maxdyn_sim_get_frame_pose", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_sim_get_frame_velocity", _i32, _handle, _i32, _i32, _c_double_p)
declare("maxdyn_sim_get_frame_jacobian", _i32, _handle, _i32, _i32, _i32, _c_double_p, _size)
declare("maxdyn_sim_get_point_pose", _i32, _handle, _i32, _c_double_p, _c_double_p)
declare("maxdyn_sim_get_point_velocity", _i32, _handle, _i32, _c_double_p, _i32, _c_double_p)
declare("maxdyn_sim_get_point_jacobian", _i32, _handle, _i32, _c_double_p, _i32, _i32, _c_double_p, _size)
declare("maxdyn_sim_get_mass_matrix", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_get_bias_forces", _i32, _handle, _c_double_p, _c_double_p, _size)
declare("maxdyn_sim_inverse_dynamics", _i32, _handle, _c_double_p, _c_double_p, _c_double_p, _size)
declare("maxdyn_sim_get_minimal_velocities", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_state_dimensions", _i32, _handle, _i32, ctypes.POINTER(_size), ctypes.POINTER(_size))
declare("maxdyn_model_get_dimensions", _i32, _handle, ctypes.POINTER(_size), ctypes.POINTER(_size), ctypes.POINTER(_size))
declare("maxdyn_sim_get_dimensions", _i32, _handle, ctypes.POINTER(_size), ctypes.POINTER(_size), ctypes.POINTER(_size))
declare("maxdyn_builder_set_base_frame", _i32, _handle, _i32, _c_double_p)
declare("maxdyn_sim_get_configuration", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_set_configuration", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_get_generalized_velocity", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_set_generalized_velocity", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_get_joint_inputs", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_set_joint_inputs", _i32, _handle, _c_double_p, _size)
declare("maxdyn_sim_get_joint_targets", _i32, _handle, _c_double_p, _c_double_p, _size)
declare("maxdyn_sim_set_joint_targets", _i32, _handle, _c_double_p, _c_double_p, _size)
declare("maxdyn_sim_linearize", _i32, _handle, _i32, _c_double_p, _c_double_p)
declare("maxdyn_sim_linearize_differences", _i32, _handle, _i32, ctypes.c_double, _c_double_p, _c_double_p)

try:  # present when the library was built with the URDF entry point
    declare("maxdyn_builder_from_urdf", _i32, ctypes.c_char_p, _i32, _handle_p)
    HAS_URDF = True
except AttributeError:
    HAS_URDF = False

# recordings for the viewer (record.py)
declare("maxdyn_sim_record_open", _i32, _handle, ctypes.c_char_p, _handle_p)
declare("maxdyn_recorder_add_frame", _i32, _handle, _handle)
declare("maxdyn_recorder_close", _i32, _handle)
