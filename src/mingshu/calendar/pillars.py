"""Sexagenary pillars (干支) of years, months, days and hours.

Rules as in docs/bazi-rules.md §1 and lunar-python 1.4.8 ``Lunar``: the day count is continuous;
hour stems follow 五鼠遁 and month stems 五虎遁; years change at 正月初一, at the calendar day
of 立春, or at its exact moment, depending on the function.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import date, datetime

from mingshu.calendar._tables import lunar_table, seconds_of, term_table
from mingshu.calendar.solar import (
    FIRST_ORDINAL,
    LAST_ORDINAL,
    beijing_naive,
    check_ordinal,
)
from mingshu.cycles import SIXTY, Branch, Pillar, Stem
from mingshu.errors import InputError, OutOfRangeError

# By number: an index costs a fraction of an enum call (EnumType.__call__ is Python).
_STEMS = tuple(Stem)
_BRANCHES = tuple(Branch)

__all__ = [
    "day_pillar",
    "day_pillar_from_ordinal",
    "hour_branch",
    "hour_pillar",
    "month_pillar_exact",
    "month_stem",
    "year_pillar_by_lichun_day",
    "year_pillar_exact",
    "year_pillar_of_lunar_year",
]

# lunar-python: day index = (JDN − 11) mod 60 with JDN = date.toordinal() + 1_721_425,
# i.e. (ordinal + 14) mod 60.  Check values: 2000-01-01 = 戊午 (54), 1949-10-01 = 甲子 (0).
_DAY_OFFSET = (1_721_425 - 11) % 60


def day_pillar_from_ordinal(ordinal: int) -> Pillar:
    """Fast path of :func:`day_pillar` for ``date.toordinal()`` values."""
    return SIXTY[(ordinal + _DAY_OFFSET) % 60]


def day_pillar(d: date) -> Pillar:
    """Day pillar of the civil date ``d`` (continuous count; lunar-python ``getDayInGanZhi``).

    The date alone decides: apply any late-Rat-hour convention (docs/bazi-rules.md §1.6)
    before calling.
    The count needs no table, so it holds for every date, also outside the supported range
    (a late Rat hour on 2650-12-31 takes the pillar of 2651-01-01).
    """
    return SIXTY[(d.toordinal() + _DAY_OFFSET) % 60]


def hour_branch(hour: int) -> Branch:
    """Branch of the double hour (时辰) containing clock hour ``hour``: 23 and 0 → 子, 1-2 → 丑 …"""
    if not 0 <= hour <= 23:
        raise InputError("time", f"hour {hour} does not exist (hours run 0 to 23)")
    return _BRANCHES[(hour + 1) // 2 % 12]


def hour_pillar(day_stem: Stem, branch: Branch) -> Pillar:
    """Hour pillar by 五鼠遁: the 子 hour of a 甲/己 day is 甲子, of 乙/庚 丙子 …"""
    return Pillar.of((day_stem % 5 * 2 + branch) % 10, branch)


def month_stem(year_stem: Stem, month_branch: Branch) -> Stem:
    """Month stem by 五虎遁: the 寅 month of a 甲/己 year is 丙, of 乙/庚 戊 …

    The 子 and 丑 months (January) continue the count of the same BaZi year.
    """
    first = (year_stem % 5 + 1) * 2  # stem of the 寅 month
    return _STEMS[(first + (month_branch - Branch.YIN) % 12) % 10]


def year_pillar_of_lunar_year(lunar_year: int) -> Pillar:
    """Pillar of a lunar year, which starts at 正月初一: (year − 4) mod 60 (1984 = 甲子)."""
    table = lunar_table()
    if not table.first_year <= lunar_year <= table.last_year:
        raise OutOfRangeError(
            "year",
            f"lunar year {lunar_year} is outside the supported range "
            f"{table.first_year} .. {table.last_year}",
        )
    return SIXTY[(lunar_year - 4) % 60]


def year_pillar_by_lichun_day(d: date, field: str = "date") -> Pillar:
    """Year pillar with the whole calendar day of 立春 already in the new year.

    lunar-typescript ``getYearGanByLiChun`` / lunar-python ``getYearInGanZhiByLiChun``: what
    iztro uses for ``yearDivide = 'exact'``.
    """
    ordinal = d.toordinal()
    if not FIRST_ORDINAL <= ordinal <= LAST_ORDINAL:
        check_ordinal(ordinal, field)
    table = term_table()
    year = d.year
    if ordinal < table.lichun_ordinals[year - table.first_year]:
        year -= 1
    return SIXTY[(year - 4) % 60]


def year_pillar_exact(moment: datetime, field: str = "date") -> Pillar:
    """Year pillar changing at the exact moment of 立春 (lunar-python ``EightChar.getYear``).

    ``moment`` is Beijing civil time when naive; an aware datetime is converted first.
    """
    moment = beijing_naive(moment, field)
    table = term_table()
    year = moment.year
    if seconds_of(moment) < table.lichun_seconds[year - table.first_year]:
        year -= 1
    return SIXTY[(year - 4) % 60]


def month_pillar_exact(moment: datetime, field: str = "date") -> Pillar:
    """Solar-month pillar changing at the exact 节 moments (``getMonthInGanZhiExact``).

    ``moment`` is Beijing civil time when naive; an aware datetime is converted first.
    """
    table = term_table()
    i = bisect_right(table.jie_seconds, seconds_of(beijing_naive(moment, field))) - 1
    return SIXTY[table.jie_month_pillars[i]]
