"""Argument conversion (numbers in, float64 arrays out) and the owner of a C handle."""

from __future__ import annotations

import ctypes
import numbers
import warnings
from typing import Any, Callable, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from ._lib import _c_double_p, _i32
from .errors import check


def array(values: ArrayLike, name: str) -> np.ndarray:
    """`values` (any nesting of numbers, a numpy array) as a flat float64 array; a
    TypeError naming `name` if they are not numbers."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be numbers, got {type(values).__name__}")
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be numbers, got {values!r}") from e
    return np.ascontiguousarray(arr.reshape(-1))


def doubles(values: ArrayLike, n: int, name: str) -> ctypes.Array:
    """Exactly `n` numbers as a C double array; a ValueError naming `name` otherwise."""
    arr = array(values, name)
    if arr.size != n:
        raise ValueError(f"{name} needs {n} numbers, got {arr.size}")
    return (ctypes.c_double * n)(*arr.tolist())


def c_doubles(values: ArrayLike, name: str) -> Tuple[ctypes.Array, int]:
    """Any count of numbers as a C array (at least one slot, so never NULL) and the count."""
    v = array(values, name).tolist()
    return (ctypes.c_double * max(len(v), 1))(*v), len(v)


def as_id(value: Any, name: str) -> int:
    """An id or count argument as an int; a TypeError naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    return int(value)


def real(value: Any, name: str) -> float:
    """A number argument as a float; a TypeError naming `name` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    return float(value)


def name_arg(name: Any) -> bytes:
    """A name argument as UTF-8 bytes; a TypeError unless it is a str."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__} {name!r}")
    return name.encode()


def out(n: int) -> Tuple[np.ndarray, Any]:
    """A fresh float64 array of n and the pointer C writes it through."""
    arr = np.zeros(n, dtype=np.float64)
    return arr, arr.ctypes.data_as(_c_double_p)


def count(fn: Callable[..., int], ptr: Any, *args: Any) -> int:
    """Calls `fn(ptr, *args, &out)` for one int32 result."""
    result = _i32()
    check(fn(ptr, *args, ctypes.byref(result)))
    return result.value


def double(fn: Callable[..., int], ptr: Any, *args: Any) -> float:
    """Calls `fn(ptr, *args, &out)` for one double result."""
    result = ctypes.c_double()
    check(fn(ptr, *args, ctypes.byref(result)))
    return result.value


def deprecated(old: str, new: str) -> None:
    """Warns that `old` is the older spelling of `new` (kept working)."""
    warnings.warn(f"maxdyn: {old} is deprecated, use {new}", DeprecationWarning, stacklevel=3)


class Handle:
    """Owns one C object; frees it exactly once (on close(), at the end of a `with`
    block, or when garbage-collected)."""

    _free: Optional[Callable[[Any], Any]] = None

    def __init__(self, ptr: Any) -> None:
        self._ptr = ptr

    @classmethod
    def _adopt(cls, ptr: Any) -> Any:
        """An object of this class owning `ptr`, without running __init__."""
        obj = cls.__new__(cls)
        Handle.__init__(obj, ptr)
        return obj

    @property
    def ptr(self) -> Any:
        """The C handle; ValueError once closed."""
        if not self._ptr:
            raise ValueError(f"{type(self).__name__} is closed")
        return self._ptr

    @property
    def closed(self) -> bool:
        """Whether the C object has been freed."""
        return not getattr(self, "_ptr", None)

    def close(self) -> None:
        """Frees the C object now (idempotent)."""
        if getattr(self, "_ptr", None):
            type(self)._free(self._ptr)
            self._ptr = None

    def __del__(self) -> None:
        # at interpreter exit the library may already be gone; never raise here
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> bool:
        self.close()
        return False


class Dimensioned:
    """nq, nv and nu of an object whose dimensions() returns (nq, nv, nu): a model's or a
    sim's configuration entries (7 per floating base: position, quaternion w x y z; then
    every joint's coordinates), generalized velocities (6 per floating base, then every
    joint's free directions) and joint inputs."""

    def dimensions(self) -> Tuple[int, int, int]:
        """(nq, nv, nu): configuration entries, generalized velocities, joint inputs."""
        raise NotImplementedError

    @property
    def nq(self) -> int:
        """Configuration entries: 7 per floating base, then every joint's coordinates."""
        return self.dimensions()[0]

    @property
    def nv(self) -> int:
        """Generalized velocities: 6 per floating base, then every joint's free directions."""
        return self.dimensions()[1]

    @property
    def nu(self) -> int:
        """Joint inputs: every joint's free directions."""
        return self.dimensions()[2]
