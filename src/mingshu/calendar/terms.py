"""The 24 solar terms (节气) and their moments, from the shipped lunar-python 1.4.8 table.

Moments are naive datetimes in Beijing civil time (UTC+8), whole seconds, exactly as
lunar-python ``Lunar.getJieQiTable()`` gives them (寿星 series).  The table covers Gregorian years
1581 .. 2651, beyond the supported date range on each side, so the 节 before and after any
supported moment is always known.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime

from mingshu.calendar._tables import name_table, seconds_of, term_table
from mingshu.calendar.solar import beijing_naive
from mingshu.cycles import Branch
from mingshu.errors import OutOfRangeError
from mingshu.named import NamedEnum, attach_names

__all__ = ["SolarTerm", "next_jie", "previous_jie", "term_moment"]


class SolarTerm(NamedEnum):
    """The 24 solar terms in Gregorian-year order: 0 = 小寒 … 23 = 冬至.

    Even members are 节 (jie, "sectional" terms), which open the solar months of BaZi;
    odd members are 中气 (zhongqi).
    """

    XIAO_HAN = 0
    DA_HAN = 1
    LI_CHUN = 2
    YU_SHUI = 3
    JING_ZHE = 4
    CHUN_FEN = 5
    QING_MING = 6
    GU_YU = 7
    LI_XIA = 8
    XIAO_MAN = 9
    MANG_ZHONG = 10
    XIA_ZHI = 11
    XIAO_SHU = 12
    DA_SHU = 13
    LI_QIU = 14
    CHU_SHU = 15
    BAI_LU = 16
    QIU_FEN = 17
    HAN_LU = 18
    SHUANG_JIANG = 19
    LI_DONG = 20
    XIAO_XUE = 21
    DA_XUE = 22
    DONG_ZHI = 23

    @property
    def is_jie(self) -> bool:
        """True for the twelve 节 (小寒, 立春, 惊蛰 …), false for the 中气."""
        return self % 2 == 0

    @property
    def month_branch(self) -> Branch:
        """Branch of the solar month this 节 opens: 立春 → 寅 … 大雪 → 子, 小寒 → 丑.

        Raises ``ValueError`` for a 中气, which opens no month.
        """
        if self % 2:
            raise ValueError(f"{self.names.hans} is a 中气, not a 节: it opens no month")
        return Branch((self // 2 + 1) % 12)


attach_names(SolarTerm, lambda: name_table().terms)  # read names.toml on first use
_TERMS = tuple(SolarTerm)


def term_moment(year: int, term: SolarTerm) -> datetime:
    """Moment of ``term`` in Gregorian ``year`` (naive, Beijing time, whole seconds).

    Years 1899 .. 2101 are tabulated; others raise :class:`OutOfRangeError` (field ``"year"``).
    """
    table = term_table()
    if not table.first_year <= year <= table.last_year:
        raise OutOfRangeError(
            "year",
            f"solar-term moments are tabulated for the years {table.first_year} .. "
            f"{table.last_year}, not {year}",
        )
    return table.moments[(year - table.first_year) * 24 + SolarTerm(term)]


def _jie(position: int) -> tuple[SolarTerm, datetime]:
    table = term_table()
    p = table.jie_positions[position]
    return _TERMS[p % 24], table.moments[p]


def previous_jie(moment: datetime, field: str = "date") -> tuple[SolarTerm, datetime]:
    """The latest 节 at or before ``moment`` (lunar-python ``Lunar.getPrevJie()``).

    ``moment`` is Beijing civil time when naive; an aware datetime is converted first.
    """
    s = seconds_of(beijing_naive(moment, field))
    return _jie(bisect_right(term_table().jie_seconds, s) - 1)


def next_jie(moment: datetime, field: str = "date") -> tuple[SolarTerm, datetime]:
    """The first 节 strictly after ``moment`` (lunar-python ``Lunar.getNextJie()``)."""
    s = seconds_of(beijing_naive(moment, field))
    return _jie(bisect_right(term_table().jie_seconds, s))
