"""BaZi settings: one immutable value passed into each call.

Every disputed rule is a named setting with a documented default (docs/bazi.md):

* :class:`LateRat` — the 23:00–24:00 子 hour (spec §1.6).  Default ``NEXT_DAY``.
* :class:`StartAge` — how the luck start age is counted (spec §3.3).  Default ``SECONDS``.
* :class:`EarthRule`, :class:`YinRule` — growth-stage conventions (spec §2.5).  Defaults
  ``FIRE_EARTH`` and ``BACKWARD`` (lunar-python and tyme4py).
* ``star_variants`` — which table each symbolic star uses (defaults in shensha.toml).
* ``include_basis_pillar`` / ``extra_bases`` — search scope of the symbolic stars (spec §4.0).
* ``true_solar_time`` / ``equation_of_time`` — the clock used for the day and hour pillars.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from mingshu.bazi.stars import STAR_BY_KEY, STARS
from mingshu.errors import InputError

__all__ = ["DEFAULT", "EarthRule", "LateRat", "Settings", "StartAge", "YinRule"]


class LateRat(StrEnum):
    """The late Rat hour 23:00–23:59 (晚子时 / 夜子时), spec §1.6.

    Birth at 23:30 on date D whose day pillar is P (P+1 for D+1):

    * ``NEXT_DAY`` (A, 子初换日): day pillar P+1, hour 子 of P+1.  lunar-python
      ``EightChar.setSect(1)``, tyme4py's default provider, cnlunar, and iztro's default
      ``dayDivide = 'forward'`` (so the Zi Wei and BaZi engines of mingshu agree).
    * ``SPLIT`` (B, 夜子时): day pillar P, hour 子 of P+1 (the stem from the next day).
      lunar-python ``setSect(2)``, its ``EightChar`` default.
    * ``SAME_DAY`` (C): day pillar P, hour 子 of P (stem from the same day).  Offered by none of
      the reference libraries; described in spec §1.6 [UNSOURCED].
    """

    NEXT_DAY = "next_day"
    SPLIT = "split"
    SAME_DAY = "same_day"


class StartAge(StrEnum):
    """How the span from birth to the 节 becomes a start age (起运), spec §3.3.

    All use 3 days = 1 year.  Each method reproduces its reference library, including the
    calendar arithmetic that turns the age into a start date:

    * ``SECONDS``: exact seconds (259 200 s = 1 year, 21 600 s = 1 month, 720 s = 1 day,
      30 s = 1 hour, the rest × 2 = minutes); tyme4py 1.5.0 ``DefaultChildLimitProvider``;
      day overflow carried into the next month.
    * ``MINUTES``: whole minutes, seconds dropped (4320 min = 1 year, 360 = 1 month, 12 = 1 day,
      the rest × 2 = hours); lunar-python ``getYun(gender, 2)``; month ends clamped.
    * ``DAYS_SHICHEN``: whole calendar days and whole 时辰 (1 day = 4 months, 1 时辰 = 10 days);
      lunar-python ``getYun(gender, 1)`` (its default); month ends clamped.
    * ``CHINA95``: whole minutes, no hours (元亨利贞); tyme4py ``China95ChildLimitProvider``.
    """

    SECONDS = "seconds"
    MINUTES = "minutes"
    DAYS_SHICHEN = "days_shichen"
    CHINA95 = "china95"


class EarthRule(StrEnum):
    """Where the earth stems 戊/己 start their growth cycle (spec §2.5)."""

    FIRE_EARTH = "fire_earth"
    """火土同宫: 戊 follows 丙 (长生 寅), 己 follows 丁 — lunar-python, tyme4py."""
    WATER_EARTH = "water_earth"
    """水土同宫: 戊 长生 申 — 六壬, and 三命通会's nayin lookups."""


class YinRule(StrEnum):
    """Which way the yin stems run through the growth stages (spec §2.5)."""

    BACKWARD = "backward"
    """阳顺阴逆: yin stems count backward from their own 长生 (乙 长生 午) — the libraries."""
    FORWARD = "forward"
    """阴阳同生同死: a yin stem shares its yang partner's cycle (乙 长生 亥)."""


def _enum(kind: type[StrEnum], value: Any, name: str) -> Any:
    if isinstance(value, kind):
        return value
    try:
        return kind(str(value).strip().lower())
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise InputError(name, f"{value!r} is not one of {allowed}") from None


@dataclass(frozen=True, slots=True)
class Settings:
    """Every choice a BaZi chart depends on.  Immutable and hashable; pass it into each call.

    ``Settings()`` is the documented default.  Change fields with the constructor,
    :meth:`replace` or :meth:`with_variants`::

        Settings(late_rat=LateRat.SPLIT)
        Settings().with_variants(wen_chang="w2", tian_yi="v1")

    Enum fields also accept their string values at run time (``late_rat="split"``, as read
    from JSON or the command line); they are stored as the enum members.
    """

    late_rat: LateRat = LateRat.NEXT_DAY
    start_age: StartAge = StartAge.SECONDS
    stage_earth: EarthRule = EarthRule.FIRE_EARTH
    stage_yin: YinRule = YinRule.BACKWARD
    star_variants: tuple[tuple[str, str], ...] = field(default=())
    """Chosen variant per star as (star key, variant id) pairs; stars not named use their
    default from shensha.toml.  Normalised to one pair per named star, sorted."""
    include_basis_pillar: bool = False
    """May a branch-based star (三合 family, 孤辰, 勾绞 …) be found in the very pillar that
    supplies its basis (将星 of a 午 year in the year branch 午)?  Spec §4.0 recommends no."""
    extra_bases: bool = False
    """Also look stars up from the second basis some schools use (天乙, 文昌 … from the year
    stem as well as the day stem; 孤辰 / 寡宿 from the day branch as well)."""
    true_solar_time: bool = False
    """Day and hour pillars from apparent solar time at the birth longitude (needs one)."""
    equation_of_time: bool = True
    """With true solar time: add the equation of time (off = local mean time only)."""
    luck_steps: int = 10
    """How many luck pillars (大运) to list."""
    variant_ids: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)
    """Variant id in use for every star, in catalogue order (derived from ``star_variants``)."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "late_rat", _enum(LateRat, self.late_rat, "late_rat"))
        set_(self, "start_age", _enum(StartAge, self.start_age, "start_age"))
        set_(self, "stage_earth", _enum(EarthRule, self.stage_earth, "stage_earth"))
        set_(self, "stage_yin", _enum(YinRule, self.stage_yin, "stage_yin"))
        set_(self, "star_variants", _normalise_variants(self.star_variants))
        chosen = dict(self.star_variants)
        set_(self, "variant_ids", tuple(chosen.get(s.key, s.default) for s in STARS))
        for name in ("include_basis_pillar", "extra_bases", "true_solar_time", "equation_of_time"):
            if not isinstance(getattr(self, name), bool):
                raise InputError(name, f"must be true or false, not {getattr(self, name)!r}")
        steps = self.luck_steps
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= 20:
            raise InputError("luck_steps", f"must be a whole number from 1 to 20, not {steps!r}")

    def variant_of(self, star_key: str) -> str:
        """Variant id in use for ``star_key``."""
        for key, variant in self.star_variants:
            if key == star_key:
                return variant
        return STAR_BY_KEY[star_key].default

    def with_variants(self, **choices: str) -> Settings:
        """A copy with other star variants: ``with_variants(wen_chang="w2")``."""
        merged = dict(self.star_variants)
        merged.update(choices)
        return replace(self, star_variants=tuple(merged.items()))

    def replace(self, **changes: Any) -> Settings:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "late_rat": self.late_rat.value,
            "start_age": self.start_age.value,
            "stage_earth": self.stage_earth.value,
            "stage_yin": self.stage_yin.value,
            "star_variants": dict(zip((s.key for s in STARS), self.variant_ids, strict=True)),
            "include_basis_pillar": self.include_basis_pillar,
            "extra_bases": self.extra_bases,
            "true_solar_time": self.true_solar_time,
            "equation_of_time": self.equation_of_time,
            "luck_steps": self.luck_steps,
        }


def _normalise_variants(value: Any) -> tuple[tuple[str, str], ...]:
    pairs = value.items() if isinstance(value, Mapping) else value
    chosen: dict[str, str] = {}
    try:
        for key, variant in pairs:
            chosen[str(key)] = str(variant)
    except (TypeError, ValueError):
        raise InputError("star_variants", "give (star, variant) pairs or a mapping") from None
    for key, variant in chosen.items():
        star_def = STAR_BY_KEY.get(key)
        if star_def is None:
            raise InputError("star_variants", f"no symbolic star {key!r}")
        if variant not in star_def.variant_ids:
            known = ", ".join(star_def.variant_ids)
            raise InputError("star_variants", f"{key} has no variant {variant!r} (use {known})")
    return tuple(sorted(chosen.items()))


DEFAULT = Settings()
"""The default settings."""
