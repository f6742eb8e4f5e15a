"""The month counted by its qi: 人元司令 (the hidden stem in command by days since the 节) and
the month of the 中气 (the sun's sign) for the 命宫 variant.

Tables in ``bazi/data/si_ling.toml`` (三命通會 卷二「論人元司事」, and tyme4py's table).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from types import MappingProxyType
from typing import NamedTuple

from mingshu.bazi.tables import HIDDEN_ROLES, HiddenRole, Source, load
from mingshu.calendar import SolarTerm, term_moment
from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["SI_LING_TABLES", "SiLing", "SiLingTable", "si_ling", "zhong_qi_branch"]


class SiLingTable(NamedTuple):
    key: str
    label: str
    inclusive: bool
    stages: tuple[tuple[tuple[Stem, int, HiddenRole], ...], ...]
    """By month branch (子 = 0): (stem, days, role) in the order they rule."""
    source: Source


class SiLing(NamedTuple):
    """The stem in command (人元司令) at a birth."""

    stem: Stem
    role: HiddenRole
    day: int
    """Whole days since the 节 date (0 = born on the day of the 节)."""
    day_in_stage: int
    """Days since this stem took command (0 = its first day)."""
    table: SiLingTable


def _load() -> MappingProxyType[str, SiLingTable]:
    roles = {r.key: r for r in HIDDEN_ROLES}
    out = {}
    for row in load("si_ling.toml")["table"]:
        stages: list[tuple[tuple[Stem, int, HiddenRole], ...]] = [()] * 12
        for branch, text in row["stages"].items():
            parts = []
            for item in text.split(","):
                stem, days, role = item.split()
                parts.append((Stem.parse(stem), int(days), roles[role]))
            stages[int(Branch.parse(branch))] = tuple(parts)
        if any(not s for s in stages):
            raise RuntimeError(f"si_ling.toml: {row['key']} misses a month")
        out[row["key"]] = SiLingTable(
            row["key"],
            row["label"],
            bool(row["inclusive"]),
            tuple(stages),
            Source.from_row(row["source"]),
        )
    return MappingProxyType(out)


SI_LING_TABLES = _load()
"""The 人元司令 tables by key: ``sanming`` (default), ``tyme4py``."""


def si_ling(
    month_branch: Branch, jie_moment: datetime, birth: datetime, table: str = "sanming"
) -> SiLing:
    """The stem in command for a birth (naive Beijing time) in the month of ``month_branch``
    opened by the 节 at ``jie_moment``: days are whole calendar days between the two dates."""
    t = SI_LING_TABLES.get(table)
    if t is None:
        known = ", ".join(SI_LING_TABLES)
        raise InputError("table", f"no 人元司令 table {clip(table)} (use {known})")
    day = (birth.date() - jie_moment.date()).days
    if day < 0:
        raise InputError("birth", "the birth is before the 节 that opens its month")
    total = 0
    stages = t.stages[month_branch]
    for n, (stem, days, role) in enumerate(stages):
        total += days
        last = n == len(stages) - 1
        if last or day < total or (t.inclusive and day == total):
            return SiLing(stem, role, day, day - (total - days), t)
    raise AssertionError("unreachable")  # pragma: no cover


@cache
def _zhong_qi(year: int, term: SolarTerm) -> datetime:
    return term_moment(year, term)


def zhong_qi_branch(
    month_branch: Branch, jie: SolarTerm, jie_moment: datetime, birth: datetime
) -> Branch:
    """The month branch counted from the 中气 instead of the 节: the month's own branch once its
    中气 has passed, the branch before it until then (born after 立春 but before 雨水: 丑)."""
    zhong = SolarTerm(int(jie) + 1)  # the 中气 follows its 节 in the same Gregorian year
    return month_branch if birth >= _zhong_qi(jie_moment.year, zhong) else month_branch.next(-1)
