"""The BaZi space as a Parquet dataset: every stretch of time 1583-2650 with one pillar set.

The four pillars change only at the start of a two-hour block (子 23:00, 丑 01:00 … 亥 21:00),
at midnight (the day pillar, under some late-Rat-hour settings) and at the exact moment of a 节
(the month pillar, and at 立春 the year pillar).  One row per stretch between two such
boundaries (Beijing clock time): 13 a day, and one more for each 节, whose moment splits its
block in two.  Each row holds the pillars (:func:`mingshu.bazi.four_pillars` at the row's
start) and, for **every variant of every symbolic star** in the engine's data
(``bazi/data/shensha.toml``, read generically: a star or variant added there becomes a column),
the pillars where :func:`mingshu.bazi.stars_in` finds it.  The sweep holds no star rule.

Two backends write the rows: ``numpy`` (the default, :mod:`mingshu.space.bazi_numpy`: the
engine's compiled star tables looked up over whole columns) and ``engine`` (the reference:
``four_pillars`` and ``stars_in`` a row, through the engine's public API); a test proves their
tables equal row for row.

Same layout as the Zi Wei sweep, by the same year runner (:mod:`mingshu.space.runner`):
``OUT/year=YYYY/part.parquet`` per Gregorian year of the row's start, written under a
temporary name and renamed, ``OUT/_mingshu.json`` first (schema ``mingshu.space.bazi/1``, the
settings, the column → star / variant mapping), resume, progress bar, Ctrl-C, a process pool.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mingshu.arguments import check_path
from mingshu.choices import check_bool
from mingshu.errors import InputError
from mingshu.named import clip
from mingshu.space import runner
from mingshu.space.runner import BACKENDS, BAZI_SCHEMA, FIRST_DAY, LAST_DAY, PART, SweepReport

if TYPE_CHECKING:
    from mingshu.bazi import BaziSettings

__all__ = [
    "BACKENDS",
    "BLOCK_STARTS",
    "columns",
    "engine_table",
    "metadata",
    "star_columns",
    "sweep_bazi",
    "year_rows",
    "year_table",
]

BLOCK_STARTS: Final = (0, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23)
"""The clock hours a row can start at (besides a 节): midnight and every 时辰's start."""
BACKWARD: Final = "__backward"
"""Suffix of the column of a gender-dependent variant's table for 阴男 / 阳女."""


def star_columns() -> tuple[tuple[str, str, str, bool], ...]:
    """Every (column, star key, variant id, backward) of the engine's star data, in its order:
    ``<star>__<variant>``, and ``<star>__<variant>__backward`` for a gendered table."""
    from mingshu.bazi import STARS

    out: list[tuple[str, str, str, bool]] = []
    for star in STARS:
        for variant in star.variants:
            name = f"{star.key}__{variant.id}"
            out.append((name, star.key, variant.id, False))
            if variant.gendered:
                out.append((name + BACKWARD, star.key, variant.id, True))
    return tuple(out)


def columns() -> tuple[str, ...]:
    """The dataset's columns (``year`` comes from the partition path)."""
    base = ("start", "end", "year_pillar", "month_pillar", "day_pillar", "hour_pillar")
    return base + tuple(c for c, _, _, _ in star_columns())


def _schema() -> Any:
    import pyarrow as pa

    stamp = pa.timestamp("s")
    fields = [pa.field("start", stamp, nullable=False), pa.field("end", stamp, nullable=False)]
    fields += [pa.field(f"{p}_pillar", pa.int8(), nullable=False) for p in _PILLARS]
    fields += [pa.field(c, pa.int8(), nullable=False) for c, _, _, _ in star_columns()]
    return pa.schema(fields)


_PILLARS: Final = ("year", "month", "day", "hour")


@cache
def _variant_settings(settings: BaziSettings) -> tuple[BaziSettings, ...]:
    """Settings values that together choose every variant once: the k-th value takes each
    star's k-th variant (a star with fewer keeps its default)."""
    from mingshu.bazi import STARS

    most = max(len(s.variants) for s in STARS)
    return tuple(
        settings.with_variants(**{s.key: s.variants[k].id for s in STARS if len(s.variants) > k})
        for k in range(most)
    )


def _boundaries(year: int) -> list[dt.datetime]:
    """Every row start of ``year`` (clipped to the calendar's range) and the end of the last."""
    from mingshu.bazi.pillars import jie_index

    first = max(dt.date(year, 1, 1), FIRST_DAY)
    last = min(dt.date(year, 12, 31), LAST_DAY)
    begin = dt.datetime.combine(first, dt.time())
    end = dt.datetime.combine(last + dt.timedelta(days=1), dt.time())
    points = {
        dt.datetime.combine(first + dt.timedelta(days=n), dt.time(hour))
        for n in range((last - first).days + 1)
        for hour in BLOCK_STARTS
    }
    moments = jie_index().moments
    for moment in moments[bisect_left(moments, begin) : bisect_left(moments, end)]:
        points.add(moment)
    return [*sorted(points), end]


def year_rows(year: int) -> int:
    """How many rows a year has: 13 a day in the calendar range, and one more for each 节
    of the year that is not on the hour of a row start."""
    from mingshu.bazi.pillars import jie_index

    first = max(dt.date(year, 1, 1), FIRST_DAY)
    last = min(dt.date(year, 12, 31), LAST_DAY)
    begin = dt.datetime.combine(first, dt.time())
    end = dt.datetime.combine(last + dt.timedelta(days=1), dt.time())
    moments = jie_index().moments
    inside = moments[bisect_left(moments, begin) : bisect_left(moments, end)]
    on_block = sum(m.hour in BLOCK_STARTS and not m.minute and not m.second for m in inside)
    return ((last - first).days + 1) * len(BLOCK_STARTS) + len(inside) - on_block


def _masks(results: Any) -> Iterator[int]:
    for result in results:
        mask = 0
        for hit in result.hits:
            mask |= 1 << int(hit.position)
        yield mask


@cache
def _wanted(settings: BaziSettings) -> tuple[tuple[tuple[int, int, bool], ...], ...]:
    """For each of :func:`_variant_settings`, the columns it fills: (star number, column
    number, backward) for each star's k-th variant (and its 阴男 / 阳女 table)."""
    from mingshu.bazi import STARS

    index = {c: i for i, (c, _, _, _) in enumerate(star_columns())}
    wanted: list[list[tuple[int, int, bool]]] = [[] for _ in _variant_settings(settings)]
    for n, star in enumerate(STARS):
        for k, variant in enumerate(star.variants):
            column = f"{star.key}__{variant.id}"
            wanted[k].append((n, index[column], False))
            if variant.gendered:
                wanted[k].append((n, index[column + BACKWARD], True))
    return tuple(tuple(w) for w in wanted)


def year_table(year: int, settings: BaziSettings, backend: str = "numpy") -> Any:
    """Every row of ``year`` as a pyarrow table (see the module), from ``backend``
    (:data:`BACKENDS`; the rows are the same)."""
    if backend == "numpy":
        from mingshu.space import bazi_numpy

        return bazi_numpy.year_table(year, settings)
    points = _boundaries(year)
    return engine_table(points[:-1], points[1:], settings)


def engine_table(
    starts: Sequence[dt.datetime], ends: Sequence[dt.datetime], settings: BaziSettings
) -> Any:
    """The rows of the stretches ``starts[r]`` .. ``ends[r]`` (Beijing clock time) as a
    pyarrow table, one ``bazi.four_pillars`` and one ``bazi.stars_in`` per variant settings
    value a row: the reference backend."""
    import pyarrow as pa

    from mingshu.bazi import four_pillars, stars_in

    each = _variant_settings(settings)
    wanted = _wanted(settings)
    backward_needed = [any(b for _, _, b in w) for w in wanted]
    pillars: list[list[int]] = [[], [], [], []]
    hits: list[list[int]] = [[] for _ in star_columns()]
    for start in starts:
        four = four_pillars(start, settings)
        for values, p in zip(pillars, four, strict=True):
            values.append(p.index)
        for k, chosen in enumerate(each):
            forward = tuple(_masks(stars_in(*four, backward=False, settings=chosen)))
            backward = (
                tuple(_masks(stars_in(*four, backward=True, settings=chosen)))
                if backward_needed[k]
                else forward
            )
            for n, i, is_backward in wanted[k]:
                hits[i].append(backward[n] if is_backward else forward[n])
    schema = _schema()
    stamp = pa.timestamp("s")
    arrays = [pa.array(starts, type=stamp), pa.array(ends, type=stamp)]
    arrays += [pa.array(c, type=pa.int8()) for c in pillars]
    arrays += [pa.array(c, type=pa.int8()) for c in hits]
    return pa.Table.from_arrays(arrays, schema=schema)


def _write_year(
    out: str, year: int, settings: BaziSettings, backend: str = "numpy"
) -> tuple[int, int, int]:
    return runner.write_partition(out, year, year_table(year, settings, backend))


def metadata(settings: BaziSettings, first_year: int, last_year: int) -> dict[str, Any]:
    """The contents of ``_mingshu.json`` of a BaZi dataset."""
    from mingshu import __version__
    from mingshu.bazi import STARS, Position
    from mingshu.cycles import SIXTY, Branch, Stem

    def named(member: Any) -> dict[str, Any]:
        n = member.names
        return {"key": member.key, "hans": n.hans, "hant": n.hant, "english": n.english}

    return {
        "schema": BAZI_SCHEMA,
        "mingshu_version": __version__,
        "settings": settings.as_dict(),
        "first_year": first_year,
        "last_year": last_year,
        "first_day": FIRST_DAY.isoformat(),
        "last_day": LAST_DAY.isoformat(),
        "partitions": f"year=YYYY/{PART}",
        "clock": "Beijing civil time (UTC+8), naive; a row covers start <= t < end",
        "branches": {str(int(b)): named(b) for b in Branch},
        "stems": {str(int(s)): named(s) for s in Stem},
        "pillars": {str(p.index): str(p) for p in SIXTY},
        "positions": {str(1 << int(p)): named(p) for p in Position},
        "stars": {
            s.key: {
                "hans": s.names.hans,
                "hant": s.names.hant,
                "english": s.names.english,
                "default": s.default,
                "variants": {
                    v.id: {
                        "label": v.label,
                        "gendered": v.gendered,
                        "source": v.source.status,
                        "columns": [f"{s.key}__{v.id}"]
                        + ([f"{s.key}__{v.id}{BACKWARD}"] if v.gendered else []),
                    }
                    for v in s.variants
                },
            }
            for s in STARS
        },
    }


def sweep_bazi(
    out: Path | str,
    first_year: int,
    last_year: int,
    settings: BaziSettings | None = None,
    *,
    workers: int | None = None,
    progress: bool = True,
    backend: str = "numpy",
) -> SweepReport:
    """Write every pillar set of ``first_year`` .. ``last_year`` (clipped to the calendar's
    range, 1583-01-01 .. 2650-12-31) with its symbolic-star hits per variant to ``out`` (see
    the module).

    ``workers`` processes write years in parallel (default: every core).  A year whose
    partition exists is skipped; Ctrl-C stops handing out years and is re-raised once the
    years being written are renamed into place.

    ``backend`` is ``"numpy"`` (the default) or ``"engine"`` (:data:`BACKENDS`): the rows are
    the same, the engine is about 20 times slower."""
    from mingshu.bazi import DEFAULT, BaziSettings

    out = check_path(out, "out")
    check_bool(progress, "progress")
    first_year, last_year = runner.check_years(first_year, last_year)
    if backend not in BACKENDS:
        raise InputError("backend", f"{clip(backend)} is not a backend: use one of {BACKENDS}")
    settings = DEFAULT if settings is None else settings
    if not isinstance(settings, BaziSettings):
        raise InputError("settings", f"give BaziSettings, not {type(settings).__name__}")
    workers = runner.check_workers(workers)
    runner.prepare(out, metadata(settings, first_year, last_year))
    return runner.run_years(
        out,
        range(first_year, last_year + 1),
        lambda y: len(_boundaries(y)) - 1,
        partial(_write_year, str(out), settings=settings, backend=backend),
        workers=workers,
        progress=progress,
    )
