"""Sweep speed and size: the natal Zi Wei space and the BaZi space, and three claim queries.

    .venv/bin/python bench/bench_sweep.py [--workers N] [--engine-years 2] [--bazi-years 2]
                                          [--full-bazi]

Prints, each as wall time (other load on the machine slows every figure; the machine's
load average is printed first):

1. the whole natal space 1900-2100 with the default NumPy backend: once in this process
   (rows/s per core) and once with --workers processes (wall seconds, rows/s, per process),
   and the dataset's size on disk;
2. the engine backend (the reference) on --engine-years years in one process, for scale;
3. the seconds of three claims over the whole space (each: counterexamples and rows too)
   and of the whole claim check;
4. the BaZi space: --bazi-years years in one process (rows/s per core) and what that gives
   for 1900-2100; with --full-bazi the whole BaZi space with --workers processes, its size,
   and the Literary Star claims over it.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path

from mingshu import bazi, space, ziwei
from mingshu.space import bazi_sweep, claims
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
    parser.add_argument("--full-bazi", action="store_true")
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work slows every figure)"
    )
    settings = ziwei.ZiweiSettings()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        one = space.sweep_ziwei(root / "one", *FULL, settings, workers=1, progress=False)
        print(
            f"natal 1900-2100, NumPy backend, 1 process: {one.rows:,} rows in "
            f"{one.seconds:.1f} s = {one.rows_per_second:,.0f} rows/s per core"
        )
        many = space.sweep_ziwei(
            root / "many", *FULL, settings, workers=args.workers, progress=False
        )
        print(
            f"natal 1900-2100, NumPy backend, {args.workers} processes: {many.rows:,} rows in "
            f"{many.seconds:.1f} s wall = {many.rows_per_second:,.0f} rows/s "
            f"({many.rows_per_second / args.workers:,.0f} per process); "
            f"{size(root / 'many'):,} bytes on disk ({many.bytes / many.rows:.1f} bytes/row)"
        )
        years = range(2000, 2000 + args.engine_years)
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
        results = claims.check(root / "many")
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

        years = range(1990, 1990 + args.bazi_years)
        b = space.sweep_bazi(root / "bazi", years[0], years[-1], bazi.DEFAULT, workers=1,
                             progress=False)  # fmt: skip
        bazi_rows = sum(len(bazi_sweep._boundaries(y)) - 1 for y in range(FULL[0], FULL[1] + 1))
        print(
            f"BaZi {years[0]}-{years[-1]}, 1 process: {b.rows:,} rows in {b.seconds:.1f} s = "
            f"{b.rows_per_second:,.0f} rows/s per core; 1900-2100 is {bazi_rows:,} rows: about "
            f"{bazi_rows / b.rows_per_second:.0f} s on one core, "
            f"{bazi_rows / b.rows_per_second / args.workers:.0f} s on {args.workers}, "
            f"{bazi_rows * b.bytes / b.rows / 1e6:.0f} MB"
        )
        if args.full_bazi:
            full = space.sweep_bazi(
                root / "bazi_full", *FULL, bazi.DEFAULT, workers=args.workers, progress=False
            )
            print(
                f"BaZi 1900-2100, {args.workers} processes: {full.rows:,} rows in "
                f"{full.seconds:.1f} s wall = {full.rows_per_second / args.workers:,.0f} rows/s "
                f"per process; {size(root / 'bazi_full'):,} bytes"
            )
            for r in claims.check(root / "bazi_full", claims.BAZI_CLAIMS):
                print(
                    f"claim {r.claim.key}: {r.counterexamples} counterexamples in "
                    f"{r.rows:,}, {r.seconds:.2f} s"
                )
    print(f"(natal rows: {sum(year_rows(y) for y in range(FULL[0], FULL[1] + 1)):,})")


if __name__ == "__main__":
    main()
