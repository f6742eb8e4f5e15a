"""Items derived from the pillars (docs/bazi-rules.md §2): ten gods, hidden stems, nayin,
growth stages, void, 胎元, 胎息, 命宫, 身宫.

Per-pillar items are interned: for each growth-stage convention there is one
:class:`PillarDetail` per (position, Day Master, pillar), built on first use, so a chart
costs four tuple look-ups here.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from mingshu import calendar
from mingshu.arguments import check_type
from mingshu.bazi.common import POSITIONS, Position
from mingshu.bazi.settings import DEFAULT, BaziSettings
from mingshu.bazi.tables import (
    BRANCH_COMBINE,
    HIDDEN,
    NAYIN_OF,
    STEM_COMBINE,
    TEN_GOD,
    HiddenStem,
    Nayin,
    Stage,
    TenGod,
    stage_table,
)
from mingshu.cycles import SIXTY, Branch, Pillar, Stem

__all__ = [
    "PillarDetail",
    "detail",
    "details_table",
    "ming_gong",
    "nayin",
    "shen_gong",
    "stage",
    "tai_xi",
    "tai_yuan",
]


class PillarDetail(NamedTuple):
    """Everything shown under one pillar of a chart."""

    position: Position
    pillar: Pillar
    ten_god: TenGod | None
    """Ten god of the stem towards the Day Master; ``None`` for the day pillar (日主 itself)."""
    hidden: tuple[HiddenStem, ...]
    """Hidden stems of the branch, 本气 first, each with its ten god."""
    nayin: Nayin
    stage: Stage
    """Growth stage of the Day Master on this branch (星运)."""
    self_stage: Stage
    """Growth stage of this pillar's own stem on its own branch (自坐)."""
    void: tuple[Branch, Branch]
    """The two void branches (旬空) of this pillar's decade."""

    @property
    def stem(self) -> Stem:
        return self.pillar.stem

    @property
    def branch(self) -> Branch:
        return self.pillar.branch


@cache
def details_table(earth: str, yin: str) -> tuple[PillarDetail, ...]:
    """``table[position * 600 + day_master * 60 + pillar.index]`` for one stage convention."""
    stages = stage_table(earth, yin)
    out = []
    for position in POSITIONS:
        for master in Stem:
            for p in SIXTY:
                out.append(
                    PillarDetail(
                        position=position,
                        pillar=p,
                        ten_god=None if position is Position.DAY else TEN_GOD[master * 10 + p.stem],
                        hidden=tuple(
                            HiddenStem(s, role, TEN_GOD[master * 10 + s])
                            for s, role in HIDDEN[p.branch]
                        ),
                        nayin=NAYIN_OF[p.index],
                        stage=stages[master * 12 + p.branch],
                        self_stage=stages[p.stem * 12 + p.branch],
                        void=p.void_branches,
                    )
                )
    return tuple(out)


def detail(
    position: Position, day_master: Stem, pillar: Pillar, settings: BaziSettings = DEFAULT
) -> PillarDetail:
    """The :class:`PillarDetail` of ``pillar`` standing at ``position`` in a chart (each
    argument a member or its name: ``detail("day", "庚", "庚辰")``)."""
    where = Position.parse(position, "position")
    master = Stem.parse(day_master, "day_master")
    index = Pillar.parse(pillar).index
    s = check_type(settings, BaziSettings, "settings", "BaziSettings")
    return details_table(s.stage_earth.value, s.stage_yin.value)[where * 600 + master * 60 + index]


def stage(stem: Stem, branch: Branch, settings: BaziSettings = DEFAULT) -> Stage:
    """Growth stage of ``stem`` on ``branch`` under the settings' convention."""
    s, b = Stem.parse(stem, "stem"), Branch.parse(branch, "branch")
    settings = check_type(settings, BaziSettings, "settings", "BaziSettings")
    return stage_table(settings.stage_earth.value, settings.stage_yin.value)[s * 12 + b]


def nayin(pillar: Pillar) -> Nayin:
    """The nayin (纳音) of ``pillar`` (a ``Pillar`` or ``"甲子"``)."""
    return NAYIN_OF[Pillar.parse(pillar).index]


def _tai_yuan(month: Pillar) -> Pillar:
    return Pillar.of((month.stem + 1) % 10, (month.branch + 3) % 12)


def _tai_xi(day: Pillar) -> Pillar:
    return Pillar.of(STEM_COMBINE[day.stem], BRANCH_COMBINE[day.branch])


_TAI_YUAN = tuple(_tai_yuan(p) for p in SIXTY)
_TAI_XI = tuple(_tai_xi(p) for p in SIXTY)


def tai_yuan(month: Pillar) -> Pillar:
    """胎元 (conception pillar): month stem + 1, month branch + 3 (辛巳 → 壬申),
    docs/bazi-rules.md §2.7."""
    return _TAI_YUAN[Pillar.parse(month, "month").index]


def tai_xi(day: Pillar) -> Pillar:
    """胎息: the day stem's 五合 partner with the day branch's 六合 partner (庚辰 → 乙酉)."""
    return _TAI_XI[Pillar.parse(day, "day").index]


def _number(branch: int) -> int:
    """Month numbering with 寅 = 1 … 丑 = 12."""
    return (branch - Branch.YIN) % 12 + 1


def _from_number(n: int) -> Branch:
    return Branch((n + 1) % 12)


def _palace(year_stem: int, branch: Branch) -> Pillar:
    """A palace branch with its stem by 五虎遁 from the year stem (calendar.month_stem)."""
    return Pillar.of(calendar.month_stem(Stem(year_stem), branch), branch)


@cache
def _palaces() -> tuple[tuple[Pillar, ...], tuple[Pillar, ...]]:
    """命宫 and 身宫 for every (year stem mod 5, month branch, hour branch): 720 each."""
    ming, shen = [], []
    for stem in range(5):
        for month in range(12):
            for hour in range(12):
                s = _number(month) + _number(hour)
                ming.append(_palace(stem, _from_number(14 - s if s < 14 else 26 - s)))
                s = _number(month) + hour + 1
                shen.append(_palace(stem, _from_number(s - 12 if s > 12 else s)))
    return tuple(ming), tuple(shen)


def _palace_index(year_stem: object, month_branch: object, hour_branch: object) -> int:
    """Where a year stem, a month branch and an hour branch (members or names) stand in the
    tables of :func:`_palaces`."""
    stem = Stem.parse(year_stem, "year_stem")
    month = Branch.parse(month_branch, "month_branch")
    return (stem % 5) * 144 + month * 12 + Branch.parse(hour_branch, "hour_branch")


def ming_gong(year_stem: Stem, month_branch: Branch, hour_branch: Branch) -> Pillar:
    """命宫 (life palace), docs/bazi-rules.md §2.7 (lunar-python ``getMingGong``).

    With 寅 = 1 numbering of month and hour, s = month# + hour#; the palace is 14 − s (or
    26 − s when s ≥ 14), its stem by 五虎遁 from the year stem.
    """
    return _palaces()[0][_palace_index(year_stem, month_branch, hour_branch)]


def shen_gong(year_stem: Stem, month_branch: Branch, hour_branch: Branch) -> Pillar:
    """身宫 (body palace), docs/bazi-rules.md §2.7: month# (寅 = 1) + hour# (子 = 1), less 12
    if over 12; the stem by 五虎遁 from the year stem."""
    return _palaces()[1][_palace_index(year_stem, month_branch, hour_branch)]
