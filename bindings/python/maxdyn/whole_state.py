"""Whole-state vectors of a Sim in minimal coordinates, one C call each (as a base class
of Sim): the configuration q (nq), the generalized velocity v (nv) and every joint input
u (nu), as float64 numpy arrays.

A floating base (a body no joint places: the trunk of a URDF loaded with floating=True)
comes first: in q its frame's position (world) and orientation quaternion (w, x, y, z;
Pinocchio's is x, y, z, w), in v its frame's linear and angular velocity in the frame's
own axes (Pinocchio's LOCAL convention). Then every joint in joint-id order: its
coordinates in q, its (discrete) rates in v, its inputs in u."""

from __future__ import annotations

import ctypes
from typing import Any, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from ._lib import _size, lib
from ._util import Dimensioned, doubles, out
from .errors import check

__all__ = ["WholeState"]


class WholeState(Dimensioned):
    """Configuration, generalized velocity and joint inputs of a sim (mixed into Sim)."""

    ptr: Any

    def dimensions(self) -> Tuple[int, int, int]:
        """(nq, nv, nu): configuration entries, generalized velocities, joint inputs."""
        nq, nv, nu = _size(), _size(), _size()
        check(lib.maxdyn_sim_get_dimensions(self.ptr, ctypes.byref(nq), ctypes.byref(nv), ctypes.byref(nu)))
        return nq.value, nv.value, nu.value

    def _vector(self, fn: Any, n: int) -> np.ndarray:
        result, ptr = out(max(n, 1))
        check(fn(self.ptr, ptr, n))
        return result[:n]

    def configuration(self) -> np.ndarray:
        """The configuration q (nq): floating bases (position, quaternion w x y z), then
        every joint's coordinates (angles a limit or mimic tracks unwrapped)."""
        return self._vector(lib.maxdyn_sim_get_configuration, self.nq)

    def set_configuration(self, q: ArrayLike) -> None:
        """Sets the whole configuration q (nq) in one call: the bases and every joint; the
        bodies follow their joints and the generalized velocity is kept. A base quaternion
        must be unit within 1e-6; a wrong length is a ValueError, NaN or a non-unit
        quaternion a MaxdynError, and nothing changes."""
        n = self.nq
        check(lib.maxdyn_sim_set_configuration(self.ptr, doubles(q, n, "q"), n))

    def generalized_velocity(self) -> np.ndarray:
        """The generalized velocity v (nv): floating bases' twists in their own axes, then
        every joint's rates (discrete, as joint_velocity)."""
        return self._vector(lib.maxdyn_sim_get_generalized_velocity, self.nv)

    def set_generalized_velocity(self, v: ArrayLike) -> None:
        """Sets the whole generalized velocity v (nv) in one call; the configuration is
        kept. Refused (nothing changes): a wrong length, NaN, a joint turning by pi or more
        in one step, a body spinning at |omega| >= 2/dt."""
        n = self.nv
        check(lib.maxdyn_sim_set_generalized_velocity(self.ptr, doubles(v, n, "v"), n))

    def joint_inputs(self) -> np.ndarray:
        """Every joint's input in joint-id order (nu)."""
        return self._vector(lib.maxdyn_sim_get_joint_inputs, self.nu)

    def set_joint_inputs(self, u: ArrayLike) -> None:
        """Sets every joint's input at once (nu, joint-id order); held until changed."""
        n = self.nu
        check(lib.maxdyn_sim_set_joint_inputs(self.ptr, doubles(u, n, "u"), n))

    def joint_targets(self) -> Tuple[np.ndarray, np.ndarray]:
        """Every joint's servo target in joint-id order: (position, velocity), nu each."""
        n = self.nu
        (p, pp), (v, pv) = out(max(n, 1)), out(max(n, 1))
        check(lib.maxdyn_sim_get_joint_targets(self.ptr, pp, pv, n))
        return p[:n], v[:n]

    def set_joint_targets(self, position: ArrayLike, velocity: Optional[ArrayLike] = None) -> None:
        """Sets every joint's servo target at once (nu each, joint-id order; the rates zero
        if omitted): a policy's PD targets. Joints with neither spring nor damper take 0."""
        n = self.nu
        v = [0.0] * n if velocity is None else velocity
        check(lib.maxdyn_sim_set_joint_targets(self.ptr, doubles(position, n, "position"), doubles(v, n, "velocity"), n))
