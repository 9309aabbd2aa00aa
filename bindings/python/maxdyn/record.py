"""Recorder: a recording of a sim for the viewer (maxdyn_sim_record_open,
maxdyn_recorder_add_frame, maxdyn_recorder_close; the file format is in docs/)."""

from __future__ import annotations

import ctypes
import os
from typing import Optional, Union

from ._lib import _handle, lib
from ._util import Handle, as_id
from .errors import check

from .sim import Sim

__all__ = ["Recorder"]


class Recorder(Handle):
    """Writes `sim`'s model to `path` (JSON for viewer/), then one frame per add_frame():
    the time, every body's pose and the last step's contact forces. close() (or the end
    of a `with` block) finishes the file; a recorder garbage-collected unclosed is closed
    then.

        with maxdyn.Recorder(sim, "run.json") as rec:
            rec.record(500, every=5)        # steps the sim, a frame every 5th step
    """

    _free = lib.maxdyn_recorder_close

    def __init__(self, sim: Sim, path: Union[str, "os.PathLike[str]"]) -> None:
        p = _handle()
        check(lib.maxdyn_sim_record_open(sim.ptr, os.fsencode(path), ctypes.byref(p)))
        super().__init__(p)
        self.sim = sim
        self.path = os.fspath(path)
        self.frame_count = 0

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<maxdyn.Recorder {self.path!r} frames={self.frame_count} {state}>"

    def add_frame(self, sim: Optional[Sim] = None) -> None:
        """Appends a frame of `sim` (default: the sim the recording was opened with; any
        sim of the same model)."""
        check(lib.maxdyn_recorder_add_frame(self.ptr, (sim if sim is not None else self.sim).ptr))
        self.frame_count += 1

    def record(self, steps: int, every: int = 1) -> None:
        """Steps the recorded sim `steps` times, adding a frame after every `every`-th
        step (and one first if the recording has none)."""
        steps, every = as_id(steps, "steps"), as_id(every, "every")
        if steps < 0 or every < 1:
            raise ValueError(f"record needs steps >= 0 and every >= 1, got {steps}, {every}")
        if self.frame_count == 0:
            self.add_frame()
        done = 0
        while done < steps:
            chunk = min(every, steps - done)
            self.sim.step(chunk)
            done += chunk
            if chunk == every:
                self.add_frame()

    def close(self) -> None:
        """Finishes the file and frees the recorder (idempotent); MaxdynError if the
        final write failed."""
        if getattr(self, "_ptr", None):
            ptr, self._ptr = self._ptr, None
            check(lib.maxdyn_recorder_close(ptr))
