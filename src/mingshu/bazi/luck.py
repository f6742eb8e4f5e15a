"""Luck pillars (大运), their start age (起运), annual pillars (流年) and 小运
(docs/bazi-rules.md §3).

* Direction: forward when (yang year stem and male) or (yin year stem and female).
* Pillars: the month pillar advanced (or moved back) one step per luck pillar.
* Start: the span from birth to the next 节 (forward) or from the previous 节 to birth
  (backward), at 3 days = 1 year, counted by the :class:`~mingshu.bazi.settings.StartAge`
  method, added to the birth moment with that method's library's calendar arithmetic.
* Ages are nominal (虚岁): Gregorian year − birth year + 1.  Luck pillar k starts in the
  Gregorian year of the start moment + 10 (k − 1) (lunar-python ``DaYun``, tyme4py
  ``DecadeFortune``).
* 流年 of year Y: sixty-cycle (Y − 4); 小运 of age a: the hour pillar moved a steps in the
  luck direction (lunar-python ``XiaoYun``).

All moments are Beijing civil time, the clock of the 节 table.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache
from typing import NamedTuple

from mingshu.arguments import check_int
from mingshu.bazi.common import Gender
from mingshu.bazi.pillars import jie_index
from mingshu.bazi.settings import StartAge
from mingshu.bazi.tables import TEN_GOD, TenGod
from mingshu.calendar import SolarTerm, seconds_of
from mingshu.cycles import SIXTY, Branch, Pillar, Stem
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "MAX_YEARS_AFTER_BIRTH",
    "Annual",
    "Luck",
    "LuckStep",
    "StartSpan",
    "is_forward",
    "luck",
    "start_span",
]

MAX_YEARS_AFTER_BIRTH = 150
""":meth:`Luck.annual` answers for the birth year up to this many years later."""

_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _days_in_month(year: int, month: int) -> int:
    if month == 2 and year % 4 == 0 and (year % 100 != 0 or year % 400 == 0):
        return 29
    return _MONTH_DAYS[month - 1]


class StartSpan(NamedTuple):
    """The start age (起运) as years, months, days, hours and minutes after birth."""

    years: int
    months: int
    days: int
    hours: int = 0
    minutes: int = 0

    def __str__(self) -> str:
        return (
            f"{self.years} y {self.months} m {self.days} d"
            + (f" {self.hours} h" if self.hours or self.minutes else "")
            + (f" {self.minutes} min" if self.minutes else "")
        )


class LuckStep(NamedTuple):
    """One luck pillar (大运): ten years from ``start_year`` (nominal age ``start_age``)."""

    number: int
    """1 for the first luck pillar."""
    pillar: Pillar
    start_year: int
    end_year: int
    start_age: int
    end_age: int
    ten_god: TenGod
    """Ten god of the luck pillar's stem towards the Day Master."""

    @property
    def void(self) -> tuple[Branch, Branch]:
        return self.pillar.void_branches


class Annual(NamedTuple):
    """The pillars of one Gregorian year of life: 流年, 小运, and the luck pillar in force."""

    year: int
    age: int
    """Nominal age (虚岁) during the year."""
    pillar: Pillar
    """流年: the year pillar that begins at 立春 of ``year``."""
    ten_god: TenGod
    xiao_yun: Pillar
    """小运: the hour pillar moved ``age`` steps in the luck direction."""
    luck: LuckStep | None
    """The luck pillar covering ``year``; ``None`` before the first one starts."""


class Luck(NamedTuple):
    """The luck pillars of a chart, and how their start was found."""

    forward: bool
    method: StartAge
    jie: SolarTerm
    """The 节 the span is counted to (forward) or from (backward)."""
    jie_moment: datetime
    span_seconds: int
    """Whole seconds between the birth and that 节."""
    start: StartSpan
    start_moment: datetime
    """Birth + ``start``, Beijing time (the method's calendar arithmetic)."""
    birth: datetime
    """The birth moment, naive Beijing time."""
    birth_year: int
    start_year: int
    steps: tuple[LuckStep, ...]
    month: Pillar
    hour: Pillar
    day_master: Stem

    def annual(self, year: int) -> Annual:
        """流年, 小运 and luck pillar of Gregorian ``year`` (from the birth year on)."""
        if isinstance(year, bool) or not isinstance(year, int):
            raise InputError("year", f"{clip(year)} is not a year")
        if not self.birth_year <= year <= self.birth_year + MAX_YEARS_AFTER_BIRTH:
            raise InputError(
                "year",
                f"{year} is outside {self.birth_year} .. "
                f"{self.birth_year + MAX_YEARS_AFTER_BIRTH} (birth year onwards)",
            )
        age = year - self.birth_year + 1
        pillar = SIXTY[(year - 4) % 60]
        step = None
        if year >= self.start_year:
            n = (year - self.start_year) // 10
            step = (
                self.steps[n]
                if n < len(self.steps)
                else _make_step(
                    n + 1,
                    self.month,
                    self.forward,
                    self.start_year,
                    self.birth_year,
                    self.day_master,
                )
            )
        return Annual(
            year=year,
            age=age,
            pillar=pillar,
            ten_god=TEN_GOD[self.day_master * 10 + pillar.stem],
            xiao_yun=self.hour.next(age if self.forward else -age),
            luck=step,
        )

    def start_by_method(self) -> tuple[tuple[StartAge, StartSpan, datetime], ...]:
        """The start age and start moment under every :class:`StartAge` method (for comparison;
        the luck pillars themselves follow ``method``)."""
        birth = self.birth
        return tuple((m, *start_of(m, birth, self.jie_moment)) for m in StartAge)

    def annuals(self, first: int, count: int = 10) -> tuple[Annual, ...]:
        """:meth:`annual` for ``count`` (at least 1) years from ``first``."""
        self.annual(first)  # checks the first year
        return tuple(self.annual(y) for y in range(first, first + check_int(count, "count", 1)))


def is_forward(year_stem: Stem, gender: Gender) -> bool:
    """Luck runs forward for yang-year men and yin-year women (docs/bazi-rules.md §3.1)."""
    stem = Stem.parse(year_stem, "year_stem")
    return (stem % 2 == 0) == (Gender.parse(gender) is Gender.MALE)


def _shichen(moment: datetime) -> int:
    """时辰 index as lunar-python's ``Yun`` counts it: 23:xx is 11 (not 0), 00:xx is 0."""
    return 11 if moment.hour == 23 else (moment.hour + 1) // 2


def start_span(method: StartAge, start: datetime, end: datetime) -> StartSpan:
    """The start age for the span ``start`` … ``end`` (``start`` ≤ ``end``) by ``method``."""
    if method is StartAge.SECONDS:
        s = seconds_of(end) - seconds_of(start)
        years, s = divmod(s, 259_200)  # 3 days = 1 year
        months, s = divmod(s, 21_600)  # 1 day = 4 months
        days, s = divmod(s, 720)  # 1 hour = 5 days
        hours, s = divmod(s, 30)  # 1 minute = 2 hours
        return StartSpan(years, months, days, hours, s * 2)
    if method in (StartAge.MINUTES, StartAge.CHINA95):
        if method is StartAge.MINUTES:
            # lunar-python subtracts the two clocks with their seconds dropped …
            m = seconds_of(end) // 60 - seconds_of(start) // 60
        else:
            # … tyme4py floors the exact span.
            m = (seconds_of(end) - seconds_of(start)) // 60
        years, m = divmod(m, 4320)
        months, m = divmod(m, 360)
        days, m = divmod(m, 12)
        return StartSpan(years, months, days, 0 if method is StartAge.CHINA95 else m * 2)
    # DAYS_SHICHEN: whole calendar days and whole 时辰 (lunar-python getYun(g, 1)).
    hour_diff = _shichen(end) - _shichen(start)
    day_diff = end.toordinal() - start.toordinal()
    if hour_diff < 0:
        hour_diff += 12
        day_diff -= 1
    month_diff = hour_diff * 10 // 30
    months = day_diff * 4 + month_diff
    days = hour_diff * 10 - month_diff * 30
    return StartSpan(months // 12, months % 12, days)


def _add_clamped(birth: datetime, span: StartSpan) -> datetime:
    """lunar-python ``Solar.nextYear/nextMonth/next/nextHour``: month ends are clamped."""
    year = birth.year + span.years
    day = birth.day
    if birth.month == 2 and day > 28 and _days_in_month(year, 2) == 28:
        day = 28
    total = year * 12 + birth.month - 1 + span.months
    year, month = divmod(total, 12)
    month += 1
    day = min(day, _days_in_month(year, month))
    moment = birth.replace(year=year, month=month, day=day)
    return moment + timedelta(days=span.days, hours=span.hours, minutes=span.minutes)


def _add_carried(birth: datetime, span: StartSpan) -> datetime:
    """tyme4py ``AbstractChildLimitProvider.next``: overflowing days run into later months."""
    minute = birth.minute + span.minutes
    hour = birth.hour + span.hours + minute // 60
    day = birth.day + span.days + hour // 24
    total = (birth.year + span.years) * 12 + birth.month - 1 + span.months
    year, month = divmod(total, 12)
    month += 1
    while day > (length := _days_in_month(year, month)):
        day -= length
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return datetime(year, month, day, hour % 24, minute % 60, birth.second)


@cache
def _step_pillars(month: int, forward: bool, day_master: int) -> tuple[tuple[Pillar, TenGod], ...]:
    """(pillar, ten god) of luck pillars 1 … 20 (1200 possible keys: a bounded cache)."""
    sign = 1 if forward else -1
    out = []
    for k in range(1, 21):
        pillar = SIXTY[(month + sign * k) % 60]
        out.append((pillar, TEN_GOD[day_master * 10 + pillar.stem]))
    return tuple(out)


def start_of(method: StartAge, birth: datetime, jie_moment: datetime) -> tuple[StartSpan, datetime]:
    """(start age, start moment) by ``method`` for a birth and the 节 its luck counts to/from.

    Both naive Beijing time; the start moment uses the method's library arithmetic (month ends
    clamped for the lunar-python methods, carried for the tyme4py ones).
    """
    start, end = (birth, jie_moment) if jie_moment >= birth else (jie_moment, birth)
    span = start_span(method, start, end)
    if method in (StartAge.SECONDS, StartAge.CHINA95):
        return span, _add_carried(birth, span)
    return span, _add_clamped(birth, span)


def _make_step(
    k: int, month: Pillar, forward: bool, start_year: int, birth_year: int, day_master: Stem
) -> LuckStep:
    if k <= 20:
        pillar, god = _step_pillars(month.index, forward, day_master)[k - 1]
    else:
        pillar = SIXTY[(month.index + (k if forward else -k)) % 60]
        god = TEN_GOD[day_master * 10 + pillar.stem]
    year = start_year + 10 * (k - 1)
    age = year - birth_year + 1
    return LuckStep(k, pillar, year, year + 9, age, age + 9, god)


def luck(
    beijing: datetime,
    jie_position: int,
    year_stem: Stem,
    month: Pillar,
    hour: Pillar,
    day_master: Stem,
    gender: Gender,
    method: StartAge,
    steps: int,
) -> Luck:
    """Luck pillars for a birth at naive Beijing time ``beijing``.

    ``jie_position`` is the index (in :func:`~mingshu.bazi.pillars.jie_index`) of the 节 in
    force at birth, as returned by :func:`~mingshu.bazi.pillars.pillars_at`.
    """
    index = jie_index()
    forward = is_forward(year_stem, gender)
    j = jie_position + 1 if forward else jie_position
    jie_moment = index.moments[j]
    span, start_moment = start_of(method, beijing, jie_moment)
    start_year = start_moment.year
    birth_year = beijing.year
    first_age = start_year - birth_year + 1
    step_list = [
        LuckStep(k + 1, p, start_year + 10 * k, start_year + 10 * k + 9,
                 first_age + 10 * k, first_age + 10 * k + 9, g)
        for k, (p, g) in enumerate(_step_pillars(month.index, forward, day_master)[:steps])
    ]  # fmt: skip
    return Luck(
        forward=forward,
        method=method,
        jie=index.terms[j],
        jie_moment=jie_moment,
        span_seconds=abs(seconds_of(jie_moment) - seconds_of(beijing)),
        start=span,
        start_moment=start_moment,
        birth=beijing,
        birth_year=birth_year,
        start_year=start_year,
        steps=tuple(step_list),
        month=month,
        hour=hour,
        day_master=day_master,
    )
