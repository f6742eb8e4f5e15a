"""The year runner every sweep shares: a dataset folder of one Parquet file per Gregorian year.

A sweep (the Zi Wei one, :mod:`mingshu.space.ziwei_sweep`; the BaZi one,
:mod:`mingshu.space.bazi_sweep`) says what a year's rows are; this module does the rest, the
same for both: ``OUT/_mingshu.json`` written (or widened) first and refused when it holds
another schema or settings value, ``OUT/year=YYYY/part.parquet`` written through
:func:`mingshu.files.replacing_path` (a temporary name renamed into place, so a killed sweep
never leaves half a year), resume (a year whose file reads whole is skipped; one that does not
is written again), a process pool handing out one year per worker, Ctrl-C, and the Rich
progress bar.  It knows no chart and no column.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Final

from mingshu import calendar
from mingshu.arguments import check_int
from mingshu.errors import InputError
from mingshu.named import clip

__all__ = [
    "BACKENDS",
    "BAZI_SCHEMA",
    "DATASET_SCHEMAS",
    "FIRST_DAY",
    "LAST_DAY",
    "MAX_WORKERS",
    "METADATA",
    "PART",
    "ZIWEI_SCHEMA",
    "SweepReport",
    "YearTask",
    "check_workers",
    "check_years",
    "is_finished",
    "prepare",
    "read_metadata",
    "resume",
    "run_years",
    "write_partition",
]

ZIWEI_SCHEMA: Final = "mingshu.space.ziwei/2"
"""A Zi Wei dataset (:mod:`mingshu.space.ziwei_sweep`); /2 added the reader-facing columns
``clock_branch``, ``counted_month`` and ``counted_day`` beside the calendar's ``lunar_*``."""
BAZI_SCHEMA: Final = "mingshu.space.bazi/1"
"""A BaZi dataset (:mod:`mingshu.space.bazi_sweep`)."""
OLD_SCHEMAS: Final = ("mingshu.space.ziwei/1",)
"""Schemas of datasets an older mingshu wrote: still read and queried, never resumed."""
DATASET_SCHEMAS: Final = (ZIWEI_SCHEMA, BAZI_SCHEMA, *OLD_SCHEMAS)
"""Every schema :func:`read_metadata` reads."""
BACKENDS: Final = ("numpy", "engine")
"""How a sweep computes rows: ``numpy`` (fast, the default) or ``engine`` (one engine call
per row, the reference); a test proves their tables equal."""
METADATA: Final = "_mingshu.json"
PART: Final = "part.parquet"
_OLD_TEMPORARY: Final = ".part.parquet.tmp"
"""The one temporary name older versions wrote a partition under; removed when seen."""
FIRST_DAY: Final = calendar.FIRST_DATE
LAST_DAY: Final = calendar.LAST_DATE
MAX_WORKERS: Final = 1024
"""The most processes a sweep starts (one writes a year; the whole range is 201 years)."""

YearTask = Callable[[int], tuple[int, int, int]]
"""Writes one year's partition: ``year`` → ``(year, rows, bytes)``."""


@dataclass(frozen=True, slots=True)
class SweepReport:
    """What a sweep did: years written and skipped (already there), rows written, wall
    seconds, the bytes of the partitions it wrote, and the years whose partition was there
    but not whole (unreadable footer, wrong row count), written again."""

    out: Path
    years_written: tuple[int, ...]
    years_skipped: tuple[int, ...]
    rows: int
    seconds: float
    bytes: int
    years_redone: tuple[int, ...] = ()

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0


# -------------------------------------------------------------------------- partitions


def write_partition(out: str, year: int, table: Any) -> tuple[int, int, int]:
    """Write one year's table to ``OUT/year=YYYY/part.parquet`` through
    :func:`mingshu.files.replacing_path` (a temporary name, renamed when complete):
    ``(year, rows, bytes)``."""
    import pyarrow.parquet as pq

    from mingshu.files import make_folder, replacing_path

    # OUT exists (the sweep made it); were it gone, it is not silently made again.
    folder = make_folder(Path(out) / f"year={year}", "out")
    target = folder / PART
    (folder / _OLD_TEMPORARY).unlink(missing_ok=True)  # left by an older mingshu
    with replacing_path(target, "out") as temporary:
        pq.write_table(table, temporary, compression="zstd")
    return year, table.num_rows, target.stat().st_size


def is_finished(part: Path, rows: int) -> bool:
    """Whether a year's partition is whole: a file whose Parquet footer reads and counts
    ``rows`` rows.  A truncated or foreign file is not finished (its year is written again)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not part.is_file():
        return False
    try:
        return bool(pq.read_metadata(part).num_rows == rows)
    except (OSError, ValueError, pa.ArrowException):
        return False


def resume(
    out: Path, years: Iterable[int], rows: Callable[[int], int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The years of ``out`` to skip (finished, :func:`is_finished`) and those whose partition
    is there but not whole (to write again); ``rows(year)`` is how many rows a year has."""
    skipped: list[int] = []
    redone: list[int] = []
    for y in years:
        part = out / f"year={y}" / PART
        if is_finished(part, rows(y)):
            skipped.append(y)
        elif part.exists():
            redone.append(y)
    return tuple(skipped), tuple(redone)


# ---------------------------------------------------------------------------- metadata


def _write_json(path: Path, data: dict[str, Any]) -> None:
    from mingshu.files import replacing

    with replacing(path, "out") as out:
        out.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def read_metadata(path: Path) -> dict[str, Any] | None:
    """``_mingshu.json`` of a dataset directory, ``None`` if there is none; an
    :class:`InputError` on ``dataset`` if it is not a dataset of :data:`DATASET_SCHEMAS`."""
    schemas = DATASET_SCHEMAS
    file = path / METADATA
    if not file.is_file():
        return None
    try:
        data = json.loads(file.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise InputError("dataset", f"{file} is not readable JSON: {e}") from None
    if not isinstance(data, dict) or data.get("schema") not in schemas:
        raise InputError("dataset", f"{file} does not describe a {' or '.join(schemas)} dataset")
    for key in ("first_year", "last_year"):  # a sweep widens them: integers or absent
        year = data.get(key, 0)
        if isinstance(year, bool) or not isinstance(year, int):
            raise InputError("dataset", f"{file}: {key} is {clip(year)}, not a year")
    return data


def prepare(out: Path, fresh: dict[str, Any]) -> None:
    """Check that ``out`` is empty or holds a dataset of this schema and settings value, and
    write (or widen) its metadata ``fresh``, before any partition."""
    from mingshu.files import check_folder

    check_folder(out, "out")
    first_year, last_year = fresh["first_year"], fresh["last_year"]
    old = read_metadata(out) if out.is_dir() else None
    if old is None:
        if out.is_dir() and any(out.iterdir()):
            raise InputError("out", f"{out} is not empty and holds no mingshu dataset")
    else:
        if old.get("schema") != fresh["schema"]:
            raise InputError(
                "out",
                f"{out} holds a {old.get('schema')} dataset, not {fresh['schema']}: "
                "choose another --out",
            )
        if old.get("settings") != fresh["settings"]:
            raise InputError(
                "out",
                f"{out} holds a dataset with other settings ({_differences(old, fresh)}); "
                "one directory holds one settings value: choose another --out",
            )
        fresh["first_year"] = min(first_year, int(old.get("first_year", first_year)))
        fresh["last_year"] = max(last_year, int(old.get("last_year", last_year)))
        if fresh == old:
            return
    from mingshu.files import make_folder

    make_folder(out, "out")  # the last component only: a missing parent is refused
    _write_json(out / METADATA, fresh)


def _differences(old: dict[str, Any], new: dict[str, Any]) -> str:
    a, b = old.get("settings") or {}, new["settings"]
    keys = sorted(k for k in {*a, *b} if a.get(k) != b.get(k))
    return ", ".join(f"{k}: {a.get(k)!r} there, {b.get(k)!r} here" for k in keys)


# ------------------------------------------------------------------------------- years


def check_years(first_year: object, last_year: object) -> tuple[int, int]:
    """The year range of a sweep, inside the calendar's range; an :class:`InputError` on
    ``first_year`` or ``last_year`` otherwise."""
    for field, value in (("first_year", first_year), ("last_year", last_year)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(field, f"give a year as a whole number, not {clip(value)}")
        if not FIRST_DAY.year <= value <= LAST_DAY.year:
            raise InputError(
                field, f"{value} is outside the calendar's range {FIRST_DAY} .. {LAST_DAY}"
            )
    assert isinstance(first_year, int) and isinstance(last_year, int)
    if first_year > last_year:
        raise InputError("last_year", f"{last_year} is before the first year {first_year}")
    return first_year, last_year


def check_workers(workers: object) -> int:
    """``workers`` processes (``None``: every core), 1 .. :data:`MAX_WORKERS`."""
    if workers is None:
        workers = os.cpu_count() or 1
    return check_int(workers, "workers", 1, MAX_WORKERS)


def run_years(
    out: Path,
    years: range,
    rows: Callable[[int], int],
    task: YearTask,
    *,
    workers: int,
    progress: bool,
    remote: Callable[[list[int], Callable[[tuple[int, int, int]], None]], None] | None = None,
) -> SweepReport:
    """Write every year of ``years`` not already whole in ``out`` (``rows(year)`` rows each):
    ``task(year)`` in ``workers`` processes, or ``remote(todo, done)`` (a cluster) when given;
    a progress bar on stderr when ``progress``.  The dataset's metadata is already written
    (:func:`prepare`)."""
    skipped, redone = resume(out, years, rows)
    todo = [y for y in years if y not in skipped]
    started = time.perf_counter()
    written: list[int] = []
    total_rows = size = 0
    with ExitStack() as stack:
        bar = stack.enter_context(_Progress(progress, sum(rows(y) for y in todo)))

        def done(result: tuple[int, int, int]) -> None:
            nonlocal total_rows, size
            written.append(result[0])
            total_rows += result[1]
            size += result[2]
            bar.advance(result[1])

        if remote is None:
            _run(task, todo, min(workers, max(len(todo), 1)), done)
        else:
            remote(todo, done)
    return SweepReport(
        out,
        tuple(sorted(written)),
        skipped,
        total_rows,
        time.perf_counter() - started,
        size,
        redone,
    )


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops handing out years; a year being
    written finishes (and is renamed into place) or was never visible."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(
    task: YearTask,
    years: list[int],
    workers: int,
    done: Callable[[tuple[int, int, int]], None],
) -> None:
    """Run ``task(year)`` (which writes the year's partition) for every year, in ``workers``
    processes, reporting each result to ``done`` as it comes back."""
    if workers == 1:
        for year in years:
            done(task(year))
        return
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts)
    queue = iter(years)
    try:
        # At most one year per worker in flight: the pool would otherwise queue more, which
        # Ctrl-C could not cancel.
        pending = {pool.submit(task, y) for y in islice(queue, workers)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                done(future.result())
                for year in islice(queue, 1):
                    pending.add(pool.submit(task, year))
    except BaseException:
        # Ctrl-C or a failed year: no new years; those being written finish and are renamed.
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


class _Progress:
    """A Rich progress bar on stderr (rows, rows/s, ETA), or nothing."""

    def __init__(self, show: bool, total: int) -> None:
        self.show, self.total = show, total
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if not self.show or not self.total:
            return self
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeRemainingColumn,
        )

        console = Console(stderr=True)
        self._bar = Progress(
            TextColumn("charts"),
            BarColumn(),
            TaskProgressColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[speed]} rows/s"),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        )
        self._bar.__enter__()
        self._task = self._bar.add_task("sweep", total=self.total, speed="-")
        self._started = time.perf_counter()
        self._done = 0
        return self

    def advance(self, rows: int) -> None:
        if self._bar is None:
            return
        self._done += rows
        elapsed = max(time.perf_counter() - self._started, 1e-9)
        self._bar.update(self._task, advance=rows, speed=f"{self._done / elapsed:,.0f}")

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
