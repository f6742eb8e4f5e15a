"""Zi Wei speed as CPU instructions per chart (valgrind's callgrind), steady on a busy machine.

    .venv/bin/python bench/instructions_ziwei.py [--cases 200] [--warm 1000]

Wall-clock figures (bench_ziwei.py) swing with other load on a shared machine; instruction
counts do not, so compare versions with these.  Each figure is the difference between two
runs of this script under ``valgrind --tool=callgrind`` that do the same set-up and differ
only in the step measured, divided by --cases.  The set-up is a process in use: imports,
--warm other births drawn and exported (every cache that outlives a chart, the pattern
detector's kept readings among them, is as warm as after that many charts), then --cases
new births drawn but never exported nor asked for their patterns; then the cyclic garbage
collector is run and frozen, so that a collection of the set-up's objects cannot land in
one step and not the other.  Every step works on the new births:

* chart: ``from_birth`` again for every new birth;
* export: ``to_json`` of every new chart (export and serialisation);
* chart + JSON bytes: both, as ``bench_ziwei.py``'s "natal + JSON bytes" does;
* the same without patterns: ``chart.patterns()`` answering none (``"patterns": []``);
* patterns: ``chart.patterns()`` of every new chart.

Last, what patterns add to the chart and its JSON (issue 23's goal: at most 20%).

Needs valgrind on the PATH; takes a few minutes.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import callgrind

STEPS = (
    "chart",
    "export",
    "chart + JSON bytes",
    "without patterns",
    "patterns",
)


def run_step(step: str, cases: int, warm: int) -> None:
    """The measured run (under valgrind): set-up, then ``step`` ("" for the set-up alone)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_ziwei import births
    from mingshu.present import to_json
    from mingshu.ziwei import from_birth

    for b in births(warm, random.Random(1)):
        to_json(from_birth(b))
    people = births(cases, random.Random(2))
    charts = [from_birth(b) for b in people]
    gc.collect()
    gc.freeze()
    if step == "chart":
        for b in people:
            from_birth(b)
    elif step == "export":
        for c in charts:
            to_json(c)
    elif step == "chart + JSON bytes":
        for b in people:
            to_json(from_birth(b))
    elif step == "without patterns":
        from mingshu.ziwei.chart import NatalChart

        NatalChart.patterns = lambda self, variant="book": ()  # type: ignore[method-assign]
        for b in people:
            to_json(from_birth(b))
    elif step == "patterns":
        for c in charts:
            c.patterns()


def instructions(step: str, cases: int, warm: int) -> int:
    return callgrind.instructions(
        __file__, "--run", step, "--cases", str(cases), "--warm", str(warm)
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=200, help="new births measured")
    parser.add_argument("--warm", type=int, default=1000, help="births drawn before them")
    parser.add_argument("--run", help=argparse.SUPPRESS)  # the child under valgrind
    args = parser.parse_args(argv)
    if args.run is not None:
        run_step("" if args.run == "setup" else args.run, args.cases, args.warm)
        return
    base = instructions("setup", args.cases, args.warm)
    print(
        f"mingshu Zi Wei instructions per new chart (callgrind, {args.cases} births "
        f"after {args.warm} others)"
    )
    counts = {}
    for step in STEPS:
        counts[step] = count = (instructions(step, args.cases, args.warm) - base) / args.cases
        print(f"{step + ':':22s} {count:>10,.0f}")
    with_, without = counts["chart + JSON bytes"], counts["without patterns"]
    print(f"patterns add {100 * (with_ - without) / without:.0f}% to the chart + JSON bytes")


if __name__ == "__main__":
    main()
