"""Settings of a Zi Wei Dou Shu chart: one immutable value passed into every call.

Every option of iztro 2.6.0 is here, with the same default, under a name a reader can
follow.  ``docs/ziwei-settings.md`` explains each one and maps it to iztro's option name.
There is no global configuration: two charts with different settings can be drawn side by
side in one process (iztro's sticky ``astro.config()`` cannot do that).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

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


class ChartType(StrEnum):
    """Heaven, earth or human chart (天/地/人盘; iztro ``astroType``)."""

    HEAVEN = "heaven"
    """The ordinary chart (天盘)."""
    EARTH = "earth"
    """地盘: the Body palace becomes the Life palace."""
    HUMAN = "human"
    """人盘: the Spirit palace (福德) becomes the Life palace."""


_IZTRO_NAMES: dict[str, Mapping[Any, StrEnum]] = {
    "year_boundary": {"normal": YearBoundary.LUNAR_NEW_YEAR, "exact": YearBoundary.SPRING_BEGINS},
    "horoscope_boundary": {
        "normal": YearBoundary.LUNAR_NEW_YEAR,
        "exact": YearBoundary.SPRING_BEGINS,
    },
    "late_rat_hour": {"forward": LateRatHour.NEXT_DAY, "current": LateRatHour.SAME_DAY},
    "age_count": {"normal": AgeCount.LUNAR_YEAR, "birthday": AgeCount.BIRTHDAY},
    "algorithm": {"default": Algorithm.QUANSHU, "zhongzhou": Algorithm.ZHONGZHOU},
    "leap_month": {True: LeapMonth.SPLIT, False: LeapMonth.WHOLE},
}

_ENUMS: dict[str, type[StrEnum]] = {
    "year_boundary": YearBoundary,
    "horoscope_boundary": YearBoundary,
    "late_rat_hour": LateRatHour,
    "leap_month": LeapMonth,
    "age_count": AgeCount,
    "algorithm": Algorithm,
    "chart_type": ChartType,
}

MutagenOverrides = tuple[tuple[Stem, tuple[str, str, str, str]], ...]
BrightnessOverrides = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class ZiweiSettings:
    """All the choices that change a Zi Wei Dou Shu chart.  Defaults match iztro 2.6.0.

    Enum fields also accept their string values (``late_rat_hour="same_day"``) and iztro's
    own words (``"forward"``, ``"exact"``, ...).  ``mutagens`` replaces rows of the 四化 table:
    a mapping from a year stem (``"庚"`` or ``Stem.GENG``) to four stars (keys such as
    ``"tai_yang"`` or names such as ``"太阳"``) in the order 禄 权 科 忌.  ``brightness``
    replaces a star's brightness row: a mapping from a star to twelve grades (``"庙"`` …
    ``"陷"``, or ``""`` for none) in branch order 子 丑 寅 … 亥.  Both are stored as sorted
    tuples so that settings stay hashable.
    """

    year_boundary: YearBoundary = YearBoundary.LUNAR_NEW_YEAR
    """The year of birth for the palace stems, five-element class, 四化, year-stem stars,
    decadal direction and small limit (iztro ``yearDivide``)."""
    horoscope_boundary: YearBoundary = YearBoundary.LUNAR_NEW_YEAR
    """The year used by horoscopes, by the yearly gods (岁前, 将前) and the year-based
    adjective stars, and the kind of month pillar in the birth data (iztro
    ``horoscopeDivide``)."""
    late_rat_hour: LateRatHour = LateRatHour.NEXT_DAY
    leap_month: LeapMonth = LeapMonth.SPLIT
    age_count: AgeCount = AgeCount.LUNAR_YEAR
    algorithm: Algorithm = Algorithm.QUANSHU
    chart_type: ChartType = ChartType.HEAVEN
    mutagens: MutagenOverrides = field(default=())
    brightness: BrightnessOverrides = field(default=())

    def __post_init__(self) -> None:
        for name, enum in _ENUMS.items():
            value = getattr(self, name)
            if not isinstance(value, enum):
                object.__setattr__(self, name, _coerce(name, enum, value))
        object.__setattr__(self, "mutagens", _normalize_mutagens(self.mutagens))
        object.__setattr__(self, "brightness", _normalize_brightness(self.brightness))

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
        config = dict(config or {})
        brightness = {
            star: list(row[10:]) + list(row[:10])
            for star, row in (config.get("brightness") or {}).items()
        }
        return cls(
            year_boundary=config.get("yearDivide", "normal"),
            horoscope_boundary=config.get("horoscopeDivide", "normal"),
            late_rat_hour=config.get("dayDivide", "forward"),
            age_count=config.get("ageDivide", "normal"),
            algorithm=config.get("algorithm", "default"),
            leap_month=fix_leap,  # type: ignore[arg-type]
            chart_type=astro_type,  # type: ignore[arg-type]
            mutagens=config.get("mutagens") or (),
            brightness=brightness,  # type: ignore[arg-type]
        )


def _coerce(name: str, enum: type[StrEnum], value: Any) -> StrEnum:
    iztro = _IZTRO_NAMES.get(name, {})
    if isinstance(value, bool) or value in iztro:
        if value in iztro:
            return iztro[value]
    elif isinstance(value, str):
        try:
            return enum(value)
        except ValueError:
            pass
    choices = ", ".join(repr(m.value) for m in enum)
    raise InputError(name, f"{value!r} is not one of {choices}")


def _items(value: Any, name: str) -> Iterable[tuple[Any, Any]]:
    if isinstance(value, Mapping):
        return value.items()
    try:
        return [(k, v) for k, v in value]
    except (TypeError, ValueError):
        raise InputError(name, "expected a mapping") from None


def _normalize_mutagens(value: Any) -> MutagenOverrides:
    rows: dict[Stem, tuple[str, str, str, str]] = {}
    for raw_stem, raw_stars in _items(value, "mutagens"):
        try:
            stem = raw_stem if isinstance(raw_stem, Stem) else Stem.parse(str(raw_stem))
        except ValueError as exc:
            raise InputError("mutagens", str(exc)) from None
        stars = list(raw_stars)
        if len(stars) != 4:
            raise InputError("mutagens", f"{stem}: give four stars (禄 权 科 忌), got {len(stars)}")
        keys = []
        for raw in stars:
            star = star_by_name(str(raw))
            if star is None or star.key not in MUTAGEN_STARS:
                raise InputError(
                    "mutagens",
                    f"{stem}: {raw!r} cannot carry a transformation "
                    "(only the 14 major stars and 左辅 右弼 文昌 文曲 can)",
                )
            keys.append(star.key)
        rows[stem] = (keys[0], keys[1], keys[2], keys[3])
    return tuple(sorted(rows.items()))


def _normalize_brightness(value: Any) -> BrightnessOverrides:
    rows: dict[str, tuple[str, ...]] = {}
    for raw_star, raw_row in _items(value, "brightness"):
        star = star_by_name(str(raw_star))
        if star is None or star.group is StarGroup.ADJECTIVE:
            raise InputError(
                "brightness", f"{raw_star!r} is not a major or minor star, so it has no grade"
            )
        grades = [str(g) for g in raw_row]
        if len(grades) != 12:
            raise InputError(
                "brightness", f"{raw_star}: give 12 grades (子 … 亥), got {len(grades)}"
            )
        keys = []
        for grade in grades:
            if grade in ("", "-"):
                keys.append("")
                continue
            try:
                level = Brightness.parse(grade)
            except InputError:
                raise InputError(
                    "brightness", f"{raw_star}: {clip(grade)} is not a brightness grade"
                ) from None
            keys.append(level.key)
        rows[star.key] = tuple(keys)
    return tuple(sorted(rows.items()))
