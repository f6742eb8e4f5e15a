"""What the chart page shows, as plain values for the templates: the unknown-hour table,
the BaZi tables, a star's placement rule with the inputs it read."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from mingshu.cycles import Branch, Stem
from mingshu.present.star_rules import BY_WORDS, ziwei_rule

if TYPE_CHECKING:
    from mingshu.cycles import Names
    from mingshu.ziwei import NatalChart

__all__ = [
    "HOUR_STARS",
    "StarDetail",
    "branch_name",
    "name",
    "pillar_name",
    "star_detail",
    "stem_name",
    "unknown_hour_table",
]

HOUR_STARS: Final = (
    "wen_chang",
    "wen_qu",
    "di_kong",
    "di_jie",
    "huo_xing",
    "ling_xing",
    "tai_fu",
    "feng_gao",
)
"""Stars placed by the birth hour: the columns of the unknown-hour table."""


def name(names: Names | dict[str, str], style: str) -> str:
    if isinstance(names, dict):
        return names.get(style) or names.get("hans", "")
    return str(getattr(names, style, names.hans))


# The look-ups below are cached: pure functions of a key and a name style, asked for
# again and again on every chart page.
@lru_cache(maxsize=4096)
def stem_name(key: str, style: str) -> str:
    return name(Stem.parse(key).names, style)


@lru_cache(maxsize=4096)
def pillar_name(text: str, style: str) -> str:
    """A sixty-cycle pillar written ``甲子`` in ``style``: the two characters in 简体/繁體,
    their pinyin in the Latin styles (as the board writes pillars: "Yang Wood Rat" for a
    pillar would crowd every cell)."""
    if len(text) != 2:
        return text
    stem, branch = Stem.parse(text[0]).names, Branch.parse(text[1]).names
    if style in ("pinyin", "english"):
        return f"{stem.pinyin}{branch.pinyin}"
    return name(stem, style) + name(branch, style)


@lru_cache(maxsize=4096)
@lru_cache(maxsize=4096)
def branch_name(key: str, style: str) -> str:
    return name(Branch.parse(key).names, style)


@dataclass(frozen=True, slots=True)
class HourRow:
    time_index: int
    hour: str
    life: str
    body: str
    element_class: str
    life_stars: str
    hour_stars: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnknownHour:
    rows: tuple[HourRow, ...]
    columns: tuple[str, ...]
    same: tuple[str, ...]
    """Stars in the same palace (branch) in all thirteen charts."""
    moving: tuple[str, ...]


def unknown_hour_table(charts: Sequence[NatalChart], style: str) -> UnknownHour:
    """What moves and what stays across the thirteen charts of one day."""
    columns = tuple(name(charts[0].star(k).star.names, style) for k in HOUR_STARS)
    rows = []
    for i, c in enumerate(charts):
        life = c.life_palace
        rows.append(
            HourRow(
                i,
                name(c.hour.names, style),
                name(life.branch.names, style),
                name(c.body_palace.branch.names, style),
                name(c.five_elements_class.names, style),
                " ".join(name(s.star.names, style) for s in life.major_stars) or "—",
                tuple(name(c.star(k).branch.names, style) for k in HOUR_STARS),
            )
        )
    first = charts[0]
    same: list[str] = []
    moving: list[str] = []
    for palace in first.palaces:
        for placed in palace.stars:
            key = placed.star.key
            label = name(placed.star.names, style)
            if all(c.star(key).branch == placed.branch for c in charts[1:]):
                same.append(f"{label} {name(placed.branch.names, style)}")
            else:
                moving.append(label)
    return UnknownHour(tuple(rows), columns, tuple(same), tuple(moving))


@dataclass(frozen=True, slots=True)
class StarDetail:
    key: str
    label: str
    english: str
    palace: str
    branch: str
    brightness: str
    mutagen: str
    rule: str
    inputs: tuple[tuple[str, str], ...]
    verse: str
    source: str


def _input(chart: NatalChart, by: str, style: str) -> str:
    if by == "year_stem":
        return name(chart.year.stem.names, style)
    if by == "year_branch":
        return name(chart.year.branch.names, style)
    if by == "god_year_stem":
        return name(chart.god_year.stem.names, style)
    if by == "god_year_branch":
        return name(chart.god_year.branch.names, style)
    if by == "month":
        return str(chart.lunar_date.month)
    if by == "day":
        return str(chart.lunar_date.day)
    if by == "hour":
        return name(chart.hour.names, style)
    return by


def _rule_text(chart: NatalChart, place: Any, style: str) -> str:
    """The placement rule in a reader's words (the data file's keys are for the engine)."""
    return ziwei_rule(place, style, lambda key: name(chart.star(key).star.names, style))


_FILE_REFS: Final = (
    # Line numbers in the transcription files are for the maintainers (sources/ has them).
    (re.compile(r" ?\(F = [^)]*\)"), ""),
    (re.compile(r" ?\(F L[0-9–-]+(, [^)]*)?\)"), ""),
    (re.compile(r"\(F L[0-9–-]+[:;] "), "("),
    (re.compile(r"\(F L[0-9–-]+ "), "(the book "),
    (re.compile(r" of F L[0-9–-]+"), ""),
    (re.compile(r"\bF reads"), "the book reads"),
    (re.compile(r" ?\([\w.-]+\.(?:md|txt) L[0-9–-]+\)"), ""),
)


def _source_text(source: str) -> str:
    for pattern, replacement in _FILE_REFS:
        source = pattern.sub(replacement, source)
    return source


def star_detail(chart: NatalChart, key: str, style: str) -> StarDetail:
    """Where ``key`` stands in ``chart``, the rule that put it there and what it read;
    ``KeyError`` if the chart has no such star."""
    placed = chart.star(key)
    palace = chart.palace_at(placed.branch)
    star = placed.star
    place = star.place
    inputs: list[tuple[str, str]] = []
    by = place.get("by")
    if isinstance(by, str):
        inputs.append((BY_WORDS.get(by, by), _input(chart, by, style)))
    if "from_star" in place:
        other = chart.star(str(place["from_star"]))
        inputs.append(
            (f"{name(other.star.names, style)} stands in", name(other.branch.names, style))
        )
    if place.get("rule") in ("zi_wei", "tian_fu"):
        inputs.append(("lunar day", str(chart.lunar_date.day)))
        inputs.append(("five-elements class", name(chart.five_elements_class.names, style)))
    return StarDetail(
        key=star.key,
        label=name(star.names, style),
        english=f"{star.names.pinyin} ({star.names.english})",
        palace=name(palace.name.names, style),
        branch=name(placed.branch.names, style),
        brightness="" if placed.brightness is None else name(placed.brightness.names, style),
        mutagen="" if placed.mutagen is None else name(placed.mutagen.names, style),
        rule=_rule_text(chart, place, style),
        inputs=tuple(inputs),
        verse=star.verse,
        source=_source_text(star.source),
    )
