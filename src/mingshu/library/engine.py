"""What the engines say, in the shapes articles print: tables, problem answers, diagram data.

Every value here is read from :mod:`mingshu.ziwei` charts or :mod:`mingshu.bazi` tables at
the time of the call; nothing is typed in.  Tables and problems are named (``TABLES``,
``PROBLEMS``) so that an article's directive can call them and the check can compare what
the article prints with what the engine says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from mingshu.cycles import Branch, Stem
from mingshu.errors import InputError

__all__ = [
    "PROBLEMS",
    "TABLES",
    "Table",
    "branch_name",
    "conformance",
    "hour_number",
    "problem_answer",
    "school_branches",
    "star_branch",
    "star_name",
    "table",
]

Options = Mapping[str, Any]


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


# ------------------------------------------------------------------------------- tables


def _range(options: Options, key: str, default: Sequence[int]) -> list[int]:
    value = options.get(key, list(default))
    if not (isinstance(value, list) and len(value) == 2):
        raise InputError(key, "give a range as [first, last]")
    return list(range(int(value[0]), int(value[1]) + 1))


def _day_hour(options: Options) -> Table:
    star = str(options.get("star", "en_guang"))
    days = _range(options, "days", (1, 6))
    hours = [hour_number(h) for h in _range(options, "hours", (0, 5))]
    rows = tuple(
        (f"Day {d}", *(branch_name(star_branch(star, day=d, hour=h)) for h in hours)) for d in days
    )
    marked: set[tuple[int, int]] = set()
    rule = ""
    for kind, sign in (("difference", -1), ("sum", 1)):
        if kind in options:
            target = int(options[kind])
            word = "−" if sign < 0 else "+"
            rule = f"day {word} hour number = {target}"
            marked = {
                (r, c + 1)
                for r, d in enumerate(days)
                for c, h in enumerate(hours)
                if (d + sign * h) == target
            }
    return Table(("Day", *(branch_name(h) for h in hours)), rows, frozenset(marked), rule)


def _remainder(options: Options) -> Table:
    star = str(options.get("star", "en_guang"))
    sign = -1 if star == "en_guang" else 1
    cells = []
    for r in range(12):
        day = r if r > 0 else 12  # hour Rat (0): day − 0 = day ≡ r
        cells.append(branch_name(star_branch(star, day=day, hour=0)))
        assert (day + sign * 0) % 12 == r
    head = star_name(star)
    return Table(
        ("Remainder", head, "Remainder", head),
        tuple((str(r), cells[r], str(r + 6), cells[r + 6]) for r in range(6)),
    )


def _apart(options: Options) -> Table:
    a, b = (str(s) for s in options.get("stars", ["en_guang", "tian_gui"]))
    gaps = [(star_branch(b, hour=h) - star_branch(a, hour=h)) % 12 for h in range(12)]
    return Table(
        ("Hour", "Apart", "Hour", "Apart"),
        tuple(
            (branch_name(h), str(gaps[h]), branch_name(h + 6), str(gaps[h + 6])) for h in range(6)
        ),
    )


def _hour_stars(options: Options) -> Table:
    stars = [str(s) for s in options.get("stars", ["tai_fu"])]
    hours = [hour_number(h) for h in options.get("hours", list(range(12)))]
    rows = tuple(
        (branch_name(h), *(branch_name(star_branch(s, hour=h)) for s in stars)) for h in hours
    )
    return Table(("Hour", *(star_name(s) for s in stars)), rows)


def _directions(options: Options) -> Table:
    stars = [str(s) for s in options.get("stars", [])]
    a, b = (hour_number(h) for h in options.get("hours", ["rat", "horse"]))
    rows = []
    for s in stars:
        step = (star_branch(s, hour=1) - star_branch(s, hour=0)) % 12
        way = {1: "forward", 11: "back"}.get(step, f"{step} places")
        rows.append(
            (
                star_name(s),
                branch_name(star_branch(s, hour=a)),
                way,
                branch_name(star_branch(s, hour=b)),
            )
        )
    return Table(
        ("Star", f"{branch_name(a)} hour", "Direction", f"{branch_name(b)} hour"), tuple(rows)
    )


def _month_palace(options: Options) -> Table:
    star = str(options.get("star", "di_kong"))
    names = [palace_of(star, month=m, hour=0) for m in range(1, 13)]
    return Table(
        ("Month", "Palace", "Month", "Palace"),
        tuple((str(m), names[m - 1], str(m + 6), names[m + 5]) for m in range(1, 7)),
    )


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


LITERARY_TABLES: Final = (
    ("w1", "Site table"),
    ("w2", "Sanming j.3"),
    ("w3", "Sanming j.3 Wen Xing"),
    ("w4", "Xingxue j.1"),
)


def _literary_tables(options: Options) -> Table:
    variants = [v for v, _ in LITERARY_TABLES]
    rows = []
    marked = set()
    for r, stem in enumerate(Stem):
        site = literary_star(int(stem), "w1")
        cells = [branch_name(literary_star(int(stem), v)) for v in variants]
        for c, v in enumerate(variants[1:], start=2):
            if literary_star(int(stem), v) == site:
                marked.add((r, c))
        rows.append((stem_name(int(stem)), *cells))
    return Table(
        ("Day stem", *(label for _, label in LITERARY_TABLES)),
        tuple(rows),
        frozenset(marked),
        "same branch as the site table",
    )


def _eating_god_table(options: Options) -> Table:
    rows = []
    marked = set()
    for r, stem in enumerate(Stem):
        god = eating_god(int(stem))
        lu = emolument(god)
        site = literary_star(int(stem))
        if lu == site:
            marked.add((r, 3))
        rows.append((stem_name(int(stem)), stem_name(god), branch_name(lu), branch_name(site)))
    return Table(
        ("Day stem", "Eating God", "Its Emolument", "Literary Star (site)"),
        tuple(rows),
        frozenset(marked),
        "the Literary Star equals the Eating God's Emolument",
    )


# ------------------------------------------------------- ZW-BK-01 (the book beside the engine)
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


def _school(options: Options) -> str:
    school = str(options.get("school", "iztro"))
    if school not in SCHOOLS:
        raise InputError("school", f"{school!r} is not a school ({', '.join(SCHOOLS)})")
    return school


def _clear_departures(rule: Mapping[str, Any]) -> int:
    return int(rule["disagree"]) - int(rule["unclear"])


def _conformance_summary(options: Options) -> Table:
    rows = []
    for school in SCHOOLS:
        rules = conformance()[school]
        rows.append(
            (
                school,
                str(len(rules)),
                str(sum(1 for r in rules if not r["disagree"])),
                str(sum(1 for r in rules if _clear_departures(r))),
                str(sum(1 for r in rules if r["unclear"] and not _clear_departures(r))),
            )
        )
    return Table(
        ("School", "Rules", "Agree everywhere", "Depart, verse clear", "Differ, text unclear"),
        tuple(rows),
    )


def _conformance_rules(options: Options) -> Table:
    """The rules of one school that ``show`` picks: ``departures`` (some disagreement where
    the verse is clear) or ``unclear`` (some disagreement where it is not)."""
    school, show = _school(options), str(options.get("show", "departures"))
    pick: dict[str, Callable[[Mapping[str, Any]], bool]] = {
        "departures": lambda r: _clear_departures(r) > 0,
        "unclear": lambda r: int(r["unclear"]) > 0,
    }
    if show not in pick:
        raise InputError("show", f"{show!r}: show departures or unclear")
    count = "Differ" if show == "departures" else "Unclear"
    rows = tuple(
        (
            str(r["title"]),
            str(r["lines"]),
            str(r["points"]),
            str(r["disagree"] if show == "departures" else r["unclear"]),
            str(r["space"]),
        )
        for r in conformance()[school]
        if pick[show](r)
    )
    # The counts before the (long) space, so that a narrow page shows them unscrolled.
    return Table(("Rule", "Verse line", "Points", count, "Space"), rows)


def _settings(school: str) -> Any:
    from mingshu import ziwei

    return ziwei.ZiweiSettings(school=ziwei.School(school))


def _lunar_chart(q: Options, school: str) -> Any:
    from mingshu import ziwei

    return ziwei.by_lunar(
        str(q["lunar"]),
        hour_number(q.get("hour", 0)),
        str(q.get("gender", "male")),
        leap=bool(q.get("leap", False)),
        settings=_settings(school),
    )


def _stars_at(chart: Any, keys: Sequence[str]) -> str:
    """Each star of ``keys`` on the chart by its name, with the branches holding it: stars
    one school places twice under one name (旬空 on both void palaces) are listed once."""
    found: dict[str, list[int]] = {}
    for palace in chart.palaces:
        for placed in palace.stars:
            if placed.star.key in keys:
                found.setdefault(str(placed.star.names.pinyin), []).append(int(palace.branch))
    if not found:
        return "not placed"
    return "; ".join(
        f"{name} {', '.join(branch_name(b) for b in sorted(set(bs)))}" for name, bs in found.items()
    )


def _chang_sheng(chart: Any) -> str:
    """Where 长生 stands and the way the twelve stages run from it."""
    at = {int(p.chang_sheng.position): int(p.branch) for p in chart.palaces}
    way = {1: "forward", 11: "back"}[(at[1] - at[0]) % 12]
    return f"{branch_name(at[0])}, {way}"


def school_branches(birth: Options, stars: Sequence[str] = ()) -> dict[str, tuple[int, ...]]:
    """School → the branches of the Life palace (no ``stars``) or of any of ``stars`` on
    the chart of ``birth`` ({lunar, hour, gender, leap}) under that school."""
    out: dict[str, tuple[int, ...]] = {}
    for school in SCHOOLS:
        chart = _lunar_chart(birth, school)
        if not stars:
            out[school] = (int(chart.life_branch),)
            continue
        out[school] = tuple(
            sorted({int(p.branch) for p in chart.palaces for s in p.stars if s.star.key in stars})
        )
    return out


def _school_row(item: Options, chart: Any) -> str:
    what = str(item.get("what", "stars"))
    if what == "life":
        return branch_name(int(chart.life_branch))
    if what == "chang_sheng":
        return _chang_sheng(chart)
    if what == "stars":
        return _stars_at(chart, [str(k) for k in item.get("stars", [])])
    raise InputError("what", f"{what!r}: a row shows life, chang_sheng or stars")


def _schools(options: Options) -> Table:
    """One birth under both schools, row by row: the Life palace, 长生, or named stars."""
    birth = options.get("birth")
    if not isinstance(birth, Mapping) or "lunar" not in birth:
        raise InputError("birth", "give the birth as {lunar: YYYY-MM-DD, hour, gender, leap}")
    charts = [_lunar_chart(birth, s) for s in SCHOOLS]
    rows = tuple(
        (str(item["label"]), *(_school_row(item, c) for c in charts))
        for item in options.get("rows", [])
    )
    return Table(("", *SCHOOLS), rows)


def _p_school_life(q: Options) -> str:
    return branch_name(int(_lunar_chart(q, _school(q)).life_branch))


def _p_school_year_branches(q: Options) -> str:
    """The year branches for which ``star`` stands on ``branch`` under ``school``: one chart
    per year branch (lunar new year's day, 1984 甲子 onwards)."""
    from mingshu import ziwei

    star, target, settings = str(q["star"]), branch_number(q["branch"]), _settings(_school(q))
    years = []
    for yb in range(12):
        chart = ziwei.by_lunar(f"{1984 + yb}-01-01", 0, "male", settings=settings)
        if any(
            int(p.branch) == target and s.star.key == star for p in chart.palaces for s in p.stars
        ):
            years.append(yb)
    return " or ".join(branch_name(b) for b in years) or "none"


TABLES: Final[dict[str, Callable[[Options], Table]]] = {
    "day_hour": _day_hour,
    "remainder": _remainder,
    "apart": _apart,
    "hour_stars": _hour_stars,
    "directions": _directions,
    "month_palace": _month_palace,
    "literary_tables": _literary_tables,
    "eating_god": _eating_god_table,
    # ZW-BK-01
    "conformance_summary": _conformance_summary,
    "conformance_rules": _conformance_rules,
    "schools": _schools,
}


def table(kind: str, options: Options) -> Table:
    if kind not in TABLES:
        raise InputError("table", f"unknown table {kind!r} (known: {', '.join(TABLES)})")
    return TABLES[kind](options)


# ---------------------------------------------------------------------------- problems


def _p_star_branch(q: Options) -> str:
    return branch_name(
        star_branch(
            str(q["star"]),
            day=int(q.get("day", 1)),
            hour=hour_number(q.get("hour", 0)),
            month=int(q.get("month", 1)),
        )
    )


def _p_stars_branches(q: Options) -> str:
    h = hour_number(q.get("hour", 0))
    return ", ".join(
        f"{star_name(str(s))} {branch_name(star_branch(str(s), hour=h))}" for s in q["stars"]
    )


def _p_hour_of(q: Options) -> str:
    star = str(q["star"])
    target = branch_number(q["branch"])
    day = int(q.get("day", 1))
    hours = [h for h in range(12) if star_branch(star, day=day, hour=h) == target]
    return " or ".join(branch_name(h) for h in hours) or "none"


def _p_hours_same(q: Options) -> str:
    a, b = (str(s) for s in q["stars"])
    hours = [
        h
        for h in range(12)
        if all(star_branch(a, day=d, hour=h) == star_branch(b, day=d, hour=h) for d in (1, 2, 3))
    ]
    return " or ".join(branch_name(h) for h in hours) or "none"


def _p_palace(q: Options) -> str:
    star, month = str(q["star"]), int(q["month"])
    names = {palace_of(star, month=month, hour=h) for h in range(12)}
    return " / ".join(sorted(names))


def _p_literary_hits(q: Options) -> str:
    stem = parse_stem(q["day_stem"])
    branches = [branch_number(b) for b in q["branches"]]
    target = literary_star(stem)
    pillars = ("year", "month", "day", "hour")
    hits = [pillars[i] for i, b in enumerate(branches) if b == target]
    return f"{branch_name(target)}: " + (" and ".join(hits) if hits else "not in the chart")


PROBLEMS: Final[dict[str, Callable[[Options], str]]] = {
    "star_branch": _p_star_branch,
    "stars_branches": _p_stars_branches,
    "hour_of": _p_hour_of,
    "hours_same_palace": _p_hours_same,
    "palace": _p_palace,
    "literary_hits": _p_literary_hits,
    # ZW-BK-01
    "school_life_palace": _p_school_life,
    "school_year_branches": _p_school_year_branches,
}


def problem_answer(engine: Options) -> str:
    """The engine's answer to a problem's query (``ask`` names the kind)."""
    ask = str(engine.get("ask", ""))
    if ask not in PROBLEMS:
        raise InputError("ask", f"unknown problem kind {ask!r} (known: {', '.join(PROBLEMS)})")
    try:
        return PROBLEMS[ask](engine)
    except KeyError as e:
        raise InputError("engine", f"problem {ask} needs {e.args[0]!r}") from None
