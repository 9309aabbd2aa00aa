"""Sim: one simulation of a model — stepping, state, inputs, contacts, options. The
queries (kinematics, dynamics terms, linearization) are in queries.py.

Rule for properties and methods: a property is what the object *has* — counts fixed by
the model, settings and the clock (dt, time, step_count, options, contact_margin,
limit_count); a method computes a result from the current state or the last step
(energy(), step_stats(), count_shape_contacts(), body_states()) or takes arguments."""

from __future__ import annotations

import ctypes
import os
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from ._lib import CONTROL_CALLBACK, _c_double_p, _handle, _i32, _size, lib
from ._structs import ShapeContact, SolverOptions, StepStats
from ._util import Handle, array, as_id, count, deprecated, double, doubles, out, real
from .constants import BODY_STATE_SIZE, CONTACT_SIZE
from .errors import check
from .model import Model
from .queries import Queries
from .whole_state import WholeState

__all__ = ["Sim"]


class Sim(Queries, WholeState, Handle):
    """One simulation of `model` with time step `dt` (s); the model may be closed first
    (the sim shares it). Inputs hold until changed: set them, then step."""

    _free = lib.maxdyn_sim_free

    def __init__(self, model: Model, dt: float) -> None:
        p = _handle()
        check(lib.maxdyn_sim_new(model.ptr, real(dt, "dt"), ctypes.byref(p)))
        super().__init__(p)
        self._dofs = [model.joint_dof(j) for j in range(model.joint_count)]
        self._bodies = model.body_count

    def __repr__(self) -> str:
        if self.closed:
            return f"<maxdyn.{type(self).__name__} closed>"
        return (f"<maxdyn.{type(self).__name__} bodies={self._bodies} dof={sum(self._dofs)} dt={self.dt:g} "
                f"time={self.time:g} steps={self.step_count}>")

    # --- stepping
    def step(self, n: int = 1) -> None:
        """Takes `n` steps in C (maxdyn_sim_step_n); MaxdynError at the first failure
        (`step_count` tells how many were taken)."""
        n = as_id(n, "n")
        if n < 0:
            raise ValueError(f"step needs n >= 0, got {n}")
        limit = 2**31 - 1
        while n > 0:
            chunk = min(n, limit)
            status = lib.maxdyn_sim_step_n(self.ptr, chunk)
            self._raise_control_error()
            check(status)
            n -= chunk

    def set_control_callback(self, control: Optional[Callable[["Sim"], Any]]) -> None:
        """`control(sim)` is called before each step to set its inputs (None removes
        it). If it raises, the step is aborted (status MAXDYN_STATUS_CALLBACK_ABORTED,
        201, state unchanged) and step() raises that exception."""
        if control is None:
            check(lib.maxdyn_sim_set_control_callback(self.ptr, CONTROL_CALLBACK(), None))
            self._control = None
            return
        if not callable(control):
            raise TypeError(f"control must be callable or None, got {type(control).__name__}")
        errors: List[BaseException] = []

        def trampoline(_sim: Any, _user: Any) -> int:
            try:
                control(self)
                return 0
            except BaseException as e:  # noqa: B036 -- it must not unwind into C
                errors.append(e)
                return 1

        callback = CONTROL_CALLBACK(trampoline)
        check(lib.maxdyn_sim_set_control_callback(self.ptr, callback, None))
        self._control = (callback, errors)  # the C function pointer lives as long as the sim uses it

    def _raise_control_error(self) -> None:
        control = getattr(self, "_control", None)
        if control and control[1]:
            error = control[1].pop(0)
            control[1].clear()
            raise error

    @property
    def dt(self) -> float:
        """The time step (s)."""
        return double(lib.maxdyn_sim_get_dt, self.ptr)

    @property
    def step_count(self) -> int:
        """Steps taken since the sim was made."""
        n = ctypes.c_uint64()
        check(lib.maxdyn_sim_get_step_count(self.ptr, ctypes.byref(n)))
        return n.value

    @property
    def time(self) -> float:
        """Simulated time (s)."""
        return double(lib.maxdyn_sim_get_time, self.ptr)

    # --- state
    def body_state(self, body: int) -> np.ndarray:
        """array [x(3), q(4: w,x,y,z), v(3, world), omega(3, body)]"""
        result, ptr = out(BODY_STATE_SIZE)
        check(lib.maxdyn_sim_get_body_state(self.ptr, as_id(body, "body"), ptr))
        return result

    def body_states(self) -> np.ndarray:
        """Every body's state: a (bodies, 13) array, one row per body (as body_state)."""
        result, ptr = out(self._bodies * BODY_STATE_SIZE)
        check(lib.maxdyn_sim_get_body_states(self.ptr, ptr, self._bodies))
        return result.reshape(self._bodies, BODY_STATE_SIZE)

    def set_body_states(self, states: ArrayLike) -> None:
        """Sets every body's state from a (bodies, 13) array; all or nothing."""
        arr = array(states, "states")
        if arr.size != self._bodies * BODY_STATE_SIZE:
            raise ValueError(f"states needs {self._bodies} x {BODY_STATE_SIZE} numbers, got {arr.size}")
        check(lib.maxdyn_sim_set_body_states(self.ptr, arr.ctypes.data_as(_c_double_p), self._bodies))

    def set_body_state(self, body: int, state: ArrayLike) -> None:
        """Sets one body's state (13 numbers, as body_state returns them)."""
        check(lib.maxdyn_sim_set_body_state(self.ptr, as_id(body, "body"), doubles(state, BODY_STATE_SIZE, "state")))

    def state(self) -> np.ndarray:
        """The exact state (an opaque float64 array) for set_state on this sim or any
        sim of the same model: the steps after restoring replay bit for bit."""
        n = _size()
        check(lib.maxdyn_sim_state_size(self.ptr, ctypes.byref(n)))
        result, ptr = out(max(n.value, 1))
        check(lib.maxdyn_sim_get_state(self.ptr, ptr, n.value))
        return result[:n.value]

    def set_state(self, state: ArrayLike) -> None:
        """Restores a state that state() returned."""
        arr = array(state, "state")
        buf = arr if arr.size else np.zeros(1)
        check(lib.maxdyn_sim_set_state(self.ptr, buf.ctypes.data_as(_c_double_p), arr.size))

    def copy(self) -> "Sim":
        """An independent sim of the same model at the same exact state and options."""
        p = _handle()
        check(lib.maxdyn_sim_copy(self.ptr, ctypes.byref(p)))
        twin = Sim._adopt(p)
        twin._dofs, twin._bodies = list(self._dofs), self._bodies
        return twin

    def _dof(self, joint: int) -> int:
        if not 0 <= joint < len(self._dofs):
            return 0  # the library reports the unknown joint
        return self._dofs[joint]

    def _get(self, fn: Callable[..., int], joint: int) -> np.ndarray:
        n = self._dof(joint)
        result, ptr = out(max(n, 1))
        check(fn(self.ptr, joint, ptr, n))
        return result[:n]

    def _set(self, fn: Callable[..., int], joint: int, values: ArrayLike) -> None:
        arr = array(values, "values")
        buf = arr if arr.size else np.zeros(1)
        check(fn(self.ptr, joint, buf.ctypes.data_as(_c_double_p), arr.size))

    def joint_position(self, joint: int) -> np.ndarray:
        """The joint's coordinates (one per free direction, translations first)."""
        return self._get(lib.maxdyn_sim_get_joint_position, as_id(joint, "joint"))

    def joint_velocity(self, joint: int) -> np.ndarray:
        """The joint's velocities (one per free direction)."""
        return self._get(lib.maxdyn_sim_get_joint_velocity, as_id(joint, "joint"))

    def set_joint_position(self, joint: int, values: ArrayLike) -> None:
        """Moves the joint's child subtree to these coordinates."""
        self._set(lib.maxdyn_sim_set_joint_position, as_id(joint, "joint"), values)

    def set_joint_velocity(self, joint: int, values: ArrayLike) -> None:
        """Sets the joint's velocities (the child subtree moves with it)."""
        self._set(lib.maxdyn_sim_set_joint_velocity, as_id(joint, "joint"), values)

    # --- diagnostics
    def energy(self) -> Tuple[float, float]:
        """(kinetic, potential) in J."""
        k, p = ctypes.c_double(), ctypes.c_double()
        check(lib.maxdyn_sim_get_energy(self.ptr, ctypes.byref(k), ctypes.byref(p)))
        return k.value, p.value

    def constraint_violation(self) -> float:
        """The largest joint constraint value now."""
        return double(lib.maxdyn_sim_get_constraint_violation, self.ptr)

    def joint_violation(self) -> Tuple[Optional[int], float]:
        """(joint, violation): the joint most violated now (None when every joint holds
        exactly) and its largest constraint value. A step refuses to start beyond
        JOINT_TOLERANCE (status 205, MAXDYN_STATUS_JOINT_VIOLATION): see `assemble`."""
        j, v = ctypes.c_int32(), ctypes.c_double()
        check(lib.maxdyn_sim_get_joint_violation(self.ptr, ctypes.byref(j), ctypes.byref(v)))
        return (None if j.value < 0 else j.value), v.value

    def assemble(self) -> float:
        """Places every body so that every joint holds (tree bodies at the coordinates
        their poses give, loops closed by the smallest mass-weighted motion); returns the
        violation removed. A loop that cannot close raises (status 206) and changes
        nothing."""
        return double(lib.maxdyn_sim_assemble, self.ptr)

    def constraint_rank(self) -> Tuple[int, int, int, int]:
        """(rows, rank, redundant, dof) of the joint constraints at the current state."""
        o = [ctypes.c_int32() for _ in range(4)]
        check(lib.maxdyn_sim_get_constraint_rank(self.ptr, *[ctypes.byref(x) for x in o]))
        return o[0].value, o[1].value, o[2].value, o[3].value

    def step_stats(self) -> StepStats:
        """What the last step did (StepStats: iterations, residual, contacts, …)."""
        st = StepStats()
        check(lib.maxdyn_sim_get_step_stats_sized(self.ptr, ctypes.byref(st), ctypes.sizeof(st)))
        return st

    # --- contacts
    def contact(self, contact: int) -> Tuple[float, float, np.ndarray]:
        """(gap, normal force, friction force [3, world]) of a contact: the gap now, the
        forces of the last step."""
        result, ptr = out(CONTACT_SIZE)
        check(lib.maxdyn_sim_get_contact(self.ptr, as_id(contact, "contact"), ptr))
        return float(result[0]), float(result[1]), result[2:5]

    def count_shape_contacts(self) -> int:
        """Contact points between collision shapes after the last step."""
        return count(lib.maxdyn_sim_get_shape_contact_count, self.ptr)

    def contact_slots(self) -> int:
        """Contact slots the step's layout holds now (filled, or kept for a pair that
        needed them): at most Model.contact_capacity."""
        return count(lib.maxdyn_sim_get_contact_slots, self.ptr)

    @property
    def shape_contact_count(self) -> int:
        """Deprecated: the older spelling of count_shape_contacts() (the last step's
        result, so a method by the rule above)."""
        deprecated("Sim.shape_contact_count", "Sim.count_shape_contacts()")
        return self.count_shape_contacts()

    def shape_contacts(self) -> List[ShapeContact]:
        """The contact points between collision shapes the last step was solved with
        (each force acts at its point along its normal), as a list of ShapeContact (fields shape_a, shape_b, body_a, body_b, point, normal, gap,
        normal_force, friction_force; docs/COLLISION.md)."""
        n = self.count_shape_contacts()
        result, written = (ShapeContact * max(n, 1))(), _size()
        check(lib.maxdyn_sim_get_shape_contacts(self.ptr, result, n, ctypes.byref(written)))
        return list(result[: written.value])

    # --- options
    @property
    def contact_tolerance(self) -> float:
        """The interior point's complementarity target (a shorthand of options)."""
        return double(lib.maxdyn_sim_get_contact_tolerance, self.ptr)

    @contact_tolerance.setter
    def contact_tolerance(self, value: float) -> None:
        check(lib.maxdyn_sim_set_contact_tolerance(self.ptr, real(value, "contact_tolerance")))

    @property
    def contact_margin(self) -> float:
        """Contacts farther than this (m, plus one step's travel) are left out of a step's
        solve and checked after it; float('inf') keeps every contact in every solve."""
        return double(lib.maxdyn_sim_get_contact_margin, self.ptr)

    @contact_margin.setter
    def contact_margin(self, value: float) -> None:
        check(lib.maxdyn_sim_set_contact_margin(self.ptr, real(value, "contact_margin")))

    @property
    def options(self) -> SolverOptions:
        """Every solver option (a SolverOptions copy; assign one to change them)."""
        o = SolverOptions()
        check(lib.maxdyn_sim_get_options(self.ptr, ctypes.byref(o)))
        return o

    @options.setter
    def options(self, value: SolverOptions) -> None:
        check(lib.maxdyn_sim_set_options(self.ptr, ctypes.byref(value)))

    def solver_options(self) -> Tuple[float, int, float]:
        """Deprecated: (tolerance, max_iterations, acceptance) of the Newton solve; read
        `options` instead."""
        deprecated("Sim.solver_options()", "Sim.options")
        t, m, a = ctypes.c_double(), _i32(), ctypes.c_double()
        check(lib.maxdyn_sim_get_solver_options(self.ptr, ctypes.byref(t), ctypes.byref(m), ctypes.byref(a)))
        return t.value, m.value, a.value

    def set_solver_options(self, tolerance: float = 1e-10, max_iterations: int = 100, acceptance: float = 1e-8) -> None:
        """Deprecated: sets the Newton solve's tolerance, max_iterations and acceptance;
        assign `options` instead."""
        deprecated("Sim.set_solver_options()", "Sim.options = SolverOptions(...)")
        check(lib.maxdyn_sim_set_solver_options(self.ptr, real(tolerance, "tolerance"), as_id(max_iterations, "max_iterations"),
                                                real(acceptance, "acceptance")))

    # --- inputs (they hold until changed: set them, then step)
    def set_joint_input(self, joint: int, u: ArrayLike) -> None:
        """Force/torque per free direction of a joint (+u on the child, -u on the parent)."""
        self._set(lib.maxdyn_sim_set_joint_input, as_id(joint, "joint"), u)

    def joint_input(self, joint: int) -> np.ndarray:
        """The joint's held input (one per free direction)."""
        return self._get(lib.maxdyn_sim_get_joint_input, as_id(joint, "joint"))

    def set_joint_target(self, joint: int, position: ArrayLike, velocity: Optional[ArrayLike] = None) -> None:
        """Servo target of a joint with a spring or a damper: the spring pulls toward
        `position` (its coordinates, as joint_position reads them) and the damper toward
        the rate `velocity` (zeros if omitted), a PD servo with implicit damping. Held until
        changed; moving it is input work in the energy account."""
        j = as_id(joint, "joint")
        p = array(position, "position")
        v = np.zeros(p.size) if velocity is None else array(velocity, "velocity")
        if v.size != p.size:
            raise ValueError(f"velocity needs {p.size} numbers (as position), got {v.size}")
        bp, bv = (x if x.size else np.zeros(1) for x in (p, v))
        check(lib.maxdyn_sim_set_joint_target(self.ptr, j, bp.ctypes.data_as(_c_double_p), bv.ctypes.data_as(_c_double_p), p.size))

    def joint_target(self, joint: int) -> Tuple[np.ndarray, np.ndarray]:
        """The joint's servo target: (position, velocity), one each per free direction."""
        j = as_id(joint, "joint")
        n = self._dof(j)
        (p, pp), (v, pv) = out(max(n, 1)), out(max(n, 1))
        check(lib.maxdyn_sim_get_joint_target(self.ptr, j, pp, pv, n))
        return p[:n], v[:n]

    def set_body_force(self, body: int, force: ArrayLike, torque: ArrayLike = (0.0, 0.0, 0.0)) -> None:
        """A held force (world) at the centre of mass and torque on a body."""
        check(lib.maxdyn_sim_set_body_force(self.ptr, as_id(body, "body"), doubles(force, 3, "force"), doubles(torque, 3, "torque")))

    def set_body_wrench(self, body: int, force: ArrayLike, torque: ArrayLike = (0.0, 0.0, 0.0),
                        point: ArrayLike = (0.0, 0.0, 0.0)) -> None:
        """World-frame force at body point `point` (body frame) and body-frame torque."""
        check(lib.maxdyn_sim_set_body_wrench(
            self.ptr, as_id(body, "body"), doubles(force, 3, "force"), doubles(torque, 3, "torque"), doubles(point, 3, "point")))

    def clear_inputs(self) -> None:
        """Sets every joint input and body wrench to zero."""
        check(lib.maxdyn_sim_clear_inputs(self.ptr))

    # --- limits and mimics
    @property
    def limit_count(self) -> int:
        """Bounded joint coordinates of the model."""
        return count(lib.maxdyn_sim_get_limit_count, self.ptr)

    def limit(self, limit: int) -> np.ndarray:
        """array [coordinate, lower, upper, violation, force] of a limit (see maxdyn.h)."""
        result, ptr = out(5)
        check(lib.maxdyn_sim_get_limit(self.ptr, as_id(limit, "limit"), ptr))
        return result

    def limit_violation(self) -> float:
        """The largest limit violation now (0 inside every limit)."""
        return double(lib.maxdyn_sim_get_limit_violation, self.ptr)

    def mimic_violation(self) -> float:
        """The largest mimic rule violation now."""
        return double(lib.maxdyn_sim_get_mimic_violation, self.ptr)

    # --- energy bookkeeping
    def energy_account(self) -> Tuple[float, float]:
        """(input work, damper dissipation) in J since the start or the last reset."""
        w, d = ctypes.c_double(), ctypes.c_double()
        check(lib.maxdyn_sim_get_energy_account(self.ptr, ctypes.byref(w), ctypes.byref(d)))
        return w.value, d.value

    def reset_energy_account(self) -> None:
        """Restarts energy_account() from zero."""
        check(lib.maxdyn_sim_reset_energy_account(self.ptr))

    def spring_energy(self) -> float:
        """Potential energy in the springs (part of energy()[1])."""
        return double(lib.maxdyn_sim_get_spring_energy, self.ptr)
