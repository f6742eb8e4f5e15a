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
    "BASIS_WORDS",
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


# ------------------------------------ BZ-SS-01, BZ-SS-03, BZ-SS-04: Nobleman, Horse, Kitchen


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


@cache
def _year_chart(offset: int) -> Any:
    """A Zi Wei chart born in the lunar year 1984 + ``offset`` (1984 is 甲子, so the year's
    stem is ``offset % 10`` and its branch ``offset % 12``), on the first day of the sixth
    month, far from both year boundaries."""
    from mingshu import ziwei

    return ziwei.from_birth(ziwei.Birth.lunar(f"{1984 + offset}-6-1", 0, "female"))


def year_star_branch(star: str, *, stem: int | None = None, branch: int | None = None) -> int:
    """Where a Zi Wei year star stands for a birth year of the given stem or branch."""
    offset = stem if stem is not None else (branch or 0)
    try:
        return int(_year_chart(offset).star(star).branch)
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None


_NOBLEMAN_TABLES: Final = (("v1", "V1 Sanming j.3"), ("v2", "V2 Shenfeng"))


def _nobleman_tables(options: Options) -> Table:
    day, night = nobleman_walk(0, 1), nobleman_walk(8, -1)
    rows, marked = [], set()
    for r, stem in enumerate(Stem):
        v1, v2 = (bazi_cell("tian_yi", v, int(stem)) for v, _ in _NOBLEMAN_TABLES)
        if sorted(v2) == sorted(v1):
            marked.add((r, 2))
        walked = (branch_name(day[int(stem)]), branch_name(night[int(stem)]))
        rows.append((stem_name(int(stem)), branches_name(v1), branches_name(v2), *walked))
    return Table(
        (
            "Day stem",
            *(label for _, label in _NOBLEMAN_TABLES),
            "Walk from Rat",
            "Walk from Monkey",
        ),
        tuple(rows),
        frozenset(marked),
        "V2 gives the same pair as V1",
    )


def _horse_table(options: Options) -> Table:
    rows, marked = [], set()
    for b in range(12):
        head = group_head(b)
        group = sorted({b, (b + 4) % 12, (b + 8) % 12}, key=lambda m: (m - head) % 12)
        (horse,) = bazi_cell("yi_ma", "standard", b)
        tian_ma = year_star_branch("tian_ma", branch=b)
        if tian_ma == horse:
            marked.add((b, 3))
        rows.append(
            (branch_name(b), branches_name(group), branch_name(horse), branch_name(tian_ma))
        )
    return Table(
        ("Branch", "Its group, head first", "Traveling Horse (BaZi)", "Tian Ma (Zi Wei)"),
        tuple(rows),
        frozenset(marked),
        "Zi Wei's Tian Ma on the same branch as BaZi's Traveling Horse",
    )


def _kitchen_tables(options: Options) -> Table:
    rows, marked = [], set()
    for r, stem in enumerate(Stem):
        god = eating_god(int(stem))
        (k1,) = bazi_cell("tian_chu", "k1", int(stem))
        (k2,) = bazi_cell("tian_chu", "k2", int(stem))
        zi_wei = year_star_branch("tian_chu", stem=int(stem))
        marked |= {(r, c) for c, b in ((3, k2), (4, zi_wei)) if b == k1}
        cells = (stem_name(god), branch_name(k1), branch_name(k2), branch_name(zi_wei))
        rows.append((stem_name(int(stem)), *cells))
    return Table(
        ("Stem", "Eating God", "K1 note", "K2 verse", "Tian Chu (Zi Wei)"),
        tuple(rows),
        frozenset(marked),
        "same branch as K1, the Eating God's Emolument",
    )


# ZW-AUX-05, ZW-AUX-06 (Wen Chang, Wen Qu) --------------------------------------------------


def star_grade(star: str, *, hour: int = 0) -> str:
    """The brightness grade (English name, "–" for none) of a Zi Wei star at ``hour``."""
    chart = _chart(1, hour)
    try:
        grade = chart.star(star).brightness
    except (InputError, KeyError, ValueError):
        raise InputError("star", f"no Zi Wei star {star!r} on the chart") from None
    return "–" if grade is None else str(grade.names.english)


def _hour_brightness(options: Options) -> Table:
    """Each hour's landing of the ``stars`` and the engine's brightness grade there."""
    stars = [str(s) for s in options.get("stars", ["wen_chang"])]
    hours = [hour_number(h) for h in options.get("hours", list(range(12)))]
    rows = tuple(
        (
            branch_name(h),
            *(
                cell
                for s in stars
                for cell in (branch_name(star_branch(s, hour=h)), star_grade(s, hour=h))
            ),
        )
        for h in hours
    )
    heads = (head for s in stars for head in (star_name(s), "Grade"))
    return Table(("Hour", *heads), rows)


# ------------------------------------------- ZW-AUX-12, ZW-AUX-13, ZW-AUX-15, ZW-AUX-16
# Month-and-day stars (三台 八座) and the two stars named 空 (天空 by year, 地空 by hour).


def _month_day(options: Options) -> Table:
    """A month-and-day star's branch for a block of months and days (hour Rat)."""
    star = str(options.get("star", "san_tai"))
    months = _range(options, "months", (1, 4))
    days = _range(options, "days", (1, 4))
    rows = tuple(
        (f"Month {m}", *(branch_name(star_branch(star, day=d, month=m)) for d in days))
        for m in months
    )
    marked: set[tuple[int, int]] = set()
    rule = ""
    if "sum" in options:
        target = int(options["sum"])
        rule = f"month + day = {target}"
        marked = {
            (r, c + 1) for r, m in enumerate(months) for c, d in enumerate(days) if m + d == target
        }
    return Table(("Month", *(f"Day {d}" for d in days)), rows, frozenset(marked), rule)


def _month_day_remainder(options: Options) -> Table:
    """A month-and-day star's branch by (month + day) mod 12, read on month 1."""
    star = str(options.get("star", "san_tai"))
    # Month 1 plus day (r − 1) leaves remainder r; r = 1 needs day 12, as day 0 does not exist.
    cells = [branch_name(star_branch(star, day=(r - 1) % 12 or 12)) for r in range(12)]
    head = star_name(star)
    return Table(
        ("Remainder", head, "Remainder", head),
        tuple((str(r), cells[r], str(r + 6), cells[r + 6]) for r in range(6)),
    )


def _year_hour(options: Options) -> Table:
    """Two rules side by side: stars placed by the year branch and stars placed by the hour,
    one row per branch (a year with that branch, or a birth in that hour)."""
    by_year = [str(s) for s in options.get("by_year", ["tian_kong"])]
    by_hour = [str(s) for s in options.get("by_hour", ["di_kong"])]
    rows = tuple(
        (
            branch_name(b),
            *(branch_name(year_star_branch(s, branch=b)) for s in by_year),
            *(branch_name(star_branch(s, hour=b)) for s in by_hour),
        )
        for b in range(12)
    )
    heads = (
        *(f"{star_name(s)} (year)" for s in by_year),
        *(f"{star_name(s)} (hour)" for s in by_hour),
    )
    return Table(("Branch", *heads), rows)


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


# BZ-SS-00, BZ-SS-10 (mingshu.library.bazi_stars) and MS-LIB-01 (mingshu.library.selfcheck):
# their tables and problems live in their own modules, imported when first used (they
# import this one).


def _lazy(module: str, name: str) -> Callable[[Options], Any]:
    def run(options: Options) -> Any:
        import importlib

        return getattr(importlib.import_module(f"mingshu.library.{module}"), name)(options)

    return run


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
    # BZ-SS-01, BZ-SS-03, BZ-SS-04
    "nobleman_tables": _nobleman_tables,
    "horse_table": _horse_table,
    "kitchen_tables": _kitchen_tables,
    # ZW-AUX-05, ZW-AUX-06 (Wen Chang, Wen Qu): where an hour star lands and its grade there
    "hour_brightness": _hour_brightness,
    # ZW-AUX-12, ZW-AUX-13, ZW-AUX-15, ZW-AUX-16
    "month_day": _month_day,
    "month_day_remainder": _month_day_remainder,
    "year_hour": _year_hour,
    # ZW-BK-01
    "conformance_summary": _conformance_summary,
    "conformance_rules": _conformance_rules,
    "schools": _schools,
    # BZ-SS-00
    "variant_disagreement": _lazy("bazi_stars", "variant_disagreement"),
    "variant_sources": _lazy("bazi_stars", "variant_sources"),
    # BZ-SS-10
    "star_sites": _lazy("bazi_stars", "star_sites"),
    "chart_hits": _lazy("bazi_stars", "chart_hits"),
    "basis_pillar_effect": _lazy("bazi_stars", "basis_pillar_effect"),
    "own_branch_keys": _lazy("bazi_stars", "own_branch_keys"),
    # MS-LIB-01
    "iztro_crosscheck": _lazy("selfcheck", "iztro_table"),
    "known_differences": _lazy("selfcheck", "known_differences"),
    "claim_runs": _lazy("selfcheck", "claim_runs"),
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


# BZ-SS-01, BZ-SS-03, BZ-SS-04: BaZi stars found by the engine, and Zi Wei year stars


_PILLARS: Final = ("year", "month", "day", "hour")
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


def _p_bazi_star_hits(q: Options) -> str:
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
        f"{_PILLARS[int(h.position)]} {branch_name(branches[int(h.position)])}"
        + (f" ({BASIS_WORDS[h.basis]})" if several else "")
        for h in found.hits
    ]
    return ", ".join(hits) or "not in the chart"


def _p_bazi_stems_for(q: Options) -> str:
    """The day stems whose table ``variant`` of ``star`` gives ``branch``."""
    from mingshu.bazi import stars

    star = str(q["star"])
    variant = str(q.get("variant", stars.star(star).default))
    target = branch_number(q["branch"])
    found = [int(s) for s in Stem if target in bazi_cell(star, variant, int(s))]
    return " or ".join(stem_name(s) for s in found) or "none"


def _p_year_star_years(q: Options) -> str:
    """The birth-year stems (``by: stem``) or branches (``by: branch``) that put the Zi Wei
    year star ``star`` on ``branch``."""
    star, target, by = str(q["star"]), branch_number(q["branch"]), str(q.get("by", "branch"))
    if by == "stem":
        stems = [s for s in range(10) if year_star_branch(star, stem=s) == target]
        return " or ".join(stem_name(s) for s in stems) or "none"
    if by == "branch":
        found = [b for b in range(12) if year_star_branch(star, branch=b) == target]
        return " or ".join(branch_name(b) for b in found) or "none"
    raise InputError("by", f"give stem or branch, not {by!r}")


def _p_horse_of_birth(q: Options) -> str:
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
    return (
        f"BaZi {branch_name(horse)} (year {branch_name(year)}), "
        f"Zi Wei {branch_name(tian_ma)} (year {branch_name(zi_wei_year)})"
    )


# ZW-AUX-13, ZW-AUX-15, ZW-AUX-16: stars placed by the year branch, and by month and day.


def _p_year_star(q: Options) -> str:
    return branch_name(year_star_branch(str(q["star"]), branch=branch_number(q["year"], "year")))


def _p_year_of(q: Options) -> str:
    star, target = str(q["star"]), branch_number(q["branch"])
    years = [y for y in range(12) if year_star_branch(star, branch=y) == target]
    return " or ".join(f"{branch_name(y)} year" for y in years) or "none"


def _p_days_of(q: Options) -> str:
    star, target, month = str(q["star"]), branch_number(q["branch"]), int(q["month"])
    days = [d for d in range(1, 31) if star_branch(star, day=d, month=month) == target]
    if not days:
        return "none"
    return " or ".join(filter(None, (", ".join(map(str, days[:-1])), str(days[-1]))))


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
    # BZ-SS-01, BZ-SS-03, BZ-SS-04
    "bazi_star_hits": _p_bazi_star_hits,
    "bazi_stems_for": _p_bazi_stems_for,
    "year_star_years": _p_year_star_years,
    "horse_of_birth": _p_horse_of_birth,
    # ZW-AUX-13, ZW-AUX-15, ZW-AUX-16
    "year_star": _p_year_star,
    "year_of": _p_year_of,
    "days_of": _p_days_of,
    # ZW-BK-01
    "school_life_palace": _p_school_life,
    "school_year_branches": _p_school_year_branches,
    # BZ-SS-00 and BZ-SS-10
    "star_hits": _lazy("bazi_stars", "p_star_hits"),
    "tables_finding": _lazy("bazi_stars", "p_tables_finding"),
    "hit_basis": _lazy("bazi_stars", "p_hit_basis"),
    # MS-LIB-01
    "crosscheck": _lazy("selfcheck", "p_crosscheck"),
    "known_reason": _lazy("selfcheck", "p_known_reason"),
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
