"""八字反查: every stretch of time whose four pillars are the given ones.

The pillars are the clock's (Beijing civil time, as :func:`mingshu.bazi.four_pillars` reads
them): the year and month change at the exact 节 moments, the day and hour follow the clock
and the late-Rat setting.  A set of four pillars comes back about once in sixty years, for one
double hour (two when the 子 hour straddles midnight), cut short where a 节 falls inside it.

Only the 节 windows whose year and month pillars match are visited (one in 720), and in each
the days and double hours are tried one by one, so a search of the whole calendar range takes
milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import NamedTuple

from mingshu.arguments import check_type
from mingshu.bazi.pillars import jie_index, pillars_at
from mingshu.bazi.settings import DEFAULT, BaziSettings
from mingshu.calendar import FIRST_DATE, LAST_DATE, SolarTerm
from mingshu.cycles import FourPillars, Pillar
from mingshu.errors import InputError, OutOfRangeError
from mingshu.named import clip

__all__ = ["MomentRange", "moments_of", "parse_pillars", "year_bound"]

_DAY = 86400
# The double hours as the clock cuts them: 子 is split by midnight into 00:00–01:00 and
# 23:00–24:00, which may belong to different days' pillars under the late-Rat settings.
_BLOCKS = ((0, 1), *((h, h + 2) for h in range(1, 23, 2)), (23, 24))


class MomentRange(NamedTuple):
    """A stretch of Beijing civil time with one set of four pillars: ``start`` inclusive,
    ``end`` exclusive, both naive.  ``start_term`` / ``end_term`` name the 节 when the
    stretch begins or ends at one (to the second) instead of at a double-hour boundary."""

    start: datetime
    end: datetime
    start_term: SolarTerm | None = None
    end_term: SolarTerm | None = None

    def __str__(self) -> str:
        last = self.end - timedelta(seconds=1)
        return f"{self.start:%Y-%m-%d %H:%M:%S} – {last:%Y-%m-%d %H:%M:%S}"


def parse_pillars(value: object, field: str = "pillars") -> FourPillars:
    """Four pillars from a :class:`FourPillars`, a string ``"庚辰 甲申 丙午 庚寅"`` (spaces or
    none between them) or a sequence of four pillars or two-character strings."""
    if isinstance(value, FourPillars):
        return value
    if isinstance(value, str):
        text = "".join(value.split())
        if len(text) != 8:
            raise InputError(
                field,
                f"{clip(value)} is not four pillars: write eight characters, 庚辰 甲申 丙午 庚寅",
            )
        parts: Sequence[object] = [text[i : i + 2] for i in range(0, 8, 2)]
    elif isinstance(value, Sequence) and not isinstance(value, bytes | bytearray):
        parts = value
    else:
        raise InputError(
            field, f"expected four pillars such as '庚辰 甲申 丙午 庚寅', got {clip(value)}"
        )
    if len(parts) != 4:
        raise InputError(field, f"expected four pillars (year, month, day, hour), got {len(parts)}")
    names = ("year", "month", "day", "hour")
    year, month, day, hour = (
        Pillar.parse(p, f"{field}.{name}") for p, name in zip(parts, names, strict=True)
    )
    return FourPillars(year, month, day, hour)


def moments_of(
    pillars: object,
    settings: BaziSettings = DEFAULT,
    *,
    start: date | None = None,
    end: date | None = None,
) -> tuple[MomentRange, ...]:
    """Every stretch of time from ``start`` to ``end`` (civil dates, inclusive; default the
    whole supported range) whose four pillars are ``pillars``, in time order.

    The day and hour pillars of 23:00–23:59 follow ``settings.late_rat_hour``; nothing else
    in ``settings`` moves a pillar.  A month pillar whose stem does not follow its year's
    (五虎遁) or an hour pillar that no day's 五鼠遁 gives simply has no moments.
    """
    wanted = parse_pillars(pillars)
    check_type(settings, BaziSettings, "settings", "BaziSettings")
    first = _checked_date(start, "start", FIRST_DATE)
    last = _checked_date(end, "end", LAST_DATE)
    if first > last:
        raise InputError("end", f"{last} is before the start {first}")
    low = first.toordinal() * _DAY
    high = (last.toordinal() + 1) * _DAY
    index = jie_index()
    found: list[MomentRange] = []
    for k in range(len(index.seconds) - 1):
        if index.year_pillars[k] != wanted.year or index.month_pillars[k] != wanted.month:
            continue
        window = (max(index.seconds[k], low), min(index.seconds[k + 1], high))
        if window[0] >= window[1]:
            continue
        for a, b in _matching_blocks(window, wanted, settings):
            found.append(
                MomentRange(
                    _moment(a),
                    _moment(b),
                    index.terms[k] if a == index.seconds[k] else None,
                    index.terms[k + 1] if b == index.seconds[k + 1] else None,
                )
            )
    return tuple(_merged(found))


def _matching_blocks(
    window: tuple[int, int], wanted: FourPillars, settings: BaziSettings
) -> list[tuple[int, int]]:
    """The parts of ``window`` (seconds) whose day and hour pillars are ``wanted``'s."""
    out: list[tuple[int, int]] = []
    for ordinal in range(window[0] // _DAY, (window[1] - 1) // _DAY + 1):
        for h0, h1 in _BLOCKS:
            a = max(ordinal * _DAY + h0 * 3600, window[0])
            b = min(ordinal * _DAY + h1 * 3600, window[1])
            if a >= b:
                continue
            clock = datetime.fromordinal(ordinal).replace(hour=h0)
            got, _ = pillars_at(a, clock, settings.late_rat_hour)
            if got.day == wanted.day and got.hour == wanted.hour:
                out.append((a, b))
    return out


def _merged(ranges: list[MomentRange]) -> list[MomentRange]:
    """Touching stretches as one (23:00–24:00 and 00:00–01:00 of one 子 hour)."""
    out: list[MomentRange] = []
    for r in ranges:
        if out and out[-1].end == r.start:
            out[-1] = out[-1]._replace(end=r.end, end_term=r.end_term)
        else:
            out.append(r)
    return out


def _moment(seconds: int) -> datetime:
    days, rest = divmod(seconds, _DAY)
    return datetime.fromordinal(days) + timedelta(seconds=rest)


def year_bound(year: int | None, field: str, *, first: bool) -> date:
    """The first (``first``) or last day of ``year`` within the calendar's range, a search's
    ``start`` or ``end`` (None: the range's own end); :class:`OutOfRangeError` naming
    ``field`` for a year outside it."""
    if year is None:
        return FIRST_DATE if first else LAST_DATE
    if not FIRST_DATE.year <= year <= LAST_DATE.year:
        raise OutOfRangeError(
            field, f"year {year} is outside the supported range {FIRST_DATE} .. {LAST_DATE}"
        )
    day = date(year, 1, 1) if first else date(year, 12, 31)
    return min(max(day, FIRST_DATE), LAST_DATE)


def _checked_date(value: date | None, field: str, default: date) -> date:
    if value is None:
        return default
    if isinstance(value, datetime) or not isinstance(value, date):
        raise InputError(field, f"expected a date, got {clip(value)}")
    if not FIRST_DATE <= value <= LAST_DATE:
        raise OutOfRangeError(
            field, f"{value} is outside the supported range {FIRST_DATE} .. {LAST_DATE}"
        )
    return value
