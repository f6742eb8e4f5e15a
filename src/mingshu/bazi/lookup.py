"""Reverse look-up (八字反查): every stretch of time whose four pillars are the given ones.

A year pillar and a month pillar together recur once in sixty years, so only a few solar
months of the whole calendar range can hold a pillar set.  Each is cut at midnight and at the
double-hour boundaries (00, 01, 03 … 23 o'clock) and at its 节; every piece whose pillars
(:func:`~mingshu.bazi.pillars.pillars_at`, under the late-Rat setting) match is listed, and
neighbouring pieces are joined.  Times are Beijing civil time, like :func:`four_pillars`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from itertools import pairwise
from typing import NamedTuple

from mingshu.arguments import check_int, check_type
from mingshu.bazi.pillars import jie_index, pillars_at
from mingshu.bazi.settings import DEFAULT, BaziSettings
from mingshu.calendar import FIRST_DATE, LAST_DATE, seconds_of
from mingshu.cycles import FourPillars, Pillar
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = ["FIRST_YEAR", "LAST_YEAR", "MomentRange", "moments_of"]

FIRST_YEAR = FIRST_DATE.year
"""First year :func:`moments_of` searches (the calendar's range, 1583)."""
LAST_YEAR = LAST_DATE.year
"""Last year :func:`moments_of` searches (2650)."""

# Clock hours where a double hour begins (子 splits at midnight into its early and late parts).
_BLOCK_HOURS = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)
_SECOND = timedelta(seconds=1)


class MomentRange(NamedTuple):
    """A stretch of Beijing civil time with one pillar set: ``first`` to ``last``, both whole
    seconds and both inside."""

    first: datetime
    last: datetime

    def __str__(self) -> str:
        end = f"{self.last:%H:%M:%S}" if self.last.date() == self.first.date() else f"{self.last}"
        return f"{self.first} .. {end}"


def _four(pillars: object) -> FourPillars:
    if isinstance(pillars, FourPillars):
        return pillars
    if isinstance(pillars, str):
        pillars = pillars.split()
    if not isinstance(pillars, Sequence) or isinstance(pillars, str) or len(pillars) != 4:
        raise InputError(
            "pillars",
            f"give four pillars (year month day hour, 庚辰 甲申 丙午 庚寅), not {clip(pillars)}",
        )
    year, month, day, hour = (Pillar.parse(p, "pillars") for p in pillars)
    return FourPillars(year, month, day, hour)


def moments_of(
    pillars: object,
    *,
    first_year: object = None,
    last_year: object = None,
    settings: BaziSettings = DEFAULT,
) -> tuple[MomentRange, ...]:
    """Every stretch of Beijing civil time from ``first_year`` to ``last_year`` (default: the
    whole calendar range, 1583 .. 2650) whose four pillars are ``pillars``: a
    :class:`FourPillars`, four pillars or their text (``"庚辰 甲申 丙午 庚寅"``).  The late Rat
    hour follows ``settings.late_rat_hour``; a 节 cuts a stretch to the second.

    >>> [str(r) for r in moments_of("庚辰 甲申 丙午 庚寅")]  # doctest: +ELLIPSIS
    [..., '1940-08-31 03:00:00 .. 04:59:59', '2000-08-16 03:00:00 .. 04:59:59', ...]
    """
    wanted = _four(pillars)
    check_type(settings, BaziSettings, "settings", "BaziSettings")
    lo_year, hi_year = FIRST_YEAR, LAST_YEAR
    first = lo_year if first_year is None else check_int(first_year, "first_year", lo_year, hi_year)
    last = hi_year if last_year is None else check_int(last_year, "last_year", lo_year, hi_year)
    if last < first:
        raise InputError("last_year", f"{last} is before the first year {first}")
    start = datetime.combine(max(FIRST_DATE, date(first, 1, 1)), time())
    end = datetime.combine(min(LAST_DATE, date(last, 12, 31)), time()) + timedelta(days=1)
    index = jie_index()
    late_rat = settings.late_rat_hour
    found: list[MomentRange] = []
    for k in range(len(index.moments) - 1):
        if index.year_pillars[k] != wanted.year or index.month_pillars[k] != wanted.month:
            continue
        lo, hi = max(index.moments[k], start), min(index.moments[k + 1], end)
        if lo >= hi:
            continue
        # Cut [lo, hi) at every double-hour boundary and test each piece at its first second.
        cuts = {lo, hi}
        day = lo.date()
        while day <= hi.date():
            cuts.update(m for h in _BLOCK_HOURS if lo < (m := datetime.combine(day, time(h))) < hi)
            day += timedelta(days=1)
        bounds = sorted(cuts)
        for a, b in pairwise(bounds):
            if pillars_at(seconds_of(a), a, late_rat)[0] != wanted:
                continue
            if found and found[-1].last + _SECOND == a:
                found[-1] = MomentRange(found[-1].first, b - _SECOND)
            else:
                found.append(MomentRange(a, b - _SECOND))
    return tuple(found)
