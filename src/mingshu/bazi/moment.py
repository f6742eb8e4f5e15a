"""The birth moment: civil date and time in an IANA zone → the clocks a BaZi chart needs.

Two clocks matter (spec §1.1, §1.7):

* **Beijing time** (UTC+8, fixed, no daylight saving): the solar-term moments of the calendar
  are in it, so the year and month pillars (and the luck start) compare the *absolute* birth
  moment with them, wherever the birth took place.
* **The pillar clock** for the day and hour pillars: the local *standard* time of the birth
  zone (the clock time with any daylight saving removed; for births in China this is Beijing
  time, the same clock lunar-python uses), or, with ``Settings.true_solar_time``, apparent
  solar time at the birth longitude.  This is policy (i) of spec §1.7: the corrected time
  moves only the day and hour pillars; year and month stay with the absolute moment.

Local times that a daylight-saving change skipped (e.g. 1988-04-17 02:30 in Asia/Shanghai)
raise :class:`InputError` on ``time``: a clock reading that never happened is a recording
error, and guessing would silently shift the hour pillar.  Local times that happened twice
(the hour repeated when DST ended) are read with ``fold`` (0 = the first, daylight-time
occurrence, the default) and flagged with a notice.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from mingshu.bazi.common import Notice
from mingshu.bazi.settings import DEFAULT, Settings
from mingshu.calendar import BEIJING, FIRST_DATE, LAST_DATE, check_solar_date
from mingshu.errors import InputError, OutOfRangeError
from mingshu.inputs import parse_clock, parse_date_parts

__all__ = [
    "Birth",
    "birth",
    "birth_from_beijing",
    "equation_of_time",
    "parse_date",
    "parse_longitude",
    "parse_time",
    "zone",
]

_BEIJING_OFFSET = timedelta(hours=8)


class Birth(NamedTuple):
    """A checked birth moment and the clocks derived from it."""

    civil: datetime
    """The time as entered: aware, in ``zone`` (``fold`` as chosen)."""
    zone: str
    beijing: datetime
    """The same instant as naive Beijing civil time (UTC+8): compared with the 节 moments."""
    standard: datetime
    """Naive local standard time (daylight saving removed)."""
    dst_minutes: int
    """Daylight saving in force at birth, in minutes (0 when none)."""
    longitude: float | None
    solar: datetime | None
    """Naive solar time at ``longitude`` (apparent, or mean when the equation of time is off);
    ``None`` without a longitude."""
    longitude_minutes: float | None
    """Local mean time minus local standard time, in minutes ((λ − zone meridian) × 4)."""
    eot_minutes: float | None
    """Equation of time added (apparent − mean solar time), minutes; ``None`` when not used."""
    clock: datetime
    """Naive clock of the day and hour pillars: ``solar`` with true solar time, else
    ``standard``."""
    clock_kind: str
    """``standard``, ``mean_solar`` or ``apparent_solar``."""
    notices: tuple[Notice, ...]


def parse_date(value: str | date, field: str = "date") -> date:
    """A checked civil date from ``YYYY-MM-DD`` text or a ``date``.

    Range 1900-01-31 .. 2100-12-31 (:class:`OutOfRangeError` outside it)."""
    return check_solar_date(*parse_date_parts(value, field), field)


def parse_time(value: str | time, field: str = "time") -> time:
    """A clock time from ``HH:MM`` or ``HH:MM:SS`` text or a ``time`` (sub-seconds dropped)."""
    return parse_clock(value, field)


@lru_cache(maxsize=256)
def zone(name: str) -> ZoneInfo:
    """The IANA time zone ``name`` (``Asia/Shanghai``); :class:`InputError` on ``tz`` if unknown."""
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise InputError(
            "tz", f"unknown time zone {name!r} (use an IANA name such as Asia/Shanghai)"
        ) from None


def parse_longitude(value: float | str | None, field: str = "longitude") -> float | None:
    """Degrees east, −180 … 180 (west negative); ``None`` passes through."""
    if value is None:
        return None
    try:
        degrees = float(value)
    except (TypeError, ValueError):
        raise InputError(field, f"{value!r} is not a number of degrees") from None
    if not math.isfinite(degrees) or not -180.0 <= degrees <= 180.0:
        raise InputError(
            field, f"{value} is out of range (degrees east, −180 to 180; west is negative)"
        )
    return degrees


def equation_of_time(utc: datetime) -> float:
    """Apparent minus mean solar time, in minutes, at the naive UTC moment ``utc``.

    Spencer (1971) series as published by NOAA ("General Solar Position Calculations",
    NOAA Global Monitoring Division): γ = 2π/N · (day of year − 1 + (hour − 12)/24), N = 365
    or 366; EoT = 229.18 (0.000075 + 0.001868 cos γ − 0.032077 sin γ − 0.014615 cos 2γ −
    0.040849 sin 2γ).  Accurate to about half a minute; lunar-python and tyme4py offer no
    equation of time to mirror (spec §1.7).
    """
    year_days = 366 if utc.year % 4 == 0 and (utc.year % 100 or utc.year % 400 == 0) else 365
    hours = utc.hour + utc.minute / 60 + utc.second / 3600
    g = 2 * math.pi / year_days * (utc.timetuple().tm_yday - 1 + (hours - 12) / 24)
    return 229.18 * (
        0.000075
        + 0.001868 * math.cos(g)
        - 0.032077 * math.sin(g)
        - 0.014615 * math.cos(2 * g)
        - 0.040849 * math.sin(2 * g)
    )


def _check_beijing(moment: datetime) -> None:
    if not FIRST_DATE <= moment.date() <= LAST_DATE:
        raise OutOfRangeError(
            "date",
            f"{moment:%Y-%m-%d %H:%M} Beijing time is outside the supported range "
            f"{FIRST_DATE} .. {LAST_DATE}",
        )


def _fmt_offset(offset: timedelta | None) -> str:
    minutes = int((offset or timedelta()).total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def birth(
    birth_date: str | date,
    birth_time: str | time,
    tz: str = "Asia/Shanghai",
    longitude: float | str | None = None,
    settings: Settings = DEFAULT,
    fold: int = 0,
) -> Birth:
    """Check a civil birth time and derive its clocks (see the module docstring)."""
    d = parse_date(birth_date)
    t = parse_time(birth_time)
    z = zone(tz)
    lon = parse_longitude(longitude)
    if fold not in (0, 1):
        raise InputError("fold", f"must be 0 (first occurrence) or 1 (second), not {fold!r}")
    if settings.true_solar_time and lon is None:
        raise InputError("longitude", "true solar time needs the birth longitude")

    naive = datetime.combine(d, t)
    civil = naive.replace(tzinfo=z, fold=fold)
    offset = civil.utcoffset() or timedelta()
    notices: list[Notice] = []
    name = str(tz)
    other = naive.replace(tzinfo=z, fold=1 - fold).utcoffset()
    if other != offset:
        # Only near a transition do the two folds disagree: a skipped or a repeated time.
        round_trip = civil.astimezone(UTC).astimezone(z).replace(tzinfo=None)
        if round_trip != naive:
            raise InputError(
                "time",
                f"{naive:%Y-%m-%d %H:%M} does not exist in {name}: the clocks skipped it "
                "(daylight saving time began)",
            )
        first = max(offset, other or timedelta())  # the earlier instant has the larger offset
        second = min(offset, other or timedelta())
        notices.append(
            Notice(
                "ambiguous_time",
                "time",
                f"{naive:%Y-%m-%d %H:%M} happened twice in {name} (daylight saving time "
                f"ended): read as the {'first' if fold == 0 else 'second'} occurrence "
                f"({_fmt_offset(first if fold == 0 else second)}); "
                f"pass fold={1 - fold} for the other",
            )
        )
    utc = naive - offset

    beijing = utc + _BEIJING_OFFSET
    _check_beijing(beijing)
    dst = civil.dst() or timedelta()
    standard = naive - dst
    dst_minutes = int(dst.total_seconds() // 60)
    if dst_minutes:
        notices.append(
            Notice(
                "daylight_saving",
                "time",
                f"{naive:%H:%M} was daylight saving time ({_fmt_offset(civil.utcoffset())}); "
                f"the standard time {standard:%H:%M} is used",
            )
        )

    solar: datetime | None = None
    lon_minutes: float | None = None
    eot: float | None = None
    clock, kind = standard, "standard"
    if lon is not None:
        std_offset_min = (offset - dst).total_seconds() / 60
        lon_minutes = lon * 4 - std_offset_min
        shift = lon * 4
        if settings.equation_of_time:
            eot = equation_of_time(utc)
            shift += eot
        solar = utc + timedelta(seconds=round(shift * 60))
        if settings.true_solar_time:
            clock = solar
            kind = "apparent_solar" if settings.equation_of_time else "mean_solar"
    return Birth(
        civil=civil,
        zone=name,
        beijing=beijing,
        standard=standard,
        dst_minutes=dst_minutes,
        longitude=lon,
        solar=solar,
        longitude_minutes=lon_minutes,
        eot_minutes=eot,
        clock=clock,
        clock_kind=kind,
        notices=tuple(notices),
    )


def birth_from_beijing(moment: datetime) -> Birth:
    """A birth given directly as naive Beijing time (the clock lunar-python works in)."""
    moment = moment.replace(microsecond=0, tzinfo=None)
    _check_beijing(moment)
    return Birth(
        civil=moment.replace(tzinfo=BEIJING),
        zone="UTC+08:00",
        beijing=moment,
        standard=moment,
        dst_minutes=0,
        longitude=None,
        solar=None,
        longitude_minutes=None,
        eot_minutes=None,
        clock=moment,
        clock_kind="standard",
        notices=(),
    )
