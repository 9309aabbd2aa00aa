"""Rollouts on a Ray cluster (`pip install "maxdyn[ray]"`): RayRollouts keeps one Ray
actor per share of the cluster's cores, each holding ONE compiled model and a
RolloutWorker (Batches over its `threads` cores), and hands them chunks of rollouts.

    import ray, maxdyn
    from maxdyn.distributed import RayRollouts
    ray.init()                                   # or ray.init(address="auto") on a cluster
    pool = RayRollouts(maxdyn.UrdfModel(urdf_text, {"floating": True}), dt=0.001)
    result = pool.run(states0, params, policy, steps=1000, reward=reward)   # a RolloutResult

The model (a picklable callable returning a Model, e.g. UrdfModel) travels to each actor
once and is compiled there once, at the actor's start; policy, stop and reward travel
once per run (put in Ray's object store); chunks carry their rows of states0 and params.
Results are those of RolloutWorker.run on the same rows, bit for bit, however many
actors, nodes or chunks (each rollout starts from its exact state; see maxdyn.rollouts on
what the policy must do for that). An actor that dies is restarted by Ray and its
unfinished chunks run again (Ray's task retries, then this class's own resubmission to
any live actor), so a run returns every rollout, identical."""

from __future__ import annotations

import math
import os
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from .model import Model
from .rollouts import RolloutResult, RolloutWorker

try:
    import ray
    from ray.exceptions import RayActorError
except ImportError as e:  # pragma: no cover -- the extra is optional
    raise ImportError('maxdyn.distributed needs Ray: pip install "maxdyn[ray]"') from e

__all__ = ["RayRollouts"]


class _Actor:
    """A RolloutWorker in a Ray actor."""

    def __init__(self, model: Callable[[], Model], dt: float, threads: int) -> None:
        self.worker = RolloutWorker(model, dt, threads)

    def run(self, calls: Tuple[Any, Any, Any], states0: np.ndarray, params: np.ndarray, steps: int,
            record_every: int, action: str) -> RolloutResult:
        policy, stop, reward = calls
        return self.worker.run(states0, params, policy, steps, stop, reward, record_every, action)

    def pid(self) -> int:
        return os.getpid()

    def node(self) -> str:
        return ray.get_runtime_context().get_node_id()

    def state_size(self) -> int:
        return self.worker.state_size


class RayRollouts:
    """`actors` Ray actors (None: the cluster's CPUs / threads) of `threads` cores each,
    holding the model `model` (compiled once per actor) with time step `dt`; a run cuts
    its rollouts into chunks of `chunk` (None: about four per actor) and keeps every actor
    two chunks deep. `max_restarts`, `max_task_retries`: Ray's, per actor; a chunk whose
    retries are spent goes to another live actor, at most `resubmissions` times per run."""

    def __init__(self, model: Callable[[], Model], dt: float, actors: Optional[int] = None, threads: int = 1,
                 chunk: Optional[int] = None, max_restarts: int = 4, max_task_retries: int = 4,
                 resubmissions: int = 8) -> None:
        if not ray.is_initialized():
            raise RuntimeError("RayRollouts needs Ray started: ray.init() (or ray.init(address=...)) first")
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        if actors is None:
            actors = max(1, int(ray.cluster_resources().get("CPU", 1) // threads))
        if actors < 1:
            raise ValueError(f"actors must be >= 1, got {actors}")
        remote = ray.remote(_Actor).options(num_cpus=threads, max_restarts=max_restarts,
                                            max_task_retries=max_task_retries, scheduling_strategy="SPREAD")
        self.actors = [remote.remote(model, dt, threads) for _ in range(actors)]
        self.chunk, self.resubmissions = chunk, resubmissions
        self.state_size: int = ray.get(self.actors[0].state_size.remote())
        self.chunks_done = 0  # of the current run, for progress and tests

    def close(self) -> None:
        """Ends the actors."""
        for a in self.actors:
            ray.kill(a, no_restart=True)
        self.actors = []

    def __enter__(self) -> "RayRollouts":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def run(self, states0: Any, params: Any, policy: Any, steps: int, stop: Optional[Callable[..., Any]] = None,
            reward: Optional[Callable[..., Any]] = None, record_every: int = 0, action: str = "inputs") -> RolloutResult:
        """RolloutWorker.run over the actors: same arguments, same result."""
        if action not in ("inputs", "targets"):
            raise ValueError(f'action must be "inputs" or "targets", got {action!r}')
        states0 = np.ascontiguousarray(states0, dtype=np.float64)
        params = np.ascontiguousarray(params, dtype=np.float64)
        n = states0.shape[0] if states0.ndim == 2 else -1
        if n < 0 or states0.shape[1] != self.state_size:
            raise ValueError(f"states0 must be (N, {self.state_size}) sim states, got shape {states0.shape}")
        if params.ndim != 2 or params.shape[0] != n:
            raise ValueError(f"params must be (N, P) with N = {n}, got shape {params.shape}")
        size = self.chunk or max(1, math.ceil(n / (4 * len(self.actors))))
        bounds = [(i, min(i + size, n)) for i in range(0, n, size)] or [(0, 0)]
        calls = ray.put((policy, stop, reward))
        todo: List[int] = list(range(len(bounds)))[::-1]
        flying: Dict[Any, Tuple[int, int]] = {}  # object ref -> (chunk, actor)
        results: Dict[int, RolloutResult] = {}
        load = [0] * len(self.actors)
        deaths = [0] * len(self.actors)
        resubmitted = 0
        self.chunks_done = 0

        def submit(c: int, a: int) -> None:
            lo, hi = bounds[c]
            ref = self.actors[a].run.remote(calls, states0[lo:hi], params[lo:hi], steps, record_every, action)
            flying[ref] = (c, a)
            load[a] += 1

        for _ in range(2):
            for a in range(len(self.actors)):
                if todo:
                    submit(todo.pop(), a)
        while flying:
            ready, _ = ray.wait(list(flying), num_returns=1)
            c, a = flying.pop(ready[0])
            load[a] -= 1
            try:
                results[c] = ray.get(ready[0])
                self.chunks_done += 1
            except RayActorError:
                # the actor died and Ray's retries are spent: run the chunk elsewhere
                resubmitted += 1
                if resubmitted > self.resubmissions:
                    raise
                todo.append(c)
                deaths[a] += 1
                a = min(range(len(self.actors)), key=lambda k: (deaths[k], load[k]))
            if todo:
                submit(todo.pop(), a)
        return RolloutResult.concatenate([results[c] for c in range(len(bounds))])
