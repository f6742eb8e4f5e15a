"""Sweep speed: the engine-backed ``mingshu.space.sweep_ziwei``, rows per second and bytes.

    .venv/bin/python bench/bench_sweep.py [--years 2] [--first 2000] [--workers N]

Sweeps --years years from --first into a temporary directory twice: once in this process
(one core: charting, column building and the Parquet write) and once with --workers
processes (default: every core), and prints rows/s per core and in total, bytes per row, and
what those figures give for the whole space 1900-01-31 .. 2100-12-31 (rows, MB, time).
Wall time: other load on the machine slows it.  The rows come from ``ziwei.from_birth``, one
chart at a time (about 38 µs a chart in bench_ziwei.py, plus reading 66 stars out of it).
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
from pathlib import Path

from mingshu import space, ziwei
from mingshu.space.ziwei_sweep import year_rows

FULL_YEARS = range(1900, 2101)


def run(years: range, workers: int) -> space.SweepReport:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "charts"
        return space.sweep_ziwei(
            out, years[0], years[-1], ziwei.ZiweiSettings(), workers=workers, progress=False
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", type=int, default=2)
    parser.add_argument("--first", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    years = range(args.first, args.first + args.years)
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores; years {years[0]}..{years[-1]}"
    )

    import pyarrow.parquet  # noqa: F401  (warm-up: imports and the column list, not timed)

    from mingshu.space.ziwei_sweep import columns

    columns(ziwei.ZiweiSettings())
    one = run(years, 1)
    print(
        f"1 process:  {one.rows:,} rows in {one.seconds:.2f} s = {one.rows_per_second:,.0f} rows/s"
        f" per core; {one.bytes:,} bytes = {one.bytes / one.rows:.1f} bytes/row"
    )
    many = run(years, args.workers)
    print(
        f"{args.workers} processes: {many.rows:,} rows in {many.seconds:.2f} s = "
        f"{many.rows_per_second:,.0f} rows/s in total "
        f"({many.rows_per_second / args.workers:,.0f} per process)"
    )

    rows = sum(year_rows(y) for y in FULL_YEARS)
    size = rows * one.bytes / one.rows
    print(
        f"whole space 1900-2100: {rows:,} rows, about {size / 1e6:.0f} MB; "
        f"{rows / one.rows_per_second / 60:.1f} min on one core, "
        f"{rows / many.rows_per_second / 60:.1f} min with {args.workers} processes "
        "(target of issue 8: 30 s on 2 cores, which needs a vectorised backend)"
    )


if __name__ == "__main__":
    main()
