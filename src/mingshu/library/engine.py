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
    "hour_number",
    "problem_answer",
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


# ZW-BAS-02 (the twelve palaces) and ZW-SET-01 (the settings): the Life and Body palaces
# from the engine's charts, and counts of changed charts from the whole-space record.


def life_branch(month: int, hour: int) -> int:
    """The Life palace's branch for lunar ``month`` at ``hour`` (day 1; the day never
    enters)."""
    return int(_chart(1, hour, month).life_branch)


def body_branch(month: int, hour: int) -> int:
    return int(_chart(1, hour, month).body_branch)


def palace_names(month: int, hour: int) -> dict[int, str]:
    """Branch → English palace name on a chart of lunar ``month`` at ``hour``."""
    return {int(p.branch): str(p.name.names.english) for p in _chart(1, hour, month).palaces}


def _life_palace(options: Options) -> Table:
    """The Life palace by month (rows) and hour (columns); marked: the ``hour`` column's
    cells or ``month`` row's, whichever the options name."""
    months = _range(options, "months", [1, 12])
    hours = _range(options, "hours", [0, 11])
    which = body_branch if options.get("palace") == "body" else life_branch
    rows = tuple((f"Month {m}", *(branch_name(which(m, h)) for h in hours)) for m in months)
    mark = branch_number(options["mark"], "mark") if "mark" in options else None
    marked = frozenset(
        (r, c + 1) for r, m in enumerate(months) for c, h in enumerate(hours) if which(m, h) == mark
    )
    return Table(
        ("", *(f"{branch_name(h)} hour" for h in hours)),
        rows,
        marked,
        f"cells on {branch_name(mark)}" if mark is not None else "",
    )


def _palace_order(options: Options) -> Table:
    """The twelve palace names on the branches of one chart, from its Life palace."""
    month, hour = int(options.get("month", 1)), hour_number(options.get("hour", 0))
    names = palace_names(month, hour)
    start = life_branch(month, hour)
    body = body_branch(month, hour)
    branches = [(start - i) % 12 for i in range(12)]
    rows = tuple((str(i + 1), names[b], branch_name(b)) for i, b in enumerate(branches))
    return Table(
        ("Step", "Palace", "Branch"),
        rows,
        frozenset((i, 1) for i, b in enumerate(branches) if b == body),
        "the palace the Body palace shares",
    )


def _setting_counts(options: Options) -> Table:
    """Charts a setting changes, item by item: each cell is the number of charts a claim
    ranges over (its record entry from the last whole-space run; a claim not yet run shows
    as not checked).  ``rows`` lists ``[label, claim, claim, …]``, one claim per column."""
    from mingshu.library.claims import read_record
    from mingshu.library.model import _ROOT

    record = read_record(_ROOT)
    heads = tuple(str(h) for h in options.get("columns", ()))
    rows = []
    for row in options.get("rows", ()):
        label, *keys = (str(x) for x in row)
        cells = []
        for key in keys:
            entry = record.get(key)
            cells.append(f"{int(entry['rows']):,}" if entry else "not yet checked")
        rows.append((label, *cells))
    return Table(("", *heads), tuple(rows))


def table_claims(kind: str, options: Options) -> list[str]:
    """The claims whose counts a table prints (a ``setting_counts`` table's cells)."""
    if kind != "setting_counts":
        return []
    return [str(k) for row in options.get("rows", ()) for k in list(row)[1:]]


RECORD_TABLES: Final = frozenset({"setting_counts"})
"""Tables whose cells are counts from the whole-space record: the check runs their claims
instead of comparing an ``expect`` the article would have to type."""


# ZW-BAS-01 (the supporting, malefic and minor stars): the engine's star groups and kinds,
# and stars placed by the year stem on real charts.

_KIND_ORDER: Final = ("soft", "lucun", "tianma", "tough", "flower", "helper", "adjective")


def _star_kinds(options: Options) -> Table:
    """The non-major stars by the engine's group and kind (iztro's star ``type``), in the
    engine's catalogue order; ``kinds`` picks rows, and a kind in ``count_only`` is counted
    without its names."""
    from mingshu.ziwei.stars import STARS

    kinds = [str(k) for k in options.get("kinds", _KIND_ORDER)]
    algorithm = str(options.get("algorithm", "quanshu"))
    rows = []
    for kind in kinds:
        stars = [s for s in STARS if s.kind.value == kind and algorithm in s.algorithms]
        if not stars:
            raise InputError("kinds", f"no star of kind {kind!r}")
        listed = kind not in options.get("count_only", ())
        names = ", ".join(str(s.names.pinyin) for s in stars) if listed else "not listed here"
        rows.append((stars[0].group.value, kind, str(len(stars)), names))
    return Table(("Group", "Kind", "Stars", "Names"), tuple(rows))


def _stem_chart(stem: int) -> Any:
    """A chart in a lunar year of ``stem`` (1984 is 甲子): mid-year, so the lunar year is
    that solar year's."""
    from mingshu import ziwei

    return ziwei.chart(f"{1984 + stem}-07-01", "12:00", "female")


def _p_year_stars(q: Options) -> str:
    """Where ``stars`` stand in a year of ``year_stem``."""
    chart = _stem_chart(parse_stem(q["year_stem"]))
    return ", ".join(
        f"{star_name(str(s))} {branch_name(int(chart.star(str(s)).branch))}" for s in q["stars"]
    )


def _p_stems_for(q: Options) -> str:
    """The year stems that put ``star`` on ``branch``."""
    star, target = str(q["star"]), branch_number(q["branch"])
    stems = [st for st in range(10) if int(_stem_chart(st).star(star).branch) == target]
    return " or ".join(stem_name(st) for st in stems) or "none"


TABLES: Final[dict[str, Callable[[Options], Table]]] = {
    "day_hour": _day_hour,
    "remainder": _remainder,
    "apart": _apart,
    "hour_stars": _hour_stars,
    "directions": _directions,
    "month_palace": _month_palace,
    "literary_tables": _literary_tables,
    "eating_god": _eating_god_table,
    # ZW-BAS-02, ZW-SET-01
    "life_palace": _life_palace,
    "palace_order": _palace_order,
    "setting_counts": _setting_counts,
    # ZW-BAS-01
    "star_kinds": _star_kinds,
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


# ZW-BAS-02: the Life palace forward (month and hour → branch) and back (branch → hours).


def _p_life_palace(q: Options) -> str:
    return branch_name(life_branch(int(q["month"]), hour_number(q.get("hour", 0))))


def _p_life_hours(q: Options) -> str:
    month, target = int(q["month"]), branch_number(q["branch"])
    hours = [h for h in range(12) if life_branch(month, h) == target]
    return " or ".join(branch_name(h) for h in hours) or "none"


PROBLEMS: Final[dict[str, Callable[[Options], str]]] = {
    "star_branch": _p_star_branch,
    "stars_branches": _p_stars_branches,
    "hour_of": _p_hour_of,
    "hours_same_palace": _p_hours_same,
    "palace": _p_palace,
    "literary_hits": _p_literary_hits,
    # ZW-BAS-02
    "life_palace": _p_life_palace,
    "life_hours": _p_life_hours,
    # ZW-BAS-01
    "year_stars": _p_year_stars,
    "stems_for_star": _p_stems_for,
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
