"""How the library checks itself, as tables and answers: the iztro crosscheck run now,
and how each named claim is checked and over what.

The iztro crosscheck is run here over the reference files of ``tests/fixtures/iztro-2.6.0``
(charts iztro 2.6.0 made itself; shipped in the wheel as ``mingshu/crosscheck/iztro-2.6.0``,
found beside the source tree, or at ``$MINGSHU_IZTRO_FIXTURES``), and the claims' counts
are read from the record the last whole-space check wrote.  Nothing is typed in.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Final

from mingshu.errors import InputError
from mingshu.library.engine import Options, Table

IZTRO_FILES: Final = ("random", "configs", "edges", "astro-types")
"""The four reference files of natal and horoscope charts, in the order the README lists."""


def fixtures_folder() -> Path:
    """``$MINGSHU_IZTRO_FIXTURES``, the copy an installed wheel carries
    (``mingshu/crosscheck/iztro-2.6.0``, pyproject.toml's force-include),
    ``tests/fixtures/iztro-2.6.0`` of the source tree, or the shared copy beside the
    repository (``shared/fixtures/iztro-2.6.0``)."""
    env = os.environ.get("MINGSHU_IZTRO_FIXTURES")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    shipped = here.parent.parent / "crosscheck" / "iztro-2.6.0"
    if shipped.is_dir():
        return shipped
    for parent in here.parents:
        for candidate in (
            parent / "tests" / "fixtures" / "iztro-2.6.0",
            parent.parent / "shared" / "fixtures" / "iztro-2.6.0",  # the shared copy beside it
        ):
            if candidate.is_dir():
                return candidate
    raise InputError("fixtures", "the iztro reference files are not here (MINGSHU_IZTRO_FIXTURES)")


def _name(name: object) -> str:
    if str(name) not in IZTRO_FILES:
        raise InputError("file", f"{name!r} is not one of {', '.join(IZTRO_FILES)}")
    return str(name)


MakeRecord = Callable[[dict[str, Any]], dict[str, Any]]


def _swapped(field: str) -> MakeRecord:
    """Our record with ``field`` of the first two palaces exchanged: a planted error."""
    from mingshu.crosscheck.iztro import record_for_input

    def make(inp: dict[str, Any]) -> dict[str, Any]:
        record = record_for_input(inp)
        palaces = record["chart"]["palaces"]
        palaces[0][field], palaces[1][field] = palaces[1][field], palaces[0][field]
        return record

    return make


@cache
def crosscheck(name: str, swap: str = "") -> Any:
    """The crosscheck summary of one reference file (``swap``: with a planted error)."""
    from mingshu.crosscheck.iztro import classify, record_for_input
    from mingshu.crosscheck.runner import run

    make = _swapped(swap) if swap else record_for_input
    return run(
        fixtures_folder() / f"{_name(name)}.jsonl.gz", make, classify=classify, progress=False
    )


def iztro_table(options: Options) -> Table:
    """Per reference file: charts, passed, known differences (a documented iztro error named
    by the crosscheck), failed.  Marked: files with known differences."""
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for name in options.get("files", list(IZTRO_FILES)):
        s = crosscheck(_name(name))
        if s.known_differences:
            marked.add((len(rows), 3))
        rows.append(
            (str(name), str(s.total), str(s.passed), str(s.known_differences), str(s.failed))
        )
    return Table(
        ("File", "Charts", "Passed", "Known differences", "Failed"),
        tuple(rows),
        frozenset(marked),
        "iztro is wrong there, and the crosscheck names why",
    )


def known_differences(options: Options) -> Table:
    """Every documented iztro error the crosscheck can name (mingshu.crosscheck.iztro's
    ``KNOWN_*`` reasons, the rows of docs/iztro-differences.md it tests), with how many
    charts of the reference files it explained in this run.  Marked: reasons that explained
    a chart."""
    from mingshu.crosscheck import iztro

    reasons = [getattr(iztro, n) for n in sorted(dir(iztro)) if n.startswith("KNOWN_")]
    rows: list[tuple[str, ...]] = []
    marked: set[tuple[int, int]] = set()
    for reason in reasons:
        n = sum(crosscheck(name).known_reasons.get(reason, 0) for name in IZTRO_FILES)
        if n:
            marked.add((len(rows), 1))
        rows.append((str(reason).split(":")[0], str(n)))
    return Table(
        ("Documented iztro error", "Reference charts it explains"),
        tuple(rows),
        frozenset(marked),
        "the crosscheck named this reason for a chart",
    )


def claim_runs(options: Options) -> Table:
    """Named claims: how each is checked and the whole space it runs over (the counts are
    the claims' own badges, from the record of the last whole-space run)."""
    from mingshu.library import claims as C
    from mingshu.library.model import FULL_YEARS

    every = C.load_claims()
    rows: list[tuple[str, ...]] = []
    for key in options.get("claims", []):
        key = str(key)
        c = every.get(key)
        if c is None:
            raise InputError("claims", f"no claim {key!r}")
        if c.badge == "data":
            rows.append((key, "against the data file", f"{c.fields['cases']} ({c.fields['unit']})"))
        elif not c.runs_sql:
            rows.append(
                (key, "through the BaZi engine", f"{c.fields['cases']} ({c.fields['unit']})")
            )
        else:
            leap = dict(c.settings).get("leap_month", "split")
            first, last = FULL_YEARS
            space = f"every Zi Wei chart {first}–{last}, leap month {leap} (charts)"
            rows.append((key, "SQL over the swept charts", space))
    return Table(("Claim", "Checked", "Over"), tuple(rows))


def p_crosscheck(q: Options) -> str:
    """One file's crosscheck, as ``144 passed, 6 known differences, 0 failed``; with
    ``swap`` (a palace field), the planted error's count of failed charts."""
    swap = str(q.get("swap", ""))
    s = crosscheck(_name(q["file"]), swap)
    if swap:
        fields = ", ".join(sorted(s.field_cases))
        return f"{s.failed} of {s.total} fail, on {fields}"
    return f"{s.passed} passed, {s.known_differences} known differences, {s.failed} failed"


def p_known_reason(q: Options) -> str:
    """The documented iztro error behind a file's known differences: the reason's first
    clause (``ageDivide 'birthday'``), or ``none``."""
    s = crosscheck(_name(q["file"]))
    reasons = sorted({str(r).split(":")[0] for r in s.known_reasons})
    return " and ".join(reasons) or "none"
