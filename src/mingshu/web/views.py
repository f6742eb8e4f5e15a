"""What the chart page shows, as plain values for the templates: the unknown-hour table,
the BaZi tables, a star's placement rule with the inputs it read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from mingshu.cycles import Branch, Stem

if TYPE_CHECKING:
    from mingshu.cycles import Names
    from mingshu.ziwei import NatalChart

__all__ = [
    "HOUR_STARS",
    "StarDetail",
    "branch_name",
    "name",
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


def stem_name(key: str, style: str) -> str:
    return name(Stem.parse(key).names, style)


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


_BY: Final = {
    "year_stem": "year stem",
    "year_branch": "year branch",
    "god_year_stem": "year stem (for the gods)",
    "god_year_branch": "year branch (for the gods)",
    "month": "lunar month",
    "day": "lunar day",
    "hour": "birth hour",
}


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


def _rule_text(place: Any) -> str:
    parts = []
    for k, v in place.items():
        if k == "table" and isinstance(v, str):
            parts.append(f"table {v}")
        else:
            parts.append(f"{k.replace('_', ' ')} {v}")
    return "; ".join(parts)


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
        inputs.append((_BY.get(by, by), _input(chart, by, style)))
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
        rule=_rule_text(place),
        inputs=tuple(inputs),
        verse=star.verse,
        source=star.source,
    )
