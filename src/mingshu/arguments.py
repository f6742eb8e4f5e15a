"""Checking the arguments of public calls at the boundary, one line per argument.

A wrong type in a public call is an :class:`InputError` naming the argument, never an
``AttributeError`` or ``TypeError`` from deep inside.  The engines' inner functions trust
their arguments (the per-chart path stays fast); the public functions check them here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TypeVar

from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["check_int", "check_path", "check_type"]

T = TypeVar("T")


def check_type(value: object, kind: type[T], field: str, what: str) -> T:
    """``value`` if it is a ``kind``; else :class:`InputError` on ``field`` asking for
    ``what`` ("a Zi Wei chart (ziwei.chart(...))")."""
    if not isinstance(value, kind):
        raise InputError(field, f"give {what}, not {clip(value)}")
    return value


def check_int(value: object, field: str, low: int, high: int | None = None) -> int:
    """A whole number ``low``..``high`` (no upper bound when ``high`` is None); ``True``,
    ``2.0`` and ``"2"`` are refused rather than read as numbers."""
    if isinstance(value, bool) or not isinstance(value, int):
        span = f"{low}..{high}" if high is not None else f"≥ {low}"
        raise InputError(field, f"give a whole number {span}, not {clip(value)}")
    if value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise InputError(field, f"{value} is out of range ({span})")
    return int(value)


def check_path(value: object, field: str) -> Path:
    """A file-system path given as ``str`` or ``os.PathLike`` (not bytes, not empty, no
    NUL character)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise InputError(field, f"give a path (str or pathlib.Path), not {clip(value)}")
    if not value.strip():
        raise InputError(field, "the path is empty")
    if "\0" in value:
        raise InputError(field, f"{clip(value)} contains a NUL character")
    return Path(value)
