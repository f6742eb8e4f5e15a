"""Small value types shared by the BaZi modules: pillar positions, gender, notices."""

from __future__ import annotations

from mingshu.birth import Notice
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
