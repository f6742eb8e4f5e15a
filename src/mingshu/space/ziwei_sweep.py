"""Every natal Zi Wei chart of a range of years, as a Parquet dataset (one row per birth).

The rows are what :func:`mingshu.ziwei.from_birth` computes.  Two backends write them: ``numpy``
(the default, :mod:`mingshu.space.ziwei_numpy`: the engine's compiled placement rules run over
whole columns) and ``engine`` (the reference: one ``from_birth`` chart per row, read through
the engine's public API).  Neither holds a placement rule of its own, and a test proves their
tables equal row for row.  One file per Gregorian year,
``OUT/year=YYYY/part.parquet`` (hive-style, so DuckDB and pyarrow read ``year`` as a column),
written, resumed and run in parallel by the generic year runner (:mod:`mingshu.space.runner`,
which the BaZi sweep shares).  ``OUT/_mingshu.json`` holds the schema version, the settings
and the key → name mappings; one directory holds one settings value.  This module holds the
Zi Wei schema: which columns a row has and how a chart fills them.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mingshu.arguments import check_path
from mingshu.choices import check_bool
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.space import runner
from mingshu.space.runner import (
    BACKENDS,
    BAZI_SCHEMA,
    FIRST_DAY,
    LAST_DAY,
    METADATA,
    OLD_SCHEMAS,
    PART,
    SweepReport,
    is_finished,
    read_metadata,
    resume,
    write_partition,
)

if TYPE_CHECKING:
    from mingshu.ziwei import ZiweiSettings

__all__ = [
    "BACKENDS",
    "BAZI_SCHEMA",
    "FIRST_DAY",
    "LAST_DAY",
    "METADATA",
    "OLD_SCHEMAS",
    "PART",
    "SCHEMA",
    "SweepReport",
    "columns",
    "engine_table",
    "is_finished",
    "metadata",
    "read_metadata",
    "resume",
    "sweep_ziwei",
    "write_partition",
    "year_rows",
]


def _branch_keys() -> list[str]:
    from mingshu.cycles import Branch

    return [b.key for b in Branch]


SCHEMA: Final = runner.ZIWEI_SCHEMA
"""This dataset's schema; :data:`BAZI_SCHEMA` and :data:`OLD_SCHEMAS` are the runner's, named
here too for the modules that read any dataset."""
TIME_INDICES: Final = range(13)
GENDERS: Final = ("male", "female")  # column value 0 and 1


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
        # What the reader has (the lunar date above, as printed; the double-hour on the clock)
        # beside what the engine counts where the settings move it (late Rat, leap month).
        pa.field("clock_branch", int8, nullable=False),
        pa.field("counted_month", int8, nullable=False),
        pa.field("counted_day", int8, nullable=False),
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
    from mingshu.ziwei.natal import _days as counted_by_engine

    schema = _schema(settings)
    data: dict[str, list[Any]] = {name: [] for name in schema.names}
    palace_cols = [data[f"palace_{b}"] for b in _branch_keys()]
    birth_cols = [data[n] for n in ("solar_date", "time_index", "gender")]
    lunar_cols = [data[n] for n in ("lunar_year", "lunar_month", "lunar_day", "lunar_leap")]
    counted_cols = [data[n] for n in ("clock_branch", "counted_month", "counted_day")]
    pillar_cols = [data[f"{p}_pillar"] for p in ("year", "month", "day", "hour")]
    life_col, body_col, class_col = (
        data["life_branch"],
        data["body_branch"],
        data["five_elements_class"],
    )
    for day, index, g in births:
        birth = ziwei.Birth.solar(day, index, GENDERS[g])
        chart = ziwei.from_birth(birth, settings)
        for col, value in zip(birth_cols, (day, index, g), strict=True):
            col.append(value)
        lunar = chart.lunar_date
        lunar_values = (lunar.year, lunar.month, lunar.day, lunar.is_leap)
        for col, value in zip(lunar_cols, lunar_values, strict=True):
            col.append(value)
        steps = counted_by_engine(birth, settings)  # the month and day the engine counts
        counted_values = (index % 12, steps.month + 1, steps.day + 1)
        for col, value in zip(counted_cols, counted_values, strict=True):
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


# ------------------------------------------------------------------------------- sweep


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
    """Chart every solar day of ``first_year`` .. ``last_year`` (clipped to the calendar's
    range, 1583-01-01 .. 2650-12-31) × 13 time indices × 2 genders and write them to ``out``
    (see the module).

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
    first_year, last_year = runner.check_years(first_year, last_year)
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
    workers = runner.check_workers(workers)
    out = Path(out)
    from mingshu.files import check_folder

    check_folder(out, "out")  # before a cluster starts: a directory, or one to make
    started = time.perf_counter()  # the reported time includes reaching a cluster
    with ExitStack() as stack:
        client = None
        if scheduler is not None:
            client = stack.enter_context(cluster.connect(scheduler, workers))
        runner.prepare(out, metadata(settings, first_year, last_year))
        remote = None
        if client is not None:
            # Absolute: a worker's working directory is not this one.
            where = str(out.resolve())
            remote = partial(_on_cluster, client, where, settings=settings, backend=backend)
        report = runner.run_years(
            out,
            range(first_year, last_year + 1),
            year_rows,
            partial(_write_year, str(out), settings=settings, backend=backend),
            workers=workers,
            progress=progress,
            remote=remote,
        )
        return replace(report, seconds=time.perf_counter() - started)


def _on_cluster(
    client: Any,
    out: str,
    years: list[int],
    done: Any,
    *,
    settings: ZiweiSettings,
    backend: str,
) -> None:
    from mingshu.space import cluster

    cluster.run(client, out, years, settings, done, backend)
