"""The supported range of the calendar tables and the checks every solar input goes through."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from mingshu.errors import InputError, OutOfRangeError

__all__ = [
    "BEIJING",
    "FIRST_DATE",
    "LAST_DATE",
    "RANGE_TEXT",
    "beijing_naive",
    "check_ordinal",
    "check_solar_date",
]

FIRST_DATE = date(1583, 1, 1)
"""First supported solar date: the first day of the first whole Gregorian year (lunar 1582
十二月初八; the tables start at 正月初一 of lunar 1582 and the solar terms in 1581)."""
LAST_DATE = date(2650, 12, 31)
"""Last supported solar date (lunar 2650 冬月十七; the solar terms run on to 2651).  JPL DE440,
the ephemeris the terms are checked against, ends on 2650-01-25."""

FIRST_ORDINAL = FIRST_DATE.toordinal()
LAST_ORDINAL = LAST_DATE.toordinal()
RANGE_TEXT = f"{FIRST_DATE.isoformat()} .. {LAST_DATE.isoformat()}"

BEIJING = timezone(timedelta(hours=8), "UTC+08:00")
"""Civil time of the solar-term tables (lunar-python computes in Beijing time)."""


# English month names for messages (calendar.month_name would follow the process locale).
_MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _days_in_month(year: int, month: int) -> int:
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else _MONTH_DAYS[month - 1]


def _out_of_range(text: str, field: str) -> OutOfRangeError:
    return OutOfRangeError(field, f"{text} is outside the supported range {RANGE_TEXT}")


def check_solar_date(year: int, month: int, day: int, field: str = "date") -> date:
    """The Gregorian date ``year-month-day``, after checking that it exists and is in range.

    Raises :class:`InputError` for an impossible date (``2030-02-30``, month 13) and
    :class:`OutOfRangeError` outside :data:`FIRST_DATE` .. :data:`LAST_DATE`.
    """
    if (
        1 <= month <= 12
        and 1 <= day <= _days_in_month(year, month)
        and FIRST_DATE.year <= year <= LAST_DATE.year
        and FIRST_ORDINAL <= (d := date(year, month, day)).toordinal() <= LAST_ORDINAL
    ):
        return d
    # Only a bad date gets here: its text is written for the error alone.
    text = f"{year:04d}-{month:02d}-{day:02d}"
    if not 1 <= month <= 12:
        raise InputError(field, f"{text} does not exist (months run 1 to 12)")
    days = _days_in_month(year, month)
    if not 1 <= day <= days:
        month_name = _MONTH_NAMES[month - 1]
        raise InputError(field, f"{text} does not exist ({month_name} {year} has {days} days)")
    raise _out_of_range(text, field)


def check_ordinal(ordinal: int, field: str = "date") -> int:
    """``ordinal`` (``date.toordinal()``) unchanged if it lies in the supported range."""
    if FIRST_ORDINAL <= ordinal <= LAST_ORDINAL:
        return ordinal
    text = date.fromordinal(ordinal).isoformat() if ordinal >= 1 else f"day ordinal {ordinal}"
    raise _out_of_range(text, field)


def beijing_naive(moment: datetime, field: str = "date") -> datetime:
    """``moment`` as a naive Beijing-time datetime, checked against the supported range.

    A naive datetime is taken to be Beijing civil time already; an aware one is converted.
    """
    if moment.tzinfo is not None and moment.utcoffset() is not None:
        moment = moment.astimezone(BEIJING).replace(tzinfo=None)
    if not FIRST_ORDINAL <= moment.toordinal() <= LAST_ORDINAL:
        raise _out_of_range(moment.isoformat(sep=" "), field)
    return moment
