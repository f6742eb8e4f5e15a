"""Reading setting values: one coercion for the settings of both engines.

A setting accepts its enum member, the member's string value (as JSON, a form or the
command line give it) and, where the docs say so, another library's word for it (iztro's
``"forward"``, ``"exact"`` …).  Anything else is an :class:`InputError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar

from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["check_bool", "check_choice"]

E = TypeVar("E", bound=StrEnum)


def check_choice(
    enum: type[E], value: object, field: str, aliases: Mapping[str, E] | None = None
) -> E:
    """``value`` as a member of ``enum``: a member, its value, or one of ``aliases``."""
    if isinstance(value, enum):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        for member in enum:
            if member.value == text:
                return member
        if aliases and text in aliases:
            return aliases[text]
    words = [repr(m.value) for m in enum] + [repr(a) for a in aliases or ()]
    raise InputError(field, f"{clip(value)} is not one of {', '.join(words)}")


def check_bool(value: object, field: str) -> bool:
    """A true/false setting: only ``True`` or ``False`` (``"False"`` is not false)."""
    if not isinstance(value, bool):
        raise InputError(field, f"must be True or False, not {clip(value)}")
    return value
