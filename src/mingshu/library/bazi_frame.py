"""The chart's frame in time and its extra pillars as tables and answers: the Life palace
(命宫), the conception pillar (胎元), the conception breath (胎息), and the start of luck (起运).

Every cell comes from the BaZi engine (:func:`mingshu.bazi.ming_gong`,
:func:`mingshu.bazi.tai_yuan`, :func:`mingshu.bazi.tai_xi`); months are named by the month
pillar's branch (the Tiger month is the first), hours by their branch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from mingshu.cycles import Branch, Pillar
from mingshu.errors import InputError
from mingshu.library.engine import Options, Table, branch_name, branch_number, parse_stem

__all__ = [
    "directions_table",
    "ming_gong_branch",
    "ming_gong_table",
    "p_luck_runs",
    "p_ming_gong",
    "p_ming_gong_hours",
    "p_start_age",
    "p_tai_xi",
    "p_tai_yuan",
    "start_methods_table",
    "tai_table",
]


def ming_gong_branch(year_stem: int, month: int, hour: int) -> int:
    from mingshu import bazi
    from mingshu.cycles import Stem

    return int(bazi.ming_gong(Stem(year_stem), Branch(month), Branch(hour)).branch)


def _pillar(p: Pillar) -> str:
    return f"{p.stem.names.hans}{p.branch.names.hans}"


def _months() -> list[int]:
    """The month branches from the Tiger (the first month) to the Ox."""
    return [(2 + i) % 12 for i in range(12)]


def ming_gong_table(options: Options) -> Table:
    """The Life palace's branch for each month (rows, Tiger month first) and hour (columns);
    ``mark`` (a branch) marks the cells on it.  The year stem only names the palace's stem."""
    mark = branch_number(options["mark"], "mark") if "mark" in options else None
    rows, marked = [], set()
    for r, month in enumerate(_months()):
        cells = []
        for c, hour in enumerate(range(12), start=1):
            b = ming_gong_branch(0, month, hour)
            cells.append(str(Branch(b).names.hans))  # characters: twelve animals would not fit
            if b == mark:
                marked.add((r, c))
        rows.append((f"{branch_name(month)} month", *cells))
    return Table(
        ("Month", *(str(Branch(h).names.hans) for h in range(12))),
        tuple(rows),
        frozenset(marked),
        branch_name(mark) if mark is not None else "",
    )


def _pillars(values: object, field: str) -> list[Pillar]:
    if not isinstance(values, Sequence) or isinstance(values, str):
        raise InputError(field, "give a list of pillars (甲子 …)")
    return [Pillar.parse(str(v), field) for v in values]


def tai_table(options: Options) -> Table:
    """For each of ``months`` (month pillars) its conception pillar (胎元), and for each of
    ``days`` (day pillars) its conception breath (胎息)."""
    from mingshu import bazi

    rows = [
        ("Month pillar", _pillar(p), "胎元", _pillar(bazi.tai_yuan(p)))
        for p in _pillars(options.get("months", []), "months")
    ]
    rows += [
        ("Day pillar", _pillar(p), "胎息", _pillar(bazi.tai_xi(p)))
        for p in _pillars(options.get("days", []), "days")
    ]
    return Table(("Pillar", "Given", "Gives", "Pillar found"), tuple(rows))


def p_ming_gong(q: Options) -> str:
    """The Life palace (pillar and branch) for ``year_stem``, the ``month`` pillar's branch and
    the ``hour``."""
    from mingshu import bazi
    from mingshu.cycles import Stem

    stem = parse_stem(q["year_stem"])
    month, hour = branch_number(q["month"], "month"), branch_number(q["hour"], "hour")
    p = bazi.ming_gong(Stem(stem), Branch(month), Branch(hour))
    return f"{_pillar(p)} ({branch_name(int(p.branch))})"


def p_ming_gong_hours(q: Options) -> tuple[str, ...]:
    """Every hour whose Life palace is on ``branch`` in the month of ``month``'s branch."""
    month, target = branch_number(q["month"], "month"), branch_number(q["branch"], "branch")
    return tuple(branch_name(h) for h in range(12) if ming_gong_branch(0, month, h) == target)


def p_tai_yuan(q: Options) -> str:
    """The conception pillar (胎元) of the ``month`` pillar."""
    from mingshu import bazi

    return _pillar(bazi.tai_yuan(Pillar.parse(str(q["month"]), "month")))


def p_tai_xi(q: Options) -> str:
    """The conception breath (胎息) of the ``day`` pillar."""
    from mingshu import bazi

    return _pillar(bazi.tai_xi(Pillar.parse(str(q["day"]), "day")))


# ------------------------------------------------------------------ the start of luck

_GENDERS = ("male", "female")


def _forward(stem: int, gender: str) -> bool:
    from mingshu.bazi.luck import is_forward
    from mingshu.cycles import Stem
    from mingshu.gender import Gender

    return is_forward(Stem(stem), Gender(gender))


def directions_table(options: Options) -> Table:
    """Which way the luck pillars run for each year stem (rows) and gender (columns)."""
    from mingshu.cycles import Stem

    rows = tuple(
        (
            f"{s.names.english} ({s.names.hans})",
            *("forward" if _forward(int(s), g) else "backward" for g in _GENDERS),
        )
        for s in Stem
    )
    return Table(("Year stem", "Man", "Woman"), rows)


def p_luck_runs(q: Options) -> tuple[str, ...]:
    """Every (year polarity, gender) whose luck runs ``direction`` (forward or backward)."""
    direction = str(q["direction"])
    if direction not in ("forward", "backward"):
        raise InputError("direction", f"{direction!r} is not forward or backward")
    found = []
    for stem, polarity in ((0, "Yang"), (1, "Yin")):
        for gender, who in zip(_GENDERS, ("men", "women"), strict=True):
            if _forward(stem, gender) == (direction == "forward"):
                found.append(f"{polarity}-year {who}")
    return tuple(found)


def _moment(value: object, field: str) -> datetime:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        raise InputError(field, f"{value!r} is not a date and time (2000-01-06 16:00)") from None


def p_start_age(q: Options) -> str:
    """The start age for a birth at ``birth`` counting to (or from) a solar term at ``term``
    (both ``YYYY-MM-DD HH:MM``), by ``method`` (the engine's default when left out)."""
    from mingshu.bazi import BaziSettings
    from mingshu.bazi.luck import start_span

    method = BaziSettings().replace(start_age=str(q.get("method", "seconds"))).start_age
    a, b = _moment(q["birth"], "birth"), _moment(q["term"], "term")
    start, end = (a, b) if a <= b else (b, a)
    return str(start_span(method, start, end))


def start_methods_table(options: Options) -> Table:
    """One real birth (``birth``: date, time, gender): the solar term its luck counts to or
    from, then the start age and start date under each of the engine's four methods."""
    from mingshu import bazi

    b = options.get("birth")
    if not isinstance(b, Mapping) or not {"date", "time", "gender"} <= set(b):
        raise InputError("birth", "give date, time and gender")
    chart = bazi.chart(str(b["date"]), str(b["time"]), str(b["gender"]))
    lk = chart.luck
    rows = [
        (
            str(method.value),
            str(span),
            moment.strftime("%Y-%m-%d %H:%M"),
        )
        for method, span, moment in lk.start_by_method()
    ]
    head = f"forward to {lk.jie.names.hans}" if lk.forward else f"backward from {lk.jie.names.hans}"
    when = lk.jie_moment.strftime("%Y-%m-%d %H:%M")
    return Table((f"Method ({head} {when})", "Start age", "Start (Beijing time)"), tuple(rows))
