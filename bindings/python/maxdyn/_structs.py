"""The C structs of maxdyn.h as ctypes Structures. Their fields are checked against the
header by tests/test_header.py, so they cannot drift."""

from __future__ import annotations

import ctypes
from typing import Any

__all__ = ["StepStats", "ShapeContact", "SolverOptions"]


class _Struct(ctypes.Structure):
    """A C struct whose fields print and compare by value."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(getattr(self, n) == getattr(other, n) for n, _ in self._fields_)

    def __repr__(self) -> str:
        return type(self).__name__ + "(" + ", ".join(f"{n}={getattr(self, n)!r}" for n, _ in self._fields_) + ")"


class StepStats(_Struct):
    """What the last step did (maxdyn_step_stats): Newton `iterations`, final `residual`,
    `stalled` (1 if the solve stalled), `line_search_halvings`, `contacts` and
    `active_contacts` in the solve, the interior point's `complementarity`, `fallback`
    (1 if a rescue solve took over), `substeps` (split steps), `tresca_rounds`,
    `cold_restarts`, `relaxed` (1 if the step is the solution of the convex relaxation of
    Coulomb friction: rigid and in the cone, sliding contacts lifting by dt·μ·slip)."""

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
        ("relaxed", ctypes.c_int32),
    ]


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


class SolverOptions(_Struct):
    """Every solver option of a sim (maxdyn_solver_options); SolverOptions() holds the
    defaults, keywords change them. Fields: tolerance, max_iterations, acceptance,
    contact_tolerance, max_splits, contact_predictor_corrector (1 or 0), contact_margin,
    contact_warm_start (1 or 0), joint_tolerance (inf: step from any configuration),
    integrator (INTEGRATOR_FIRST_ORDER, the default, INTEGRATOR_SECOND_ORDER or
    INTEGRATOR_FOURTH_ORDER: the velocities set are those at the current time, positions
    converge at second or fourth order; the fourth without contacts or limits)."""

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
        ("integrator", ctypes.c_int32),
    ]

    # the library's defaults (maxdyn_solver_options_default), set by _lib once it has
    # declared the function: _lib declares functions with these structs, so this module
    # does not import it
    default: Any = None

    def __init__(self, **fields: Any) -> None:
        super().__init__()
        ctypes.memmove(ctypes.byref(self), ctypes.byref(SolverOptions.default()), ctypes.sizeof(self))
        for name, value in fields.items():
            if name not in dict(self._fields_):
                raise TypeError(f"SolverOptions has no field {name!r}")
            setattr(self, name, value)


class UrdfOptions(ctypes.Structure):
    """maxdyn.h maxdyn_urdf_options (fields only ever added at the end)."""

    _fields_ = [(name, ctypes.c_int32) for name in
                ("floating", "merge_fixed", "joint_limits", "collision", "ground_plane", "self_collision")] + [
                ("bound_mass", ctypes.c_double), ("bound_inertia", ctypes.c_double),
                ("srdf_path", ctypes.c_char_p), ("srdf_string", ctypes.c_char_p),
                ("mesh_roots", ctypes.c_char_p), ("world_meshes_as_trimesh", ctypes.c_int32)]
