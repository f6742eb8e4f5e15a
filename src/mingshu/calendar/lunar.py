"""Solar ↔ lunar dates (农历), leap months included, from the shipped lunar-year table.

The table is lunar-python 1.4.8 ``LunarYear`` (寿星 new moons, Beijing time), the same months
lunar-typescript 1.8.6 gives iztro.  Conversions bisect over the ordinals of month starts.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import date
from functools import cache
from typing import NamedTuple

from mingshu.calendar._tables import lunar_table, name_table
from mingshu.calendar.solar import (
    FIRST_ORDINAL,
    LAST_ORDINAL,
    RANGE_TEXT,
    check_ordinal,
)
from mingshu.errors import InputError, OutOfRangeError

__all__ = [
    "LunarDate",
    "LunarMonth",
    "leap_month",
    "lunar_from_ordinal",
    "lunar_to_solar",
    "lunar_year_months",
    "month_days",
    "ordinal_from_lunar",
    "solar_to_lunar",
]


class LunarDate(NamedTuple):
    """A Chinese lunar date; ``month`` is 1..12 and ``is_leap`` marks a leap month (闰月)."""

    year: int
    month: int
    day: int
    is_leap: bool = False

    def chinese(self) -> str:
        """The date as lunar-python ``Lunar.toString()`` / iztro ``lunarDate`` print it.

        E.g. ``"二〇〇〇年七月十七"``, ``"二〇二三年闰二月二十"``, ``"二〇九七年腊月十二"``.
        """
        names = name_table()
        leap = names.leap if self.is_leap else ""
        year = _year_text(self.year)
        return f"{year}年{leap}{names.months[self.month - 1]}月{names.days[self.day - 1]}"

    def __str__(self) -> str:
        return f"{self.year}-{'闰' if self.is_leap else ''}{self.month}-{self.day}"


class LunarMonth(NamedTuple):
    """One month of a lunar year: its number, leap flag, length and solar first day."""

    year: int
    month: int
    is_leap: bool
    days: int
    first_day: date


@cache
def _year_text(year: int) -> str:
    """A year in Chinese digits, ``2000`` → ``"二〇〇〇"`` (a few hundred years in use)."""
    digits = name_table().digits
    return "".join(digits[int(c)] for c in str(year))


_new = tuple.__new__  # builds a LunarDate without the Python-level NamedTuple constructor


def lunar_from_ordinal(ordinal: int, field: str = "date") -> LunarDate:
    """Fast path of :func:`solar_to_lunar` for ``date.toordinal()`` values."""
    if not FIRST_ORDINAL <= ordinal <= LAST_ORDINAL:
        check_ordinal(ordinal, field)
    table = lunar_table()
    starts = table.starts
    i = bisect_right(starts, ordinal) - 1
    year, month, is_leap = table.months[i]
    lunar: LunarDate = _new(LunarDate, (year, month, ordinal - starts[i] + 1, is_leap))
    return lunar


def solar_to_lunar(d: date, field: str = "date") -> LunarDate:
    """The lunar date of solar date ``d`` (lunar-python ``Lunar.fromSolar``).

    Only the calendar date counts; the hour never moves the date (as in iztro).
    """
    return lunar_from_ordinal(d.toordinal(), field)


def _label(year: int, month: int, day: int, is_leap: bool) -> str:
    return f"lunar {year}-{'闰' if is_leap else ''}{month}-{day}"


def _lunar_range_text() -> str:
    first = lunar_from_ordinal(FIRST_ORDINAL)
    last = lunar_from_ordinal(LAST_ORDINAL)
    return f"{_label(*first)} .. {_label(*last)[6:]} (solar {RANGE_TEXT})"


def _check_year(year: int, field: str) -> None:
    table = lunar_table()
    if not table.first_year <= year <= table.last_year:
        raise OutOfRangeError(
            field, f"lunar year {year} is outside the supported range {_lunar_range_text()}"
        )


def _month_position(
    year: int, month: int, is_leap: bool, field: str, month_field: str, leap_field: str
) -> int:
    """Index of a month in the table, or the error that explains why there is none."""
    _check_year(year, field)
    if not 1 <= month <= 12:
        raise InputError(month_field, f"lunar month {month} does not exist (months run 1 to 12)")
    table = lunar_table()
    if is_leap:
        leap = table.leap[year]
        if leap != month:
            their = f"its leap month is {leap}" if leap else "it has no leap month"
            raise InputError(leap_field, f"{year} has no leap month {month} ({their})")
    return table.position[(year, month, bool(is_leap))]


def ordinal_from_lunar(
    year: int, month: int, day: int, is_leap: bool = False, field: str = "date"
) -> int:
    """Fast path of :func:`lunar_to_solar`: the solar ``date.toordinal()`` of a lunar date."""
    table = lunar_table()
    position = table.position.get((year, month, is_leap))
    if position is None:
        position = _month_position(year, month, is_leap, field, field, "leap")
    length = table.lengths[position]
    if not 1 <= day <= length:
        which = f"leap month {month}" if is_leap else f"month {month}"
        raise InputError(
            field,
            f"{_label(year, month, day, is_leap)} does not exist: "
            f"{which} of {year} has {length} days",
        )
    ordinal = table.starts[position] + day - 1
    if not FIRST_ORDINAL <= ordinal <= LAST_ORDINAL:
        raise OutOfRangeError(
            field,
            f"{_label(year, month, day, is_leap)} (solar {date.fromordinal(ordinal)}) is outside "
            f"the supported range {_lunar_range_text()}",
        )
    return ordinal


def lunar_to_solar(
    year: int, month: int, day: int, is_leap: bool = False, field: str = "date"
) -> date:
    """The solar date of a lunar date (lunar-python ``Lunar.fromYmd(...).getSolar()``).

    Raises :class:`InputError` for a day the month does not have (``field``), or a leap flag on
    a month that is not that year's leap month (field ``"leap"``); unlike iztro, day 30 of a
    30-day leap month works even when the regular month has 29 days.
    """
    return date.fromordinal(ordinal_from_lunar(year, month, day, is_leap, field))


def leap_month(year: int, field: str = "year") -> int:
    """The leap month (闰月) of lunar ``year``, 0 when it has none."""
    _check_year(year, field)
    return lunar_table().leap[year]


def month_days(year: int, month: int, is_leap: bool = False) -> int:
    """Length (29 or 30 days) of lunar month ``month`` (or its leap month) of ``year``."""
    table = lunar_table()
    position = table.position.get((year, month, is_leap))
    if position is None:
        position = _month_position(year, month, is_leap, "year", "month", "leap")
    return table.lengths[position]


@cache
def _year_months(year: int) -> tuple[LunarMonth, ...]:
    table = lunar_table()
    first = table.position[(year, 1, False)]
    count = 13 if table.leap[year] else 12
    months = []
    for i in range(first, first + count):
        y, m, is_leap = table.months[i]
        months.append(
            LunarMonth(y, m, is_leap, table.lengths[i], date.fromordinal(table.starts[i]))
        )
    return tuple(months)


def lunar_year_months(year: int) -> tuple[LunarMonth, ...]:
    """The months of lunar ``year`` in order, a leap month right after its regular month."""
    _check_year(year, "year")
    return _year_months(year)
