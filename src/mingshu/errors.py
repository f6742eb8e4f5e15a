"""Errors raised for bad input.  Every one names the field that is wrong."""

from __future__ import annotations

__all__ = ["InputError", "MingshuError", "OutOfRangeError"]


class MingshuError(Exception):
    """Base class of every error mingshu raises on purpose."""


class InputError(MingshuError, ValueError):
    """An input value is impossible or malformed.

    ``field`` names the input ("date", "time", "gender", "leap", "at", ...), so a form or
    an API client can point at it; ``str(error)`` reads ``"date: 2030-02-30 does not exist
    (February 2030 has 28 days)"``.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str]]:
        # Pickled as (field, message), so an error raised in a sweep's worker process or on
        # a Dask worker arrives whole.
        return (type(self), (self.field, self.message))


class OutOfRangeError(InputError):
    """A date lies outside the range the calendar tables cover."""
