"""Rollouts: many simulations of one model under a parameterized policy, stepped on a
Batch. This is the engine every worker of maxdyn.distributed (Ray) runs; on its own it
runs the same rollouts on this machine, with the same results bit for bit.

    worker = maxdyn.RolloutWorker(maxdyn.UrdfModel(urdf_text, {"floating": True}), dt=0.001, threads=2)
    result = worker.run(states0, params, policy, steps=1000, reward=reward)
    result.reward, result.status, result.q        # numpy arrays, one row per rollout

- The model is a picklable callable without arguments that returns a maxdyn.Model:
  `UrdfModel` (URDF text, loader options, point contacts on links) or any module-level
  function that builds one. A worker calls it once and keeps the model.
- `states0` (N, state size) are exact sim states (Sim.state(): poses, velocities, time,
  step size, warm start), so a rollout does not depend on what its batch ran before.
- `policy(params, obs) -> inputs`: params (m, P), an `Observation` of m rollouts at time
  obs.t, inputs (m, nu) in joint-id order (Sim.set_joint_inputs), evaluated before every
  step. With `action="targets"` the policy's (m, nu) are the joints' servo target
  positions instead (Sim.set_joint_targets, rates 0): PD targets that the joints' springs
  and dampers (`UrdfModel.servos`) track with implicit damping. It sees a chunk of m running rollouts at once, so numpy vectorizes it across them;
  results are bit-identical however rollouts are chunked only if row i of its output
  depends on row i of its inputs alone (elementwise numpy does; reductions across rows,
  and numpy's SIMD transcendentals, whose last bit may depend on an element's position,
  do not: use math.cos and friends per element). An object with a `bind(model)` method
  is bound once per run: bind returns the callable (for joint ids looked up by name).
- `stop(obs) -> bool (m,)`, optional: checked after every step; a rollout it stops ends
  there with status 0 and `stopped` set.
- `reward(obs0, obs) -> (m,)`, optional: from each rollout's first and last observation.

A step that fails (NOT_CONVERGED, a non-finite state...) ends that rollout with the
step's status at its last good state; inputs the library refuses (NaN) end it with
that status (NON_FINITE); the other rollouts go on."""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ._lib import BATCH_CONTROL, _i32, lib
from .batch import Batch
from .builder import Builder
from .constants import BODY_STATE_SIZE
from .errors import check
from .model import Model

__all__ = ["UrdfModel", "Observation", "RolloutResult", "RolloutWorker"]

_double_p = ctypes.POINTER(ctypes.c_double)


@dataclass(frozen=True)
class UrdfModel:
    """A model as picklable data: URDF text, keyword options of
    Builder.from_urdf_string_with (e.g. {"floating": True, "joint_limits": False}), and
    point contacts with the ground added after loading, each (link name, point in the
    link's body frame, radius, friction), in this order. Calling it compiles the model."""

    urdf: str
    options: Mapping[str, Any] = field(default_factory=dict)
    ground_contacts: Sequence[Tuple[str, Sequence[float], float, float]] = ()
    servos: Mapping[str, Tuple[float, float]] = field(default_factory=dict)
    """Joint name -> (kp, kd) of a servo on that one-dof joint: a joint spring (rest 0
    until a target moves it) and damper, for policies that command targets."""

    def __call__(self) -> Model:
        builder, _ = Builder.from_urdf_string_with(self.urdf, **dict(self.options))
        with builder:
            for link, point, radius, friction in self.ground_contacts:
                builder.add_ground_contact(builder.find_body(link), point, radius, friction)
            for joint, (kp, kd) in self.servos.items():
                j = builder.find_joint(joint)
                builder.set_joint_spring(j, [kp], [0.0])
                builder.set_joint_damper(j, [kd])
            return Model(builder)


class Observation:
    """What a policy, stop or reward sees of m rollouts: q (m, nq) configurations, v (m,
    nv) generalized velocities, t the time, and `bodies` (m, bodies, 13: x, q, v, omega
    per body), read from the sims when first asked for."""

    def __init__(self, q: np.ndarray, v: np.ndarray, t: float, read_bodies: Callable[[], np.ndarray]) -> None:
        self.q, self.v, self.t = q, v, t
        self._read_bodies = read_bodies
        self._bodies: Optional[np.ndarray] = None

    @property
    def bodies(self) -> np.ndarray:
        """(m, bodies, 13) body states, read on first use."""
        if self._bodies is None:
            self._bodies = self._read_bodies()
        return self._bodies


@dataclass
class RolloutResult:
    """Rollouts' outcomes, one row each in the order given: final configuration q (N, nq)
    and velocity v (N, nv); reward (N,) if a reward was given; status (N,): 0, or the
    maxdyn status that ended the rollout; steps (N,) completed; stopped (N,) ended by
    `stop`; trajectory (N, frames, nq): q every `record_every` steps from the start (an
    ended rollout repeats its last q), if asked for."""

    q: np.ndarray
    v: np.ndarray
    status: np.ndarray
    steps: np.ndarray
    stopped: np.ndarray
    reward: Optional[np.ndarray] = None
    trajectory: Optional[np.ndarray] = None

    @staticmethod
    def concatenate(parts: Sequence["RolloutResult"]) -> "RolloutResult":
        """The rows of `parts` one after another."""

        def cat(name: str) -> Optional[np.ndarray]:
            arrays = [getattr(p, name) for p in parts]
            return None if any(a is None for a in arrays) else np.concatenate(arrays)

        return RolloutResult(*(cat(n) for n in ("q", "v", "status", "steps", "stopped", "reward", "trajectory")))

    def nbytes(self) -> int:
        """Bytes of the arrays (what travels back from a worker)."""
        return sum(a.nbytes for a in (self.q, self.v, self.status, self.steps, self.stopped, self.reward,
                                      self.trajectory) if a is not None)


def _rows(a: np.ndarray) -> List[Any]:
    """A C pointer to each row of a C-contiguous 2-d float64 array."""
    return [a[i].ctypes.data_as(_double_p) for i in range(a.shape[0])]


class RolloutWorker:
    """One compiled model and Batches of its sims on `threads` threads (0: every core):
    runs rollouts (see the module's docstring), `chunk` at a time (None: all at once)."""

    def __init__(self, model: Callable[[], Model], dt: float, threads: int = 0, chunk: Optional[int] = None) -> None:
        self.model = model()
        self.dt, self.threads, self.chunk = float(dt), int(threads), chunk
        self.nq, self.nv, self.nu = self.model.dimensions()
        self.body_count = self.model.body_count
        probe = Batch(self.model, 1, self.dt, 1)
        size = ctypes.c_size_t()
        check(lib.maxdyn_sim_state_size(probe.sims[0].ptr, ctypes.byref(size)))
        probe.close()
        self.state_size = size.value
        self._batches: Dict[int, Batch] = {}

    def close(self) -> None:
        """Frees the batches and the model."""
        for b in self._batches.values():
            b.close()
        self._batches.clear()
        self.model.close()

    def _batch(self, m: int) -> Batch:
        """A Batch of m sims, kept for the next chunks of that size (the last four sizes:
        each Batch holds a thread pool)."""
        if m not in self._batches:
            if len(self._batches) >= 4:
                self._batches.pop(next(iter(self._batches))).close()
            self._batches[m] = Batch(self.model, m, self.dt, self.threads)
        return self._batches[m]

    def run(self, states0: Any, params: Any, policy: Any, steps: int, stop: Optional[Callable[..., Any]] = None,
            reward: Optional[Callable[..., Any]] = None, record_every: int = 0, action: str = "inputs") -> RolloutResult:
        """Runs len(states0) rollouts of `steps` steps (module docstring); `action` says what
        the policy returns: "inputs" (joint inputs) or "targets" (servo target positions)."""
        if action not in ("inputs", "targets"):
            raise ValueError(f'action must be "inputs" or "targets", got {action!r}')
        states0 = np.ascontiguousarray(states0, dtype=np.float64)
        params = np.ascontiguousarray(params, dtype=np.float64)
        if states0.ndim != 2 or states0.shape[1] != self.state_size:
            raise ValueError(f"states0 must be (N, {self.state_size}) sim states, got shape {states0.shape}")
        if params.ndim != 2 or params.shape[0] != states0.shape[0]:
            raise ValueError(f"params must be (N, P) with N = {states0.shape[0]}, got shape {params.shape}")
        if steps < 0 or record_every < 0:
            raise ValueError(f"steps and record_every must be >= 0, got {steps}, {record_every}")
        bound = policy.bind(self.model) if hasattr(policy, "bind") else policy
        n = states0.shape[0]
        chunk = n if not self.chunk else self.chunk
        parts = [self._run_chunk(states0[i:i + chunk], params[i:i + chunk], bound, steps, stop, reward, record_every,
                                 action) for i in range(0, n, max(chunk, 1))]
        if not parts:
            return self._run_chunk(states0, params, bound, steps, stop, reward, record_every, action)
        return RolloutResult.concatenate(parts)

    def _run_chunk(self, states0: np.ndarray, params: np.ndarray, policy: Callable[..., Any], steps: int,
                   stop: Optional[Callable[..., Any]], reward: Optional[Callable[..., Any]],
                   record_every: int, action: str) -> RolloutResult:
        m, nq, nv, nu, nb = states0.shape[0], self.nq, self.nv, self.nu, self.body_count
        q, v, u = np.zeros((m, nq)), np.zeros((m, nv)), np.zeros((m, nu))
        bodies = np.zeros((m, nb, BODY_STATE_SIZE))
        status = np.zeros(m, np.int32)
        done = np.zeros(m, np.int64)
        stopped = np.zeros(m, bool)
        frames = steps // record_every + 1 if record_every else 0
        trajectory = np.zeros((m, frames, nq)) if record_every else None
        if m == 0:
            return RolloutResult(q, v, status, done, stopped, np.zeros(0) if reward else None, trajectory)
        batch = self._batch(m)
        sims = [s.ptr for s in batch.sims]
        for i, s in enumerate(sims):
            check(lib.maxdyn_batch_clear_failure(batch.ptr, i))
            check(lib.maxdyn_sim_set_state(s, states0[i].ctypes.data_as(_double_p), self.state_size))
        q_rows, v_rows, u_rows, b_rows = _rows(q), _rows(v), _rows(u), _rows(bodies.reshape(m, -1))
        step_status = np.zeros(m, np.int32)
        step_status_p = step_status.ctypes.data_as(ctypes.POINTER(_i32))
        running = np.ones(m, bool)  # stepping and not ended
        frozen = np.zeros(m, bool)  # ended by stop or refused inputs: q, v, bodies hold its end; the sim steps on
        time = ctypes.c_double()
        no_control = BATCH_CONTROL()
        get_q, get_v = lib.maxdyn_sim_get_configuration, lib.maxdyn_sim_get_generalized_velocity
        get_bodies = lib.maxdyn_sim_get_body_states
        rates = np.zeros(max(nu, 1))  # the targets' rates, held for the run
        rates_p = rates.ctypes.data_as(_double_p)

        def set_u(sim: Any, row: Any, n: int) -> int:
            if action == "targets":
                return lib.maxdyn_sim_set_joint_targets(sim, row, rates_p, n)
            return lib.maxdyn_sim_set_joint_inputs(sim, row, n)

        def read(rows: List[int]) -> None:
            for i in rows:
                if get_q(sims[i], q_rows[i], nq) or get_v(sims[i], v_rows[i], nv):
                    check(lib.maxdyn_sim_get_configuration(sims[i], q_rows[i], nq))
                    check(lib.maxdyn_sim_get_generalized_velocity(sims[i], v_rows[i], nv))

        def read_bodies(rows: List[int]) -> Callable[[], np.ndarray]:
            def reader() -> np.ndarray:
                for i in rows:
                    check(get_bodies(sims[i], b_rows[i], nb))
                return bodies[rows]
            return reader

        def observe(rows: List[int]) -> Observation:
            check(lib.maxdyn_sim_get_time(sims[rows[0]], ctypes.byref(time)))
            return Observation(q[rows], v[rows], time.value, read_bodies(rows))

        halting: List[int] = []  # frozen since the last step: their sims stop at the next one

        def halt_them(_sim: Any, index: int, _user: Any) -> int:
            return 1 if index in halting else 0  # 1: the batch stops this sim (CALLBACK_ABORTED)

        halt_control = BATCH_CONTROL(halt_them)

        def freeze(rows: List[int]) -> None:
            running[rows] = False
            frozen[rows] = True
            read_bodies(rows)()
            halting.extend(rows)

        everyone = list(range(m))
        read(everyone)
        first = observe(everyone)
        if reward is not None:
            first.bodies  # noqa: B018 -- read now, before the sims move
        for k in range(steps + 1):
            if k > 0:
                read(np.flatnonzero(~frozen).tolist())  # running, or failed and standing still
            act = np.flatnonzero(running).tolist()
            if k > 0 and stop is not None and act:
                halt = np.asarray(stop(observe(act)), dtype=bool).reshape(-1)
                if halt.shape != (len(act),):
                    raise ValueError(f"stop must return {len(act)} booleans, got shape {halt.shape}")
                if halt.any():
                    ended = [i for i, h in zip(act, halt) if h]
                    stopped[ended] = True
                    freeze(ended)
                    act = [i for i, h in zip(act, halt) if not h]
            if record_every and k % record_every == 0:
                trajectory[:, k // record_every] = q
            if k == steps or not act:
                if record_every:  # ended rollouts repeat their last q
                    trajectory[:, k // record_every + 1:] = q[:, None, :]
                break
            inputs = np.asarray(policy(params[act], observe(act)), dtype=np.float64)
            if inputs.shape != (len(act), nu):
                raise ValueError(f"policy must return ({len(act)}, {nu}) inputs, got shape {inputs.shape}")
            u[act] = inputs
            for i in act:
                rc = set_u(sims[i], u_rows[i], nu)
                if rc != 0:  # refused (NaN): the rollout ends here, before its step
                    status[i] = rc
                    freeze([i])
            step_status[:] = -1
            # a frozen sim would step on for nothing: the control callback stops it (only on
            # the step after it froze; otherwise no callback runs)
            rc = lib.maxdyn_batch_step(batch.ptr, 1, halt_control if halting else no_control, None, step_status_p, m)
            halting.clear()
            if rc != 0 and (step_status == -1).any():
                check(rc)
            failed = running & (step_status != 0)
            status[failed] = step_status[failed]
            running &= ~failed
            done[running] += 1
        if not frozen.all():  # the bodies of the others' ends
            read_bodies(np.flatnonzero(~frozen).tolist())()
        r = None
        if reward is not None:
            r = np.asarray(reward(first, Observation(q, v, math.nan, lambda: bodies)), dtype=np.float64).reshape(-1)
            if r.shape != (m,):
                raise ValueError(f"reward must return {m} numbers, got shape {r.shape}")
        return RolloutResult(q.copy(), v.copy(), status, done, stopped, r, trajectory)
