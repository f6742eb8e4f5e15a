"""What every named value of mingshu shares: four display names, a canonical key, one parser.

Stems, branches, phases, solar terms, palace names, brightness grades, transformations,
five-element classes and pillar positions are ``IntEnum`` members (they index tables) that
also carry display names.  :class:`NamedEnum` gives them all the same ``key``, ``names``,
``str()`` and ``parse``; each enum attaches its names, read from its data file, with
:func:`attach_names`.  Logic compares members or keys, never display strings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import IntEnum
from functools import cache
from importlib import resources
from typing import Any, NamedTuple, Self

import tomli

from mingshu.errors import InputError

__all__ = ["NamedEnum", "Names", "attach_names", "clip", "clip_text", "load_toml"]


class Names(NamedTuple):
    """Display names of one thing: simplified and traditional Chinese, pinyin, English."""

    hans: str
    hant: str
    pinyin: str
    english: str


def load_toml(package: str, *parts: str) -> dict[str, Any]:
    """Parse a TOML data file shipped inside ``package`` (``load_toml("mingshu.ziwei",
    "data", "stars.toml")``).  The one reader of the rule tables."""
    path = resources.files(package).joinpath(*parts)
    return tomli.loads(path.read_text(encoding="utf-8"))


def clip_text(text: str, limit: int = 80) -> str:
    """``text`` if short enough, else its start and end around "…", ``limit`` long in all
    (both ends kept: a message names its field first and its advice last)."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2 + (limit - 1) % 2
    tail = limit - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def clip(value: object, limit: int = 80) -> str:
    """``repr(value)`` clipped to at most ``limit`` characters, so an error message never
    echoes a huge argument back in full."""
    return clip_text(repr(value), limit)


# Names by enum class: a tuple indexed by member value, or a function that reads it lazily
# (the solar-term names live in a table that is parsed only when first needed).
_Table = Sequence[Names] | Mapping[Any, Names]
_NAMES: dict[type, _Table | Callable[[], _Table]] = {}
_ALIASES: dict[type, Iterable[tuple[str, Any]]] = {}


class NamedEnum(IntEnum):
    """An ``IntEnum`` whose members have display names and a canonical key.

    ``key`` is the member name in lower case (``Stem.JIA.key == "jia"``); ``names`` the four
    display forms; ``str()`` the simplified Chinese name; ``parse`` reads any of them.
    """

    @property
    def key(self) -> str:
        return self._name_.lower()  # not .name: enum's descriptor costs as much again

    @property
    def names(self) -> Names:
        table = _NAMES[type(self)]
        if callable(table):
            table = _NAMES[type(self)] = table()
        return table[self]

    def __str__(self) -> str:
        return self.names.hans

    @classmethod
    def parse(cls, value: object, field: str | None = None) -> Self:
        """A member from itself, its key, or any display name (简, 繁, pinyin, English, in any
        case); :class:`InputError` naming ``field`` when it is none of them."""
        if isinstance(value, cls):
            return value
        found = _lookup(cls).get(value.strip().lower()) if isinstance(value, str) else None
        if found is None:
            what = field or _field_name(cls)
            raise InputError(what, f"{clip(value)} is not a {_label(cls)}")
        return found  # type: ignore[return-value]


def attach_names(
    enum: type[NamedEnum],
    names: _Table | Callable[[], _Table],
    aliases: Iterable[tuple[str, Any]] = (),
) -> None:
    """Give ``enum`` its display names (indexed by member value) and extra spellings for
    ``parse``."""
    _NAMES[enum] = names
    _ALIASES[enum] = tuple(aliases)


@cache
def _lookup(enum: type[NamedEnum]) -> dict[str, NamedEnum]:
    table: dict[str, NamedEnum] = {}
    for member in enum:
        names = member.names
        for text in (member.key, names.hans, names.hant, names.pinyin, names.english):
            if text:
                table.setdefault(text.lower(), member)
    for text, member in _ALIASES.get(enum, ()):
        table.setdefault(text.lower(), member)
    return table


def _field_name(enum: type) -> str:
    name = enum.__name__
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def _label(enum: type) -> str:
    return _field_name(enum).replace("_", " ")
