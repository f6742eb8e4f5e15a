"""The chart's extra pillars as tables and answers: the Life palace (命宫), the conception
pillar (胎元) and the conception breath (胎息).

Every cell comes from the BaZi engine (:func:`mingshu.bazi.ming_gong`,
:func:`mingshu.bazi.tai_yuan`, :func:`mingshu.bazi.tai_xi`); months are named by the month
pillar's branch (the Tiger month is the first), hours by their branch.
"""

from __future__ import annotations

from collections.abc import Sequence

from mingshu.cycles import Branch, Pillar
from mingshu.errors import InputError
from mingshu.library.engine import Options, Table, branch_name, branch_number, parse_stem

__all__ = [
    "ming_gong_branch",
    "ming_gong_table",
    "p_ming_gong",
    "p_ming_gong_hours",
    "p_tai_xi",
    "p_tai_yuan",
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
            cells.append(branch_name(b))
            if b == mark:
                marked.add((r, c))
        rows.append((f"{branch_name(month)} month", *cells))
    return Table(
        ("Month", *(branch_name(h) for h in range(12))),
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
