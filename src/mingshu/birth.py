"""A birth, one thing for both engines: the date, the clock time, the time zone and the
clocks a chart is drawn from.

A birth is a solar or lunar date, a birth hour (a clock time, or iztro's time index
0..12), a gender and, optionally, where the clock was read: an IANA time zone, the ``fold``
that picks one of two identical clock readings, and the longitude for true solar time.

Two clocks matter once the zone is known (docs/bazi-rules.md §1.1, §1.7):

* **Beijing time** (UTC+8, fixed): the solar-term moments of the calendar are in it, so the
  BaZi year and month pillars compare the *absolute* birth moment with them.
* **The chart clock** for the day and the hour: the local *standard* time (daylight saving
  removed), or apparent solar time at the birth longitude when true solar time is chosen.

Without a zone (Zi Wei only) the clock time is taken as given, as iztro does, and a notice
says so.  A clock reading the clocks skipped (1988-04-17 02:30 in Asia/Shanghai) is an
:class:`InputError` on ``time``; one that happened twice is read by ``fold`` (0 = the first,
daylight-time occurrence) with a notice.  Every choice made for the reader is a
:class:`Notice` on the birth.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from mingshu import calendar
from mingshu.calendar import BEIJING, FIRST_DATE, LAST_DATE, LunarDate
from mingshu.errors import InputError, OutOfRangeError
from mingshu.gender import Gender
from mingshu.inputs import parse_clock, parse_date_parts
from mingshu.named import clip

__all__ = [
    "Birth",
    "Moment",
    "Notice",
    "equation_of_time",
    "is_place_zone",
    "moment",
    "moment_of",
    "parse_flag",
    "parse_fold",
    "parse_longitude",
    "parse_time",
    "time_index_of_clock",
    "zone",
]

_BEIJING_OFFSET = dt.timedelta(hours=8)
_FAR_DEGREES = 30.0
"""A longitude further than this from its zone's meridian is probably a slip (a lost minus
sign): true solar time would move the clock by more than two hours."""


class Notice(NamedTuple):
    """Something the reader of a chart should know: an ambiguity or a choice made for them.

    ``code`` is one of ``clock_as_given`` (no time zone: the clock time is used as it is),
    ``daylight_saving`` (daylight saving removed from the clock time), ``ambiguous_time``
    (a clock time that happened twice; ``fold`` chose one), ``true_solar_time`` (the chart
    clock is solar time at the birth longitude), ``longitude_far`` (the longitude lies far
    from the zone's meridian), ``fixed_offset`` (a datetime with a fixed UTC offset: its
    clock taken as standard time), ``foreign_zone`` (a datetime in a pytz or dateutil zone
    that reports no daylight saving then), ``near_jie`` (BaZi: birth within a minute of a 节).
    ``field`` names the input the notice is about.
    """

    code: str
    field: str
    message: str


@dataclass(frozen=True, slots=True)
class Moment:
    """A checked civil birth time in an IANA zone and the clocks derived from it."""

    civil: dt.datetime
    """The time as entered: aware, in ``zone`` (``fold`` as chosen)."""
    zone: str
    beijing: dt.datetime
    """The same instant as naive Beijing civil time (UTC+8): compared with the 节 moments."""
    standard: dt.datetime
    """Naive local standard time (daylight saving removed)."""
    dst_minutes: int
    """Daylight saving in force at birth, in minutes (0 when none)."""
    longitude: float | None
    solar: dt.datetime | None
    """Naive solar time at ``longitude`` (apparent, or mean when the equation of time is off);
    ``None`` without a longitude."""
    longitude_minutes: float | None
    """Local mean time minus local standard time, in minutes ((λ − zone meridian) × 4)."""
    eot_minutes: float | None
    """Equation of time added (apparent − mean solar time), minutes; ``None`` when not used."""
    clock: dt.datetime
    """Naive chart clock for the day and the hour: ``solar`` with true solar time, else
    ``standard``."""
    clock_kind: str
    """``standard``, ``mean_solar`` or ``apparent_solar``."""
    notices: tuple[Notice, ...]


def time_index_of_clock(clock: dt.time) -> int:
    """iztro's time index for a clock time: 00:00–00:59 → 0, 01:00–02:59 → 1, …,
    21:00–22:59 → 11, 23:00–23:59 → 12 (the late Rat hour)."""
    return 12 if clock.hour == 23 else (clock.hour + 1) // 2


def parse_time(value: object, field: str = "time") -> tuple[int, dt.time | None]:
    """The time index of a birth hour given as a clock time (``"10:30"``, a ``time``) or as
    iztro's time index (an ``int`` 0..12); also the clock time when there is one."""
    if isinstance(value, bool):
        raise InputError(field, f"{clip(value)} is not a time")
    if isinstance(value, int):
        if not 0 <= value <= 12:
            raise InputError(
                field,
                f"time index {clip(value)} is out of range 0..12 (0 early Rat … 12 late Rat)",
            )
        return value, None
    if isinstance(value, dt.time) and value.tzinfo is not None:
        raise InputError(field, "give the clock time without a zone, and the zone as tz")
    clock = parse_clock(value, field)
    return time_index_of_clock(clock), clock


def parse_flag(value: object, field: str) -> bool:
    """A yes/no input: only ``True`` or ``False`` (the string ``"False"`` is not false)."""
    if not isinstance(value, bool):
        raise InputError(field, f"must be True or False, not {clip(value)}")
    return value


def parse_fold(value: object) -> int:
    """``fold``: 0 (the first of two identical clock readings) or 1 (the second)."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise InputError("fold", f"must be 0 (first occurrence) or 1 (second), not {clip(value)}")
    return value


# Files of the zone database that name no place: the machine's own zone, the "Factory"
# placeholder, and the posix/ and right/ copies (right/ zones count leap seconds).
_NOT_A_PLACE = frozenset({"localtime", "factory", "posixrules"})


def is_place_zone(name: str) -> bool:
    """False for the zone files that are no place's time (localtime, posixrules, Factory, and
    the posix/ and right/ copies)."""
    lower = name.lower()
    return lower not in _NOT_A_PLACE and not lower.startswith(("posix/", "right/"))


@lru_cache(maxsize=256)
def _zone(name: str) -> ZoneInfo:
    if not is_place_zone(name):
        raise InputError(
            "tz", f"{clip(name)} is not the IANA zone of a place (use a name such as Asia/Shanghai)"
        )
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, TypeError, OSError):
        raise InputError(
            "tz", f"unknown time zone {clip(name)} (use an IANA name such as Asia/Shanghai)"
        ) from None


def zone(name: object) -> ZoneInfo:
    """The IANA time zone ``name`` (``"Asia/Shanghai"`` or a ``ZoneInfo``); :class:`InputError`
    on ``tz`` if unknown.  Fixed-offset zones (``datetime.timezone``) are refused: they know
    nothing of daylight saving, so they would silently change a DST birth."""
    if isinstance(name, ZoneInfo):
        return name
    if not isinstance(name, str):
        raise InputError("tz", f"give an IANA zone name such as Asia/Shanghai, not {clip(name)}")
    if not name.strip() or len(name) > 64:
        raise InputError("tz", f"unknown time zone {clip(name)}")
    return _zone(name.strip())


def parse_longitude(value: object, field: str = "longitude") -> float | None:
    """Degrees east, −180 … 180 (west negative); ``None`` passes through."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InputError(field, f"{clip(value)} is not a number of degrees")
    if isinstance(value, str) and "_" in value:  # float() would read "1_16" as 116
        raise InputError(field, f"{clip(value)} is not a number of degrees")
    try:
        degrees = float(value)
    except ValueError:
        raise InputError(field, f"{clip(value)} is not a number of degrees") from None
    if not math.isfinite(degrees) or not -180.0 <= degrees <= 180.0:
        raise InputError(
            field, f"{clip(value)} is out of range (degrees east, −180 to 180; west is negative)"
        )
    return degrees


def equation_of_time(utc: dt.datetime) -> float:
    """Apparent minus mean solar time, in minutes, at the naive UTC moment ``utc``.

    Spencer (1971) series as published by NOAA ("General Solar Position Calculations",
    NOAA Global Monitoring Division): γ = 2π/N · (day of year − 1 + (hour − 12)/24), N = 365
    or 366; EoT = 229.18 (0.000075 + 0.001868 cos γ − 0.032077 sin γ − 0.014615 cos 2γ −
    0.040849 sin 2γ).  Accurate to about half a minute; lunar-python and tyme4py offer no
    equation of time to mirror (docs/bazi-rules.md §1.7).  An aware ``utc`` is converted to
    UTC first.
    """
    if not isinstance(utc, dt.datetime):
        raise InputError("utc", f"give a datetime, not {clip(utc)}")
    if utc.tzinfo is not None:
        utc = utc.astimezone(dt.UTC).replace(tzinfo=None)
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


def _check_beijing(instant: dt.datetime) -> None:
    if not FIRST_DATE <= instant.date() <= LAST_DATE:
        raise OutOfRangeError(
            "date",
            f"{instant:%Y-%m-%d %H:%M} Beijing time is outside the supported range "
            f"{FIRST_DATE} .. {LAST_DATE}",
        )


def _fmt_offset(offset: dt.timedelta | None) -> str:
    minutes = int((offset or dt.timedelta()).total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def moment(
    day: dt.date,
    clock: dt.time,
    tz: object,
    *,
    longitude: object = None,
    fold: object = 0,
    true_solar_time: bool = False,
    equation_of_time_on: bool = True,
) -> Moment:
    """Check a civil birth time (a checked date and clock time) in zone ``tz`` and derive
    its clocks (see the module docstring)."""
    z = zone(tz)
    lon = parse_longitude(longitude)
    f = parse_fold(fold)
    if true_solar_time and lon is None:
        raise InputError("longitude", "true solar time needs the birth longitude")

    naive = dt.datetime.combine(day, clock)
    civil = naive.replace(tzinfo=z, fold=f)
    offset = civil.utcoffset() or dt.timedelta()
    notices: list[Notice] = []
    name = z.key
    other = naive.replace(tzinfo=z, fold=1 - f).utcoffset()
    if other != offset:
        # Only near a transition do the two folds disagree: a skipped or a repeated time.
        round_trip = civil.astimezone(dt.UTC).astimezone(z).replace(tzinfo=None)
        if round_trip != naive:
            raise InputError(
                "time",
                f"{naive:%Y-%m-%d %H:%M} does not exist in {name}: the clocks skipped it "
                "(daylight saving time began)",
            )
        first = max(offset, other or dt.timedelta())  # the earlier instant: larger offset
        second = min(offset, other or dt.timedelta())
        notices.append(
            Notice(
                "ambiguous_time",
                "time",
                f"{naive:%Y-%m-%d %H:%M} happened twice in {name} (daylight saving time "
                f"ended): read as the {'first' if f == 0 else 'second'} occurrence "
                f"({_fmt_offset(first if f == 0 else second)}); pass fold={1 - f} for the other",
            )
        )
    utc = naive - offset

    beijing = utc + _BEIJING_OFFSET
    _check_beijing(beijing)
    dst = civil.dst() or dt.timedelta()
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

    solar: dt.datetime | None = None
    lon_minutes: float | None = None
    eot: float | None = None
    chart_clock, kind = standard, "standard"
    if lon is not None:
        std_offset_min = (offset - dst).total_seconds() / 60
        lon_minutes = lon * 4 - std_offset_min
        if abs(lon_minutes) > _FAR_DEGREES * 4:
            notices.append(
                Notice(
                    "longitude_far",
                    "longitude",
                    f"{lon:g}° lies {abs(lon_minutes) / 4:.0f}° from the meridian of {name} "
                    f"({std_offset_min / 4:g}°): solar time differs from the clock by "
                    f"{abs(lon_minutes) / 60:.1f} hours; check the sign (east is positive)",
                )
            )
        shift = lon * 4
        if equation_of_time_on:
            eot = equation_of_time(utc)
            shift += eot
        solar = utc + dt.timedelta(seconds=round(shift * 60))
        if true_solar_time:
            chart_clock = solar
            kind = "apparent_solar" if equation_of_time_on else "mean_solar"
            notices.append(
                Notice(
                    "true_solar_time",
                    "longitude",
                    f"the chart uses {'apparent' if equation_of_time_on else 'mean'} solar "
                    f"time {solar:%Y-%m-%d %H:%M} at {lon:g}° (clock {standard:%H:%M} "
                    "standard time)",
                )
            )
    return Moment(
        civil=civil,
        zone=name,
        beijing=beijing,
        standard=standard,
        dst_minutes=dst_minutes,
        longitude=lon,
        solar=solar,
        longitude_minutes=lon_minutes,
        eot_minutes=eot,
        clock=chart_clock,
        clock_kind=kind,
        notices=tuple(notices),
    )


def moment_of(
    instant: object,
    *,
    longitude: object = None,
    true_solar_time: bool = False,
    equation_of_time_on: bool = True,
    field: str = "moment",
) -> Moment:
    """A birth moment given as a ``datetime``, never stripped of its zone.

    * naive: Beijing civil time (the clock lunar-python works in);
    * aware in an IANA zone (``ZoneInfo``): exactly ``moment(date, time, zone, fold=…)``:
      daylight saving removed, a skipped clock time an error;
    * aware with a fixed UTC offset (``datetime.timezone``): that offset's clock, taken as
      standard time, with a notice (a fixed offset carries no daylight-saving rules);
    * aware in another library's zone (pytz, dateutil): the daylight saving that zone
      reports for the moment is removed (``daylight_saving`` notice), or, when it reports
      none, the clock is standard time (``foreign_zone`` notice).
    """
    if not isinstance(instant, dt.datetime):
        raise InputError(field, f"give a datetime, not {clip(instant)}")
    instant = instant.replace(microsecond=0)
    if isinstance(instant.tzinfo, ZoneInfo):
        return moment(
            instant.date(),
            instant.time(),
            instant.tzinfo,
            longitude=longitude,
            fold=instant.fold,
            true_solar_time=true_solar_time,
            equation_of_time_on=equation_of_time_on,
        )
    offset = instant.utcoffset() if instant.tzinfo is not None else None
    if offset is None:
        if longitude is not None or true_solar_time:
            raise InputError("longitude", "true solar time needs a datetime in an IANA zone")
        _check_beijing(instant)
        naive = instant
        return Moment(
            naive.replace(tzinfo=BEIJING),
            "UTC+08:00",
            naive,
            naive,
            0,
            None,
            None,
            None,
            None,
            naive,
            "standard",
            (),
        )
    if longitude is not None or true_solar_time:
        raise InputError("longitude", "true solar time needs a datetime in an IANA zone")
    wall = instant.replace(tzinfo=None)
    beijing = (instant.astimezone(BEIJING)).replace(tzinfo=None)
    _check_beijing(beijing)
    if isinstance(instant.tzinfo, dt.timezone):
        name, dst, standard = _fmt_offset(offset), dt.timedelta(), wall
        note = Notice(
            "fixed_offset",
            "moment",
            f"{name} is a fixed offset with no daylight-saving rules: the clock time "
            f"{wall:%H:%M} is taken as standard time (give an IANA zone to remove DST)",
        )
    else:
        # Another library's zone (pytz, dateutil …): it knows its daylight saving, so remove
        # the DST it reports, as moment() does for an IANA zone, rather than keep the hour.
        tz = instant.tzinfo
        name = str(getattr(tz, "key", None) or getattr(tz, "zone", None) or instant.tzname())
        dst = instant.dst() or dt.timedelta()
        standard = wall - dst
        note = Notice(
            "daylight_saving" if dst else "foreign_zone",
            "moment",
            f"{wall:%H:%M} was daylight saving time ({_fmt_offset(offset)} in {name}); the "
            f"standard time {standard:%H:%M} is used"
            if dst
            else f"{wall:%H:%M} in {name} ({_fmt_offset(offset)}, not a zoneinfo zone): "
            "its zone reports no daylight saving then, so the clock time is standard time",
        )
    return Moment(
        instant,
        name,
        beijing,
        standard,
        int(dst.total_seconds() // 60),
        None,
        None,
        None,
        None,
        standard,
        "standard",
        (note,),
    )


@lru_cache(maxsize=1440)
def _clock_as_given(clock: dt.time) -> tuple[Notice]:
    """The notice of a clock time taken as given, made once a minute of the day (the same
    words for every birth at that minute)."""
    return (
        Notice(
            "clock_as_given",
            "tz",
            f"no time zone given: the clock time {clock:%H:%M} is used as it is "
            "(no daylight saving removed, no true solar time)",
        ),
    )


@dataclass(frozen=True, slots=True)
class Birth:
    """A checked birth, as both engines read it.

    ``solar_date`` and ``time_index`` are the day and hour the chart is drawn for: with a
    time zone they come from the chart clock (daylight saving removed, or solar time), else
    from the clock time as given.  ``clock_time`` is that clock time (``None`` when the hour
    was given as a time index); ``lunar_input`` the lunar date as entered; ``moment`` the
    zone's clocks when a zone was given; ``notices`` every choice made for the reader.
    """

    solar_date: dt.date
    time_index: int
    gender: Gender
    clock_time: dt.time | None = None
    lunar_input: LunarDate | None = None
    moment: Moment | None = None
    notices: tuple[Notice, ...] = ()

    def __post_init__(self) -> None:
        # A Birth built by hand is checked like one built by solar()/lunar().
        if not isinstance(self.solar_date, dt.date) or isinstance(self.solar_date, dt.datetime):
            raise InputError("date", f"give a datetime.date, not {clip(self.solar_date)}")
        if not FIRST_DATE <= self.solar_date <= LAST_DATE:
            d = self.solar_date
            calendar.check_solar_date(d.year, d.month, d.day)  # raises OutOfRangeError
        if (
            isinstance(self.time_index, bool)
            or not isinstance(self.time_index, int)
            or not 0 <= self.time_index <= 12
        ):
            raise InputError("time", f"time index {clip(self.time_index)} is out of range 0..12")
        if not isinstance(self.gender, Gender):
            object.__setattr__(self, "gender", Gender.parse(self.gender))
        clock = self.clock_time
        if clock is not None:
            if not isinstance(clock, dt.time):
                raise InputError("time", f"clock_time must be a datetime.time, not {clip(clock)}")
            if time_index_of_clock(clock) != self.time_index:
                raise InputError(
                    "time",
                    f"clock time {clock:%H:%M} is time index {time_index_of_clock(clock)}, "
                    f"not {self.time_index}",
                )
        if self.lunar_input is not None and not isinstance(self.lunar_input, LunarDate):
            raise InputError(
                "lunar_input", f"give a LunarDate or None, not {clip(self.lunar_input)}"
            )
        if self.moment is not None and not isinstance(self.moment, Moment):
            raise InputError("moment", f"give a Moment or None, not {clip(self.moment)}")
        notices = self.notices
        if type(notices) is not tuple or not all(type(n) is Notice for n in notices):
            raise InputError("notices", f"give a tuple of Notice, not {clip(notices)}")

    @classmethod
    def solar(
        cls,
        date: object,
        time: object,
        gender: object,
        *,
        tz: object = None,
        longitude: object = None,
        fold: object = 0,
        true_solar_time: bool = False,
        equation_of_time: bool = True,
    ) -> Birth:
        """A birth given by its solar (Gregorian) date; see :func:`moment` for the zone."""
        return cls._solar(
            date, time, gender, tz, longitude, fold, true_solar_time, equation_of_time
        )

    @classmethod
    def lunar(
        cls,
        date: object,
        time: object,
        gender: object,
        *,
        leap: object = False,
        tz: object = None,
        longitude: object = None,
        fold: object = 0,
        true_solar_time: bool = False,
        equation_of_time: bool = True,
    ) -> Birth:
        """A birth given by its lunar date; ``leap`` marks a day of the leap month.

        A leap flag on a month that is not leap that year is an error (iztro ignores it).
        """
        is_leap = parse_flag(leap, "leap")
        year, month, day = parse_date_parts(date)
        solar_date = calendar.lunar_to_solar(year, month, day, is_leap)
        lunar = LunarDate(year, month, day, is_leap)
        return cls._build(
            solar_date, time, gender, lunar, tz, longitude, fold, true_solar_time, equation_of_time
        )

    @classmethod
    def of(
        cls,
        date: object,
        time: object,
        gender: object,
        *,
        lunar: object = False,
        leap: object = False,
        tz: object = None,
        longitude: object = None,
        fold: object = 0,
        true_solar_time: bool = False,
        equation_of_time: bool = True,
    ) -> Birth:
        """The birth as both engines' ``chart(...)`` take it: a solar date, or a lunar one with
        ``lunar=True`` (``leap=True`` for the leap month; ``leap`` alone is an error)."""
        if parse_flag(lunar, "lunar"):
            return cls.lunar(
                date,
                time,
                gender,
                leap=leap,
                tz=tz,
                longitude=longitude,
                fold=fold,
                true_solar_time=true_solar_time,
                equation_of_time=equation_of_time,
            )
        if parse_flag(leap, "leap"):
            raise InputError("leap", "leap marks a lunar date: pass lunar=True too")
        # Positional: every chart of a batch comes through here.
        return cls._solar(
            date, time, gender, tz, longitude, fold, true_solar_time, equation_of_time
        )

    @classmethod
    def _solar(
        cls,
        date: object,
        time: object,
        gender: object,
        tz: object,
        longitude: object,
        fold: object,
        true_solar_time: object,
        equation_of_time: object,
    ) -> Birth:
        solar_date = calendar.check_solar_date(*parse_date_parts(date))
        return cls._build(
            solar_date, time, gender, None, tz, longitude, fold, true_solar_time, equation_of_time
        )

    @classmethod
    def _build(
        cls,
        solar_date: dt.date,
        time: object,
        gender: object,
        lunar: LunarDate | None,
        tz: object,
        longitude: object,
        fold: object,
        true_solar_time: object,
        equation_of_time: object,
    ) -> Birth:
        index, clock = parse_time(time)
        sex = Gender.parse(gender)
        solar_on = parse_flag(true_solar_time, "true_solar_time")
        eot_on = parse_flag(equation_of_time, "equation_of_time")
        f = parse_fold(fold)
        if tz is None:
            if longitude is not None or solar_on:
                raise InputError("tz", "true solar time and longitude need the time zone (tz)")
            if f:
                raise InputError(
                    "fold",
                    "fold=1 picks the second of a clock time that happened twice when daylight "
                    "saving ended: it needs the time zone (tz)",
                )
            notices = () if clock is None else _clock_as_given(clock)
            return cls(solar_date, index, sex, clock, lunar, None, notices)
        if clock is None:
            raise InputError("time", "a time zone needs a clock time (HH:MM), not a time index")
        m = moment(
            solar_date,
            clock,
            tz,
            longitude=longitude,
            fold=f,
            true_solar_time=solar_on,
            equation_of_time_on=eot_on,
        )
        return cls.from_moment(m, sex, lunar)

    @classmethod
    def from_moment(cls, m: Moment, gender: object, lunar: LunarDate | None = None) -> Birth:
        """The birth whose day and hour are those of the moment's chart clock."""
        if not isinstance(m, Moment):
            raise InputError("moment", f"give a Moment, not {clip(m)}")
        day = calendar.check_solar_date(m.clock.year, m.clock.month, m.clock.day)
        chart_clock = m.clock.time()
        return cls(
            day,
            time_index_of_clock(chart_clock),
            Gender.parse(gender),
            chart_clock,
            lunar,
            m,
            m.notices,
        )
