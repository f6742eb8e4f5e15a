"""Problem kinds: the engine's answer to an article's worked problem, from the problem's
``engine`` query (``ask`` names the kind, the rest are its parameters).

A backward problem ("which hours put the star there?") has as many answers as the search
finds, and its printed answer must name every one: each kind enumerates every birth it
speaks of, the late Rat hour (the engine's time index 12, counted as the next day) among
them, and returns an :class:`Answer` holding them all.  The check compares the printed
answer with :attr:`Answer.text`, so an answer naming fewer fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mingshu.cycles import Stem
from mingshu.errors import InputError
from mingshu.library import (
    bazi_frame,
    bazi_stars,
    frame,
    god_cycles,
    nayin,
    patterns,
    selfcheck,
    stages,
    ten_gods,
)
from mingshu.library.engine import (
    BASIS_WORDS,
    LATE_RAT,
    MAJORS,
    PILLARS,
    Kind,
    Options,
    algorithm_of,
    bazi_cell,
    branch_name,
    branch_number,
    class_day_branch,
    flowing_year_branch,
    grade_label,
    grade_number,
    grade_rows,
    hour_name,
    hour_number,
    life_branch,
    literary_star,
    lunar_chart,
    major_layout,
    palace_english,
    palace_of,
    parse_stem,
    school_of,
    school_settings,
    small_limit_branch,
    star_branch,
    star_name,
    stem_chart,
    stem_name,
    year_hour_branch,
    year_palaces,
    year_star_branch,
)

__all__ = ["PROBLEMS", "Answer", "problem_answer", "solve"]

HOURS: Final = (*range(12), LATE_RAT)
"""Every hour a birth can be charted in: Rat … Pig, then the late Rat hour."""


@dataclass(frozen=True)
class Answer:
    """The engine's answer: every solution it found, and the answer as an article prints
    it (every solution named)."""

    text: str
    solutions: tuple[str, ...]

    def named_in(self, printed: str) -> tuple[str, ...]:
        """The solutions a printed answer names (as whole words)."""
        return tuple(
            s for s in self.solutions if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", printed)
        )


def _one(text: str) -> Answer:
    """A forward problem's answer: one value (or one line of several values)."""
    return Answer(text, (text,))


def _either(names: Iterable[str]) -> Answer:
    """Every solution of a backward problem, joined with "or" ("none" when there is none)."""
    found = tuple(names)
    return Answer(" or ".join(found) or "none", found)


def _days(days: Sequence[int]) -> str:
    return " or ".join(filter(None, (", ".join(map(str, days[:-1])), str(days[-1]))))


# ------------------------------------------------------------- Zi Wei stars by hour and day


def _p_star_branch(q: Options) -> Answer:
    """Where ``star`` stands for lunar ``month``, ``day`` and ``hour``."""
    at = star_branch(
        str(q["star"]),
        day=int(q.get("day", 1)),
        hour=hour_number(q.get("hour", 0)),
        month=int(q.get("month", 1)),
    )
    return _one(branch_name(at))


def _p_stars_branches(q: Options) -> Answer:
    """Where each of ``stars`` stands at ``hour``."""
    h = hour_number(q.get("hour", 0))
    return _one(
        ", ".join(
            f"{star_name(str(s))} {branch_name(star_branch(str(s), hour=h))}" for s in q["stars"]
        )
    )


def _p_hour_of(q: Options) -> Answer:
    """Every hour (the late Rat hour too) that puts ``star`` on ``branch`` on lunar ``day``."""
    star, target, day = str(q["star"]), branch_number(q["branch"]), int(q.get("day", 1))
    return _either(hour_name(h) for h in HOURS if star_branch(star, day=day, hour=h) == target)


def _p_hours_same(q: Options) -> Answer:
    """Every hour in which the two ``stars`` share a palace, whatever the day."""
    a, b = (str(s) for s in q["stars"])
    return _either(
        hour_name(h)
        for h in HOURS
        if all(star_branch(a, day=d, hour=h) == star_branch(b, day=d, hour=h) for d in (1, 2, 3))
    )


def _p_palace(q: Options) -> Answer:
    """The palace names holding ``star`` in lunar ``month``, over every hour."""
    star, month = str(q["star"]), int(q["month"])
    names = sorted({palace_of(star, month=month, hour=h) for h in HOURS})
    return Answer(" / ".join(names), tuple(names))


def _p_days_of(q: Options) -> Answer:
    """Every lunar day 1–30 of ``month`` that puts a month-and-day ``star`` on ``branch``:
    at any ordinary hour, and then the days whose late Rat hour (counted as the next day)
    puts it there."""
    star, target, month = str(q["star"]), branch_number(q["branch"]), int(q["month"])
    days = [d for d in range(1, 31) if star_branch(star, day=d, month=month) == target]
    late = [
        d
        for d in range(1, 31)
        if d not in days and star_branch(star, day=d, hour=LATE_RAT, month=month) == target
    ]
    solutions = (*map(str, days), *(f"the late Rat hour of {d}" for d in late))
    parts = ([_days(days)] if days else []) + (
        [f"the late Rat hour of {_days(late)}"] if late else []
    )
    return Answer(", or ".join(parts) or "none", solutions)


def _p_months_of(q: Options) -> Answer:
    """Every lunar month 1–12 (an ordinary, not leap, month) that puts a month star on
    ``branch``; the day and the hour do not move such a star."""
    star, target = str(q["star"]), branch_number(q["branch"])
    return _either(f"month {m}" for m in range(1, 13) if star_branch(star, month=m) == target)


# ------------------------------------------------------------------ Zi Wei year stars


def _p_year_star(q: Options) -> Answer:
    """Where the year star ``star`` stands in a ``year`` of that branch."""
    return _one(
        branch_name(year_star_branch(str(q["star"]), branch=branch_number(q["year"], "year")))
    )


def _p_year_of(q: Options) -> Answer:
    """Every year branch that puts the year star ``star`` on ``branch``."""
    star, target = str(q["star"]), branch_number(q["branch"])
    return _either(
        f"{branch_name(y)} year" for y in range(12) if year_star_branch(star, branch=y) == target
    )


def _p_year_star_years(q: Options) -> Answer:
    """The birth-year stems (``by: stem``) or branches (``by: branch``) that put the Zi Wei
    year star ``star`` on ``branch``."""
    star, target, by = str(q["star"]), branch_number(q["branch"]), str(q.get("by", "branch"))
    if by == "stem":
        return _either(stem_name(s) for s in range(10) if year_star_branch(star, stem=s) == target)
    if by == "branch":
        return _either(
            branch_name(b) for b in range(12) if year_star_branch(star, branch=b) == target
        )
    raise InputError("by", f"give stem or branch, not {by!r}")


def _p_year_palace(q: Options) -> Answer:
    """The palace names holding ``star`` in a ``year`` of that branch, over every month and
    hour."""
    names = year_palaces(str(q["star"]), branch_number(q["year"], "year"))
    return Answer(" / ".join(names), tuple(names))


def _p_year_stars(q: Options) -> Answer:
    """Where ``stars`` stand in a year of ``year_stem``."""
    chart = stem_chart(parse_stem(q["year_stem"]))
    return _one(
        ", ".join(
            f"{star_name(str(s))} {branch_name(int(chart.star(str(s)).branch))}" for s in q["stars"]
        )
    )


def _p_stems_for(q: Options) -> Answer:
    """Every year stem that puts ``star`` on ``branch``."""
    star, target = str(q["star"]), branch_number(q["branch"])
    return _either(
        stem_name(st) for st in range(10) if int(stem_chart(st).star(star).branch) == target
    )


def _p_year_star_algorithm(q: Options) -> Answer:
    """Where the year star ``star`` stands in a ``year`` of that branch under ``algorithm``."""
    at = year_star_branch(
        str(q["star"]), branch=branch_number(q["year"], "year"), algorithm=algorithm_of(q)
    )
    return _one(branch_name(at))


def _p_year_of_algorithm(q: Options) -> Answer:
    """Every year branch that puts the year star ``star`` on ``branch`` under ``algorithm``."""
    star, target, algorithm = str(q["star"]), branch_number(q["branch"]), algorithm_of(q)
    return _either(
        f"{branch_name(y)} year"
        for y in range(12)
        if year_star_branch(star, branch=y, algorithm=algorithm) == target
    )


# ------------------------------------------------------------- the Life palace


def _p_life_palace(q: Options) -> Answer:
    """The Life palace's branch for lunar ``month`` at ``hour``."""
    return _one(branch_name(life_branch(int(q["month"]), hour_number(q.get("hour", 0)))))


def _p_recorded_birth(q: Options) -> Answer:
    """A birth recorded by its lunar date (``lunar``, ``leap``) and ``hour``, as biographies
    give it: the civil (Gregorian) date the engine's calendar puts it on, and the Life palace."""
    chart = lunar_chart(q, "iztro")  # the default settings: the Life palace is the same in both
    return _one(f"{chart.solar_date.isoformat()}, Life palace on {branch_name(chart.life_branch)}")


def _p_life_hours(q: Options) -> Answer:
    """Every hour (the late Rat hour too) whose Life palace in ``month`` is on ``branch``."""
    month, target = int(q["month"]), branch_number(q["branch"])
    return _either(hour_name(h) for h in HOURS if life_branch(month, h) == target)


# ----------------------------------------------------------------- the two schools


def _p_school_life(q: Options) -> Answer:
    """The Life palace of a lunar birth under ``school``."""
    return _one(branch_name(int(lunar_chart(q, school_of(q)).life_branch)))


def _p_school_year_branches(q: Options) -> Answer:
    """Every year branch for which ``star`` stands on ``branch`` under ``school``: one chart
    per year branch (lunar new year's day, 1984 甲子 onwards)."""
    from mingshu import ziwei

    star, target = str(q["star"]), branch_number(q["branch"])
    settings = school_settings(school_of(q))
    years = []
    for yb in range(12):
        chart = ziwei.by_lunar(f"{1984 + yb}-01-01", 0, "male", settings=settings)
        if any(
            int(p.branch) == target and s.star.key == star for p in chart.palaces for s in p.stars
        ):
            years.append(yb)
    return _either(branch_name(b) for b in years)


def _school_star_at(chart: Any, star: str) -> int:
    try:
        return int(chart.star(star).branch)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no star {star!r} on a chart of that school") from None


def _p_school_star(q: Options) -> Answer:
    """Where ``star`` stands on a lunar birth under ``school``."""
    return _one(branch_name(_school_star_at(lunar_chart(q, school_of(q)), str(q["star"]))))


def _p_school_star_hours(q: Options) -> Answer:
    """Every hour, the late Rat hour too, that puts ``star`` on one of ``branches`` for a
    lunar birth date under ``school``."""
    targets = {branch_number(b) for b in q.get("branches", [])}
    if not targets:
        raise InputError("branches", "name the branches, e.g. [dragon, dog]")
    from mingshu import ziwei

    settings, star = school_settings(school_of(q)), str(q["star"])
    lunar, gender, leap = str(q["lunar"]), str(q.get("gender", "male")), bool(q.get("leap"))
    return _either(
        hour_name(h)
        for h in HOURS
        if _school_star_at(ziwei.by_lunar(lunar, h, gender, leap=leap, settings=settings), star)
        in targets
    )


# ----------------------------------------------------------------------- BaZi stars


def _p_literary_hits(q: Options) -> Answer:
    """The Literary Star's branch for ``day_stem`` and the pillars among ``branches`` (year
    to hour) holding it."""
    stem = parse_stem(q["day_stem"])
    branches = [branch_number(b) for b in q["branches"]]
    target = literary_star(stem)
    hits = [PILLARS[i] for i, b in enumerate(branches) if b == target]
    return _one(f"{branch_name(target)}: " + (" and ".join(hits) if hits else "not in the chart"))


def _p_bazi_star_hits(q: Options) -> Answer:
    """Where the BaZi engine finds ``star`` among four pillars: ``branches`` year to hour,
    the day pillar's stem ``day_stem`` (other stems take the branch's polarity, which the
    stars asked about ignore); ``variant`` and ``basis`` default to the engine's."""
    from mingshu.bazi import BaziSettings, shensha, stars
    from mingshu.cycles import Pillar

    star = str(q["star"])
    if stars.star(star).variants[0].target != "branch":
        raise InputError("star", f"{star} does not give a branch")
    branches = [branch_number(b) for b in q["branches"]]
    if len(branches) != 4:
        raise InputError("branches", "give four branches, year to hour")
    day_stem = parse_stem(q["day_stem"])
    if day_stem % 2 != branches[2] % 2:
        raise InputError("day_stem", "the day stem and the day branch differ in polarity")
    variants = {star: str(q["variant"])} if "variant" in q else {}
    bases = {star: str(q["basis"])} if "basis" in q else {}
    settings = BaziSettings(star_variants=variants, star_bases=bases)
    stems = [b % 2 for b in branches]
    stems[2] = day_stem
    pillars = [Pillar.of(s, b) for s, b in zip(stems, branches, strict=True)]
    (found,) = (r for r in shensha.stars_in(*pillars, settings=settings) if r.star.key == star)
    several = len({h.basis for h in found.hits}) > 1
    hits = [
        f"{PILLARS[int(h.position)]} {branch_name(branches[int(h.position)])}"
        + (f" ({BASIS_WORDS[h.basis]})" if several else "")
        for h in found.hits
    ]
    return _one(", ".join(hits) or "not in the chart")


def _p_bazi_stems_for(q: Options) -> Answer:
    """Every day stem whose table ``variant`` of ``star`` gives ``branch``."""
    from mingshu.bazi import stars

    star = str(q["star"])
    variant = str(q.get("variant", stars.star(star).default))
    target = branch_number(q["branch"])
    return _either(stem_name(int(s)) for s in Stem if target in bazi_cell(star, variant, int(s)))


def _p_bazi_keys_for(q: Options) -> Answer:
    """Every key of a BaZi star's table ``variant`` (a stem or a branch, as the table is
    keyed: the month branch for 天德) whose cell holds ``target`` (a stem, a branch, or a
    pillar such as 甲子)."""
    from mingshu.bazi import stars
    from mingshu.cycles import Pillar

    star = stars.star(str(q["star"]))
    v = star.variant(str(q.get("variant", star.default)))
    target = str(q["target"])
    try:
        want = (stars.STEM_TARGET, parse_stem(target))
    except InputError:
        try:
            want = (stars.BRANCH_TARGET, branch_number(target))
        except InputError:
            try:
                want = (stars.PILLAR_TARGET, Pillar.parse(target, "target").index)
            except InputError:
                raise InputError(
                    "target", f"{target!r} is neither a stem, a branch nor a pillar"
                ) from None
    name = stem_name if len(v.lookup) == 10 else branch_name
    return _either(name(k) for k, cell in enumerate(v.lookup) if want in cell)


def _p_bazi_branches_for(q: Options) -> Answer:
    """Every basis branch whose table ``variant`` of a branch-keyed ``star`` gives ``branch``."""
    from mingshu.bazi import stars

    star = str(q["star"])
    variant = str(q.get("variant", stars.star(star).default))
    if not stars.star(star).variant(variant).basis[0].endswith("_branch"):
        raise InputError("star", f"{star} is not read from a branch")
    target = branch_number(q["branch"])
    return _either(branch_name(b) for b in range(12) if target in bazi_cell(star, variant, b))


def _p_horse_of_birth(q: Options) -> Answer:
    """A real birth in both systems: each one's year branch and the Horse it gives (BaZi's
    year pillar turns at the Start of Spring; Zi Wei's year by its ``year_boundary``)."""
    from mingshu import bazi, ziwei

    date, time = str(q["date"]), str(q.get("time", "12:00"))
    try:
        boundary = ziwei.YearBoundary(str(q.get("year_boundary", "lunar_new_year")))
    except ValueError:
        raise InputError("year_boundary", "use lunar_new_year or spring_begins") from None
    settings = ziwei.ZiweiSettings(year_boundary=boundary)
    year = int(bazi.chart(date, time, "female").pillars.year.branch)
    (horse,) = bazi_cell("yi_ma", "standard", year)
    chart = ziwei.chart(date, time, "female", settings=settings)
    tian_ma, zi_wei_year = int(chart.star("tian_ma").branch), int(chart.year.branch)
    return _one(
        f"BaZi {branch_name(horse)} (year {branch_name(year)}), "
        f"Zi Wei {branch_name(tian_ma)} (year {branch_name(zi_wei_year)})"
    )


# ----------------------------------------- minor stars by month, palace, year and hour


def _p_hours_in_palace(q: Options) -> Answer:
    """Every hour, the late Rat hour too, that puts ``star`` in the palace named ``palace``
    (English) in lunar ``month``."""
    star, palace, month = str(q["star"]), str(q["palace"]), int(q.get("month", 1))
    return _either(hour_name(h) for h in HOURS if palace_of(star, month=month, hour=h) == palace)


def _p_year_hour_star(q: Options) -> Answer:
    """Where ``star`` stands for a birth in a ``year`` of that branch at ``hour``."""
    at = year_hour_branch(
        str(q["star"]), branch=branch_number(q["year"], "year"), hour=hour_number(q["hour"])
    )
    return _one(branch_name(at))


def _p_year_hours_of(q: Options) -> Answer:
    """Every hour, the late Rat hour too, that puts ``star`` on ``branch`` for a birth in a
    ``year`` of that branch."""
    star, target = str(q["star"]), branch_number(q["branch"])
    year = branch_number(q["year"], "year")
    return _either(
        hour_name(h) for h in HOURS if year_hour_branch(star, branch=year, hour=h) == target
    )


def _text(run: Callable[[Options], str]) -> Callable[[Options], Answer]:
    """A kind whose answer is one line of text (the BaZi chart and self-check kinds)."""
    return lambda q: _one(run(q))


# ----------------------------------------------------------- the fourteen major stars


def _listed(items: Sequence[str]) -> str:
    """ "1, 2 or 3" ("" for none)."""
    return " or ".join(filter(None, (", ".join(items[:-1]), items[-1] if items else "")))


def _p_class_day_branch(q: Options) -> Answer:
    """Where a major ``star`` stands for a five-element ``class`` and the day 紫微 counts."""
    return _one(branch_name(class_day_branch(str(q["star"]), int(q["class"]), int(q["day"]))))


def _p_class_days_of(q: Options) -> Answer:
    """Every lunar day 1–30 that puts a major ``star`` on ``branch`` in a five-element
    ``class``; then the days whose late Rat hour does: that hour counts the next day, and
    after the month's last day (29 or 30) day 1 of the next month."""
    star, klass, target = str(q["star"]), int(q["class"]), branch_number(q["branch"])
    days = [d for d in range(1, 31) if class_day_branch(star, klass, d) == target]
    late = [
        str(d)
        for d in range(1, 30)
        if d not in days and class_day_branch(star, klass, d + 1) == target
    ]
    if class_day_branch(star, klass, 1) == target:
        late.append("the month's last day")
    solutions = (*map(str, days), *(f"the late Rat hour of {d}" for d in late))
    text = _listed([str(d) for d in days])
    if late:
        text += (", or " if text else "") + f"the late Rat hour of {_listed(late)}"
    return Answer(text or "none", solutions)


def _p_zi_wei_for(q: Options) -> Answer:
    """Every branch of 紫微 that puts a major ``star`` on ``branch``."""
    star, target = str(q["star"]), branch_number(q["branch"])
    if star not in MAJORS:
        raise InputError("star", f"{star!r} is not one of the fourteen major stars")
    return _either(branch_name(z) for z in range(12) if major_layout(z)[star] == target)


# --------------------------------------------------- the limits: decades and small limit


def _p_decade_of(q: Options) -> Answer:
    """The palace whose decade (大限) holds nominal ``age`` on the chart of ``birth``
    ({lunar, hour, gender, leap}), with the ages it covers; before the first decade, the
    childhood limit."""
    birth = q.get("birth")
    if not isinstance(birth, dict) or "lunar" not in birth:
        raise InputError("birth", "give the birth as {lunar: YYYY-MM-DD, hour, gender, leap}")
    age = int(q["age"])
    chart = lunar_chart(birth, "iztro")
    for p in chart.palaces:
        if p.decadal.start <= age <= p.decadal.end:
            return _one(
                f"{palace_english(p)} palace on {branch_name(int(p.branch))}, "
                f"ages {p.decadal.start}–{p.decadal.end}"
            )
    return _one("no decade yet: the childhood limit")


def _p_small_limit_years(q: Options) -> Answer:
    """Every year branch whose small limit (小限) at ``age`` stands on ``branch`` for a
    birth of ``gender``."""
    target, age, gender = branch_number(q["branch"]), int(q.get("age", 1)), str(q["gender"])
    return _either(
        branch_name(y) for y in range(12) if small_limit_branch(y, gender, age) == target
    )


# ------------------------------------------------------ the year layer and its flowing stars


def _p_flowing_star(q: Options) -> Answer:
    """Where the flowing year star ``star`` stands in lunar ``year``."""
    return _one(branch_name(flowing_year_branch(str(q["star"]), int(q["year"]))))


def _p_flowing_years(q: Options) -> Answer:
    """Every year stem (``by: stem``) or branch (``by: branch``) whose flowing year star
    ``star`` stands on ``branch``, over the sixty years of a cycle (1984–2043); a star that
    does not read that part of the year alone is an :class:`InputError`."""
    star, target, by = str(q["star"]), branch_number(q["branch"]), str(q.get("by", "stem"))
    if by not in ("stem", "branch"):
        raise InputError("by", f"give stem or branch, not {by!r}")
    hits: dict[int, set[bool]] = {}
    for year in range(1984, 2044):
        part = (year - 1984) % (10 if by == "stem" else 12)
        hits.setdefault(part, set()).add(flowing_year_branch(star, year) == target)
    if any(len(v) > 1 for v in hits.values()):
        raise InputError("by", f"{star} does not follow the year's {by} alone")
    name = stem_name if by == "stem" else branch_name
    return _either(name(k) for k in sorted(hits) if True in hits[k])


# ------------------------------------------------------------- brightness by school


def _grade_row(q: Options) -> tuple[int | None, ...]:
    rows = grade_rows(school_of(q))
    star = str(q["star"])
    if star not in rows:
        raise InputError("star", f"{star!r} has no brightness row")
    return rows[star]


def _p_grade_of(q: Options) -> Answer:
    """The brightness grade of ``star`` on ``branch`` under ``school``."""
    return _one(grade_label(_grade_row(q)[branch_number(q["branch"])]))


def _p_grade_branches(q: Options) -> Answer:
    """Every branch on which ``star`` has ``grade`` under ``school``."""
    row, grade = _grade_row(q), grade_number(q["grade"])
    return _either(branch_name(b) for b in range(12) if row[b] == grade)


def _p_pattern_hours(q: Options) -> Answer:
    """Every hour of a solar ``date``, the late Rat hour too, forming ``pattern``."""
    return _either(patterns.pattern_hours(q))


PROBLEMS: Final[dict[str, Kind[Answer]]] = {
    # Zi Wei stars by hour and day
    "star_branch": Kind(
        _p_star_branch, ("star", "month", "day", "hour"), "where a star stands (one branch)"
    ),
    "stars_branches": Kind(
        _p_stars_branches, ("stars", "hour"), "where each of some stars stands at an hour"
    ),
    "hour_of": Kind(
        _p_hour_of,
        ("star", "branch", "day"),
        "every hour, the late Rat hour too, that puts a star on a branch on a lunar day",
    ),
    "hours_same_palace": Kind(
        _p_hours_same, ("stars",), "every hour in which two stars share a palace, any day"
    ),
    "palace": Kind(_p_palace, ("star", "month"), "the palace names holding a star in a month"),
    "days_of": Kind(
        _p_days_of,
        ("star", "month", "branch"),
        "every lunar day 1–30 that puts a month-and-day star on a branch, then the days "
        "whose late Rat hour does",
    ),
    "months_of": Kind(
        _p_months_of,
        ("star", "branch"),
        "every lunar month (an ordinary month) that puts a month star on a branch",
    ),
    # Zi Wei year stars
    "year_star": Kind(_p_year_star, ("star", "year"), "where a year star stands for a year branch"),
    "year_of": Kind(
        _p_year_of, ("star", "branch"), "every year branch that puts a year star on a branch"
    ),
    "year_star_years": Kind(
        _p_year_star_years,
        ("star", "branch", "by"),
        "every birth-year stem (`by: stem`) or branch (`by: branch`) putting a year star "
        "on a branch",
    ),
    "year_stars": Kind(
        _p_year_stars, ("year_stem", "stars"), "where some stars stand in a year of a stem"
    ),
    "year_palace": Kind(
        _p_year_palace,
        ("star", "year"),
        "the palace names holding a star in a year of a branch, over every month and hour",
    ),
    "stems_for_star": Kind(
        _p_stems_for, ("star", "branch"), "every year stem that puts a star on a branch"
    ),
    "year_star_algorithm": Kind(
        _p_year_star_algorithm,
        ("star", "year", "algorithm"),
        "where a year star stands for a year branch under a setting `algorithm`",
    ),
    "year_of_algorithm": Kind(
        _p_year_of_algorithm,
        ("star", "branch", "algorithm"),
        "every year branch that puts a year star on a branch under a setting `algorithm`",
    ),
    # the Life palace
    "life_palace": Kind(
        _p_life_palace, ("month", "hour"), "the Life palace's branch for a month and hour"
    ),
    "life_hours": Kind(
        _p_life_hours,
        ("month", "branch"),
        "every hour, the late Rat hour too, whose Life palace is on a branch",
    ),
    "recorded_birth": Kind(
        _p_recorded_birth,
        ("lunar", "leap", "hour"),
        "the civil date and the Life palace of a birth recorded by its lunar date and hour",
    ),
    # minor stars by month, palace, year and hour
    "hours_in_palace": Kind(
        _p_hours_in_palace,
        ("star", "palace", "month"),
        "every hour, the late Rat hour too, that puts a star in a named palace in a month",
    ),
    "year_hour_star": Kind(
        _p_year_hour_star,
        ("star", "year", "hour"),
        "where a star stands for a year branch and an hour",
    ),
    "year_hours_of": Kind(
        _p_year_hours_of,
        ("star", "year", "branch"),
        "every hour, the late Rat hour too, that puts a star on a branch in a year of a branch",
    ),
    # the two schools
    "school_life_palace": Kind(
        _p_school_life,
        ("school", "lunar", "hour", "gender", "leap"),
        "the Life palace of a lunar birth under a school",
    ),
    "school_year_branches": Kind(
        _p_school_year_branches,
        ("school", "star", "branch"),
        "every year branch for which a star stands on a branch under a school",
    ),
    "school_star": Kind(
        _p_school_star,
        ("school", "star", "lunar", "hour", "gender", "leap"),
        "where a star stands on a lunar birth under a school",
    ),
    "school_star_hours": Kind(
        _p_school_star_hours,
        ("school", "star", "lunar", "branches", "gender", "leap"),
        "every hour, the late Rat hour too, putting a star on one of some branches for a "
        "lunar birth date under a school",
    ),
    # BaZi stars
    "literary_hits": Kind(
        _p_literary_hits,
        ("day_stem", "branches"),
        "the Literary Star's branch and the pillars holding it",
    ),
    "bazi_star_hits": Kind(
        _p_bazi_star_hits,
        ("star", "day_stem", "branches", "variant", "basis"),
        "where the BaZi engine finds a star among four branches",
    ),
    "bazi_stems_for": Kind(
        _p_bazi_stems_for,
        ("star", "branch", "variant"),
        "every day stem whose table gives a branch",
    ),
    "ten_god": Kind(
        _text(ten_gods.p_ten_god),
        ("day_stem", "stem"),
        "the ten god a stem is to a Day Master",
    ),
    "stem_of_ten_god": Kind(
        _text(ten_gods.p_stem_of),
        ("day_stem", "god"),
        "every stem that is a given ten god (its key) to a Day Master",
    ),
    "bazi_keys_for": Kind(
        _p_bazi_keys_for,
        ("star", "target", "variant"),
        "every key (stem or branch) of a star's table whose cell holds a stem, branch or pillar",
    ),
    "bazi_branches_for": Kind(
        _p_bazi_branches_for,
        ("star", "branch", "variant"),
        "every basis branch (year or day) whose table gives a branch",
    ),
    "horse_of_birth": Kind(
        _p_horse_of_birth,
        ("date", "time", "year_boundary"),
        "a real birth's year branch and Horse in both systems",
    ),
    "star_hits": Kind(
        _text(bazi_stars.p_star_hits),
        ("star", "birth", "pillars", "variants", "bases", "include_basis_pillar", "late_rat_hour"),
        "where a star stands on a real chart",
    ),
    "tables_finding": Kind(
        _text(bazi_stars.p_tables_finding),
        ("star", "birth", "pillars", "variants", "bases", "include_basis_pillar"),
        "which of a star's tables find it on a chart",
    ),
    "star_roles": Kind(
        _text(bazi_stars.p_star_roles),
        ("star", "birth", "pillars", "variants", "bases", "include_basis_pillar"),
        "where a star stands on a real chart, with the role of each hit (Hook, Noose …)",
    ),
    "void_pillars": Kind(
        _text(bazi_stars.p_void_pillars),
        ("branch",),
        "every pillar of the sixty whose Void (旬空) includes a branch",
    ),
    "year_pillars_for": Kind(
        _text(bazi_stars.p_year_pillars_for),
        ("star", "branch", "variant"),
        "every year pillar whose table, read from the year's nayin, gives a branch",
    ),
    "hit_basis": Kind(
        _text(bazi_stars.p_hit_basis),
        ("star", "pillar", "birth", "pillars", "variants", "bases", "include_basis_pillar"),
        "which basis found a star in one pillar",
    ),
    # the library's own checks
    "crosscheck": Kind(
        _text(selfcheck.p_crosscheck),
        ("file", "swap"),
        "one iztro reference file's crosscheck, or a planted `swap`'s failures",
    ),
    "known_reason": Kind(
        _text(selfcheck.p_known_reason),
        ("file",),
        "the documented iztro error behind a file's known differences",
    ),
    # The fourteen major stars
    "class_day_branch": Kind(
        _p_class_day_branch,
        ("star", "class", "day"),
        "where a major star stands for a five-element class and the day Zi Wei counts",
    ),
    "class_days_of": Kind(
        _p_class_days_of,
        ("star", "class", "branch"),
        "every lunar day 1–30 that puts a major star on a branch in a five-element class, "
        "then the days whose late Rat hour does",
    ),
    "zi_wei_for": Kind(
        _p_zi_wei_for,
        ("star", "branch"),
        "every branch of Zi Wei that puts a major star on a branch",
    ),
    # the chart's frame (frame)
    "mutagen_star": Kind(
        lambda q: _one(frame.mutagen_star(q)),
        ("year_stem", "mutagen"),
        "the star a year stem transforms into one of 禄 权 科 忌",
    ),
    "mutagen_stems": Kind(
        lambda q: _either(frame.mutagen_stems(q)),
        ("star", "mutagen"),
        "every year stem transforming a star into one of 禄 权 科 忌",
    ),
    "five_class": Kind(
        lambda q: _one(frame.five_class(q)),
        ("year_stem", "life"),
        "the five-element class of a year stem with the Life palace on a branch",
    ),
    "class_lives": Kind(
        lambda q: _either(frame.class_lives(q)),
        ("year_stem", "klass"),
        "every Life palace branch giving a year stem a five-element class",
    ),
    "chart_masters": Kind(
        lambda q: _one(frame.chart_masters(q)),
        ("lunar", "hour", "gender", "leap", "algorithm"),
        "the Life and Body masters of a lunar birth",
    ),
    "master_branches": Kind(
        lambda q: _either(frame.master_branches(q)),
        ("which", "star", "algorithm"),
        "every Life palace branch (`which: life`) or year branch (`which: body`) giving a "
        "star as that master",
    ),
    # the twelve-god cycles (god_cycles)
    "cycle_god": Kind(
        lambda q: _one(god_cycles.cycle_god_answer(q)),
        ("cycle", "god", "lunar", "hour", "gender", "leap", "school", "algorithm"),
        "where one god of a twelve-god cycle stands for a lunar birth under a school (and "
        "`algorithm`)",
    ),
    "cycle_classes": Kind(
        lambda q: _either(god_cycles.cycle_classes(q)),
        ("cycle", "god", "branch", "gender", "year", "school"),
        "every five-element class putting a god on a branch (for a gender and a `year` "
        "polarity, yang or yin)",
    ),
    "cycle_years": Kind(
        lambda q: _either(god_cycles.cycle_years(q)),
        ("cycle", "god", "branch", "gender", "year", "by", "school"),
        "every birth-year stem (`by: stem`) or branch (`by: branch`) putting a god on a branch",
    ),
    # the limits: decades and small limit
    "decade_of": Kind(
        _p_decade_of,
        ("birth", "age"),
        "the palace whose decade holds an age on a birth's chart, with the decade's ages",
    ),
    "small_limit_years": Kind(
        _p_small_limit_years,
        ("branch", "gender", "age"),
        "every year branch whose small limit at an age stands on a branch, for a gender",
    ),
    # the year layer and its flowing stars
    "flowing_star": Kind(
        _p_flowing_star, ("star", "year"), "where a flowing year star stands in a lunar year"
    ),
    "flowing_years": Kind(
        _p_flowing_years,
        ("star", "branch", "by"),
        "every year stem (or branch) whose flowing year star stands on a branch",
    ),
    # brightness by school
    "grade_of": Kind(
        _p_grade_of,
        ("star", "branch", "school"),
        "the brightness grade of a star on a branch under a school",
    ),
    "grade_branches": Kind(
        _p_grade_branches,
        ("star", "grade", "school"),
        "every branch on which a star has a grade under a school",
    ),
    # The BaZi frame: growth stages
    "stage": Kind(
        _text(stages.p_stage),
        ("stem", "branch", "earth", "yin"),
        "a stem's growth stage on a branch under a convention",
    ),
    "stage_branches": Kind(
        lambda q: _either(stages.p_stage_branches(q)),
        ("stem", "stage", "earth", "yin"),
        "every branch on which a stem is at a stage (its key) under a convention",
    ),
    # The BaZi frame: nayin
    "nayin": Kind(_text(nayin.p_nayin), ("pillar",), "a pillar's nayin and its phase"),
    "nayin_pillars": Kind(
        lambda q: _either(nayin.p_nayin_pillars(q)),
        ("element", "stem"),
        "every pillar whose nayin is of a phase, of one stem if given",
    ),
    # The BaZi frame: the Life palace and the conception pillars
    "ming_gong": Kind(
        _text(bazi_frame.p_ming_gong),
        ("year_stem", "month", "hour"),
        "the BaZi Life palace (pillar and branch) for a year stem, the month pillar's branch "
        "and an hour",
    ),
    "ming_gong_hours": Kind(
        lambda q: _either(bazi_frame.p_ming_gong_hours(q)),
        ("month", "branch"),
        "every hour whose BaZi Life palace is on a branch in a month",
    ),
    "tai_yuan": Kind(
        _text(bazi_frame.p_tai_yuan), ("month",), "the conception pillar of a month pillar"
    ),
    "tai_xi": Kind(
        _text(bazi_frame.p_tai_xi), ("day",), "the conception breath of a day pillar"
    ),  # The BaZi frame: the start of luck
    "start_age": Kind(
        _text(bazi_frame.p_start_age),
        ("birth", "term", "method"),
        "the start age for a birth and the solar term its luck counts to or from, by a method",
    ),
    "luck_runs": Kind(
        lambda q: _either(bazi_frame.p_luck_runs(q)),
        ("direction",),
        "every year polarity and gender whose luck pillars run a direction",
    ),
    # The patterns (格局)
    "pattern_of_birth": Kind(
        _text(patterns.patterns_of_birth),
        ("birth",),
        "every pattern a birth ({date, time, gender}) forms under the book's reading",
    ),
    "pattern_hours": Kind(
        _p_pattern_hours,
        ("pattern", "date", "gender"),
        "every hour of a solar day, the late Rat hour too, whose chart forms a pattern",
    ),
}
"""Every problem kind by name."""


def solve(engine: Options) -> Answer:
    """The engine's answer to a problem's query (``ask`` names the kind): every solution."""
    ask = str(engine.get("ask", ""))
    if ask not in PROBLEMS:
        raise InputError("ask", f"unknown problem kind {ask!r} (known: {', '.join(PROBLEMS)})")
    try:
        return PROBLEMS[ask](engine)
    except KeyError as e:
        raise InputError("engine", f"problem {ask} needs {e.args[0]!r}") from None


def problem_answer(engine: Options) -> str:
    """The engine's answer to a problem's query as an article prints it."""
    return solve(engine).text
