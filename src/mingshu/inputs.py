"""Reading dates and clock times typed by people, shared by both engines.

Every function names the field it reads in its errors, so a form or an API client can
point at the bad value.  Dates are read, not checked against a calendar: a solar date is
checked by :func:`mingshu.calendar.check_solar_date`, a lunar one by
:func:`mingshu.calendar.lunar_to_solar`.
"""

from __future__ import annotations

import datetime as dt
import re

from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["parse_clock", "parse_date_parts", "parse_moment_parts"]

_DATE = r"(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,2})"
_CLOCK = r"(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?"
_DATE_ONLY = re.compile(rf"\s*{_DATE}\s*")
_CLOCK_ONLY = re.compile(rf"\s*{_CLOCK}\s*")
_MOMENT = re.compile(rf"\s*{_DATE}(?:[T ]{_CLOCK})?\s*")


def _text(value: object, field: str, what: str) -> str:
    # Only text is read as text: str() of any object (a number, an object whose __str__
    # happens to look like a date) would be taken at its word.
    if not isinstance(value, str):
        raise InputError(field, f"give {what}, not {clip(value)}")
    return value


def parse_date_parts(value: object, field: str = "date") -> tuple[int, int, int]:
    """Year, month and day from ``"YYYY-M-D"`` (``/`` or ``.`` also) or a ``date``."""
    if isinstance(value, dt.datetime):
        # A datetime carries a time (and maybe a zone) this argument would drop unseen.
        if value.tzinfo is not None or value.time() != dt.time():
            raise InputError(
                field, "give the date alone: the clock time and the zone are their own arguments"
            )
        return value.year, value.month, value.day
    if isinstance(value, dt.date):
        return value.year, value.month, value.day
    match = _DATE_ONLY.fullmatch(_text(value, field, "a date 'YYYY-MM-DD' or a datetime.date"))
    if match is None:
        raise InputError(field, f"{clip(value)} is not a date: write YYYY-MM-DD, e.g. 1987-05-16")
    return int(match[1]), int(match[2]), int(match[3])


def _clock(hour: int, minute: int, second: int, field: str) -> dt.time:
    if hour > 23:
        raise InputError(field, f"hour {hour} does not exist (hours run 0 to 23)")
    if minute > 59:
        raise InputError(field, f"minute {minute} does not exist (minutes run 0 to 59)")
    if second > 59:
        raise InputError(field, f"second {second} does not exist (seconds run 0 to 59)")
    return dt.time(hour, minute, second)


def parse_clock(value: object, field: str = "time") -> dt.time:
    """A clock time from ``"HH:MM"`` or ``"HH:MM:SS"`` or a ``time`` (sub-seconds and zone
    dropped)."""
    if isinstance(value, dt.time):
        return value.replace(microsecond=0, tzinfo=None)
    match = _CLOCK_ONLY.fullmatch(_text(value, field, "a clock time 'HH:MM' or a datetime.time"))
    if match is None:
        raise InputError(field, f"{clip(value)} is not a clock time: write HH:MM, e.g. 10:30")
    return _clock(int(match[1]), int(match[2]), int(match[3] or 0), field)


def parse_moment_parts(
    value: object, field: str = "at"
) -> tuple[tuple[int, int, int], dt.time | None]:
    """A date and, if given, a clock time from ``"YYYY-MM-DD"``, ``"YYYY-MM-DDTHH:MM"``
    (a space also separates them), a ``date`` or a ``datetime``."""
    if isinstance(value, dt.datetime):
        return (value.year, value.month, value.day), value.time().replace(microsecond=0)
    if isinstance(value, dt.date):
        return (value.year, value.month, value.day), None
    match = _MOMENT.fullmatch(_text(value, field, "a date 'YYYY-MM-DD' or a datetime.date"))
    if match is None:
        raise InputError(
            field, f"{clip(value)} is not a date: write YYYY-MM-DD or YYYY-MM-DDTHH:MM"
        )
    day = int(match[1]), int(match[2]), int(match[3])
    if match[4] is None:
        return day, None
    return day, _clock(int(match[4]), int(match[5]), int(match[6] or 0), field)
