"""Kinds about the patterns (格局) of Zi Wei Dou Shu: a group's patterns with their verse,
layer and frequency (from the shipped record, ziwei/data/pattern_counts.json), the patterns
one birth forms, and every hour of a day that forms a pattern.

Each is a function of its parameters and the detector (``mingshu.ziwei.patterns``), never
of the article that uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mingshu.errors import InputError
from mingshu.library.engine import LATE_RAT, Options, Table, branch_name, hour_name, star_name

__all__ = [
    "PatternLayout",
    "pattern_chart",
    "pattern_group",
    "pattern_hours",
    "patterns_of_birth",
]

_JUAN = {"juan1": "juan 1", "juan2": "juan 2", "juan3": "juan 3"}


def _pattern(key: object) -> Any:
    from mingshu.ziwei.patterns import PATTERNS

    if str(key) not in PATTERNS:
        raise InputError("pattern", f"no pattern {key!r} in ziwei/data/patterns.toml")
    return PATTERNS[str(key)]


def _where(verse_at: str) -> str:
    """``ziwei-quanshu.juan1.md:403`` → ``juan 1, line 403`` (the transcription's line)."""
    file, line = verse_at.rsplit(":", 1)
    juan = next((v for k, v in _JUAN.items() if f".{k}." in file), file)
    return f"{juan}, line {line}"


def _name(pattern: Any) -> str:
    return f"{pattern.names.hans} {pattern.names.pinyin}"


def pattern_group(options: Options) -> Table:
    """Every pattern of a ``group`` (fu, gui, pin_jian, za, po_ge) in the data file's order:
    its name, whose words give its positions (``layer``), its verse and where it stands, and how
    many charts of the swept space form it (of them 破格), from the shipped record."""
    from mingshu.ziwei.patterns import GROUPS, PATTERNS, frequency

    group = str(options.get("group", "fu"))
    if group not in GROUPS:
        raise InputError("group", f"{group!r} is not a pattern group ({', '.join(GROUPS)})")
    rows = []
    for p in PATTERNS.values():
        if p.group != group:
            continue
        f = frequency(p.key)
        if f is None:
            charts, one_in, broken = "not natal", "—", "—"
        else:
            charts = f"{f.formed:,}"
            one_in = f"1 in {f.one_in:,}" if f.one_in else "never"
            broken = f"{f.broken:,}"
        verse = f"「{p.verse}」 {_where(p.verse_at)}"
        rows.append((_name(p), p.layer, verse, charts, one_in, broken))
    return Table(("Pattern", "Layer", "Verse", "Charts", "How often", "Of them 破格"), tuple(rows))


def _chart(birth: Mapping[str, Any]) -> Any:
    from mingshu import ziwei

    if not isinstance(birth, Mapping) or "date" not in birth:
        raise InputError("birth", "give a birth as {date, time, gender}")
    return ziwei.chart(str(birth["date"]), birth.get("time", 0), str(birth.get("gender", "female")))


def pattern_chart(options: Options) -> Table:
    """The ``patterns`` (keys) a ``birth`` ({date, time, gender}; time a clock time or iztro's
    time index) forms, each with the palaces and stars that form it and the rules that break
    it; a pattern the birth does not form reads "not formed"."""
    chart = _chart(options.get("birth", {}))
    hits = {h.key: h for h in chart.patterns()}
    rows = []
    for key in options.get("patterns", ()):
        p = _pattern(key)
        hit = hits.get(p.key)
        if hit is None:
            rows.append((_name(p), "not formed", "", ""))
            continue
        palaces = ", ".join(
            f"{branch_name(int(b))} ({chart.palace_at(b).name.names.english})" for b in hit.palaces
        )
        stars = ", ".join(star_name(s) for s in hit.stars)
        broken = "; ".join(f"{r.names.hans} ({r.names.english})" for r in hit.broken) or "none"
        rows.append((_name(p), palaces, stars, broken))
    return Table(("Pattern", "Palaces", "Stars", "Broken by"), tuple(rows))


def patterns_of_birth(q: Options) -> str:
    """Every pattern a ``birth`` forms under the book's reading, in the data file's order,
    a broken one marked (破格)."""
    hits = _chart(q.get("birth", {})).patterns()
    return ", ".join(_name(h.pattern) + (" (破格)" if h.broken else "") for h in hits) or "none"


def pattern_hours(q: Options) -> tuple[str, ...]:
    """Every hour of one solar ``date`` (Rat … Pig, then the late Rat hour) whose chart, for
    ``gender``, forms ``pattern`` under the book's reading."""
    from mingshu import ziwei

    key = _pattern(q.get("pattern")).key
    date, gender = str(q.get("date", "")), str(q.get("gender", "female"))
    return tuple(
        hour_name(h)
        for h in (*range(12), LATE_RAT)
        if any(hit.key == key for hit in ziwei.chart(date, h, gender).patterns())
    )


@dataclass(frozen=True)
class PatternLayout:
    """Where one pattern stands on one birth's chart, for a diagram: the Life palace, each
    palace the pattern names with its palace name and the pattern's stars there, and the
    break rules (empty when whole); ``formed`` is False when the birth does not form it."""

    name: str
    life: int
    palaces: tuple[tuple[int, str, tuple[str, ...]], ...]
    broken: tuple[str, ...]
    formed: bool


def pattern_layout(birth: Mapping[str, Any], key: object) -> PatternLayout:
    """The layout of pattern ``key`` on the chart of ``birth`` ({date, time, gender})."""
    p = _pattern(key)
    chart = _chart(birth)
    hit = next((h for h in chart.patterns() if h.key == p.key), None)
    life = int(chart.life_branch)
    if hit is None:
        return PatternLayout(_name(p), life, (), (), False)
    at = {s: int(chart.star(s).branch) for s in hit.stars}
    palaces = tuple(
        (
            int(b),
            str(chart.palace_at(b).name.names.english),
            tuple(star_name(s) for s in hit.stars if at[s] == int(b)),
        )
        for b in hit.palaces
    )
    broken = tuple(f"{r.names.hans} ({r.names.english})" for r in hit.broken)
    return PatternLayout(_name(p), life, palaces, broken, True)
