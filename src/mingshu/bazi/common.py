"""Small value types shared by the BaZi modules: pillar positions, gender, notices."""

from __future__ import annotations

from typing import NamedTuple

from mingshu.gender import Gender
from mingshu.named import NamedEnum, Names, attach_names

__all__ = ["POSITIONS", "Gender", "Notice", "Position"]


class Position(NamedEnum):
    """The four pillars in chart order: year, month, day, hour (年 月 日 时)."""

    YEAR = 0
    MONTH = 1
    DAY = 2
    HOUR = 3


attach_names(
    Position,
    (
        Names("年柱", "年柱", "nián zhù", "year"),
        Names("月柱", "月柱", "yuè zhù", "month"),
        Names("日柱", "日柱", "rì zhù", "day"),
        Names("时柱", "時柱", "shí zhù", "hour"),
    ),
)
POSITIONS = tuple(Position)


class Notice(NamedTuple):
    """Something the reader of a chart should know: an ambiguity or a choice made for them.

    ``code``: ``near_jie`` (birth within a minute of a 节: the year and/or month pillar could
    differ by ephemeris), ``ambiguous_time`` (a local time that occurred twice at a DST change;
    ``fold`` chose one), ``daylight_saving`` (DST removed from the clock time).
    """

    code: str
    field: str
    message: str
