"""A chart's analysis as JSON: per palace, its 三方四正, 夹宫, 飞化 and 自化, by branch key.

``analysis_to_dict(chart)`` gives ``{"zi": {...}, "chou": {...}, …}`` (子 first), each
palace as::

    {"surrounded": {"opposite": "wu", "wealth": "shen", "career": "chen"},
     "flanking": {"previous": "hai", "next": "chou"},
     "flies": {"lu": "yin", "quan": "wu", "ke": "xu", "ji": "mao"},
     "self_mutagens": ["quan"]}

the branch keys of the palaces iztro 2.6.0's ``surroundedPalaces``, ``flankingPalaces``,
``mutagedPlaces`` and ``selfMutaged`` give (docs/ziwei-json.md, "Analysis").  ``flies``
uses the chart's own 四化 table (its settings' overrides included); a star the chart does
not place would fly nowhere (``null``), which the 18 stars a 四化 table may name never do.

Speed: 三方四正 and 夹宫 depend only on the branch, so they are built once; per chart only
the flights are computed, from one look-up table of star positions.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any, Final, NamedTuple

import orjson

from mingshu.cycles import Branch
from mingshu.present.ziwei_json import encoded
from mingshu.ziwei.analysis import flanking_steps, surrounded_steps
from mingshu.ziwei.chart import NatalChart
from mingshu.ziwei.stars import Mutagen, mutagen_table

__all__ = ["analysis_json", "analysis_to_dict"]

_KEYS: Final = tuple(b.key for b in Branch)
_MUTAGEN_KEYS: Final = tuple(m.key for m in Mutagen)


def _static(branch: int) -> tuple[dict[str, str], dict[str, str]]:
    opposite, wealth, career = surrounded_steps()
    previous, next_ = flanking_steps()
    return (
        {
            "opposite": _KEYS[(branch + opposite) % 12],
            "wealth": _KEYS[(branch + wealth) % 12],
            "career": _KEYS[(branch + career) % 12],
        },
        {"previous": _KEYS[(branch + previous) % 12], "next": _KEYS[(branch + next_) % 12]},
    )


_STATIC: Final = tuple(_static(b) for b in range(12))


Flights = tuple[int | None, int | None, int | None, int | None]


_STEPS: Final = tuple((b - 2) % 12 for b in range(12))  # iztro palace index of each branch


def _getter(a: int, b: int, c: int, d: int) -> Callable[[Any], Flights]:
    if a < 0 or b < 0 or c < 0 or d < 0:  # a star the catalogue lacks flies nowhere (None)
        return lambda p: tuple(None if i < 0 else p[i] for i in (a, b, c, d))  # type: ignore[return-value]
    return itemgetter(a, b, c, d)


class _Lookups(NamedTuple):
    """What one star list and 四化 table need to read a chart's flights from its star
    positions (``chart._positions``) with C-level getters."""

    named: itemgetter[tuple[int, ...]]
    """The positions of every star the 四化 table names (the whole analysis's key)."""
    flights: tuple[tuple[Callable[[Any], Flights], ...], ...]
    """By the 寅 palace's stem (it fixes every palace's, 五虎遁): for each branch (子
    first), the getter of its palace's four flights."""


# Per (algorithm, school: the star list, 四化 overrides).
_LOOKUPS: dict[tuple[object, ...], _Lookups] = {}


def _lookups(chart: NatalChart) -> _Lookups:
    settings = chart.settings
    key = (settings.algorithm, settings.school, settings.mutagens)
    found = _LOOKUPS.get(key)
    if found is None:
        if len(_LOOKUPS) >= 1000:
            _LOOKUPS.clear()
        where = {s: i for i, s in enumerate(chart._stars)}
        # For each stem, where its four stars sit in the chart's star list (-1: a star this
        # algorithm does not place, none of the 18 a 四化 table may name).
        indices = tuple(
            (where.get(a, -1), where.get(b, -1), where.get(c, -1), where.get(d, -1))
            for a, b, c, d in mutagen_table(settings.mutagens)
        )
        found = _LOOKUPS[key] = _Lookups(
            itemgetter(*sorted({i for row in indices for i in row if i >= 0})),
            tuple(
                tuple(_getter(*indices[(yin_stem + step) % 10]) for step in _STEPS)
                for yin_stem in range(10)
            ),
        )
    return found


def _flights(chart: NatalChart) -> list[Flights]:
    """For each branch (子 first), the branches its palace's 禄 权 科 忌 fly to."""
    # Palace stems run on from the 寅 palace's (五虎遁).
    getters = _lookups(chart).flights[chart.palaces[0].stem]
    positions = chart._positions
    return [get(positions) for get in getters]


def _palace(branch: int, flights: Flights) -> dict[str, Any]:
    surrounded, flanking = _STATIC[branch]
    keys = _KEYS
    return {
        "surrounded": dict(surrounded),
        "flanking": dict(flanking),
        "flies": {
            k: None if b is None else keys[b] for k, b in zip(_MUTAGEN_KEYS, flights, strict=True)
        },
        "self_mutagens": [k for k, b in zip(_MUTAGEN_KEYS, flights, strict=True) if b == branch],
    }


def analysis_to_dict(chart: NatalChart) -> dict[str, Any]:
    """The per-palace analysis of ``chart``, keyed by branch key (子 first); fresh dicts."""
    return {_KEYS[b]: _palace(b, f) for b, f in enumerate(_flights(chart))}


# A palace's entry depends only on its branch and where its four flights land: each is
# encoded once (at most 12 × 13⁴ keys; a bound clears the cache if callers ever got there).
_ENTRY_BYTES: dict[tuple[int, Flights], bytes] = {}
_LIMIT: Final = 100_000
_OPENERS: Final = tuple(
    (b"{" if b == 0 else b",") + orjson.dumps(k) + b":" for b, k in enumerate(_KEYS)
)


def _encode(chart: NatalChart) -> bytes:
    cache, parts = _ENTRY_BYTES, []
    for branch, flights in enumerate(_flights(chart)):
        entry = cache.get((branch, flights))
        if entry is None:
            if len(cache) >= _LIMIT:
                cache.clear()
            entry = cache[branch, flights] = encoded(_palace(branch, flights))
        parts.append(_OPENERS[branch])
        parts.append(entry)
    parts.append(b"}")
    return b"".join(parts)


# The whole analysis depends only on the settings' star list and 四化 table, the 寅 palace's
# stem and where the stars the table names sit: a few thousand combinations per settings.
_WHOLE: dict[tuple[object, ...], bytes] = {}


def analysis_json(chart: NatalChart) -> bytes:
    """``orjson.dumps(analysis_to_dict(chart))``, from pre-encoded pieces."""
    settings = chart.settings
    key = (
        settings.algorithm,
        settings.school,
        settings.mutagens,
        chart.palaces[0].stem,
        _lookups(chart).named(chart._positions),
    )
    found = _WHOLE.get(key)
    if found is None:
        if len(_WHOLE) >= _LIMIT:
            _WHOLE.clear()
        found = _WHOLE[key] = _encode(chart)
    return found
