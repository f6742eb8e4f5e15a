"""The sweep's pattern columns against the rest of a year's work, in one process.

    .venv/bin/python bench/bench_sweep_patterns.py [--from 1990] [--to 1999] [--repeat 3]

For each year of the range, the three steps of ``_write_year`` timed apart (CPU time of this
process, best of --repeat over the whole range, so other load disturbs it little): charting
the year's rows (NumPy backend, default settings), adding the ``patterns`` /
``patterns_broken`` columns (space/ziwei_patterns.py), and writing the partition with and
without those columns.  Prints what the columns add, in per cent of the sweep without them
(issue 23's goal: at most 20%).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

from mingshu.space.runner import write_partition
from mingshu.space.ziwei_patterns import with_patterns
from mingshu.space.ziwei_sweep import _year_table
from mingshu.ziwei import DEFAULT


def best(run: Callable[[], Any], repeat: int) -> float:
    found = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        found = min(found, time.process_time() - start)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="first", type=int, default=1990)
    parser.add_argument("--to", dest="last", type=int, default=1999)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    years = range(args.first, args.last + 1)
    tables = [_year_table(y, DEFAULT, "numpy") for y in years]
    full = [with_patterns(t, DEFAULT) for t in tables]
    with tempfile.TemporaryDirectory() as tmp:

        def write(which: list[Any], name: str) -> None:
            os.makedirs(os.path.join(tmp, name), exist_ok=True)
            for year, table in zip(years, which, strict=True):
                write_partition(os.path.join(tmp, name), year, table)

        chart = best(lambda: [_year_table(y, DEFAULT, "numpy") for y in years], args.repeat)
        columns = best(lambda: [with_patterns(t, DEFAULT) for t in tables], args.repeat)
        plain = best(lambda: write(tables, "plain"), args.repeat)
        written = best(lambda: write(full, "full"), args.repeat)
    base = chart + plain
    added = columns + written - plain
    print(
        f"years {years[0]}-{years[-1]}, CPU s (best of {args.repeat}), load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
    )
    print(f"chart the rows:       {chart:.3f}")
    print(f"pattern columns:      {columns:.3f}")
    print(f"write without them:   {plain:.3f}")
    print(f"write with them:      {written:.3f}")
    print(f"the columns add {added:.3f} s to {base:.3f} s: {100 * added / base:+.0f}%")


if __name__ == "__main__":
    main()
