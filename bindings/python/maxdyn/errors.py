"""Errors: every C call returns a status, and `check` turns a failing one into a
MaxdynError carrying the library's last error message."""

from __future__ import annotations

from ._lib import lib

__all__ = ["MaxdynError", "check", "status_string"]


def status_string(status: int) -> str:
    """The name of a status code (maxdyn_status_string), e.g. "MAXDYN_STATUS_OK"."""
    return lib.maxdyn_status_string(status).decode("utf-8", "replace")


class MaxdynError(RuntimeError):
    """A failed maxdyn call: `status` (the int code) and `message` (the library's last
    error message, naming the function and the argument)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"maxdyn status {status} ({status_string(status)}): {message}")
        self.status = status
        self.message = message


def check(status: int) -> None:
    """Raises MaxdynError unless `status` is 0 (MAXDYN_STATUS_OK)."""
    if status != 0:
        raise MaxdynError(status, lib.maxdyn_last_error_message().decode("utf-8", "replace"))
