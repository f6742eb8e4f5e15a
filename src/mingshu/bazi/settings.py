"""BaZi settings: one immutable value passed into each call.

Every disputed rule is a named setting with a documented default (docs/bazi.md):

* :class:`LateRatHour` — the 23:00–24:00 子 hour (docs/bazi-rules.md §1.6).  Default ``NEXT_DAY``.
* :class:`StartAge` — how the luck start age is counted (docs/bazi-rules.md §3.3).  Default
  ``SECONDS``.
* :class:`EarthRule`, :class:`YinRule` — growth-stage conventions (docs/bazi-rules.md §2.5).
  Defaults ``FIRE_EARTH`` and ``BACKWARD`` (lunar-python and tyme4py).
* ``star_variants`` — which table each symbolic star uses (defaults in shensha.toml).
* ``star_bases`` — which basis each symbolic star is entered with (day stem, year stem, both …)
  and whether the basis pillar itself may carry it; defaults per star in shensha.toml.
* ``include_basis_pillar`` — search scope of the three-harmony stars (docs/bazi-rules.md §4.0).
* ``true_solar_time`` / ``equation_of_time`` — the clock used for the day and hour pillars.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Literal

from mingshu.bazi.stars import STAR_BY_KEY, STARS, star, star_by_name
from mingshu.bazi.tables import load
from mingshu.choices import check_bool, check_choice
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "DEFAULT",
    "PROFILES",
    "BaziSettings",
    "EarthRule",
    "LateRatHour",
    "MingGongMonth",
    "StartAge",
    "YinRule",
    "check_settings",
]


class LateRatHour(StrEnum):
    """The late Rat hour 23:00–23:59 (晚子时 / 夜子时), docs/bazi-rules.md §1.6.

    Birth at 23:30 on date D whose day pillar is P (P+1 for D+1):

    * ``NEXT_DAY`` (A, 子初换日): day pillar P+1, hour 子 of P+1.  lunar-python
      ``EightChar.setSect(1)``, tyme4py's default provider, cnlunar, and iztro's default
      ``dayDivide = 'forward'`` (so the Zi Wei and BaZi engines of mingshu agree).
    * ``SPLIT`` (B, 夜子时): day pillar P, hour 子 of P+1 (the stem from the next day).
      lunar-python ``setSect(2)``, its ``EightChar`` default.
    * ``SAME_DAY`` (C): day pillar P, hour 子 of P (stem from the same day).  Offered by none of
      the reference libraries; described in docs/bazi-rules.md §1.6 [UNSOURCED].
    """

    NEXT_DAY = "next_day"
    SPLIT = "split"
    SAME_DAY = "same_day"


class StartAge(StrEnum):
    """How the span from birth to the 节 becomes a start age (起运), docs/bazi-rules.md §3.3.

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
    """Where the earth stems 戊/己 start their growth cycle (docs/bazi-rules.md §2.5)."""

    FIRE_EARTH = "fire_earth"
    """火土同宫: 戊 follows 丙 (长生 寅), 己 follows 丁 — lunar-python, tyme4py."""
    WATER_EARTH = "water_earth"
    """水土同宫: 戊 长生 申 — 六壬, and 三命通会's nayin lookups."""


class YinRule(StrEnum):
    """Which way the yin stems run through the growth stages (docs/bazi-rules.md §2.5)."""

    BACKWARD = "backward"
    """阳顺阴逆: yin stems count backward from their own 长生 (乙 长生 午) — the libraries."""
    FORWARD = "forward"
    """阴阳同生同死: a yin stem shares its yang partner's cycle (乙 长生 亥)."""


class MingGongMonth(StrEnum):
    """Which month the 命宫 (life palace) counts from (docs/bazi-rules.md §2.7)."""

    JIE = "jie"
    """The month pillar's branch (from the 节): lunar-python, tyme4py; 三命通會 卷二「論坐命宫」
    counts from the month of birth."""
    ZHONG_QI = "zhong_qi"
    """The month counted from its 中气 (the sun entering the sign, 太阳过宫): born after 立春
    but before 雨水 counts as 丑.  A convention (no passage found in the transcriptions)."""


MingGongMonthValue = MingGongMonth | Literal["jie", "zhong_qi"]

LateRatHourValue = LateRatHour | Literal["next_day", "split", "same_day", "forward", "current"]
StartAgeValue = StartAge | Literal["seconds", "minutes", "days_shichen", "china95"]
EarthRuleValue = EarthRule | Literal["fire_earth", "water_earth"]
YinRuleValue = YinRule | Literal["backward", "forward"]
StarVariantsValue = Mapping[str, str] | tuple[tuple[str, str], ...]
StarBasesValue = Mapping[str, str] | tuple[tuple[str, str], ...]


def _load_profiles() -> dict[str, dict[str, Any]]:
    out = {}
    for row in load("profiles.toml")["profile"]:
        for key in (*row["variants"], *row["bases"]):
            if key not in STAR_BY_KEY:
                raise RuntimeError(f"profiles.toml: {row['key']} names no star {key!r}")
        out[row["key"]] = row
    return out


PROFILES: Mapping[str, Mapping[str, Any]] = _load_profiles()
"""Named profiles (profiles.toml): star variants and bases that reproduce a peer package."""


# iztro's words for its two day-change settings: "forward" moves the day (NEXT_DAY), "current"
# keeps it and counts the hour from the same day (SAME_DAY).
_LATE_RAT_ALIASES = {"forward": LateRatHour.NEXT_DAY, "current": LateRatHour.SAME_DAY}


@dataclass(frozen=True, slots=True, init=False)
class BaziSettings:
    """Every choice a BaZi chart depends on.  Immutable and hashable; pass it into each call.

    ``Settings()`` is the documented default.  Change fields with the constructor,
    :meth:`replace` or :meth:`with_variants`::

        BaziSettings(late_rat_hour=LateRatHour.SPLIT)
        BaziSettings().with_variants(wen_chang="w2", tian_yi="v1")

    Choice fields also accept their string values (``late_rat_hour="split"``, as read from
    JSON or the command line); they are stored as the enum members.
    """

    late_rat_hour: LateRatHour
    start_age: StartAge
    stage_earth: EarthRule
    stage_yin: YinRule
    star_variants: tuple[tuple[str, str], ...]
    """Chosen variant per star as (star key, variant id) pairs; stars not named use their
    default from shensha.toml.  Normalised to one pair per named star, sorted."""
    include_basis_pillar: bool
    """May a branch-based star (三合 family, 孤辰, 勾绞 …) be found in the very pillar that
    supplies its basis (将星 of a 午 year in the year branch 午)?  docs/bazi-rules.md §4.0
    recommends no.
    A star's own entry in ``star_bases`` (``…+self`` / ``…+other``) overrides it."""
    star_bases: tuple[tuple[str, str], ...]
    """Chosen basis per star as (star key, spec) pairs: ``"year_stem"``,
    ``"day_stem+year_stem"``, ``"year_branch+day_branch+self"`` (``+self``: the basis pillar
    may carry the star; ``+other``: it may not).  Stars not named use the default of their
    variant (shensha.toml ``basis``).  Normalised, sorted."""
    true_solar_time: bool
    """Day and hour pillars from apparent solar time at the birth longitude (needs one)."""
    equation_of_time: bool
    """With true solar time: add the equation of time (off = local mean time only)."""
    luck_steps: int
    """How many luck pillars (大运) to list."""
    ming_gong_month: MingGongMonth
    """The month the 命宫 counts from: the 节 month (default) or the 中气 month."""
    si_ling: str
    """The 人元司令 table: ``sanming`` (三命通會 卷二, default) or ``tyme4py``."""
    profile: str
    """The named profile the star variants and bases started from (``""``: mingshu's own
    defaults; ``"bazi-2.3.0"``, ``"bazi-chart-1.2.0"``: reproduce those packages)."""
    variant_ids: tuple[str, ...] = field(init=False, repr=False, compare=False, hash=False)
    """Variant id in use for every star, in catalogue order (derived from ``star_variants``)."""
    bases_chosen: tuple[tuple[tuple[str, ...] | None, bool | None], ...] = field(
        init=False, repr=False, compare=False, hash=False
    )
    """(bases or ``None``, basis pillar counts or ``None``) per star in catalogue order."""

    def __init__(
        self,
        late_rat_hour: LateRatHourValue = LateRatHour.NEXT_DAY,
        start_age: StartAgeValue = StartAge.SECONDS,
        stage_earth: EarthRuleValue = EarthRule.FIRE_EARTH,
        stage_yin: YinRuleValue = YinRule.BACKWARD,
        star_variants: StarVariantsValue = (),
        include_basis_pillar: bool = False,
        star_bases: StarBasesValue = (),
        true_solar_time: bool = False,
        equation_of_time: bool = True,
        luck_steps: int = 10,
        profile: str = "",
        ming_gong_month: MingGongMonthValue = MingGongMonth.JIE,
        si_ling: str = "sanming",
    ) -> None:
        set_ = object.__setattr__
        set_(
            self,
            "ming_gong_month",
            check_choice(MingGongMonth, ming_gong_month, "ming_gong_month"),
        )
        if si_ling not in ("sanming", "tyme4py"):
            raise InputError("si_ling", f"use sanming or tyme4py, not {clip(si_ling)}")
        set_(self, "si_ling", si_ling)
        if not isinstance(profile, str) or (profile and profile not in PROFILES):
            known = ", ".join(PROFILES)
            raise InputError("profile", f"no profile {clip(profile)} (use {known})")
        set_(self, "profile", profile)
        if profile:  # the profile first, the explicit choices over it
            mine_v, mine_b = _as_dict(star_variants), _as_dict(star_bases)
            if mine_v is not None:
                star_variants = {**PROFILES[profile]["variants"], **mine_v}
            if mine_b is not None:
                star_bases = {**PROFILES[profile]["bases"], **mine_b}
        set_(
            self,
            "late_rat_hour",
            check_choice(LateRatHour, late_rat_hour, "late_rat_hour", _LATE_RAT_ALIASES),
        )
        set_(self, "start_age", check_choice(StartAge, start_age, "start_age"))
        set_(self, "stage_earth", check_choice(EarthRule, stage_earth, "stage_earth"))
        set_(self, "stage_yin", check_choice(YinRule, stage_yin, "stage_yin"))
        set_(self, "star_variants", _normalise_variants(star_variants))
        chosen = dict(self.star_variants)
        set_(self, "variant_ids", tuple(chosen.get(s.key, s.default) for s in STARS))
        set_(self, "include_basis_pillar", check_bool(include_basis_pillar, "include_basis_pillar"))
        set_(self, "star_bases", _normalise_bases(star_bases, self.variant_ids))
        chosen_bases = dict(self.star_bases)
        set_(
            self,
            "bases_chosen",
            tuple(
                _parse_bases(chosen_bases[s.key]) if s.key in chosen_bases else (None, None)
                for s in STARS
            ),
        )
        set_(self, "true_solar_time", check_bool(true_solar_time, "true_solar_time"))
        set_(self, "equation_of_time", check_bool(equation_of_time, "equation_of_time"))
        steps = luck_steps
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= 20:
            raise InputError(
                "luck_steps", f"must be a whole number from 1 to 20, not {clip(steps)}"
            )
        set_(self, "luck_steps", steps)

    def variant_of(self, star_key: str) -> str:
        """Variant id in use for the star ``star_key`` (its key or any of its names);
        :class:`InputError` on ``star`` for a name that is no star."""
        key = _star_key(star_key)
        for known, variant in self.star_variants:
            if known == key:
                return variant
        return STAR_BY_KEY[key].default

    def with_variants(self, **choices: str) -> BaziSettings:
        """A copy with other star variants: ``with_variants(wen_chang="w2")``."""
        merged = dict(self.star_variants)
        merged.update(choices)
        return replace(self, star_variants=tuple(merged.items()))

    def with_bases(self, **choices: str) -> BaziSettings:
        """A copy with other star bases: ``with_bases(tai_ji="year_stem")``."""
        merged = dict(self.star_bases)
        merged.update(choices)
        return replace(self, star_bases=tuple(merged.items()))

    def bases_of(self, star_key: str) -> tuple[str, ...]:
        """The bases the star ``star_key`` (its key or any name) is entered with under these
        settings; :class:`InputError` on ``star`` for a name that is no star."""
        n = _STAR_INDEX[_star_key(star_key)]
        chosen = self.bases_chosen[n][0]
        return chosen if chosen is not None else STARS[n].variant(self.variant_ids[n]).basis

    def replace(self, **changes: Any) -> BaziSettings:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "late_rat_hour": self.late_rat_hour.value,
            "start_age": self.start_age.value,
            "stage_earth": self.stage_earth.value,
            "stage_yin": self.stage_yin.value,
            "star_variants": dict(zip((s.key for s in STARS), self.variant_ids, strict=True)),
            "include_basis_pillar": self.include_basis_pillar,
            "star_bases": dict(self.star_bases),
            "true_solar_time": self.true_solar_time,
            "equation_of_time": self.equation_of_time,
            "luck_steps": self.luck_steps,
            "profile": self.profile,
            "ming_gong_month": self.ming_gong_month.value,
            "si_ling": self.si_ling,
        }


_STAR_INDEX = {s.key: i for i, s in enumerate(STARS)}


def _star_key(name: object) -> str:
    """The key of a star given by key (the fast path) or by any name."""
    if isinstance(name, str) and name in STAR_BY_KEY:
        return name
    return star(name).key  # type: ignore[arg-type]  # it checks and names the field


def _normalise_variants(value: object) -> tuple[tuple[str, str], ...]:
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, tuple | list):
        pairs = list(value)
    else:
        raise InputError(
            "star_variants", f"give (star, variant) pairs or a mapping, not {clip(value)}"
        )
    chosen: dict[str, str] = {}
    for pair in pairs:
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            raise InputError("star_variants", f"give (star, variant) pairs, not {clip(pair)}")
        found = star_by_name(pair[0])  # a key or any of the star's names
        if found is None:
            raise InputError("star_variants", f"no symbolic star {clip(pair[0])}")
        if found.key in chosen:
            raise InputError("star_variants", f"{found.key} is given twice")
        chosen[found.key] = pair[1]
    for key, variant in chosen.items():
        star_def = STAR_BY_KEY.get(key)
        if star_def is None:
            raise InputError("star_variants", f"no symbolic star {clip(key)}")
        if variant not in star_def.variant_ids:
            known = ", ".join(star_def.variant_ids)
            raise InputError("star_variants", f"{key} has no variant {clip(variant)} (use {known})")
    return tuple(sorted(chosen.items()))


def _as_dict(value: object) -> dict[str, str] | None:
    """Pairs or a mapping of strings as a dict; ``None`` for anything else (the normalisers
    then reject it with a message)."""
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if isinstance(pairs, tuple | list) and all(
        isinstance(p, tuple | list) and len(p) == 2 and all(isinstance(x, str) for x in p)
        for p in pairs
    ):
        return {k: v for k, v in pairs}
    return None


_SELF_WORDS = {"self": True, "other": False}


def _parse_bases(spec: str) -> tuple[tuple[str, ...] | None, bool | None]:
    words = spec.split("+")
    self_counts = _SELF_WORDS.get(words[-1]) if words else None
    if self_counts is not None:
        words = words[:-1]
    return (tuple(words) if words else None), self_counts


def _normalise_bases(value: object, variant_ids: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, tuple | list):
        pairs = list(value)
    else:
        raise InputError("star_bases", f"give (star, basis) pairs or a mapping, not {clip(value)}")
    chosen: dict[str, str] = {}
    index = {s.key: n for n, s in enumerate(STARS)}
    for pair in pairs:
        if (
            not isinstance(pair, tuple | list)
            or len(pair) != 2
            or not all(isinstance(x, str) for x in pair)
        ):
            raise InputError("star_bases", f"give (star, basis) pairs, not {clip(pair)}")
        found = star_by_name(pair[0])
        if found is None:
            raise InputError("star_bases", f"no symbolic star {clip(pair[0])}")
        if found.key in chosen:
            raise InputError("star_bases", f"{found.key} is given twice")
        spec = pair[1].strip().replace(" ", "")
        bases, _self = _parse_bases(spec)
        variant = found.variant(variant_ids[index[found.key]])
        allowed = variant.bases
        if bases is not None and (
            not bases or len(set(bases)) != len(bases) or not set(bases) <= set(allowed)
        ):
            known = ", ".join(allowed)
            raise InputError(
                "star_bases",
                f"{found.key} ({variant.id}) can be entered with {known} (joined by +, "
                f"optionally +self or +other), not {clip(pair[1])}",
            )
        chosen[found.key] = spec
    return tuple(sorted(chosen.items()))


def check_settings(settings: object) -> BaziSettings:
    """``settings`` if it is a :class:`BaziSettings`; :class:`InputError` otherwise."""
    if not isinstance(settings, BaziSettings):
        raise InputError("settings", f"give a BaziSettings value, not {clip(settings)}")
    return settings


DEFAULT = BaziSettings()
"""The default settings."""
