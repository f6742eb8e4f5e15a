"""Every chart setting as an option: its name, its words, its default and its help line.

The one table the command line (``mingshu ziwei``, ``mingshu bazi``, ``mingshu sweep
ziwei``) and the web site (the form and the API's parameters) build their options from,
so that no front end can drift from another.  Plain data, nothing imported: building
``--help`` loads no engine.  ``tests/test_options.py`` checks the table against the
settings types themselves (``ZiweiSettings``, ``BaziSettings``): every field, every enum
value, every other library's word, every default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["BAZI", "ZIWEI", "Choice", "Flag", "Pairs", "Setting"]


@dataclass(frozen=True, slots=True)
class Choice:
    """A setting that takes one of a few words."""

    name: str
    """The settings field (``ZiweiSettings.year_boundary``); the option is ``--year-boundary``."""
    words: tuple[str, ...]
    """The field's own words, as the enum's values."""
    default: str
    help: str
    aliases: tuple[tuple[str, str], ...] = ()
    """Another library's words and ours for them (iztro's ``exact`` is ``spring_begins``)."""
    school_defaults: tuple[tuple[str, str], ...] = ()
    """(school, word): a default that depends on the ``school`` setting."""
    natal: bool = True
    """Changes a natal chart (so a sweep of natal charts takes it)."""

    def word(self, text: str) -> str | None:
        """Our word for ``text`` (one of ours or an alias, any case), or None."""
        text = text.strip().lower()
        if text in self.words:
            return text
        return dict(self.aliases).get(text)

    def default_for(self, school: str) -> str:
        return dict(self.school_defaults).get(school, self.default)


@dataclass(frozen=True, slots=True)
class Flag:
    """A yes/no setting: ``--name`` (and ``--no-name`` when it is on by default)."""

    name: str
    default: bool
    help: str
    natal: bool = False
    """Needs a place and a clock time, which a sweep by time index has not."""


@dataclass(frozen=True, slots=True)
class Pairs:
    """A table override: ``--option KEY=V1,V2,…``, repeatable, one key once."""

    name: str
    option: str
    metavar: str
    example: str
    help: str
    natal: bool = True


Setting = Choice | Flag | Pairs

_YEAR_ALIASES: Final = (("normal", "lunar_new_year"), ("exact", "spring_begins"))
_LATE_RAT_ALIASES: Final = (("forward", "next_day"), ("current", "same_day"))

# The birth layer's two flags, settings of both engines.
_SOLAR_TIME: Final = (
    Flag(
        "true_solar_time",
        False,
        "Day and hour from apparent solar time at --longitude (needs --tz).",
    ),
    Flag(
        "equation_of_time",
        True,
        "With --true-solar-time: apparent (with) or mean (without) solar time.",
    ),
)

ZIWEI: Final[tuple[Setting, ...]] = (
    Choice(
        "year_boundary",
        ("lunar_new_year", "spring_begins"),
        "lunar_new_year",
        "Where the birth year begins (palace stems, 四化): lunar_new_year (正月初一; iztro "
        "normal) or spring_begins (立春; iztro exact).",
        _YEAR_ALIASES,
    ),
    Choice(
        "horoscope_boundary",
        ("lunar_new_year", "spring_begins"),
        "lunar_new_year",
        "Where the year begins for horoscopes, yearly gods and year stars: lunar_new_year "
        "(iztro normal) or spring_begins (iztro exact).",
        _YEAR_ALIASES,
    ),
    Choice(
        "late_rat_hour",
        ("next_day", "same_day"),
        "next_day",
        "A birth at 23:00-24:00 counts as the next_day (iztro forward) or the same_day "
        "(iztro current).",
        _LATE_RAT_ALIASES,
    ),
    Choice(
        "leap_month",
        ("split", "whole", "next"),
        "split",
        "Leap-month births: split at day 16 (iztro fixLeap true), the whole month as the "
        "last (fixLeap false), or as the next (全书). Left out: the school's own (split; "
        "next for the quanshu school).",
        school_defaults=(("iztro", "split"), ("quanshu", "next")),
    ),
    Choice(
        "age_count",
        ("lunar_year", "birthday"),
        "lunar_year",
        "Horoscope age: lunar_year, +1 at each lunar new year (虚岁; iztro normal), or birthday.",
        (("normal", "lunar_year"),),
        natal=False,  # the natal chart has no age: only the horoscope counts one
    ),
    Choice(
        "algorithm",
        ("quanshu", "zhongzhou"),
        "quanshu",
        "Star rules: quanshu (紫微斗数全书; iztro default) or zhongzhou (中州派).",
        (("default", "quanshu"),),
    ),
    Choice(
        "chart_type",
        ("heaven", "earth", "human"),
        "heaven",
        "heaven (天盘), earth (地盘: 身宫 as 命宫) or human (人盘: 福德 as 命宫).",
    ),
    Choice(
        "school",
        ("iztro", "quanshu"),
        "iztro",
        "Whose reading: iztro (iztro 2.6.0, default) or quanshu (紫微斗数全书 卷二 where iztro "
        "departs; docs/book-conformance.md; needs algorithm quanshu). Not the algorithm.",
    ),
    Pairs(
        "mutagens",
        "--mutagen",
        "STEM=禄,权,科,忌",
        "STEM=STAR,STAR,STAR,STAR (e.g. 庚=太阳,武曲,天府,天同)",
        "Replace the 四化 of a year stem, e.g. 庚=太阳,武曲,天府,天同 (repeatable).",
    ),
    Pairs(
        "brightness",
        "--brightness",
        "STAR=G,…",
        "STAR=12 grades (e.g. 紫微=平,庙,…)",
        "Replace a star's brightness: 12 grades (庙 旺 得 利 平 不 陷, or - for none) for "
        "子 丑 … 亥, e.g. 紫微=平,庙,… (repeatable).",
    ),
    *_SOLAR_TIME,
)
"""The Zi Wei settings (``ZiweiSettings``), in the order --help lists them."""

BAZI: Final[tuple[Setting, ...]] = (
    Choice(
        "late_rat_hour",
        ("next_day", "split", "same_day"),
        "next_day",
        "23:00-24:00 convention (docs/bazi-rules.md §1.6): next_day, split (夜子时) or "
        "same_day (iztro's forward and current are next_day and same_day).",
        _LATE_RAT_ALIASES,
    ),
    Choice(
        "start_age",
        ("seconds", "minutes", "days_shichen", "china95"),
        "seconds",
        "Luck start-age method (docs/bazi-rules.md §3.3): seconds, minutes, days_shichen "
        "or china95.",
    ),
    Choice(
        "stage_earth",
        ("fire_earth", "water_earth"),
        "fire_earth",
        "Growth stages of 戊/己: fire_earth (火土同宫) or water_earth (水土同宫).",
    ),
    Choice(
        "stage_yin",
        ("backward", "forward"),
        "backward",
        "Yin stems run backward (阳顺阴逆) or forward (阴阳同生).",
    ),
    Choice(
        "ming_gong_month",
        ("jie", "zhong_qi"),
        "jie",
        "命宫 from the jie month (jie) or the zhong_qi month.",
    ),
    Choice(
        "si_ling",
        ("sanming", "tyme4py"),
        "sanming",
        "人元司令 table: sanming (三命通會 卷二) or tyme4py.",
    ),
    Flag(
        "include_basis_pillar",
        False,
        "Let branch-based stars be found in the pillar that gives their basis.",
        natal=True,
    ),
    *_SOLAR_TIME,
)
"""The BaZi settings (``BaziSettings``) that are words or flags; the star tables
(``--star``, ``--star-basis``, ``--profile``) and ``--luck-steps`` are the command's own."""
