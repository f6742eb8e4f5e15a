"""The site's settings read from the environment (docs/web.md, Running): a bad value is an
:class:`~mingshu.errors.InputError` naming the variable, which ``mingshu serve`` tells
before it starts, never a worker's traceback."""

from __future__ import annotations

import os

from mingshu.errors import InputError

__all__ = ["whole_number"]


def whole_number(name: str, default: int, low: int, high: int) -> int:
    """The variable ``name`` as a whole number ``low``..``high`` (ASCII digits, blanks
    around allowed); ``default`` when it is unset or blank."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit() and low <= int(raw) <= high):
        raise InputError(name, f"{raw[:40]!r} is not a whole number {low}..{high}")
    return int(raw)
