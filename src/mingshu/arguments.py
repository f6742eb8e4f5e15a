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

__all__ = ["check_int", "check_path", "check_text", "check_type"]

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


# POSIX's usual limits (Linux, macOS): a longer name is an OSError from the first stat.
NAME_MAX = 255
PATH_MAX = 4096


def check_text(value: object, field: str, what: str = "text") -> str:
    """``value`` if it is a ``str`` that is Unicode text (no lone surrogate, as Python
    gives an undecodable byte: it could not be written out as UTF-8)."""
    if not isinstance(value, str):
        raise InputError(field, f"give {what}, not {clip(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise InputError(
            field, f"character {e.start + 1} is a byte that is not UTF-8 text: {clip(value)}"
        ) from None
    return value


def check_path(value: object, field: str) -> Path:
    """A file-system path given as ``str`` or ``os.PathLike`` (not bytes, not empty, no
    NUL character, no name longer than the file system takes)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise InputError(field, f"give a path (str or pathlib.Path), not {clip(value)}")
    if not value.strip():
        raise InputError(field, "the path is empty")
    if "\0" in value:
        raise InputError(field, f"{clip(value)} contains a NUL character")
    try:
        encoded = os.fsencode(value)
    except UnicodeError:  # a lone surrogate that is no undecoded byte: let open() refuse it
        encoded = value.encode("utf-8", "replace")
    if len(encoded) >= PATH_MAX or any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise InputError(
            field,
            f"{clip(value)} is too long for a path ({PATH_MAX - 1} bytes, "
            f"{NAME_MAX} a name between slashes)",
        )
    return Path(value)
