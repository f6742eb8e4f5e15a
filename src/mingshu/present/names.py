"""Display names as the presentation layer writes them: one helper for every output.

A *named object* is ``{"key", "hans", "hant", "pinyin", "english"}``: the canonical key for
machines, the four display names (简体, 繁體, pinyin, English) for people.  Both engines' JSON
and the SVG use these helpers, so a thing is named the same way everywhere.
"""

from __future__ import annotations

from typing import Any, Final

from mingshu.cycles import Names

__all__ = ["NAME_STYLES", "display", "named", "notice_dict", "notices_of"]

NAME_STYLES: Final = ("hans", "hant", "pinyin", "english")
"""The four display-name forms, as ``names=`` arguments of the renderers take them."""


def named(key: str, names: Names) -> dict[str, str]:
    """The named object of a thing: its key and its four display names."""
    return {
        "key": key,
        "hans": names.hans,
        "hant": names.hant,
        "pinyin": names.pinyin,
        "english": names.english,
    }


def display(names: Names, style: str) -> str:
    """One display name (``style`` is one of :data:`NAME_STYLES`); falls back to English
    then 简体 where a form is empty."""
    text: str = getattr(names, style)
    return text or names.english or names.hans


def notices_of(chart: object) -> tuple[Any, ...]:
    """The chart's notices (time-zone, DST and other choices made for the reader); an
    object without any (a horoscope) has none."""
    found: tuple[Any, ...] = tuple(getattr(chart, "notices", ()))
    return found


def notice_dict(notice: Any) -> dict[str, Any]:
    """A notice as ``{"code", "field", "message"}`` (``field`` ``null`` where it has none)."""
    return {
        "code": str(getattr(notice, "code", "")),
        "field": getattr(notice, "field", None),
        "message": str(getattr(notice, "message", notice)),
    }
