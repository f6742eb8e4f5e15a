"""Every natal Zi Wei chart of a range of years, as a Parquet dataset (one row per birth).

The rows are what :func:`mingshu.ziwei.from_birth` computes.  Two backends write them: ``numpy``
(the default, :mod:`mingshu.space.ziwei_numpy`: the engine's compiled placement rules run over
whole columns) and ``engine`` (the reference: one ``from_birth`` chart per row, read through
the engine's public API).  Neither holds a placement rule of its own, and a test proves their
tables equal row for row.  One file per Gregorian year,
``OUT/year=YYYY/part.parquet`` (hive-style, so DuckDB and pyarrow read ``year`` as a column),
written through :func:`mingshu.files.replacing_path` (a temporary name renamed into place), so
a killed sweep never leaves a half-written ``part.parquet``; a year whose file exists is
skipped (resume).
``OUT/_mingshu.json`` holds the schema version, the settings and the key → name mappings;
one directory holds one settings value.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import cache, partial
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mingshu.arguments import check_int, check_path
from mingshu.choices import check_bool
from mingshu.errors import InputError
from mingshu.named import clip

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = [
    "BACKENDS",
    "FIRST_DAY",
    "LAST_DAY",
    "METADATA",
    "PART",
    "SCHEMA",
    "SweepReport",
    "columns",
    "engine_table",
    "metadata",
    "sweep_ziwei",
    "write_partition",
    "year_rows",
]


def _branch_keys() -> list[str]:
    from mingshu.cycles import Branch

    return [b.key for b in Branch]


SCHEMA: Final = "mingshu.space.ziwei/1"
BAZI_SCHEMA: Final = "mingshu.space.bazi/1"
"""The schema of a BaZi dataset (:mod:`mingshu.space.bazi_sweep`); both share the layout."""
METADATA: Final = "_mingshu.json"
PART: Final = "part.parquet"
_OLD_TEMPORARY: Final = ".part.parquet.tmp"
"""The one temporary name older versions wrote a partition under; removed when seen."""
FIRST_DAY: Final = dt.date(1900, 1, 31)
LAST_DAY: Final = dt.date(2100, 12, 31)
TIME_INDICES: Final = range(13)
GENDERS: Final = ("male", "female")  # column value 0 and 1
BACKENDS: Final = ("numpy", "engine")
"""How rows are computed: ``numpy`` (fast, the default; heaven charts, else the engine's) or
``engine`` (one ``from_birth`` chart per row, the reference)."""
MAX_WORKERS: Final = 1024
"""The most processes a sweep starts (one charts a year; the whole range is 201 years)."""


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


# ----------------------------------------------------------------------------- columns


@dataclass(frozen=True, slots=True)
class _Columns:
    stars: tuple[str, ...]
    """Every star the settings' algorithm (or the 全书 school) places, in catalogue order."""
    bright: frozenset[str]
    """Stars with a brightness column (major and minor stars: adjective stars have none)."""
    mutable: frozenset[str]
    """Stars with a 四化 column: those some year stem transforms under the settings."""


@cache
def columns(settings: ZiweiSettings) -> _Columns:
    """The star columns of a dataset under ``settings``.  Which stars carry a 四化 is read
    from the engine itself: one chart for each of the ten year stems."""
    from mingshu import ziwei
    from mingshu.ziwei.quanshu import catalogue

    algorithm = str(settings.algorithm.value)
    if settings.school is ziwei.School.QUANSHU:  # the 全书 school's own catalogue
        chosen = catalogue()
    else:
        chosen = tuple(s for s in ziwei.STARS if algorithm in s.algorithms)
    stars = tuple(s.key for s in chosen)
    bright = frozenset(s.key for s in chosen if s.group != ziwei.StarGroup.ADJECTIVE)
    mutable: set[str] = set()
    for year in range(2000, 2010):  # mid-year: past both year boundaries, one per stem
        chart = ziwei.from_birth(ziwei.Birth.solar(dt.date(year, 7, 1), 6, "male"), settings)
        mutable.update(p.star.key for pal in chart.palaces for p in pal.stars if p.mutagen)
    return _Columns(stars, bright, frozenset(mutable))


def _schema(settings: ZiweiSettings) -> Any:
    import pyarrow as pa

    int8 = pa.int8()
    fields = [
        pa.field("solar_date", pa.date32(), nullable=False),
        pa.field("time_index", int8, nullable=False),
        pa.field("gender", int8, nullable=False),
        pa.field("lunar_year", pa.int16(), nullable=False),
        pa.field("lunar_month", int8, nullable=False),
        pa.field("lunar_day", int8, nullable=False),
        pa.field("lunar_leap", pa.bool_(), nullable=False),
        *(pa.field(f"{p}_pillar", int8, nullable=False) for p in ("year", "month", "day", "hour")),
        pa.field("life_branch", int8, nullable=False),
        pa.field("body_branch", int8, nullable=False),
        pa.field("five_elements_class", int8, nullable=False),
        *(pa.field(f"palace_{b}", int8, nullable=False) for b in _branch_keys()),
    ]
    cols = columns(settings)
    for key in cols.stars:
        fields.append(pa.field(key, int8, nullable=False))
        if key in cols.bright:
            fields.append(pa.field(f"{key}__brightness", int8))
        if key in cols.mutable:
            fields.append(pa.field(f"{key}__mutagen", int8))
    return pa.schema(fields)


def _days(year: int) -> Iterator[dt.date]:
    day = max(dt.date(year, 1, 1), FIRST_DAY)
    last = min(dt.date(year, 12, 31), LAST_DAY)
    while day <= last:
        yield day
        day += dt.timedelta(days=1)


def year_rows(year: int) -> int:
    """How many rows a year has: its days in the calendar range × 13 time indices × 2."""
    first, last = max(dt.date(year, 1, 1), FIRST_DAY), min(dt.date(year, 12, 31), LAST_DAY)
    return ((last - first).days + 1) * len(TIME_INDICES) * len(GENDERS)


def _year_table(year: int, settings: ZiweiSettings, backend: str = "engine") -> Any:
    """The charts of one year as a pyarrow table: straight from the engine, or from the
    NumPy backend (which draws heaven charts only; the engine draws the others)."""
    if backend == "numpy":
        from mingshu.space import ziwei_numpy

        if ziwei_numpy.supports(settings):
            return ziwei_numpy.year_table(year, settings)
    births = ((d, i, g) for d in _days(year) for i in TIME_INDICES for g in range(len(GENDERS)))
    return engine_table(births, settings)


def engine_table(births: Iterable[tuple[dt.date, int, int]], settings: ZiweiSettings) -> Any:
    """The rows of ``births`` (solar day, time index 0..12, gender 0 male / 1 female) as a
    pyarrow table, one ``ziwei.from_birth`` chart each: the reference backend."""
    import pyarrow as pa

    from mingshu import ziwei

    schema = _schema(settings)
    data: dict[str, list[Any]] = {name: [] for name in schema.names}
    palace_cols = [data[f"palace_{b}"] for b in _branch_keys()]
    birth_cols = [data[n] for n in ("solar_date", "time_index", "gender")]
    lunar_cols = [data[n] for n in ("lunar_year", "lunar_month", "lunar_day", "lunar_leap")]
    pillar_cols = [data[f"{p}_pillar"] for p in ("year", "month", "day", "hour")]
    life_col, body_col, class_col = (
        data["life_branch"],
        data["body_branch"],
        data["five_elements_class"],
    )
    for day, index, g in births:
        chart = ziwei.from_birth(ziwei.Birth.solar(day, index, GENDERS[g]), settings)
        for col, value in zip(birth_cols, (day, index, g), strict=True):
            col.append(value)
        lunar = chart.lunar_date
        lunar_values = (lunar.year, lunar.month, lunar.day, lunar.is_leap)
        for col, value in zip(lunar_cols, lunar_values, strict=True):
            col.append(value)
        for col, pillar in zip(pillar_cols, chart.pillars, strict=True):
            col.append(pillar.index)
        life_col.append(int(chart.life_branch))
        body_col.append(int(chart.body_branch))
        class_col.append(int(chart.five_elements_class))
        for palace in chart.palaces:
            palace_cols[palace.branch].append(int(palace.name))
            for placed in palace.stars:
                key = placed.star.key
                data[key].append(int(placed.branch))
                bright = data.get(f"{key}__brightness")
                if bright is not None:
                    b = placed.brightness
                    bright.append(None if b is None else int(b))
                mutagen = data.get(f"{key}__mutagen")
                if mutagen is not None:
                    m = placed.mutagen
                    mutagen.append(None if m is None else int(m))
    rows = len(data["solar_date"])
    for name, values in data.items():
        if len(values) != rows:  # a star placed on some charts only: the schema is wrong
            raise AssertionError(f"column {name} has {len(values)} values for {rows} rows")
    return pa.Table.from_pydict(data, schema=schema)


def _write_year(
    out: str, year: int, settings: ZiweiSettings, backend: str = "numpy"
) -> tuple[int, int, int]:
    """Chart one year, add the patterns (格局) of every row over the columns
    (space/ziwei_patterns.py), and write its partition atomically: ``(year, rows, bytes)``."""
    from mingshu.space.ziwei_patterns import with_patterns

    table = with_patterns(_year_table(year, settings, backend), settings)
    return write_partition(out, year, table)


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


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops handing out years; a year being
    written finishes (and is renamed into place) or was never visible."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


# ---------------------------------------------------------------------------- metadata


def metadata(settings: ZiweiSettings, first_year: int, last_year: int) -> dict[str, Any]:
    """The contents of ``_mingshu.json``: schema, settings, year range and every mapping
    from the integers in the columns to keys and names."""
    from mingshu import __version__, ziwei
    from mingshu.cycles import SIXTY, Branch
    from mingshu.present import settings_to_dict

    def named(member: Any) -> dict[str, Any]:
        n = member.names
        return {"key": member.key, "hans": n.hans, "hant": n.hant, "english": n.english}

    cols = columns(settings)
    from mingshu.ziwei.quanshu import catalogue

    # The names the sweep's school gives: the 全书 school's catalogue renames some stars (its
    # 解神 is the year star iztro calls 年解) and adds its own.
    school = catalogue() if settings.school is ziwei.School.QUANSHU else ()
    stars = {s.key: s for s in (*ziwei.STARS, *school)}
    return {
        "schema": SCHEMA,
        "mingshu_version": __version__,
        "settings": settings_to_dict(settings),
        "first_year": first_year,
        "last_year": last_year,
        "first_day": FIRST_DAY.isoformat(),
        "last_day": LAST_DAY.isoformat(),
        "partitions": f"year=YYYY/{PART}",
        "gender": {"0": "male", "1": "female"},
        "time_index": {
            str(h.index): {"hans": h.names.hans, "hant": h.names.hant, "english": h.names.english}
            for h in ziwei.HOURS
        },
        "branches": {str(int(b)): named(b) for b in Branch},
        "palace_names": {str(int(p)): named(p) for p in ziwei.PalaceName},
        "five_elements_class": {str(int(c)): named(c) for c in ziwei.FiveElementsClass},
        "brightness": {str(int(b)): named(b) for b in ziwei.Brightness},
        "mutagens": {str(int(m)): named(m) for m in ziwei.Mutagen},
        "pillars": {str(p.index): str(p) for p in SIXTY},
        "stars": {
            key: {
                "hans": stars[key].names.hans,
                "hant": stars[key].names.hant,
                "english": stars[key].names.english,
                "group": str(stars[key].group.value),
                "brightness": key in cols.bright,
                "mutagen": key in cols.mutable,
            }
            for key in cols.stars
        },
        "patterns": _pattern_names(),
    }


def _pattern_names() -> dict[str, dict[str, str]]:
    """The ``patterns`` column's indices → pattern key and names (ziwei/data/patterns.toml)."""
    from mingshu.space.ziwei_patterns import pattern_keys
    from mingshu.ziwei.patterns import PATTERNS

    names = (PATTERNS[key].names for key in pattern_keys())
    return {
        str(i): {"key": key, "hans": n.hans, "hant": n.hant, "english": n.english}
        for i, (key, n) in enumerate(zip(pattern_keys(), names, strict=True))
    }


def _write_json(path: Path, data: dict[str, Any]) -> None:
    from mingshu.files import replacing

    with replacing(path, "out") as out:
        out.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def read_metadata(path: Path) -> dict[str, Any] | None:
    """``_mingshu.json`` of a dataset directory, ``None`` if there is none; an
    :class:`InputError` on ``dataset`` if it is not one."""
    file = path / METADATA
    if not file.is_file():
        return None
    try:
        data = json.loads(file.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise InputError("dataset", f"{file} is not readable JSON: {e}") from None
    if not isinstance(data, dict) or data.get("schema") not in (SCHEMA, BAZI_SCHEMA):
        raise InputError("dataset", f"{file} does not describe a {SCHEMA} or {BAZI_SCHEMA} dataset")
    for key in ("first_year", "last_year"):  # a sweep widens them: integers or absent
        year = data.get(key, 0)
        if isinstance(year, bool) or not isinstance(year, int):
            raise InputError("dataset", f"{file}: {key} is {clip(year)}, not a year")
    return data


def _prepare(out: Path, fresh: dict[str, Any]) -> None:
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


# ------------------------------------------------------------------------------- sweep


def _check_years(first_year: object, last_year: object) -> tuple[int, int]:
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


def sweep_ziwei(
    out: Path | str,
    first_year: int,
    last_year: int,
    settings: ZiweiSettings,
    *,
    workers: int | None = None,
    progress: bool = True,
    scheduler: str | None = None,
    backend: str = "numpy",
) -> SweepReport:
    """Chart every solar day of ``first_year`` .. ``last_year`` (clipped to 1900-01-31 ..
    2100-12-31) × 13 time indices × 2 genders and write them to ``out`` (see the module).

    ``workers`` processes chart years in parallel (default: every core; 1 charts in this
    process).  ``progress`` draws a Rich progress bar on stderr.  A year whose partition
    exists is skipped.  Ctrl-C (``KeyboardInterrupt``) stops handing out years and is
    re-raised once the years being written are renamed into place.

    ``scheduler`` (``tcp://HOST:PORT``) runs each year as a task on that Dask distributed
    cluster instead, writing the same files (``out`` must be on storage every worker shares;
    ``workers`` is then the cluster's business); ``"local"`` starts a LocalCluster of
    ``workers`` processes on this machine (see :mod:`mingshu.space.cluster`).

    ``backend`` is ``"numpy"`` (the default) or ``"engine"`` (:data:`BACKENDS`): the rows are
    the same, the engine is about 20 times slower."""
    from mingshu import ziwei

    out = check_path(out, "out")
    check_bool(progress, "progress")
    first_year, last_year = _check_years(first_year, last_year)
    if backend not in BACKENDS:
        raise InputError("backend", f"{clip(backend)} is not a backend: use one of {BACKENDS}")
    if not isinstance(settings, ziwei.ZiweiSettings):
        raise InputError("settings", f"give ZiweiSettings, not {type(settings).__name__}")
    if scheduler is not None:
        from mingshu.space import cluster

        scheduler = cluster.check_address(scheduler)
        if workers is not None and scheduler != cluster.LOCAL:
            raise InputError(
                "workers",
                f"the workers of {scheduler} chart the years: give workers without a "
                f"scheduler or with {cluster.LOCAL!r}",
            )
    if workers is None:
        workers = os.cpu_count() or 1
    workers = check_int(workers, "workers", 1, MAX_WORKERS)
    out = Path(out)
    from mingshu.files import check_folder

    check_folder(out, "out")  # before a cluster starts: a directory, or one to make
    started = time.perf_counter()  # the reported time includes reaching a cluster
    with ExitStack() as stack:
        client = None
        if scheduler is not None:
            client = stack.enter_context(cluster.connect(scheduler, workers))
        _prepare(out, metadata(settings, first_year, last_year))
        report = _sweep(out, first_year, last_year, settings, workers, progress, client, backend)
        return replace(report, seconds=time.perf_counter() - started)


def _sweep(
    out: Path,
    first_year: int,
    last_year: int,
    settings: ZiweiSettings,
    workers: int,
    progress: bool,
    client: Any,
    backend: str,
) -> SweepReport:
    years = range(first_year, last_year + 1)
    skipped, redone = resume(out, years, year_rows)
    todo = [y for y in years if y not in skipped]
    started = time.perf_counter()
    written: list[int] = []
    rows = size = 0
    with _Progress(progress, sum(year_rows(y) for y in todo)) as bar:

        def done(result: tuple[int, int, int]) -> None:
            nonlocal rows, size
            written.append(result[0])
            rows += result[1]
            size += result[2]
            bar.advance(result[1])

        if client is None:
            task = partial(_write_year, str(out), settings=settings, backend=backend)
            _run(task, todo, min(workers, max(len(todo), 1)), done)
        else:
            from mingshu.space import cluster

            # Absolute: a worker's working directory is not this one.
            cluster.run(client, str(out.resolve()), todo, settings, done, backend)
    return SweepReport(
        out, tuple(sorted(written)), skipped, rows, time.perf_counter() - started, size, redone
    )


def _run(
    task: Callable[[int], tuple[int, int, int]],
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
