"""Table kinds: what an article's ``{table} KIND`` directive prints, each computed from the
directive's parameters and the engines (or the space's record), never typed in.

``TABLES`` names every kind with the parameters it reads; an article's ``expect`` must
equal what the kind computes (the check compares them cell by cell).  A kind is a function
of its parameters, never of the article that uses it: a new article of an existing kind is
one Markdown file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from mingshu.cycles import Branch, Stem
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
    MAJORS,
    SCHOOLS,
    Kind,
    Options,
    Table,
    algorithm_of,
    bazi_cell,
    body_branch,
    branch_name,
    branch_number,
    branches_name,
    class_day_branch,
    conformance,
    eating_god,
    emolument,
    flowing_rows,
    grade_rows,
    group_head,
    hour_number,
    life_branch,
    literary_star,
    lunar_chart,
    major_layout,
    nobleman_walk,
    palace_english,
    palace_names,
    palace_of,
    school_of,
    school_settings,
    school_stem_branch,
    small_limit_branch,
    star_branch,
    star_grade,
    star_name,
    stem_name,
    year_hour_branch,
    year_layer,
    year_palaces,
    year_star_branch,
)

__all__ = ["RECORD_TABLES", "TABLES", "table", "table_claims"]


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


def _labelled(options: Options, key: str) -> list[tuple[str, str]]:
    """A parameter listing ``[variant, column head]`` pairs."""
    value = options.get(key)
    if not (isinstance(value, list) and value and all(isinstance(p, list) for p in value)):
        raise InputError(key, "give the tables as [[variant, column head], …]")
    if any(len(p) != 2 for p in value):
        raise InputError(key, "each table is [variant, column head]")
    return [(str(v), str(label)) for v, label in value]


def _literary_tables(options: Options) -> Table:
    """The Literary Star's branch for each day stem under the ``tables`` (``[variant, head]``
    pairs, the first the one the others are marked against)."""
    tables = _labelled(options, "tables")
    variants = [v for v, _ in tables]
    rows = []
    marked = set()
    for r, stem in enumerate(Stem):
        first = literary_star(int(stem), variants[0])
        cells = [branch_name(literary_star(int(stem), v)) for v in variants]
        for c, v in enumerate(variants[1:], start=2):
            if literary_star(int(stem), v) == first:
                marked.add((r, c))
        rows.append((stem_name(int(stem)), *cells))
    return Table(
        ("Day stem", *(label for _, label in tables)),
        tuple(rows),
        frozenset(marked),
        f"same branch as the {tables[0][1].lower()}",
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


def _nobleman_tables(options: Options) -> Table:
    """The Heavenly Nobleman's pair for each day stem under two ``tables`` (``[variant,
    head]``), beside the two walks of Sanming Tonghui juan 3 (from Rat forward, from Monkey
    back)."""
    tables = _labelled(options, "tables")
    if len(tables) != 2:
        raise InputError("tables", "give two tables, [[variant, head], [variant, head]]")
    day, night = nobleman_walk(0, 1), nobleman_walk(8, -1)
    rows, marked = [], set()
    for r, stem in enumerate(Stem):
        v1, v2 = (bazi_cell("tian_yi", v, int(stem)) for v, _ in tables)
        if sorted(v2) == sorted(v1):
            marked.add((r, 2))
        walked = (branch_name(day[int(stem)]), branch_name(night[int(stem)]))
        rows.append((stem_name(int(stem)), branches_name(v1), branches_name(v2), *walked))
    return Table(
        (
            "Day stem",
            *(label for _, label in tables),
            "Walk from Rat",
            "Walk from Monkey",
        ),
        tuple(rows),
        frozenset(marked),
        str(options.get("marked", f"the same pair as {tables[0][1]}")),
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
    """Each stem's Eating God, the Heavenly Kitchen under two ``tables`` (``[variant,
    head]``, the first the one the others are marked against) and Zi Wei's Tian Chu for a
    birth year of that stem; ``marked`` names the rule."""
    tables = _labelled(options, "tables")
    if len(tables) != 2:
        raise InputError("tables", "give two tables, [[variant, head], [variant, head]]")
    rows, marked = [], set()
    for r, stem in enumerate(Stem):
        god = eating_god(int(stem))
        (k1,), (k2,) = (bazi_cell("tian_chu", v, int(stem)) for v, _ in tables)
        zi_wei = year_star_branch("tian_chu", stem=int(stem))
        marked |= {(r, c) for c, b in ((3, k2), (4, zi_wei)) if b == k1}
        cells = (stem_name(god), branch_name(k1), branch_name(k2), branch_name(zi_wei))
        rows.append((stem_name(int(stem)), *cells))
    return Table(
        ("Stem", "Eating God", *(head for _, head in tables), "Tian Chu (Zi Wei)"),
        tuple(rows),
        frozenset(marked),
        str(options.get("marked", f"same branch as {tables[0][1]}")),
    )


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


# ------------------------------------------------------- month-and-day and year stars


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


# ------------------------------------------- minor stars by the hour's palace, stem, year


def _hour_palace_halves(options: Options) -> Table:
    """The palace holding one star at each hour, the twelve hours in two halves side by side
    (Rat … Snake beside Horse … Pig), in lunar ``month``."""
    star = str(options.get("star", "zuo_fu"))
    month = int(options.get("month", 1))
    names = [palace_of(star, month=month, hour=h) for h in range(12)]
    return Table(
        ("Hour", "Palace", "Hour", "Palace"),
        tuple((branch_name(h), names[h], branch_name(h + 6), names[h + 6]) for h in range(6)),
    )


def _year_stem_stars(options: Options) -> Table:
    """Each year stem's branch of some stars under each school; cells where the schools
    give different branches are marked."""
    stars = [str(s) for s in options.get("stars", ["lu_cun"])]
    schools = [school_of({"school": s}) for s in options.get("schools", ["iztro"])]
    heads = [
        star_name(s) + (f" ({school})" if len(schools) > 1 else "")
        for s in stars
        for school in schools
    ]
    rows = []
    marked: set[tuple[int, int]] = set()
    for stem in range(10):
        cells: list[str] = []
        for i, s in enumerate(stars):
            found = [school_stem_branch(s, stem=stem, school=school) for school in schools]
            cells.extend(branch_name(b) for b in found)
            if len(set(found)) > 1:
                first = 1 + i * len(schools)
                marked.update((stem, first + j) for j in range(len(schools)))
        rows.append((f"{Stem(stem).names.hans} {stem_name(stem)}", *cells))
    rule = "the schools part" if marked else ""
    return Table(("Year stem", *heads), tuple(rows), frozenset(marked), rule)


def _year_branch_hour(options: Options) -> Table:
    """A star placed by the year's branch and the hour: its branch for each year branch
    (rows) and some hours (columns)."""
    star = str(options.get("star", "huo_xing"))
    hours = [hour_number(h) for h in options.get("hours", [0, 1, 2, 3])]
    rows = tuple(
        (
            f"{branch_name(y)} year",
            *(branch_name(year_hour_branch(star, branch=y, hour=h)) for h in hours),
        )
        for y in range(12)
    )
    return Table(("Year", *(f"{branch_name(h)} hour" for h in hours)), rows)


def _month_stars(options: Options) -> Table:
    """Each lunar month's landing of some stars (an ordinary month: day 1, the Rat hour)."""
    stars = [str(s) for s in options.get("stars", ["tian_xing"])]
    months = _range(options, "months", (1, 12))
    rows = tuple(
        (f"Month {m}", *(branch_name(star_branch(s, month=m)) for s in stars)) for m in months
    )
    return Table(("Month", *(star_name(s) for s in stars)), rows)


def _hour_palace(options: Options) -> Table:
    """The palace holding each of some stars, hour by hour, in lunar ``month`` (default 1):
    for a star the month places, the month moves its branch and the Life palace alike."""
    stars = [str(s) for s in options.get("stars", ["tian_xing"])]
    hours = [hour_number(h) for h in options.get("hours", list(range(12)))]
    month = int(options.get("month", 1))
    rows = tuple(
        (branch_name(h), *(palace_of(s, month=month, hour=h) for s in stars)) for h in hours
    )
    return Table(("Hour", *(star_name(s) for s in stars)), rows)


def _year_table(options: Options) -> Table:
    """Some year stars under the setting ``algorithm``, one row per year branch (``by:
    branch``) or year stem (``by: stem``)."""
    stars = [str(s) for s in options.get("stars", ["tian_kong"])]
    algorithm = algorithm_of(options)
    by = str(options.get("by", "branch"))
    if by not in ("branch", "stem"):
        raise InputError("by", f"give stem or branch, not {by!r}")

    def at(star: str, k: int) -> str:
        where = {by: k}
        return branch_name(year_star_branch(star, algorithm=algorithm, **where))

    if by == "branch":
        rows = tuple((branch_name(k), *(at(s, k) for s in stars)) for k in range(12))
    else:
        rows = tuple((stem_name(k), *(at(s, k) for s in stars)) for k in range(10))
    head = "Year branch" if by == "branch" else "Year stem"
    return Table((head, *(star_name(s) for s in stars)), rows)


def _year_stem(options: Options) -> Table:
    """Stars placed by the year's stem: one row per stem, each star's branch in a year of
    that stem."""
    stars = [str(s) for s in options.get("stars", ["tian_guan"])]
    rows = tuple(
        (
            f"{stem_name(st)} ({Stem(st).names.hans})",
            *(branch_name(year_star_branch(s, stem=st)) for s in stars),
        )
        for st in range(10)
    )
    return Table(("Year stem", *(star_name(s) for s in stars)), rows)


def _year_palaces(options: Options) -> Table:
    """For each year branch, the palace names that hold each star over every month and
    hour of a year of that branch."""
    stars = [str(s) for s in options.get("stars", ["tian_cai"])]
    rows = tuple(
        (branch_name(b), *(" / ".join(year_palaces(s, b)) for s in stars)) for b in range(12)
    )
    return Table(("Year", *(star_name(s) for s in stars)), rows)


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
    school, show = school_of(options), str(options.get("show", "departures"))
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


def _school_row(item: Options, chart: Any) -> str:
    what = str(item.get("what", "stars"))
    if what == "life":
        return branch_name(int(chart.life_branch))
    if what == "chang_sheng":
        return _chang_sheng(chart)
    if what == "stars":
        return _stars_at(chart, [str(k) for k in item.get("stars", [])])
    raise InputError("what", f"{what!r}: a row shows life, chang_sheng or stars")


def _school_year_stars(options: Options) -> Table:
    """Each year branch (a chart on lunar new year's day, 1984 甲子 on, Rat hour) and the
    branch of each of ``stars`` under ``school``."""
    from mingshu import ziwei

    settings = school_settings(school_of(options))
    keys = [str(k) for k in options.get("stars", [])]
    charts = [
        ziwei.by_lunar(f"{1984 + yb}-01-01", 0, "male", settings=settings) for yb in range(12)
    ]
    rows = tuple(
        (branch_name(yb), *(branch_name(int(c.star(k).branch)) for k in keys))
        for yb, c in enumerate(charts)
    )
    return Table(("Year", *(star_name_in(charts[0], k) for k in keys)), rows)


def star_name_in(chart: Any, key: str) -> str:
    """A star's pinyin as the chart's own catalogue names it (a school's star too)."""
    try:
        return str(chart.star(key).star.names.pinyin)
    except (InputError, KeyError, ValueError):
        raise InputError("stars", f"no star {key!r} on a chart of that school") from None


def _schools(options: Options) -> Table:
    """One birth under both schools, row by row: the Life palace, 长生, or named stars."""
    birth = options.get("birth")
    if not isinstance(birth, Mapping) or "lunar" not in birth:
        raise InputError("birth", "give the birth as {lunar: YYYY-MM-DD, hour, gender, leap}")
    charts = [lunar_chart(birth, s) for s in SCHOOLS]
    rows = tuple(
        (str(item["label"]), *(_school_row(item, c) for c in charts))
        for item in options.get("rows", [])
    )
    return Table(("", *SCHOOLS), rows)


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


RECORD_TABLES: Final = frozenset({"setting_counts", "pattern_group"})
"""Tables whose cells are counts from the whole-space record: the check runs their claims
instead of comparing an ``expect`` the article would have to type."""


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


# ----------------------------------------------------------- the fourteen major stars


def _class_name(klass: int) -> str:
    from mingshu.ziwei import FiveElementsClass

    return str(FiveElementsClass(klass).names.english)


def _class_day(options: Options) -> Table:
    """A major star's branch by the day 紫微 counts (rows) and the five-element class
    (columns); marked: the cells on ``branch``, or the ``cells`` given as [class, day]."""
    star = str(options.get("star", "zi_wei"))
    days = _range(options, "days", (1, 30))
    classes = _range(options, "classes", (2, 6))
    rows = tuple(
        (str(d), *(branch_name(class_day_branch(star, k, d)) for k in classes)) for d in days
    )
    marked: set[tuple[int, int]] = set()
    rule = ""
    if "branch" in options:
        target = branch_number(options["branch"])
        rule = f"{star_name(star)} on {branch_name(target)}"
        marked |= {
            (r, c + 1)
            for r, d in enumerate(days)
            for c, k in enumerate(classes)
            if class_day_branch(star, k, d) == target
        }
    if "cells" in options:
        wanted = {(int(k), int(d)) for k, d in options["cells"]}
        rule = rule or "the cells named in the text"
        marked |= {
            (r, c + 1)
            for r, d in enumerate(days)
            for c, k in enumerate(classes)
            if (k, d) in wanted
        }
    heads = (f"{_class_name(k)}" for k in classes)
    return Table(("Day", *heads), rows, frozenset(marked), rule)


def _major_layout(options: Options) -> Table:
    """Each of the ``stars``' branch for each branch of 紫微 (``branches``), read from a real
    chart with 紫微 there."""
    stars = [str(s) for s in options.get("stars", ["zi_wei", "tian_fu"])]
    for s in stars:
        if s not in MAJORS:
            raise InputError("stars", f"{s!r} is not one of the fourteen major stars")
    branches = [branch_number(b) for b in options.get("branches", list(range(12)))]
    rows = tuple(
        (branch_name(b), *(branch_name(major_layout(b)[s]) for s in stars)) for b in branches
    )
    return Table(("Zi Wei on", *(star_name(s) for s in stars)), rows)


# --------------------------------------------------- the limits: decades and small limit


def _limits(options: Options) -> Table:
    """One birth's twelve palaces in the order its decades (大限) come, with the ages each
    decade covers and the first ages of the small limit (小限) there."""
    birth = options.get("birth")
    if not isinstance(birth, Mapping) or "lunar" not in birth:
        raise InputError("birth", "give the birth as {lunar: YYYY-MM-DD, hour, gender, leap}")
    chart = lunar_chart(birth, "iztro")
    rows = tuple(
        (
            palace_english(p),
            branch_name(int(p.branch)),
            f"{p.decadal.start}–{p.decadal.end}",
            ", ".join(str(a) for a in sorted(p.ages)[:3]) + " …",
        )
        for p in sorted(chart.palaces, key=lambda p: p.decadal.start)
    )
    return Table(("Palace", "Branch", "Decade", "Small limit"), rows)


def _small_limit_start(options: Options) -> Table:
    """Per year branch: the small limit's branch at age 1, and at age 2 for men and women."""
    rows = tuple(
        (
            branch_name(yb),
            branch_name(small_limit_branch(yb, "male", 1)),
            branch_name(small_limit_branch(yb, "male", 2)),
            branch_name(small_limit_branch(yb, "female", 2)),
        )
        for yb in range(12)
    )
    return Table(("Year", "Age 1", "Age 2, men", "Age 2, women"), rows)


def _conformance_named(options: Options) -> Table:
    """The conformance run's rows of the named ``rules`` (their keys), under both schools."""
    keys = [str(k) for k in options.get("rules", [])]
    by_school = {s: {str(r["key"]): r for r in conformance()[s]} for s in SCHOOLS}
    unknown = [k for k in keys if k not in by_school[SCHOOLS[0]]]
    if unknown:
        raise InputError("rules", f"no rule {unknown!r} in the conformance record")
    rows = tuple(
        (
            str(by_school[SCHOOLS[0]][k]["title"]),
            str(by_school[SCHOOLS[0]][k]["points"]),
            *(str(by_school[s][k]["agree"]) for s in SCHOOLS),
        )
        for k in keys
    )
    return Table(("Rule", "Points", *(f"Agree ({s})" for s in SCHOOLS)), rows)


# ------------------------------------------------------ the year layer and its flowing stars

_READS: Final = {"year_stem": "stem", "year_branch": "branch", "god_year_branch": "branch"}


def _flowing_rule(
    row: Mapping[str, Any], rows: Mapping[str, Mapping[str, Any]], names: Mapping[str, str]
) -> tuple[str, str]:
    """A flowing star's rule in words and what it reads (the year's stem or branch), from
    its row of ziwei/data/horoscope.toml; ``names``: each row's star as the layer names it."""
    from mingshu.ziwei.stars import star

    place = row["place"]
    if "like" in place:
        return f"as {star_name(place['like'])}", _READS[str(star(place["like"]).place["by"])]
    if "from_star" in place:
        steps = int(place["offset"])
        way = f"{abs(steps)} on from" if steps > 0 else f"{abs(steps)} back from"
        start = str(place["from_star"])
        return f"{way} {names[start]}", _flowing_rule(rows[start], rows, names)[1]
    return "its own table", str(place["by"])


def _flowing_year(options: Options) -> Table:
    """Each flowing star of the year layer: its rule (the natal star whose rule it takes, or
    its own), what it reads, and its branch in lunar ``year``."""
    year = int(options.get("year", 2026))
    layer = year_layer(year)
    at = {s.star.key: int(s.branch) for s in layer.stars}
    names = {s.star.key: s.star for s in layer.stars}
    rows_by_key = {str(r["key"]): r for r in flowing_rows()}
    liu = {key: next(k for k in at if k == key or k.endswith(f"_{key}")) for key in rows_by_key}
    display = {key: str(names[k].names.pinyin) for key, k in liu.items()}
    rows = []
    for key, row in rows_by_key.items():
        rule, reads = _flowing_rule(row, rows_by_key, display)
        star = names[liu[key]]
        rows.append(
            (f"{star.names.pinyin} ({star.names.hans})", rule, reads, branch_name(at[liu[key]]))
        )
    return Table(("Flowing star", "Rule", "Reads", f"{year} {layer.pillar}"), tuple(rows))


# ------------------------------------------------------------- brightness by school


def _brightness_grid(options: Options) -> Table:
    """The brightness grade of some ``stars`` (default: every graded star) on each branch
    under ``school``; marked: the cells where the ``compare`` school grades otherwise."""
    school = school_of(options)
    rows = grade_rows(school)
    stars = [str(s) for s in options.get("stars", list(rows))]
    unknown = [s for s in stars if s not in rows]
    if unknown:
        raise InputError(
            "stars", f"{unknown!r}: no brightness row (graded stars: {', '.join(rows)})"
        )
    from mingshu.ziwei.stars import Brightness

    def cell(grade: int | None) -> str:
        return "–" if grade is None else str(Brightness(grade).names.hans)

    body = tuple((star_name(s), *(cell(g) for g in rows[s])) for s in stars)
    marked: set[tuple[int, int]] = set()
    rule = ""
    if "compare" in options:
        other = school_of({"school": options["compare"]})
        others = grade_rows(other)
        rule = f"the {other} school grades it otherwise"
        marked = {
            (r, b + 1) for r, s in enumerate(stars) for b in range(12) if rows[s][b] != others[s][b]
        }
    heads = tuple(str(Branch(b).names.hans) for b in range(12))  # animals would not fit 1280 px
    return Table(("Star", *heads), body, frozenset(marked), rule)


TABLES: Final[dict[str, Kind[Table]]] = {
    # Zi Wei stars placed by the day and the hour
    "day_hour": Kind(
        _day_hour,
        ("star", "days", "hours", "difference", "sum"),
        "a star's branch over days × hours; `difference` or `sum` marks the cells whose "
        "day − hour (or day + hour) number is that value",
    ),
    "remainder": Kind(
        _remainder, ("star",), "a day-and-hour star's branch by the remainder (day ∓ hour) mod 12"
    ),
    "apart": Kind(_apart, ("stars",), "how many branches two stars stand apart, hour by hour"),
    "hour_stars": Kind(_hour_stars, ("stars", "hours"), "each hour's landing of some stars"),
    "directions": Kind(
        _directions,
        ("stars", "hours"),
        "per star: its branch at two hours and the way it runs (forward, back)",
    ),
    "month_palace": Kind(
        _month_palace, ("star",), "the palace holding a star, by lunar month (Rat hour)"
    ),
    "hour_brightness": Kind(
        _hour_brightness,
        ("stars", "hours"),
        "each hour's landing of some stars with the engine's brightness grade there",
    ),
    # Zi Wei stars placed by the month and day, and by the year
    "month_day": Kind(
        _month_day,
        ("star", "months", "days", "sum"),
        "a star's branch over months × days; `sum` marks the cells whose month + day is that value",
    ),
    "month_day_remainder": Kind(
        _month_day_remainder, ("star",), "a month-and-day star's branch by (month + day) mod 12"
    ),
    "year_hour": Kind(
        _year_hour,
        ("by_year", "by_hour"),
        "stars placed by the year's branch beside stars placed by the hour, one row per branch",
    ),
    # minor stars by the hour's palace, the year stem, the year branch and hour
    "hour_palace_halves": Kind(
        _hour_palace_halves,
        ("star", "month"),
        "the palace holding a star, by hour (in one lunar month), the hours in two halves",
    ),
    "year_stem_stars": Kind(
        _year_stem_stars,
        ("stars", "schools"),
        "each year stem's branch of some stars under each of `schools`, marked where they part",
    ),
    "year_branch_hour": Kind(
        _year_branch_hour,
        ("star", "hours"),
        "a star's branch for each year branch (rows) at some hours (columns)",
    ),
    "year_stem": Kind(
        _year_stem, ("stars",), "each year stem's landing of some stars placed by the year's stem"
    ),
    "year_palaces": Kind(
        _year_palaces,
        ("stars",),
        "for each year branch, the palace names holding some stars over every month and hour",
    ),
    # Zi Wei palaces
    "month_stars": Kind(
        _month_stars, ("stars", "months"), "each lunar month's landing of some stars (branch)"
    ),
    "hour_palace": Kind(
        _hour_palace,
        ("stars", "hours", "month"),
        "the palace holding each of some stars, hour by hour, in one lunar month",
    ),
    "year_table": Kind(
        _year_table,
        ("stars", "by", "algorithm"),
        "some year stars under a setting `algorithm`, one row per year branch or stem",
    ),
    "life_palace": Kind(
        _life_palace,
        ("months", "hours", "palace", "mark"),
        "the Life (or, with `palace: body`, the Body) palace's branch over months × hours; "
        "`mark` marks the cells on a branch",
    ),
    "palace_order": Kind(
        _palace_order,
        ("month", "hour"),
        "the twelve palace names from the Life palace of one month and hour, the Body "
        "palace's marked",
    ),
    "star_kinds": Kind(
        _star_kinds,
        ("kinds", "algorithm", "count_only"),
        "the non-major stars by the engine's group and kind; a kind in `count_only` is "
        "counted without names",
    ),
    # BaZi star tables, and the Zi Wei stars that share their rules
    "literary_tables": Kind(
        _literary_tables,
        ("tables", "marked"),
        "the Literary Star's branch per day stem under several `tables` ([variant, head]), "
        "marked where equal to the first",
    ),
    "eating_god": Kind(
        _eating_god_table,
        (),
        "each day stem's Eating God, that stem's Emolument and the Literary Star",
    ),
    "nobleman_tables": Kind(
        _nobleman_tables,
        ("tables", "marked"),
        "the Heavenly Nobleman's pair per day stem under two `tables`, beside the two walks "
        "of Sanming Tonghui juan 3; `marked` names the rule marking equal pairs",
    ),
    "horse_table": Kind(
        _horse_table,
        (),
        "each branch's three-harmony group and its Horse, BaZi's Traveling Horse beside Zi "
        "Wei's Tian Ma",
    ),
    "kitchen_tables": Kind(
        _kitchen_tables,
        ("tables", "marked"),
        "each stem's Eating God, the Heavenly Kitchen under two `tables` and Zi Wei's Tian Chu",
    ),
    "variant_disagreement": Kind(
        bazi_stars.variant_disagreement,
        ("stars",),
        "per star, on how many keys each other table differs from the default",
    ),
    "variant_sources": Kind(
        bazi_stars.variant_sources,
        ("stars",),
        "each table's basis and the standing of its source",
    ),
    "star_sites": Kind(
        bazi_stars.star_sites,
        ("stars",),
        "basis, other bases, target, pillars searched, whether the basis pillar counts",
    ),
    "chart_hits": Kind(
        bazi_stars.chart_hits,
        ("stars", "birth", "pillars", "variants", "bases", "include_basis_pillar"),
        "one real chart (`birth: {date, time, gender}` or `pillars`): what each pillar "
        "holds and which basis found it",
    ),
    "basis_pillar_effect": Kind(
        bazi_stars.basis_pillar_effect,
        ("stars",),
        "over every arrangement of the four branches, how many layouts "
        "`include_basis_pillar` changes",
    ),
    "own_branch_keys": Kind(
        bazi_stars.own_branch_keys,
        ("stars",),
        "the basis branches whose table gives that same branch",
    ),
    "star_cells": Kind(
        bazi_stars.star_cells,
        ("tables", "start", "key_head", "marked"),
        "several star tables keyed alike ([star, variant, head]), one row per key from "
        "`start`; marked where equal to the first",
    ),
    "pillar_sets": Kind(
        bazi_stars.pillar_sets,
        ("tables",),
        "lists of day pillars ([star, variant]): the days in sixty-cycle order and how many",
    ),
    "shared_pillars": Kind(
        bazi_stars.shared_pillars,
        ("stars",),
        "every pillar of the sixty that two or more of the stars' default lists hold",
    ),
    # several BaZi star tables side by side
    "star_tables": Kind(
        bazi_stars.star_tables,
        ("tables", "against"),
        "per day stem (or branch), the branches several tables ([star, variant, head]) give; "
        "`against` marks the cells equal to that column's",
    ),
    "void_decades": Kind(
        bazi_stars.void_decades,
        (),
        "the six decades of the sixty cycle and the two void branches each leaves out",
    ),
    # the book beside the engine
    "conformance_summary": Kind(
        _conformance_summary, (), "per school, the conformance run's rules by agreement"
    ),
    "conformance_rules": Kind(
        _conformance_rules,
        ("school", "show"),
        "one school's rules that `show` picks: `departures` or `unclear`",
    ),
    "schools": Kind(
        _schools,
        ("birth", "rows"),
        "one birth (`{lunar, hour, gender, leap}`) under both schools, row by row (`what`: "
        "life, chang_sheng or stars)",
    ),
    # the library's own checks
    "iztro_crosscheck": Kind(
        selfcheck.iztro_table,
        ("files",),
        "the crosscheck over the iztro 2.6.0 reference files, run at check time",
    ),
    "known_differences": Kind(
        selfcheck.known_differences,
        (),
        "the charts each documented iztro error the crosscheck names explained",
    ),
    "claim_runs": Kind(
        selfcheck.claim_runs, ("claims",), "how named claims are checked and over what"
    ),
    "ten_god_rule": Kind(
        ten_gods.rule_table,
        (),
        "the ten gods by the other stem's phase relation to the Day Master and by polarity, "
        "read off the engine's table",
    ),
    "ten_gods": Kind(
        ten_gods.grid_table,
        ("mark",),
        "the ten god of each stem (columns) to each Day Master (rows); "
        "`mark` (a god's key) marks its cells",
    ),
    "setting_counts": Kind(
        _setting_counts,
        ("columns", "rows"),
        "counts from the whole-space record: each cell names a claim and shows its N (no `expect`)",
    ),
    # The fourteen major stars
    "class_day": Kind(
        _class_day,
        ("star", "days", "classes", "branch", "cells"),
        "a major star's branch over the day Zi Wei counts × the five-element class; marked: "
        "the cells on `branch`, or the `cells` ([class, day]) given",
    ),
    "major_layout": Kind(
        _major_layout,
        ("stars", "branches"),
        "where each of some major stars stands for each branch of Zi Wei, from real charts",
    ),
    # the twelve-god cycles (god_cycles)
    "class_starts": Kind(
        god_cycles.class_starts_table,
        ("cycle", "god"),
        "each five-element class and the branch holding one god of a cycle",
    ),
    "cycle_directions": Kind(
        god_cycles.cycle_directions_table,
        ("cycle",),
        "the way a cycle runs for each gender and year polarity, under each school",
    ),
    "cycle_companions": Kind(
        god_cycles.companions_table,
        ("cycle", "school", "algorithm"),
        "each god of a cycle and the stars sharing its palace on every chart of the walk",
    ),
    "cycle_bazi_stars": Kind(
        god_cycles.bazi_stars_table,
        ("cycle",),
        "each god of a cycle and the BaZi stars, read by the year branch, on its branch",
    ),
    # the chart's frame (frame)
    "mutagen_table": Kind(
        frame.mutagen_table, (), "each year stem and the stars it transforms into 禄 权 科 忌"
    ),
    "mutagen_stars": Kind(
        frame.mutagen_stars_table,
        (),
        "each star some stem transforms, with the stems giving it each of 禄 权 科 忌",
    ),
    "class_grid": Kind(
        frame.class_grid_table,
        (),
        "the five-element class by pair of year stems and pair of Life palace branches",
    ),
    "masters": Kind(
        frame.masters_table,
        ("algorithm",),
        "each branch with the Life master of a Life palace there and the Body master of a "
        "year of that branch",
    ),
    "school_year_stars": Kind(
        _school_year_stars,
        ("school", "stars"),
        "each year branch and where some stars stand under a school (lunar new year's day, "
        "Rat hour)",
    ),
    "cycle_gods": Kind(
        god_cycles.cycle_gods_table,
        ("cycle", "births"),
        "a cycle's twelve gods and their branches, one column per birth (`{label, lunar, "
        "hour, gender, leap, school, algorithm}`)",
    ),
    # the limits: decades and small limit
    "limits": Kind(
        _limits,
        ("birth",),
        "one birth's palaces in decade order: the decade's ages and the small limit's first ages",
    ),
    "small_limit_start": Kind(
        _small_limit_start,
        (),
        "each year branch's small limit at age 1, and at age 2 for men and for women",
    ),
    "conformance_named": Kind(
        _conformance_named,
        ("rules",),
        "the conformance run's rows of the named `rules` (keys) under both schools",
    ),
    # the year layer and its flowing stars
    "flowing_year": Kind(
        _flowing_year,
        ("year",),
        "each flowing star of the year layer: its rule, what it reads, its branch in a year",
    ),
    # brightness by school
    "brightness_grid": Kind(
        _brightness_grid,
        ("stars", "school", "compare"),
        "the brightness grade of some stars on each branch under a school; marked: the cells "
        "the `compare` school grades otherwise",
    ),
    # The BaZi frame: growth stages
    "stage_grid": Kind(
        stages.grid_table,
        ("earth", "yin", "mark"),
        "each stem's growth stage (rows) on each branch (columns) under a convention (`earth`, "
        "`yin`); `mark` (a stage's key) marks its cells",
    ),
    "stage_births": Kind(
        stages.births_table,
        ("stage",),
        "each stem's branch of a stage (default Birth) under the four conventions, marked where "
        "it differs from the default",
    ),
    # The BaZi frame: nayin
    "nayin_thirty": Kind(
        nayin.table_of_thirty,
        ("mark",),
        "the thirty nayin in order: the two pillars, the name and the phase; `mark` (a phase) "
        "marks the rows of that phase",
    ),
    "nayin_groups": Kind(
        nayin.grid_table,
        (),
        "the nayin phase by pair of stems and group of four branches "
        "(子丑午未, 寅卯申酉, 辰巳戌亥)",
    ),
    # The BaZi frame: the Life palace and the conception pillars
    "ming_gong": Kind(
        bazi_frame.ming_gong_table,
        ("mark",),
        "the BaZi Life palace's branch for each month (rows, Tiger month first) and hour; `mark` "
        "(a branch) marks the cells on it",
    ),
    "tai_pillars": Kind(
        bazi_frame.tai_table,
        ("months", "days"),
        "the conception pillar (胎元) of some month pillars and the conception breath (胎息) of "
        "some day pillars",
    ),  # The BaZi frame: the start of luck
    "luck_directions": Kind(
        bazi_frame.directions_table,
        (),
        "which way the luck pillars run for each year stem (rows) and gender (columns)",
    ),
    "luck_start_methods": Kind(
        bazi_frame.start_methods_table,
        ("birth",),
        "one real birth (`birth`: date, time, gender): the solar term its luck counts to or "
        "from, and the start age and start date under each of the four start-age methods",
    ),
    # The patterns (格局)
    "pattern_group": Kind(
        patterns.pattern_group,
        ("group",),
        "every pattern of a group with its layer, its verse and line, and its count from the "
        "shipped frequency record (no `expect`)",
    ),
    "pattern_chart": Kind(
        patterns.pattern_chart,
        ("birth", "patterns"),
        "the palaces and stars that form each of some patterns on one birth, and what breaks it",
    ),
}
"""Every table kind by name."""


def table(kind: str, options: Options) -> Table:
    """The table of ``kind`` for a directive's ``options`` (an unknown kind or parameter is
    an :class:`InputError`)."""
    if kind not in TABLES:
        raise InputError("table", f"unknown table {kind!r} (known: {', '.join(TABLES)})")
    return TABLES[kind](options)
