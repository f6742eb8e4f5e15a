"""Sweep speed and size: the natal Zi Wei space and the BaZi space, and three claim queries.

    .venv/bin/python bench/bench_sweep.py [--workers N] [--engine-years 2] [--bazi-years 2]
                                          [--only ziwei|bazi]

Prints, each as wall time (other load on the machine slows every figure; the machine's
load average is printed first):

1. the whole natal space 1900-2100 with the default NumPy backend: once in this process
   (rows/s per core) and once with --workers processes (wall seconds, rows/s, per process),
   and the dataset's size on disk;
2. the engine backend (the reference) on --engine-years years in one process, for scale;
3. the seconds of three claims over the whole space (each: counterexamples and rows too)
   and of the whole claim check;
4. the BaZi space: the NumPy backend's first year (with its one-off set-up), --bazi-years
   years in one process with each backend (rows/s per core, and what that speed gives for
   1900-2100), then the whole BaZi space with the
   default NumPy backend and --workers processes (wall seconds, rows/s), its size, and the
   Literary Star claims over it.

``--only`` runs the Zi Wei part (1-3) or the BaZi part (4) alone.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from mingshu import bazi, space, ziwei
from mingshu.library.claims import sql_claims
from mingshu.space import bazi_numpy, bazi_sweep, claims
from mingshu.space.ziwei_sweep import year_rows

FULL = (1900, 2100)
THREE = (
    "en_guang_remainder_table",
    "six_hour_stars_four_forward_two_back",
    "di_kong_palace_by_month_split",
)


def size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--engine-years", type=int, default=2)
    parser.add_argument("--bazi-years", type=int, default=2)
    parser.add_argument("--only", choices=("ziwei", "bazi"))
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work slows every figure)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "bazi":
            bench_ziwei(Path(tmp), args.workers, args.engine_years)
        if args.only != "ziwei":
            bench_bazi(Path(tmp), args.workers, args.bazi_years)
    print(f"(natal rows: {sum(year_rows(y) for y in range(FULL[0], FULL[1] + 1)):,})")


def bench_ziwei(root: Path, workers: int, engine_years: int) -> None:
    settings = ziwei.ZiweiSettings()
    one = space.sweep_ziwei(root / "one", *FULL, settings, workers=1, progress=False)
    print(
        f"natal 1900-2100, NumPy backend, 1 process: {one.rows:,} rows in "
        f"{one.seconds:.1f} s = {one.rows_per_second:,.0f} rows/s per core"
    )
    many = space.sweep_ziwei(root / "many", *FULL, settings, workers=workers, progress=False)
    print(
        f"natal 1900-2100, NumPy backend, {workers} processes: {many.rows:,} rows in "
        f"{many.seconds:.1f} s wall = {many.rows_per_second:,.0f} rows/s "
        f"({many.rows_per_second / workers:,.0f} per process); "
        f"{size(root / 'many'):,} bytes on disk ({many.bytes / many.rows:.1f} bytes/row)"
    )
    years = range(2000, 2000 + engine_years)
    engine = space.sweep_ziwei(
        root / "engine", years[0], years[-1], settings, workers=1, progress=False,
        backend="engine",
    )  # fmt: skip
    print(
        f"engine backend, 1 process, {years[0]}-{years[-1]}: {engine.rows:,} rows in "
        f"{engine.seconds:.1f} s = {engine.rows_per_second:,.0f} rows/s per core "
        f"(NumPy is {one.rows_per_second / engine.rows_per_second:.0f}x)"
    )

    started = time.perf_counter()
    results = claims.check(root / "many", list(sql_claims().values()))
    total = time.perf_counter() - started
    for r in results:
        if r.claim.key in THREE:
            print(
                f"claim {r.claim.key}: {r.counterexamples} counterexamples in "
                f"{r.rows:,} rows, {r.seconds:.2f} s"
            )
    held = sum(r.holds is True for r in results)
    applied = sum(r.applies for r in results)
    print(f"all claims: {held} of {applied} that apply hold, {total:.1f} s")


def bench_bazi(root: Path, workers: int, bazi_years: int) -> None:
    years = range(1990, 1990 + bazi_years)
    bazi_rows = sum(bazi_sweep.year_rows(y) for y in range(FULL[0], FULL[1] + 1))
    started = time.perf_counter()
    bazi_numpy.year_table(1989, bazi.DEFAULT)  # builds the lookups once per process
    print(f"BaZi NumPy backend, first year with its set-up: {time.perf_counter() - started:.2f} s")
    speed = {}
    for backend in bazi_sweep.BACKENDS:
        b = space.sweep_bazi(
            root / f"bazi_{backend}", years[0], years[-1], bazi.DEFAULT, workers=1,
            progress=False, backend=backend,
        )  # fmt: skip
        speed[backend] = b.rows_per_second
        print(
            f"BaZi {years[0]}-{years[-1]}, {backend} backend, 1 process: {b.rows:,} rows in "
            f"{b.seconds:.2f} s = {b.rows_per_second:,.0f} rows/s per core; 1900-2100 "
            f"({bazi_rows:,} rows) at that speed: {bazi_rows / b.rows_per_second:.0f} s on one "
            f"core, {bazi_rows / b.rows_per_second / workers:.0f} s on {workers}"
        )
    print(f"(NumPy is {speed['numpy'] / speed['engine']:.0f}x the engine)")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    full = space.sweep_bazi(
        root / "bazi_full", *FULL, bazi.DEFAULT, workers=workers, progress=False
    )
    print(
        f"BaZi 1900-2100, NumPy backend, {workers} processes: {full.rows:,} rows in "
        f"{full.seconds:.1f} s wall = {full.rows_per_second:,.0f} rows/s "
        f"({full.rows_per_second / workers:,.0f} per process; load average before: {load}); "
        f"{size(root / 'bazi_full'):,} bytes"
    )
    bazi_claims = [c for c in sql_claims().values() if c.schema == claims.BAZI_SCHEMA]
    for r in claims.check(root / "bazi_full", bazi_claims):
        print(
            f"claim {r.claim.key}: {r.counterexamples} counterexamples in "
            f"{r.rows:,}, {r.seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
