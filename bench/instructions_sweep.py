"""The sweep's pattern columns against the rest of a year's work, as CPU instructions
(valgrind's callgrind), steady on a busy machine.

    .venv/bin/python bench/instructions_sweep.py [--from 1990] [--to 1991]

bench_sweep_patterns.py times the same steps in CPU seconds, which swing with other load on a
shared machine; instruction counts do not, so compare versions with these.  Each figure is
the difference between two runs of this script under ``valgrind --tool=callgrind`` that do
the same set-up (imports; every year of the range charted, given its pattern columns and
written with and without them once, so that the caches are warm) and differ only in the
step measured, for the whole range:

* chart the rows: ``_year_table`` of each year again (NumPy backend, default settings);
* pattern columns: ``with_patterns`` of each year's rows;
* write without them / write with them: each year's partition (``write_partition``).

Last, what the columns add, in per cent of the sweep without them (issue 23's goal: at most
20%).  Needs valgrind on the PATH; takes a few minutes.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Sequence

import callgrind

STEPS = ("chart the rows", "pattern columns", "write without them", "write with them")


def run_step(step: str, years: range) -> None:
    """The measured run (under valgrind): set-up, then ``step`` ("" for the set-up alone)."""
    from mingshu.space.runner import write_partition
    from mingshu.space.ziwei_patterns import with_patterns
    from mingshu.space.ziwei_sweep import _year_table
    from mingshu.ziwei import DEFAULT

    tables = [_year_table(y, DEFAULT, "numpy") for y in years]
    full = [with_patterns(t, DEFAULT) for t in tables]
    with tempfile.TemporaryDirectory() as tmp:
        for name, which in (("plain", tables), ("full", full)):
            os.makedirs(os.path.join(tmp, name))
            for year, table in zip(years, which, strict=True):
                write_partition(os.path.join(tmp, name), year, table)
        if step == "chart the rows":
            for y in years:
                _year_table(y, DEFAULT, "numpy")
        elif step == "pattern columns":
            for t in tables:
                with_patterns(t, DEFAULT)
        elif step.startswith("write"):
            which, name = (tables, "plain") if step == "write without them" else (full, "full")
            for year, table in zip(years, which, strict=True):
                write_partition(os.path.join(tmp, name), year, table)


def instructions(step: str, first: int, last: int) -> int:
    return callgrind.instructions(__file__, "--run", step, "--from", str(first), "--to", str(last))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="first", type=int, default=1990)
    parser.add_argument("--to", dest="last", type=int, default=1991)
    parser.add_argument("--run", help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args(argv)
    years = range(args.first, args.last + 1)
    if args.run is not None:
        run_step("" if args.run == "setup" else args.run, years)
        return
    base = instructions("setup", args.first, args.last)
    print(f"years {args.first}-{args.last}, instructions (callgrind, millions, warm caches)")
    counts = {}
    for step in STEPS:
        counts[step] = count = (instructions(step, args.first, args.last) - base) / 1e6
        print(f"{step + ':':22s} {count:>10,.1f}")
    base = counts["chart the rows"] + counts["write without them"]
    added = counts["pattern columns"] + counts["write with them"] - counts["write without them"]
    print(f"the columns add {added:,.1f} M to {base:,.1f} M: {100 * added / base:+.0f}%")


if __name__ == "__main__":
    main()
