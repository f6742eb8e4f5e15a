"""What the engines say, looked up in the shapes the library's kinds need: names of
branches, stems and stars, where a Zi Wei star stands for a lunar month, day and hour, the
cells of BaZi star tables, the conformance run's record, and charts under each school.

Every value is read from :mod:`mingshu.ziwei` charts or :mod:`mingshu.bazi` tables at the
time of the call; nothing is typed in.  The table, problem and diagram kinds
(:mod:`mingshu.library.tables`, :mod:`mingshu.library.problems`,
:mod:`mingshu.library.svg`) and the claims build on these; this module imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Generic, TypeVar

from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "ALGORITHMS",
    "BASIS_WORDS",
    "LATE_RAT",
    "MAJORS",
    "PILLARS",
    "SCHOOLS",
    "Kind",
    "Options",
    "Table",
    "algorithm_of",
    "bazi_cell",
    "branch_name",
    "branch_number",
    "class_day_branch",
    "conformance",
    "hour_name",
    "hour_number",
    "major_layout",
    "school_branches",
    "star_branch",
    "star_name",
    "stem_name",
]

Options = Mapping[str, Any]
"""A directive's or a problem query's parameters, as the article's YAML gives them."""

R = TypeVar("R")


@dataclass(frozen=True)
class Kind(Generic[R]):
    """One kind of table, problem or diagram: the function computing it from an article's
    parameters, the parameters it reads (anything else is refused), and what it gives."""

    run: Callable[[Options], R]
    params: tuple[str, ...]
    about: str

    def __call__(self, options: Options) -> R:
        return self.run(options)


@dataclass(frozen=True)
class Table:
    """A table as printed: column heads, rows of cell text, and the marked cells (row, col)
    with the rule that marks them."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    marked: frozenset[tuple[int, int]] = frozenset()
    mark_rule: str = ""


def branch_name(branch: int) -> str:
    """The English animal of a branch: 0 Rat … 11 Pig."""
    return str(Branch(branch % 12).names.english)


_HOURS: Final = {branch_name(b).lower(): b for b in range(12)}

LATE_RAT: Final = 12
"""The engine's time index of the late Rat hour (23:00–24:00), which by default counts as
the next day's Rat hour: a birth the backward problems must not leave out."""


def hour_name(hour: int) -> str:
    """An hour's name as an answer gives it: the animal, or "the late Rat hour"."""
    return "the late Rat hour" if hour == LATE_RAT else branch_name(hour)


def hour_number(value: object, field: str = "hour") -> int:
    """An hour as a number Rat 0 … Pig 11, from a number or an animal name."""
    if isinstance(value, int) and 0 <= value < 12:
        return value
    key = str(value).lower().removesuffix(" hour")
    if key in _HOURS:
        return _HOURS[key]
    raise InputError(field, f"{value!r} is not an hour (Rat … Pig or 0 … 11)")


def branch_number(value: object, field: str = "branch") -> int:
    return hour_number(value, field)


def star_name(key: str) -> str:
    from mingshu import ziwei

    try:
        return str(ziwei.star(key).names.pinyin)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {key!r}") from None


# ------------------------------------------------------------------------- Zi Wei charts


@cache
def _reference_year(month: int) -> int:
    """A lunar year whose month ``month`` has 30 days (so every day 1 … 30 exists)."""
    from mingshu import calendar

    for year in range(2000, 2040):
        try:
            calendar.lunar_to_solar(year, month, 30, False)
        except InputError:
            continue
        return year
    raise RuntimeError(f"no 30-day lunar month {month} found")


@cache
def _chart(day: int, hour: int, month: int = 1, leap_setting: str = "split") -> Any:
    from mingshu import ziwei

    if not 1 <= day <= 30:
        raise InputError("day", f"a lunar day is 1 … 30, not {day}")
    if not 1 <= month <= 12:
        raise InputError("month", f"a lunar month is 1 … 12, not {month}")
    settings = ziwei.ZiweiSettings(leap_month=ziwei.LeapMonth(leap_setting))
    birth = ziwei.Birth.lunar(f"{_reference_year(month)}-{month}-{day}", hour, "female")
    return ziwei.from_birth(birth, settings)


def star_branch(star: str, *, day: int = 1, hour: int = 0, month: int = 1) -> int:
    """The branch (0 Rat … 11 Pig) of a Zi Wei star on lunar ``month``/``day`` at ``hour``."""
    chart = _chart(day, hour, month)
    try:
        return int(chart.star(star).branch)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None


def palace_of(star: str, *, day: int = 1, hour: int = 0, month: int = 1) -> str:
    chart = _chart(day, hour, month)
    return str(
        chart.palace_at(
            Branch(star_branch(star, day=day, hour=hour, month=month))
        ).name.names.english
    )


# ------------------------------------------------- Zi Wei's class-and-day placement


MAJORS: Final = (
    "zi_wei",
    "tian_ji",
    "tai_yang",
    "wu_qu",
    "tian_tong",
    "lian_zhen",
    "tian_fu",
    "tai_yin",
    "tan_lang",
    "ju_men",
    "tian_xiang",
    "tian_liang",
    "qi_sha",
    "po_jun",
)
"""The fourteen major stars, the 紫微 series then the 天府 series (the book's verse order)."""


@cache
def major_layout(zi_wei: int) -> dict[str, int]:
    """The branch of each major star on a real chart whose 紫微 stands on ``zi_wei``: the
    first of the reference births (month, day, hour) that puts it there."""
    target = zi_wei % 12
    for month in range(1, 13):
        for day in range(1, 31):
            for hour in range(12):
                chart = _chart(day, hour, month)
                if int(chart.star("zi_wei").branch) == target:
                    return {key: int(chart.star(key).branch) for key in MAJORS}
    raise RuntimeError(f"no reference chart puts Zi Wei on branch {target}")


def class_day_branch(star: str, klass: int, day: int) -> int:
    """Where a major star stands for a five-element class number (2 … 6) and the day 紫微
    counts (1 … 30): 紫微 from the engine's class-and-day rule, the others from the chart
    layout that 紫微 branch gives."""
    from mingshu import ziwei

    if star not in MAJORS:
        raise InputError("star", f"{star!r} is not one of the fourteen major stars")
    return major_layout(int(ziwei.zi_wei_branch(klass, day)))[star]


# ------------------------------------------------------------------------------ BaZi


def stem_name(stem: int) -> str:
    return str(Stem(stem).names.english)


def parse_stem(value: object) -> int:
    text = str(value).strip().lower()
    for s in Stem:
        if text in (s.names.english.lower(), s.names.hans, s.names.hant, s.key):
            return int(s)
    raise InputError("stem", f"{value!r} is not a stem (Yang Wood … Yin Water)")


def literary_star(stem: int, variant: str = "w1") -> int:
    """The branch a Literary Star (文昌贵人) table gives for a day stem."""
    from mingshu.bazi import stars

    for v in stars.star("wen_chang").variants:
        if v.id == variant:
            ((_kind, branch),) = v.lookup[stem]
            return int(branch)
    raise InputError("variant", f"no Literary Star table {variant!r}")


def kitchen_star(stem: int) -> int:
    from mingshu.bazi import stars

    ((_kind, branch),) = stars.star("tian_chu").variants[0].lookup[stem]
    return int(branch)


def eating_god(stem: int) -> int:
    from mingshu.bazi.tables import ten_god

    for other in Stem:
        if ten_god(Stem(stem), other).names.hans == "食神":
            return int(other)
    raise RuntimeError("no Eating God")


def emolument(stem: int) -> int:
    """The Emolument (禄, the 临官 stage) of a stem under the default growth-stage rules."""
    from mingshu.bazi.settings import DEFAULT
    from mingshu.bazi.tables import stage_table

    table = stage_table(DEFAULT.stage_earth.value, DEFAULT.stage_yin.value)
    for b in range(12):
        if table[stem * 12 + b].key == "lin_guan":
            return b
    raise RuntimeError("no 临官")


# ------------------------------------------------ BaZi star tables and Zi Wei year stars


def bazi_cell(star: str, variant: str, value: int) -> tuple[int, ...]:
    """The branches the table ``variant`` of a BaZi star gives for the basis ``value``."""
    from mingshu.bazi import stars

    v = stars.star(star).variant(variant)  # InputError on "star" or "variant"
    return tuple(int(target) for _kind, target in v.lookup[value])


def branches_name(branches: Sequence[int]) -> str:
    return ", ".join(branch_name(b) for b in branches) or "none"


def group_head(branch: int) -> int:
    """The head of a branch's three-harmony group (申子辰 → 申): the one of its three members
    among Tiger, Snake, Monkey and Pig, the branches where a group's element is born."""
    return next(m for m in (branch, branch + 4, branch + 8) if m % 3 == 2) % 12


def nobleman_walk(start: int, step: int) -> dict[int, int]:
    """The Sanming Tonghui juan 3 walk of the Nobleman: from ``start``, one branch per stem
    甲 … 癸 in the direction ``step``, skipping Dragon and Dog (天羅 地網), the clash of the
    start and the start itself when met again; the stem that stops on a branch gives it to its
    combining partner (甲 to 己, 乙 to 庚 …).  Returns stem → branch."""
    skip = {4, 10, (start + 6) % 12}
    found: dict[int, int] = {}
    branch = start
    for stem in range(10):
        while branch in skip or (stem and branch == start):
            branch = (branch + step) % 12
        found[(stem + 5) % 10] = branch
        branch = (branch + step) % 12
    return found


ALGORITHMS: Final = ("quanshu", "zhongzhou")
"""The values of the chart setting ``algorithm``: iztro's 全书 (default) and 中州派 rules."""


def algorithm_of(options: Options) -> str:
    """The ``algorithm`` a kind's parameters name (default ``quanshu``)."""
    value = str(options.get("algorithm", "quanshu"))
    if value not in ALGORITHMS:
        raise InputError("algorithm", f"{value!r} is not an algorithm ({', '.join(ALGORITHMS)})")
    return value


@cache
def _year_chart(offset: int, algorithm: str = "quanshu") -> Any:
    """A Zi Wei chart born in the lunar year 1984 + ``offset`` (1984 is 甲子, so the year's
    stem is ``offset % 10`` and its branch ``offset % 12``), on the first day of the sixth
    month, far from both year boundaries, under the setting ``algorithm``."""
    from mingshu import ziwei

    settings = ziwei.ZiweiSettings(algorithm=ziwei.Algorithm(algorithm))
    return ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + offset}-6-1", 0, "female"), settings)


def year_star_branch(
    star: str, *, stem: int | None = None, branch: int | None = None, algorithm: str = "quanshu"
) -> int:
    """Where a Zi Wei year star stands for a birth year of the given stem or branch (under
    the setting ``algorithm``: the 中州 rules place stars the default does not)."""
    offset = stem if stem is not None else (branch or 0)
    try:
        return int(_year_chart(offset, algorithm).star(star).branch)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None


@cache
def _year_month_hour_chart(branch: int, month: int, hour: int) -> Any:
    """A Zi Wei chart born in the lunar year 1984 + ``branch`` (a year of that branch), on
    the first day of lunar ``month`` at ``hour``."""
    from mingshu import ziwei

    return ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + branch}-{month}-1", hour, "female"))


def year_palaces(star: str, branch: int) -> list[str]:
    """The palace names (English) that hold a Zi Wei star in a year of ``branch``, over
    every lunar month and every hour, in the order of the palaces from the Life palace."""
    found: set[Any] = set()
    for month in range(1, 13):
        for hour in range(12):
            chart = _year_month_hour_chart(branch, month, hour)
            try:
                at = chart.star(star).branch
            except (InputError, KeyError, ValueError):
                raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None
            found.add(chart.palace_at(at).name)
    return [str(name.names.english) for name in sorted(found)]


# ------------------------------------------------------------------ brightness grades


def star_grade(star: str, *, hour: int = 0) -> str:
    """The brightness grade (English name, "–" for none) of a Zi Wei star at ``hour``."""
    chart = _chart(1, hour)
    try:
        grade = chart.star(star).brightness
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None
    return "–" if grade is None else str(grade.names.english)


# ------------------------------------------------------------ the book beside the engine
# Two kinds of fact: the conformance run's counts (tools/book_conformance.py, which shipped
# code cannot import, saves them in articles/_conformance.json; tests/book keeps the record
# in sync with a fresh run), and charts drawn now under both schools.

SCHOOLS: Final = ("iztro", "quanshu")
CONFORMANCE_FILE: Final = "_conformance.json"


@cache
def conformance() -> dict[str, tuple[dict[str, Any], ...]]:
    """The record of the last conformance run: school → its rules, each with ``key``,
    ``title``, ``lines`` (verse lines in 卷二), ``space``, ``points``, ``agree``,
    ``disagree`` and ``unclear`` (the disagreements where the text is unclear)."""
    import json
    from pathlib import Path

    path = Path(__file__).parent / "articles" / CONFORMANCE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise InputError("conformance", f"cannot read the run's record {path.name}: {e}") from None
    return {str(s): tuple(rules) for s, rules in data["schools"].items()}


def school_of(options: Options) -> str:
    school = str(options.get("school", "iztro"))
    if school not in SCHOOLS:
        raise InputError("school", f"{school!r} is not a school ({', '.join(SCHOOLS)})")
    return school


def school_settings(school: str) -> Any:
    from mingshu import ziwei

    return ziwei.ZiweiSettings(school=ziwei.School(school))


def lunar_chart(q: Options, school: str) -> Any:
    from mingshu import ziwei

    return ziwei.by_lunar(
        str(q["lunar"]),
        hour_number(q.get("hour", 0)),
        str(q.get("gender", "male")),
        leap=bool(q.get("leap", False)),
        settings=school_settings(school),
    )


def school_branches(birth: Options, stars: Sequence[str] = ()) -> dict[str, tuple[int, ...]]:
    """School → the branches of the Life palace (no ``stars``) or of any of ``stars`` on
    the chart of ``birth`` ({lunar, hour, gender, leap}) under that school."""
    out: dict[str, tuple[int, ...]] = {}
    for school in SCHOOLS:
        chart = lunar_chart(birth, school)
        if not stars:
            out[school] = (int(chart.life_branch),)
            continue
        out[school] = tuple(
            sorted({int(p.branch) for p in chart.palaces for s in p.stars if s.star.key in stars})
        )
    return out


# ------------------------------------------------------- the Life and Body palaces


def life_branch(month: int, hour: int) -> int:
    """The Life palace's branch for lunar ``month`` at ``hour`` (day 1; the day never
    enters)."""
    return int(_chart(1, hour, month).life_branch)


def body_branch(month: int, hour: int) -> int:
    return int(_chart(1, hour, month).body_branch)


def palace_names(month: int, hour: int) -> dict[int, str]:
    """Branch → English palace name on a chart of lunar ``month`` at ``hour``."""
    return {int(p.branch): str(p.name.names.english) for p in _chart(1, hour, month).palaces}


def stem_chart(stem: int) -> Any:
    """A chart in a lunar year of ``stem`` (1984 is 甲子): mid-year, so the lunar year is
    that solar year's."""
    from mingshu import ziwei

    return ziwei.chart(f"{1984 + stem}-07-01", "12:00", "female")


PILLARS: Final = ("year", "month", "day", "hour")
BASIS_WORDS: Final = {
    "day_stem": "day stem",
    "year_stem": "year stem",
    "day_branch": "day branch",
    "year_branch": "year branch",
    "month_branch": "month branch",
    "day_pillar": "day pillar",
    "year_pillar": "year pillar",
    "hour_pillar": "hour pillar",
    "year_nayin": "year nayin",
    "chart": "whole chart",
    "chart_stems": "the four stems",
    "year_month": "year and month branch",
}
"""A BaZi star's basis (``BaziSettings.star_bases``) in the articles' words."""


# --------------------------------------- year stars by school, stars of the year and hour


@cache
def _school_stem_chart(stem: int, school: str) -> Any:
    from mingshu import ziwei

    return ziwei.chart(f"{1984 + stem}-07-01", "12:00", "female", settings=school_settings(school))


def school_stem_branch(star: str, *, stem: int, school: str = "iztro") -> int:
    """Where a Zi Wei star stands in a lunar year of ``stem`` (1984 is 甲子) under
    ``school``."""
    try:
        return int(_school_stem_chart(stem, school).star(star).branch)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None


@cache
def _year_hour_chart(branch: int, hour: int) -> Any:
    from mingshu import ziwei

    return ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + branch}-6-1", hour, "female"))


def year_hour_branch(star: str, *, branch: int, hour: int) -> int:
    """Where a Zi Wei star stands for a birth in a year of ``branch`` (1984 is 子) at
    ``hour`` (the late Rat hour is 12), on the first day of the sixth month."""
    try:
        return int(_year_hour_chart(branch, hour).star(star).branch)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None


# ------------------------------------------------------- the limits: decades, small limit


@cache
def _limit_chart(year_branch: int, gender: str) -> Any:
    """A chart born in a lunar year of ``year_branch`` (1984 is 子), on the first day of the
    sixth month: the small limit reads the year branch and the gender only."""
    from mingshu import ziwei

    return ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + year_branch}-6-1", 0, gender))


def small_limit_branch(year_branch: int, gender: str, age: int) -> int:
    """The branch of the small limit (小限) at nominal ``age`` for a birth in a year of
    ``year_branch`` and of ``gender`` (male, female)."""
    if str(gender) not in ("male", "female"):
        raise InputError("gender", f"{clip(gender)}: give male or female")
    chart = _limit_chart(year_branch % 12, str(gender))
    found = [int(p.branch) for p in chart.palaces if age in p.ages]
    if not found:
        raise InputError("age", f"no small limit at age {clip(age)}")
    return found[0]


def palace_english(palace: Any) -> str:
    """A palace's English name (Life, Siblings, …)."""
    return str(palace.name.names.english)


# ------------------------------------------------------ the year layer and its flowing stars


@cache
def _birth_before(year: int) -> Any:
    """A chart born in the lunar year before ``year``, so ``year``'s horoscope is at age 2."""
    from mingshu import ziwei

    return ziwei.from_birth(ziwei.Birth.lunar(f"{year - 1}-6-1", 0, "female"))


def year_layer(year: int) -> Any:
    """The year layer (流年) of lunar ``year``, read on its 六月初一 as iztro reads a year:
    its palace, pillar, four transformations and flowing stars are the same on every chart."""
    from mingshu import calendar, ziwei

    if not isinstance(year, int) or isinstance(year, bool) or not 1584 <= year <= 2649:
        raise InputError("year", f"{clip(year)}: give a year 1584–2649")
    chart = _birth_before(year)
    return ziwei.horoscope(chart, calendar.lunar_to_solar(year, 6, 1)).yearly


def flowing_rows() -> list[dict[str, Any]]:
    """The flowing stars as ziwei/data/horoscope.toml lists them (key, names, place)."""
    from mingshu.named import load_toml

    return list(load_toml("mingshu.ziwei", "data", "horoscope.toml")["flowing"])


def flowing_year_branch(star: str, year: int) -> int:
    """Where the flowing year star ``star`` (``liu_lu``, ``nian_jie`` …) stands in lunar
    ``year``."""
    found = [int(s.branch) for s in year_layer(year).stars if s.star.key == star]
    if not found:
        raise InputError("star", f"no flowing year star {clip(star)} (liu_lu, liu_ma, nian_jie …)")
    return found[0]


# ------------------------------------------------------------- brightness by school


def grade_rows(school: str) -> dict[str, tuple[int | None, ...]]:
    """Each graded star's brightness row under ``school`` (``iztro``: the default table,
    ``quanshu``: the book's), indexed by branch (子 = 0), grades 0 庙 … 6 陷, None for none;
    the union of both schools' stars, a star one school does not grade all None."""
    from mingshu.ziwei import quanshu
    from mingshu.ziwei.stars import default_brightness

    if school not in SCHOOLS:
        raise InputError("school", f"{school!r} is not a school ({', '.join(SCHOOLS)})")
    tables = {"iztro": default_brightness(), "quanshu": quanshu.brightness()}
    keys = list(tables["iztro"]) + [k for k in tables["quanshu"] if k not in tables["iztro"]]
    empty: tuple[None, ...] = (None,) * 12
    return {
        k: tuple(None if g is None else int(g) for g in tables[school].get(k, empty)) for k in keys
    }


def grade_label(grade: int | None) -> str:
    """A grade's English name with its character ("Temple (庙)"), or "no grade"."""
    from mingshu.ziwei.stars import Brightness

    if grade is None:
        return "no grade"
    b = Brightness(grade)
    return f"{b.names.english} ({b.names.hans})"


def grade_number(value: object) -> int:
    """A grade given as key, character or English name (``miao``, ``庙``, ``Temple``)."""
    from mingshu.ziwei.stars import Brightness

    return int(Brightness.parse(value, "grade"))
