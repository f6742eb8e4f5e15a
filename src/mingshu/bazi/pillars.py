"""The four pillars at exact moments (docs/bazi-rules.md §1).

* Year: changes at the exact moment of 立春; month: at the exact moments of the twelve 节.
  Both come from one binary search in a table of every 节 moment 1581 … 2651, built once
  from the calendar layer (``term_moment``, ``month_stem``) and checked against its
  ``year_pillar_exact`` / ``month_pillar_exact`` in the tests.
* Day: the continuous sixty-day count of the pillar clock's date (``calendar.day_pillar``).
* Hour: the 时辰 of the pillar clock, stem by 五鼠遁 (``calendar.hour_pillar``).
* 23:00–23:59 follows :class:`~mingshu.bazi.settings.LateRatHour`.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime
from functools import cache
from typing import NamedTuple

from mingshu import calendar
from mingshu.arguments import check_type
from mingshu.bazi.common import Notice
from mingshu.bazi.settings import DEFAULT, BaziSettings, LateRatHour
from mingshu.calendar import BEIJING, FIRST_DATE, LAST_DATE, SolarTerm, seconds_of
from mingshu.cycles import SIXTY, Branch, FourPillars, Pillar, Stem
from mingshu.errors import OutOfRangeError
from mingshu.named import load_toml

__all__ = [
    "NEAR_JIE_SECONDS",
    "JieIndex",
    "four_pillars",
    "jie_index",
    "near_jie",
    "pillars_at",
]

NEAR_JIE_SECONDS = 60
"""A birth this close (or closer) to a 节 is flagged: ephemerides differ by tens of seconds.
From 2050 on the margin grows by decade with the split between two ΔT predictions
(``bazi/data/near_jie.toml``, docs/solar-terms.md)."""

# The calendar's term table: from lunar 1582 (the year of FIRST_DATE) one year further on each
# side, so the 节 before the first date and after the last one are there for the luck count.
_FIRST_TERM_YEAR = FIRST_DATE.year - 2
_LAST_TERM_YEAR = LAST_DATE.year + 1
_FIRST_SECOND = FIRST_DATE.toordinal() * 86400
_LAST_SECOND = (LAST_DATE.toordinal() + 1) * 86400 - 1


class JieIndex(NamedTuple):
    """Every 节 moment of the calendar tables, with the pillars in force from it on."""

    seconds: tuple[int, ...]
    terms: tuple[SolarTerm, ...]
    moments: tuple[datetime, ...]
    year_pillars: tuple[Pillar, ...]
    month_pillars: tuple[Pillar, ...]
    margins: tuple[int, ...]
    """Seconds around each 节 within which a birth gets the ``near_jie`` notice."""


_WHY = "ephemerides differ by up to tens of seconds"
_WHY_PREDICTED = (
    "the clock time of a 节 after 2050 rests on a prediction of the Earth's rotation (ΔT), "
    "and predictions differ by minutes"
)


@cache
def _margins_by_decade() -> dict[int, int]:
    """First year of a decade → its near_jie margin, where it exceeds NEAR_JIE_SECONDS."""
    rows = load_toml(__package__, "data", "near_jie.toml")["decades"]
    return {int(decade): int(seconds) for decade, seconds in rows}


@cache
def jie_index() -> JieIndex:
    """The 节 table (built on first use from the calendar layer; a pure function)."""
    seconds: list[int] = []
    terms: list[SolarTerm] = []
    moments: list[datetime] = []
    years: list[Pillar] = []
    months: list[Pillar] = []
    margins: list[int] = []
    by_decade = _margins_by_decade()
    # Loop-invariant pieces, looked up once: the 12 节 with their branches, and the month
    # pillar of each (year stem, branch) by 五虎遁 (the whole range has 12,852 节).
    jie = [(term, term.month_branch) for term in SolarTerm if term.is_jie]
    month_of = {
        (stem, branch): Pillar.of(calendar.month_stem(stem, branch), branch)
        for stem in Stem
        for _, branch in jie
    }
    for year in range(_FIRST_TERM_YEAR, _LAST_TERM_YEAR + 1):
        for term, branch in jie:
            moment = calendar.term_moment(year, term)
            # 小寒 opens the 丑 month, still in the BaZi year that began at last year's 立春.
            bazi_year = year - 1 if term is SolarTerm.XIAO_HAN else year
            year_pillar = SIXTY[(bazi_year - 4) % 60]
            seconds.append(seconds_of(moment))
            terms.append(term)
            moments.append(moment)
            years.append(year_pillar)
            months.append(month_of[year_pillar.stem, branch])
            margins.append(by_decade.get(moment.year // 10 * 10, NEAR_JIE_SECONDS))
    return JieIndex(
        tuple(seconds),
        tuple(terms),
        tuple(moments),
        tuple(years),
        tuple(months),
        tuple(margins),
    )


@cache
def _day_offset() -> int:
    """``(ordinal + offset) % 60`` is the day pillar: anchored on the calendar's own count."""
    ordinal = FIRST_DATE.toordinal()
    return (calendar.day_pillar_from_ordinal(ordinal).index - ordinal) % 60


@cache
def _hour_tables() -> tuple[tuple[int, ...], tuple[Pillar, ...]]:
    """(clock hour → branch, day stem * 12 + branch → hour pillar) from the calendar's 五鼠遁."""
    branches = tuple(int(calendar.hour_branch(h)) for h in range(24))
    hours = [calendar.hour_pillar(Stem(d), Branch(b)) for d in range(10) for b in range(12)]
    return branches, tuple(hours)


def pillars_at(
    beijing_seconds: int, clock: datetime, late_rat: LateRatHour
) -> tuple[FourPillars, int]:
    """Pillars of an instant: (pillars, index of the 节 in force in :func:`jie_index`).

    ``beijing_seconds`` (see :func:`seconds_of`) places the instant among the 节; ``clock``
    is the naive clock of the day and hour pillars.
    """
    index = jie_index()
    k = bisect_right(index.seconds, beijing_seconds) - 1
    branch_of_hour, hour_table = _hour_tables()
    ordinal = clock.toordinal()
    hour = clock.hour
    offset = _day_offset()
    day = SIXTY[(ordinal + offset) % 60]
    if hour == 23 and late_rat is not LateRatHour.SAME_DAY:
        # The 子 hour begins the next day's hour cycle; under NEXT_DAY the day changes too.
        next_day = SIXTY[(ordinal + 1 + offset) % 60]
        hour_pillar = hour_table[next_day.stem * 12 + branch_of_hour[hour]]
        if late_rat is LateRatHour.NEXT_DAY:
            day = next_day
    else:
        hour_pillar = hour_table[day.stem * 12 + branch_of_hour[hour]]
    return FourPillars(index.year_pillars[k], index.month_pillars[k], day, hour_pillar), k


def four_pillars(moment: datetime, settings: BaziSettings = DEFAULT) -> FourPillars:
    """The four pillars of a Beijing-time moment (the clock of lunar-python).

    The fast path: a naive ``moment`` is Beijing civil time (an aware one is converted), no
    daylight saving, no true solar time; use :func:`mingshu.bazi.chart` for a civil time in
    any zone.  Outside :data:`~mingshu.calendar.FIRST_DATE` … :data:`~mingshu.calendar.LAST_DATE`
    (1583-01-01 … 2650-12-31) raises :class:`OutOfRangeError`.
    """
    check_type(moment, datetime, "moment", "a datetime")
    check_type(settings, BaziSettings, "settings", "BaziSettings")
    if moment.tzinfo is not None:
        moment = moment.astimezone(BEIJING).replace(tzinfo=None)
    s = seconds_of(moment)
    if not _FIRST_SECOND <= s <= _LAST_SECOND:
        raise OutOfRangeError(
            "date", f"{moment} is outside the supported range {FIRST_DATE} .. {LAST_DATE}"
        )
    return pillars_at(s, moment, settings.late_rat_hour)[0]


def near_jie(beijing_seconds: int, k: int) -> Notice | None:
    """A notice when the instant lies within the margin of a 节 boundary (:data:`NEAR_JIE_SECONDS`,
    more from 2050 on)."""
    index = jie_index()
    after = beijing_seconds - index.seconds[k]
    before = index.seconds[k + 1] - beijing_seconds
    if after <= index.margins[k]:
        j, other, gap, side = k, k - 1, after, "after"
    elif before <= index.margins[k + 1]:
        j, other, gap, side = k + 1, k + 1, before, "before"
    else:
        return None
    year, month = index.year_pillars[other], index.month_pillars[other]
    term = index.terms[j]
    which = "year and month pillars" if term is SolarTerm.LI_CHUN else "month pillar"
    alternative = f"{year} {month}" if term is SolarTerm.LI_CHUN else f"{month}"
    return Notice(
        "near_jie",
        "time",
        f"birth is {gap} s {side} {term.names.hans} ({index.moments[j]:%Y-%m-%d %H:%M:%S} "
        f"Beijing time); {_WHY if index.margins[j] <= NEAR_JIE_SECONDS else _WHY_PREDICTED}, "
        f"so the {which} could instead be {alternative}",
    )
