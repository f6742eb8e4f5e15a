"""The star catalogue: every natal star with its names, kind and placement rule,
the brightness grades and the four transformations.

Everything here is read from ``data/stars.toml``, ``data/brightness.toml`` and
``data/mutagens.toml``; stars are singletons, compared by identity, keyed by ``Star.key``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from mingshu.cycles import Names, Stem
from mingshu.errors import InputError
from mingshu.named import NamedEnum, attach_names, clip, load_toml

__all__ = [
    "BRIGHTNESS_STARS",
    "MUTAGEN_STARS",
    "STARS",
    "Brightness",
    "Mutagen",
    "Star",
    "StarGroup",
    "StarKind",
    "default_brightness",
    "default_mutagens",
    "load_data",
    "mutagen_table",
    "star",
    "star_by_name",
]


def load_data(name: str) -> dict[str, Any]:
    """Read one TOML file of ``mingshu/ziwei/data``."""
    return load_toml("mingshu.ziwei", "data", name)


class StarGroup(StrEnum):
    """The palace list a star is in: iztro's majorStars, minorStars or adjectiveStars."""

    MAJOR = "major"
    MINOR = "minor"
    ADJECTIVE = "adjective"


class StarKind(StrEnum):
    """iztro's star ``type``."""

    MAJOR = "major"
    SOFT = "soft"
    TOUGH = "tough"
    LUCUN = "lucun"
    TIANMA = "tianma"
    FLOWER = "flower"
    HELPER = "helper"
    ADJECTIVE = "adjective"


_BRIGHTNESS_DATA = load_data("brightness.toml")
_MUTAGEN_DATA = load_data("mutagens.toml")


class Brightness(NamedEnum):
    """A star's brightness grade (庙 旺 得 利 平 不 陷), strongest first."""

    MIAO = 0
    WANG = 1
    DE = 2
    LI = 3
    PING = 4
    BU = 5
    XIAN = 6


class Mutagen(NamedEnum):
    """One of the four transformations (四化), in the order 禄 权 科 忌."""

    LU = 0
    QUAN = 1
    KE = 2
    JI = 3


def _row_names(row: dict[str, str]) -> Names:
    return Names(row["hans"], row["hant"], row["pinyin"], row["english"])


attach_names(Brightness, tuple(_row_names(r) for r in _BRIGHTNESS_DATA["level"]))
attach_names(Mutagen, tuple(_row_names(r) for r in _MUTAGEN_DATA["mutagen"]))


@dataclass(frozen=True, eq=False, slots=True)
class Star:
    """One natal star.  ``index`` is its position in the catalogue, which is iztro's
    listing order inside each group."""

    key: str
    index: int
    names: Names
    tones: str
    group: StarGroup
    kind: StarKind
    iztro_key: str
    iztro_en: str
    algorithms: frozenset[str]
    place: Mapping[str, Any] = field(repr=False)
    """The placement rule as read from stars.toml, frozen (shared by every caller)."""
    verse: str = field(repr=False)
    """The placement verse, verbatim from the shared source files ('' where there is none)."""
    source: str = field(repr=False)
    verse_at: str = field(default="", repr=False)
    """Where ``verse`` is: ``FILE:LINE`` or ``FILE:FIRST-LAST`` in ``../shared/sources`` (the
    cited lines ship in ``sources/``)."""

    def __str__(self) -> str:
        return self.names.hans


def _freeze(value: Any) -> Any:
    """Catalogue data is process-wide: tables become read-only mappings and tuples."""
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _load_stars() -> tuple[Star, ...]:
    stars = []
    for index, row in enumerate(load_data("stars.toml")["star"]):
        algorithm = row.get("algorithm", "both")
        stars.append(
            Star(
                key=row["key"],
                index=index,
                names=_row_names(row),
                tones=row["tones"],
                group=StarGroup(row["group"]),
                kind=StarKind(row["kind"]),
                iztro_key=row["iztro"],
                iztro_en=row["iztro_en"],
                algorithms=frozenset(
                    ("quanshu", "zhongzhou") if algorithm == "both" else (algorithm,)
                ),
                place=_freeze(row["place"]),
                verse=row.get("verse", ""),
                source=row["source"],
                verse_at=row.get("verse_at", ""),
            )
        )
    return tuple(stars)


STARS: tuple[Star, ...] = _load_stars()
"""Every natal star, in iztro's listing order (majors, then minors, then adjectives)."""

_BY_KEY = {s.key: s for s in STARS}


def _name_index() -> dict[str, Star]:
    """Every spelling of every star, in lower case.  A display name two stars share (the
    pinyin "Tian Fu" of 天府 and 天福) is left out, so a lookup never guesses."""
    seen: dict[str, set[str]] = {}
    for s in STARS:
        for text in (s.names.hans, s.names.hant, s.names.pinyin, s.names.english, s.iztro_en):
            if text:
                seen.setdefault(text.strip().lower(), set()).add(s.key)
    index = {text: _BY_KEY[next(iter(keys))] for text, keys in seen.items() if len(keys) == 1}
    for s in STARS:  # keys and iztro keys always win
        index[s.key] = s
        index[s.iztro_key.lower()] = s
    return index


_BY_NAME = _name_index()


def star(name: str) -> Star:
    """The star with key ``name`` (``"zi_wei"``) or any of its names (``"紫微"``, ``"紫微"``,
    ``"Zi Wei"``, ``"Emperor"``, iztro's ``"ziweiMaj"``); :class:`InputError` if none."""
    found = star_by_name(name)
    if found is None:
        raise InputError("star", f"no star is called {clip(name)} (see mingshu.ziwei.STARS)")
    return found


def star_by_name(text: object) -> Star | None:
    """Like :func:`star`, but ``None`` for a name that is no star (or is not a string)."""
    if not isinstance(text, str):
        return None
    return _BY_NAME.get(text.strip().lower())


MUTAGEN_STARS: frozenset[str] = frozenset(s.key for s in STARS if s.group is StarGroup.MAJOR) | {
    "zuo_fu",
    "you_bi",
    "wen_chang",
    "wen_qu",
}
"""The stars that can carry a natal transformation."""

_DEFAULT_BRIGHTNESS: dict[str, tuple[Brightness | None, ...]] = {
    key: tuple(None if c == "-" else Brightness.parse(c) for c in row)
    for key, row in _BRIGHTNESS_DATA["stars"].items()
}

BRIGHTNESS_STARS: frozenset[str] = frozenset(_DEFAULT_BRIGHTNESS)
"""The stars that have a brightness grade by default."""


def default_brightness() -> dict[str, tuple[Brightness | None, ...]]:
    """Brightness rows by star key, each indexed by branch (子 = 0)."""
    return dict(_DEFAULT_BRIGHTNESS)


def _mutagen_row(stem: Stem) -> tuple[str, str, str, str]:
    lu, quan, ke, ji = _MUTAGEN_DATA["stems"][stem.names.hans]
    return lu, quan, ke, ji


_DEFAULT_MUTAGENS = tuple(_mutagen_row(s) for s in Stem)


def default_mutagens() -> tuple[tuple[str, str, str, str], ...]:
    """The four transformed star keys (禄 权 科 忌) for each year stem, 甲 first."""
    return _DEFAULT_MUTAGENS


@lru_cache(maxsize=32)
def mutagen_table(
    overrides: tuple[tuple[Stem, tuple[str, str, str, str]], ...] = (),
) -> tuple[tuple[Star, Star, Star, Star], ...]:
    """The 四化 table with a settings value's overrides applied: the four stars
    (禄 权 科 忌) for each year stem, 甲 first.  Natal chart and horoscopes share it."""
    rows = list(_DEFAULT_MUTAGENS)
    for stem, keys in overrides:
        rows[stem] = keys
    return tuple((star(a), star(b), star(c), star(d)) for a, b, c, d in rows)
