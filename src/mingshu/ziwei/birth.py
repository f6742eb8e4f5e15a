"""The birth data of a chart, checked field by field.

A birth is a solar date, a birth hour and a gender.  The hour is either a clock time
(``"10:30"``; 23:00–23:59 is the late Rat hour) or one of iztro's thirteen time indices
(0 = early Rat 00–01, 1 = Ox 01–03, …, 11 = Pig 21–23, 12 = late Rat 23–24).  A lunar date
is turned into its solar date first; impossible dates are errors, never rolled over.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from mingshu import calendar
from mingshu.calendar import LunarDate
from mingshu.errors import InputError
from mingshu.gender import Gender
from mingshu.inputs import parse_clock, parse_date_parts

__all__ = ["Birth", "Gender", "parse_time", "time_index_of_clock"]


def time_index_of_clock(clock: dt.time) -> int:
    """iztro's time index for a clock time: 00:00–00:59 → 0, 01:00–02:59 → 1, …,
    21:00–22:59 → 11, 23:00–23:59 → 12 (the late Rat hour)."""
    return 12 if clock.hour == 23 else (clock.hour + 1) // 2


def parse_time(value: object, field: str = "time") -> tuple[int, dt.time | None]:
    """The time index of a birth hour given as a clock time (``"10:30"``, a ``time``) or
    as iztro's time index (an ``int`` 0..12); also the clock time when there is one."""
    if isinstance(value, bool):
        raise InputError(field, f"{value!r} is not a time")
    if isinstance(value, int):
        if not 0 <= value <= 12:
            raise InputError(
                field, f"time index {value} is out of range 0..12 (0 early Rat … 12 late Rat)"
            )
        return value, None
    clock = parse_clock(value, field)
    return time_index_of_clock(clock), clock


@dataclass(frozen=True, slots=True)
class Birth:
    """Checked birth data: the solar date, the time index and the gender.

    ``clock_time`` is set when the hour was given as a clock time; ``lunar_input`` when the
    date was given as a lunar date (the solar date is then its conversion).
    """

    solar_date: dt.date
    time_index: int
    gender: Gender
    clock_time: dt.time | None = None
    lunar_input: LunarDate | None = None

    @classmethod
    def solar(cls, date: object, time: object, gender: object) -> Birth:
        """A birth given by its solar (Gregorian) date."""
        year, month, day = parse_date_parts(date)
        solar_date = calendar.check_solar_date(year, month, day)
        index, clock = parse_time(time)
        return cls(solar_date, index, Gender.parse(gender), clock)

    @classmethod
    def lunar(cls, date: object, time: object, gender: object, *, leap: bool = False) -> Birth:
        """A birth given by its lunar date; ``leap`` marks a day of the leap month.

        A leap flag on a month that is not leap that year is an error (iztro ignores it).
        """
        year, month, day = parse_date_parts(date)
        solar_date = calendar.lunar_to_solar(year, month, day, bool(leap))
        index, clock = parse_time(time)
        return cls(
            solar_date, index, Gender.parse(gender), clock, LunarDate(year, month, day, bool(leap))
        )
