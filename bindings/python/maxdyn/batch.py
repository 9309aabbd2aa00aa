"""Batch: many sims of one model stepped on a pool of threads (maxdyn_batch_*)."""

from __future__ import annotations

import ctypes
from typing import Any, Callable, List, Optional

import numpy as np

from ._lib import BATCH_CONTROL, _handle, _i32, _size, lib
from ._util import Handle, as_id, real
from ._util import out as new_array
from .constants import BODY_STATE_SIZE
from .errors import check
from .model import Model
from .sim import Sim

__all__ = ["Batch"]


class _BatchSim(Sim):
    """A sim owned by a batch: every Sim method works on it; closing it does nothing
    (the batch frees its sims) and it keeps the batch alive."""

    def __init__(self, batch: "Batch", ptr: Any, dofs: List[int], bodies: int) -> None:
        self._ptr = ptr
        self._batch = batch
        self._dofs = dofs
        self._bodies = bodies

    def close(self) -> None:
        """Forgets the handle (the batch frees it)."""
        self._ptr = None


class Batch(Handle):
    """`n` sims of one model stepped on a pool of `threads` threads (0: the machine's
    count). Every sim's trajectory is bit-identical to stepping it alone as a Sim.

        batch = maxdyn.Batch(model, 100, 0.01, threads=2)
        for i, sim in enumerate(batch.sims):
            sim.set_joint_position(j, [0.01 * i])
        statuses = batch.step(500)          # the sims step in parallel, no GIL held
        states = batch.body_states()        # array (n, bodies, 13)

    A sim whose step fails stops at its last good step with a non-zero status (see
    step()) until clear_failure(i); the others go on."""

    _free = lib.maxdyn_batch_free

    def __init__(self, model: Model, n: int, dt: float, threads: int = 0) -> None:
        n, threads, dt = as_id(n, "n"), as_id(threads, "threads"), real(dt, "dt")
        if n < 0 or threads < 0:
            raise ValueError(f"Batch needs n >= 0 and threads >= 0, got n = {n}, threads = {threads}")
        p = _handle()
        check(lib.maxdyn_batch_new(model.ptr, n, dt, threads, ctypes.byref(p)))
        super().__init__(p)
        self._bodies = model.body_count
        dofs = [model.joint_dof(j) for j in range(model.joint_count)]
        self.sims: List[Sim] = []
        for i in range(n):
            s = _handle()
            check(lib.maxdyn_batch_get_sim(self.ptr, i, ctypes.byref(s)))
            self.sims.append(_BatchSim(self, s, dofs, self._bodies))

    def __repr__(self) -> str:
        if self.closed:
            return "<maxdyn.Batch closed>"
        return f"<maxdyn.Batch sims={len(self.sims)} threads={self.thread_count} bodies={self._bodies}>"

    def close(self) -> None:
        """Frees the batch and its sims (their Sim objects refuse calls afterwards)."""
        for s in getattr(self, "sims", []):
            s.close()  # the batch frees them
        super().close()

    def __len__(self) -> int:
        return len(self.sims)

    def __getitem__(self, i: int) -> Sim:
        return self.sims[i]

    @property
    def thread_count(self) -> int:
        """Threads of the pool (1: the calling thread only)."""
        result = _size()
        check(lib.maxdyn_batch_get_thread_count(self.ptr, ctypes.byref(result)))
        return result.value

    def step(self, n: int = 1, control: Optional[Callable[[int, Sim], Any]] = None) -> List[int]:
        """Takes `n` steps of every running sim; returns each sim's status (0: running).
        `control(i, sim)`, if given, is called before each step of sim i to set its
        inputs; it runs on the batch's threads under the GIL, so Python control is
        correct but serial (use no control, or C, for speed). If it raises, that sim
        stops (status MAXDYN_STATUS_CALLBACK_ABORTED, 201) and the first exception is
        raised again after the step."""
        n = as_id(n, "n")
        if n < 0:
            raise ValueError(f"step needs n >= 0, got {n}")
        count = max(len(self.sims), 1)
        statuses = (_i32 * count)(*([-1] * count))
        errors: List[BaseException] = []
        callback = BATCH_CONTROL()
        if control is not None:
            sims = self.sims

            def trampoline(_sim: Any, index: int, _user: Any) -> int:
                try:
                    control(index, sims[index])
                    return 0
                except BaseException as e:  # noqa: B036 -- it must not unwind into C
                    errors.append(e)
                    return 1

            callback = BATCH_CONTROL(trampoline)
        rc = lib.maxdyn_batch_step(self.ptr, n, callback, None, statuses, len(self.sims))
        if errors:
            raise errors[0]
        written = all(s != -1 for s in statuses[:len(self.sims)])
        if rc != 0 and not written:
            check(rc)
        return list(statuses[:len(self.sims)])

    def statuses(self) -> List[int]:
        """Each sim's status: 0, or the failure that stopped it."""
        result = []
        for i in range(len(self.sims)):
            s = _i32()
            check(lib.maxdyn_batch_get_status(self.ptr, i, ctypes.byref(s)))
            result.append(s.value)
        return result

    def clear_failure(self, i: int) -> None:
        """Lets stopped sim i step again (e.g. after setting a new state)."""
        check(lib.maxdyn_batch_clear_failure(self.ptr, as_id(i, "i")))

    def body_states(self, out: Any = None) -> Any:
        """Every sim's body states: a (len(batch), bodies, 13) array, or written into
        `out` (any writable buffer of len(batch) * bodies * 13 doubles, e.g.
        array.array('d') or a float64 numpy array) and returned."""
        n = len(self.sims) * self._bodies * BODY_STATE_SIZE
        if out is None:
            arr, ptr = new_array(max(n, 1))
            check(lib.maxdyn_batch_get_body_states(self.ptr, ptr, n))
            return arr[:n].reshape(len(self.sims), self._bodies, BODY_STATE_SIZE)
        buf = (ctypes.c_double * n).from_buffer(out)
        check(lib.maxdyn_batch_get_body_states(self.ptr, buf, n))
        return out
