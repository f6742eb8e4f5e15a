"""The birth data of a chart, checked field by field.

A birth is a solar date, a birth hour and a gender.  The hour is either a clock time
(``"10:30"``; 23:00–23:59 is the late Rat hour) or one of iztro's thirteen time indices
(0 = early Rat 00–01, 1 = Ox 01–03, …, 11 = Pig 21–23, 12 = late Rat 23–24).  A lunar date
is turned into its solar date first; impossible dates are errors, never rolled over.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from mingshu import calendar
from mingshu.calendar import LunarDate
from mingshu.errors import InputError
from mingshu.gender import Gender

__all__ = ["Birth", "Gender", "parse_date", "time_index_of_clock"]


_DATE = re.compile(r"^\s*(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,2})\s*$")
_CLOCK = re.compile(r"^\s*(\d{1,2}):(\d{2})(?::(\d{2}))?\s*$")


def parse_date(value: object, field: str = "date") -> tuple[int, int, int]:
    """Year, month and day from ``"YYYY-M-D"`` (also ``/`` or ``.``) or a ``date``."""
    if isinstance(value, dt.datetime):
        return value.year, value.month, value.day
    if isinstance(value, dt.date):
        return value.year, value.month, value.day
    match = _DATE.match(str(value))
    if match is None:
        raise InputError(field, f"{value!r} is not a date: write YYYY-MM-DD, e.g. 1987-05-16")
    year, month, day = (int(g) for g in match.groups())
    return year, month, day


def time_index_of_clock(hour: int, minute: int = 0, field: str = "time") -> int:
    """iztro's time index for a clock time: 00:00–00:59 → 0, 01:00–02:59 → 1, …,
    21:00–22:59 → 11, 23:00–23:59 → 12 (the late Rat hour)."""
    if not 0 <= hour <= 23:
        raise InputError(field, f"hour {hour} is out of range 0..23")
    if not 0 <= minute <= 59:
        raise InputError(field, f"minute {minute} is out of range 0..59")
    return 12 if hour == 23 else (hour + 1) // 2


def _parse_time(value: object) -> tuple[int, dt.time | None]:
    if isinstance(value, bool):
        raise InputError("time", f"{value!r} is not a time")
    if isinstance(value, int):
        if not 0 <= value <= 12:
            raise InputError(
                "time", f"time index {value} is out of range 0..12 (0 early Rat … 12 late Rat)"
            )
        return value, None
    if isinstance(value, dt.time):
        return time_index_of_clock(value.hour, value.minute), value.replace(tzinfo=None)
    match = _CLOCK.match(str(value))
    if match is None:
        raise InputError("time", f"{value!r} is not a clock time: write HH:MM, e.g. 10:30")
    hour, minute = int(match[1]), int(match[2])
    second = int(match[3] or 0)
    index = time_index_of_clock(hour, minute)
    if second > 59:
        raise InputError("time", f"second {second} is out of range 0..59")
    return index, dt.time(hour, minute, second)


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
        year, month, day = parse_date(date)
        solar_date = calendar.check_solar_date(year, month, day)
        index, clock = _parse_time(time)
        return cls(solar_date, index, Gender.parse(gender), clock)

    @classmethod
    def lunar(cls, date: object, time: object, gender: object, *, leap: bool = False) -> Birth:
        """A birth given by its lunar date; ``leap`` marks a day of the leap month.

        A leap flag on a month that is not leap that year is an error (iztro ignores it).
        """
        year, month, day = parse_date(date)
        solar_date = calendar.lunar_to_solar(year, month, day, bool(leap))
        index, clock = _parse_time(time)
        return cls(
            solar_date, index, Gender.parse(gender), clock, LunarDate(year, month, day, bool(leap))
        )
