"""The queries of a Sim (issue 13), as a base class of Sim: poses, velocities and
Jacobians of frames and body points, the joint-space mass matrix, bias forces, inverse
dynamics, and the step's linearization. Every result is a float64 numpy array.

Axes: AXES_WORLD or AXES_LOCAL (the frame's own). Coordinates: COORDS_MINIMAL (6 per
floating base, its frame's twist in its own axes, then every joint's minimal velocities in
joint-id order) or COORDS_MAXIMAL (every body's v, omega)."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, List, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from ._lib import _size, lib
from ._util import as_id, doubles, out, real
from . import constants
from .errors import check

__all__ = ["Queries"]

Coords = Union[str, int]


class Queries:
    """Kinematics, dynamics terms and linearization of a sim (mixed into Sim)."""

    AXES_WORLD, AXES_LOCAL = constants.AXES_WORLD, constants.AXES_LOCAL
    COORDS_MINIMAL, COORDS_MAXIMAL = constants.COORDS_MINIMAL, constants.COORDS_MAXIMAL
    ptr: Any
    _dofs: List[int]

    def _call(self, fn: Callable[..., int], n: int, *args: Any) -> np.ndarray:
        """`fn(sim, *args, out)` writing n doubles."""
        result, ptr = out(max(n, 1))
        check(fn(self.ptr, *args, ptr))
        return result[:n]

    def _sized(self, fn: Callable[..., int], n: int, *args: Any) -> np.ndarray:
        """`fn(sim, *args, out, n)` writing n doubles."""
        result, ptr = out(max(n, 1))
        check(fn(self.ptr, *args, ptr, n))
        return result[:n]

    # --- kinematics
    def frame_pose(self, frame: int) -> np.ndarray:
        """World pose [x(3), q(4)] of a named frame."""
        return self._call(lib.maxdyn_sim_get_frame_pose, 7, as_id(frame, "frame"))

    def point_pose(self, body: int, point: ArrayLike = (0.0, 0.0, 0.0)) -> np.ndarray:
        """World pose [x(3), q(4)] of a point fixed to a body (body frame, from the centre of mass)."""
        return self._call(lib.maxdyn_sim_get_point_pose, 7, as_id(body, "body"), doubles(point, 3, "point"))

    def frame_velocity(self, frame: int, axes: int = 0) -> np.ndarray:
        """Twist [v(3), omega(3)] of a named frame, in world (AXES_WORLD) or its own axes."""
        return self._call(lib.maxdyn_sim_get_frame_velocity, 6, as_id(frame, "frame"), as_id(axes, "axes"))

    def point_velocity(self, body: int, point: ArrayLike = (0.0, 0.0, 0.0), axes: int = 0) -> np.ndarray:
        """Twist [v(3), omega(3)] of a point fixed to a body, in world or the body's axes."""
        return self._call(lib.maxdyn_sim_get_point_velocity, 6, as_id(body, "body"), doubles(point, 3, "point"),
                          as_id(axes, "axes"))

    def velocity_count(self, coords: Coords = "minimal") -> int:
        """Velocities in `coords` (the columns of a Jacobian)."""
        n = _size()
        check(lib.maxdyn_sim_velocity_count(self.ptr, self._coords(coords), ctypes.byref(n)))
        return n.value

    def frame_jacobian(self, frame: int, axes: int = 0, coords: Coords = 0) -> np.ndarray:
        """6 x n Jacobian of a named frame's twist w.r.t. the velocities in `coords`."""
        c = self._coords(coords)
        n = self.velocity_count(c)
        return self._sized(lib.maxdyn_sim_get_frame_jacobian, 6 * n, as_id(frame, "frame"), as_id(axes, "axes"), c).reshape(6, n)

    def point_jacobian(self, body: int, point: ArrayLike = (0.0, 0.0, 0.0), axes: int = 0, coords: Coords = 0) -> np.ndarray:
        """6 x n Jacobian of a body point's twist w.r.t. the velocities in `coords`."""
        c = self._coords(coords)
        n = self.velocity_count(c)
        return self._sized(lib.maxdyn_sim_get_point_jacobian, 6 * n, as_id(body, "body"), doubles(point, 3, "point"),
                           as_id(axes, "axes"), c).reshape(6, n)

    # --- dynamics terms in minimal coordinates
    def mass_matrix(self) -> np.ndarray:
        """Mass matrix M(q) in minimal coordinates, nv x nv (floating bases first)."""
        n = self.velocity_count("minimal")
        return self._sized(lib.maxdyn_sim_get_mass_matrix, n * n).reshape(n, n)

    def bias_forces(self, qd: ArrayLike) -> np.ndarray:
        """b(q, qd): gravity, Coriolis and centrifugal forces (nv)."""
        n = self.velocity_count("minimal")
        return self._sized(lib.maxdyn_sim_get_bias_forces, n, doubles(qd, n, "qd"))

    def inverse_dynamics(self, qd: ArrayLike, qdd: ArrayLike) -> np.ndarray:
        """Generalized forces tau = M(q) qdd + b(q, qd) (nv): a floating base's wrench in
        its frame's axes (force, moment about its origin), then the joint inputs."""
        n = self.velocity_count("minimal")
        return self._sized(lib.maxdyn_sim_inverse_dynamics, n, doubles(qd, n, "qd"), doubles(qdd, n, "qdd"))

    def minimal_velocities(self) -> np.ndarray:
        """The minimal velocities (nv) at the current state: floating bases' twists, then
        every joint's continuous rates."""
        return self._sized(lib.maxdyn_sim_get_minimal_velocities, self.velocity_count("minimal"))

    # --- linearization: x_{k+1} = f(x_k, u_k) of one step from the current state and
    # inputs; the sim is not advanced.
    def _coords(self, coords: Coords) -> int:
        named = {"minimal": constants.COORDS_MINIMAL, "maximal": constants.COORDS_MAXIMAL}
        if isinstance(coords, str):
            if coords not in named:
                raise ValueError(f'coords must be "minimal" or "maximal", got {coords!r}')
            return named[coords]
        return as_id(coords, "coords")

    def state_dimensions(self, coords: Coords = "minimal") -> Tuple[int, int]:
        """(nx, nu) of a linearization in `coords` (see linearize)."""
        nx, nu = _size(), _size()
        check(lib.maxdyn_sim_state_dimensions(self.ptr, self._coords(coords), ctypes.byref(nx), ctypes.byref(nu)))
        return nx.value, nu.value

    def _linearization(self, fn: Callable[..., int], coords: Coords, *args: Any) -> Tuple[np.ndarray, np.ndarray]:
        c = self._coords(coords)
        nx, nu = self.state_dimensions(c)
        (a, pa), (b, pb) = out(max(nx * nx, 1)), out(max(nx * nu, 1))
        check(fn(self.ptr, c, *args, pa, pb))
        return a[:nx * nx].reshape(nx, nx), b[:nx * nu].reshape(nx, nu)

    def linearize(self, coords: Coords = "minimal") -> Tuple[np.ndarray, np.ndarray]:
        """(A, B) numpy arrays, A = df/dx (nx x nx) and B = df/du (nx x nu), of one step
        x_{k+1} = f(x_k, u_k) from the current state and inputs (the sim is not advanced).
        coords "minimal" (COORDS_MINIMAL): x = each floating base's tangent (6: a move along
        and a turn about its frame's own axes, 0 at the current state), every joint's
        positions, then the generalized velocity (as generalized_velocity returns it), u =
        every joint's inputs; models with kinematic loops are refused. "maximal"
        (COORDS_MAXIMAL): x = the 13 numbers of body_state per body, u = every body's
        wrench, force (world) then torque (body frame)."""
        return self._linearization(lib.maxdyn_sim_linearize, coords)

    def linearize_differences(self, coords: Coords = "minimal", h: float = 1e-6) -> Tuple[np.ndarray, np.ndarray]:
        """linearize() by central differences of whole steps with step `h` on every state
        and input entry (2 (nx + nu) steps): the reference for the analytic one. `h` lies
        in [max(solver tolerance, 1e-12 x the largest state or input entry), 1]; outside it
        (or NaN) MaxdynError names `h`."""
        return self._linearization(lib.maxdyn_sim_linearize_differences, coords, real(h, "h"))
