"""Settings of a Zi Wei Dou Shu chart: one immutable value passed into every call.

Every option of iztro 2.6.0 is here, with the same default, under a name a reader can
follow.  ``docs/ziwei-settings.md`` explains each one and maps it to iztro's option name.
There is no global configuration: two charts with different settings can be drawn side by
side in one process (iztro's sticky ``astro.config()`` cannot do that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Literal

from mingshu.choices import check_bool, check_choice
from mingshu.cycles import Stem
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.ziwei.stars import MUTAGEN_STARS, Brightness, StarGroup, star_by_name

__all__ = [
    "AgeCount",
    "Algorithm",
    "ChartType",
    "LateRatHour",
    "LeapMonth",
    "School",
    "YearBoundary",
    "ZiweiSettings",
]


class YearBoundary(StrEnum):
    """Where a year begins.  iztro: ``"normal"`` / ``"exact"``."""

    LUNAR_NEW_YEAR = "lunar_new_year"
    """正月初一, the first day of the first lunar month (iztro's default, ``normal``)."""
    SPRING_BEGINS = "spring_begins"
    """立春, the day the sun reaches 315°; the whole day counts (iztro ``exact``)."""


class LateRatHour(StrEnum):
    """The day-change setting: which day a birth at 23:00–24:00 belongs to (iztro ``dayDivide``)."""

    NEXT_DAY = "next_day"
    """The late Rat hour belongs to the next day (iztro ``forward``, the default)."""
    SAME_DAY = "same_day"
    """The late Rat hour stays on the birth day and is charted as the early Rat hour
    (iztro ``current``)."""


class LeapMonth(StrEnum):
    """The leap-month setting: which month a birth in a leap month counts as (iztro ``fixLeap``)."""

    SPLIT = "split"
    """Days 1–15 of a leap month count as that month, days 16 on as the next month
    (iztro ``fixLeap: true``, the default)."""
    WHOLE = "whole"
    """The whole leap month counts as the month it repeats (iztro ``fixLeap: false``)."""
    NEXT = "next"
    """The whole leap month counts as the next month (紫微斗数全书 卷二 安身命例:
    「闰月正月生者要在二月内起安身命」); no iztro option gives it.  The default of the
    全书 school."""


class AgeCount(StrEnum):
    """How the age used by horoscopes is counted (iztro ``ageDivide``)."""

    LUNAR_YEAR = "lunar_year"
    """Nominal age (虚岁): one at birth, one more at every lunar new year (iztro ``normal``)."""
    BIRTHDAY = "birthday"
    """Age grows on the lunar birthday instead of at the new year (iztro ``birthday``; iztro's
    own count has a bug there, see docs/iztro-differences.md)."""


class Algorithm(StrEnum):
    """Which school's rules place the stars (iztro ``algorithm``)."""

    QUANSHU = "quanshu"
    """紫微斗数全书, the default (iztro ``default``)."""
    ZHONGZHOU = "zhongzhou"
    """中州派: 命主 from the year branch, 截空 instead of 截路/空亡, 龙德/劫杀/大耗 added,
    天使/天伤 swapped for yin men and yang women, 大耗 of the 岁前 cycle named 岁破."""


class School(StrEnum):
    """Whose reading the chart follows where the book and iztro part (not iztro's
    ``algorithm``, which picks 全书 vs 中州派 star rules: see ``Algorithm``)."""

    IZTRO = "iztro"
    """iztro 2.6.0 exactly (the default; parity with iztro's charts)."""
    QUANSHU = "quanshu"
    """紫微斗数全书 卷二 where iztro departs from it and the verse is clear: a leap month
    counts whole as the next month (for every star that counts the month, and 斗君), 天魁
    天钺 in the verse's order, 长生 runs by gender alone, 月德 counts from 子, 解神 by the year
    only, 旬空 on both void palaces, 截路空亡 as one item, the book's brightness table, and
    斗君, 飞天三杀 and 金锁铁蛇关 placed (docs/book-conformance.md).  Needs
    ``algorithm="quanshu"``."""


class ChartType(StrEnum):
    """Heaven, earth or human chart (天/地/人盘; iztro ``astroType``)."""

    HEAVEN = "heaven"
    """The ordinary chart (天盘)."""
    EARTH = "earth"
    """地盘: the Body palace becomes the Life palace."""
    HUMAN = "human"
    """人盘: the Spirit palace (福德) becomes the Life palace."""


# The options of iztro 2.6.0's astro.config() that change a chart.
_IZTRO_CONFIG_KEYS = (
    "yearDivide",
    "horoscopeDivide",
    "dayDivide",
    "ageDivide",
    "algorithm",
    "mutagens",
    "brightness",
)
_IZTRO_YEAR = {"normal": YearBoundary.LUNAR_NEW_YEAR, "exact": YearBoundary.SPRING_BEGINS}
_IZTRO_LATE_RAT = {"forward": LateRatHour.NEXT_DAY, "current": LateRatHour.SAME_DAY}
_IZTRO_AGE = {"normal": AgeCount.LUNAR_YEAR}
_IZTRO_ALGORITHM = {"default": Algorithm.QUANSHU}

YearBoundaryValue = YearBoundary | Literal["lunar_new_year", "spring_begins", "normal", "exact"]
LateRatHourValue = LateRatHour | Literal["next_day", "same_day", "forward", "current"]
LeapMonthValue = LeapMonth | Literal["split", "whole", "next"] | bool
SchoolValue = School | Literal["iztro", "quanshu"]
AgeCountValue = AgeCount | Literal["lunar_year", "birthday", "normal"]
AlgorithmValue = Algorithm | Literal["quanshu", "zhongzhou", "default"]
ChartTypeValue = ChartType | Literal["heaven", "earth", "human"]

MutagenOverrides = tuple[tuple[Stem, tuple[str, str, str, str]], ...]
BrightnessOverrides = tuple[tuple[str, tuple[str, ...]], ...]
MutagensValue = Mapping[Stem | str, Sequence[str]] | MutagenOverrides
BrightnessValue = Mapping[str, Sequence[str]] | BrightnessOverrides


@dataclass(frozen=True, slots=True, init=False)
class ZiweiSettings:
    """All the choices that change a Zi Wei Dou Shu chart.  Defaults match iztro 2.6.0.

    Choice fields also accept their string values (``late_rat_hour="same_day"``) and iztro's
    own words (``"forward"``, ``"exact"``, ...); they are stored as enum members.
    ``mutagens`` replaces rows of the 四化 table: a mapping from a year stem (``"庚"`` or
    ``Stem.GENG``) to four different stars (keys such as ``"tai_yang"`` or names such as
    ``"太阳"``) in the order 禄 权 科 忌.  ``brightness`` replaces a star's brightness row: a
    mapping from a star to twelve grades (``"庙"`` … ``"陷"``, or ``""`` for none) in branch
    order 子 丑 寅 … 亥.  Both are stored as sorted tuples so that settings stay hashable.
    ``true_solar_time`` and ``equation_of_time`` choose the chart clock when the birth has
    a time zone and a longitude (as in BaZi).
    """

    year_boundary: YearBoundary
    """The year of birth for the palace stems, five-element class, 四化, year-stem stars,
    decadal direction and small limit (iztro ``yearDivide``)."""
    horoscope_boundary: YearBoundary
    """The year used by horoscopes, by the yearly gods (岁前, 将前) and the year-based
    adjective stars, and the kind of month pillar in the birth data (iztro
    ``horoscopeDivide``)."""
    late_rat_hour: LateRatHour
    leap_month: LeapMonth
    age_count: AgeCount
    algorithm: Algorithm
    chart_type: ChartType
    mutagens: MutagenOverrides
    brightness: BrightnessOverrides
    school: School
    """Whose reading to follow where 紫微斗数全书 and iztro 2.6.0 part (``School``)."""
    true_solar_time: bool
    """Draw the day and hour from apparent solar time at the birth longitude (needs ``tz``
    and ``longitude``)."""
    equation_of_time: bool
    """With true solar time: add the equation of time (off = local mean time only)."""

    def __init__(
        self,
        year_boundary: YearBoundaryValue = YearBoundary.LUNAR_NEW_YEAR,
        horoscope_boundary: YearBoundaryValue = YearBoundary.LUNAR_NEW_YEAR,
        late_rat_hour: LateRatHourValue = LateRatHour.NEXT_DAY,
        leap_month: LeapMonthValue | None = None,
        age_count: AgeCountValue = AgeCount.LUNAR_YEAR,
        algorithm: AlgorithmValue = Algorithm.QUANSHU,
        chart_type: ChartTypeValue = ChartType.HEAVEN,
        mutagens: MutagensValue = (),
        brightness: BrightnessValue = (),
        true_solar_time: bool = False,
        equation_of_time: bool = True,
        school: SchoolValue = School.IZTRO,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "school", check_choice(School, school, "school"))
        if leap_month is None:  # each school's own default
            leap_month = LeapMonth.NEXT if self.school is School.QUANSHU else LeapMonth.SPLIT
        set_(
            self,
            "year_boundary",
            check_choice(YearBoundary, year_boundary, "year_boundary", _IZTRO_YEAR),
        )
        set_(
            self,
            "horoscope_boundary",
            check_choice(YearBoundary, horoscope_boundary, "horoscope_boundary", _IZTRO_YEAR),
        )
        set_(
            self,
            "late_rat_hour",
            check_choice(LateRatHour, late_rat_hour, "late_rat_hour", _IZTRO_LATE_RAT),
        )
        if isinstance(leap_month, bool):  # iztro's fixLeap: true splits the month
            leap_month = LeapMonth.SPLIT if leap_month else LeapMonth.WHOLE
        set_(self, "leap_month", check_choice(LeapMonth, leap_month, "leap_month"))
        set_(self, "age_count", check_choice(AgeCount, age_count, "age_count", _IZTRO_AGE))
        set_(self, "algorithm", check_choice(Algorithm, algorithm, "algorithm", _IZTRO_ALGORITHM))
        if self.school is School.QUANSHU and self.algorithm is not Algorithm.QUANSHU:
            raise InputError(
                "school",
                "the quanshu school (紫微斗数全书) follows the book's own star rules; it cannot be "
                f"combined with algorithm={self.algorithm.value!r} (algorithm picks iztro's "
                "全书 or 中州派 rules; school picks iztro's or the book's reading)",
            )
        set_(self, "chart_type", check_choice(ChartType, chart_type, "chart_type"))
        set_(self, "mutagens", _normalize_mutagens(mutagens))
        set_(self, "brightness", _normalize_brightness(brightness))
        set_(self, "true_solar_time", check_bool(true_solar_time, "true_solar_time"))
        set_(self, "equation_of_time", check_bool(equation_of_time, "equation_of_time"))

    def replace(self, **changes: Any) -> ZiweiSettings:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)

    @classmethod
    def from_iztro(
        cls,
        config: Mapping[str, Any] | None = None,
        *,
        fix_leap: bool = True,
        astro_type: str = "heaven",
    ) -> ZiweiSettings:
        """Settings equal to iztro's ``astro.config(config)`` with ``fixLeap`` and ``astroType``.

        iztro's brightness arrays start at the 寅 palace; they are turned to 子-first here.
        """
        if config is None:
            config = {}
        if not isinstance(config, Mapping):
            raise InputError("config", f"give iztro's config as a mapping, not {clip(config)}")
        unknown = sorted(str(k) for k in config if k not in _IZTRO_CONFIG_KEYS)
        if unknown:  # a misspelt option would silently keep iztro's default
            known = ", ".join(_IZTRO_CONFIG_KEYS)
            raise InputError("config", f"unknown iztro option {clip(unknown[0])} (known: {known})")
        raw_brightness = config.get("brightness") or {}
        if not isinstance(raw_brightness, Mapping):
            raise InputError("brightness", f"expected a mapping, not {clip(raw_brightness)}")
        brightness: dict[str, list[str]] = {}
        for star, row in raw_brightness.items():
            if isinstance(row, str) or not isinstance(row, Sequence):
                raise InputError("brightness", f"{clip(star)}: expected a list of 12 grades")
            brightness[star] = list(row[10:]) + list(row[:10])
        return cls(
            year_boundary=config.get("yearDivide", "normal"),
            horoscope_boundary=config.get("horoscopeDivide", "normal"),
            late_rat_hour=config.get("dayDivide", "forward"),
            age_count=config.get("ageDivide", "normal"),
            algorithm=config.get("algorithm", "default"),
            leap_month=check_bool(fix_leap, "fix_leap"),
            chart_type=astro_type,  # type: ignore[arg-type]  # checked by the constructor
            mutagens=config.get("mutagens") or (),
            brightness=brightness,
        )


def _items(value: object, name: str) -> Iterable[tuple[object, object]]:
    if isinstance(value, Mapping):
        return value.items()
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InputError(name, f"expected a mapping, not {clip(value)}")
    pairs = []
    for item in value:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise InputError(name, f"expected a mapping or (key, value) pairs, not {clip(item)}")
        pairs.append((item[0], item[1]))
    return pairs


def _row(value: object, name: str, label: str) -> list[object]:
    """A row of names or grades: a list or tuple, never a bare string or number."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InputError(name, f"{label}: expected a list, not {clip(value)}")
    return list(value)


_MUTAGEN_CHARS = "禄权科忌"


def _normalize_mutagens(value: object) -> MutagenOverrides:
    rows: dict[Stem, tuple[str, str, str, str]] = {}
    for raw_stem, raw_stars in _items(value, "mutagens"):
        stem = Stem.parse(raw_stem, "mutagens")
        if stem in rows:  # 丁 and "ding" are one stem: which row would win is no choice
            raise InputError("mutagens", f"{stem} is given twice")
        stars = _row(raw_stars, "mutagens", str(stem))
        if len(stars) != 4:
            raise InputError("mutagens", f"{stem}: give four stars (禄 权 科 忌), got {len(stars)}")
        keys: list[str] = []
        for raw in stars:
            star = star_by_name(raw) if isinstance(raw, str) else None
            if star is None or star.key not in MUTAGEN_STARS:
                raise InputError(
                    "mutagens",
                    f"{stem}: {clip(raw)} cannot carry a transformation "
                    "(only the 14 major stars and 左辅 右弼 文昌 文曲 can)",
                )
            if star.key in keys:
                first, second = _MUTAGEN_CHARS[keys.index(star.key)], _MUTAGEN_CHARS[len(keys)]
                raise InputError(
                    "mutagens",
                    f"{stem}: {star.names.hans} is given both {first} and {second} "
                    "(one stem's four transformations fall on four different stars)",
                )
            keys.append(star.key)
        rows[stem] = (keys[0], keys[1], keys[2], keys[3])
    return tuple(sorted(rows.items()))


def _normalize_brightness(value: object) -> BrightnessOverrides:
    rows: dict[str, tuple[str, ...]] = {}
    for raw_star, raw_row in _items(value, "brightness"):
        star = star_by_name(raw_star) if isinstance(raw_star, str) else None
        if star is None or star.group is StarGroup.ADJECTIVE:
            raise InputError(
                "brightness", f"{clip(raw_star)} is not a major or minor star, so it has no grade"
            )
        if star.key in rows:
            raise InputError("brightness", f"{star.names.hans} is given twice")
        grades = _row(raw_row, "brightness", star.names.hans)
        if len(grades) != 12:
            raise InputError(
                "brightness", f"{star.names.hans}: give 12 grades (子 … 亥), got {len(grades)}"
            )
        keys = []
        for grade in grades:
            if grade in ("", "-", None):
                keys.append("")
                continue
            try:
                level = Brightness.parse(grade)
            except InputError:
                raise InputError(
                    "brightness", f"{star.names.hans}: {clip(grade)} is not a brightness grade"
                ) from None
            keys.append(level.key)
        rows[star.key] = tuple(keys)
    return tuple(sorted(rows.items()))
