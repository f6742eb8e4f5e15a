"""Horoscopes (运限): a chart read for one moment of a life, in six layers.

``horoscope(chart, at)`` gives the decade (大限, or 童限 before the first decade), the
small limit (小限), the year (流年), month (流月), day (流日) and hour (流时) of the moment
``at``; each layer names the palace acting as its Life palace, its stem and branch, the
four transformations of its stem and its flowing stars (流耀).  ``decades``, ``years``
and ``months`` list every decade of a life, every year of a decade and every month of a
year, as iztro 2.6.0's ``decadalList``, ``yearlyList`` and ``monthlyList`` do.

The rules follow iztro 2.6.0 (docs/iztro-rules.md §7) except where iztro is plainly
wrong; docs/iztro-differences.md lists those places.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from mingshu import calendar
from mingshu.arguments import check_type
from mingshu.birth import moment, parse_time, time_index_of_clock
from mingshu.calendar import LunarDate
from mingshu.choices import check_choice
from mingshu.cycles import SIXTY, Branch, Names, Pillar
from mingshu.errors import InputError
from mingshu.inputs import parse_moment_parts
from mingshu.named import clip
from mingshu.ziwei.placement import compile_rules
from mingshu.ziwei.settings import (
    AgeCount,
    Algorithm,
    LeapMonth,
    YearBoundary,
)
from mingshu.ziwei.stars import Star, StarKind, load_data, mutagen_table, star
from mingshu.ziwei.tables import CYCLES, HOURS, Cycle, God, PalaceName

if TYPE_CHECKING:  # the chart module imports this one: charts have a horoscope() method
    from mingshu.ziwei.analysis import Surrounded
    from mingshu.ziwei.chart import NatalChart, Palace
    from mingshu.ziwei.limit_patterns import LimitPatternHit

__all__ = [
    "FlowingStar",
    "Horoscope",
    "Layer",
    "PlacedFlowingStar",
    "Scope",
    "YearlyGods",
    "decades",
    "horoscope",
    "months",
    "years",
]

_DATA = load_data("horoscope.toml")
MAX_AGE = 120
"""The last nominal age a chart's small limits cover (ten rounds of twelve)."""


class Scope(StrEnum):
    """The six horoscope layers."""

    DECADAL = "decadal"
    AGE = "age"
    YEARLY = "yearly"
    MONTHLY = "monthly"
    DAILY = "daily"
    HOURLY = "hourly"


def _names(row: dict[str, str]) -> Names:
    return Names(row["hans"], row["hant"], row["pinyin"], row["english"])


_LAYER_ROWS = {row["key"]: row for row in _DATA["layer"]}
_LAYER_NAMES = {Scope(key): _names(row) for key, row in _LAYER_ROWS.items()}
_CHILDHOOD_NAME = _names(_DATA["childhood"])
_CHILDHOOD_PALACES = tuple(PalaceName.parse(p) for p in _DATA["childhood"]["palaces"])


@dataclass(frozen=True, eq=False, slots=True)
class FlowingStar:
    """A flowing star of one layer, e.g. 流魁 (the yearly 魁)."""

    key: str
    scope: Scope
    names: Names
    kind: StarKind
    iztro_key: str
    iztro_en: str

    def __str__(self) -> str:
        return self.names.hans


class PlacedFlowingStar(NamedTuple):
    star: FlowingStar
    branch: Branch

    def __str__(self) -> str:
        return str(self.star)


_STEM_OR_BRANCH = {
    "year_stem": "stem",
    "god_year_stem": "stem",
    "year_branch": "branch",
    "god_year_branch": "branch",
}


def _flowing_rule(row: dict[str, Any]) -> dict[str, Any]:
    place = dict(row["place"])
    if "like" in place:  # the natal star's rule, read with the layer's stem or branch
        place = dict(star(place.pop("like")).place)
        place["by"] = _STEM_OR_BRANCH[place["by"]]
    return place


_FLOWING_ROWS: list[dict[str, Any]] = _DATA["flowing"]
_FLOWING_PLACER = compile_rules(
    "flowing stars", [(row["key"], _flowing_rule(row)) for row in _FLOWING_ROWS], ("stem", "branch")
)
# Branches of every flowing star for each of the sixty pillars.
_FLOWING_POSITIONS = tuple(_FLOWING_PLACER(p.stem, p.branch) for p in SIXTY)


def _flowing_star(row: dict[str, Any], scope: Scope) -> FlowingStar:
    prefix = _LAYER_ROWS[scope.value]["prefix"]
    if not row.get("prefixed", True):
        names, key, iztro = _names(row), row["key"], row["iztro"]
    else:
        names = Names(
            prefix["hans"] + row["hans"],
            prefix["hant"] + row["hant"],
            f"{prefix['pinyin']} {row['pinyin']}",
            f"{prefix['english']} {row['english']}",
        )
        key, iztro = f"{prefix['key']}_{row['key']}", prefix["key"] + row["iztro"]
    iztro_en = (
        row["iztro_en"]
        if not row.get("prefixed", True)
        else (f"{row['iztro_en']}({prefix['iztro_en']})")
    )
    return FlowingStar(key, scope, names, StarKind(row["kind"]), iztro, iztro_en)


# For each scope with stars: (index into _FLOWING_ROWS, FlowingStar) in listing order.
_FLOWING: dict[Scope, tuple[tuple[int, FlowingStar], ...]] = {
    scope: tuple(
        (i, _flowing_star(row, scope))
        for i, row in enumerate(_FLOWING_ROWS)
        if scope.value in row.get("layers", [scope.value])
    )
    for scope in Scope
    if "prefix" in _LAYER_ROWS[scope.value]
}


@lru_cache(maxsize=600)
def _placed_flowing(scope: Scope, pillar_index: int) -> tuple[PlacedFlowingStar, ...]:
    positions = _FLOWING_POSITIONS[pillar_index]
    placed = [PlacedFlowingStar(s, Branch(positions[i])) for i, s in _FLOWING[scope]]
    # iztro lists the stars of each palace in listing order, palace by palace (寅 first).
    placed.sort(key=lambda p: (p.branch - 2) % 12)
    return tuple(placed)


class Layer(NamedTuple):
    """One horoscope layer."""

    scope: Scope
    names: Names
    """大限 (or 童限), 小限, 流年, 流月, 流日, 流时."""
    branch: Branch
    """The palace acting as this layer's Life palace."""
    pillar: Pillar
    mutagens: tuple[Star, Star, Star, Star]
    """The stars transformed by this layer's stem: 禄, 权, 科, 忌."""
    stars: tuple[PlacedFlowingStar, ...]

    @property
    def iztro_index(self) -> int:
        """iztro's palace index of the layer (寅 = 0)."""
        return (self.branch - 2) % 12

    def palace_name(self, branch: int) -> PalaceName:
        """The name this layer gives the palace on ``branch`` (命宫 on ``self.branch``)."""
        return PalaceName((branch - self.branch) % 12)

    @property
    def palace_names(self) -> tuple[PalaceName, ...]:
        """The layer's name of every palace, in iztro's palace order (寅 first)."""
        return tuple(PalaceName((i + 2 - self.branch) % 12) for i in range(12))


class YearlyGods(NamedTuple):
    """The 岁前 and 将前 twelve gods of the flow year, in iztro's palace order (寅 first)."""

    sui_qian: tuple[God, ...]
    jiang_qian: tuple[God, ...]


@dataclass(frozen=True, slots=True)
class Horoscope:
    """A chart's six horoscope layers for one moment."""

    chart: NatalChart
    date: dt.date
    time_index: int
    lunar_date: LunarDate
    nominal_age: int
    """虚岁 by the age-count setting: 1 in the lunar year of birth."""
    decadal: Layer
    age: Layer
    yearly: Layer
    monthly: Layer
    daily: Layer
    hourly: Layer
    yearly_gods: YearlyGods

    @property
    def is_childhood(self) -> bool:
        """Before the first decade: the decade layer is the childhood limit (童限)."""
        return self.decadal.names is _CHILDHOOD_NAME

    @property
    def layers(self) -> tuple[Layer, ...]:
        return self.decadal, self.age, self.yearly, self.monthly, self.daily, self.hourly

    # Questions (mingshu.ziwei.analysis; imported here because that module imports this one).

    def palace(self, name: object, scope: object) -> Palace:
        """The natal palace that layer ``scope`` (``"decadal"`` … ``"hourly"``, or
        ``"origin"`` for the natal chart) calls ``name`` (iztro ``palace(name, scope)``)."""
        from mingshu.ziwei import analysis

        return analysis.horoscope_palace(self, name, scope)

    @property
    def age_palace(self) -> Palace:
        """The natal palace of the small limit (小限) (iztro ``agePalace()``)."""
        return self.chart.palace_at(self.age.branch)

    def surrounded(self, name: object, scope: object) -> Surrounded:
        """三方四正 of the palace ``scope`` calls ``name`` (iztro ``surroundPalaces``)."""
        from mingshu.ziwei import analysis

        return analysis.horoscope_surrounded(self, name, scope)

    def has_stars(self, name: object, scope: object, stars: object) -> bool:
        """Every one of the flowing ``stars`` (流昌, liu_chang …) is in the palace ``scope``
        calls ``name`` (iztro ``hasHoroscopeStars``)."""
        from mingshu.ziwei import analysis

        return analysis.has_horoscope_stars(self, name, scope, stars)

    def not_have_stars(self, name: object, scope: object, stars: object) -> bool:
        """None of the flowing ``stars`` is there (iztro ``notHaveHoroscopeStars``)."""
        from mingshu.ziwei import analysis

        return analysis.not_have_horoscope_stars(self, name, scope, stars)

    def has_one_of_stars(self, name: object, scope: object, stars: object) -> bool:
        """At least one of the flowing ``stars`` is there (iztro ``hasOneOfHoroscopeStars``)."""
        from mingshu.ziwei import analysis

        return analysis.has_one_of_horoscope_stars(self, name, scope, stars)

    def patterns(self, variant: str = "book") -> tuple[LimitPatternHit, ...]:
        """The patterns of the limits (定杂局's 限 patterns that positions define: 风云际会,
        禄衰马困) this horoscope forms (``ziwei.limit_patterns``; computed only when asked)."""
        from mingshu.ziwei.limit_patterns import detect  # it reads horoscopes: import late

        return detect(self, variant)

    def has_mutagen(self, name: object, scope: object, mutagen: object) -> bool:
        """The star layer ``scope`` transforms with ``mutagen`` sits in the palace that
        layer calls ``name`` (iztro ``hasHoroscopeMutagen``)."""
        from mingshu.ziwei import analysis

        return analysis.has_horoscope_mutagen(self, name, scope, mutagen)


def _natal(chart: object) -> NatalChart:
    """``chart`` if it is a natal chart; :class:`InputError` on ``chart`` otherwise."""
    from mingshu.ziwei.chart import NatalChart  # that module imports this one

    return check_type(chart, NatalChart, "chart", "a Zi Wei chart (ziwei.chart(...))")


def _target(chart: NatalChart, at: object, time: object) -> tuple[dt.date, int, bool]:
    """The date and iztro time index of a horoscope moment, and whether an hour was given;
    ``time`` overrides the hour.

    On a chart drawn with a time zone, a clock time is read on the birth's own clock:
    civil time in the birth's zone, daylight saving removed (a skipped time is an error), and
    solar time at the birth longitude when the chart uses true solar time.  A zone-aware
    ``datetime`` is first converted to the birth's zone.  A chart drawn without a zone takes
    clock times as given, so an aware moment is refused there rather than silently stripped.
    """
    birth_moment = chart.birth.moment
    fold = 0
    if isinstance(at, dt.datetime) and at.utcoffset() is not None:
        if birth_moment is None:
            raise InputError(
                "at",
                "this chart takes clock times as given (no tz): give a naive date and time, "
                "or draw the chart with tz= to read zone-aware moments",
            )
        local = at.astimezone(birth_moment.civil.tzinfo)
        at, fold = local.replace(tzinfo=None), local.fold
    parts, clock = parse_moment_parts(at, "at")
    day = calendar.check_solar_date(*parts, field="at")
    index: int | None = None
    if time is not None:
        index, clock = parse_time(time)
        if clock is None:  # an iztro time index: already an hour of the chart's clock
            return day, index, True
    if clock is None:
        return day, 0, False  # iztro reads a bare date at the early Rat hour
    if birth_moment is not None:
        settings = chart.settings
        try:
            m = moment(
                day,
                clock,
                birth_moment.civil.tzinfo,
                longitude=birth_moment.longitude,
                fold=fold,
                true_solar_time=settings.true_solar_time,
                equation_of_time_on=settings.equation_of_time,
            )
        except InputError as error:
            raise InputError("at", error.message) from None
        day = calendar.check_solar_date(m.clock.year, m.clock.month, m.clock.day, field="at")
        clock = m.clock.time()
    return day, time_index_of_clock(clock), True


def nominal_age(chart: NatalChart, target: LunarDate, count: AgeCount) -> int:
    """The age a horoscope uses.

    ``LUNAR_YEAR``: 虚岁, one in the lunar year of birth and one more at each new year.
    ``BIRTHDAY``: one at birth and one more on each lunar birthday (a birthday in a leap
    month falls after the regular month of the same number).  iztro's own birthday count
    differs (docs/iztro-differences.md).
    """
    born = chart.lunar_date
    age = target.year - born.year + 1
    if count is AgeCount.BIRTHDAY:
        reached = (target.month, target.is_leap, target.day) >= (born.month, born.is_leap, born.day)
        age -= not reached
    return age


def _layer(scope: Scope, names: Names, branch: int, pillar: Pillar, chart: NatalChart) -> Layer:
    stars = _placed_flowing(scope, pillar.index) if scope in _FLOWING else ()
    return Layer(
        scope,
        names,
        Branch(branch),
        pillar,
        mutagen_table(chart.settings.mutagens)[pillar.stem],
        stars,
    )


def _decadal_palace(chart: NatalChart, age: int) -> tuple[Palace, bool]:
    for palace in chart.palaces:  # iztro's palace order; the first range that holds the age
        if palace.decadal.start <= age <= palace.decadal.end:
            return palace, False
    if 1 <= age <= len(_CHILDHOOD_PALACES):
        return chart.palace(_CHILDHOOD_PALACES[age - 1]), True
    last = max(p.decadal.end for p in chart.palaces)
    raise InputError("at", f"nominal age {age} is past the chart's last decade (ends at {last})")


def _year_pillar(chart: NatalChart, day: dt.date, lunar: LunarDate) -> Pillar:
    if chart.settings.horoscope_boundary is YearBoundary.LUNAR_NEW_YEAR:
        return calendar.year_pillar_of_lunar_year(lunar.year)
    return calendar.year_pillar_by_lichun_day(day)


def _month_pillar(
    chart: NatalChart, day: dt.date, lunar: LunarDate, year: Pillar, time_index: int
) -> Pillar:
    # As for the natal month pillar: the lunar month (leap days after the 15th count as
    # the next month) with 五虎遁, or the solar-term month at hh:30 of the day.
    if chart.settings.horoscope_boundary is YearBoundary.LUNAR_NEW_YEAR:
        branch = Branch((lunar.month + 1 + (lunar.is_leap and lunar.day > 15)) % 12)
        return Pillar.of(calendar.month_stem(year.stem, branch), branch)
    moment = dt.datetime.combine(day, dt.time(max(2 * time_index - 1, 0), 30))
    return calendar.month_pillar_exact(moment, field="at")


def _yearly_layer(chart: NatalChart, day: dt.date, lunar: LunarDate) -> Layer:
    pillar = _year_pillar(chart, day, lunar)
    return _layer(Scope.YEARLY, _LAYER_NAMES[Scope.YEARLY], pillar.branch, pillar, chart)


def _monthly_layer(
    chart: NatalChart, day: dt.date, lunar: LunarDate, yearly: Layer, time_index: int
) -> Layer:
    # From the flow year's palace count back to the birth month, then forward to the birth
    # hour: that is the first month; then one palace per month.  Leap days after the 15th
    # count as the next month, for the birth and for the target, whatever iztro's leap
    # setting; the book's setting (leap_month = next, the 全书 school's) counts a leap birth
    # month whole as the next (安斗君诀's 本生月 with 「凡有闰月具要依此为例」, F L4).
    born = chart.lunar_date
    if chart.settings.leap_month is LeapMonth.NEXT:
        birth_month = born.month + born.is_leap
    else:
        birth_month = born.month + (born.is_leap and born.day > 15)
    target_month = lunar.month + (lunar.is_leap and lunar.day > 15)
    branch = (yearly.branch - birth_month + chart.pillars.hour.branch + target_month) % 12
    pillar = _month_pillar(chart, day, lunar, yearly.pillar, time_index)
    return _layer(Scope.MONTHLY, _LAYER_NAMES[Scope.MONTHLY], branch, pillar, chart)


def horoscope(chart: NatalChart, at: object, time: object = None) -> Horoscope:
    """The six horoscope layers of ``chart`` at the moment ``at``.

    ``at`` is a date, a datetime, ``"YYYY-MM-DD"`` or ``"YYYY-MM-DDTHH:MM"``; ``time``
    (a clock time or iztro's time index 0..12) overrides its hour.  Without an hour the
    early Rat hour (index 0) is used, as iztro does.
    """
    chart = _natal(chart)
    day, time_index, hour_given = _target(chart, at, time)
    birth = chart.birth
    if day < birth.solar_date or (
        day == birth.solar_date and hour_given and time_index < birth.time_index
    ):
        when = f"{day} {HOURS[time_index]}" if hour_given else f"{day}"
        raise InputError(
            "at", f"{when} is before the birth ({birth.solar_date} {HOURS[birth.time_index]})"
        )
    lunar = calendar.solar_to_lunar(day)
    age = nominal_age(chart, lunar, chart.settings.age_count)
    if age > MAX_AGE:
        raise InputError(
            "at", f"nominal age {age} is past {MAX_AGE}, the last age of the chart's small limits"
        )
    decade, childhood = _decadal_palace(chart, age)
    small = next(p for p in chart.palaces if age in p.ages)

    yearly = _yearly_layer(chart, day, lunar)
    monthly = _monthly_layer(chart, day, lunar, yearly, time_index)
    # The day and hour pillars change at 23:00 (iztro asks its calendar for 23:30).
    day_pillar = calendar.day_pillar(day + dt.timedelta(days=time_index == 12))
    hour_branch = Branch(time_index % 12)
    hour_pillar = calendar.hour_pillar(day_pillar.stem, hour_branch)
    daily_branch = (monthly.branch + lunar.day - 1) % 12
    names = _LAYER_NAMES
    return Horoscope(
        chart=chart,
        date=day,
        time_index=time_index,
        lunar_date=lunar,
        nominal_age=age,
        decadal=_layer(
            Scope.DECADAL,
            _CHILDHOOD_NAME if childhood else names[Scope.DECADAL],
            decade.branch,
            decade.pillar,
            chart,
        ),
        age=_layer(Scope.AGE, names[Scope.AGE], small.branch, small.pillar, chart),
        yearly=yearly,
        monthly=monthly,
        daily=_layer(Scope.DAILY, names[Scope.DAILY], daily_branch, day_pillar, chart),
        hourly=_layer(
            Scope.HOURLY, names[Scope.HOURLY], (daily_branch + hour_branch) % 12, hour_pillar, chart
        ),
        yearly_gods=_yearly_gods(chart, yearly.pillar.branch),
    )


@lru_cache(maxsize=48)
def _yearly_gods_of(year_branch: Branch, zhongzhou: bool) -> YearlyGods:
    """The year's 岁前 and 将前 gods in iztro's palace order (寅 first), each cycle from the
    ``start`` and ``direction`` chart.toml gives it (both start from the year branch and run
    forward; the natal chart reads the same fields)."""
    sui_qian, jiang_qian = CYCLES["sui_qian"], CYCLES["jiang_qian"]
    anchors = {"year_branch": int(year_branch), "jiang_xing": -1}
    if jiang_qian.jiang_xing:
        anchors["jiang_xing"] = int(jiang_qian.jiang_xing[year_branch])

    def run(cycle: Cycle, gods: tuple[God, ...]) -> tuple[God, ...]:
        if cycle.direction != "forward" or cycle.start not in anchors:
            raise ValueError(f"chart.toml: the yearly {cycle.key} cycle must start from the year")
        start = anchors[cycle.start]
        return tuple(gods[(i + 2 - start) % 12] for i in range(12))

    sui = sui_qian.zhongzhou_gods if zhongzhou else sui_qian.gods
    return YearlyGods(run(sui_qian, sui), run(jiang_qian, jiang_qian.gods))


def _yearly_gods(chart: NatalChart, year_branch: Branch) -> YearlyGods:
    return _yearly_gods_of(year_branch, chart.settings.algorithm is Algorithm.ZHONGZHOU)


# --------------------------------------------------------------------------------- lists


class Period(NamedTuple):
    """An entry of a list of decades, years or months: a layer and the time it covers."""

    layer: Layer
    ages: tuple[int, int]
    """First and last nominal age (equal for a year or a month)."""
    years: tuple[int, int]
    """First and last lunar year."""
    month: int | None = None
    """For a month: the lunar month number."""
    is_leap: bool = False
    part: str = "whole"
    """For a month: ``whole``, or ``first``/``second`` half of a leap month (days 1–15 and
    16 to the end) when the leap-month setting splits it."""
    days: tuple[int, int] | None = None


def decades(chart: NatalChart) -> tuple[Period, ...]:
    """Every decade of the chart in age order, with its ages, lunar years and layer."""
    chart = _natal(chart)
    born = chart.lunar_date.year
    out = []
    for palace in sorted(chart.palaces, key=lambda p: p.decadal.start):
        start, end = palace.decadal.start, palace.decadal.end
        layer = _layer(
            Scope.DECADAL, _LAYER_NAMES[Scope.DECADAL], palace.branch, palace.pillar, chart
        )
        out.append(Period(layer, (start, end), (born + start - 1, born + end - 1)))
    return tuple(out)


def years(
    chart: NatalChart, decade: int | str | PalaceName | Branch | Period
) -> tuple[Period, ...]:
    """Every year of one decade: ``decade`` is its position in age order (0 = the first),
    the natal palace that holds it (``"命宫"``, ``PalaceName.WEALTH``), or one of the
    periods :func:`decades` lists.

    Each year is read on its 六月初一, as iztro does.  Years whose 六月初一 lies outside the
    calendar's range (before 1583 or after 2650) are left out, so a decade at either end may
    list fewer than ten years; ``Period.ages`` says which ages are there."""
    ordered = decades(_natal(chart))
    if isinstance(decade, Period) and decade.layer.scope is Scope.DECADAL:
        decade = decade.layer.branch  # one of the decades() listed
    if isinstance(decade, bool) or not isinstance(decade, int | str):
        raise InputError(
            "decade", f"give a position 0..{len(ordered) - 1} or a palace, not {clip(decade)}"
        )
    if isinstance(decade, int) and not isinstance(decade, (PalaceName, Branch)):
        if not 0 <= decade < len(ordered):
            raise InputError("decade", f"decade {decade} does not exist (0..{len(ordered) - 1})")
        period = ordered[decade]
    else:
        try:
            branch = chart.palace(decade).branch
        except InputError as error:
            raise InputError("decade", error.message) from None
        period = next(p for p in ordered if p.layer.branch == branch)
    born = chart.lunar_date.year
    out = []
    for age in range(period.ages[0], period.ages[1] + 1):
        year = born + age - 1
        if not calendar.FIRST_DATE.year <= year <= calendar.LAST_DATE.year:
            continue  # 六月初一 outside the calendar's range
        day = calendar.lunar_to_solar(year, 6, 1)  # iztro reads each year on 六月初一
        layer = _yearly_layer(chart, day, calendar.solar_to_lunar(day))
        out.append(Period(layer, (age, age), (year, year)))
    return tuple(out)


def months(chart: NatalChart, year: int, leap: LeapMonth | str | None = None) -> tuple[Period, ...]:
    """Every month of lunar year ``year``: 12 or 13 entries, or 14 when a leap month is
    split in halves (days 1–15 and 16 on, read on days 1 and 16, as iztro does).  ``leap``
    defaults to the chart's leap-month setting.  A year before the birth's lunar year is
    refused, as :func:`horoscope` refuses a date before the birth (its ages would be 0 or
    negative).  A month whose reading day falls outside the calendar's range (lunar 1582
    before 1583-01-01, lunar 2650 after 2650-12-31) is left out."""
    chart = _natal(chart)
    if isinstance(year, bool) or not isinstance(year, int):
        raise InputError("year", f"{clip(year)} is not a year")
    if year < chart.lunar_date.year:
        raise InputError("year", f"{year} is before the birth (lunar year {chart.lunar_date.year})")
    chosen = chart.settings.leap_month if leap is None else check_choice(LeapMonth, leap, "leap")
    split = chosen is LeapMonth.SPLIT
    age = year - chart.lunar_date.year + 1
    time_index = chart.pillars.hour.branch
    out = []
    for month in calendar.lunar_year_months(year):
        parts = [("whole", 1, month.days)]
        if month.is_leap and split:
            parts = [("first", 1, 15), ("second", 16, month.days)]
        for part, first, last in parts:
            day = month.first_day + dt.timedelta(days=first - 1)
            if not calendar.FIRST_DATE <= day <= calendar.LAST_DATE:
                continue  # lunar 1582 before 1583-01-01, lunar 2650 after 2650-12-31
            lunar = calendar.solar_to_lunar(day)
            yearly = _yearly_layer(chart, day, lunar)
            layer = _monthly_layer(chart, day, lunar, yearly, time_index)
            out.append(
                Period(
                    layer, (age, age), (year, year), month.month, month.is_leap, part, (first, last)
                )
            )
    return tuple(out)
